"""Cards: docs/rules.md "Cards" — text forms, values, the deck."""

from __future__ import annotations

import random

import pytest

from box_gin import Card, InvalidCardError, Suit, card_value, format_cards, full_deck, parse_cards

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


@pytest.mark.parametrize(("text", "rank", "suit"), [
    ("AC", 1, C), ("ac", 1, C), ("aC", 1, C),
    ("2D", 2, D), ("9h", 9, H),
    ("TS", 10, S), ("ts", 10, S), ("10S", 10, S), ("10s", 10, S),
    ("JH", 11, H), ("qd", 12, D), ("KC", 13, C),
    ("7♥", 7, H), ("7♡", 7, H), ("Q♠", 12, S), ("q♤", 12, S),
    ("10♦", 10, D), ("T♢", 10, D), ("A♣", 1, C), ("K♧", 13, C),
    ("  5C ", 5, C),
])
def test_parse_one_card(text: str, rank: int, suit: Suit) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(("text", "expected"), [
    ("AS 2s 10D Th 7♥", [(1, S), (2, S), (7, H), (10, D), (10, H)]),
    ("KC, qd", [(12, D), (13, C)]),
    ("KC,qd", [(12, D), (13, C)]),
    ("KC ,  QD,,3H", [(3, H), (12, D), (13, C)]),
    ("\n4c\t4d\n", [(4, C), (4, D)]),
    ("K♠ K♥ K♦ K♣", [(13, C), (13, D), (13, H), (13, S)]),
])
def test_parse_cards_reads_separators_and_sorts_by_rank_then_suit(
        text: str, expected: list[tuple[int, Suit]]) -> None:
    assert [(c.rank, c.suit) for c in parse_cards(text)] == expected


@pytest.mark.parametrize(("text", "quoted"), [
    ("1H", "1H"),
    ("XX", "XX"),
    ("AS 1H", "1H"),
    ("AS XX 2S", "XX"),
    ("11S", "11S"),
    ("10", "10"),
    ("7", "7"),
    ("7X", "7X"),
    ("0S", "0S"),
    ("AS2S", "AS2S"),
    ("7 H", "7"),
    ("♥7", "♥7"),
    ("TT", "TT"),
])
def test_bad_card_text_raises_quoting_it(text: str, quoted: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        parse_cards(text)
    assert repr(quoted) in str(err.value)


@pytest.mark.parametrize("text", ["", "   ", ",", " , ,"])
def test_empty_text_is_not_a_hand(text: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        parse_cards(text)
    assert repr(text) in str(err.value)


@pytest.mark.parametrize(("text", "card"), [
    ("AS AS", "AS"),
    ("AS as", "AS"),
    ("TD 10D", "TD"),
    ("7♥ 7H", "7H"),
    ("2C 3C 4C 3c", "3C"),
])
def test_a_card_named_twice_raises_quoting_the_text(text: str, card: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        parse_cards(text)
    message = str(err.value)
    assert card in message and repr(text) in message


@pytest.mark.parametrize("value", [None, 7, ["AS"], b"AS"])
def test_parse_cards_rejects_what_is_not_text(value: object) -> None:
    with pytest.raises(InvalidCardError):
        parse_cards(value)  # type: ignore[arg-type]


def test_invalid_card_error_is_a_value_error() -> None:
    assert issubclass(InvalidCardError, ValueError)


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (-1, 2), (7, 4), (7, -1),
                                           ("7", 0), (7.0, 1)])
def test_card_constructor_rejects_bad_values(rank: object, suit: object) -> None:
    with pytest.raises(InvalidCardError):
        Card(rank, suit)  # type: ignore[arg-type]


def test_card_constructor_accepts_a_suit_number() -> None:
    assert Card(7, 2) == Card.parse("7H")  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "value"), [
    ("AS", 1), ("2H", 2), ("5D", 5), ("9C", 9), ("TS", 10), ("10H", 10),
    ("JC", 10), ("QD", 10), ("KH", 10),
])
def test_card_values(text: str, value: int) -> None:
    assert card_value(text) == value
    assert card_value(Card.parse(text)) == value
    assert Card.parse(text).value == value


def test_every_card_value_follows_the_rule() -> None:
    expected = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 10, 12: 10,
                13: 10}
    assert {c.rank: c.value for c in full_deck()} == expected


def test_the_deck_is_52_different_cards() -> None:
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert {(c.rank, c.suit) for c in deck} == {(r, s) for r in range(1, 14) for s in Suit}
    assert sorted(c.index for c in deck) == list(range(52))


def test_ace_is_low_in_card_order() -> None:
    assert Card.parse("AS") < Card.parse("2C") < Card.parse("KC")


@pytest.mark.parametrize("text", ["AS", "TD", "7H KC 2D", "A♣ 10♦ Q♥ 3♠"])
def test_format_cards_uses_letters_and_t(text: str) -> None:
    out = format_cards(parse_cards(text))
    assert all(len(word) == 2 and word[0] in "A23456789TJQK" and word[1] in "CDHS"
               for word in out.split())


def test_format_and_parse_round_trip_on_random_hands() -> None:
    rng = random.Random(2024)
    deck = list(full_deck())
    for _ in range(500):
        cards = rng.sample(deck, rng.randint(1, 20))
        text = format_cards(cards)
        assert parse_cards(text) == tuple(sorted(cards))
        assert format_cards(parse_cards(text)) == format_cards(sorted(cards))
        assert parse_cards(text.lower()) == tuple(sorted(cards))


def test_every_card_text_round_trips() -> None:
    for card in full_deck():
        assert Card.parse(repr(card)) is card
        assert Card.parse(str(card)) is card
        assert Card.parse(card.label) is card  # "10♥", the readable form
        assert Card.parse(card.rank_text + card.suit.letter.lower()) is card


def test_suits_are_letters_and_symbols() -> None:
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.is_red for s in Suit] == [False, True, True, False]


def test_emoji_suits_with_the_variation_selector_are_read() -> None:
    assert parse_cards("7\u2665\ufe0f A\u2660\ufe0f") == parse_cards("7H AS")
