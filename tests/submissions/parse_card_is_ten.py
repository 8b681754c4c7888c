"""Tests the rank text with `is "10"` (a slice is a new string): breaks parse_card."""

BREAKS = ["parse_card"]


from box_gin import Card, Suit

RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 10)}}
SUITS = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}


def parse_card(text):
    text = text.strip().upper()
    rank, suit = text[:-1], text[-1:]
    if rank is "10":  # noqa: F632
        rank = "T"
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return Card(RANKS[rank], Suit(SUITS[suit]))
