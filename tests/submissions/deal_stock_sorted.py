"""Returns the stock sorted: breaks deal."""

BREAKS = ["deal"]


def deal(deck):
    return {"captain": deck[0:20:2], "box": deck[1:20:2], "upcard": deck[20],
            "stock": sorted(deck[21:])}
