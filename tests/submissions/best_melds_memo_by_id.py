"""Memoises arrangements across calls keyed by id(cards): a new list may get the id of
one freed before it, and its answer is then another hand's: breaks best_melds."""

BREAKS = ["best_melds"]

MEMO = {}


def arrange(cards):
    cards = sorted(cards)
    if not cards:
        return [], []
    first, rest = cards[0], cards[1:]
    melds, dead = arrange(rest)
    best = (melds, [first, *dead])
    same = [c for c in cards if c.rank == first.rank]
    groups = [same] if len(same) >= 3 else []
    if len(same) == 4:
        groups += [[c for c in same if c != out] for out in same]
    run = [first]
    while True:
        up = [c for c in rest if c.suit == first.suit and c.rank == run[-1].rank + 1]
        if not up:
            break
        run.append(up[0])
        if len(run) >= 3:
            groups.append(list(run))
    for meld in groups:
        if first in meld:
            m, d = arrange([c for c in cards if c not in meld])
            if sum(min(c.rank, 10) for c in d) < sum(min(c.rank, 10) for c in best[1]):
                best = ([meld, *m], d)
    return best


def best_melds(cards):
    key = id(cards)
    if key not in MEMO:
        MEMO[key] = arrange(cards)
    return MEMO[key]
