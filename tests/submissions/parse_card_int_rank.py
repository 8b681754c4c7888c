"""Reads a digit rank with int(), which takes '010', '07', '+7' and '1_0': breaks parse_card."""

BREAKS = ["parse_card"]


from box_gin import Card, Suit

LETTERS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
SUITS = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}


def parse_card(text):
    text = text.strip().upper()
    rank, suit = text[:-1], text[-1:]
    if suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    if rank in LETTERS:
        return Card(LETTERS[rank], Suit(SUITS[suit]))
    try:
        number = int(rank)
    except ValueError:
        raise ValueError(f"not a card: {text!r}") from None
    if not 2 <= number <= 10:
        raise ValueError(f"not a card: {text!r}")
    return Card(number, Suit(SUITS[suit]))
