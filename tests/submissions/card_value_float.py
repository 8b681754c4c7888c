"""Returns the value as a float (10.0), not a whole number: breaks card_value."""

BREAKS = ["card_value"]


def card_value(card):
    return min(card.rank, 10.0)
