"""Lists a four-card set but not the three-card sets inside it: breaks all_melds."""

BREAKS = ["all_melds"]


def all_melds(cards):
    melds = []
    by_rank = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        if len(group) >= 3:
            melds.append(group)
    held = set(cards)
    for card in cards:
        run = [card]
        while True:
            nxt = [c for c in held if c.suit == card.suit and c.rank == run[-1].rank + 1]
            if not nxt:
                break
            run.append(nxt[0])
            if len(run) >= 3:
                melds.append(list(run))
    return melds
