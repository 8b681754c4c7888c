"""The expert bot and sitter: always legal, reading only its seat's view, and stronger
than the greedy bot where it can be seen on a single hand (benchmarks/tournament.py
measures the strength over thousands of duplicate deals)."""

from __future__ import annotations

import dataclasses

import pytest
from bruteforce import Dealer

from box_gin import PRESETS, Action, Card, Hand, IllegalActionError, Role
from box_gin.bots import _danger, _read, expert_advise, expert_bot, expert_choice, greedy_bot
from box_gin.match import SitterView


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_expert_always_plays_a_legal_action(preset: str) -> None:
    for seed in range(12):
        hand = Hand.deal(PRESETS[preset], seed=seed)
        while not hand.is_over:
            role = hand.to_play
            assert role is not None
            view = hand.view(role)
            action = expert_bot(view)
            assert action in view.legal_actions
            advice = expert_advise(SitterView(hand.view(Role.CAPTAIN))) if role is \
                Role.CAPTAIN else None
            if advice is not None:
                assert advice.action in view.legal_actions and advice.reason
            hand.apply(action)


def test_the_expert_refuses_when_it_is_not_its_turn() -> None:
    with pytest.raises(IllegalActionError):
        expert_bot(Hand.deal(seed=3).view(Role.BOX))


def test_the_expert_decides_from_the_view_alone() -> None:
    """Two hands that look the same from a seat get the same decision, whatever the
    opponent holds and the stock's order."""
    a = Hand.deal(seed=5)
    view = a.view(Role.CAPTAIN)
    other = dataclasses.replace(view)  # the same view, rebuilt
    assert expert_choice(view) == expert_choice(other)
    # The same captain's cards and upcard, but a different box hand and stock.
    deck = list(a.deck)
    deck[1], deck[30] = deck[30], deck[1]
    b = Hand.deal(deck=deck)
    assert b.view(Role.CAPTAIN).hand == view.hand
    assert expert_bot(b.view(Role.CAPTAIN)) == expert_bot(view)


def test_the_expert_keeps_a_card_its_opponent_collects(deal: Dealer) -> None:
    """The box took the 9H from the pile, so it collects hearts around it (or nines).
    The captain has two equally useless tens: greedy sheds the higher in card order,
    the TH, which the box can use (and which is worth less to the captain, the 9H it
    would need being in the box's hand); the expert throws the TC instead."""
    hand = deal("6S 6D 6C KS KD 2D 3D AS TC TH", "7H 8S 2S 3H 4S 5C 7C 9S JD QS", "9H",
                stock="KC")
    hand.apply("pass")
    hand.apply("take")
    hand.apply("discard 2S")
    hand.apply("draw stock")  # the KC: two sets, and the two tens the least use
    view = hand.view(Role.CAPTAIN)
    assert [str(c) for c in view.opponent_known] == ["9H"]
    assert greedy_bot(view) == Action.parse("discard TH")
    assert expert_bot(view) == Action.parse("discard TC")
    reading = _read(view)
    th, tc = Card.parse("TH"), Card.parse("TC")
    assert _danger(th.index, reading.held) > 2 * _danger(tc.index, reading.held)


def test_the_expert_sitter_gives_reasons_in_words() -> None:
    hand = Hand.deal(seed=9)
    advice = expert_advise(SitterView(hand.view(Role.CAPTAIN)))
    assert str(advice).startswith(advice.action.label)
