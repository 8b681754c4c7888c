"""Draws the hand with 3 cards left in the stock: breaks is_drawn."""

BREAKS = ["is_drawn"]


def is_drawn(stock_size, knocked):
    return not knocked and stock_size <= 3
