"""Lets the ace follow the king (Q-K-A is taken for a run): breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    for ace in (1, 14):
        ranks = sorted(ace if c.rank == 1 else c.rank for c in cards)
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return True
    return False
