"""Forgets the size limits: any cards of one rank, even one, are a set: breaks is_set."""

BREAKS = ["is_set"]


def is_set(cards):
    return len(cards) > 0 and len({c.rank for c in cards}) == 1
