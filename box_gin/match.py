"""The three-player match: the cut for roles, the box dealing every hand, the rotation
of roles, cumulative scores, the winner at the target, and a complete history.

>>> from box_gin.bots import greedy_bot
>>> match = Match.new(["Ada", "Ben", "Cy"], seed=3)
>>> sorted(match.roles.values()) == ["Ada", "Ben", "Cy"]
True
>>> match.play({name: greedy_bot for name in match.players})
>>> match.is_over, match.winner in match.players
(True, True)
>>> Match.from_json(match.to_json()).scores == match.scores
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import Card, full_deck
from .errors import IllegalActionError
from .hand import Hand, HandResult, Role, SeatView
from .i18n import _
from .rules import STANDARD, Rules

FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class CutRound:
    """One round of cutting: the card each player in it cut."""

    cards: tuple[tuple[str, Card], ...]


def cut_for_roles(players: Sequence[str], rng: random.Random
                  ) -> tuple[dict[Role, str], list[CutRound]]:
    """Each player cuts a card: highest rank is box, middle captain, lowest sitter.

    Suits do not break ties: tied players cut again among themselves, only for the
    places still in doubt.  Returns the roles and every round of cutting.
    """
    rounds: list[CutRound] = []
    order: list[str] = []

    def place(group: list[str]) -> None:
        while True:
            deck = list(full_deck())
            rng.shuffle(deck)
            cut = {name: deck[i] for i, name in enumerate(group)}
            rounds.append(CutRound(tuple(cut.items())))
            ranks = sorted({c.rank for c in cut.values()}, reverse=True)
            if len(ranks) > 1 or len(group) == 1:
                break
        for rank in ranks:
            tied = [n for n in group if cut[n].rank == rank]
            if len(tied) == 1:
                order.append(tied[0])
            else:
                place(tied)

    place(list(players))
    return {Role.BOX: order[0], Role.CAPTAIN: order[1], Role.SITTER: order[2]}, rounds


def next_roles(roles: Mapping[Role, str], result: HandResult) -> dict[Role, str]:
    """The roles for the next hand.

    The box won: it stays, captain and sitter swap.  The box lost: the captain goes into
    the box, the box becomes the sitter, the sitter becomes captain.  Drawn: unchanged.
    """
    box, captain, sitter = roles[Role.BOX], roles[Role.CAPTAIN], roles[Role.SITTER]
    if result.box_won is None:
        return dict(roles)
    if result.box_won:
        return {Role.BOX: box, Role.CAPTAIN: sitter, Role.SITTER: captain}
    return {Role.BOX: captain, Role.CAPTAIN: sitter, Role.SITTER: box}


@dataclass
class Game:
    """One running game's scores (Hollywood keeps three at once)."""

    scores: dict[str, int]
    hands_won: dict[str, int]
    winner: str | None = None

    def final_scores(self, rules: Rules) -> dict[str, int]:
        """Scores with the classic end-of-game bonuses, when they are played and the game
        is won: the game bonus to the winner, the box bonus per hand won, and a shutout
        (no other player won a hand) doubling the winner's total."""
        if not (rules.classic_bonuses and self.winner):
            return dict(self.scores)
        final = {p: s + rules.box_bonus * self.hands_won[p] for p, s in self.scores.items()}
        final[self.winner] += rules.game_bonus
        others_won = sum(n for p, n in self.hands_won.items() if p != self.winner)
        if rules.shutout_doubles and others_won == 0:
            final[self.winner] *= 2
        return final


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of the match as it was played."""

    number: int
    roles: dict[Role, str]
    seed: int
    actions: tuple[str, ...]
    result: HandResult

    @property
    def winner_name(self) -> str | None:
        """The player who scored this hand."""
        return self.roles[self.result.winner] if self.result.winner else None


@dataclass
class Match:
    """Three players, roles by the cut, hands until someone reaches the target."""

    players: tuple[str, str, str]
    rules: Rules
    seed: int | None
    roles: dict[Role, str]
    cuts: list[CutRound]
    games: list[Game]
    hand: Hand
    hand_seed: int
    history: list[HandRecord] = field(default_factory=list)
    _rng: random.Random = field(default_factory=random.Random, repr=False)

    @classmethod
    def new(cls, players: Sequence[str], rules: Rules = STANDARD, seed: int | None = None
            ) -> Match:
        """Start a match: cut for roles and deal the first hand."""
        names = tuple(str(p) for p in players)
        if len(names) != 3 or len(set(names)) != 3 or not all(n.strip() for n in names):
            raise IllegalActionError(
                _("a match has three players with different names, not {players!r}").format(
                    players=list(players))
            )
        rng = random.Random(seed)
        roles, cuts = cut_for_roles(names, rng)
        n_games = 3 if rules.hollywood else 1
        games = [Game({p: 0 for p in names}, {p: 0 for p in names}) for _ in range(n_games)]
        hand_seed = rng.getrandbits(64)
        return cls(players=(names[0], names[1], names[2]), rules=rules, seed=seed,
                   roles=roles, cuts=cuts, games=games,
                   hand=Hand.deal(rules, seed=hand_seed), hand_seed=hand_seed, _rng=rng)

    # -- reading ------------------------------------------------------------------------

    @property
    def scores(self) -> dict[str, int]:
        """Cumulative scores of the (first) game."""
        return dict(self.games[0].scores)

    @property
    def is_over(self) -> bool:
        """Whether every game has a winner."""
        return all(g.winner is not None for g in self.games)

    @property
    def winner(self) -> str | None:
        """The match's winner: the first to the target (Hollywood: the most games won,
        then the most points over the three games)."""
        if not self.is_over:
            return None
        if len(self.games) == 1:
            return self.games[0].winner
        totals = self.final_scores()
        return max(self.players, key=lambda p: (
            sum(g.winner == p for g in self.games), totals[p]))

    def final_scores(self) -> dict[str, int]:
        """Each player's total, over all games, with any end-of-game bonuses."""
        finals = [g.final_scores(self.rules) for g in self.games]
        return {p: sum(f[p] for f in finals) for p in self.players}

    def role_of(self, player: str) -> Role:
        """The role ``player`` has in the current hand."""
        for role, name in self.roles.items():
            if name == player:
                return role
        raise IllegalActionError(_("no player named {name!r} in this match").format(name=player))

    @property
    def to_play(self) -> str | None:
        """The name of the player to act, or ``None`` when the match is over."""
        if self.is_over or self.hand.to_play is None:
            return None
        return self.roles[self.hand.to_play]

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player to act."""
        return [] if self.is_over else self.hand.legal_actions()

    def view(self, player: str) -> SeatView:
        """What ``player`` may see of the current hand."""
        return self.hand.view(self.role_of(player))

    # -- playing ------------------------------------------------------------------------

    def apply(self, action: Action | str) -> HandResult | None:
        """Play an action for the player to act; returns the result if a hand ended."""
        if self.is_over:
            raise IllegalActionError(_("{action}: the match is over").format(action=action))
        self.hand.apply(action)
        if not self.hand.is_over:
            return None
        result = self.hand.result
        assert result is not None
        self._finish_hand(result)
        return result

    def _finish_hand(self, result: HandResult) -> None:
        self.history.append(HandRecord(
            number=len(self.history) + 1, roles=dict(self.roles), seed=self.hand_seed,
            actions=tuple(str(a) for _r, a in self.hand.history), result=result))
        if result.winner is not None:
            name = self.roles[result.winner]
            wins = sum(1 for h in self.history if h.winner_name == name)
            for i, game in enumerate(self.games):
                if game.winner is None and i < wins:
                    game.scores[name] += result.points
                    game.hands_won[name] += 1
                    if game.scores[name] >= self.rules.target:
                        game.winner = name
        self.roles = next_roles(self.roles, result)
        if not self.is_over:
            self.hand_seed = self._rng.getrandbits(64)
            self.hand = Hand.deal(self.rules, seed=self.hand_seed)

    def play(self, bots: Mapping[str, Any], max_hands: int | None = None) -> None:
        """Let bots play (a mapping of player name to bot) until the match ends, a player
        without a bot is to act, or ``max_hands`` more hands have ended."""
        ended = 0
        while not self.is_over:
            player = self.to_play
            assert player is not None
            bot = bots.get(player)
            if bot is None:
                return
            if self.apply(bot(self.view(player))) is not None:
                ended += 1
                if max_hands is not None and ended >= max_hands:
                    return

    # -- records ------------------------------------------------------------------------

    def to_json(self) -> str:
        """The whole match as JSON: players, rules, seed, every action in order."""
        actions = [list(h.actions) for h in self.history]
        if self.hand.history and not self.is_over:
            actions.append([str(a) for _r, a in self.hand.history])
        return json.dumps({
            "format": FORMAT_VERSION,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "hands": actions,
            "scores": self.scores,
        }, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Match:
        """Replay a match from :meth:`to_json` to the identical state."""
        data = json.loads(text)
        if data.get("format") != FORMAT_VERSION or data.get("seed") is None:
            raise ValueError(_("not a replayable box-gin match record"))
        match = cls.new(data["players"], Rules.from_dict(data["rules"]), data["seed"])
        for hand_actions in data["hands"]:
            for text_action in hand_actions:
                match.apply(text_action)
        return match

    def _repr_html_(self) -> str:
        from .display import match_html

        return match_html(self)
