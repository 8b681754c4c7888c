"""A seat's view as compact plain data, for the bots in the sandbox (and back).

The one wire of both users of a bot's child (``box_gin/checker/botchild.py``): the
tournament's driver and the grader of the bot kata.  ``encode(view)`` gives a short list
(cards as one character each, ``chr(40 + card.index)``, run together; the legal actions
as numbers in a table of every action a hand offers, :data:`ACTIONS`; the phase and
roles as small numbers; the history as ``"r:action"`` strings); the child rebuilds the
:class:`~box_gin.hand.SeatView` with :func:`decoder`.  Only what the seat's view holds
travels: the driver never sends a card the seat may not see.

>>> from box_gin import Hand
>>> view = Hand.deal(seed=1).view("captain")
>>> decoder(view.rules.to_dict())(encode(view)) == view
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, discard, knock
from ..cards import BY_INDEX, Card
from ..hand import Phase, Role, SeatView
from ..rules import Rules

_ROLES = (Role.BOX, Role.CAPTAIN, Role.SITTER)
_ROLE_NO = {r: i for i, r in enumerate(_ROLES)}
_PHASES = (Phase.UPCARD_OFFER, Phase.DRAW, Phase.DISCARD, Phase.OVER)
_PHASE_NO = {p: i for i, p in enumerate(_PHASES)}
#: A card's character on the wire, and back: 40 to 91, '(' to '[' (no quote, no
#: backslash: JSON writes them as they are).
_CHAR = [chr(40 + c.index) for c in BY_INDEX]
_CARD = {chr(40 + c.index): c for c in BY_INDEX}
#: Every action a hand offers as legal, by its number on the wire (a knock without its
#: lay-out, as the engine lists it), and each action's number.
ACTIONS: tuple[Action, ...] = (TAKE, PASS, DRAW_STOCK, DRAW_DISCARD, BIG_GIN,
                               *(discard(c) for c in BY_INDEX), *(knock(c) for c in BY_INDEX))
#: Each kind's first number in :data:`ACTIONS` (a card's adds its index), by the kind's
#: identity (the fastest key).
_BASE = {id(a.kind): i for i, a in enumerate(ACTIONS) if a.card is None or a.card.index == 0}
_ACTIONS: dict[str, Action] = {}
#: A history entry's text, by the entry (role, action text), made once.
_ENTRIES: dict[tuple[Role, str], str] = {}


def _entry(item: tuple[Role, str]) -> str:
    found = _ENTRIES.get(item)
    if found is None:
        found = _ENTRIES[item] = f"{_ROLE_NO[item[0]]}:{item[1]}"
    return found


def _cards(cards: tuple[Card, ...]) -> str:
    return "".join([_CHAR[c.index] for c in cards])


def _uncards(text: str) -> tuple[Card, ...]:
    return tuple(map(_CARD.__getitem__, text))


def _legal(action: Action) -> int | str:
    """An action's number on the wire, or its text when it has none (not one a hand
    lists, such as a knock with its lay-out)."""
    base = _BASE.get(id(action.kind)) if action.melds is None else None
    if base is None:
        return str(action)
    card = action.card
    return base if card is None else base + card.index


def action(text: str) -> Action:
    """The action of a text, parsed once."""
    found = _ACTIONS.get(text)
    if found is None:
        found = _ACTIONS[text] = Action.parse(text)
    return found


def encode(view: SeatView) -> list[Any]:
    """The view as a short list of plain values."""
    return [
        _ROLE_NO[view.role], _PHASE_NO[view.phase],
        -1 if view.to_play is None else _ROLE_NO[view.to_play],
        _cards(view.hand), _cards(view.discard_pile), view.stock_size,
        _cards(view.opponent_known), view.opponent_card_count, view.knock_limit,
        [_legal(a) for a in view.legal_actions],
        "" if view.taken_card is None else _CHAR[view.taken_card.index],
        [_entry(h) for h in view.history],
    ]


def decoder(rules: dict[str, Any]) -> Callable[[list[Any]], SeatView]:
    """A function that rebuilds a view from :func:`encode`'s list, under ``rules``."""
    the_rules = Rules.from_dict(rules)
    history_cache: dict[str, tuple[Role, str]] = {}

    def entry(item: str) -> tuple[Role, str]:
        found = history_cache.get(item)
        if found is None:
            found = history_cache[item] = (_ROLES[int(item[0])], item[2:])
        return found

    def decode(data: list[Any]) -> SeatView:
        (role, phase, to_play, hand, pile, stock, known, count, limit, legal, taken,
         history) = data
        try:
            actions = tuple(map(ACTIONS.__getitem__, legal))
        except TypeError:  # an action by its text
            actions = tuple(ACTIONS[t] if type(t) is int else action(t) for t in legal)
        return SeatView(
            role=_ROLES[role], phase=_PHASES[phase],
            to_play=None if to_play < 0 else _ROLES[to_play],
            hand=_uncards(hand), discard_pile=_uncards(pile), stock_size=int(stock),
            opponent_known=_uncards(known), opponent_card_count=int(count),
            knock_limit=int(limit), rules=the_rules,
            legal_actions=actions,
            taken_card=_CARD[taken] if taken else None,
            history=tuple(map(entry, history)), result=None)

    return decode
