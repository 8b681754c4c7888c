"""Calls the hand drawn only below 2 cards: breaks is_drawn."""

BREAKS = ["is_drawn"]


def is_drawn(stock_size, knocked):
    return not knocked and stock_size < 2
