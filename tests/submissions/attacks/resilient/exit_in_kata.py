"""Attack: sys.exit and os._exit inside the katas; is_run is honest and must still pass."""
import os
import sys


def is_set(cards):
    sys.exit(0)


def card_value(card):
    os._exit(0)


def is_run(cards):
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(c.rank for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))
