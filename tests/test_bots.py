"""Bots: plain functions of a seat's view; the sitter's advice."""

from __future__ import annotations

import random

import bruteforce as bf
import pytest
from bruteforce import Dealer

from box_gin import (
    Action,
    ActionKind,
    Hand,
    IllegalActionError,
    Role,
    Rules,
    advise,
    greedy_bot,
    random_bot,
    seeded_random_bot,
)


def test_bots_refuse_when_it_is_not_their_turn() -> None:
    hand = Hand.deal(seed=3)
    for bot in (greedy_bot, seeded_random_bot(1)):
        with pytest.raises(IllegalActionError):
            bot(hand.view(Role.BOX))


def test_a_seeded_random_bot_replays() -> None:
    def play(seed: int) -> list[str]:
        hand = Hand.deal(seed=seed)
        bot = seeded_random_bot(seed)
        while not hand.is_over:
            assert hand.to_play is not None
            hand.apply(bot(hand.view(hand.to_play)))
        return [str(a) for _r, a in hand.history]

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_random_bot_uses_the_generator_given() -> None:
    view = Hand.deal(seed=2).view(Role.CAPTAIN)
    picks = {str(random_bot(view, random.Random(s))) for s in range(30)}
    assert picks == {"take", "pass"}


def test_bots_always_play_a_legal_action() -> None:
    for seed in range(40):
        hand = Hand.deal(Rules(big_gin=seed % 2 == 0), seed=seed)
        bots = {Role.CAPTAIN: greedy_bot, Role.BOX: seeded_random_bot(seed)}
        while not hand.is_over:
            role = hand.to_play
            assert role is not None
            view = hand.view(role)
            action = bots[role](view)
            assert action in view.legal_actions
            hand.apply(action)


def test_greedy_knocks_when_it_can(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D KS QD", "AC 2C 3C 5D 6D 8S JH JC 4S 6S", "9S")
    assert greedy_bot(hand.view(Role.CAPTAIN)) == Action.parse("take")
    hand.apply("take")
    action = greedy_bot(hand.view(Role.CAPTAIN))
    assert action.kind is ActionKind.KNOCK
    assert bf.min_deadwood(set(hand.cards(Role.CAPTAIN)) - {action.card}) <= 10


def test_greedy_goes_gin_and_big_gin(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S 5H", "AC 2C 3C JD JH JS QH QS 6D 8C", "6H",
                rules=Rules(big_gin=True))
    hand.apply("take")
    assert greedy_bot(hand.view(Role.CAPTAIN)) == Action.parse("big gin")
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S 5H", "AC 2C 3C JD JH JS QH QS 6D 8C", "6H")
    hand.apply("take")
    action = greedy_bot(hand.view(Role.CAPTAIN))
    assert action.kind is ActionKind.KNOCK
    assert bf.min_deadwood(set(hand.cards(Role.CAPTAIN)) - {action.card}) == 0


def test_greedy_passes_an_upcard_that_does_not_help(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D KS QD", "AC 2C 3C 5D 6D 8S JH JC 4S 6S", "KH")
    assert greedy_bot(hand.view(Role.CAPTAIN)) == Action.parse("pass")


def test_greedy_discards_to_least_deadwood() -> None:
    for seed in range(30):
        hand = Hand.deal(seed=seed)
        hand.apply("pass")
        hand.apply("pass")
        hand.apply("draw stock")
        held = hand.cards(Role.CAPTAIN)
        action = greedy_bot(hand.view(Role.CAPTAIN))
        assert action.card is not None
        after = bf.deadwood_after_each_discard(held)
        assert after[bf.key(action.card)] == min(after.values())


def test_advice_gives_an_action_and_a_reason() -> None:
    hand = Hand.deal(seed=1)
    advice = advise(hand.view(Role.SITTER))
    assert advice.action in hand.legal_actions()
    assert advice.reason and str(advice).startswith(advice.action.label)


def test_the_greedy_bot_never_throws_back_the_taken_card() -> None:
    checked = 0
    for seed in range(30):
        hand = Hand.deal(seed=seed)
        while not hand.is_over:
            role = hand.to_play
            assert role is not None
            view = hand.view(role)
            action = greedy_bot(view)
            if view.taken_card is not None:
                checked += 1
                assert action.card != view.taken_card
            hand.apply(action)
    assert checked > 10


def test_the_seat_driver_stops_for_a_person_and_when_the_table_asks() -> None:
    from box_gin import Match
    from box_gin.bots.driver import bots_decide, play_bots

    match = Match.new(["Ada", "Bo", "Cy"], seed=5)
    bots = {"Bo": greedy_bot, "Cy": greedy_bot}
    played: list[str] = []

    def apply(name: str, action: object) -> bool:
        played.append(name)
        match.apply(action, player=name)  # type: ignore[arg-type]
        return stop_after is not None and len(played) >= stop_after

    stop_after: int | None = 1  # the table asks to stop after one action
    assert match.to_play == "Cy" and match.role_of("Ada").value == "box"  # this seed's
    play_bots(match, bots_decide(match, bots), apply)
    assert played == ["Cy"]
    stop_after = None  # now the bots play on until Ada must act or the match ends
    play_bots(match, bots_decide(match, bots), apply)
    assert "Ada" not in played
    assert match.to_play == "Ada"  # the box acts in every hand: the match waits for her
    count = len(played)
    play_bots(match, bots_decide(match, bots), apply)  # a person's turn: nothing to do
    assert len(played) == count
