"""Melds all the cards first, then drops the highest deadwood card as the discard (the
discard is never a card of a meld): breaks can_knock."""
from itertools import combinations

BREAKS = ["can_knock"]


def arrange(cards):
    """(deadwood value, deadwood cards) of a least-deadwood arrangement (correct)."""
    cards = sorted(cards)
    if not cards:
        return 0, []
    first, rest = cards[0], cards[1:]
    value, dead = arrange(rest)
    best = (value + min(first.rank, 10), [first, *dead])
    same = [c for c in rest if c.rank == first.rank]
    for n in (2, 3):
        for others in combinations(same, n):
            got = arrange([c for c in rest if c not in others])
            best = min(best, got, key=lambda p: p[0])
    run = [first]
    while True:
        up = [c for c in rest if c.suit == first.suit and c.rank == run[-1].rank + 1]
        if not up:
            break
        run.append(up[0])
        if len(run) >= 3:
            best = min(best, arrange([c for c in rest if c not in run]), key=lambda p: p[0])
    return best


def can_knock(cards, limit=10):
    value, dead = arrange(cards)
    if dead:
        value -= max(min(c.rank, 10) for c in dead)
    return value <= limit
