"""Strips spaces on the left only ('7H ' is refused): breaks parse_card."""

BREAKS = ["parse_card"]


from box_gin import Card, Suit

LETTERS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
SUITS = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}


def parse_card(text):
    text = text.lstrip().upper()
    rank, suit = text[:-1], text[-1:]
    if suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    if rank in LETTERS:
        return Card(LETTERS[rank], Suit(SUITS[suit]))
    if rank not in [str(n) for n in range(2, 11)]:
        raise ValueError(f"not a card: {text!r}")
    number = int(rank)
    return Card(number, Suit(SUITS[suit]))
