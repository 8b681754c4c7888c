"""Takes two cards of a rank for a set: breaks is_set."""

BREAKS = ["is_set"]


def is_set(cards):
    return 2 <= len(cards) <= 4 and len({c.rank for c in cards}) == 1
