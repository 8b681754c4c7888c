"""RLCard's gin-rummy (pure Python).

RLCard's ``card_id`` is ``suit * 13 + rank - 1`` with suits S H D C: the same layout as
box-gin's index with the suits named differently, which cannot change a deadwood count.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

NAME = "RLCard"
MODULE = "rlcard"
DISTRIBUTION = "rlcard"


def _cards(hands: list[list[int]]) -> list[list[Any]]:
    from rlcard.games.gin_rummy.utils import utils

    deck = utils.get_deck()
    return [[deck[i] for i in h] for h in hands]


def _deadwood() -> Callable[[list[Any]], int]:
    from rlcard.games.gin_rummy.utils import melding, utils

    clusters_of = melding.get_best_meld_clusters
    count = utils.get_deadwood_count
    value = utils.get_deadwood_value

    def deadwood(hand: list[Any]) -> int:
        clusters = clusters_of(hand)
        if clusters:
            return int(count(hand, clusters[0]))
        return sum(value(c) for c in hand)  # no meld at all

    return deadwood


def prepare_10(hands: list[list[int]]) -> list[list[Any]]:
    return _cards(hands)


def best_melds(hands: list[list[Any]]) -> list[int]:
    """``get_best_meld_clusters`` and the deadwood count of each 10-card hand."""
    deadwood = _deadwood()
    return [deadwood(h) for h in hands]


def prepare_11(hands: list[list[int]]) -> list[list[list[Any]]]:
    """For each hand, the 10 cards left by each discard."""
    return [[[x for x in h if x is not c] for c in h] for h in _cards(hands)]


def best_discards(prepared: list[list[list[Any]]]) -> list[list[int]]:
    deadwood = _deadwood()
    return [[deadwood(rest) for rest in options] for options in prepared]


def play(n: int, seed: int = 1) -> tuple[int, int]:
    """``n`` hands of the ``gin-rummy`` environment, a random key of
    ``state["legal_actions"]`` each step: (decisions made, hands drawn: not reported, 0)."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    for _ in range(n):
        state, _player = env.reset()
        while not env.is_over():
            state, _player = env.step(choice(list(state["legal_actions"])))
            decisions += 1
    return decisions, 0
