"""Asks for every card to be melded, forgetting the discard (that is big gin): breaks is_gin."""
from itertools import combinations


def least_deadwood(cards):
    """The least deadwood of the cards (a correct helper, as the notebook gives it)."""
    cards = sorted(cards)
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    best = min(first.rank, 10) + least_deadwood(rest)
    same_rank = [c for c in rest if c.rank == first.rank]
    for size in (2, 3):
        for others in combinations(same_rank, size):
            best = min(best, least_deadwood([c for c in rest if c not in others]))
    run = [first]
    while True:
        nxt = [c for c in rest if c.suit == first.suit and c.rank == run[-1].rank + 1]
        if not nxt:
            break
        run.append(nxt[0])
        if len(run) >= 3:
            best = min(best, least_deadwood([c for c in rest if c not in run]))
    return best


BREAKS = ["is_gin"]


def is_gin(cards):
    return least_deadwood(cards) == 0
