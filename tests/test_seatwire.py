"""The wire of a bot's child (box_gin/checker/seatwire.py): a seat's view, encoded as
plain data, read back whole, through JSON, as the child reads it."""

from __future__ import annotations

import dataclasses
import json
import random

from box_gin import Hand, greedy_bot, parse_cards
from box_gin.actions import knock
from box_gin.checker.seatwire import ACTIONS, decoder, encode
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
