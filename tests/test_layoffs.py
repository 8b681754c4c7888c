"""Layoffs: docs/rules.md "Layoffs" — the defender's layoffs onto the knocker's melds."""

from __future__ import annotations

import random

import bruteforce as bf
import pytest

from box_gin import Card, InvalidCardError, Meld, full_deck, lay_off, parse_cards


def melds(*texts: str) -> list[Meld]:
    return [Meld(t) for t in texts]


@pytest.mark.parametrize(("knocker", "defender", "laid", "dead"), [
    # A fourth card onto a three-card set.
    (["KC KD KS"], "KH 2C", "KH", "2C"),
    # Nothing onto a four-card set.
    (["KC KD KS KH"], "QH 2C", "", "QH 2C"),
    # A run extends at either end.
    (["5H 6H 7H"], "4H 2C", "4H", "2C"),
    (["5H 6H 7H"], "8H 2C", "8H", "2C"),
    # Chained: after the 8 the 9 may follow; after the 4 the 3 may follow.
    (["5H 6H 7H"], "8H 9H 2C", "8H 9H", "2C"),
    # Three cards in a chain are also the defender's own run: kept as a run, as the
    # tie-break (fewest cards laid off) says; the deadwood is the same.
    (["5H 6H 7H"], "8H 9H TH 2C", "", "2C"),
    (["5H 6H 7H"], "4H 3H 2C", "4H 3H", "2C"),
    # Chained at both ends at once.
    (["5H 6H 7H"], "3H 4H 8H 9H KC", "3H 4H 8H 9H", "KC"),
    # No chain across a gap: 9H needs the 8H first.
    (["5H 6H 7H"], "9H TH 2C", "", "9H TH 2C"),
    # The ace is low: nothing above a king, nothing below an ace.
    (["JS QS KS"], "AS TS", "TS", "AS"),
    (["AD 2D 3D"], "KD 4D", "4D", "KD"),
    # Wrong suit or rank: no layoff.
    (["5H 6H 7H"], "8S 4D", "", "4D 8S"),
    (["KC KD KS"], "QH", "", "QH"),
    # One card could go onto either of two melds: it goes once.
    (["5H 6H 7H", "8C 8D 8S"], "8H", "8H", ""),
    # A chain through the card that could also finish a set.
    (["5H 6H 7H", "8C 8D 8S"], "8H 9H", "8H 9H", ""),
    # Two melds of one suit: cards between them lay off onto one or the other.
    (["2H 3H 4H", "8H 9H TH"], "5H 7H KS", "5H 7H", "KS"),
])
def test_layoff_table(knocker: list[str], defender: str, laid: str, dead: str) -> None:
    result = lay_off(melds(*knocker), defender)
    assert {lo.card for lo in result.layoffs} == (set(parse_cards(laid)) if laid else set())
    assert set(result.deadwood) == (set(parse_cards(dead)) if dead else set())
    assert result.deadwood_value == sum(c.value for c in result.deadwood)


def test_layoffs_are_listed_in_playing_order() -> None:
    # Each layoff must fit the meld as it stands after the earlier ones.
    knocker = melds("5H 6H 7H", "KC KD KS")
    result = lay_off(knocker, "8H 9H TH 4H 3H KH 2C")
    grown = [set(m.cards) for m in knocker]
    for layoff in result.layoffs:
        assert layoff.onto == knocker[layoff.onto_index]
        assert bf.can_lay_off(bf.key(layoff.card), frozenset(bf.key(c)
                                                             for c in grown[layoff.onto_index]))
        grown[layoff.onto_index].add(layoff.card)
    assert result.deadwood == (Card.parse("2C"),)


def test_the_defender_keeps_its_own_set_when_that_is_better() -> None:
    # 8H fits 5-6-7, but the four eights are the defender's own set; laying off the 8H
    # still leaves 8C 8D 8S a set: both ways leave 2, and the engine finds 2.
    result = lay_off(melds("5H 6H 7H"), "8H 8C 8D 8S 2C")
    assert result.deadwood == (Card.parse("2C"),)
    # With only three eights, laying off 8H would break the set: keep it.
    result = lay_off(melds("5H 6H 7H"), "8H 8C 8D 9S 2C")
    assert result.layoffs == () and set(result.deadwood) == set(parse_cards("9S 2C"))


def test_the_defender_breaks_its_own_meld_when_layoffs_do_better() -> None:
    # Own run 8H 9H TH leaves TC TD (20); laying 8H 9H off onto 5-6-7 and melding
    # TH TC TD leaves nothing.
    result = lay_off(melds("5H 6H 7H"), "8H 9H TH TC TD")
    assert result.deadwood_value == 0
    assert {lo.card for lo in result.layoffs} == set(parse_cards("8H 9H"))
    assert [set(m.cards) for m in result.melds] == [set(parse_cards("TH TC TD"))]


def test_the_defender_lays_off_only_deadwood_that_helps() -> None:
    # 4H fits the knocker's run but is also the defender's run 2H 3H 4H: either way 0.
    result = lay_off(melds("5H 6H 7H"), "2H 3H 4H 9C")
    assert result.deadwood == (Card.parse("9C"),)


def test_no_layoffs_on_gin() -> None:
    knocker = melds("5H 6H 7H", "KC KD KS")
    result = lay_off(knocker, "8H 9H KH 2C 2D 2S 4C", gin=True)
    assert result.layoffs == ()
    assert result.deadwood_value == 8 + 9 + 10 + 4
    assert [set(m.cards) for m in result.melds] == [set(parse_cards("2C 2D 2S"))]


def test_the_defender_lays_out_its_melds() -> None:
    result = lay_off(melds("5H 6H 7H"), "2C 2D 2S 9S 9D 9C QD")
    assert {frozenset(m.cards) for m in result.melds} == {
        frozenset(parse_cards("2C 2D 2S")), frozenset(parse_cards("9C 9D 9S"))}
    assert result.deadwood == (Card.parse("QD"),)


def test_a_card_in_both_hands_is_an_error() -> None:
    with pytest.raises(InvalidCardError):
        lay_off(melds("5H 6H 7H"), "7H 2C")


def test_only_melds_are_accepted() -> None:
    with pytest.raises(InvalidCardError):
        lay_off(["5H 6H 7H"], "2C")  # type: ignore[list-item]


def _random_case(rng: random.Random, deck: tuple[Card, ...]
                 ) -> tuple[list[Meld], tuple[Card, ...]]:
    """Random knocker melds (disjoint) and a defender hand from the other cards."""
    pool = list(deck)
    rng.shuffle(pool)
    knocker: list[Meld] = []
    used: set[Card] = set()
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            rank = rng.randint(1, 13)
            suits = rng.sample(range(4), rng.choice([3, 3, 4]))
            cards = [Card(rank, s) for s in suits]  # type: ignore[arg-type]
        else:
            suit = rng.randrange(4)
            length = rng.randint(3, 5)
            low = rng.randint(1, 14 - length)
            cards = [Card(r, suit) for r in range(low, low + length)]  # type: ignore[arg-type]
        if used & set(cards):
            continue
        used |= set(cards)
        knocker.append(Meld(cards))
    # The defender draws mostly from near the knocker's melds, so layoffs happen.
    near = [c for c in deck if c not in used and any(
        (c.suit == m.cards[0].suit and abs(c.rank - m.cards[0].rank) <= 4) or
        c.rank == m.cards[0].rank for m in knocker)]
    far = [c for c in deck if c not in used and c not in near]
    n_near = min(len(near), rng.randint(0, 10))
    defender = rng.sample(near, n_near) + rng.sample(far, rng.randint(0, 10 - n_near))
    return knocker, tuple(defender)


def test_lay_off_agrees_with_brute_force() -> None:
    rng = random.Random(99)
    deck = full_deck()
    laid_somewhere = 0
    for _ in range(1500):
        knocker, defender = _random_case(rng, deck)
        result = lay_off(knocker, defender)
        expected = bf.min_deadwood_after_layoffs([m.cards for m in knocker], defender)
        assert result.deadwood_value == expected, (knocker, defender)
        laid_somewhere += bool(result.layoffs)
        # The lay-out accounts for every defender card exactly once.
        own = [c for m in result.melds for c in m.cards]
        laid = [lo.card for lo in result.layoffs]
        assert sorted([*own, *laid, *result.deadwood]) == sorted(defender)
        assert all(bf.is_valid_meld(m.cards) for m in result.melds)
        # With gin nothing is laid off, and the deadwood is the plain least deadwood.
        gin = lay_off(knocker, defender, gin=True)
        assert gin.layoffs == () and gin.deadwood_value == bf.min_deadwood(defender)
    assert laid_somewhere > 300    # the cases really exercise layoffs


def test_knocker_melds_that_share_a_card_are_refused() -> None:
    with pytest.raises(InvalidCardError, match="7H"):
        lay_off([Meld("5H 6H 7H"), Meld("7H 7S 7D")], "KD")
