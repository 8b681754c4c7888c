"""Invariants, checked by hypothesis on generated hands and games."""

from __future__ import annotations

import bruteforce as bf
from hypothesis import given
from hypothesis import strategies as st

from box_gin import (
    Action,
    ActionKind,
    Card,
    Hand,
    IllegalActionError,
    Rules,
    Suit,
    best_discards,
    best_melds,
    deadwood,
    format_cards,
    full_deck,
    lay_off,
    parse_cards,
)

DECK = full_deck()
cards_st = st.lists(st.sampled_from(DECK), unique=True, max_size=11)
dense_st = st.lists(st.sampled_from([c for c in DECK if c.rank <= 6]), unique=True,
                    min_size=6, max_size=11)
hand_st = st.one_of(cards_st, dense_st)
suit_permutation_st = st.permutations(list(Suit))


def rename(cards: list[Card], perm: list[Suit]) -> list[Card]:
    return [Card(c.rank, perm[c.suit]) for c in cards]


@given(hand_st, suit_permutation_st, st.randoms(use_true_random=False))
def test_order_and_suit_names_never_change_deadwood(cards: list[Card], perm: list[Suit],
                                                    rng: object) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    base = deadwood(cards)
    assert deadwood(shuffled) == base
    assert deadwood(rename(cards, perm)) == base
    assert best_melds(rename(shuffled, perm)).deadwood_value == base
    assert deadwood(format_cards(reversed(cards)) or "") == base


@given(hand_st)
def test_the_arrangement_is_exactly_the_cards(cards: list[Card]) -> None:
    arrangement = best_melds(cards)
    in_melds = [c for m in arrangement.melds for c in m.cards]
    assert len(in_melds) == len(set(in_melds)), "a card in two melds"
    assert sorted(in_melds + list(arrangement.deadwood)) == sorted(cards)
    assert all(bf.is_valid_meld(m.cards) for m in arrangement.melds)
    assert arrangement.deadwood_value == sum(bf.value(c) for c in arrangement.deadwood)
    assert arrangement.deadwood_value == deadwood(cards)


@given(hand_st)
def test_deadwood_is_the_brute_force_least(cards: list[Card]) -> None:
    assert deadwood(cards) == bf.min_deadwood(cards)


@given(st.lists(st.sampled_from(DECK), unique=True, min_size=11, max_size=11),
       suit_permutation_st)
def test_best_discards_follow_suit_renaming(cards: list[Card], perm: list[Suit]) -> None:
    a = best_discards(cards)
    b = best_discards(rename(cards, perm))
    assert a.least_deadwood == b.least_deadwood
    assert {Card(c.rank, perm[c.suit]) for c in a.best} == set(b.best)


@given(st.lists(st.sampled_from(DECK), unique=True, min_size=10, max_size=21),
       st.booleans())
def test_layoffs_account_for_every_defender_card(cards: list[Card], gin: bool) -> None:
    knocker = best_melds(cards[:10])
    defender = cards[10:]
    result = lay_off(knocker.melds, defender, gin=gin)
    own = [c for m in result.melds for c in m.cards]
    laid = [lo.card for lo in result.layoffs]
    assert sorted(own + laid + list(result.deadwood)) == sorted(defender)
    assert result.deadwood_value <= deadwood(defender)
    assert not (gin and laid)
    assert result.deadwood_value == bf.min_deadwood_after_layoffs(
        [] if gin else [m.cards for m in knocker.melds], defender)


@given(st.lists(st.sampled_from(DECK), unique=True, min_size=1, max_size=15))
def test_card_text_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(sorted(cards))


rules_st = st.sampled_from([
    Rules(), Rules(may_discard_taken_card=True), Rules(big_gin=True),
    Rules(oklahoma=True, oklahoma_spades_double=True), Rules(knock_limit=0),
])


@given(st.integers(0, 2**32), rules_st,
       st.lists(st.integers(0, 10**6), min_size=10, max_size=120))
def test_every_hand_state_holds_the_52_cards(seed: int, rules: Rules, picks: list[int]
                                             ) -> None:
    hand = Hand.deal(rules, seed=seed)
    assert bf.conservation_problem(hand) is None
    for pick in picks:
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.apply(legal[pick % len(legal)])
        assert bf.conservation_problem(hand) is None
        sizes = sorted(len(hand.cards(r)) for r in hand.hands)
        assert sizes in ([10, 10], [10, 11])
        assert hand.stock_size >= 2


TOKENS = ["take", "pass", "draw", "stock", "discard", "knock", "big", "gin", "[", "]",
          "10", "1H", "XX", "", ",", "♥", *[str(c) for c in DECK], *[c.label for c in DECK]]
junk_st = st.one_of(
    st.text(max_size=30),
    st.lists(st.sampled_from(TOKENS), max_size=8).map(" ".join),
    st.lists(st.sampled_from(TOKENS), max_size=8).map("".join),
)


@given(st.integers(0, 2**32), st.lists(st.integers(0, 10**6), max_size=40), junk_st)
def test_garbage_text_never_changes_a_hand(seed: int, picks: list[int], junk: str) -> None:
    hand = Hand.deal(seed=seed)
    for pick in picks:
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.apply(legal[pick % len(legal)])
    before = bf.hand_state(hand)
    legal = hand.legal_actions()
    try:
        hand.apply(junk)
    except IllegalActionError:
        assert bf.hand_state(hand) == before
    else:
        # Accepted: it was legal (legal_actions lists knocks with the engine's lay-out;
        # a knock naming its own melds was checked by the hand itself).
        action = Action.parse(junk)
        assert action in legal or (action.melds is not None and action.kind in (
            ActionKind.KNOCK, ActionKind.BIG_GIN))
        assert bf.conservation_problem(hand) is None
