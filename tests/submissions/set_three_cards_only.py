"""Misses four-card sets (only three cards make a set): breaks is_set."""

BREAKS = ["is_set"]


def is_set(cards):
    return len(cards) == 3 and len({c.rank for c in cards}) == 1


def is_run(cards):
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(c.rank for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))
