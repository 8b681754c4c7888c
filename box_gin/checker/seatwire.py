"""A seat's view as compact plain data, for the bots in the sandbox (and back).

The one wire of both users of a bot's child (``box_gin/checker/botchild.py``): the
tournament's driver and the grader of the bot kata.  ``encode(view)`` gives a short list
(cards as one character each, ``chr(40 + card.index)``, run together; the legal actions
as numbers in a table of every action a hand offers, :data:`ACTIONS`; the phase and
roles as small numbers; the history as ``"r:action"`` strings); the child rebuilds the
:class:`~box_gin.hand.SeatView` with :func:`decoder`.  Only what the seat's view holds
travels: the driver never sends a card the seat may not see.  The tournament's driver
writes a view from the hand's own fields, no view made (:func:`encode_facts`), straight
to the JSON text of its question (:func:`question`: the same text ``json.dumps`` writes,
in about half the time), and sends only the entries of a hand's history that its child
has not had yet (:class:`Histories`); the grader of the bot kata writes its views the
same way (:data:`view_facts`).  After a seat's first view of a hand, the tournament's
driver sends only what changed since (:func:`update`): the child keeps each hand's last
view and plays the public entries since on its cards, so the driver writes no cards
but those the seat drew from the stock.

>>> from box_gin import Hand
>>> view = Hand.deal(seed=1).view("captain")
>>> decoder(view.rules.to_dict())(encode(view)) == view
True
"""

from __future__ import annotations

import dataclasses
import json
import operator
from collections.abc import Callable
from typing import Any

from ..actions import (
    BIG_GIN,
    DRAW_DISCARD,
    DRAW_STOCK,
    PASS,
    TAKE,
    Action,
    ActionKind,
    discard,
    knock,
)
from ..cards import BY_INDEX, CARD_ORDER, Card
from ..hand import Hand, Phase, Role, SeatView
from ..rules import Rules

_ROLES = (Role.BOX, Role.CAPTAIN, Role.SITTER)
_ROLE_NO = {r: i for i, r in enumerate(_ROLES)}
_SITTER, _CAPTAIN = Role.SITTER, Role.CAPTAIN
_OPPONENT = {Role.BOX: Role.CAPTAIN, Role.CAPTAIN: Role.BOX}
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
#: Each action's number, by the action's identity: the engine lists its legal actions
#: from the same few objects (``actions.discard`` and ``knock`` make each once), so most
#: are found at once; :data:`ACTIONS` holds them, so their identities stay theirs.
_NUMBER = {id(a): i for i, a in enumerate(ACTIONS)}
_ACTIONS: dict[str, Action] = {}
_DRAW_STOCK, _TAKE, _DRAW_DISCARD = (ActionKind.DRAW_STOCK, ActionKind.TAKE,
                                    ActionKind.DRAW_DISCARD)
#: A history entry's text, by the entry (role, action text), made once.
_ENTRIES: dict[tuple[Role, str], str] = {}


#: The same entry as JSON text (written by the json module), made once.
_ENTRIES_JSON: dict[tuple[Role, str], str] = {}
#: Each action's number as text, by the action's identity (see :data:`_NUMBER`).
_NUMBER_TEXT = {id(a): str(i) for i, a in enumerate(ACTIONS)}
#: Each action's text as JSON text, by the action's identity (an advice, mostly).
_TEXT_JSON = {id(a): json.dumps(str(a)) for a in ACTIONS}


def _advice_json(advice: Action | None) -> str:
    if advice is None:
        return "null"
    return _TEXT_JSON.get(id(advice)) or json.dumps(str(advice))


def _entry(item: tuple[Role, str]) -> str:
    found = _ENTRIES.get(item)
    if found is None:
        found = _ENTRIES[item] = f"{_ROLE_NO[item[0]]}:{item[1]}"
    return found


def _entry_json(item: tuple[Role, str]) -> str:
    found = _ENTRIES_JSON.get(item)
    if found is None:
        found = _ENTRIES_JSON[item] = json.dumps(_entry(item))
    return found


def _cards(cards: tuple[Card, ...]) -> str:
    return "".join([_CHAR[c.index] for c in cards])


def _with(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``cards`` (in card order) with ``card``, in card order (a view's order)."""
    return tuple(sorted((*cards, card), key=CARD_ORDER))


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


def _legals(actions: tuple[Action, ...]) -> list[int | str]:
    numbers: list[Any] = list(map(_NUMBER.get, map(id, actions)))
    if None in numbers:  # an action made elsewhere, or not one a hand lists
        numbers = [_legal(a) for a in actions]
    return numbers


def encode(view: SeatView, history: list[Any] | None = None) -> list[Any]:
    """The view as a short list of plain values; ``history``: what to send in place of
    the whole history (:meth:`Histories.part`, the part the child does not hold)."""
    return _encode(history, view.role, view.phase, view.to_play, view.hand,
                   view.discard_pile, view.stock_size, view.opponent_known,
                   view.opponent_card_count, view.knock_limit, view.rules,
                   view.legal_actions, view.taken_card, view.history)


def encode_facts(facts: tuple[Any, ...], history: list[Any] | None = None) -> list[Any]:
    """:func:`encode` of the view whose fields are ``facts``
    (:meth:`~box_gin.hand.Hand.seat_facts`), without making the view."""
    return _encode(history, *facts[:13])


def _encode(history: list[Any] | None, role: Role, phase: Phase, to_play: Role | None,
            hand: tuple[Card, ...], pile: tuple[Card, ...], stock: int,
            known: tuple[Card, ...], count: int, limit: int, _rules: Rules,
            legal: tuple[Action, ...], taken: Card | None,
            entries: tuple[tuple[Role, str], ...]) -> list[Any]:
    return [
        _ROLE_NO[role], _PHASE_NO[phase], -1 if to_play is None else _ROLE_NO[to_play],
        _cards(hand), _cards(pile), stock, _cards(known), count, limit, _legals(legal),
        "" if taken is None else _CHAR[taken.index],
        [_entry(h) for h in entries] if history is None else history,
    ]


#: A view's fields, in its order (the order :meth:`~box_gin.hand.Hand.seat_facts` gives
#: them in): a view made here, written by :func:`question` as the hand's fields are.
view_facts: Callable[[SeatView], tuple[Any, ...]] = operator.attrgetter(
    *(f.name for f in dataclasses.fields(SeatView)))


def question(kind: str, facts: tuple[Any, ...], history: str, advice: Action | None) -> str:
    """One question of a batch, ``[kind, encode_facts(facts, part), advice's text]``, as
    the JSON text ``json.dumps`` writes of it (no spaces), written straight from the
    fields: the cards are characters JSON writes as they are, every other text (the
    history's entries, from :meth:`Histories.text`; an action outside the table; the
    advice) is written by the json module, once for each."""
    (role, phase, to_play, hand, pile, stock, known, count, limit, _rules, legal, taken,
     _history, _result) = facts
    return (f'["{kind}",[{_ROLE_NO[role]},{_PHASE_NO[phase]},'
            f'{-1 if to_play is None else _ROLE_NO[to_play]},"{_cards(hand)}",'
            f'"{_cards(pile)}",{stock},"{_cards(known)}",{count},{limit},[{_legal_text(legal)}],'
            f'"{"" if taken is None else _CHAR[taken.index]}",{history}],'
            f'{_advice_json(advice)}]')


def _legal_text(legal: tuple[Action, ...]) -> str:
    """The legal actions' numbers (or texts) as JSON text, without the brackets."""
    try:
        return ",".join(map(_NUMBER_TEXT.__getitem__, map(id, legal)))
    except KeyError:  # an action made elsewhere, or not one a hand lists
        return ",".join(map(json.dumps, [_legal(a) for a in legal]))


def update(kind: str, role: Role, hand: Hand, legal: tuple[Action, ...], held: tuple[int, int],
           advice: Action | None) -> str:
    """One question of a batch, as :func:`question` writes it, for a child that holds the
    seat's last view of ``hand`` in slot ``held[0]``, when the hand's history had
    ``held[1]`` entries (:meth:`Histories.since`): only what that view and the public
    entries since cannot tell.  The seat's cards, the discard pile and the opponent's
    known cards are left out (``null``, ``null``); in the pile's place go the cards the
    seat drew from the stock in those entries, which only it may see (the deck's 22nd
    card is the stock's first: :meth:`~box_gin.hand.Hand.deal`).  ``legal``: the view's
    legal actions.  :func:`decoder` makes the whole view again from its last one."""
    slot, start = held
    seat = _CAPTAIN if role is _SITTER else role
    to_play, history, stock = hand.to_play, hand.history, len(hand.stock)
    taken = hand.taken_card if to_play is seat else None
    entries = drawn = ""
    if len(history) > start:
        entries = "".join([f",{_entry_json(e)}" for e in hand.public_since(start)])
        cards, n = [], len(hand.deck) - 21 - stock  # the cards drawn from the stock so far
        for player, act in reversed(history[start:]):
            if act.kind is _DRAW_STOCK:
                n -= 1
                if player is seat:
                    cards.append(_CHAR[hand.deck[21 + n].index])
        drawn = "".join(reversed(cards))
    return (f'["{kind}",[{_ROLE_NO[role]},{_PHASE_NO[hand.phase]},'
            f'{-1 if to_play is None else _ROLE_NO[to_play]},null,"{drawn}",{stock},null,'
            f'{len(hand.hands[_OPPONENT[seat]])},{hand.knock_limit},[{_legal_text(legal)}],'
            f'"{"" if taken is None else _CHAR[taken.index]}",[{slot},{start}{entries}]],'
            f'{_advice_json(advice)}]')


class Histories:
    """What a child already holds of the hands it is asked about, on the driver's side:
    a hand's history only grows, so each view sends only the entries the child has not
    had (``[slot, start, entry, ...]``: the child keeps each hand's last view under a slot
    number and adds the entries from ``start`` on; a ``start`` of 0 begins a hand in that
    slot), and a view of the same seat as the last may be sent as what changed since
    (:meth:`since`, :func:`update`).  One for each child, started anew with it: a child
    started again holds nothing.  At most :data:`SLOTS` hands are held (a slot is given
    again once its hand is over; past that, a view is sent whole), so a child's memory of
    them is bounded too."""

    SLOTS = 4096

    def __init__(self) -> None:
        #: By the hand's identity: the hand (kept, so that its identity stays its own),
        #: its slot, how many of its entries the child holds, and the seat of the last
        #: view sent whole or in part (None: not known).
        self._held: dict[int, list[Any]] = {}
        self._free: list[int] = []

    def part(self, hand: object, history: tuple[tuple[Role, str], ...]) -> list[Any]:
        """The history field of a view of ``hand`` whose history is ``history``."""
        held = self._take(hand, None)
        if held is None:
            return [_entry(h) for h in history]
        start, held[2] = held[2], len(history)
        return [held[1], start, *map(_entry, history[start:])]

    def text(self, hand: object, history: tuple[tuple[Role, str], ...],
             seat: Role | None = None) -> str:
        """:meth:`part` as JSON text (for :func:`question`); ``seat``: the seat of the
        view sent (the sitter's is the captain's), for :meth:`since`."""
        held = self._take(hand, seat)
        if held is None:
            return "[" + ",".join(map(_entry_json, history)) + "]"
        start, held[2] = held[2], len(history)
        return "".join([f"[{held[1]},{start}",
                        *[f",{_entry_json(h)}" for h in history[start:]], "]"])

    def since(self, hand: object, seat: Role, length: int) -> tuple[int, int] | None:
        """``(slot, start)`` when the child holds a view of ``hand`` for ``seat`` (its
        last of the hand, from :meth:`text`, or from :func:`update`), whose history had
        ``start`` entries; it will hold the hand's ``length`` entries once the view
        written by :func:`update` is read.  None: the view must go whole."""
        held = self._held.get(id(hand))
        if held is None or held[3] is not seat:
            return None
        start, held[2] = held[2], length
        return held[1], start

    def _take(self, hand: object, seat: Role | None) -> list[Any] | None:
        """The hand's ``[hand, slot, entries held, seat]``, a slot given to it when it
        has none, ``seat`` recorded; None when every slot is held by a hand still in
        play."""
        held = self._held.get(id(hand))  # a hand held keeps its identity: no other has it
        if held is None:
            slot = self._slot()
            if slot < 0:
                return None
            held = self._held[id(hand)] = [hand, slot, 0, seat]
        held[3] = seat
        return held

    def _slot(self) -> int:
        """A free slot (-1: none, every one held by a hand still in play)."""
        if not self._free and len(self._held) >= self.SLOTS:  # hands over give theirs
            over = [k for k, (hand, _s, _n, _seat) in self._held.items()
                    if getattr(hand, "is_over", True)]
            self._free = [self._held.pop(k)[1] for k in over]
        if self._free:
            return self._free.pop()
        return len(self._held) if len(self._held) < self.SLOTS else -1


def decoder(rules: dict[str, Any], held: dict[int, SeatView] | None = None
            ) -> Callable[[list[Any]], SeatView]:
    """A function that rebuilds a view from :func:`encode`'s list (or :func:`update`'s),
    under ``rules``; ``held``: the last view of each slot, for views that send only a
    history's new entries or only what changed (:class:`Histories`), kept from one view
    to the next (the child's own memory)."""
    the_rules = Rules.from_dict(rules)
    history_cache: dict[str, tuple[Role, str]] = {}
    slots: dict[int, SeatView] = {} if held is None else held

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
        if hand is None:
            return _update(data, actions)
        slot, entries = _history(history)
        view = SeatView(
            role=_ROLES[role], phase=_PHASES[phase],
            to_play=None if to_play < 0 else _ROLES[to_play],
            hand=_uncards(hand), discard_pile=_uncards(pile), stock_size=int(stock),
            opponent_known=_uncards(known), opponent_card_count=int(count),
            knock_limit=int(limit), rules=the_rules,
            legal_actions=actions,
            taken_card=_CARD[taken] if taken else None,
            history=entries, result=None)
        if slot is not None:
            slots[slot] = view
        return view

    def _last(slot: int, start: int, begins: bool) -> SeatView | None:
        """The slot's last view, whose history must have ``start`` entries (``begins``:
        a ``start`` of 0 begins a hand in the slot, none held)."""
        last = None if begins and not start else slots.get(slot)
        if (0 if last is None else len(last.history)) != start:
            raise ValueError(f"history of slot {slot}: "
                             f"{0 if last is None else len(last.history)} entries held, "
                             f"{start} expected")
        return last

    def _history(sent: list[Any]) -> tuple[int | None, tuple[tuple[Role, str], ...]]:
        if not sent or type(sent[0]) is not int:
            return None, tuple(map(entry, sent))
        slot, start = sent[0], sent[1]
        last = _last(slot, start, True)
        before = () if last is None else last.history
        return slot, before + tuple(map(entry, sent[2:]))

    def _update(data: list[Any], actions: tuple[Action, ...]) -> SeatView:
        """The view of :func:`update`'s list: the slot's last view, the entries since
        played on its cards (the cards the seat drew from the stock given), the rest
        as sent."""
        (role, phase, to_play, _hand, drawn, stock, _known, count, limit, _legal, taken,
         sent) = data
        slot, start = sent[0], sent[1]
        last = _last(slot, start, False)
        the_role = _ROLES[role]
        seat = Role.CAPTAIN if the_role is Role.SITTER else the_role
        if last is None or (Role.CAPTAIN if last.role is Role.SITTER else last.role) \
                is not seat:
            raise ValueError(f"slot {slot} holds no view of the {seat.value}'s seat")
        hand, pile, known = last.hand, last.discard_pile, last.opponent_known
        new, drew = tuple(map(entry, sent[2:])), 0
        for player, text in new:
            act = action(text)
            kind, card = act.kind, act.card
            if kind is _TAKE or kind is _DRAW_DISCARD:
                if not pile:
                    raise ValueError(f"slot {slot}: {text} from an empty discard pile")
                card, pile = pile[-1], pile[:-1]
                if player is seat:
                    hand = _with(hand, card)
                else:
                    known = _with(known, card)
            elif kind is _DRAW_STOCK:
                if player is seat:
                    if drew >= len(drawn):
                        raise ValueError(f"slot {slot}: a card drawn from the stock not sent")
                    hand, drew = _with(hand, _CARD[drawn[drew]]), drew + 1
            elif card is not None:  # a discard (or a knock's, the hand's last entry)
                if player is seat:
                    held = len(hand)
                    hand = tuple([c for c in hand if c is not card])
                    if len(hand) == held:
                        raise ValueError(f"slot {slot}: {text} of a card not held")
                else:
                    known = tuple([c for c in known if c is not card])
                pile = (*pile, card)
        view = SeatView(
            role=the_role, phase=_PHASES[phase],
            to_play=None if to_play < 0 else _ROLES[to_play],
            hand=hand, discard_pile=pile, stock_size=int(stock), opponent_known=known,
            opponent_card_count=int(count), knock_limit=int(limit), rules=the_rules,
            legal_actions=actions, taken_card=_CARD[taken] if taken else None,
            history=last.history + new, result=None)
        slots[slot] = view
        return view

    return decode
