"""Takes two cards in a row for a run: breaks is_run."""

BREAKS = ["is_run"]


def is_run(cards):
    ranks = sorted(c.rank for c in cards)
    return len(cards) >= 2 and len({c.suit for c in cards}) == 1 and ranks == list(
        range(ranks[0], ranks[0] + len(ranks)))
