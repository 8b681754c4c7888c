"""Lists only the longest run of each stretch, not the runs inside it: breaks all_melds."""
from itertools import combinations

BREAKS = ["all_melds"]


def all_melds(cards):
    melds = []
    by_rank = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        for size in (3, 4):
            melds.extend(list(c) for c in combinations(group, size))
    held = set(cards)
    for card in cards:
        if any(c.suit == card.suit and c.rank == card.rank - 1 for c in held):
            continue  # not the bottom of a stretch
        run = [card]
        while any(c.suit == card.suit and c.rank == run[-1].rank + 1 for c in held):
            run.append(next(c for c in held if c.suit == card.suit
                            and c.rank == run[-1].rank + 1))
        if len(run) >= 3:
            melds.append(run)
    return melds
