"""OpenSpiel's gin rummy (C++, through pyspiel).

Cards are ints ``suit * 13 + rank - 1``, box-gin's index layout; suits are named
differently, which cannot change a deadwood count.
"""

from __future__ import annotations

import random
from typing import Any

NAME = "OpenSpiel"
MODULE = "pyspiel"
DISTRIBUTION = "open-spiel"


def _utils() -> Any:
    import pyspiel

    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def prepare_10(hands: list[list[int]]) -> list[list[int]]:
    return hands


def best_melds(hands: list[list[int]]) -> list[int]:
    """``min_deadwood`` of each 10-card hand (value only)."""
    fn = _utils().min_deadwood
    return [fn(h) for h in hands]


def prepare_11(hands: list[list[int]]) -> list[list[tuple[int, list[int]]]]:
    """For each hand, (discard, the 10 cards left) for each card.  OpenSpiel's own
    ``min_deadwood`` of an 11-card hand is not always exact, so it is not used."""
    return [[(c, [x for x in h if x != c]) for c in h] for h in hands]


def best_discards(prepared: list[list[tuple[int, list[int]]]]) -> list[list[int]]:
    fn = _utils().min_deadwood
    return [[fn(rest) for _c, rest in options] for options in prepared]


def play(n: int, seed: int = 1) -> tuple[int, int]:
    """``n`` complete games of ``gin_rummy``, chance outcomes (the deal, every draw from
    the stock) chosen uniformly: (decisions made, hands drawn: not reported, 0)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])  # uniform
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
    return decisions, 0
