"""Notebook 3 by melds chosen or skipped: the most value melds can hold, each discard
tried, the discards sorted by the deadwood they leave."""

PASSES = ["can_knock", "best_discards", "is_gin"]


def melds_of(cards):
    out = []
    ranks = {}
    for c in cards:
        ranks.setdefault(c.rank, []).append(c)
    for same in ranks.values():
        if len(same) >= 3:
            out.append(frozenset(same))
        if len(same) == 4:
            out += [frozenset(same) - {c} for c in same]
    for c in cards:
        run = [c]
        while True:
            up = [d for d in cards if d.suit == c.suit and d.rank == run[-1].rank + 1]
            if not up:
                break
            run.append(up[0])
            if len(run) >= 3:
                out.append(frozenset(run))
    return out


def melded_most(melds, i, used):
    best = 0
    for j in range(i, len(melds)):
        if not melds[j] & used:
            held = sum(min(c.rank, 10) for c in melds[j])
            best = max(best, held + melded_most(melds, j + 1, used | melds[j]))
    return best


def leftover(cards):
    return sum(min(c.rank, 10) for c in cards) - melded_most(melds_of(cards), 0, frozenset())


def ranked(cards):
    return sorted((leftover([c for c in cards if c != d]), i) for i, d in enumerate(cards))


def can_knock(cards, limit=10):
    return ranked(cards)[0][0] <= limit


def best_discards(cards):
    order = ranked(cards)
    return [cards[i] for value, i in sorted(order, key=lambda p: p[1]) if value == order[0][0]]


def is_gin(cards):
    return ranked(cards)[0][0] == 0
