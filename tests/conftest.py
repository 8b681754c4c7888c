"""Shared test set-up: the hypothesis profile and a dealer that stacks the deck."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings

from box_gin import STANDARD, Card, Hand, Rules, full_deck, parse_cards

settings.register_profile(
    "box-gin",
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", parent=settings.get_profile("box-gin"), max_examples=2000)
settings.load_profile("box-gin")


def stacked_deck(captain: str, box: str, upcard: str, stock: str = "") -> tuple[Card, ...]:
    """A 52-card deck in the order the engine deals it (RULES.md, "The deal"): the
    captain's 10 cards at positions 0, 2, .. 18, the box's at 1, 3, .. 19, the upcard at
    20, then the stock from the top (``stock`` first, the unused cards after it)."""
    c, b = parse_cards(captain), parse_cards(box)
    up = parse_cards(upcard)
    top = [Card.parse(word) for word in stock.split()]   # in the order given, not sorted
    assert len(c) == 10 and len(b) == 10 and len(up) == 1, "10 + 10 cards and one upcard"
    named = [*c, *b, *up, *top]
    assert len(set(named)) == len(named), "a card named twice"
    rest = [card for card in full_deck() if card not in set(named)]
    dealt: list[Card] = []
    for cap_card, box_card in zip(c, b, strict=True):
        dealt += [cap_card, box_card]
    return (*dealt, *up, *top, *rest)


Dealer = Callable[..., Hand]


@pytest.fixture
def deal() -> Dealer:
    """``deal(captain, box, upcard, stock="", rules=STANDARD)``: a hand from a stacked deck."""

    def dealer(captain: str, box: str, upcard: str, stock: str = "",
               rules: Rules = STANDARD) -> Hand:
        return Hand.deal(rules, deck=stacked_deck(captain, box, upcard, stock))

    return dealer
