"""Checks only the first three cards, in rank order: breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    if len(cards) < 3:
        return False
    first = sorted(cards[:3], key=lambda c: c.rank)
    return len({c.suit for c in first}) == 1 and [c.rank for c in first] == list(
        range(first[0].rank, first[0].rank + 3))
