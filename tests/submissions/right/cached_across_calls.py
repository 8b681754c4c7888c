"""Keeps a cache between calls, keyed by everything the answer depends on (state that changes nothing): passes can_knock, is_gin, best_melds, game_winner."""
from itertools import combinations

PASSES = ["can_knock", "is_gin", "best_melds", "game_winner"]


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




from functools import lru_cache


@lru_cache(maxsize=None)
def least_of(hand):
    return least(list(hand))


def after_discards(cards):
    return [least_of(frozenset(x for x in cards if x != c)) for c in cards]


def can_knock(cards, limit=10):
    return min(after_discards(cards)) <= limit


def is_gin(cards):
    return 0 in after_discards(cards)


SEEN = {}


def best_melds(cards):
    key = frozenset(cards)
    if key not in SEEN:
        SEEN[key] = arrange(list(cards))
    melds, dead = SEEN[key]
    return [list(m) for m in melds], list(dead)


HISTORY = []


def game_winner(hands, target=100):
    HISTORY.append((tuple(hands), target))  # kept, never read back
    totals = {}
    for scorer, points in hands:
        if scorer is None:
            continue
        totals[scorer] = totals.get(scorer, 0) + points
        if totals[scorer] >= target:
            return scorer
    return None
