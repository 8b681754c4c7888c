"""Returns None for text that is not a card instead of raising: breaks parse_card."""
from box_gin import Card, Suit

BREAKS = ["parse_card"]


def parse_card(text):
    text = text.strip().upper()
    ranks = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
    ranks.update({str(n): n for n in range(2, 10)})
    suits = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
             "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES}
    if text[:-1] in ranks and text[-1:] in suits:
        return Card(ranks[text[:-1]], suits[text[-1]])
    return None
