"""Reverses the deck in place and pops from its end: breaks deal."""

BREAKS = ["deal"]


def deal(deck):
    deck.reverse()
    hands = {"captain": [], "box": []}
    for i in range(20):
        hands["captain" if i % 2 == 0 else "box"].append(deck.pop())
    upcard = deck.pop()
    deck.reverse()
    return {**hands, "upcard": upcard, "stock": deck}
