"""Forgets that a run is of one suit: breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    if len(cards) < 3:
        return False
    ranks = sorted(c.rank for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))
