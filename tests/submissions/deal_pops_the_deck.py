"""Deals by popping cards off the deck, as at a table: the caller's deck is emptied: breaks deal."""

BREAKS = ["deal"]


def deal(deck):
    captain, box = [], []
    for _ in range(10):
        captain.append(deck.pop(0))
        box.append(deck.pop(0))
    upcard = deck.pop(0)
    return {"captain": captain, "box": box, "upcard": upcard, "stock": deck}
