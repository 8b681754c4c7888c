"""The plain bots: random, greedy, and the greedy sitter's advice (:func:`advise`).

>>> from box_gin import Hand
>>> hand = Hand.deal(seed=1)
>>> advice = advise(hand.view("captain"))
>>> str(advice.action), bool(advice.reason)
('pass', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..actions import DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind, discard, knock
from ..cards import Card
from ..errors import IllegalActionError
from ..hand import Phase, SeatView
from ..i18n import _
from ..knocking import DiscardAnalysis, best_discards
from ..match import SitterView
from ..melds import best_melds

#: A bot: given what its seat may see, the action it plays.
Bot = Callable[[SeatView], Action]


def require_turn(view: SeatView) -> None:
    if not view.legal_actions:
        raise IllegalActionError(
            _("it is not the {role}'s turn: there is nothing to decide").format(
                role=view.role.label)
        )


def random_bot(view: SeatView, rng: random.Random | None = None) -> Action:
    """Any legal action, chosen uniformly at random (``rng``: a seeded generator)."""
    require_turn(view)
    return (rng or random).choice(view.legal_actions)


def seeded_random_bot(seed: int | None) -> Bot:
    """A random bot with its own seeded generator, so its play can be replayed."""
    rng = random.Random(seed)

    def bot(view: SeatView) -> Action:
        return random_bot(view, rng)

    bot.__name__ = f"random_bot(seed={seed})"
    return bot


@dataclass(frozen=True, slots=True)
class Advice:
    """A suggested action and a one-line reason, in the language in use."""

    action: Action
    reason: str

    def __str__(self) -> str:
        return _("{action}: {reason}").format(action=self.action.label, reason=self.reason)


def _taking(view: SeatView, card: Card) -> DiscardAnalysis:
    """The analysis of the eleven cards after taking ``card``."""
    forbidden = None if view.rules.may_discard_taken_card else card
    return best_discards((*view.hand, card), view.rules, knock_limit=view.knock_limit,
                         forbidden=forbidden)


def _melds_after(analysis: DiscardAnalysis, card: Card) -> bool:
    """Whether ``card`` sits in a meld once the best discard (the highest) is made."""
    after = analysis.arrangement_after(max(analysis.best))
    return any(card in m for m in after.melds)


def _discard_choice(analysis: DiscardAnalysis) -> Card:
    """Among the discards of least deadwood, the highest card (shed the most points)."""
    return max(analysis.best, key=lambda c: (c.value, c))


def advise(view: SeatView | SitterView) -> Advice:
    """The sitter's suggestion for the seat to play, with a one-line reason (given the
    sitter's own view, the advice is for the captain it watches).

    The greedy policy: take a discard that makes a meld and lowers the deadwood; go big
    gin or gin, else knock, whenever the rules allow; otherwise shed the card whose
    discard leaves the least deadwood, the highest such card first.
    """
    action, reason = _greedy(view)
    return Advice(action, reason())


def _greedy(view: SeatView | SitterView) -> tuple[Action, Callable[[], str]]:
    """The greedy policy's action, and its reason in words (made only when asked: the
    bot itself needs none)."""
    if isinstance(view, SitterView):
        view = view.captain
    require_turn(view)
    now = best_melds(view.hand).deadwood_value if len(view.hand) == 10 else None
    if view.phase in (Phase.UPCARD_OFFER, Phase.DRAW):
        top = view.top_discard
        can_take = top is not None and (
            view.phase is Phase.UPCARD_OFFER or DRAW_DISCARD in view.legal_actions)
        if can_take and top is not None and now is not None:
            analysis = _taking(view, top)
            # The deadwood first: the arrangement is worked out only when it lowers.
            if analysis.least_deadwood < now and _melds_after(analysis, top):
                action = TAKE if view.phase is Phase.UPCARD_OFFER else DRAW_DISCARD
                return action, lambda: _(
                    "the {card} makes a meld and brings your deadwood from {before} down to "
                    "{after}").format(card=top.label, before=now, after=analysis.least_deadwood)
        if view.phase is Phase.UPCARD_OFFER:
            return PASS, lambda: _("the {card} makes no meld that lowers your deadwood "
                                   "({now})").format(card=top.label if top else "-", now=now)
        if top is not None and DRAW_DISCARD not in view.legal_actions:
            return DRAW_STOCK, lambda: _("after both passes the first draw is from the stock")
        return DRAW_STOCK, lambda: _("the {card} on the pile would not help you: try the "
                                     "stock").format(card=top.label if top else "-")
    forbidden = None if view.rules.may_discard_taken_card else view.taken_card
    analysis = best_discards(view.hand, view.rules, knock_limit=view.knock_limit,
                             forbidden=forbidden)
    if any(a.kind is ActionKind.BIG_GIN for a in view.legal_actions):
        return Action(ActionKind.BIG_GIN), lambda: _("all eleven of your cards are melded")
    card = _discard_choice(analysis)
    if analysis.can_gin:
        return knock(card), lambda: _("discard the {card} and every other card is melded: "
                                      "gin").format(card=card.label)
    if analysis.can_knock:
        return knock(card), lambda: _(
            "discard the {card} and your deadwood is {value}, within the knock limit of "
            "{limit}").format(card=card.label, value=analysis.least_deadwood,
                              limit=analysis.knock_limit)
    return discard(card), lambda: _(
        "discarding the {card} leaves the least deadwood you can keep, {value}").format(
        card=card.label, value=analysis.least_deadwood)


def greedy_bot(view: SeatView | SitterView) -> Action:
    """Keep deadwood low, knock whenever possible, take a discard that makes a meld."""
    return _greedy(view)[0]
