"""Ends the hand as a draw at 2 cards even after a knock: breaks is_drawn."""

BREAKS = ["is_drawn"]


def is_drawn(stock_size, knocked):
    return stock_size <= 2
