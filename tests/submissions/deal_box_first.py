"""Deals the first card to the box instead of the captain: breaks deal."""

BREAKS = ["deal"]


def deal(deck):
    return {"box": deck[0:20:2], "captain": deck[1:20:2], "upcard": deck[20],
            "stock": deck[21:]}
