"""Actions of one hand, each with a text form that round-trips.

>>> Action.parse("discard 7h")
Action('discard 7H')
>>> str(Action.parse("knock TS [2H 3H 4H] [7C 7D 7S]"))
'knock TS [2H 3H 4H] [7C 7D 7S]'
>>> Action.parse("draw stock") == DRAW_STOCK
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from .cards import BY_INDEX, Card
from .errors import IllegalActionError
from .i18n import _
from .melds import Meld


class ActionKind(StrEnum):
    """What a player does on a turn."""

    TAKE = "take"
    PASS = "pass"
    DRAW_STOCK = "draw stock"
    DRAW_DISCARD = "draw discard"
    DISCARD = "discard"
    KNOCK = "knock"
    BIG_GIN = "big gin"

    @property
    def label(self) -> str:
        """The action's name in the language in use."""
        return {
            ActionKind.TAKE: _("take"),
            ActionKind.PASS: _("pass"),
            ActionKind.DRAW_STOCK: _("draw from the stock"),
            ActionKind.DRAW_DISCARD: _("draw from the discard pile"),
            ActionKind.DISCARD: _("discard"),
            ActionKind.KNOCK: _("knock"),
            ActionKind.BIG_GIN: _("big gin"),
        }[self]


_WITH_CARD = (ActionKind.DISCARD, ActionKind.KNOCK)
# A group in brackets holds no bracket: each match attempt stops at the next one, so
# reading a text takes time linear in its length, whatever the text (a run of "[[[["
# would make ``\[([^\]]*)\]`` scan to the end from every bracket).
_MELDS_RE = re.compile(r"\[([^\[\]]*)\]")
#: The longest text :meth:`Action.parse` reads (the longest action, a knock that lays
#: out eleven cards, is under 70 characters): a longer text is refused unread.
MAX_TEXT = 160


@dataclass(frozen=True, slots=True)
class Action:
    """One action: its kind, the card discarded (or knocked with), and for a knock or big
    gin an optional explicit lay-out of melds (``None``: the engine's best)."""

    kind: ActionKind
    card: Card | None = None
    melds: tuple[Meld, ...] | None = None
    _text: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Check the action's shape here, so that no malformed action (a kind given as
        # plain text, a discard without a card, melds that are not melds) can reach a
        # hand: the hand compares kinds by identity.
        try:
            kind = ActionKind(self.kind)
        except (ValueError, TypeError):
            raise IllegalActionError(
                _("not an action: {value!r}").format(value=self.kind)) from None
        object.__setattr__(self, "kind", kind)
        if kind in _WITH_CARD:
            if not isinstance(self.card, Card):
                raise IllegalActionError(_("{action} needs a card, not {value!r}").format(
                    action=kind.value, value=self.card))
        elif self.card is not None:
            raise IllegalActionError(_("{action} takes no card, not {value!r}").format(
                action=kind.value, value=self.card))
        if self.melds is not None:
            if kind not in (ActionKind.KNOCK, ActionKind.BIG_GIN):
                raise IllegalActionError(_("only a knock or big gin lays out melds"))
            melds = () if isinstance(self.melds, str | bytes) else self.melds
            try:
                melds = tuple(melds)
            except TypeError:
                melds = ()
            if not melds or not all(isinstance(m, Meld) for m in melds):
                raise IllegalActionError(_("not a lay-out of melds: {value!r}").format(
                    value=self.melds))
            object.__setattr__(self, "melds", melds)
        text = kind.value
        if self.card is not None:
            text += f" {self.card!r}"
        if self.melds is not None:
            text += " " + " ".join(f"[{m}]" for m in self.melds)
        object.__setattr__(self, "_text", text)

    @staticmethod
    def parse(text: str | Action) -> Action:
        """The action named by ``text``: ``"take"``, ``"pass"``, ``"draw stock"``,
        ``"draw discard"``, ``"discard 7H"``, ``"knock 7H"``, ``"big gin"``; a knock or
        big gin may add its melds in brackets: ``"knock 7H [2H 3H 4H] [9C 9D 9S] ..."``."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise IllegalActionError(_("not an action: {value!r}").format(value=text))
        if len(text) > MAX_TEXT:
            raise IllegalActionError(
                _("not an action: too long (length {n}, at most {most})").format(
                    n=len(text), most=MAX_TEXT))
        head, _sep, tail = text.strip().partition("[")
        tail = _sep + tail
        words = head.lower().split()
        melds: tuple[Meld, ...] | None = None
        if tail:
            try:
                melds = tuple(Meld(group) for group in _MELDS_RE.findall(tail))
            except ValueError as err:
                raise IllegalActionError(
                    _("bad lay-out in {text!r}: {why}").format(text=text, why=err)) from None
            if _MELDS_RE.sub("", tail).strip():
                raise IllegalActionError(
                    _("not an action: {text!r} (melds go in brackets)").format(text=text))
        for kind in ActionKind:
            kwords = kind.value.split()
            if words[: len(kwords)] != kwords:
                continue
            rest = words[len(kwords):]
            if kind in _WITH_CARD:
                if len(rest) != 1:
                    break
                try:
                    card = Card.parse(rest[0])
                except ValueError as err:
                    raise IllegalActionError(str(err)) from None
                if melds is not None and kind is not ActionKind.KNOCK:
                    break
                return Action(kind, card, melds)
            if rest or (melds is not None and kind is not ActionKind.BIG_GIN):
                break
            return Action(kind, None, melds)
        raise IllegalActionError(
            # TRANSLATORS: the quoted words are commands the engine reads: keep them in English.
            _("not an action: {text!r} (try 'take', 'pass', 'draw stock', 'draw discard', "
              "'discard 7H', 'knock 7H' or 'big gin')").format(text=text)
        )

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @property
    def label(self) -> str:
        """The action in words, in the language in use: "discard 7♥"."""
        return self.kind.label + (f" {self.card.label}" if self.card else "")


TAKE = Action(ActionKind.TAKE)
PASS = Action(ActionKind.PASS)
DRAW_STOCK = Action(ActionKind.DRAW_STOCK)
DRAW_DISCARD = Action(ActionKind.DRAW_DISCARD)
BIG_GIN = Action(ActionKind.BIG_GIN)


#: Every discard, and every knock without its lay-out, made once: :func:`discard` and
#: :func:`knock` return these very objects (actions are immutable), so the engine's legal
#: actions are always the same few objects (a bot's wire reads them by identity).
_DISCARDS = tuple(Action(ActionKind.DISCARD, c) for c in BY_INDEX)
_KNOCKS = tuple(Action(ActionKind.KNOCK, c) for c in BY_INDEX)


def discard(card: Card) -> Action:
    """The action of discarding ``card``."""
    if type(card) is Card:
        return _DISCARDS[card.index]
    return Action(ActionKind.DISCARD, card)


def knock(card: Card, melds: tuple[Meld, ...] | None = None) -> Action:
    """The action of knocking with ``card`` as the discard."""
    if melds is None and type(card) is Card:
        return _KNOCKS[card.index]
    return Action(ActionKind.KNOCK, card, melds)
