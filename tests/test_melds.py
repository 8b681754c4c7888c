"""Melds and least deadwood: docs/rules.md "Melds", checked by table and by brute force."""

from __future__ import annotations

import random

import bruteforce as bf
import pytest

from box_gin import (
    Arrangement,
    Card,
    InvalidCardError,
    Meld,
    MeldKind,
    Suit,
    all_melds,
    best_melds,
    deadwood,
    full_deck,
    is_run,
    is_set,
    parse_cards,
)


@pytest.mark.parametrize(("cards", "expected"), [
    ("7H 7S 7D", True),
    ("7H 7S 7D 7C", True),          # a four-card set
    ("AC AD AH", True),
    ("KC KD KS", True),
    ("7H 7S", False),               # too short
    ("7H", False),
    ("7H 7S 8D", False),            # ranks differ
    ("7H 8H 9H", False),            # a run is not a set
])
def test_is_set(cards: str, expected: bool) -> None:
    assert is_set(cards) is expected


@pytest.mark.parametrize(("cards", "expected"), [
    ("AH 2H 3H", True),             # the ace is low
    ("2H 3H 4H", True),
    ("JS QS KS", True),
    ("9D TD JD QD KD", True),
    ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", True),
    ("QH KH AH", False),            # the ace is never high
    ("KH AH 2H", False),            # and runs never wrap round
    ("QS KS AS 2S", False),
    ("AH 2H", False),               # too short
    ("2H 3H 5H", False),            # a gap
    ("2H 3H 4S", False),            # suits differ
    ("7H 7S 7D", False),            # a set is not a run
])
def test_is_run(cards: str, expected: bool) -> None:
    assert is_run(cards) is expected


def test_is_set_and_is_run_accept_card_objects() -> None:
    assert is_run(parse_cards("TC JC QC"))
    assert is_set(list(parse_cards("4C 4D 4H 4S")))


@pytest.mark.parametrize(("cards", "kind"), [
    ("5H 6H 7H", MeldKind.RUN), ("7H 5H 6H", MeldKind.RUN),
    ("9C 9D 9S", MeldKind.SET), ("9C 9D 9S 9H", MeldKind.SET),
])
def test_meld_kinds(cards: str, kind: MeldKind) -> None:
    meld = Meld(cards)
    assert meld.kind is kind
    assert set(meld.cards) == set(parse_cards(cards))
    assert meld.is_run is (kind is MeldKind.RUN) and meld.is_set is (kind is MeldKind.SET)


@pytest.mark.parametrize("cards", ["QH KH AH", "KH AH 2H", "7H 7S", "7H 8S 9H", "2H 3H 5H",
                                   "7H 7S 8S", "5H 6H"])
def test_meld_rejects_what_is_not_a_meld(cards: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        Meld(cards)
    assert "not a meld" in str(err.value)


@pytest.mark.parametrize(("meld", "extensions"), [
    ("5H 6H 7H", "4H 8H"),
    ("AH 2H 3H", "4H"),             # nothing below the ace
    ("JS QS KS", "TS"),             # nothing above the king
    ("9C 9D 9S", "9H"),
    ("9C 9D 9S 9H", ""),
])
def test_meld_extensions(meld: str, extensions: str) -> None:
    expected = set(parse_cards(extensions)) if extensions else set()
    assert set(Meld(meld).extensions()) == expected


# A table of hands and their least deadwood, worked out by hand from the rules.
DEADWOOD_TABLE = [
    ("", 0),
    ("KS", 10),
    ("AS", 1),
    ("AH 2H 3H", 0),
    ("QH KH AH", 21),               # Q-K-A is not a run: 10 + 10 + 1
    ("KH AH 2H", 13),               # K-A-2 is not a run either
    ("7C 7D 7H 7S", 0),             # a four-card set
    ("7C 7D 7H 7S 8S 9S", 0),       # 7S in the run, 7C 7D 7H a set
    ("7C 7D 7H 7S 8S", 8),          # 8S is alone: keep the four sevens
    ("2H 3H 4H 7S 7D 7C KD", 10),
    ("AH 2H 3H 9S 9D 9C KS", 10),
    ("AH 2H 3H 4S 4D KC", 18),
    ("TC TD TH JH QH", 20),
    # 5H could go into the set of fives or the run: either leaves one card out.
    ("5C 5D 5H 6H 7H", 10),         # set: 6H 7H dead (13); run: 5C 5D dead (10)
    ("5C 5D 5H 6H 7H 8H", 0),       # set 5C 5D 5H, run 6H 7H 8H
    ("5C 5D 5H 5S 6H 7H", 0),       # set 5C 5D 5S, run 5H 6H 7H
    ("3C 3D 3H 4H 5H 4C 5C", 3),    # runs 3-5 in two suits, 3D dead
    ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", 0),
    ("2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S", 0),   # sets of twos, threes, fours beat
                                                # three runs of 2-3-4 (which leave 5)
    ("AH AS AD 2H 3H 2S 3S", 1),    # A-2-3 twice leaves AD; the set of aces leaves 10
]


@pytest.mark.parametrize(("cards", "expected"), DEADWOOD_TABLE)
def test_least_deadwood_table(cards: str, expected: int) -> None:
    assert deadwood(cards) == expected
    assert best_melds(cards).deadwood_value == expected
    assert bf.min_deadwood(parse_cards(cards) if cards else ()) == expected


def test_a_card_that_could_belong_to_a_set_or_a_run_is_used_once() -> None:
    arrangement = best_melds("5C 5D 5H 6H 7H")
    assert [m.kind for m in arrangement.melds] == [MeldKind.RUN]
    assert set(arrangement.deadwood) == set(parse_cards("5C 5D"))
    arrangement = best_melds("5C 5D 5H 5S 6H 7H")
    kinds = sorted(m.kind for m in arrangement.melds)
    assert kinds == [MeldKind.RUN, MeldKind.SET] and not arrangement.deadwood
    assert Card.parse("5H") in next(m for m in arrangement.melds if m.is_run)


def test_tie_break_keeps_lower_cards_as_deadwood() -> None:
    # Documented in best_melds: both leave 20; keep the lower deadwood cards.
    assert best_melds("TC TD TH JH QH").deadwood == parse_cards("TC TD")


def test_all_melds_lists_every_meld() -> None:
    melds = all_melds("7H 8H 9H TH 9S 9D")
    as_sets = {frozenset(m.cards) for m in melds}
    expected = {frozenset(parse_cards(t)) for t in [
        "7H 8H 9H", "8H 9H TH", "7H 8H 9H TH", "9H 9S 9D"]}
    assert as_sets == expected


def _random_hands(seed: int, count: int, sizes: range, deck: tuple[Card, ...]
                  ) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(deck, rng.choice(sizes))) for _ in range(count)]


RANDOM_HANDS = _random_hands(1, 5000, range(0, 12), full_deck())
DENSE_DECK = tuple(c for c in full_deck() if c.rank <= 7)
DENSE_HANDS = _random_hands(2, 2000, range(11, 12), DENSE_DECK)
CLUSTERED_HANDS = _random_hands(3, 600, range(6, 12),
                                tuple(c for c in full_deck() if 4 <= c.rank <= 9))


def _check_against_bruteforce(hands: list[tuple[Card, ...]]) -> None:
    for hand in hands:
        expected = bf.min_deadwood(hand)
        assert deadwood(hand) == expected, hand
        arrangement = best_melds(hand)
        assert arrangement.deadwood_value == expected, hand
        _check_valid_arrangement(hand, arrangement)


def _check_valid_arrangement(hand: tuple[Card, ...], arrangement: Arrangement) -> None:
    used: list[Card] = [c for m in arrangement.melds for c in m.cards]
    for meld in arrangement.melds:
        assert bf.is_valid_meld(meld.cards), (hand, meld)
        assert meld.is_set == bf.is_valid_set(meld.cards)
    assert len(used) == len(set(used)), f"a card in two melds: {hand}"
    assert set(arrangement.deadwood) == set(hand) - set(used), hand
    assert len(arrangement.deadwood) == len(set(arrangement.deadwood))
    assert sorted(arrangement.cards) == sorted(hand)
    assert arrangement.deadwood_value == sum(bf.value(c) for c in arrangement.deadwood)


def test_best_melds_agrees_with_brute_force_on_random_hands() -> None:
    _check_against_bruteforce(RANDOM_HANDS)


def test_best_melds_agrees_with_brute_force_on_dense_hands() -> None:
    _check_against_bruteforce(DENSE_HANDS)


def test_best_melds_agrees_with_brute_force_on_clustered_hands() -> None:
    _check_against_bruteforce(CLUSTERED_HANDS)


def test_best_melds_is_exact_for_more_than_eleven_cards() -> None:
    # The docstring promises exactness for any number of cards.
    _check_against_bruteforce(_random_hands(4, 300, range(12, 21), full_deck()))
    _check_against_bruteforce(_random_hands(5, 60, range(12, 15), DENSE_DECK))


def test_all_melds_agrees_with_brute_force() -> None:
    for hand in RANDOM_HANDS[:500] + DENSE_HANDS[:100]:
        engine = [frozenset(bf.key(c) for c in m.cards) for m in all_melds(hand)]
        assert len(engine) == len(set(engine)), hand
        assert set(engine) == set(bf.all_valid_melds(hand)), hand


def test_best_melds_follows_its_documented_tie_break() -> None:
    # Among every least-deadwood arrangement (found by brute force), best_melds picks
    # the fewest deadwood cards, then the lowest deadwood (card by card, high to low),
    # then the fewest cards in sets.
    def tie_key(hand: tuple[Card, ...], melds: tuple[frozenset[bf.Key], ...]
                ) -> tuple[object, ...]:
        used = {k for m in melds for k in m}
        dead = sorted((bf.key(c) for c in hand if bf.key(c) not in used), reverse=True)
        in_sets = sum(len(m) for m in melds if bf.is_valid_set(m))
        return (len(dead), dead, in_sets)

    for hand in DENSE_HANDS[:200] + CLUSTERED_HANDS[:200]:
        best = min(tie_key(hand, arr) for arr in bf.best_arrangements(hand))
        chosen = best_melds(hand)
        melds = tuple(frozenset(bf.key(c) for c in m.cards) for m in chosen.melds)
        assert tie_key(hand, melds) == best, hand


def test_best_melds_is_the_same_whatever_the_order_of_the_cards() -> None:
    rng = random.Random(5)
    for hand in DENSE_HANDS[:100]:
        shuffled = list(hand)
        rng.shuffle(shuffled)
        assert best_melds(shuffled) == best_melds(hand)
        assert best_melds(" ".join(map(str, shuffled))) == best_melds(hand)


@pytest.mark.parametrize(("cards", "melds", "dead"), [
    ("2H 3H 4H 7S 7D 7C KD", ["2H 3H 4H", "7C 7D 7S"], "KD"),
    ("2H 3H 4H 7S 7D 7C KD", ["2H 3H 4H"], "7C 7D 7S KD"),
    ("2H 3H 4H 7S 7D 7C KD", [], "2H 3H 4H 7C 7D 7S KD"),
])
def test_arrangement_of_explicit_melds(cards: str, melds: list[str], dead: str) -> None:
    arrangement = Arrangement.of(cards, [Meld(m) for m in melds])
    assert set(arrangement.deadwood) == set(parse_cards(dead))
    assert arrangement.deadwood_value == sum(c.value for c in parse_cards(dead))


@pytest.mark.parametrize(("cards", "melds"), [
    ("2H 3H 4H 5H KD", ["2H 3H 4H", "3H 4H 5H"]),   # 3H and 4H in two melds
    ("2H 3H KD", ["2H 3H 4H"]),                      # 4H not held
])
def test_arrangement_of_rejects_bad_melds(cards: str, melds: list[str]) -> None:
    with pytest.raises(InvalidCardError):
        Arrangement.of(cards, [Meld(m) for m in melds])


def test_suit_names_do_not_matter_for_a_suit_symmetric_hand() -> None:
    hand = parse_cards("5C 6C 7C 9D 9H 9S KH")
    swapped = [Card(c.rank, Suit(3 - c.suit)) for c in hand]
    assert deadwood(swapped) == deadwood(hand) == bf.min_deadwood(hand) == 10
