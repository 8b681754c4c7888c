"""Sets and runs checked by counting (collections.Counter, ranks as a set): passes is_set,
is_run, card_value."""

PASSES = ["is_set", "is_run", "card_value"]


from collections import Counter


def is_set(cards):
    counts = Counter(c.rank for c in cards)
    return len(counts) == 1 and 3 <= sum(counts.values()) <= 4


def is_run(cards):
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = {c.rank for c in cards}
    return len(ranks) == len(cards) and max(ranks) - min(ranks) == len(cards) - 1


def card_value(card):
    return 10 if card.rank >= 10 else card.rank
