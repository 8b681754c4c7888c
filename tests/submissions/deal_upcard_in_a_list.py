"""Gives the upcard as a one-card list: breaks deal."""

BREAKS = ["deal"]


def deal(deck):
    return {"captain": deck[0:20:2], "box": deck[1:20:2], "upcard": deck[20:21],
            "stock": deck[21:]}
