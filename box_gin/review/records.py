"""Reading the records the kit writes, for the review: every hand, with its players.

Three kinds are read (docs/review.md, "What it reads"):

- a hand record, :meth:`Hand.record() <box_gin.hand.Hand.record>` (``rules``, ``deck``,
  ``actions``): its seats are named ``captain`` and ``box``;
- a match record, :meth:`Match.to_json() <box_gin.match.Match.to_json>`, as the play app
  and the classroom (``record_json``) write it: checked by its own replay;
- the tournament's records file (``write_records``): one match record a line.

>>> from box_gin import Hand
>>> hand = Hand.deal(seed=1); hand.apply("pass")
>>> [(h.game, h.number, h.roles["captain"]) for h in played_hands(hand.record())]
[(1, 1, 'captain')]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import BoxGinError, RecordError
from ..hand import Hand, Role
from ..i18n import _, format_number
from ..match import Match

#: The largest record file the review reads (bytes); a larger one is refused unread.
MAX_RECORD_BYTES = 32 * 1024 * 1024
_HAND_KEYS = {"rules", "deck", "actions"}


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand as it was played: which game of the file (from 1), its number in the
    game (from 1), who held each role, and the hand replayed to its last action."""

    game: int
    number: int
    roles: dict[str, str]
    hand: Hand

    def player(self, role: Role) -> str:
        """The name of the player who held ``role``."""
        return self.roles[role.value]


def _not_a_record(source: str) -> RecordError:
    return RecordError(_(
        "{source}: not a record box-gin writes: a hand record (rules, deck, actions), a "
        "match record (format, players, hands), or match records one a line").format(
        source=source))


def _hand_record(data: dict[str, Any], source: str) -> PlayedHand:
    if not isinstance(data.get("deck"), str) or not isinstance(data.get("actions"), list) \
            or not isinstance(data.get("rules"), dict):
        raise _not_a_record(source)
    try:
        hand = Hand.replay(data)
    except BoxGinError as err:
        raise RecordError(_("{source}: {problem}").format(source=source, problem=err)) \
            from None
    except (TypeError, KeyError) as err:
        raise RecordError(_("{source}: {problem}").format(source=source, problem=err)) \
            from None
    roles = {role.value: role.value for role in Role}
    return PlayedHand(1, 1, roles, hand)


def _match_hands(data: dict[str, Any], game: int, source: str) -> list[PlayedHand]:
    try:
        match = Match.from_dict(data)
    except BoxGinError as err:
        raise RecordError(_("{source}: {problem}").format(source=source, problem=err),
                          getattr(err, "field", "")) from None
    out = []
    for record in match.history:
        hand = Hand.deal(match.rules, seed=record.seed)
        for text in record.actions:
            hand.apply(text)
        out.append(PlayedHand(game, record.number, {r.value: n for r, n in record.roles.items()},
                              hand))
    if match.hand.history and not match.is_over:
        hand = Hand.deal(match.rules, seed=match.hand_seed)
        for _role, action in match.hand.history:
            hand.apply(action)
        out.append(PlayedHand(game, len(match.history) + 1,
                              {r.value: n for r, n in match.roles.items()}, hand))
    return out


def played_hands(data: Any, source: str = "-") -> list[PlayedHand]:
    """Every hand of a record's data (a hand record, a match record, or a list of match
    records), in order; anything else raises :class:`~box_gin.errors.RecordError`
    naming ``source``."""
    if isinstance(data, list):
        out: list[PlayedHand] = []
        for game, item in enumerate(data, 1):
            if not isinstance(item, dict) or "hands" not in item:
                raise _not_a_record(source)
            out += _match_hands(item, game, source)
        return out
    if not isinstance(data, dict):
        raise _not_a_record(source)
    if set(data) == _HAND_KEYS:
        return [_hand_record(data, source)]
    if "hands" in data and "format" in data:
        return _match_hands(data, 1, source)
    raise _not_a_record(source)


def parse(text: str, source: str = "-") -> Any:
    """A record's JSON: one value, or one match record a line (the tournament's file)."""
    try:
        return json.loads(text)
    except ValueError as whole:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > 1:
            try:
                return [json.loads(line) for line in lines]
            except ValueError:
                pass
        raise RecordError(_("{source}: not JSON: {reason}").format(
            source=source, reason=whole)) from None


def read_record(path: Path | str) -> list[PlayedHand]:
    """Every hand of the record file at ``path`` (see the module's docstring); a file
    too large, not JSON or not a record raises :class:`~box_gin.errors.RecordError`
    naming the file and the rule."""
    path = Path(path)
    source = str(path)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise RecordError(_("{source}: cannot be read: {reason}").format(
            source=source, reason=err.strerror or err)) from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(_("{source}: a record may have at most {limit} bytes, and this "
                            "file has more").format(
            source=source, limit=format_number(MAX_RECORD_BYTES)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(_("{source}: not JSON: {reason}").format(
            source=source, reason=err)) from None
    return played_hands(parse(text, source), source)
