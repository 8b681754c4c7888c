"""Counts a face card by its rank (J 11, Q 12, K 13): breaks card_value."""

BREAKS = ["card_value"]


def card_value(card):
    return card.rank
