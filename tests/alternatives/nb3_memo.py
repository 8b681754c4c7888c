"""Notebook 3 by a memoised deadwood of the cards left, each discard tried once."""

from itertools import combinations

PASSES = ["can_knock", "best_discards", "is_gin"]


def deadwood(cards, memo):
    if cards in memo:
        return memo[cards]
    if not cards:
        return 0
    low = min(cards)
    rest = cards - {low}
    best = min(low.rank, 10) + deadwood(rest, memo)
    same = [c for c in rest if c.rank == low.rank]
    for n in (2, 3):
        for group in combinations(same, n):
            best = min(best, deadwood(rest - set(group), memo))
    run = []
    while True:
        up = [c for c in rest if c.suit == low.suit and c.rank == low.rank + len(run) + 1]
        if not up:
            break
        run.append(up[0])
        if len(run) > 1:
            best = min(best, deadwood(rest - set(run), memo))
    memo[cards] = best
    return best


def after_each_discard(cards):
    memo = {}
    hand = frozenset(cards)
    return {card: deadwood(hand - {card}, memo) for card in cards}


def can_knock(cards, limit=10):
    return min(after_each_discard(cards).values()) <= limit


def best_discards(cards):
    after = after_each_discard(cards)
    least = min(after.values())
    return [c for c in cards if after[c] == least]


def is_gin(cards):
    return 0 in after_each_discard(cards).values()
