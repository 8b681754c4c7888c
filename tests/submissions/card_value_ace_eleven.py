"""Counts an ace as 11: breaks card_value."""

BREAKS = ["card_value"]


def card_value(card):
    return 11 if card.rank == 1 else min(card.rank, 10)
