"""Accepts upper-case letters only ("7h" is refused): breaks parse_card."""
from box_gin import Card, Suit

BREAKS = ["parse_card"]


def parse_card(text):
    text = text.strip()
    ranks = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
    ranks.update({str(n): n for n in range(2, 10)})
    suits = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
             "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES}
    if text[:-1] not in ranks or text[-1:] not in suits:
        raise ValueError(text)
    return Card(ranks[text[:-1]], suits[text[-1]])
