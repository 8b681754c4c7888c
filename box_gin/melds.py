"""Melds and the exact least-deadwood arrangement of any number of cards.

A *set* is 3 or 4 cards of one rank; a *run* is 3 or more cards of one suit in
consecutive rank, ace low.  :func:`best_melds` finds an arrangement of least deadwood.

How it is exact and fast: within one suit, with no sets in play, every maximal stretch
of three or more consecutive cards is best melded whole as one run, so a table over the
8,192 patterns of a suit gives the best runs at once.  Sets compete with runs only at
ranks holding three or more cards (at most three such ranks in 11 cards), so the search
tries every choice of set at those ranks (none, each three-card set, the four-card set)
and reads the runs of what is left from the table.

>>> arrangement = best_melds("2H 3H 4H 7S 7D 7C KD")
>>> arrangement.melds
(Meld(2H 3H 4H), Meld(7C 7D 7S))
>>> arrangement.deadwood, arrangement.deadwood_value
((KD,), 10)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, product
from types import FunctionType

from .cards import BY_INDEX, CARDS, Card, CardsLike, Suit, format_cards, to_cards
from .errors import InvalidCardError
from .i18n import _

SUIT_BITS = 0x1FFF


class MeldKind(StrEnum):
    """A meld is a set (same rank) or a run (same suit, consecutive ranks)."""

    SET = "set"
    RUN = "run"

    @property
    def label(self) -> str:
        """The kind's name in the language in use."""
        return _("set") if self is MeldKind.SET else _("run")


def _set_problem(cards: tuple[Card, ...]) -> str | None:
    if not 3 <= len(cards) <= 4:
        return _("a set has 3 or 4 cards, not {n}").format(n=len(cards))
    if len({c.rank for c in cards}) != 1:
        return _("the cards of a set all have the same rank")
    return None


def _run_problem(cards: tuple[Card, ...]) -> str | None:
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
    return _set_problem(to_cards(cards)) is None


def is_run(cards: CardsLike) -> bool:
    """Whether the cards are 3 or more of one suit in consecutive rank, ace low.

    >>> is_run("AH 2H 3H"), is_run("QH KH AH")
    (True, False)
    """
    return _run_problem(to_cards(cards)) is None


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """A valid set or run; ``Meld("7H 8H 9H")`` raises if the cards are not a meld."""

    cards: tuple[Card, ...]
    kind: MeldKind

    def __init__(self, cards: CardsLike) -> None:
        cs = to_cards(cards)
        set_problem = _set_problem(cs)
        if set_problem is None:
            kind = MeldKind.SET
        elif _run_problem(cs) is None:
            kind = MeldKind.RUN
        else:
            raise InvalidCardError(
                _("{cards!r} is not a meld: {why}").format(
                    cards=format_cards(cs), why=_run_problem(cs) if _same_suit(cs) else set_problem
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
        from .display import meld_html

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


# ---------------------------------------------------------------------------
# Tables over the 8,192 patterns of one suit.

def _runs_table() -> tuple[list[int], list[int]]:
    melded = [0] * 8192
    value = [0] * 8192
    for pattern in range(8192):
        keep = 0
        r = 0
        while r < 13:
            if pattern >> r & 1:
                start = r
                while r < 13 and pattern >> r & 1:
                    r += 1
                if r - start >= 3:
                    keep |= ((1 << (r - start)) - 1) << start
            else:
                r += 1
        melded[pattern] = keep
        value[pattern] = sum(min(i + 1, 10) for i in range(13) if keep >> i & 1)
    return melded, value


#: RUN_MELDED[p]: the cards of suit pattern p that lie in runs (stretches of 3 or more).
#: RUN_VALUE[p]: their total value.
RUN_MELDED, RUN_VALUE = _runs_table()
#: PATTERN_VALUE[p]: the total value of the cards of suit pattern p.
PATTERN_VALUE = [sum(min(i + 1, 10) for i in range(13) if p >> i & 1) for p in range(8192)]
# The set options at a rank held in k suits (as 4-bit suit masks): none, each 3, the 4.
_SET_OPTIONS = {
    sm: [0] + [sum(1 << s for s in c) for n in (3, 4) for c in combinations(
        [s for s in range(4) if sm >> s & 1], n)]
    for sm in range(16)
}


def _set_ranks(s0: int, s1: int, s2: int, s3: int) -> list[tuple[int, int]]:
    """(rank index, 4-bit suit mask) for each rank held in three or more suits."""
    three = (s0 & s1 & s2) | (s0 & s1 & s3) | (s0 & s2 & s3) | (s1 & s2 & s3)
    out = []
    while three:
        low = three & -three
        r = low.bit_length() - 1
        sm = (s0 >> r & 1) | (s1 >> r & 1) << 1 | (s2 >> r & 1) << 2 | (s3 >> r & 1) << 3
        out.append((r, sm))
        three ^= low
    return out


def _choices(mask: int) -> tuple[list[list[tuple[int, int]]], int]:
    """All choices of sets for a hand mask, and the hand's total value."""
    suits = [(mask >> (13 * s)) & SUIT_BITS for s in range(4)]
    total = PATTERN_VALUE[suits[0]] + PATTERN_VALUE[suits[1]] + \
        PATTERN_VALUE[suits[2]] + PATTERN_VALUE[suits[3]]
    ranks = _set_ranks(*suits)
    if not ranks:
        return [[]], total
    options = [[(r, o) for o in _SET_OPTIONS[sm]] for r, sm in ranks]
    return [list(c) for c in product(*options)], total


def _melded_value(mask: int, choice: list[tuple[int, int]]) -> tuple[int, int]:
    """(value melded, mask of melded cards) for a hand mask and one choice of sets."""
    suits = [(mask >> (13 * s)) & SUIT_BITS for s in range(4)]
    value = 0
    melded = 0
    for r, sm in choice:
        if sm:
            for s in range(4):
                if sm >> s & 1:
                    suits[s] &= ~(1 << r)
                    melded |= 1 << (13 * s + r)
            value += min(r + 1, 10) * sm.bit_count()
    for s in range(4):
        value += RUN_VALUE[suits[s]]
        melded |= RUN_MELDED[suits[s]] << (13 * s)
    return value, melded


#: RUN_DEADWOOD[p]: the deadwood of suit pattern p when its runs are melded (no sets).
RUN_DEADWOOD = [PATTERN_VALUE[p] - RUN_VALUE[p] for p in range(8192)]
#: LEAST_AFTER_DISCARD[p]: the least run-only deadwood of suit pattern p after one of its
#: cards is discarded (a large number for the empty pattern, which has none to discard).
LEAST_AFTER_DISCARD = [
    min((RUN_DEADWOOD[p ^ (1 << r)] for r in range(13) if p >> r & 1), default=1 << 20)
    for p in range(8192)
]
# _SET_REMOVALS[r][sm]: for a rank index r held in the suits of 4-bit mask sm (three or
# more), the 52-bit masks of the cards each choice of set there takes out of the hand
# (0 for no set first): the same choices, in the same order, as _SET_OPTIONS.
_SET_REMOVALS = [
    {sm: [sum(1 << (13 * s + r) for s in range(4) if o >> s & 1) for o in options]
     for sm, options in _SET_OPTIONS.items() if sm.bit_count() >= 3}
    for r in range(13)
]


def _set_removals(mask: int, three: int) -> list[int]:
    """Every choice of sets at the ranks of ``three`` (ranks held in three or more suits),
    each as the mask of the cards the sets take."""
    removals = [0]
    while three:
        low = three & -three
        r = low.bit_length() - 1
        sm = (mask >> r & 1) | (mask >> (13 + r) & 1) << 1 | (mask >> (26 + r) & 1) << 2 \
            | (mask >> (39 + r) & 1) << 3
        removals = [a | b for a in removals for b in _SET_REMOVALS[r][sm]]
        three ^= low
    return removals


def min_deadwood_mask(mask: int) -> int:
    """The least deadwood value of the cards in a 52-bit mask (the fast path)."""
    dead = RUN_DEADWOOD
    s0 = mask & SUIT_BITS
    s1 = (mask >> 13) & SUIT_BITS
    s2 = (mask >> 26) & SUIT_BITS
    s3 = (mask >> 39) & SUIT_BITS
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not three:
        return dead[s0] + dead[s1] + dead[s2] + dead[s3]
    best = dead[s0] + dead[s1] + dead[s2] + dead[s3]
    for removed in _set_removals(mask, three):
        m = mask ^ removed
        value = dead[m & SUIT_BITS] + dead[(m >> 13) & SUIT_BITS] + \
            dead[(m >> 26) & SUIT_BITS] + dead[(m >> 39) & SUIT_BITS]
        if value < best:
            best = value
    return best


# For one suit's pattern, each of its cards as (sort key, card, index, change in the
# suit's run-only deadwood when that card is discarded); built when a pattern is first seen.
_SUIT_DISCARDS: dict[int, tuple[tuple[int, Card, int, int], ...]] = {}


def _suit_discards(suit: int, pattern: int) -> tuple[tuple[int, Card, int, int], ...]:
    key = suit << 13 | pattern
    found = _SUIT_DISCARDS.get(key)
    if found is None:
        base = RUN_DEADWOOD[pattern]
        cards = [BY_INDEX[13 * suit + r] for r in range(13) if pattern >> r & 1]
        found = tuple((c._order, c, c.index, RUN_DEADWOOD[pattern ^ (1 << (c.rank - 1))] - base)
                      for c in cards)
        _SUIT_DISCARDS[key] = found
    return found


def _discard_table(mask: int) -> list[tuple[int, Card, int, int]]:
    """For each card of the mask: (sort key, card, index, the least deadwood of the cards
    left when it is discarded), in no particular order (sort it for card order).

    The 10 cards left after a discard can hold exactly the sets of the 11 that do not use
    the discarded card, so the search tries each choice of sets once and reads every
    discard's runs from the per-suit tables.
    """
    dead = RUN_DEADWOOD
    s0 = mask & SUIT_BITS
    s1 = (mask >> 13) & SUIT_BITS
    s2 = (mask >> 26) & SUIT_BITS
    s3 = (mask >> 39) & SUIT_BITS
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not three:
        total = dead[s0] + dead[s1] + dead[s2] + dead[s3]
        return [(o, c, i, total + d) for o, c, i, d in _suit_discards(0, s0)
                + _suit_discards(1, s1) + _suit_discards(2, s2) + _suit_discards(3, s3)]
    best: dict[int, tuple[int, Card, int, int]] = {}
    for removed in _set_removals(mask, three):
        m = mask ^ removed
        q0 = m & SUIT_BITS
        q1 = (m >> 13) & SUIT_BITS
        q2 = (m >> 26) & SUIT_BITS
        q3 = (m >> 39) & SUIT_BITS
        total = dead[q0] + dead[q1] + dead[q2] + dead[q3]
        for o, c, i, d in _suit_discards(0, q0) + _suit_discards(1, q1) \
                + _suit_discards(2, q2) + _suit_discards(3, q3):
            old = best.get(i)
            if old is None or total + d < old[3]:
                best[i] = (o, c, i, total + d)
    return list(best.values())


def _deadwood_after_discards(mask: int) -> list[tuple[int, int]]:
    """For each card of the mask, in index order: (its bit, the least deadwood of the
    cards left when it is discarded)."""
    return sorted((1 << i, d) for _o, _c, i, d in _discard_table(mask))


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
            self._melds = _melds_of(mask, _choice_of(in_sets))
            return self._melds

    @property
    def deadwood(self) -> tuple[Card, ...]:
        """The cards in no meld, sorted."""
        try:
            return self._deadwood
        except AttributeError:
            mask, in_sets = self._lazy
            self._deadwood = _sorted_cards(mask & ~_melded_after_sets(mask, in_sets))
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
        from .display import arrangement_html

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


def _melds_of(mask: int, choice: list[tuple[int, int]]) -> tuple[Meld, ...]:
    """The melds of one choice of sets plus the runs of what is left, listed by their
    lowest rank, sets before runs, then by suit."""
    suits = [(mask >> (13 * s)) & SUIT_BITS for s in range(4)]
    keyed: list[tuple[int, int, int, Meld]] = []
    for r, sm in choice:
        if sm:
            cards = []
            for s in range(4):
                if sm >> s & 1:
                    suits[s] &= ~(1 << r)
                    cards.append(CARDS[(Suit(s), r + 1)])
            keyed.append((r, 0, cards[0].suit, _meld_unchecked(tuple(cards), MeldKind.SET)))
    for s in range(4):
        keep = RUN_MELDED[suits[s]]
        if keep:
            keyed += _runs_of(s, keep)
    if len(keyed) > 1:
        keyed.sort(key=_meld_order)  # (rank, kind, suit) is unique to each meld
    return tuple(t[3] for t in keyed)


def _meld_order(t: tuple[int, int, int, Meld]) -> tuple[int, int, int]:
    return t[0], t[1], t[2]


# Cards in the order rank then suit, as small ints that sort the same way.
_RANK_MAJOR = [(i % 13) * 4 + i // 13 for i in range(52)]
_BY_RANK_MAJOR = [BY_INDEX[(k % 4) * 13 + k // 4] for k in range(52)]


# _TO_RANK_MAJOR[s][p]: suit s's pattern p spread into a rank-major mask (bit rank * 4 +
# suit), where the bits run in card order.
_TO_RANK_MAJOR = [[sum(1 << (r * 4 + s) for r in range(13) if p >> r & 1) for p in range(8192)]
                  for s in range(4)]


def _sorted_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask sorted by rank then suit (as :func:`cards_of`, faster)."""
    t = _TO_RANK_MAJOR
    rm = t[0][mask & SUIT_BITS] | t[1][(mask >> 13) & SUIT_BITS] \
        | t[2][(mask >> 26) & SUIT_BITS] | t[3][mask >> 39]
    by_key = _BY_RANK_MAJOR
    out = []
    while rm:
        low = rm & -rm
        out.append(by_key[low.bit_length() - 1])
        rm ^= low
    return tuple(out)


# A card's bit, read by the slot's own descriptor: it refuses anything but a Card.
_BIT = Card.__dict__["bit"].__get__
_PLAIN = (tuple, list, set, frozenset)


def _mask_of(cards: CardsLike) -> int:
    """The mask of ``cards``, checked as :func:`to_cards` checks them (with its errors)."""
    if type(cards) in _PLAIN:
        try:
            mask: int = sum(map(_BIT, cards))
        except TypeError:
            pass
        else:
            # A sum of powers of two has as many bits as terms only when none repeats.
            if mask.bit_count() == len(cards):  # type: ignore[arg-type]
                return mask
    mask = 0
    for c in to_cards(cards):  # raises the error that fits
        mask |= c.bit
    return mask


def _tie_key(mask: int, melded: int, choice: list[tuple[int, int]]) -> tuple[object, ...]:
    dead = mask & ~melded
    dead_cards = sorted((BY_INDEX[i] for i in range(52) if dead >> i & 1), reverse=True)
    set_cards = sum(sm.bit_count() for _, sm in choice)
    return (len(dead_cards), dead_cards, set_cards)


def best_melds(cards: CardsLike) -> Arrangement:
    """An arrangement of the cards with the least possible deadwood value.

    Exact for any number of cards.  Ties are broken the same way every time, looking
    only at these cards: the fewest deadwood cards; then the deadwood whose highest card
    is lowest (compared card by card, high to low); then the fewest cards in sets (runs
    preferred).  Melds are listed by their lowest rank, sets before runs.

    >>> best_melds("TC TD TH JH QH").deadwood   # a tie at 20: keep the lower cards
    (TC, TD)
    """
    mask = -1
    if type(cards) in _PLAIN:  # the common case, inline: a tuple, list or set of cards
        try:
            mask = sum(map(_BIT, cards))
        except TypeError:
            pass
        else:
            if mask.bit_count() != len(cards):  # type: ignore[arg-type]
                mask = -1
    if mask < 0:
        mask = _mask_of(cards)  # raises the error that fits
    s0 = mask & SUIT_BITS
    s1 = (mask >> 13) & SUIT_BITS
    s2 = (mask >> 26) & SUIT_BITS
    s3 = mask >> 39
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if three:
        return _best_with_sets(mask, three)
    dead = RUN_DEADWOOD  # no rank held three times: every run of 3 or more is melded
    arrangement = _new_arrangement(Arrangement)
    arrangement._value = dead[s0] + dead[s1] + dead[s2] + dead[s3]
    arrangement._lazy = (mask, 0)
    return arrangement


def _found(mask: int, in_sets: int, value: int) -> Arrangement:
    """A found arrangement, its melds and deadwood built when first read."""
    arrangement = _new_arrangement(Arrangement)
    arrangement._value = value
    arrangement._lazy = (mask, in_sets)
    return arrangement


_new_arrangement = object.__new__


def _best_with_sets(mask: int, three: int) -> Arrangement:
    """The best arrangement of a hand with ranks held three or more times (``three``)."""
    dead = RUN_DEADWOOD
    best: list[int] = []
    best_value = 1 << 30
    for removed in _set_removals(mask, three):
        m = mask ^ removed
        value = dead[m & SUIT_BITS] + dead[(m >> 13) & SUIT_BITS] + \
            dead[(m >> 26) & SUIT_BITS] + dead[(m >> 39) & SUIT_BITS]
        if value < best_value:
            best_value, best = value, [removed]
        elif value == best_value:
            best.append(removed)
    if len(best) == 1:
        return _found(mask, best[0], best_value)
    in_sets = min(best, key=lambda removed: _tie_key(
        mask, _melded_after_sets(mask, removed), _choice_of(removed)))
    return _found(mask, in_sets, best_value)


def _melded_after_sets(mask: int, removed: int) -> int:
    """The melded cards: the sets' cards plus the runs of what is left."""
    m = mask ^ removed
    return removed | RUN_MELDED[m & SUIT_BITS] | RUN_MELDED[(m >> 13) & SUIT_BITS] << 13 \
        | RUN_MELDED[(m >> 26) & SUIT_BITS] << 26 | RUN_MELDED[(m >> 39) & SUIT_BITS] << 39


def _choice_of(removed: int) -> list[tuple[int, int]]:
    """The sets a removal mask stands for, as (rank index, 4-bit suit mask) pairs."""
    ranks = (removed | removed >> 13 | removed >> 26 | removed >> 39) & SUIT_BITS
    out = []
    while ranks:
        low = ranks & -ranks
        r = low.bit_length() - 1
        sm = (removed >> r & 1) | (removed >> (13 + r) & 1) << 1 \
            | (removed >> (26 + r) & 1) << 2 | (removed >> (39 + r) & 1) << 3
        out.append((r, sm))
        ranks ^= low
    return out


def deadwood(cards: CardsLike) -> int:
    """The least deadwood value of the cards: a shortcut for ``best_melds(c).deadwood_value``.

    >>> deadwood("AH 2H 3H 4S 4D KC")
    18
    """
    return min_deadwood_mask(_mask_of(cards))


# ---------------------------------------------------------------------------
# The optional compiled path (box_gin/_speedups.c, off by default: see box_gin.speedups).
# Each ``_..._compiled`` function is the compiled twin of a function above, with the same
# arguments and the same answers; ``box_gin.speedups.use_compiled`` swaps the twin's code
# into the function itself, so every reference to it (``from box_gin import best_melds``
# included) follows, and the pure path pays nothing for the option.

try:
    from . import _speedups as _ext
except ImportError:  # not built: the pure path is all there is
    _ext = None  # type: ignore[assignment]
else:
    try:
        _ext.init(Card, tuple(_BY_RANK_MAJOR))
    except Exception:  # a stale or foreign build: leave it unused
        _ext = None  # type: ignore[assignment]



def _compiled_ready() -> bool:
    """Whether the compiled extension was built and loaded."""
    return _ext is not None


# Copies of the pure functions, for the twins' fallbacks (the originals' code is swapped).
_mask_of_pure: Callable[[CardsLike], int] = FunctionType(_mask_of.__code__, globals())
_min_deadwood_mask_pure: Callable[[int], int] = FunctionType(
    min_deadwood_mask.__code__, globals())


def _mask_of_compiled(cards: CardsLike) -> int:
    mask = _ext.mask_of(cards)
    if mask < 0:
        return _mask_of_pure(cards)  # raises the error that fits
    return mask


def _best_melds_compiled(cards: CardsLike) -> Arrangement:
    mask = _ext.mask_of(cards)
    if mask < 0:
        mask = _mask_of_pure(cards)  # raises the error that fits
    arrangement = _new_arrangement(Arrangement)
    arrangement._value, in_sets = _ext.best(mask)
    arrangement._lazy = (mask, in_sets)
    return arrangement


def _min_deadwood_mask_compiled(mask: int) -> int:
    try:
        return _ext.min_deadwood(mask)
    except (OverflowError, TypeError):  # not a 52-bit mask: as the pure path does
        return _min_deadwood_mask_pure(mask)


def _discard_table_compiled(mask: int) -> list[tuple[int, Card, int, int]]:
    return _ext.discard_table(mask)
