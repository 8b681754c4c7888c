"""Checks each card is one above the one before, in the order given: breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = [c.rank for c in cards]
    if ranks[0] > ranks[-1]:
        ranks = ranks[::-1]
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))
