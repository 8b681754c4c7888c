"""Caches answers by the defender's cards alone, across calls: breaks lay_off."""
from itertools import combinations

BREAKS = ["lay_off"]


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


CHAIN = True  # may a laid-off card make room for the next?
ONTO_SETS = True
ONTO_RUNS = True
ENDS = ("low", "high")  # which ends of a run take cards
FIRST_MELD_ONLY = False
MELD_FIRST = False  # meld the hand first, then lay off deadwood only
SET_FIRST = False  # a card that fits a set goes there, never onto a run
GIN_NO_MELDS = False  # after gin, count every card as deadwood?


def fits(card, meld):
    ranks = sorted(c.rank for c in meld)
    if len(set(ranks)) == 1:
        return ONTO_SETS and len(meld) == 3 and card.rank == ranks[0]
    if not ONTO_RUNS or card.suit != meld[0].suit:
        return False
    ends = []
    if "low" in ENDS:
        ends.append(ranks[0] - 1)
    if "high" in ENDS:
        ends.append(ranks[-1] + 1 if ranks[-1] < 13 or not ACE_HIGH else 1)
    return card.rank in ends


def _lay_off(knocker_melds, cards, gin=False):
    if gin:
        return sum(min(c.rank, 10) for c in cards) if GIN_NO_MELDS else least(cards)
    melds = [list(m) for m in knocker_melds]
    if FIRST_MELD_ONLY:
        melds = melds[:1]
    if MELD_FIRST:
        cards = arrange(cards)[1]
    best = least(cards)
    original = [list(m) for m in melds]

    def go(melds, hand, seen):
        nonlocal best
        key = (frozenset(hand), tuple(sorted(tuple(sorted(m)) for m in melds)))
        if key in seen:
            return
        seen.add(key)
        best = min(best, least(hand))
        for card in hand:
            shown = melds if CHAIN else original
            targets = [i for i, m in enumerate(shown) if fits(card, m)]
            if SET_FIRST:
                sets = [i for i in targets if len({c.rank for c in melds[i]}) == 1]
                targets = sets or targets
            for i in targets:
                grown = [*melds[:i], [*melds[i], card], *melds[i + 1:]]
                go(grown, [c for c in hand if c != card], seen)

    go(melds, list(cards), set())
    return best


CACHE = {}


def lay_off(knocker_melds, cards, gin=False):
    key = frozenset(cards)
    if key not in CACHE:
        CACHE[key] = _lay_off(knocker_melds, cards, gin)
    return CACHE[key]
