"""Compares every card with the first one's value: breaks is_set."""

BREAKS = ["is_set"]


def is_set(cards):
    return len(cards) in (3, 4) and all(min(c.rank, 10) == min(cards[0].rank, 10) for c in cards)
