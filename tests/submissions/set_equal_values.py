"""Compares values instead of ranks, so T J Q is taken for a set: breaks is_set."""

BREAKS = ["is_set"]


def is_set(cards):
    return len(cards) in (3, 4) and len({min(c.rank, 10) for c in cards}) == 1
