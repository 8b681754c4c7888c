"""Once it has seen a knock, calls every later hand knocked: breaks is_drawn."""

BREAKS = ["is_drawn"]


STATE = {"knocked": False}


def is_drawn(stock_size, knocked):
    STATE["knocked"] = STATE["knocked"] or knocked
    return not STATE["knocked"] and stock_size <= 2
