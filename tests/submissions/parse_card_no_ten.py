"""Reads "T" for ten but not "10": breaks parse_card."""
from box_gin import Card, Suit

BREAKS = ["parse_card"]


def parse_card(text):
    text = text.strip().upper()
    ranks = "A23456789TJQK"
    suits = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
             "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES}
    if len(text) != 2 or text[0] not in ranks or text[1] not in suits:
        raise ValueError(text)
    return Card(ranks.index(text[0]) + 1, suits[text[1]])
