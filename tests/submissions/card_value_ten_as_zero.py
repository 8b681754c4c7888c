"""Takes the value as the rank modulo 10 (a ten is 0): breaks card_value."""

BREAKS = ["card_value"]


def card_value(card):
    return 10 if card.rank > 10 else card.rank % 10
