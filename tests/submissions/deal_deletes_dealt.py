"""Deletes the dealt cards from the deck, then returns the rest as the stock: breaks deal."""

BREAKS = ["deal"]


def deal(deck):
    hand = {"captain": deck[0:20:2], "box": deck[1:20:2], "upcard": deck[20]}
    del deck[:21]
    hand["stock"] = list(deck)
    return hand
