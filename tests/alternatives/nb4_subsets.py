"""Notebook 4 by subsets: every set of cards to lay off tried (each checked by placing
its cards one by one), scoring from a table of two rows."""

from itertools import combinations

PASSES = ["lay_off", "score_hand"]


def melds_of(cards):
    out = []
    for a in cards:
        same = [c for c in cards if c.rank == a.rank]
        if len(same) >= 3:
            out += [set(m) for n in (3, 4) for m in combinations(same, n)]
        run = [a]
        while True:
            up = [c for c in cards if c.suit == a.suit and c.rank == run[-1].rank + 1]
            if not up:
                break
            run = run + up
            if len(run) >= 3:
                out.append(set(run))
    return out


def least(cards, memo):
    key = frozenset(cards)
    if key not in memo:
        best = sum(min(c.rank, 10) for c in cards)
        for meld in melds_of(cards):
            best = min(best, least([c for c in cards if c not in meld], memo))
        memo[key] = best
    return memo[key]


def fits(meld, card):
    ranks = sorted(c.rank for c in meld)
    if ranks[0] == ranks[-1]:
        return len(meld) == 3 and card.rank == ranks[0]
    suit = next(iter(meld)).suit
    return card.suit == suit and (card.rank == ranks[0] - 1 or card.rank == ranks[-1] + 1)


def placeable(melds, cards):
    if not cards:
        return True
    for card in cards:
        for i, meld in enumerate(melds):
            if fits(meld, card):
                grown = [*melds[:i], [*meld, card], *melds[i + 1:]]
                if placeable(grown, [c for c in cards if c != card]):
                    return True
    return False


def lay_off(knocker_melds, cards, gin=False):
    memo = {}
    if gin:
        return least(cards, memo)
    melds = [list(m) for m in knocker_melds]
    best = least(cards, memo)
    for n in range(1, len(cards) + 1):
        for chosen in combinations(cards, n):
            if placeable(melds, list(chosen)):
                best = min(best, least([c for c in cards if c not in chosen], memo))
    return best


def score_hand(knocker_deadwood, defender_deadwood, gin):
    if gin:
        return ("knocker", defender_deadwood + 25)
    table = {True: ("knocker", defender_deadwood - knocker_deadwood),
             False: ("defender", knocker_deadwood - defender_deadwood + 10)}
    return table[knocker_deadwood < defender_deadwood]
