"""One way to write a kata's input generator, two ways to run it.

A generator is a function of a :class:`Draw`.  The checker runs it with
:class:`RandomDraw` (a seeded ``random.Random``: the hidden tests are the same on every
run), the notebook's ``check`` with hypothesis (which shrinks what it finds), when
hypothesis is installed.

>>> import random
>>> draw = RandomDraw(random.Random(1))
>>> len(dense_cards(draw, 3, 3)), 1 <= draw.integer(1, 6) <= 6
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from ..cards import CARDS, Card, Suit, full_deck

T = TypeVar("T")


class Draw(Protocol):
    """The few choices an input generator makes."""

    def integer(self, lo: int, hi: int) -> int:
        """A whole number from ``lo`` to ``hi``, both included."""

    def boolean(self) -> bool:
        """True or false."""

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options``."""

    def subset(self, pool: Sequence[T], lo: int, hi: int) -> list[T]:
        """From ``lo`` to ``hi`` different items of ``pool``."""

    def permutation(self, items: Sequence[T]) -> list[T]:
        """The items in some order."""


class RandomDraw:
    """A :class:`Draw` over a seeded ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def boolean(self) -> bool:
        return self.rng.random() < 0.5

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def subset(self, pool: Sequence[T], lo: int, hi: int) -> list[T]:
        hi = min(hi, len(pool))
        n = self.rng.randint(min(lo, hi), hi)
        return self.rng.sample(list(pool), n)

    def permutation(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.rng.shuffle(out)
        return out


class HypothesisDraw:
    """A :class:`Draw` inside a hypothesis ``@composite`` strategy (it shrinks)."""

    def __init__(self, draw: Callable[[Any], Any]) -> None:
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def integer(self, lo: int, hi: int) -> int:
        return int(self.draw(self.st.integers(lo, hi)))

    def boolean(self) -> bool:
        return bool(self.draw(self.st.booleans()))

    def choice(self, options: Sequence[T]) -> T:
        index: int = self.draw(self.st.integers(0, len(options) - 1))
        return options[index]

    def subset(self, pool: Sequence[T], lo: int, hi: int) -> list[T]:
        items = list(pool)
        hi = min(hi, len(items))
        lo = min(lo, hi)
        if hi == 0:
            return []
        picks = self.draw(self.st.lists(self.st.integers(0, len(items) - 1), unique=True,
                                        min_size=lo, max_size=hi))
        return [items[i] for i in picks]

    def permutation(self, items: Sequence[T]) -> list[T]:
        return list(self.draw(self.st.permutations(list(items))))


# -- card generators shared by the katas ----------------------------------------------

def dense_cards(d: Draw, lo: int, hi: int) -> list[Card]:
    """``lo`` to ``hi`` cards from a narrow band of ranks, so melds are common."""
    n_suits = d.integer(2, 4)
    least = min(13, max(3, -(-hi // n_suits)))
    width = d.integer(least, max(least, 6))
    low = d.integer(1, 13)  # the band may wrap past the king: Q K A 2 (not a run)
    suits = sorted(d.subset(list(Suit), n_suits, n_suits))
    ranks = [(low - 1 + i) % 13 + 1 for i in range(width)]
    pool = [CARDS[(s, r)] for r in ranks for s in suits]
    if d.integer(0, 3) == 0:  # now and then a stray card from anywhere
        pool += [c for c in d.subset(full_deck(), 1, 3) if c not in pool]
    return d.subset(pool, lo, hi)


def any_cards(d: Draw, lo: int, hi: int) -> list[Card]:
    """Mostly dense cards, sometimes cards from the whole deck."""
    if d.integer(0, 4) == 0:
        return d.subset(full_deck(), lo, hi)
    return dense_cards(d, lo, hi)
