"""Notebook 1 by loops and comparisons: the value by a condition, the card by a regular
expression, the deal card by card, the cut by comparing players two at a time."""

import re
from functools import cmp_to_key

from box_gin import Card, Suit

PASSES = ["card_value", "parse_card", "deal", "roles_from_cut"]

CARD_TEXT = re.compile(r"(10|[2-9ATJQK])([CDHS♣♦♥♠])")


def card_value(card):
    if card.rank > 9:
        return 10
    return card.rank


def parse_card(text):
    found = CARD_TEXT.fullmatch(text.strip().upper())
    if found is None:
        raise ValueError("not a card")
    rank_text, suit_text = found.groups()
    rank = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(rank_text)
    if rank is None:
        rank = int(rank_text)
    return Card(rank, Suit("CDHS♣♦♥♠".index(suit_text) % 4))


def deal(deck):
    captain, box, stock = [], [], []
    for position, card in enumerate(deck):
        if position < 20 and position % 2 == 0:
            captain.append(card)
        elif position < 20:
            box.append(card)
        elif position > 20:
            stock.append(card)
    return {"captain": captain, "box": box, "upcard": deck[20], "stock": stock}


def roles_from_cut(cuts):
    def compare(a, b):
        for card_a, card_b in zip(cuts[a], cuts[b], strict=False):
            if card_a.rank != card_b.rank:
                return card_b.rank - card_a.rank
        return 0

    box, captain, sitter = sorted(cuts, key=cmp_to_key(compare))
    return {"box": box, "captain": captain, "sitter": sitter}
