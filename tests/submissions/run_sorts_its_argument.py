"""Sorts the caller's list in place before looking at it: the answer is right, but the
function changed its argument, which it must leave as it is: breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    cards.sort(key=lambda c: c.rank)
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    return all(b.rank == a.rank + 1 for a, b in zip(cards, cards[1:]))
