"""Takes the ace for 14 only, so A-2-3 is not a run: breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    ranks = sorted(14 if c.rank == 1 else c.rank for c in cards)
    return len(cards) >= 3 and len({c.suit for c in cards}) == 1 and ranks == list(
        range(ranks[0], ranks[0] + len(ranks)))
