"""Checks only the first three cards: breaks is_set."""

BREAKS = ["is_set"]


def is_set(cards):
    return len(cards) in (3, 4) and cards[0].rank == cards[1].rank == cards[2].rank
