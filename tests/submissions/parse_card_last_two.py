"""Reads the rank from the characters before the suit, up to two of them, and ignores anything before ('010H' is 10H, 'X7H' is 7H): breaks parse_card."""

BREAKS = ["parse_card"]


from box_gin import Card, Suit

LETTERS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
SUITS = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}


def parse_card(text):
    text = text.strip().upper()
    rank, suit = (text[-3:-1] if text[-3:-1] == "10" else text[-2:-1]), text[-1:]
    if suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    if rank in LETTERS:
        return Card(LETTERS[rank], Suit(SUITS[suit]))
    if rank not in [str(n) for n in range(2, 11)]:
        raise ValueError(f"not a card: {text!r}")
    number = int(rank)
    return Card(number, Suit(SUITS[suit]))
