"""Does not ignore the spaces around the text: breaks parse_card."""
from box_gin import Card, Suit

BREAKS = ["parse_card"]


def parse_card(text):
    ranks = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
    ranks.update({str(n): n for n in range(2, 10)})
    suits = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
             "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES}
    text = text.upper()
    rank, suit = ranks.get(text[:-1]), suits.get(text[-1:])
    if rank is None or suit is None:
        raise ValueError(f"not a card: {text!r}")
    return Card(rank, suit)
