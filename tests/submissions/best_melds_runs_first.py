"""Takes runs greedily before sets, even when a set leaves less deadwood: breaks best_melds."""

BREAKS = ["best_melds"]


def best_melds(cards):
    left = sorted(cards, key=lambda c: (c.suit, c.rank))
    melds = []
    for card in list(left):  # runs first, as long as possible
        if card not in left:
            continue
        run = [card]
        while True:
            nxt = [c for c in left if c.suit == card.suit and c.rank == run[-1].rank + 1]
            if not nxt:
                break
            run.append(nxt[0])
        if len(run) >= 3:
            melds.append(run)
            left = [c for c in left if c not in run]
    for rank in {c.rank for c in left}:  # then sets of what is left
        group = [c for c in left if c.rank == rank]
        if len(group) >= 3:
            melds.append(group)
            left = [c for c in left if c not in group]
    return melds, left
