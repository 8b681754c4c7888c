"""Caps a run at 10 cards: breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    if not 3 <= len(cards) <= 10 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(c.rank for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))
