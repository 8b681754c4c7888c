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
from .cards import Card
from .errors import BoxGinError, IllegalActionError, RecordError, RulesError
from .hand import Hand, HandResult, Phase, Role, SeatView
from .i18n import _
from .rules import STANDARD, Rules
from .seating import CutRound, check_players, cut_for_roles, next_roles

__all__ = ["CutRound", "Game", "HandRecord", "Match", "SitterView", "cut_for_roles",
           "next_roles"]

#: The format of the match records :meth:`Match.to_json` writes (format 1, which held
#: only the actions, is still read).
FORMAT_VERSION = 2


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


@dataclass(frozen=True, slots=True)
class SitterView:
    """What the sitter sees: it holds no cards of its own and never acts; it watches the
    captain's cards, whom it advises (``captain``: the captain's own view).

    >>> match = Match.new(["Ada", "Ben", "Cy"], seed=3)
    >>> view = match.view(match.roles[Role.SITTER])
    >>> view.role, view.hand, view.my_turn, view.watching == match.hand.cards(Role.CAPTAIN)
    (Role.SITTER, (), False, True)
    """

    #: The captain's view of the hand: the cards the sitter watches and advises on.
    captain: SeatView
    role: Role = Role.SITTER

    @property
    def hand(self) -> tuple[Card, ...]:
        """The sitter's own cards: none, ever."""
        return ()

    @property
    def watching(self) -> tuple[Card, ...]:
        """The captain's cards, which the sitter watches."""
        return self.captain.hand

    @property
    def my_turn(self) -> bool:
        """Always False: the sitter never acts (it may advise, see :attr:`advising`)."""
        return False

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """None: the sitter never acts."""
        return ()

    @property
    def advising(self) -> bool:
        """Whether the captain is to act now, so that the sitter's advice is wanted."""
        return self.captain.my_turn

    @property
    def phase(self) -> Phase:
        """The hand's phase."""
        return self.captain.phase

    # What the whole table sees, as the captain sees it: a sitter's view holds every
    # field of a seat's view (``advise = play`` reads them all), its own cards and legal
    # actions empty.

    @property
    def to_play(self) -> Role | None:
        """The seat to act (the box or the captain; never the sitter)."""
        return self.captain.to_play

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first."""
        return self.captain.discard_pile

    @property
    def top_discard(self) -> Card | None:
        """The card on top of the discard pile (None: the pile is empty)."""
        return self.captain.top_discard

    @property
    def stock_size(self) -> int:
        """How many cards are left in the stock."""
        return self.captain.stock_size

    @property
    def opponent_known(self) -> tuple[Card, ...]:
        """The box's cards the captain has seen it take from the pile and still holds."""
        return self.captain.opponent_known

    @property
    def opponent_card_count(self) -> int:
        """How many cards the box holds."""
        return self.captain.opponent_card_count

    @property
    def knock_limit(self) -> int:
        """The most deadwood the captain may knock with in this hand."""
        return self.captain.knock_limit

    @property
    def rules(self) -> Rules:
        """The hand's rules."""
        return self.captain.rules

    @property
    def taken_card(self) -> Card | None:
        """The card the captain took from the pile this turn, while it may not throw it
        back (None otherwise)."""
        return self.captain.taken_card

    @property
    def history(self) -> tuple[tuple[Role, str], ...]:
        """Every action of the hand so far: (the seat, the action's text)."""
        return self.captain.history

    @property
    def result(self) -> HandResult | None:
        """The hand's result, once it is over."""
        return self.captain.result

    def _repr_html_(self) -> str:
        from .views.html import sitter_view_html

        return sitter_view_html(self)


#: The top-level keys of a match record (format 2), and those of one hand in it.
_RECORD_KEYS = ("format", "players", "rules", "seed", "hands", "scores", "final_scores",
                "winner")
_HAND_KEYS = ("number", "roles", "seed", "actions", "outcome", "winner", "points")


def _record_error(path: str, problem: str) -> RecordError:
    # TRANSLATORS: {field} is a place in a JSON record, such as hands[2].actions[5].
    return RecordError(_("match record, {field}: {problem}").format(field=path or "-",
                                                                     problem=problem),
                       field=path)


def _claim_error(path: str, claimed: object, actual: object) -> RecordError:
    return _record_error(path, _("the record says {claimed!r} but its replay gives "
                                 "{actual!r}").format(claimed=claimed, actual=actual))


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], path: str) -> Any:
    """``data[key]``, which must be present and of ``kind``, or the kit's clear error."""
    where = f"{path}.{key}" if path else key
    if key not in data:
        raise _record_error(where, _("this field is missing"))
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in (
            kind if isinstance(kind, tuple) else (kind,))):
        names = "/".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise _record_error(where, _("expected {kind}, found {value!r}").format(
            kind=names, value=value))
    return value


def _check_rules(rules: Any) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        return Rules.from_dict(rules)
    raise RulesError(
        _("rules are a Rules value or a mapping of option names to values, not {value!r}")
        .format(value=rules))


@dataclass
class Match:
    """Three players, roles by the cut, hands until someone reaches the target."""

    players: tuple[str, str, str]
    rules: Rules
    #: The seed the match was made from (drawn at random and kept when none was given).
    seed: int
    roles: dict[Role, str]
    cuts: list[CutRound]
    games: list[Game]
    hand: Hand
    hand_seed: int
    history: list[HandRecord] = field(default_factory=list)
    _rng: random.Random = field(default_factory=random.Random, repr=False)

    @classmethod
    def new(cls, players: Sequence[str], rules: Rules | Mapping[str, Any] = STANDARD,
            seed: int | None = None) -> Match:
        """Start a match: cut for roles and deal the first hand.

        ``players``: three different names (spaces around a name are dropped);
        ``rules``: a :class:`Rules` value or a mapping of its options, such as
        ``{"target": 50}``; ``seed``: a whole number, or ``None`` for a random one, which
        the match keeps (``match.seed``) so that its record can be replayed.
        """
        names = check_players(players)
        the_rules = _check_rules(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        elif not isinstance(seed, int) or isinstance(seed, bool):
            raise IllegalActionError(
                _("a match's seed is a whole number or None, not {value!r}").format(
                    value=seed))
        rng = random.Random(seed)
        roles, cuts = cut_for_roles(names, rng)
        n_games = 3 if the_rules.hollywood else 1
        games = [Game({p: 0 for p in names}, {p: 0 for p in names}) for _ in range(n_games)]
        hand_seed = rng.getrandbits(64)
        return cls(players=names, rules=the_rules, seed=seed,
                   roles=roles, cuts=cuts, games=games,
                   hand=Hand.deal(the_rules, seed=hand_seed), hand_seed=hand_seed, _rng=rng)

    # -- reading ------------------------------------------------------------------------

    @property
    def scores(self) -> dict[str, int]:
        """Cumulative scores of the (first) game."""
        return dict(self.games[0].scores)

    @property
    def is_over(self) -> bool:
        """Whether every game has a winner."""
        # A loop, not all() over a generator: asked several times a decision.
        for g in self.games:  # noqa: SIM110 (the loop is 4x faster)
            if g.winner is None:
                return False
        return True

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

    def view(self, player: str) -> SeatView | SitterView:
        """What ``player`` may see of the current hand: its seat's view, or for the
        sitter a :class:`SitterView` (no cards of its own; the captain's, watched)."""
        role = self.role_of(player)
        if role is Role.SITTER:
            return SitterView(self.hand.view(Role.CAPTAIN))
        return self.hand.view(role)

    # -- playing ------------------------------------------------------------------------

    def apply(self, action: Action | str, player: str | None = None) -> HandResult | None:
        """Play an action; returns the result if a hand ended.

        ``player``: who acts; when given, an action by anyone but the player to act is
        refused (the match is left as it was).
        """
        if self.is_over:
            raise IllegalActionError(_("{action}: the match is over").format(action=action))
        if player is not None:
            self.role_of(player)
            if player != self.to_play:
                raise IllegalActionError(
                    _("{action}: refused, because the player to act is {to_play}, "
                      "not {player}").format(action=action, to_play=self.to_play,
                                             player=player))
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
            if self.apply(bot(self.view(player)), player=player) is not None:
                ended += 1
                if max_hands is not None and ended >= max_hands:
                    return

    # -- records ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole match as plain data: players, rules, seed, and each hand's roles,
        deal seed, actions and result, then the scores and the winner."""
        hands: list[dict[str, Any]] = []
        for record in self.history:
            hands.append({
                "number": record.number,
                "roles": {role.value: record.roles[role] for role in _ROLE_ORDER},
                "seed": record.seed,
                "actions": list(record.actions),
                "outcome": record.result.outcome.value,
                "winner": record.winner_name,
                "points": record.result.points,
            })
        if self.hand.history and not self.is_over:
            hands.append({
                "number": len(self.history) + 1,
                "roles": {role.value: self.roles[role] for role in _ROLE_ORDER},
                "seed": self.hand_seed,
                "actions": [str(a) for _r, a in self.hand.history],
            })
        return {
            "format": FORMAT_VERSION,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "hands": hands,
            "scores": self.scores,
            "final_scores": self.final_scores(),
            "winner": self.winner,
        }

    def to_json(self) -> str:
        """The whole match as JSON (see :meth:`to_dict`); :meth:`from_json` replays it."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """Replay a match from :meth:`to_json` to the identical state.

        Every claim of the record is checked against its replay (players, rules, seed,
        each hand's roles, deal seed, actions, outcome, winner and points, the scores and
        the winner); a record that is not one, or that its replay contradicts, raises
        :class:`~box_gin.errors.RecordError` naming the field.
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as err:
            raise _record_error("", _("not JSON: {reason}").format(reason=err)) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        """Replay a match from :meth:`to_dict`'s data, checking every claim (see
        :meth:`from_json`)."""
        if not isinstance(data, dict):
            raise _record_error("", _("a match record is a JSON object, not {value!r}")
                                .format(value=data))
        version = data.get("format")
        if version not in (1, FORMAT_VERSION) or isinstance(version, bool):
            raise _record_error("format", _("this kit reads match records of format 1 or "
                                            "{version}, not {value!r}").format(
                version=FORMAT_VERSION, value=version))
        if version == FORMAT_VERSION:
            unknown = sorted(str(k) for k in data if k not in _RECORD_KEYS)
            if unknown:
                raise _record_error(unknown[0], _("not a field of a match record"))
        players = _get(data, "players", list, "")
        rules_data = _get(data, "rules", dict, "")
        seed = _get(data, "seed", int, "")
        hands = _get(data, "hands", list, "")
        try:
            rules = Rules.from_dict(rules_data)
        except BoxGinError as err:
            raise _record_error("rules", str(err)) from None
        except TypeError as err:
            raise _record_error("rules", str(err)) from None
        try:
            match = cls.new(players, rules, seed)
        except BoxGinError as err:
            raise _record_error("players", str(err)) from None
        if list(match.players) != players:
            raise _claim_error("players", players, list(match.players))
        for i, hand in enumerate(hands):
            match._replay_hand(hand, i, version, last=i == len(hands) - 1)
        scores = _get(data, "scores", dict, "")
        if scores != match.scores:
            raise _claim_error("scores", scores, match.scores)
        if version == FORMAT_VERSION:
            finals = _get(data, "final_scores", dict, "")
            if finals != match.final_scores():
                raise _claim_error("final_scores", finals, match.final_scores())
            winner = _get(data, "winner", (str, type(None)), "")
            if winner != match.winner:
                raise _claim_error("winner", winner, match.winner)
        return match

    def _replay_hand(self, hand: Any, i: int, version: int, last: bool) -> None:
        """Replay the record of hand ``i`` (data of format ``version``), checking it."""
        path = f"hands[{i}]"
        if self.is_over:
            raise _record_error(path, _("the match was over before this hand"))
        if version == 1:
            if not isinstance(hand, list):
                raise _record_error(path, _("expected {kind}, found {value!r}").format(
                    kind="list", value=hand))
            actions, claims = hand, {}
        else:
            if not isinstance(hand, dict):
                raise _record_error(path, _("expected {kind}, found {value!r}").format(
                    kind="dict", value=hand))
            unknown = sorted(str(k) for k in hand if k not in _HAND_KEYS)
            if unknown:
                raise _record_error(f"{path}.{unknown[0]}", _("not a field of a hand record"))
            actions, claims = _get(hand, "actions", list, path), hand
            self._check_claim(claims, "number", int, path, len(self.history) + 1)
            self._check_claim(claims, "roles", dict, path,
                              {role.value: self.roles[role] for role in _ROLE_ORDER})
            self._check_claim(claims, "seed", int, path, self.hand_seed)
        for j, action in enumerate(actions):
            where = f"{path}.actions[{j}]"
            if self.hand.is_over:
                raise _record_error(where, _("the hand was already over: this action "
                                             "belongs to no hand"))
            if not isinstance(action, str):
                raise _record_error(where, _("expected {kind}, found {value!r}").format(
                    kind="str", value=action))
            try:
                result = self.apply(action)
            except BoxGinError as err:
                raise _record_error(where, str(err)) from None
            if result is not None and j < len(actions) - 1:
                raise _record_error(f"{path}.actions[{j + 1}]", _(
                    "the hand was already over: this action belongs to no hand"))
        ended = len(self.history) > i
        if not ended:
            if not last:
                raise _record_error(f"{path}.actions", _(
                    "the hand is not over at the end of its actions, yet another hand "
                    "follows"))
            for key in ("outcome", "winner", "points"):
                if key in claims:
                    raise _record_error(f"{path}.{key}", _(
                        "the hand is not over, so it has no result"))
            return
        record = self.history[i]
        if version == FORMAT_VERSION:
            self._check_claim(claims, "outcome", str, path, record.result.outcome.value)
            self._check_claim(claims, "winner", (str, type(None)), path, record.winner_name)
            self._check_claim(claims, "points", int, path, record.result.points)

    @staticmethod
    def _check_claim(claims: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
                     path: str, actual: object) -> None:
        claimed = _get(claims, key, kind, path)
        if claimed != actual:
            raise _claim_error(f"{path}.{key}", claimed, actual)

    def _repr_html_(self) -> str:
        from .views.html import match_html

        return match_html(self)


_ROLE_ORDER = (Role.BOX, Role.CAPTAIN, Role.SITTER)
