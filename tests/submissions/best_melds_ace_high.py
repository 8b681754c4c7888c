"""Searches every arrangement but lets the ace follow the king: breaks best_melds."""

BREAKS = ["best_melds"]


def is_meld(cards):
    if len(cards) < 3:
        return False
    if len({c.rank for c in cards}) == 1:
        return len(cards) <= 4
    if len({c.suit for c in cards}) != 1:
        return False
    for ace in (1, 14):
        ranks = sorted(ace if c.rank == 1 else c.rank for c in cards)
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return True
    return False


def best_melds(cards):
    from itertools import combinations

    cards = sorted(cards)
    if not cards:
        return [], []
    first, rest = cards[0], cards[1:]
    melds, dead = best_melds(rest)
    best = (melds, [first] + dead)
    for size in range(2, len(rest) + 1):
        for others in combinations(rest, size):
            meld = [first, *others]
            if is_meld(meld):
                m, d = best_melds([c for c in rest if c not in others])
                if sum(min(c.rank, 10) for c in d) < sum(min(c.rank, 10) for c in best[1]):
                    best = ([meld] + m, d)
    return best
