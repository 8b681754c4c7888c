"""The optional compiled path (box_gin/_speedups.c) gives exactly the pure path's answers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from box_gin import PRESETS, InvalidCardError, best_discards, best_melds, deadwood, speedups
from box_gin.cards import BY_INDEX, Card
from box_gin.hand import Hand
from box_gin.knocking import _deadwood_after_each, _least_after_discard
from box_gin.melds import (
    _best_melds_compiled,
    _discard_table,
    _mask_of,
    min_deadwood_mask,
)

pytestmark = pytest.mark.skipif(
    not speedups.available(),
    reason="the compiled extension box_gin._speedups is not built (no C compiler at install)")

#: Pools: the whole deck; aces to sevens (sets and runs overlap most); aces to fours
#: (ties everywhere).
POOLS = [list(range(52)), [s * 13 + r for s in range(4) for r in range(7)],
         [s * 13 + r for s in range(4) for r in range(4)]]


@contextmanager
def path(compiled: bool) -> Iterator[None]:
    """Run the block on one path, then restore the one in use before."""
    before = speedups.enabled()
    speedups.use_compiled(compiled)
    try:
        yield
    finally:
        speedups.use_compiled(before)


def hands(n: int, seed: int, sizes: range = range(12)) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        pool = POOLS[k % 3]
        size = rng.choice([s for s in sizes if s <= len(pool)])
        out.append(tuple(BY_INDEX[i] for i in rng.sample(pool, size)))
    return out


def melds_answers(cards: list[tuple[Card, ...]]) -> list[tuple[object, ...]]:
    out = []
    for h in cards:
        a = best_melds(h)
        out.append((a.deadwood_value, a.melds, a.deadwood, a.is_gin,
                    min_deadwood_mask(_mask_of(h)), deadwood(list(h))))
    return out


def test_best_melds_and_min_deadwood_agree() -> None:
    cards = hands(60_000, seed=1)
    with path(False):
        pure = melds_answers(cards)
    with path(True):
        compiled = melds_answers(cards)
    assert compiled == pure


def test_sets_and_discard_inputs_agree() -> None:
    # sets and frozensets of cards, and strings, take the same way in
    cards = hands(3_000, seed=2)
    inputs: list[object] = [set(h) for h in cards[:1000]] + \
        [frozenset(h) for h in cards[1000:2000]] + [" ".join(map(str, h)) for h in cards[2000:]]
    with path(False):
        pure = [(best_melds(c).melds, best_melds(c).deadwood) for c in inputs]  # type: ignore[arg-type]
    with path(True):
        compiled = [(best_melds(c).melds, best_melds(c).deadwood) for c in inputs]  # type: ignore[arg-type]
    assert compiled == pure


def discard_answers(cards: list[tuple[Card, ...]], seed: int) -> list[tuple[object, ...]]:
    rng = random.Random(seed)
    out = []
    for h in cards:
        mask = _mask_of(h)
        forbidden = rng.choice([None, rng.choice(h), BY_INDEX[rng.randrange(52)]])
        limit = rng.choice([None, 0, 5, 10])
        for rules in (PRESETS["standard"], PRESETS["big-gin"]):
            a = best_discards(h, rules, knock_limit=limit, forbidden=forbidden)
            out.append((a.cards, a.least_deadwood, a.all_melded, a.can_knock, a.can_gin,
                        a.can_big_gin, a.deadwood_after, list(a.deadwood_after), a.best,
                        a.knock_discards))
        out.append((sorted(_discard_table(mask)), _deadwood_after_each(mask),
                    list(_deadwood_after_each(mask)), _least_after_discard(mask, None),
                    _least_after_discard(mask, h[0])))
    return out


def test_discard_analysis_agrees() -> None:
    cards = hands(20_000, seed=3, sizes=range(11, 12))
    with path(False):
        pure = discard_answers(cards, seed=4)
    with path(True):
        compiled = discard_answers(cards, seed=4)
    assert compiled == pure


def play(n: int, seed: int) -> list[object]:
    """``n`` complete hands under several rule sets, every legal_actions list recorded."""
    rng = random.Random(seed)
    rules = list(PRESETS.values())
    seen: list[object] = []
    for i in range(n):
        hand = Hand.deal(rules[i % len(rules)], seed=seed * 7919 + i)
        while not hand.is_over:
            actions = hand.legal_actions()
            seen.append(actions)
            # now and then the last action: a knock or big gin when there is one
            hand.apply(actions[-1] if rng.random() < 0.2 else rng.choice(actions))
        seen.append(hand.result)
    return seen


def test_complete_hands_agree() -> None:
    with path(False):
        pure = play(400, seed=5)
    with path(True):
        compiled = play(400, seed=5)
    assert compiled == pure


def test_use_compiled_swaps_and_restores() -> None:
    with path(False):
        pure_code = best_melds.__code__
        assert pure_code is not _best_melds_compiled.__code__
    with path(True):
        assert speedups.enabled()
        assert best_melds.__code__ is _best_melds_compiled.__code__
        with path(False):
            assert not speedups.enabled()
            assert best_melds.__code__ is pure_code
        assert speedups.enabled()
    with path(False):
        assert best_melds.__code__ is pure_code


BAD = ["7H 7H", "7H XX", "", [BY_INDEX[0], BY_INDEX[0]], [BY_INDEX[0], "2C"], [1, 2],
       (BY_INDEX[3], None), {BY_INDEX[5], "AS"}, 7, None]


def outcome(fn: object, arg: object) -> tuple[str, str]:
    try:
        return ("ok", repr(fn(arg)))  # type: ignore[operator]
    except Exception as err:  # the comparison is the point
        return (type(err).__name__, str(err))


@pytest.mark.parametrize("bad", BAD, ids=repr)
def test_bad_input_raises_the_same(bad: object) -> None:
    calls = [best_melds, deadwood, _mask_of, lambda c: best_discards(c)]
    with path(False):
        pure = [outcome(fn, bad) for fn in calls]
    with path(True):
        compiled = [outcome(fn, bad) for fn in calls]
    assert compiled == pure
    if bad not in ("", 7, None):  # the card checks speak (7 and None are not iterables)
        assert pure[0][0] == InvalidCardError.__name__


@pytest.mark.parametrize("mask", [1 << 52, (1 << 53) | 0b111, -(1 << 39), 0])
def test_min_deadwood_mask_outside_52_bits(mask: int) -> None:
    with path(False):
        pure = outcome(min_deadwood_mask, mask)
    with path(True):
        compiled = outcome(min_deadwood_mask, mask)
    assert compiled == pure
