"""Counts a card in two melds (a run and a set may share it): breaks best_melds."""
from itertools import combinations

BREAKS = ["best_melds"]


def best_melds(cards):
    melds = []
    by_rank = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        if len(group) >= 3:
            melds.append(group)
    for card in cards:
        run = [card]
        while True:
            nxt = [c for c in cards if c.suit == card.suit and c.rank == run[-1].rank + 1]
            if not nxt:
                break
            run.append(nxt[0])
        prev = [c for c in cards if c.suit == card.suit and c.rank == card.rank - 1]
        if len(run) >= 3 and not prev:
            melds.append(run)
    used = {c for m in melds for c in m}
    return melds, [c for c in cards if c not in used]
