"""Draws the hand only when the stock is empty: breaks is_drawn."""

BREAKS = ["is_drawn"]


def is_drawn(stock_size, knocked):
    return not knocked and stock_size == 0
