"""Sorts the cards in place before looking: breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    cards.sort(key=lambda c: (c.suit, c.rank))
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    return all(b.rank == a.rank + 1 for a, b in zip(cards, cards[1:]))
