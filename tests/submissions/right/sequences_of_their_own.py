"""Returns sequences of its own (a list subclass, a deque, a tuple subclass) where a list is asked for: passes best_discards, all_melds, deal."""
from itertools import combinations

PASSES = ["best_discards", "all_melds", "deal"]


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




from collections import deque


class Cards(list):
    """A list of cards that prints itself as cards."""

    def __repr__(self):
        return " ".join(map(repr, self))


class Meld(tuple):
    pass


def best_discards(cards):
    after = {c: least([x for x in cards if x != c]) for c in cards}
    low = min(after.values())
    return Cards(c for c in cards if after[c] == low)


def all_melds(cards):
    return deque(Meld(m) for m in melds_of(cards))


def deal(deck):
    return {"captain": Cards(deck[0:20:2]), "box": Meld(deck[1:20:2]), "upcard": deck[20],
            "stock": deque(deck[21:])}
