"""Parsing with a regular expression, dealing by a loop, scoring by cases: passes parse_card,
deal, score_hand."""

PASSES = ["parse_card", "deal", "score_hand"]


import re

from box_gin import Card, Suit

PATTERN = re.compile(r"\s*(10|[2-9atjqk])([cdhs♣♦♥♠])\s*", re.IGNORECASE)


def parse_card(text):
    m = PATTERN.fullmatch(text)
    if not m:
        raise ValueError("not a card")
    rank = {"a": 1, "t": 10, "j": 11, "q": 12, "k": 13}.get(m[1].lower()) or int(m[1])
    suit = "cdhs♣♦♥♠".index(m[2].lower()) % 4
    return Card(rank, Suit(suit))


def deal(deck):
    hands = {"captain": [], "box": []}
    for i, card in enumerate(deck[:20]):
        hands["box" if i % 2 else "captain"].append(card)
    return {**hands, "upcard": deck[20], "stock": list(deck[21:])}


def score_hand(knocker_deadwood, defender_deadwood, gin):
    if gin:
        return "knocker", 25 + defender_deadwood
    if knocker_deadwood >= defender_deadwood:
        return "defender", 10 + knocker_deadwood - defender_deadwood
    return "knocker", defender_deadwood - knocker_deadwood
