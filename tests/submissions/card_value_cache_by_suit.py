"""Remembers values in a cache keyed by the suit: breaks card_value."""

BREAKS = ["card_value"]


SEEN = {}


def card_value(card):
    if card.suit not in SEEN:
        SEEN[card.suit] = min(card.rank, 10)
    return SEEN[card.suit]
