"""Notebook 1 by tables and iterators: the value from a tuple, the card by looking its
two parts up, the deal from an iterator, the cut by settling each round's ties in turn."""

from box_gin import Card, Suit

PASSES = ["card_value", "parse_card", "deal", "roles_from_cut"]

VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def card_value(card):
    return VALUES[card.rank]


def parse_card(text):
    text = text.strip().lower()
    if len(text) not in (2, 3):
        raise ValueError("not a card")
    rank_text, suit_text = text[:-1], text[-1]
    if rank_text == "10":
        rank_text = "t"
    suits = "cdhs♣♦♥♠"
    if suit_text not in suits or rank_text.upper() not in RANK_TEXT:
        raise ValueError("not a card")
    return Card(RANK_TEXT.index(rank_text.upper()) + 1, Suit(suits.index(suit_text) % 4))


def deal(deck):
    cards = iter(deck)
    captain, box = [], []
    for _ in range(10):
        captain.append(next(cards))
        box.append(next(cards))
    upcard = next(cards)
    return {"captain": captain, "box": box, "upcard": upcard, "stock": list(cards)}


def roles_from_cut(cuts):
    def order(players, round_):
        if len(players) < 2:
            return list(players)
        ranks = sorted({cuts[p][round_].rank for p in players}, reverse=True)
        out = []
        for rank in ranks:
            out += order([p for p in players if cuts[p][round_].rank == rank], round_ + 1)
        return out

    box, captain, sitter = order(list(cuts), 0)
    return {"box": box, "captain": captain, "sitter": sitter}
