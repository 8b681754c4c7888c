"""The wire of a bot's child (box_gin/checker/seatwire.py): a seat's view, encoded as
plain data, read back whole, through JSON, as the child reads it."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from box_gin import Hand, Role, greedy_bot, parse_cards
from box_gin.actions import discard, knock
from box_gin.checker.seatwire import (
    ACTIONS,
    Histories,
    decoder,
    encode,
    encode_facts,
    question,
    update,
)
from box_gin.hand import SeatView
from box_gin.melds import best_melds
from box_gin.rules import PRESETS


def _views(hands: int) -> list:
    """Every view of every seat in hands of every preset, played by greedy and random
    seats, until each hand ends (the last view shows the result)."""
    rng = random.Random(5)
    out = []
    for n in range(hands):
        rules = list(PRESETS.values())[n % len(PRESETS)]
        hand = Hand.deal(rules, seed=n)
        while True:
            out += [hand.view(role) for role in ("box", "captain", "sitter")]
            if hand.to_play is None:
                break
            view = hand.view(hand.to_play)
            hand.apply(greedy_bot(view) if n % 2 else rng.choice(view.legal_actions))
    return out


def test_every_view_comes_back_whole_through_json() -> None:
    views = _views(24)
    assert len(views) > 500
    decoders = {}
    for view in views:
        if view.result is not None:
            view = dataclasses.replace(view, result=None)  # the wire carries no result
        key = id(view.rules)
        if key not in decoders:
            decoders[key] = decoder(view.rules.to_dict())
        data = json.loads(json.dumps(encode(view)))
        assert decoders[key](data) == view


def test_an_action_outside_the_table_travels_as_its_text() -> None:
    hand = Hand.deal(seed=3)
    view = hand.view("captain")
    cards = parse_cards("2H 3H 4H 7C 7D 7S 9S TS JS QS KD")
    laid = knock(parse_cards("KD")[0], best_melds(cards[:10]).melds)
    unusual = dataclasses.replace(view, legal_actions=(laid, *ACTIONS[:2]))
    data = json.loads(json.dumps(encode(unusual)))
    assert data[9] == [str(laid), 0, 1]
    assert decoder(view.rules.to_dict())(data) == unusual


def test_a_card_is_one_character_that_json_writes_as_it_is() -> None:
    view = Hand.deal(seed=1).view("box")
    text = json.dumps(encode(view))
    assert "\\" not in text and len(encode(view)[3]) == len(view.hand)


def _send(histories: Histories, hand: Hand, view) -> list:
    """The view as the tournament's driver writes it, through JSON."""
    return json.loads(json.dumps(encode(view, histories.part(hand, view.history))))


def test_hands_side_by_side_send_only_new_history_and_come_back_whole(monkeypatch) -> None:
    """Four hands in play at once, three slots: each view of a held hand sends only the
    entries its child has not had, the fourth hand sends its whole history, a slot is
    given again once its hand is over, and every view comes back whole."""
    monkeypatch.setattr(Histories, "SLOTS", 3)
    histories = Histories()
    held: dict[int, SeatView] = {}
    decode = decoder(PRESETS["standard"].to_dict(), held)
    waiting = [Hand.deal(PRESETS["standard"], seed=n) for n in range(10)]
    playing = [waiting.pop() for _ in range(4)]
    sent = whole = views = full = 0
    while playing:
        for hand in list(playing):
            seat = hand.to_play
            assert seat is not None
            roles: list[Role | str] = [seat, "sitter"] if seat is Role.CAPTAIN else [seat]
            for role in roles:  # the sitter: the captain's hand, its history held once
                view = hand.view(role)
                data = _send(histories, hand, view)
                assert decode(data) == view
                history = data[11]
                if history and type(history[0]) is int:
                    assert 0 <= history[0] < 3
                    sent += len(history) - 2
                else:
                    whole += 1
                    sent += len(history)
                views += 1
                full += len(view.history)
            hand.apply(greedy_bot(hand.view(seat)))
            if hand.is_over:
                playing.remove(hand)
                if waiting:
                    playing.append(waiting.pop())
    assert views > 300 and whole > 0
    assert sent < full / 3  # mostly the new entries of each view, not its whole history
    assert len(held) <= 3


def test_a_history_out_of_step_is_refused() -> None:
    """A view that builds on entries the child does not hold is an error, never a guess."""
    view = Hand.deal(seed=2).view("captain")
    data = encode(view, [0, 3, "1:pass"])
    with pytest.raises(ValueError, match="slot 0"):
        decoder(view.rules.to_dict(), {})(data)


def test_the_engine_lists_the_wire_s_own_action_objects() -> None:
    """The legal actions a hand lists are the wire's table's own objects (found by
    identity), and a discard or a knock is made once."""
    card = parse_cards("7H")[0]
    assert discard(card) is discard(card) and knock(card) is knock(card)
    for view in _views(6):
        assert all(any(a is b for b in ACTIONS) for a in view.legal_actions)


def test_a_question_is_the_text_json_writes_of_it() -> None:
    """The tournament writes each question's JSON itself (:func:`question`): for every
    view of hands of every preset, with and without advice, with the history sent whole
    or in part, and with an action outside the table (a knock with its lay-out), the text
    is the json module's own, and reads back as the view."""
    histories, parts, unheld = Histories(), Histories(), Histories()
    unheld.SLOTS = 0  # a child that holds no hand: every history goes whole
    rng = random.Random(3)
    held: dict[int, SeatView] = {}
    decoders = {}
    count = 0
    for n in range(30):
        rules = list(PRESETS.values())[n % len(PRESETS)]
        hand = Hand.deal(rules, seed=n)
        while (seat := hand.to_play) is not None:
            facts = hand.seat_facts(seat)
            advice = rng.choice([None, *facts[10]])
            kind = rng.choice("ap")
            text = question(kind, facts, histories.text(hand, facts[12]), advice)
            data = [kind, encode_facts(facts, parts.part(hand, facts[12])),
                    None if advice is None else str(advice)]
            assert text == json.dumps(data, separators=(",", ":"))
            whole = question(kind, facts, unheld.text(hand, facts[12]), advice)
            assert whole == json.dumps([kind, encode_facts(facts), data[2]],
                                       separators=(",", ":"))
            if id(rules) not in decoders:
                decoders[id(rules)] = decoder(rules.to_dict(), held)
            assert decoders[id(rules)](json.loads(text)[1]) == hand.view(seat)
            count += 1
            hand.apply(greedy_bot(hand.view(seat)))
    cards = parse_cards("2H 3H 4H 7C 7D 7S 9S TS JS QS KD")
    laid = knock(parse_cards("KD")[0], best_melds(cards[:10]).melds)
    facts = Hand.deal(seed=3).seat_facts(Role.CAPTAIN)
    odd = (*facts[:10], (laid, *ACTIONS[:2]), *facts[11:])
    text = question("p", odd, "[]", laid)
    assert text == json.dumps(["p", encode_facts(odd, []), str(laid)], separators=(",", ":"))
    assert count > 600


def _ask(histories: Histories, hand: Hand, role: Role, advice) -> str:
    """One question as the tournament's driver writes it (``SandboxedPlayer.send``):
    what changed since the child's last view of the seat, else the view whole."""
    seat = Role.CAPTAIN if role is Role.SITTER else role
    kind = "a" if role is Role.SITTER else "p"
    held = histories.since(hand, seat, len(hand.history))
    if held is None:
        facts = hand.seat_facts(role)
        return question(kind, facts, histories.text(hand, facts[12], seat), advice)
    legal = tuple(hand.legal_actions()) if hand.to_play is seat else ()
    return update(kind, role, hand, legal, held, advice)


@pytest.mark.parametrize("slots", [4096, 3])
def test_a_view_sent_as_what_changed_comes_back_whole(monkeypatch, slots: int) -> None:
    """Games of every preset played several at a time, as a sandboxed bot's two children
    are asked (the box's child, and the child that plays the captain and advises as the
    sitter, who sees the captain's cards): after a seat's first view of a hand, each view
    goes as what changed since (the cards the seat drew from the stock, which only it
    sees, among them), and every view the children read is the engine's own.  With three
    slots for five hands in play, views beyond them go whole; a child started again
    (every 97th question) holds nothing and is sent the view whole; one child asked about
    both seats of a hand is sent each view whole when the seat changes."""
    monkeypatch.setattr(Histories, "SLOTS", slots)
    rng = random.Random(11)
    presets = list(PRESETS.values())
    waiting = [Hand.deal(presets[n % len(presets)], seed=100 + n) for n in range(24)]
    playing = [waiting.pop() for _ in range(5)]

    def child() -> tuple[Histories, dict]:
        held: dict = {}
        return Histories(), {id(r): decoder(r.to_dict(), held) for r in presets}

    children = {"box": child(), "table": child(), "both": child()}
    asked = changes = drawn = 0
    while playing:
        for hand in list(playing):
            seat = hand.to_play
            assert seat is not None
            roles = [Role.SITTER, seat] if seat is Role.CAPTAIN else [seat]
            for role in roles:
                for name in ("box" if seat is Role.BOX else "table", "both"):
                    asked += 1
                    if asked % 97 == 0:  # the child started again: it holds nothing
                        children[name] = child()
                    histories, decoders = children[name]
                    advice = rng.choice([None, *hand.legal_actions()])
                    text = _ask(histories, hand, role, advice)
                    kind, data, said = json.loads(text)
                    assert said == (None if advice is None else str(advice))
                    assert kind == ("a" if role is Role.SITTER else "p")
                    if data[3] is None:
                        changes += 1
                        drawn += len(data[4])
                    assert decoders[id(hand.rules)](data) == hand.view(role)
            view = hand.view(seat)
            hand.apply(greedy_bot(view) if rng.random() < 0.7
                       else rng.choice(view.legal_actions))
            if hand.is_over:
                playing.remove(hand)
                if waiting:
                    playing.append(waiting.pop())
    assert asked > 1500 and changes > asked / (2 if slots > 5 else 4) and drawn > 100


def test_what_changed_is_refused_by_a_child_without_the_view() -> None:
    """A view sent as what changed builds on the child's last view of the seat: a child
    without it (started again, or holding the other seat's) refuses it, never guesses."""
    hand = Hand.deal(seed=4)
    histories = Histories()
    held: dict = {}
    decode = decoder(hand.rules.to_dict(), held)
    assert decode(json.loads(_ask(histories, hand, Role.CAPTAIN, None))[1]) == \
        hand.view("captain")
    decode(encode(hand.view("box"), [0, 0]))  # the slot now holds the box's view
    hand.apply("pass")
    changed = json.loads(_ask(histories, hand, Role.CAPTAIN, None))[1]
    assert changed[3] is None  # sent as what changed: the driver's record is the captain's
    with pytest.raises(ValueError, match="no view of the captain's seat"):
        decode(changed)
    with pytest.raises(ValueError, match="slot 0"):
        decoder(hand.rules.to_dict(), {})(changed)  # a child started again holds nothing
