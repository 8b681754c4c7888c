"""The expert bot and sitter: always legal, reading only its seat's view, and stronger
than the greedy bot where it can be seen on a single hand (benchmarks/tournament.py
measures the strength over thousands of duplicate deals)."""

from __future__ import annotations

import dataclasses

import pytest
from bruteforce import Dealer
from hypothesis import given
from hypothesis import strategies as st

from box_gin import PRESETS, Action, Card, Hand, IllegalActionError, Role
from box_gin.bots import expert_advise, expert_bot, expert_choice, greedy_bot
from box_gin.bots.expert import _ABOVE_LAST, _VALUE_OF, _best_discard, _bits, _danger, _read
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


def test_the_expert_keeps_a_pair_its_opponent_is_likely_to_feed() -> None:
    """A player throws away high cards first, so the captain's next card may well be a
    king or a jack from the box: the expert keeps its kings and jacks (and throws the
    8S), where greedy, and the expert blind to the box's next discard, throw the KS."""
    hand = Hand.deal(seed=36)
    for text in ("pass", "pass", "draw stock"):
        hand.apply(text)
    view = hand.view(Role.CAPTAIN)
    assert " ".join(map(str, view.hand)) == "AD 3C 4H 5S 7C 8S 9C JC JH KH KS"
    assert greedy_bot(view) == Action.parse("discard KS")
    assert expert_bot(view) == Action.parse("discard 8S")
    reading = _read(view)
    blind = dataclasses.replace(reading, thrown=())
    mask, eight = reading.mine, Card.parse("8S")
    assert _best_discard(view, blind, mask, -1)[0] == Card.parse("KS").index
    assert _best_discard(view, reading, mask, -1)[0] == eight.index
    shares = dict(reading.thrown)
    assert sum(shares.values()) == pytest.approx(1.0)
    # A king is more likely to be thrown than any nine (a high card goes first).
    kings = [Card.parse(t).index for t in ("KC", "KD")]
    nines = [Card.parse(t).index for t in ("9D", "9H", "9S")]
    assert min(shares[k] for k in kings) > max(shares[n] for n in nines)


def test_a_card_above_the_opponents_last_discard_is_less_likely_thrown() -> None:
    """After the box throws a low card, it is unlikely to hold a loose king (it would
    have thrown the king first): against a card no higher than the one it threw, a
    king's chance of being its next discard falls by _ABOVE_LAST."""
    hand = Hand.deal(seed=36)
    for text in ("pass", "pass", "draw stock", "discard 8S", "draw stock"):
        hand.apply(text)
    before = _read(hand.view(Role.CAPTAIN))  # the box has thrown nothing yet
    low = min(hand.view(Role.BOX).hand, key=lambda c: (c.value, c))
    hand.apply(f"discard {low}")
    after = _read(hand.view(Role.CAPTAIN))
    b, a = dict(before.thrown), dict(after.thrown)

    def change(i: int) -> float:  # how the chance that the box holds card i changed
        return after.held[i] / before.held[i]

    # A king and a low card whose chance of being in the box's hand changed alike (the
    # low discard makes its neighbours less likely).
    king = next(i for i in a if i % 13 == 12)
    other = next(i for i in a if _VALUE_OF[i] <= low.value
                 and change(i) == pytest.approx(change(king)))
    assert a[king] / a[other] == pytest.approx(_ABOVE_LAST * b[king] / b[other])
    assert a[king] < b[king]


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_the_expert_lists_a_masks_cards_in_index_order(mask: int) -> None:
    """The expert's table of each suit pattern's cards (built at import from smaller
    patterns) lists exactly the mask's bits, lowest first."""
    assert _bits(mask) == [i for i in range(52) if mask >> i & 1]
