"""The mask-level search behind best_melds, best_discards and Hand.legal_actions.

Everything here works on 52-bit hand masks (bit ``suit * 13 + rank - 1``, as
:attr:`Card.bit <box_gin.cards.Card.bit>`); only bits 0 to 51 of a mask are read.  The
rules modules above (melds, knocking, hand) turn masks back into cards and melds.

How the search is exact and fast: within one suit, with no sets in play, every maximal
stretch of three or more consecutive cards is best melded whole as one run, so tables
over the 8,192 patterns of a suit give each suit's run-only deadwood at once.  Sets
compete with runs only at ranks held three or more times (at most three such ranks in 11
cards), so the search tries every choice of set at those ranks (none, each three-card
set, the four-card set) and reads the runs of what is left from the tables.

Two implementations give the same answers through the same names: this module's pure
Python, and the compiled extension ``box_gin._speedups`` (built at install time when a C
compiler is found), bound in place of the pure functions when this module is imported,
as the standard library binds ``_heapq``.  :data:`IMPLEMENTATION` says which is in use;
``BOX_GIN_PURE=1`` in the environment keeps the pure functions.  The pure functions stay
reachable under :data:`PURE` whatever the path, so tests can compare the two.

>>> IMPLEMENTATION in ("compiled", "pure")
True
>>> min_deadwood(0b111 | 1 << 20)   # AC 2C 3C melded, 8D left
8
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from itertools import combinations
from typing import Any

from .cards import BY_INDEX, Card, CardsLike, to_cards

__all__ = [
    "BY_RANK_MAJOR",
    "IMPLEMENTATION",
    "LEAST_AFTER_DISCARD",
    "PURE",
    "RUN_DEADWOOD",
    "RUN_MELDED",
    "SUIT_BITS",
    "TO_RANK_MAJOR",
    "after_each",
    "best",
    "best_cards",
    "discard_table",
    "hand_mask",
    "knockable",
    "least_after",
    "mask_of",
    "melded_after_sets",
    "min_deadwood",
    "sets_in_play",
    "sets_of",
    "sorted_cards",
]

#: The 13 bits of one suit in a hand mask.
SUIT_BITS = 0x1FFF
_VALUE = [min(r + 1, 10) for r in range(13)]  # a card's value by rank index


# ---------------------------------------------------------------------------
# Tables over the 8,192 patterns of one suit (bit r: the card of rank r + 1).

# Each table is built at every import of the kit (each bot's child, each notebook's
# kernel), so cheaply: a pattern's entry from the pattern without its lowest card, in
# functions (their local names are faster than the module's).

def _pattern_values() -> list[int]:
    """[p]: the total value of the cards of suit pattern p."""
    out, value = [0] * 8192, _VALUE
    for p in range(1, 8192):
        low = p & -p
        out[p] = out[p ^ low] + value[low.bit_length() - 1]
    return out


def _runs(pattern: int) -> int:
    """The cards of a suit pattern that lie in stretches of three or more: each is one of
    three held cards in a row (``starts`` marks the lowest of each such three)."""
    starts = pattern & pattern >> 1 & pattern >> 2
    return starts | starts << 1 | starts << 2


def _least_after_discards(dead: list[int]) -> list[int]:
    """[p]: the least of ``dead[p without one of its cards]`` over its cards (a large
    number for the empty pattern, which has none to discard)."""
    out = [1 << 20] * 8192
    for p in range(1, 8192):
        least, rest = 1 << 20, p
        while rest:
            bit = rest & -rest
            rest ^= bit
            after = dead[p ^ bit]
            if after < least:
                least = after
        out[p] = least
    return out


def _spread_of_first_suit() -> list[int]:
    """[p]: suit pattern p spread into a rank-major mask (bit rank index * 4), as the
    first suit's cards lie there; another suit's lie as many bits higher as its number."""
    out = [0] * 8192
    for p in range(1, 8192):
        low = p & -p
        out[p] = out[p ^ low] | 1 << (low.bit_length() - 1) * 4
    return out


#: _PATTERN_VALUE[p]: the total value of the cards of suit pattern p.
_PATTERN_VALUE = _pattern_values()
#: RUN_MELDED[p]: the cards of suit pattern p that lie in runs (stretches of 3 or more).
RUN_MELDED = [_runs(p) for p in range(8192)]
#: RUN_DEADWOOD[p]: the deadwood of suit pattern p when its runs are melded (no sets).
RUN_DEADWOOD = [_PATTERN_VALUE[p] - _PATTERN_VALUE[RUN_MELDED[p]] for p in range(8192)]
#: LEAST_AFTER_DISCARD[p]: the least run-only deadwood of suit pattern p after one of its
#: cards is discarded (a large number for the empty pattern, which has none to discard).
#: Built on first use (:func:`_least_table`): only the pure :func:`least_after` and
#: :func:`knockable` read it, and the largest table costs each import (a bot's child, a
#: kata's, a notebook's kernel) 4 ms where the compiled kernels serve.
LEAST_AFTER_DISCARD: list[int] = []


def _least_table() -> list[int]:
    """:data:`LEAST_AFTER_DISCARD`, built the first time it is asked for."""
    if not LEAST_AFTER_DISCARD:
        LEAST_AFTER_DISCARD[:] = _least_after_discards(RUN_DEADWOOD)
    return LEAST_AFTER_DISCARD
# _SET_REMOVALS[r][sm]: for rank index r held in the suits of 4-bit mask sm (three or
# more), the 52-bit masks of the cards each choice of set there takes: no set first,
# then each three-card set (in itertools.combinations order), then the four-card set.
_SET_REMOVALS = [
    {sm: [0] + [sum(1 << (13 * s + r) for s in combo)
                for n in (3, 4) for combo in combinations([s for s in range(4) if sm >> s & 1], n)]
     for sm in range(16) if sm.bit_count() >= 3}
    for r in range(13)
]
#: TO_RANK_MAJOR[s][p]: suit s's pattern p spread into a rank-major mask (bit rank index
# * 4 + suit), whose bits run in card order (rank, then suit).
_FIRST_SUIT = _spread_of_first_suit()
TO_RANK_MAJOR = [_FIRST_SUIT, *([spread << s for spread in _FIRST_SUIT] for s in (1, 2, 3))]
#: The 52 cards in card order (rank, then suit): bit k of a rank-major mask.
BY_RANK_MAJOR = tuple(BY_INDEX[(k % 4) * 13 + k // 4] for k in range(52))


# ---------------------------------------------------------------------------
# The helpers both paths share (not hot: they build what a caller reads once).

def sets_in_play(s0: int, s1: int, s2: int, s3: int) -> int:
    """The ranks held in three or more of the four suits' patterns (``s0`` clubs to ``s3``
    spades), as a 13-bit mask: the only ranks where a set can compete with runs.  With
    none, a hand's runs are its melds.  Every kernel asks this function (and the
    compiled ``three_of`` mirrors it).

    >>> bin(sets_in_play(0b11, 0b1, 0b1, 0))   # three aces, one two
    '0b1'
    """
    return (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))


def sorted_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in card order (rank, then suit)."""
    t = TO_RANK_MAJOR
    rm = t[0][mask & SUIT_BITS] | t[1][(mask >> 13) & SUIT_BITS] \
        | t[2][(mask >> 26) & SUIT_BITS] | t[3][(mask >> 39) & SUIT_BITS]
    by_key = BY_RANK_MAJOR
    out = []
    while rm:
        low = rm & -rm
        out.append(by_key[low.bit_length() - 1])
        rm ^= low
    return tuple(out)


def melded_after_sets(mask: int, in_sets: int) -> int:
    """The melded cards of a hand whose cards ``in_sets`` form sets: those cards plus the
    runs of what is left."""
    m = mask ^ in_sets
    return in_sets | RUN_MELDED[m & SUIT_BITS] | RUN_MELDED[(m >> 13) & SUIT_BITS] << 13 \
        | RUN_MELDED[(m >> 26) & SUIT_BITS] << 26 | RUN_MELDED[(m >> 39) & SUIT_BITS] << 39


def sets_of(in_sets: int) -> list[tuple[int, int]]:
    """The sets a mask of set cards stands for: (rank index, 4-bit suit mask) pairs."""
    ranks = (in_sets | in_sets >> 13 | in_sets >> 26 | in_sets >> 39) & SUIT_BITS
    out = []
    while ranks:
        low = ranks & -ranks
        r = low.bit_length() - 1
        sm = (in_sets >> r & 1) | (in_sets >> (13 + r) & 1) << 1 \
            | (in_sets >> (26 + r) & 1) << 2 | (in_sets >> (39 + r) & 1) << 3
        out.append((r, sm))
        ranks ^= low
    return out


def _removals(mask: int, three: int) -> list[int]:
    """Every choice of sets at the ranks of ``three``, each as the mask of the cards the
    sets take, in a fixed order (the lowest rank the slowest to change)."""
    removals = [0]
    while three:
        low = three & -three
        r = low.bit_length() - 1
        sm = (mask >> r & 1) | (mask >> (13 + r) & 1) << 1 | (mask >> (26 + r) & 1) << 2 \
            | (mask >> (39 + r) & 1) << 3
        removals = [a | b for a in removals for b in _SET_REMOVALS[r][sm]]
        three ^= low
    return removals


# ---------------------------------------------------------------------------
# The kernels: the compiled extension has each of them, with the same answers.

# A card's bit, read by the slot's own descriptor: it refuses anything but a Card.
_BIT = Card.__dict__["bit"].__get__
_PLAIN = (tuple, list, set, frozenset)


def mask_of(cards: object) -> int:
    """The mask of a tuple, list, set or frozenset of distinct cards; -1 for anything else
    (the caller then checks the cards the slow way, for the error that fits)."""
    if type(cards) in _PLAIN:
        try:
            mask: int = sum(map(_BIT, cards))  # type: ignore[call-overload]
        except TypeError:
            return -1
        # A sum of powers of two has as many bits as terms only when none repeats.
        if mask.bit_count() == len(cards):  # type: ignore[arg-type]
            return mask
    return -1


def best(mask: int) -> tuple[int, int]:
    """(least deadwood, mask of the cards in sets) of the cards of a mask.

    Among the choices of sets that reach the least deadwood it takes the one with the
    fewest deadwood cards, then the deadwood whose highest card is lowest (compared card
    by card, high to low), then the fewest cards in sets: best_melds' tie-break.
    """
    dead = RUN_DEADWOOD
    s0, s1 = mask & SUIT_BITS, (mask >> 13) & SUIT_BITS
    s2, s3 = (mask >> 26) & SUIT_BITS, (mask >> 39) & SUIT_BITS
    three = sets_in_play(s0, s1, s2, s3)
    if not three:
        return dead[s0] + dead[s1] + dead[s2] + dead[s3], 0
    found: list[int] = []
    least = 1 << 30
    for removed in _removals(mask, three):
        m = mask ^ removed
        value = dead[m & SUIT_BITS] + dead[(m >> 13) & SUIT_BITS] + \
            dead[(m >> 26) & SUIT_BITS] + dead[(m >> 39) & SUIT_BITS]
        if value < least:
            least, found = value, [removed]
        elif value == least:
            found.append(removed)
    if len(found) == 1:
        return least, found[0]
    return least, min(found, key=lambda removed: _tie_key(mask, removed))


def best_cards(cards: object) -> tuple[int, int, int]:
    """:func:`mask_of` and :func:`best` in one call, for ``best_melds``: (mask, least
    deadwood, mask of the cards in sets), or (-1, 0, 0) when ``mask_of`` would say -1."""
    if type(cards) in _PLAIN:
        try:
            mask: int = sum(map(_BIT, cards))  # type: ignore[call-overload]
        except TypeError:
            return -1, 0, 0
        if mask.bit_count() == len(cards):  # type: ignore[arg-type]
            s0, s1 = mask & SUIT_BITS, (mask >> 13) & SUIT_BITS
            s2, s3 = (mask >> 26) & SUIT_BITS, (mask >> 39) & SUIT_BITS
            if not sets_in_play(s0, s1, s2, s3):  # best's first case, without its call
                dead = RUN_DEADWOOD
                return mask, dead[s0] + dead[s1] + dead[s2] + dead[s3], 0
            value, in_sets = best(mask)
            return mask, value, in_sets
    return -1, 0, 0


def _tie_key(mask: int, in_sets: int) -> tuple[int, tuple[int, ...], int]:
    dead = mask & ~melded_after_sets(mask, in_sets)
    # Each card's place in card order, highest first: compared as tuples, the lower one
    # is the deadwood whose highest card is lowest.
    order = sorted((c._order for c in sorted_cards(dead)), reverse=True)
    return (len(order), tuple(order), in_sets.bit_count())


def min_deadwood(mask: int) -> int:
    """The least deadwood value of the cards of a mask."""
    dead = RUN_DEADWOOD
    s0, s1 = mask & SUIT_BITS, (mask >> 13) & SUIT_BITS
    s2, s3 = (mask >> 26) & SUIT_BITS, (mask >> 39) & SUIT_BITS
    least = dead[s0] + dead[s1] + dead[s2] + dead[s3]
    three = sets_in_play(s0, s1, s2, s3)
    if three:
        for removed in _removals(mask, three):
            m = mask ^ removed
            value = dead[m & SUIT_BITS] + dead[(m >> 13) & SUIT_BITS] + \
                dead[(m >> 26) & SUIT_BITS] + dead[(m >> 39) & SUIT_BITS]
            if value < least:
                least = value
    return least


# For one suit's pattern, each of its cards as (place in card order, card, index, change
# in the suit's run-only deadwood when that card is discarded); built when first seen.
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


def _rows(mask: int) -> list[tuple[int, Card, int, int]]:
    """For each card of the mask, in no particular order: (its place in card order, the
    card, its index, the least deadwood of the cards left when it is discarded).

    The cards left after a discard can hold exactly the sets of the whole hand that do
    not use the discarded card, so each choice of sets is tried once and every discard's
    runs are read from the per-suit tables.
    """
    dead = RUN_DEADWOOD
    s0, s1 = mask & SUIT_BITS, (mask >> 13) & SUIT_BITS
    s2, s3 = (mask >> 26) & SUIT_BITS, (mask >> 39) & SUIT_BITS
    three = sets_in_play(s0, s1, s2, s3)
    if not three:
        total = dead[s0] + dead[s1] + dead[s2] + dead[s3]
        return [(o, c, i, total + d) for o, c, i, d in _suit_discards(0, s0)
                + _suit_discards(1, s1) + _suit_discards(2, s2) + _suit_discards(3, s3)]
    found: dict[int, tuple[int, Card, int, int]] = {}
    for removed in _removals(mask, three):
        m = mask ^ removed
        q0, q1 = m & SUIT_BITS, (m >> 13) & SUIT_BITS
        q2, q3 = (m >> 26) & SUIT_BITS, (m >> 39) & SUIT_BITS
        total = dead[q0] + dead[q1] + dead[q2] + dead[q3]
        for o, c, i, d in _suit_discards(0, q0) + _suit_discards(1, q1) \
                + _suit_discards(2, q2) + _suit_discards(3, q3):
            old = found.get(i)
            if old is None or total + d < old[3]:
                found[i] = (o, c, i, total + d)
    return list(found.values())


def discard_table(mask: int) -> list[tuple[int, Card, int, int]]:
    """For each card of the mask, in card order: (its place in card order, the card, its
    index, the least deadwood of the cards left when it is discarded)."""
    return sorted(_rows(mask))


def after_each(mask: int) -> dict[Card, int]:
    """{card: the least deadwood of the cards left when it is discarded}, in card order."""
    return {c: d for _o, c, _i, d in sorted(_rows(mask))}


def least_after(mask: int, skip: int) -> int:
    """The least deadwood after discarding any card of the mask but the one of index
    ``skip`` (-1: none barred); a large number when there is nothing to discard."""
    s0, s1 = mask & SUIT_BITS, (mask >> 13) & SUIT_BITS
    s2, s3 = (mask >> 26) & SUIT_BITS, (mask >> 39) & SUIT_BITS
    if skip < 0 and not sets_in_play(s0, s1, s2, s3):
        # No sets in play: each suit's best discard is a table entry.
        dead, after = RUN_DEADWOOD, LEAST_AFTER_DISCARD or _least_table()
        d0, d1, d2, d3 = dead[s0], dead[s1], dead[s2], dead[s3]
        return d0 + d1 + d2 + d3 + min(after[s0] - d0, after[s1] - d1, after[s2] - d2,
                                       after[s3] - d3)
    return min((d for _o, _c, i, d in _rows(mask) if i != skip), default=1 << 20)


def knockable(mask: int, limit: int, skip: int) -> int:
    """The mask of the cards of ``mask`` (but the one of index ``skip``) whose discard
    leaves at most ``limit`` deadwood."""
    s0, s1 = mask & SUIT_BITS, (mask >> 13) & SUIT_BITS
    s2, s3 = (mask >> 26) & SUIT_BITS, (mask >> 39) & SUIT_BITS
    if not sets_in_play(s0, s1, s2, s3):
        # The no-knock fast path: with no sets in play, four look-ups say whether any
        # discard leaves the limit or less (most turns of a hand: none does).
        dead, after = RUN_DEADWOOD, LEAST_AFTER_DISCARD or _least_table()
        d0, d1, d2, d3 = dead[s0], dead[s1], dead[s2], dead[s3]
        if d0 + d1 + d2 + d3 + min(after[s0] - d0, after[s1] - d1, after[s2] - d2,
                                   after[s3] - d3) > limit:
            return 0
    out = 0
    for _o, _c, i, d in _rows(mask):
        if d <= limit and i != skip:
            out |= 1 << i
    return out


def hand_mask(cards: CardsLike) -> int:
    """The mask of ``cards``, checked as :func:`~box_gin.cards.to_cards` checks them
    (text is read too; a card repeated, or anything but a card, raises its error)."""
    mask = mask_of(cards)  # the kernel in use (compiled when built)
    if mask < 0:
        mask = 0
        for c in to_cards(cards):  # raises the error that fits
            mask |= c.bit
    return mask


#: The pure-Python kernels, whichever path is in use.
PURE: dict[str, Callable[..., Any]] = {
    "mask_of": mask_of, "best": best, "best_cards": best_cards, "min_deadwood": min_deadwood,
    "discard_table": discard_table, "after_each": after_each, "least_after": least_after,
    "knockable": knockable,
}

#: Which kernels are in use: "compiled" (the extension box_gin._speedups) or "pure".
IMPLEMENTATION = "pure"

if os.environ.get("BOX_GIN_PURE", "").strip() != "1":
    try:
        # By name: the import contract reads the package's modules, and a compiled one
        # would show there as the package itself.
        _speedups = importlib.import_module("box_gin._speedups")
    except ImportError:  # not built (no C compiler at install): pure Python it is
        pass
    else:
        if getattr(_speedups, "ABI", None) == 2:  # a stale build is left unused
            _speedups.init(Card, BY_RANK_MAJOR)
            globals().update({name: getattr(_speedups, name) for name in (
                "after_each", "best", "best_cards", "discard_table", "knockable",
                "least_after", "mask_of", "min_deadwood")})
            IMPLEMENTATION = "compiled"
