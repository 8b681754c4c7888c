"""Notebook 2 by counting and memo: a set by a Counter, a run by its span, every meld by
trying every group of cards, the best arrangement memoised on the cards left."""

from collections import Counter
from itertools import combinations

PASSES = ["is_set", "is_run", "all_melds", "best_melds"]


def is_set(cards):
    counts = Counter(c.rank for c in cards)
    return len(counts) == 1 and 3 <= len(cards) <= 4


def is_run(cards):
    if len(cards) < 3 or len({c.suit for c in cards}) > 1:
        return False
    ranks = {c.rank for c in cards}
    return len(ranks) == len(cards) and max(ranks) - min(ranks) + 1 == len(cards)


def all_melds(cards):
    out = []
    for size in range(3, len(cards) + 1):
        for group in combinations(cards, size):
            if is_set(group) or is_run(group):
                out.append(list(group))
    return out


def best_melds(cards):
    memo = {}

    def best(left):
        if left in memo:
            return memo[left]
        if not left:
            return 0, []
        first = min(left)
        value, melds = best(left - {first})
        answer = (value + min(first.rank, 10), melds)
        for meld in all_melds(sorted(left)):
            if first in meld:
                value, melds = best(left - set(meld))
                if value < answer[0]:
                    answer = (value, [meld, *melds])
        memo[left] = answer
        return answer

    melds = best(frozenset(cards))[1]
    used = {c for m in melds for c in m}
    return melds, [c for c in cards if c not in used]
