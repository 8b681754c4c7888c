"""The two implementations of box_gin.kernels give the same answers, function by function.

The pure-Python kernels are read from ``box_gin.kernels.PURE`` and the compiled ones from
the extension ``box_gin._speedups`` itself, so both are compared in one process whichever
path the engine uses; ``make test`` also runs the engine's tests a second time with
``BOX_GIN_PURE=1``.  When the extension is not built the comparisons are skipped, saying so.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from box_gin import kernels
from box_gin.cards import BY_INDEX, Card, parse_cards

ROOT = Path(__file__).resolve().parent.parent
PURE: dict[str, Callable[..., Any]] = kernels.PURE


def _extension() -> ModuleType | None:
    try:
        from box_gin import _speedups
    except ImportError:
        return None
    _speedups.init(Card, kernels.BY_RANK_MAJOR)  # done by kernels unless BOX_GIN_PURE=1
    return _speedups


EXT = _extension()
needs_ext = pytest.mark.skipif(
    EXT is None, reason="the compiled extension box_gin._speedups is not built (no C "
    "compiler at install): only the pure kernels run")

#: Pools: the whole deck; aces to sevens (sets and runs overlap most); aces to fours
#: (ties everywhere).
POOLS = [list(range(52)), [s * 13 + r for s in range(4) for r in range(7)],
         [s * 13 + r for s in range(4) for r in range(4)]]


def masks(n: int, seed: int, sizes: range = range(12)) -> list[int]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        pool = POOLS[k % 3]
        out.append(sum(1 << i for i in rng.sample(pool, rng.choice(list(sizes)))))
    return out


def test_the_path_in_use_is_the_one_announced() -> None:
    forced = os.environ.get("BOX_GIN_PURE", "").strip() == "1"
    expected = "pure" if forced or EXT is None else "compiled"
    assert expected == kernels.IMPLEMENTATION
    for name, pure in PURE.items():
        bound = getattr(kernels, name)
        if expected == "pure":
            assert bound is pure, name
        else:
            assert EXT is not None and bound is getattr(EXT, name), name


def test_no_function_has_its_code_swapped() -> None:
    # The one exception is the grading sandbox's child, a script that never runs beside the
    # engine: there, disarming a hidden answer that a student's code still holds a
    # reference to is a defence, not a way to pick a kernel.
    sandbox_child = ROOT / "box_gin" / "checker" / "child.py"
    sources = [p for p in (ROOT / "box_gin").rglob("*.py") if p != sandbox_child]
    assert sources
    assert not [p for p in sources if "__code__ =" in p.read_text(encoding="utf-8")]
    assert "__code__" not in (ROOT / "box_gin" / "kernels.py").read_text(encoding="utf-8")


@needs_ext
@pytest.mark.parametrize("name", ["best", "min_deadwood", "discard_table", "after_each"])
def test_mask_kernels_agree(name: str) -> None:
    pure, compiled = PURE[name], getattr(EXT, name)
    for mask in masks(12_000, seed=len(name)):
        assert compiled(mask) == pure(mask), (name, bin(mask))


@needs_ext
def test_dict_kernel_keeps_card_order() -> None:
    assert EXT is not None
    for mask in masks(2_000, seed=9, sizes=range(11, 12)):
        assert list(EXT.after_each(mask)) == list(PURE["after_each"](mask))


@needs_ext
def test_discard_kernels_agree_with_every_skip_and_limit() -> None:
    assert EXT is not None
    rng = random.Random(3)
    for mask in masks(6_000, seed=4, sizes=range(10, 12)):
        held = [i for i in range(52) if mask >> i & 1]
        skip = rng.choice([-1, rng.choice(held), rng.randrange(52)])
        limit = rng.choice([0, 1, 5, 10, 40])
        assert EXT.least_after(mask, skip) == PURE["least_after"](mask, skip)
        assert EXT.knockable(mask, limit, skip) == PURE["knockable"](mask, limit, skip)


def test_knockable_finds_the_knocks() -> None:
    # a reference from min_deadwood, on either path
    rng = random.Random(8)
    for mask in masks(1_500, seed=8, sizes=range(11, 12)):
        limit = rng.choice([0, 5, 10])
        want = sum(1 << i for i in range(52)
                   if mask >> i & 1 and PURE["min_deadwood"](mask ^ 1 << i) <= limit)
        assert kernels.knockable(mask, limit, -1) == want


BAD_MASKS: list[object] = [1 << 52, (1 << 53) | 0b111, -(1 << 39), -(1 << 26), 0, True, 2**200 + 7,
                           "7", 7.0, None]


def outcome(fn: Callable[..., Any], *args: object) -> tuple[str, object]:
    try:
        return ("ok", fn(*args))
    except Exception as err:  # the comparison is the point
        return (type(err).__name__, "")


@needs_ext
@pytest.mark.parametrize("mask", BAD_MASKS, ids=repr)
def test_masks_beyond_52_bits_read_the_same(mask: object) -> None:
    for name in ("best", "min_deadwood", "discard_table", "after_each"):
        assert outcome(getattr(EXT, name), mask) == outcome(PURE[name], mask), name
    for name, args in (("least_after", (mask, -1)), ("knockable", (mask, 10, -1))):
        assert outcome(getattr(EXT, name), *args) == outcome(PURE[name], *args), name


class NotACard:
    bit = 1


INPUTS: list[object] = [
    (), [], set(), frozenset(), parse_cards("7H 8H 9H"), list(parse_cards("AS 2C KD")),
    set(parse_cards("AS 2C KD QH")), frozenset(parse_cards("TC")),
    [BY_INDEX[0], BY_INDEX[0]], (BY_INDEX[3], None), [BY_INDEX[1], NotACard()],
    "7H 8H 9H", iter(parse_cards("7H")), {BY_INDEX[5]: 1}, 7, None, [1, 2],
]


@needs_ext
@pytest.mark.parametrize("cards", INPUTS,  # ids the same in every process (pytest-xdist)
                         ids=[f"{i}-{type(x).__name__}" for i, x in enumerate(INPUTS)])
def test_mask_of_agrees(cards: object) -> None:
    assert EXT is not None
    assert EXT.mask_of(cards) == PURE["mask_of"](cards)
    assert EXT.best_cards(cards) == PURE["best_cards"](cards)


def test_best_cards_is_mask_of_then_best() -> None:
    for mask in masks(3_000, seed=12):
        cards = tuple(c for c in BY_INDEX if mask & c.bit)
        assert kernels.best_cards(cards) == (mask, *kernels.best(mask))
        assert PURE["best_cards"](list(cards)) == (mask, *PURE["best"](mask))


def test_mask_of_refuses_what_is_not_plain_cards() -> None:
    assert PURE["mask_of"](parse_cards("AC 2C")) == 0b11
    for cards in INPUTS[8:]:
        assert kernels.mask_of(cards) == -1, cards


_PLAY = """
import random, sys
from box_gin import PRESETS, Hand, best_discards, best_melds, kernels
from box_gin.cards import BY_INDEX
rng = random.Random(5)
rules = list(PRESETS.values())
print(kernels.IMPLEMENTATION)
for i in range(int(sys.argv[1])):
    hand = Hand.deal(rules[i % len(rules)], seed=i)
    while not hand.is_over:
        actions = hand.legal_actions()
        print(actions)
        if hand.phase.value == "discard":
            a = hand.analysis()
            print(a.least_deadwood, a.deadwood_after, a.best, a.can_big_gin)
        hand.apply(actions[-1] if rng.random() < 0.2 else rng.choice(actions))
    print(hand.result)
for k in range(3000):
    cards = [BY_INDEX[j] for j in rng.sample(range(28), rng.randrange(12))]
    a = best_melds(cards)
    print(a.melds, a.deadwood, a.deadwood_value)
"""


def _play(pure: bool) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BOX_GIN_PURE": "1" if pure else "0"}
    done = subprocess.run([sys.executable, "-c", _PLAY, "120"], capture_output=True,
                          text=True, env=env, timeout=300, check=True)
    return done.stdout.splitlines()


@needs_ext
def test_complete_hands_play_the_same_on_both_paths() -> None:
    pure, compiled = _play(True), _play(False)
    assert (pure[0], compiled[0]) == ("pure", "compiled")
    assert len(pure) > 3000
    assert compiled[1:] == pure[1:]
