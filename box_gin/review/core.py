"""Reviewing played hands: every decision of a seat evaluated, rated and explained.

>>> from box_gin import Hand, greedy_bot
>>> hand = Hand.deal(seed=4)
>>> while not hand.is_over:
...     hand.apply(greedy_bot(hand.view(hand.to_play)))
>>> review = review_hands(played_hands(hand.record()), seat="box", seed=1)
>>> {d.player for h in review.hands for d in h.decisions}
{'box'}
>>> [s.player for s in review.summaries()]
['box']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..cards import Card
from ..errors import RecordError
from ..hand import Hand, Phase, Role
from ..i18n import _
from .classify import Rating, rate, reason
from .evaluate import Evaluation, evaluate
from .playout import MASK64, SplitMix64
from .records import PlayedHand, played_hands

__all__ = ["Decision", "Review", "ReviewedHand", "SeatSummary", "played_hands",
           "review_hands", "summarize"]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one seat: where it was, what was played, what it was worth."""

    game: int
    number: int
    #: The action's place in the hand's actions (from 0).
    step: int
    player: str
    role: Role
    phase: Phase
    stock_size: int
    #: The seat's cards and the top of the discard pile when it decided.
    cards: tuple[Card, ...]
    top_discard: Card | None
    played: Action
    evaluation: Evaluation
    loss: float
    rating: Rating
    reason: str

    @property
    def best(self) -> Action:
        """The best action."""
        return self.evaluation.best.action


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One player's decisions summed up: how many, the mean expected points lost per
    decision, and the accuracy (the share rated best or good)."""

    player: str
    decisions: int
    mean_loss: float
    accuracy: float
    ratings: dict[Rating, int]


def summarize(decisions: Sequence[Decision]) -> list[SeatSummary]:
    """Each player's :class:`SeatSummary`, in the order they first decide."""
    players: dict[str, list[Decision]] = {}
    for d in decisions:
        players.setdefault(d.player, []).append(d)
    out = []
    for player, mine in players.items():
        counts = {r: sum(1 for d in mine if d.rating is r) for r in Rating}
        out.append(SeatSummary(player, len(mine), sum(d.loss for d in mine) / len(mine),
                               sum(1 for d in mine if d.rating.fine) / len(mine), counts))
    return out


@dataclass(frozen=True, slots=True)
class ReviewedHand:
    """One hand and the reviewed decisions in it."""

    played: PlayedHand
    decisions: tuple[Decision, ...]

    def summaries(self) -> list[SeatSummary]:
        """Each reviewed player's summary for this hand."""
        return summarize(self.decisions)


@dataclass(frozen=True, slots=True)
class Review:
    """Every reviewed hand of a record, and the seed the worlds were drawn from."""

    hands: tuple[ReviewedHand, ...]
    seed: int

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(d for h in self.hands for d in h.decisions)

    def summaries(self) -> list[SeatSummary]:
        """Each reviewed player's summary over every hand (per match)."""
        return summarize(self.decisions)

    def to_dict(self) -> dict[str, Any]:
        """The review as plain data (for JSON): the seed, each player's summary, and each
        decision with its place, the action played, its rating and loss, and every
        action's value (actions in the engine's text, ratings by their English key)."""
        return {
            "seed": self.seed,
            "summaries": [{
                "player": s.player, "decisions": s.decisions, "mean_loss": s.mean_loss,
                "accuracy": s.accuracy, "ratings": {r.value: n for r, n in s.ratings.items()},
            } for s in self.summaries()],
            "decisions": [{
                "game": d.game, "hand": d.number, "step": d.step, "player": d.player,
                "role": d.role.value, "phase": d.phase.value, "stock": d.stock_size,
                "played": str(d.played), "best": str(d.best), "rating": d.rating.value,
                "loss": d.loss, "reason": d.reason, "worlds": d.evaluation.worlds,
                "chosen_on": d.evaluation.chosen_on,
                "exact": d.evaluation.exact, "separated": d.evaluation.separated,
                "values": [{"action": str(v.action), "value": v.value, "stderr": v.stderr}
                           for v in d.evaluation.values],
            } for d in self.decisions],
        }


def decision_seed(seed: int, game: int, number: int, step: int) -> int:
    """The seed of one decision's worlds: the review's seed mixed with where it is."""
    rng = SplitMix64((seed * 0x100000001B3 + game * 65_537 + number * 257 + step) & MASK64)
    return rng.next()


def review_hand(played: PlayedHand, seats: set[str] | None = None, seed: int = 0,
                evaluator: Callable[..., Evaluation] = evaluate) -> ReviewedHand:
    """Every decision (a choice among two actions or more) of the players in ``seats``
    (all when ``None``) in one played hand, evaluated from that seat's view."""
    final = played.hand
    hand = Hand.deal(final.rules, deck=final.deck)
    decisions: list[Decision] = []
    for step, (role, action) in enumerate(final.history):
        player = played.player(role)
        if (seats is None or player in seats) and len(hand.legal_actions()) > 1:
            view = hand.view(role)
            evaluation = evaluator(view, seed=decision_seed(seed, played.game, played.number,
                                                            step), doubled=hand.doubled,
                                   played=action)
            loss = evaluation.loss(action)
            decisions.append(Decision(
                played.game, played.number, step, player, role, hand.phase, hand.stock_size,
                view.hand, view.top_discard, action, evaluation, loss, rate(loss),
                reason(view, evaluation, action)))
        hand.apply(action)
    return ReviewedHand(played, tuple(decisions))


def players_of(hands: Sequence[PlayedHand]) -> list[str]:
    """The players who held a card in any of the hands, in order of appearance."""
    names: list[str] = []
    for h in hands:
        for role in (Role.CAPTAIN, Role.BOX):
            if h.player(role) not in names:
                names.append(h.player(role))
    return names


def review_hands(hands: Sequence[PlayedHand], seat: str | None = None, seed: int = 0,
                 evaluator: Callable[..., Evaluation] = evaluate) -> Review:
    """Review every hand: the decisions of ``seat`` (a player's name; for a hand record
    ``captain`` or ``box``), or of every player.  An unknown seat raises
    :class:`~box_gin.errors.RecordError` naming the players there are."""
    if seat is not None and seat not in players_of(hands):
        raise RecordError(_("no player {seat!r} holds cards in this record: the players "
                            "are {players}").format(
            seat=seat, players=", ".join(players_of(hands))), "seat")
    seats = None if seat is None else {seat}
    return Review(tuple(review_hand(h, seats, seed, evaluator) for h in hands), seed)
