"""Tries each discard by removing it and putting it back on top: the hand comes back in another order: breaks best_discards."""
from itertools import combinations

BREAKS = ["best_discards"]


ACE_HIGH = False  # may the ace follow the king?
MAX_SET = 4  # the most cards a set may have
MAX_RUN = 13  # the most cards a run may have
SETS = True
FACE_BY_RANK = False  # count J Q K by their rank?


def value(card):
    return card.rank if FACE_BY_RANK else min(card.rank, 10)


def melds_of(cards):
    """Every set and run among the cards, as lists."""
    out = []
    if SETS:
        for rank in {c.rank for c in cards}:
            same = sorted(c for c in cards if c.rank == rank)
            for size in range(3, min(len(same), MAX_SET) + 1):
                out += [list(m) for m in combinations(same, size)]
    for suit in {c.suit for c in cards}:
        by_rank = {c.rank: c for c in cards if c.suit == suit}
        if ACE_HIGH and 1 in by_rank:
            by_rank[14] = by_rank[1]
        for low in sorted(by_rank):
            run = [by_rank[low]]
            rank = low + 1
            while rank in by_rank and len(run) < MAX_RUN:
                run.append(by_rank[rank])
                if len(run) >= 3:
                    out.append(list(run))
                rank += 1
    return out


def arrange(cards, _memo=None):
    """(melds, deadwood) with the least deadwood value."""
    memo = {} if _memo is None else _memo
    key = frozenset(cards)
    if key in memo:
        return memo[key]
    cards = sorted(cards)
    if not cards:
        return [], []
    first, rest = cards[0], cards[1:]
    melds, dead = arrange(rest, memo)
    best = (melds, [first, *dead])
    for meld in melds_of(cards):
        if first in meld:
            m, d = arrange([c for c in cards if c not in meld], memo)
            if sum(map(value, d)) < sum(map(value, best[1])):
                best = ([meld, *m], d)
    memo[key] = best
    return best


def least(cards):
    return sum(min(c.rank, 10) for c in arrange(cards)[1])




def best_discards(cards):
    after = {}
    for card in list(cards):
        cards.remove(card)
        after[card] = least(cards)
        cards.insert(0, card)
    low = min(after.values())
    return [c for c in after if after[c] == low]
