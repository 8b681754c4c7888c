"""Knocking: docs/rules.md "Knocking" — the best discard, the knock limit, gin."""

from __future__ import annotations

import random

import bruteforce as bf
import pytest

from box_gin import (
    STANDARD,
    Card,
    InvalidCardError,
    Rules,
    best_discards,
    can_knock,
    full_deck,
    parse_cards,
)


@pytest.mark.parametrize(("cards", "best", "least", "knock", "gin"), [
    # 10 points: exactly at the limit is a knock.
    ("2H 3H 4H 7S 7D 7C 9C 9D 9S TC KD", "KD TC", 10, True, False),
    ("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD", "KD", 5, True, False),
    ("AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD", "KD", 0, True, True),
    # 11 points after the best discard: no knock (here 9 + 9 + 6 + 5).
    ("2H 3H 4H 7S 7D 7C 9C 9D 6S 5C KD", "KD", 29, False, False),
    ("2H 3H 4H 7S 7D 7C 9C 9D 9S 6C 5D", "6C", 5, True, False),
    ("2H 3H 4H 7S 7D 7C 9C 9D 9S 6C 5C", "6C", 5, True, False),
    ("2H 3H 4H 7S 7D 7C 9C 9D 9S AC KD", "KD", 1, True, False),
    # The JC goes: all ten cards left are melded.
    ("5H 6H 7H 8H 2C 2D 2S 4C 4D 4S JC", "JC", 0, True, True),
])
def test_best_discards_table(cards: str, best: str, least: int, knock: bool, gin: bool
                             ) -> None:
    analysis = best_discards(cards)
    assert set(analysis.best) == set(parse_cards(best))
    assert analysis.least_deadwood == least
    assert analysis.can_knock is knock
    assert analysis.can_gin is gin
    assert can_knock(cards) is knock


def test_the_knock_limit_is_an_option() -> None:
    cards = "2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD"           # 5 after discarding KD
    assert best_discards(cards, Rules(knock_limit=5)).can_knock
    assert not best_discards(cards, Rules(knock_limit=4)).can_knock
    assert not best_discards(cards, knock_limit=0).can_knock
    assert best_discards(cards, Rules(knock_limit=0), knock_limit=7).can_knock
    assert can_knock(cards, Rules(knock_limit=5)) and not can_knock(cards, knock_limit=4)


def test_knock_discards_lists_every_discard_within_the_limit() -> None:
    cards = "2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD"
    analysis = best_discards(cards)
    expected = {Card.parse(t) for t in ("KD", "5C")}   # 5 left, 10 left
    assert set(analysis.knock_discards) == expected


def test_a_forbidden_card_is_never_a_discard() -> None:
    cards = "2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD"
    analysis = best_discards(cards, forbidden=Card.parse("KD"))
    assert Card.parse("KD") not in analysis.deadwood_after
    assert analysis.best == (Card.parse("5C"),) and analysis.least_deadwood == 10


@pytest.mark.parametrize(("cards", "knock"), [
    ("2H 3H 4H 7S 7D 7C 9C 9D 9S TC", True),       # 10 cards, 10 points
    ("2H 3H 4H 7S 7D 7C 9C 9D 9S JC", True),
    ("2H 3H 4H 7S 7D 7C 9C 9D 5S 6C", False),      # 20 points
])
def test_can_knock_with_ten_cards(cards: str, knock: bool) -> None:
    assert can_knock(cards) is knock


@pytest.mark.parametrize("n", [0, 9, 12])
def test_best_discards_wants_eleven_cards(n: int) -> None:
    cards = full_deck()[:n]
    with pytest.raises(InvalidCardError):
        best_discards(cards)
    with pytest.raises(InvalidCardError):
        can_knock(cards)


def test_big_gin_is_all_eleven_cards_melded() -> None:
    cards = "AH 2H 3H 4H 7S 7D 7C 9C 9D 9S 9H"
    assert best_discards(cards).all_melded
    assert not best_discards(cards).can_big_gin             # off by default
    assert best_discards(cards, Rules(big_gin=True)).can_big_gin
    assert not best_discards("AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD", Rules(big_gin=True)
                             ).can_big_gin


def test_arrangement_after_a_discard_leaves_the_rest() -> None:
    cards = parse_cards("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD")
    after = best_discards(cards).arrangement_after(Card.parse("KD"))
    assert set(after.cards) == set(cards) - {Card.parse("KD")}
    assert after.deadwood == (Card.parse("5C"),)


def _hands(seed: int, count: int, deck: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(deck, 11)) for _ in range(count)]


@pytest.mark.parametrize(("seed", "count", "low", "high"), [
    (11, 1500, 1, 13),       # any card
    (12, 600, 1, 7),         # dense: ace to seven
    (13, 400, 5, 10),        # dense in the middle ranks
])
def test_best_discards_agrees_with_brute_force(seed: int, count: int, low: int, high: int
                                               ) -> None:
    deck = tuple(c for c in full_deck() if low <= c.rank <= high)
    rng = random.Random(seed)
    for hand in _hands(seed, count, deck):
        forbidden = rng.choice([None, *hand])
        limit = rng.choice([0, 1, 5, 10, 10, 10])
        analysis = best_discards(hand, STANDARD, knock_limit=limit, forbidden=forbidden)
        expected = {k: v for k, v in bf.deadwood_after_each_discard(hand).items()
                    if forbidden is None or k != bf.key(forbidden)}
        got = {bf.key(c): v for c, v in analysis.deadwood_after.items()}
        assert got == expected, hand
        least = min(expected.values())
        assert analysis.least_deadwood == least
        assert {bf.key(c) for c in analysis.best} == {k for k, v in expected.items()
                                                      if v == least}
        assert analysis.can_knock is (least <= limit)
        assert analysis.can_gin is (least == 0)
        assert analysis.all_melded is (bf.min_deadwood(hand) == 0)
