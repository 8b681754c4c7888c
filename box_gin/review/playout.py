"""Playouts: one hand played to its end by the greedy rollout policy, on 52-bit masks.

The review rates a decision by playing each legal action out in many sampled worlds
(:mod:`box_gin.review.evaluate`); this module is the hot part, written on plain integers
so that a C twin can give the very same results: a world is a :class:`World` (two hand
masks, the stock and the discard pile as lists of card indices, whose turn it is), the
policy is :func:`greedy_action`, the end is :func:`score_knock`, and the random numbers
come from :class:`SplitMix64`, never from Python's ``random``.

A card is its index ``suit * 13 + rank - 1`` (:attr:`Card.index <box_gin.cards.Card.index>`)
and its bit ``1 << index``.  Seat 0 is the captain, seat 1 the box.

The rollout policy, for both players (docs/review.md, "The rollout policy"):

- the upcard offer and the draw: take the top discard when, with it, the least deadwood
  after the best discard is lower than now and the card itself melds (the least deadwood
  of the eleven cards is below the ten's plus its value), or when it lets the player
  knock at once (the expert's rule); otherwise pass, or draw from the stock;
- after drawing: big gin when the rules allow it and all eleven cards meld; else, among
  the discards of least deadwood (the card just taken from the pile barred, unless the
  rules allow it), the highest (value, then card order), knocking with it when the
  deadwood left is within the hand's knock limit;
- when it does not knock, it keeps its *connected* cards (a card that melds with another
  of its hand: the same rank, or the same suit within two ranks, as the expert's
  neighbours), the more the earlier in the hand: among the discards that leave at most
  :func:`keep_window` more deadwood than the least (the stock's size less
  :data:`KEEP_STOCK`, never below 0: 6 after the first draw from the stock, 0 from 24
  cards down), an unconnected card first, then the least deadwood, then the highest.

>>> rng = SplitMix64(1)
>>> [rng.below(10) for _ in range(5)]
[5, 9, 0, 5, 1]
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product

from .. import kernels
from ..bots.expert import neighbours
from ..kernels import best, discard_table, least_after, melded_after_sets, min_deadwood, sets_of
from ..rules import DRAW_AT_STOCK, Rules

MASK64 = (1 << 64) - 1

# Action codes (the C twin uses the same numbers).
TAKE, PASS, DRAW_STOCK, DRAW_DISCARD, DISCARD, KNOCK, BIG_GIN = range(7)
# Phases.
OFFER, DRAW, DISCARD_PHASE, OVER = range(4)
CAPTAIN, BOX = 0, 1

_VALUE = [min(i % 13 + 1, 10) for i in range(52)]  # a card's value by index

#: The deadwood the policy gives up, at most, to keep its connected cards is the stock's
#: size less ``KEEP_STOCK``, never below 0 (:func:`keep_window`): early in the hand, with
#: many draws left to complete a meld, a connected card is kept against an unconnected
#: one that leaves a few more points; from 24 cards in the stock down, only against one
#: of the same deadwood.  24 is the strongest in self-play from the deal against the
#: policy before it (a constant window of 2, itself +0.30 points a hand against none):
#: +0.60 points a hand, standard error 0.04, over the 40,000 deals it was chosen on, each
#: played both ways (+0.52 ± 0.04 on 40,000 fresh ones); 22: +0.39, 23: +0.53, 25: +0.54,
#: 26: +0.45.  The measure docs/review.md gives ("The rollout policy").
KEEP_STOCK = 24


#: The cards that meld with each card (the expert's neighbours), by index.
_NEAR = [neighbours(i) for i in range(52)]


def card_value(index: int) -> int:
    """The value of the card of this index (ace 1, faces 10)."""
    return _VALUE[index]


def card_order(index: int) -> int:
    """The card's place in card order (rank, then suit), as ``Card._order``."""
    return (index % 13 + 1) * 4 + index // 13


class SplitMix64:
    """Sebastiano Vigna's splitmix64: 64-bit state, one multiply-xorshift step a number.
    Chosen for its three lines, which C reproduces bit for bit."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit number."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` (``n`` ≥ 1; the remainder, whose bias is below 2⁻⁵⁸
        for the sizes used here)."""
        return self.next() % n


def shuffle(rng: SplitMix64, items: list[int]) -> None:
    """Fisher-Yates, from the last place down (the order a C loop takes)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


@dataclass(frozen=True)
class Params:
    """What of the rules a playout reads, as plain numbers."""

    knock_limit: int
    gin_bonus: int
    undercut_bonus: int
    big_gin: bool
    big_gin_bonus: int
    may_discard_taken: bool
    doubled: bool
    #: The policy's :data:`KEEP_STOCK`.
    keep_stock: int = KEEP_STOCK

    @staticmethod
    def of(rules: Rules, knock_limit: int, doubled: bool = False) -> Params:
        """The numbers of ``rules`` for a hand of this knock limit."""
        return Params(knock_limit, rules.gin_bonus, rules.undercut_bonus, rules.big_gin,
                      rules.big_gin_bonus, rules.may_discard_taken_card, doubled)

    @functools.cached_property
    def packed(self) -> tuple[int, int, int, int, int, int, int, int]:
        """The numbers as the compiled playout reads them, in field order."""
        return (self.knock_limit, self.gin_bonus, self.undercut_bonus, int(self.big_gin),
                self.big_gin_bonus, int(self.may_discard_taken), int(self.doubled),
                self.keep_stock)


@dataclass(slots=True)
class World:
    """One complete deal as a playout sees it, at some point of the hand."""

    hands: list[int]          # the two hand masks, captain then box
    stock: list[int]          # card indices, the top last
    pile: list[int]           # card indices, the top last
    to_play: int
    phase: int
    taken: int = -1           # the card just taken from the pile (-1: none)
    must_stock: bool = False  # both passed the upcard: the captain draws from the stock

    def copy(self) -> World:
        return World(self.hands[:], self.stock[:], self.pile[:], self.to_play, self.phase,
                     self.taken, self.must_stock)


def keep_window(stock: int, params: Params) -> int:
    """The deadwood the policy gives up, at most, to keep a connected card, with
    ``stock`` cards in the stock: ``stock - params.keep_stock``, at least 0."""
    return max(0, stock - params.keep_stock)


def _choose_discard(mask: int, skip: int, limit: int, keep: int) -> tuple[int, int]:
    """(card index, deadwood left) of the policy's discard (never the card of index
    ``skip``): among the discards of least deadwood, the highest by value then card
    order, when that deadwood is within ``limit`` (a knock); else, among the discards
    that leave at most ``keep`` more, an unconnected card first, then the least
    deadwood, then the highest."""
    after = {index: dead for _order, _card, index, dead in discard_table(mask)
             if index != skip}
    least = min(after.values())
    if least <= limit:
        pick = max((i for i, dead in after.items() if dead == least),
                   key=lambda i: (_VALUE[i], card_order(i)))
        return pick, least
    pick = min((i for i, dead in after.items() if dead <= least + keep),
               key=lambda i: (mask & _NEAR[i] != 0, after[i], -_VALUE[i], -card_order(i)))
    return pick, after[pick]


def greedy_action(world: World, params: Params) -> tuple[int, int]:
    """The rollout policy's action for the player to play: (action code, card index or
    -1)."""
    p, phase = world.to_play, world.phase
    mask = world.hands[p]
    if phase in (OFFER, DRAW):
        may_take = world.pile and (phase == OFFER or not world.must_stock)
        if may_take:
            top = world.pile[-1]
            with_top = mask | 1 << top
            now = min_deadwood(mask)
            after = least_after(with_top, -1 if params.may_discard_taken else top)
            if (after < now and min_deadwood(with_top) < now + _VALUE[top]) or \
                    after <= params.knock_limit:
                return (TAKE if phase == OFFER else DRAW_DISCARD), -1
        return (PASS if phase == OFFER else DRAW_STOCK), -1
    if params.big_gin and min_deadwood(mask) == 0:
        return BIG_GIN, -1
    card, least = _choose_discard(mask, -1 if params.may_discard_taken else world.taken,
                                  params.knock_limit,
                                  keep_window(len(world.stock), params))
    return (KNOCK if least <= params.knock_limit else DISCARD), card


def apply(world: World, action: int, card: int) -> None:
    """Play ``action`` for the player to play (the caller checks that it is legal)."""
    p = world.to_play
    if action in (TAKE, DRAW_DISCARD):
        c = world.pile.pop()
        world.hands[p] |= 1 << c
        world.phase, world.taken = DISCARD_PHASE, c
    elif action == PASS:
        if p == CAPTAIN:
            world.to_play = BOX
        else:
            world.to_play, world.phase, world.must_stock = CAPTAIN, DRAW, True
    elif action == DRAW_STOCK:
        world.hands[p] |= 1 << world.stock.pop()
        world.phase, world.taken, world.must_stock = DISCARD_PHASE, -1, False
    elif action == DISCARD:
        world.hands[p] &= ~(1 << card)
        world.pile.append(card)
        if len(world.stock) <= DRAW_AT_STOCK:
            world.phase = OVER
        else:
            world.to_play, world.phase, world.taken = 1 - p, DRAW, -1
    else:  # KNOCK or BIG_GIN: the hand ends
        if action == KNOCK:
            world.hands[p] &= ~(1 << card)
            world.pile.append(card)
        world.phase = OVER


def _run_options(suit: int, low: int, high: int, held: int) -> list[int]:
    """Every choice of layoffs onto the run of ``suit`` from rank index ``low`` to
    ``high``: the cards chained above and below it that the defender holds, as masks."""
    above, r, m = [0], high + 1, 0
    while r < 13 and held >> (13 * suit + r) & 1:
        m |= 1 << (13 * suit + r)
        above.append(m)
        r += 1
    below, r, m = [0], low - 1, 0
    while r >= 0 and held >> (13 * suit + r) & 1:
        m |= 1 << (13 * suit + r)
        below.append(m)
        r -= 1
    return [a | b for a in above for b in below]


def defender_deadwood(layout: int, in_sets: int, defender: int) -> int:
    """The defender's least deadwood after its layoffs onto the knocker's melds (the
    knocker's ``layout`` mask arranged as :func:`kernels.best <box_gin.kernels.best>`
    arranges it: the sets ``in_sets``, then the runs of the rest)."""
    options: list[list[int]] = []
    for rank, suits in sets_of(in_sets):
        if suits.bit_count() == 3:
            missing = 13 * (suits ^ 0xF).bit_length() - 13 + rank
            options.append([0, 1 << missing] if defender >> missing & 1 else [0])
    runs = melded_after_sets(layout, in_sets) & ~in_sets
    for suit in range(4):
        pattern = runs >> (13 * suit) & 0x1FFF
        r = 0
        while r < 13:
            if pattern >> r & 1:
                start = r
                while r < 13 and pattern >> r & 1:
                    r += 1
                opts = _run_options(suit, start, r - 1, defender)
                if len(opts) > 1:
                    options.append(opts)
            else:
                r += 1
    least = min_deadwood(defender)
    if not options:
        return least
    for combo in product(*options):
        laid = 0
        for m in combo:
            if laid & m:
                break
            laid |= m
        else:
            if laid:
                least = min(least, min_deadwood(defender & ~laid))
    return least


def score_knock(world: World, params: Params, knocker: int, big_gin: bool) -> int:
    """The points of a finished knock, signed for the knocker (negative: undercut)."""
    held, defender = world.hands[knocker], world.hands[1 - knocker]
    factor = 2 if params.doubled else 1
    if big_gin:
        return factor * (params.big_gin_bonus + min_deadwood(defender))
    k, in_sets = best(held)
    if k == 0:
        return factor * (params.gin_bonus + min_deadwood(defender))
    d = defender_deadwood(held, in_sets, defender)
    if k < d:
        return factor * (d - k)
    return -factor * (params.undercut_bonus + k - d)


def finish(world: World, params: Params, seat: int, action: int, card: int) -> int:
    """Play ``action`` for the player to play, then the greedy policy for both to the
    hand's end: the points, signed for ``seat`` (0 for a drawn hand).  ``world`` is
    changed."""
    while True:
        player = world.to_play
        apply(world, action, card)
        if world.phase == OVER:
            if action in (KNOCK, BIG_GIN):
                points = score_knock(world, params, player, action == BIG_GIN)
                return points if player == seat else -points
            return 0
        action, card = greedy_action(world, params)


def playout(world: World, params: Params, seat: int) -> int:
    """The greedy policy for both players from here to the hand's end: the points,
    signed for ``seat``.  ``world`` is changed."""
    action, card = greedy_action(world, params)
    return finish(world, params, seat, action, card)


def pure_finish_each(world: World, params: Params, seat: int,
                     actions: Sequence[tuple[int, int]]) -> list[int]:
    """:func:`finish` of each (action, card) from the same world (left unchanged)."""
    return [finish(world.copy(), params, seat, a, c) for a, c in actions]


def compiled_finish_each(fast: Callable[..., list[int]]) -> Callable[..., list[int]]:
    """:func:`pure_finish_each`'s signature over the compiled ``finish_each``."""
    def finish_each(world: World, params: Params, seat: int,
                    actions: Sequence[tuple[int, int]]) -> list[int]:
        return fast(params.packed, world.hands[0], world.hands[1], world.stock, world.pile,
                    world.to_play, world.phase, world.taken, world.must_stock, seat, actions)

    finish_each.__doc__ = pure_finish_each.__doc__
    return finish_each


#: :func:`pure_finish_each`, or its compiled twin (``box_gin._speedups.finish_each``) when
#: the kernels in use are the compiled ones (:data:`box_gin.kernels.IMPLEMENTATION`).
finish_each = pure_finish_each
#: "compiled" or "pure": which :data:`finish_each` is in use.
IMPLEMENTATION = "pure"

#: The version of the policy and arguments a compiled ``finish_each`` must have (its
#: module's ``PLAYOUT``): an older build is left unused.
PLAYOUT = 3

if kernels.IMPLEMENTATION == "compiled":
    _module = importlib.import_module("box_gin._speedups")
    _fast = getattr(_module, "finish_each", None)
    if _fast is not None and getattr(_module, "PLAYOUT", None) == PLAYOUT:
        finish_each = compiled_finish_each(_fast)
        IMPLEMENTATION = "compiled"
