"""Melds and the exact least-deadwood arrangement of any number of cards.

A *set* is 3 or 4 cards of one rank; a *run* is 3 or more cards of one suit in
consecutive rank, ace low (``docs/rules.md``, "Melds").  :func:`best_melds` finds an
arrangement of least deadwood; the search itself works on 52-bit masks in
:mod:`box_gin.kernels`.

>>> arrangement = best_melds("2H 3H 4H 7S 7D 7C KD")
>>> arrangement.melds
(Meld(2H 3H 4H), Meld(7C 7D 7S))
>>> arrangement.deadwood, arrangement.deadwood_value
((KD,), 10)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from .cards import CARDS, Card, CardsLike, Suit, format_cards, to_cards
from .errors import InvalidCardError
from .i18n import _
from .kernels import (
    RUN_MELDED,
    SUIT_BITS,
    best,
    best_cards,
    hand_mask,
    melded_after_sets,
    min_deadwood,
    sets_of,
    sorted_cards,
)


class MeldKind(StrEnum):
    """A meld is a set (same rank) or a run (same suit, consecutive ranks)."""

    SET = "set"
    RUN = "run"

    @property
    def label(self) -> str:
        """The kind's name in the language in use."""
        return _("set") if self is MeldKind.SET else _("run")


def set_problem(cards: tuple[Card, ...]) -> str | None:
    """Why ``cards`` are not a set, in words; None when they are."""
    if not 3 <= len(cards) <= 4:
        return _("a set has 3 or 4 cards, not {n}").format(n=len(cards))
    if len({c.rank for c in cards}) != 1:
        return _("the cards of a set all have the same rank")
    return None


def run_problem(cards: tuple[Card, ...]) -> str | None:
    """Why ``cards`` are not a run, in words; None when they are."""
    if len(cards) < 3:
        return _("a run has at least 3 cards, not {n}").format(n=len(cards))
    if len({c.suit for c in cards}) != 1:
        return _("the cards of a run all have the same suit")
    ranks = sorted(c.rank for c in cards)
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return _("the ranks of a run are consecutive, ace low (Q-K-A is not a run)")
    return None


def is_set(cards: CardsLike) -> bool:
    """Whether the cards are 3 or 4 cards of one rank.

    >>> is_set("7H 7S 7D"), is_set("7H 7S")
    (True, False)
    """
    return set_problem(to_cards(cards)) is None


def is_run(cards: CardsLike) -> bool:
    """Whether the cards are 3 or more of one suit in consecutive rank, ace low.

    >>> is_run("AH 2H 3H"), is_run("QH KH AH")
    (True, False)
    """
    return run_problem(to_cards(cards)) is None


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """A valid set or run; ``Meld("7H 8H 9H")`` raises if the cards are not a meld."""

    cards: tuple[Card, ...]
    kind: MeldKind

    def __init__(self, cards: CardsLike) -> None:
        cs = to_cards(cards)
        not_a_set = set_problem(cs)
        if not_a_set is None:
            kind = MeldKind.SET
        elif run_problem(cs) is None:
            kind = MeldKind.RUN
        else:
            raise InvalidCardError(
                _("{cards!r} is not a meld: {why}").format(
                    cards=format_cards(cs), why=run_problem(cs) if _same_suit(cs) else not_a_set
                )
            )
        object.__setattr__(self, "cards", cs if kind is MeldKind.SET else _by_rank(cs))
        object.__setattr__(self, "kind", kind)

    @property
    def is_set(self) -> bool:
        """Whether this meld is a set."""
        return self.kind is MeldKind.SET

    @property
    def is_run(self) -> bool:
        """Whether this meld is a run."""
        return self.kind is MeldKind.RUN

    @property
    def value(self) -> int:
        """The sum of the meld's card values."""
        return sum(c.value for c in self.cards)

    @property
    def mask(self) -> int:
        """The meld's cards as a 52-bit mask."""
        m = 0
        for c in self.cards:
            m |= c.bit
        return m

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __repr__(self) -> str:
        return f"Meld({format_cards(self.cards)})"

    def __str__(self) -> str:
        return format_cards(self.cards)

    def _repr_html_(self) -> str:
        from .views.html import meld_html

        return meld_html(self)

    def extensions(self) -> tuple[Card, ...]:
        """The cards that could be added to this meld: a set's fourth card, a run's ends."""
        if self.is_set:
            if len(self.cards) == 4:
                return ()
            missing = set(Suit) - {c.suit for c in self.cards}
            return tuple(CARDS[(s, self.cards[0].rank)] for s in sorted(missing))
        suit, low, high = self.cards[0].suit, self.cards[0].rank, self.cards[-1].rank
        ends = [r for r in (low - 1, high + 1) if 1 <= r <= 13]
        return tuple(CARDS[(suit, r)] for r in ends)


def _same_suit(cards: tuple[Card, ...]) -> bool:
    return len({c.suit for c in cards}) == 1 and len(cards) > 1


def _by_rank(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.rank))


def _meld_unchecked(cards: tuple[Card, ...], kind: MeldKind) -> Meld:
    meld = object.__new__(Meld)
    object.__setattr__(meld, "cards", cards)
    object.__setattr__(meld, "kind", kind)
    return meld


def all_melds(cards: CardsLike) -> tuple[Meld, ...]:
    """Every set and run that can be made from the cards (they may overlap).

    >>> all_melds("7H 8H 9H 9S 9D")
    (Meld(9D 9H 9S), Meld(7H 8H 9H))
    """
    cs = to_cards(cards)
    out: list[Meld] = []
    by_rank: dict[int, list[Card]] = {}
    for c in cs:
        by_rank.setdefault(c.rank, []).append(c)
    for rank in sorted(by_rank):
        group = by_rank[rank]
        for size in (3, 4):
            for combo in combinations(group, size):
                out.append(_meld_unchecked(tuple(combo), MeldKind.SET))
    mask = sum(c.bit for c in cs)
    for suit in Suit:
        bits = (mask >> (13 * suit)) & SUIT_BITS
        for low in range(13):
            high = low
            while high < 13 and bits >> high & 1:
                if high - low >= 2:
                    run = tuple(CARDS[(suit, r + 1)] for r in range(low, high + 1))
                    out.append(_meld_unchecked(run, MeldKind.RUN))
                high += 1
    return tuple(out)


class Arrangement:
    """Cards laid out as melds plus deadwood (the cards in no meld).

    Read-only.  An arrangement found by :func:`best_melds` knows its deadwood value at
    once and builds its melds and deadwood cards the first time they are read, so code
    that needs only the value (bots, simulations) never pays for them.
    """

    __slots__ = ("_deadwood", "_lazy", "_melds", "_value")
    _melds: tuple[Meld, ...]
    _deadwood: tuple[Card, ...]
    _value: int
    #: For a found arrangement: (hand mask, mask of the cards in sets).
    _lazy: tuple[int, int]

    def __init__(self, melds: tuple[Meld, ...], deadwood: tuple[Card, ...]) -> None:
        self._melds = tuple(melds)
        self._deadwood = tuple(deadwood)
        self._value = sum(c.value for c in self._deadwood)

    @property
    def melds(self) -> tuple[Meld, ...]:
        """The melds, by lowest rank, sets before runs."""
        try:
            return self._melds
        except AttributeError:
            mask, in_sets = self._lazy
            self._melds = _melds_of(mask, in_sets)
            return self._melds

    @property
    def deadwood(self) -> tuple[Card, ...]:
        """The cards in no meld, sorted."""
        try:
            return self._deadwood
        except AttributeError:
            mask, in_sets = self._lazy
            self._deadwood = sorted_cards(mask & ~melded_after_sets(mask, in_sets))
            return self._deadwood

    @property
    def deadwood_value(self) -> int:
        """The total value of the deadwood cards."""
        return self._value

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the arrangement, sorted."""
        return tuple(sorted([c for m in self.melds for c in m.cards] + list(self.deadwood)))

    @property
    def is_gin(self) -> bool:
        """Whether no card is left as deadwood."""
        return not self.deadwood

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Arrangement):
            return (self.melds, self.deadwood) == (other.melds, other.deadwood)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.melds, self.deadwood))

    def __repr__(self) -> str:
        return f"Arrangement(melds={self.melds!r}, deadwood={self.deadwood!r})"

    def __str__(self) -> str:
        melds = " ".join(f"[{m}]" for m in self.melds)
        return f"{melds} | {format_cards(self.deadwood) or '-'} ({self.deadwood_value})"

    def _repr_html_(self) -> str:
        from .views.html import arrangement_html

        return arrangement_html(self)

    @staticmethod
    def of(cards: CardsLike, melds: list[Meld] | tuple[Meld, ...]) -> Arrangement:
        """Arrange ``cards`` into the given melds; the rest is deadwood.

        Raises :class:`InvalidCardError` when a meld uses a card not in ``cards`` or two
        melds share a card.
        """
        cs = to_cards(cards)
        held = set(cs)
        used: set[Card] = set()
        for meld in melds:
            for c in meld.cards:
                if c not in held:
                    raise InvalidCardError(
                        _("{card} is in the meld {meld} but not in the hand").format(
                            card=c, meld=meld)
                    )
                if c in used:
                    raise InvalidCardError(
                        _("{card} is in two melds: a card belongs to at most one meld").format(
                            card=c)
                    )
                used.add(c)
        return Arrangement(tuple(melds), tuple(c for c in cs if c not in used))


# The runs of one suit's melded pattern, built once: (suit << 13 | pattern) -> runs.
_RUNS: dict[int, tuple[tuple[int, int, int, Meld], ...]] = {}


def _runs_of(suit: int, keep: int) -> tuple[tuple[int, int, int, Meld], ...]:
    """The runs of suit pattern ``keep`` (stretches of 3 or more) as sort keys and melds:
    (lowest rank index, 1, suit, run)."""
    key = suit << 13 | keep
    runs = _RUNS.get(key)
    if runs is None:
        found = []
        r = 0
        while r < 13:
            if keep >> r & 1:
                start = r
                while r < 13 and keep >> r & 1:
                    r += 1
                cards = tuple(CARDS[(Suit(suit), i + 1)] for i in range(start, r))
                found.append((start, 1, suit, _meld_unchecked(cards, MeldKind.RUN)))
            else:
                r += 1
        runs = _RUNS[key] = tuple(found)
    return runs


def _melds_of(mask: int, in_sets: int) -> tuple[Meld, ...]:
    """The melds of a hand whose cards ``in_sets`` form sets, plus the runs of what is
    left, listed by their lowest rank, sets before runs, then by suit."""
    rest = mask ^ in_sets
    keyed: list[tuple[int, int, int, Meld]] = []
    for r, sm in sets_of(in_sets):
        cards = tuple(CARDS[(Suit(s), r + 1)] for s in range(4) if sm >> s & 1)
        keyed.append((r, 0, cards[0].suit, _meld_unchecked(cards, MeldKind.SET)))
    for s in range(4):
        keep = RUN_MELDED[(rest >> (13 * s)) & SUIT_BITS]
        if keep:
            keyed += _runs_of(s, keep)
    if len(keyed) > 1:
        keyed.sort(key=_meld_order)  # (rank, kind, suit) is unique to each meld
    return tuple(t[3] for t in keyed)


def _meld_order(t: tuple[int, int, int, Meld]) -> tuple[int, int, int]:
    return t[0], t[1], t[2]


def best_melds(cards: CardsLike) -> Arrangement:
    """An arrangement of the cards with the least possible deadwood value.

    Exact for any number of cards.  Ties are broken the same way every time, looking
    only at these cards: the fewest deadwood cards; then the deadwood whose highest card
    is lowest (compared card by card, high to low); then the fewest cards in sets (runs
    preferred).  Melds are listed by their lowest rank, sets before runs (see
    ``docs/rules.md``, "Engine conventions").

    >>> best_melds("TC TD TH JH QH").deadwood   # a tie at 20: keep the lower cards
    (TC, TD)
    """
    mask, value, in_sets = best_cards(cards)
    if mask < 0:
        mask = hand_mask(cards)  # raises the error that fits
        value, in_sets = best(mask)
    arrangement = _new_arrangement(Arrangement)
    arrangement._value = value
    arrangement._lazy = (mask, in_sets)
    return arrangement


_new_arrangement = object.__new__


def deadwood(cards: CardsLike) -> int:
    """The least deadwood value of the cards: a shortcut for ``best_melds(c).deadwood_value``.

    >>> deadwood("AH 2H 3H 4S 4D KC")
    18
    """
    return min_deadwood(hand_mask(cards))


#: The least deadwood value of the cards of a 52-bit mask (bit ``Card.bit``): the kernel
#: :func:`box_gin.kernels.min_deadwood` itself, under the name the katas know.
min_deadwood_mask = min_deadwood
