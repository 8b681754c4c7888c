"""Notebook 2 by sorting and windows: a set by comparing with the first card, a run by
neighbours' differences, runs as windows of each suit's sorted ranks, the best
arrangement by choosing or skipping each meld in turn."""
import itertools

PASSES = ["is_set", "is_run", "all_melds", "best_melds"]


def is_set(cards):
    if len(cards) != 3 and len(cards) != 4:
        return False
    return all(c.rank == cards[0].rank for c in cards)


def is_run(cards):
    if len(cards) < 3:
        return False
    ordered = sorted(cards, key=lambda c: c.rank)
    return all(b.suit == a.suit and b.rank - a.rank == 1
               for a, b in itertools.pairwise(ordered))


def all_melds(cards):
    melds = []
    by_rank, by_suit = {}, {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, []).append(c)
    for same in by_rank.values():
        if len(same) == 4:
            melds.append(list(same))
        if len(same) >= 3:
            for skip in range(len(same)):
                three = same[:skip] + same[skip + 1:]
                if len(three) == 3:
                    melds.append(three)
            if len(same) == 3:
                melds.append(list(same))
    for suited in by_suit.values():
        suited = sorted(suited, key=lambda c: c.rank)
        for i in range(len(suited)):
            for j in range(i + 3, len(suited) + 1):
                window = suited[i:j]
                if window[-1].rank - window[0].rank == j - i - 1:
                    melds.append(window)
    return melds


def best_melds(cards):
    melds = all_melds(cards)
    total = sum(min(c.rank, 10) for c in cards)
    best = [total, []]

    def choose(i, used, chosen, saved):
        if total - saved < best[0]:
            best[0], best[1] = total - saved, list(chosen)
        for j in range(i, len(melds)):
            if not used & set(melds[j]):
                chosen.append(melds[j])
                choose(j + 1, used | set(melds[j]), chosen,
                       saved + sum(min(c.rank, 10) for c in melds[j]))
                chosen.pop()

    choose(0, set(), [], 0)
    used = {c for m in best[1] for c in m}
    return best[1], [c for c in cards if c not in used]
