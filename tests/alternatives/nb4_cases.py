"""Notebook 4 by memoised search: layoffs as moves between states (the knocker's melds as
their spans, the cards left), scoring by cases of a difference."""

from functools import cache
from itertools import combinations

PASSES = ["lay_off", "score_hand"]


def least(cards):
    @cache
    def best(left):
        if not left:
            return 0
        first = min(left, key=lambda c: (c.rank, c.suit))
        rest = left - {first}
        out = min(first.rank, 10) + best(rest)
        same = [c for c in rest if c.rank == first.rank]
        for n in (2, 3):
            for more in combinations(same, n):
                out = min(out, best(rest - set(more)))
        run, rank = [], first.rank + 1
        while True:
            nxt = [c for c in rest if c.suit == first.suit and c.rank == rank]
            if not nxt:
                break
            run.append(nxt[0])
            rank += 1
            if len(run) >= 2:
                out = min(out, best(rest - set(run)))
        return out

    return best(frozenset(cards))


def lay_off(knocker_melds, cards, gin=False):
    if gin:
        return least(cards)
    spans = []
    for meld in knocker_melds:
        ranks = sorted(c.rank for c in meld)
        if ranks[0] == ranks[-1]:
            spans.append(("set", ranks[0], len(meld)))
        else:
            spans.append((meld[0].suit, ranks[0], ranks[-1]))

    @cache
    def search(state, left):
        out = least(left)
        for i, (kind, low, high) in enumerate(state):
            for card in left:
                if kind == "set":
                    new = ("set", low, high + 1) if high == 3 and card.rank == low else None
                elif card.suit == kind and card.rank == low - 1:
                    new = (kind, low - 1, high)
                elif card.suit == kind and card.rank == high + 1:
                    new = (kind, low, high + 1)
                else:
                    new = None
                if new is not None:
                    moved = (*state[:i], new, *state[i + 1:])
                    out = min(out, search(moved, left - {card}))
        return out

    return search(tuple(spans), frozenset(cards))


def score_hand(knocker_deadwood, defender_deadwood, gin):
    difference = defender_deadwood - knocker_deadwood
    if gin:
        return "knocker", 25 + defender_deadwood
    if difference > 0:
        return "knocker", difference
    return "defender", 10 - difference
