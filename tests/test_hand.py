"""One hand as a state machine: docs/rules.md "The deal", "Play", "Knocking", "Drawn hand".

Most tests stack the deck (the ``deal`` fixture of conftest.py) so that a rule can be
played out card by card.
"""

from __future__ import annotations

import random

import bruteforce as bf
import pytest
from bruteforce import Dealer

from box_gin import (
    STANDARD,
    Action,
    ActionKind,
    Card,
    Hand,
    IllegalActionError,
    InvalidCardError,
    Meld,
    Outcome,
    Phase,
    Role,
    Rules,
    full_deck,
    parse_cards,
)

CAPTAIN, BOX = Role.CAPTAIN, Role.BOX

# Captain: runs 2-3-4 of hearts, three sevens, 9C 9D; KS QD dead.  The upcard 9S makes
# a third meld, and then a knock with KS or QD leaves exactly 10.
CAPTAIN_NEAR = "2H 3H 4H 7S 7D 7C 9C 9D KS QD"
# Box: A-2-3 of clubs and much deadwood (no card of it fits the captain's melds).
BOX_LOOSE = "AC 2C 3C 5D 6D 8S JH JC 4S 6S"      # deadwood 49


def cards(text: str) -> set[Card]:
    return set(parse_cards(text))


def play(hand: Hand, *actions: str) -> None:
    for action in actions:
        hand.apply(action)
        assert bf.conservation_problem(hand) is None


def assert_illegal(hand: Hand, action: object, words: str = "") -> None:
    before = bf.hand_state(hand)
    with pytest.raises(IllegalActionError) as err:
        hand.apply(action)  # type: ignore[arg-type]
    assert bf.hand_state(hand) == before, "a rejected action changed the hand"
    assert words in str(err.value)


# -- the deal ---------------------------------------------------------------------------

def test_the_deal_follows_the_engine_convention() -> None:
    deck = list(full_deck())
    random.Random(8).shuffle(deck)
    hand = Hand.deal(deck=deck)
    assert set(hand.cards(CAPTAIN)) == {deck[i] for i in range(0, 20, 2)}
    assert set(hand.cards(BOX)) == {deck[i] for i in range(1, 20, 2)}
    assert hand.cards(Role.SITTER) == ()
    assert hand.discard_pile == [deck[20]] and hand.upcard == deck[20]
    assert hand.stock_size == 31
    # The stock is dealt from position 21 down: draw every card and check the order.
    play(hand, "pass", "pass")
    drawn = []
    while not hand.is_over:
        player = hand.to_play
        assert player is not None
        before = set(hand.cards(player))
        play(hand, "draw stock")
        (card,) = set(hand.cards(player)) - before
        drawn.append(card)
        play(hand, f"discard {card}")   # a card drawn from the stock may be thrown back
    assert drawn == deck[21:50]
    assert hand.result is not None and hand.result.outcome is Outcome.DRAWN


def test_a_deck_may_be_given_as_text() -> None:
    deck = list(full_deck())
    random.Random(9).shuffle(deck)
    text = " ".join(map(str, deck))
    assert Hand.deal(deck=text).deck == Hand.deal(deck=deck).deck == tuple(deck)


@pytest.mark.parametrize("deck", [
    list(full_deck())[:51],
    [*list(full_deck())[:51], full_deck()[0]],
    " ".join(map(str, full_deck()[:50])),
    [*list(full_deck())[:51], "AS"],
])
def test_a_deck_is_the_52_different_cards(deck: object) -> None:
    with pytest.raises(InvalidCardError):
        Hand.deal(deck=deck)  # type: ignore[arg-type]


def test_a_seeded_deal_is_reproducible() -> None:
    assert Hand.deal(seed=5).deck == Hand.deal(seed=5).deck
    assert Hand.deal(seed=5).deck != Hand.deal(seed=6).deck


# -- the upcard offer -------------------------------------------------------------------

def test_captain_takes_the_upcard(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC")
    assert (hand.phase, hand.to_play) == (Phase.UPCARD_OFFER, CAPTAIN)
    assert [str(a) for a in hand.legal_actions()] == ["take", "pass"]
    play(hand, "take")
    assert (hand.phase, hand.to_play, hand.taken_card) == (Phase.DISCARD, CAPTAIN,
                                                           Card.parse("9S"))
    assert Card.parse("9S") in hand.cards(CAPTAIN) and hand.discard_pile == []
    play(hand, "discard KS")
    # Then the box plays a normal turn: it may draw from either pile.
    assert (hand.phase, hand.to_play) == (Phase.DRAW, BOX)
    assert {str(a) for a in hand.legal_actions()} == {"draw stock", "draw discard"}
    play(hand, "draw discard")
    assert Card.parse("KS") in hand.cards(BOX)


def test_captain_passes_and_box_takes(deal: Dealer) -> None:
    hand = deal(BOX_LOOSE, CAPTAIN_NEAR, "9S", "KD QC")   # the box holds the near hand
    play(hand, "pass")
    assert (hand.phase, hand.to_play) == (Phase.UPCARD_OFFER, BOX)
    assert [str(a) for a in hand.legal_actions()] == ["take", "pass"]
    play(hand, "take")
    assert (hand.phase, hand.to_play) == (Phase.DISCARD, BOX)
    play(hand, "discard QD")
    # Then the captain plays a normal turn.
    assert (hand.phase, hand.to_play) == (Phase.DRAW, CAPTAIN)
    assert {str(a) for a in hand.legal_actions()} == {"draw stock", "draw discard"}
    play(hand, "draw discard")
    assert Card.parse("QD") in hand.cards(CAPTAIN)


def test_both_pass_then_captain_must_draw_from_the_stock(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC")
    play(hand, "pass", "pass")
    assert (hand.phase, hand.to_play) == (Phase.DRAW, CAPTAIN)
    assert [str(a) for a in hand.legal_actions()] == ["draw stock"]
    assert_illegal(hand, "draw discard", "stock")
    play(hand, "draw stock")
    assert Card.parse("KD") in hand.cards(CAPTAIN)
    play(hand, "discard KD")
    # The box may then take the discard as usual.
    assert {str(a) for a in hand.legal_actions()} == {"draw stock", "draw discard"}
    play(hand, "draw discard")
    assert Card.parse("KD") in hand.cards(BOX)


@pytest.mark.parametrize("action", ["draw stock", "draw discard", "discard 2H", "knock KS",
                                    "big gin"])
def test_only_take_or_pass_during_the_upcard_offer(deal: Dealer, action: str) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S")
    assert_illegal(hand, action)
    play(hand, "pass")
    assert_illegal(hand, action)


@pytest.mark.parametrize("action", ["take", "pass", "discard 2H", "knock 2H"])
def test_take_and_pass_belong_to_the_offer(deal: Dealer, action: str) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S")
    play(hand, "pass", "pass")
    assert_illegal(hand, action)


def test_take_and_knock_on_the_first_turn(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S")
    play(hand, "take")
    assert "knock KS" in {str(a) for a in hand.legal_actions()}
    play(hand, "knock KS")
    result = hand.result
    assert result is not None and hand.is_over
    assert (result.outcome, result.knocker, result.winner) == (Outcome.KNOCK, CAPTAIN,
                                                               CAPTAIN)
    assert result.knocker_layout is not None and result.defender_layout is not None
    assert result.knocker_layout.deadwood_value == 10            # QD, at the limit
    assert result.defender_layout.deadwood_value == 49
    assert result.points == 39
    assert result.knock_card == Card.parse("KS")


def test_box_takes_and_knocks_on_the_first_turn(deal: Dealer) -> None:
    hand = deal(BOX_LOOSE, CAPTAIN_NEAR, "9S")
    play(hand, "pass", "take", "knock QD")
    result = hand.result
    assert result is not None
    assert (result.knocker, result.winner, result.points) == (BOX, BOX, 39)
    assert result.box_won is True


# -- discarding -------------------------------------------------------------------------

def test_the_card_just_taken_may_not_be_thrown_back(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC")
    play(hand, "take")
    assert_illegal(hand, "discard 9S", "9S")
    assert_illegal(hand, "knock 9S")
    assert Action.parse("discard 9S") not in hand.legal_actions()
    analysis = hand.analysis()
    assert analysis is not None and Card.parse("9S") not in analysis.deadwood_after
    # Later in the hand, from the discard pile too.
    play(hand, "discard 2H", "draw discard")
    assert_illegal(hand, "discard 2H", "2H")
    play(hand, "discard 5D")


def test_the_option_allows_throwing_back_the_taken_card(deal: Dealer) -> None:
    rules = Rules(may_discard_taken_card=True)
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC", rules=rules)
    play(hand, "take")
    assert Action.parse("discard 9S") in hand.legal_actions()
    play(hand, "discard 9S")
    assert hand.discard_pile == [Card.parse("9S")]
    assert Card.parse("9S") not in hand.cards(CAPTAIN)


def test_a_card_drawn_from_the_stock_may_be_thrown_back(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC")
    play(hand, "pass", "pass", "draw stock")
    assert Action.parse("discard KD") in hand.legal_actions()
    play(hand, "discard KD", "draw stock", "discard QC")
    assert hand.discard_pile[-2:] == [Card.parse("KD"), Card.parse("QC")]


@pytest.mark.parametrize("action", ["discard AS", "knock AS", "discard 5D", "draw stock",
                                    "draw discard", "take"])
def test_discarding_needs_a_held_card(deal: Dealer, action: str) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC")
    play(hand, "take")
    assert_illegal(hand, action)


# -- knocking ---------------------------------------------------------------------------

def test_a_knock_over_the_limit_is_illegal(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC")
    play(hand, "pass", "pass", "draw stock")          # KD: 9C 9D KS QD KD left over
    assert not [a for a in hand.legal_actions() if a.kind is ActionKind.KNOCK]
    assert_illegal(hand, "knock KD", "10")
    play(hand, "discard KD")


def test_nobody_is_forced_to_knock(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S")
    play(hand, "take", "discard QD")                  # could have knocked
    assert not hand.is_over


def test_a_knock_with_explicit_melds(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S")
    play(hand, "take")
    assert_illegal(hand, "knock KS [2H 3H 4H] [7C 7D 7S]", "37")     # 9s left out: 37
    assert_illegal(hand, "knock KS [2H 3H 4H] [7C 7D 7S] [9C 9D 9S] [QD KS JS]")
    assert_illegal(hand, "knock KS [2H 3H 4H] [7C 7D 7S] [9C 9D 9S KS]")
    assert_illegal(hand, "knock KS [2H 3H 4H] [7C 7D 7S] [9C 9D 9S] [9C 9D 9S]")
    play(hand, "knock KS [2H 3H 4H] [7C 7D 7S] [9C 9D 9S]")
    assert hand.result is not None and hand.result.knocker_layout is not None
    assert {frozenset(m.cards) for m in hand.result.knocker_layout.melds} == {
        frozenset(parse_cards(t)) for t in ("2H 3H 4H", "7C 7D 7S", "9C 9D 9S")}


def test_an_explicit_lay_out_need_not_be_the_best(deal: Dealer) -> None:
    # The captain could go gin (2-3-4-5 of hearts) but lays out 3-4-5 and keeps the 2H
    # as deadwood: a knock of 2, and the box's 6H may be laid off on 3-4-5.
    hand = deal("2H 3H 4H 5H 7S 7D 7C 9C 9D 9S", "6H AC 2C 3C JD JH JS QH QS 8C", "KC",
                "KD")
    play(hand, "pass", "pass", "draw stock", "knock KD [3H 4H 5H] [7C 7D 7S] [9C 9D 9S]")
    result = hand.result
    assert result is not None and result.knocker_layout is not None
    assert result.defender_layout is not None
    assert result.outcome is Outcome.KNOCK
    assert result.knocker_layout.deadwood == (Card.parse("2H"),)
    assert [str(lo.card) for lo in result.defender_layout.layoffs] == ["6H"]
    assert result.defender_layout.deadwood_value == 28       # QH QS 8C
    assert result.points == 26


def test_gin_against_a_defender_with_no_deadwood(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S KS", "AC 2C 3C 4C JD JH JS 6D 6H 6S", "5H")
    play(hand, "take", "knock KS")
    result = hand.result
    assert result is not None and result.defender_layout is not None
    assert result.outcome is Outcome.GIN
    assert result.defender_layout.deadwood_value == 0
    assert (result.winner, result.points) == (CAPTAIN, 25)     # never undercut


def test_no_layoffs_on_gin(deal: Dealer) -> None:
    # The box's 6H would extend the captain's 2-5 of hearts, but after gin it stays.
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S KS", "AC 2C 3C 8D 6H JH JS 6D 8C KC", "5H")
    play(hand, "take", "knock KS")
    result = hand.result
    assert result is not None and result.defender_layout is not None
    assert result.outcome is Outcome.GIN
    assert result.defender_layout.layoffs == ()
    assert Card.parse("6H") in result.defender_layout.deadwood
    assert result.defender_layout.deadwood_value == 58
    assert result.points == 25 + 58


def test_chained_layoffs_at_both_ends_of_a_run(deal: Dealer) -> None:
    hand = deal("5H 6H 7H 9C 9D 9S QC QD QS 2C", "3H 4H 8H 9H AS 2S 3S JC TD KH", "KS",
                "KD")
    play(hand, "pass", "pass", "draw stock", "knock KD")
    result = hand.result
    assert result is not None and result.defender_layout is not None
    assert {str(lo.card) for lo in result.defender_layout.layoffs} == {"3H", "4H", "8H",
                                                                       "9H"}
    assert set(result.defender_layout.deadwood) == cards("JC TD KH")
    assert (result.outcome, result.winner, result.points) == (Outcome.KNOCK, CAPTAIN, 28)


def test_undercut_on_equal_deadwood(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C", "AC 2C 3C JD JH JS QH QS QC 5D", "KS",
                "KD")
    play(hand, "pass", "pass", "draw stock", "knock KD")
    result = hand.result
    assert result is not None
    assert result.outcome is Outcome.UNDERCUT
    assert (result.knocker, result.winner, result.points) == (CAPTAIN, BOX, 10)
    assert result.box_won is True


# -- the drawn hand ---------------------------------------------------------------------

def _draw_down(hand: Hand, stock_left: int) -> None:
    """Both players draw from the stock and throw the drawn card back, until
    ``stock_left`` cards remain and a player is about to discard."""
    play(hand, "pass", "pass")
    while True:
        player = hand.to_play
        assert player is not None
        before = set(hand.cards(player))
        play(hand, "draw stock")
        if hand.stock_size == stock_left:
            return
        (drawn,) = set(hand.cards(player)) - before
        play(hand, f"discard {drawn}")


def test_the_hand_is_drawn_when_two_stock_cards_remain_after_a_discard(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S AD", BOX_LOOSE, "KS")
    _draw_down(hand, 3)
    to_play = hand.to_play
    assert to_play is not None
    play(hand, f"discard {max(hand.cards(to_play))}")         # 3 left: play goes on
    assert not hand.is_over and hand.stock_size == 3
    play(hand, "draw stock")
    assert hand.stock_size == 2 and not hand.is_over
    to_play = hand.to_play
    assert to_play is not None
    play(hand, f"discard {max(hand.cards(to_play))}")
    result = hand.result
    assert result is not None and hand.is_over
    assert (result.outcome, result.winner, result.points) == (Outcome.DRAWN, None, 0)
    assert result.box_won is None and hand.stock_size == 2
    assert hand.legal_actions() == []
    assert_illegal(hand, "draw stock", "over")


def test_a_knock_is_still_allowed_with_two_stock_cards_left(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S AD", BOX_LOOSE, "KS")
    _draw_down(hand, 2)
    assert hand.to_play is CAPTAIN      # the 29th draw is the captain's
    (drawn,) = set(hand.cards(CAPTAIN)) - cards("2H 3H 4H 7S 7D 7C 9C 9D 9S AD")
    assert Action.parse(f"knock {drawn}") in hand.legal_actions()
    play(hand, f"knock {drawn}")
    result = hand.result
    assert result is not None and result.outcome is Outcome.KNOCK
    assert result.knocker_layout is not None and result.knocker_layout.deadwood_value == 1


# -- variants ---------------------------------------------------------------------------

OKLAHOMA = Rules(oklahoma=True)
KNOCK_5 = "2H 3H 4H 7S 7D 7C 9C 9D 9S 5C"               # knocks with 5 after a discard


@pytest.mark.parametrize(("upcard", "limit", "can_knock"), [
    ("4D", 4, False), ("5D", 5, True), ("8H", 8, True), ("KH", 10, True), ("TC", 10, True),
    ("AD", 0, False),
])
def test_oklahoma_upcard_sets_the_knock_limit(deal: Dealer, upcard: str, limit: int,
                                              can_knock: bool) -> None:
    hand = deal(KNOCK_5, BOX_LOOSE.replace("5D", "KC"), upcard, "QH", rules=OKLAHOMA)
    assert hand.knock_limit == limit
    play(hand, "pass", "pass", "draw stock")
    knocks = [a for a in hand.legal_actions() if a.kind is ActionKind.KNOCK]
    assert bool(knocks) is can_knock
    if can_knock:
        play(hand, "knock QH")
        assert hand.result is not None and hand.result.knock_limit == limit
    else:
        assert_illegal(hand, "knock QH", str(limit))


def test_oklahoma_ace_means_gin_only(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S KS", BOX_LOOSE, "AD", "5H", rules=OKLAHOMA)
    play(hand, "pass", "pass", "draw stock")
    assert [str(a) for a in hand.legal_actions() if a.kind is ActionKind.KNOCK] == ["knock KS"]
    play(hand, "knock KS")
    assert hand.result is not None and hand.result.outcome is Outcome.GIN


BOX_34 = "AC 2C 3C JD JH JS QH QS 6D 8C"                 # deadwood 34


@pytest.mark.parametrize(("rules", "upcard", "points", "doubled"), [
    (Rules(oklahoma=True, oklahoma_spades_double=True), "5S", 2 * 29, True),
    (Rules(oklahoma=True, oklahoma_spades_double=True), "5D", 29, False),
    (Rules(oklahoma=True), "5S", 29, False),
    (STANDARD, "5S", 29, False),
])
def test_oklahoma_spade_upcard_doubles_the_score(deal: Dealer, rules: Rules, upcard: str,
                                                 points: int, doubled: bool) -> None:
    hand = deal(KNOCK_5, BOX_34, upcard, "KD", rules=rules)
    assert hand.doubled is doubled
    play(hand, "pass", "pass", "draw stock", "knock KD")
    result = hand.result
    assert result is not None
    assert (result.winner, result.points, result.doubled) == (CAPTAIN, points, doubled)


def test_big_gin(deal: Dealer) -> None:
    rules = Rules(big_gin=True)
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S 5H", BOX_34, "6H", rules=rules)
    play(hand, "take")
    assert Action.parse("big gin") in hand.legal_actions()
    play(hand, "big gin")
    result = hand.result
    assert result is not None and result.knocker_layout is not None
    assert result.outcome is Outcome.BIG_GIN and result.knock_card is None
    assert len(result.knocker_layout.cards) == 11 and not result.knocker_layout.deadwood
    assert (result.winner, result.points) == (CAPTAIN, 31 + 34)


def test_big_gin_is_off_by_default(deal: Dealer) -> None:
    hand = deal("2H 3H 4H 7S 7D 7C 9C 9D 9S 5H", BOX_34, "6H")
    play(hand, "take")
    assert Action.parse("big gin") not in hand.legal_actions()
    assert_illegal(hand, "big gin", "big gin")
    play(hand, "knock 2H")      # plain gin instead: 3-6H, the sevens, the nines
    assert hand.result is not None and hand.result.outcome is Outcome.GIN
    assert hand.result.points == 25 + 34


def test_big_gin_needs_all_eleven_cards_melded(deal: Dealer) -> None:
    hand = deal(KNOCK_5, BOX_34, "6H", rules=Rules(big_gin=True))
    play(hand, "take")
    assert_illegal(hand, "big gin", "11")


# -- actions, views, records ------------------------------------------------------------

@pytest.mark.parametrize("text", ["take", "pass", "draw stock", "draw discard",
                                  "discard 7H", "knock TS", "big gin",
                                  "knock TS [2H 3H 4H] [7C 7D 7S]", "big gin [2H 3H 4H]"])
def test_action_text_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text and Action.parse(str(action)) == action
    assert Action.parse(text.upper() if "[" not in text else text) == action
    assert eval(repr(action), {"Action": Action.parse}) == action


@pytest.mark.parametrize("text", ["", "discard", "discard 1H", "discard 7H 8H", "knock",
                                  "draw", "draw card", "take 7H", "pass pass",
                                  "discard 7H [7H 8H 9H]", "knock 7H [7H 8H]",
                                  "knock 7H [2H 3H 4H", "knock 7H [2H 3H 4H] junk",
                                  "[2H 3H 4H]", "hello"])
def test_bad_action_text_is_illegal(text: str) -> None:
    with pytest.raises(IllegalActionError):
        Action.parse(text)


SEVEN = Card.parse("7H")
RUN = Meld("2H 3H 4H")


@pytest.mark.parametrize(("kind", "card", "melds"), [
    ("no such kind", None, None),
    (None, None, None),
    (ActionKind.DISCARD, None, None),           # a discard names its card
    (ActionKind.KNOCK, None, None),
    (ActionKind.DISCARD, "7H", None),           # as a Card, not as text
    (ActionKind.TAKE, SEVEN, None),             # a take names none
    (ActionKind.DISCARD, SEVEN, (RUN,)),        # only a knock lays out melds
    (ActionKind.KNOCK, SEVEN, ("2H 3H 4H",)),   # melds are Melds
    (ActionKind.KNOCK, SEVEN, 5),
    (ActionKind.KNOCK, SEVEN, ()),
])
def test_malformed_actions_are_illegal(kind: object, card: object, melds: object) -> None:
    with pytest.raises(IllegalActionError):
        Action(kind, card, melds)  # type: ignore[arg-type]


def test_an_action_with_a_text_kind_is_the_same_action() -> None:
    # A kind given as text is read as the kind, never mistaken for another.
    action = Action("discard", Card.parse("7H"))  # type: ignore[arg-type]
    assert action == Action.parse("discard 7H") and action.kind is ActionKind.DISCARD


def test_a_text_kind_discard_is_a_discard_not_a_knock(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC")
    play(hand, "pass", "pass", "draw stock")
    hand.apply(Action("discard", Card.parse("KD")))  # type: ignore[arg-type]
    assert not hand.is_over and hand.discard_pile[-1] == Card.parse("KD")


def test_apply_rejects_what_is_not_an_action(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S")
    for junk in (None, 42, ["take"], b"take", Card.parse("9S")):
        assert_illegal(hand, junk)


def test_views_show_each_seat_its_own(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S")
    play(hand, "take")
    captain, box, sitter = (hand.view(r) for r in (CAPTAIN, BOX, Role.SITTER))
    assert set(captain.hand) == cards(CAPTAIN_NEAR + " 9S") == set(sitter.hand)
    assert set(box.hand) == cards(BOX_LOOSE)
    assert captain.my_turn and sitter.my_turn and not box.my_turn
    assert captain.legal_actions and not box.legal_actions
    assert captain.taken_card == Card.parse("9S") and box.taken_card is None
    # The box saw the captain take the 9S.
    assert box.opponent_known == (Card.parse("9S"),) and box.opponent_card_count == 11
    assert captain.opponent_known == () and captain.stock_size == 31
    play(hand, "discard 9C")
    assert hand.view(BOX).opponent_known == (Card.parse("9S"),)
    assert hand.view("box").top_discard == Card.parse("9C")


def test_a_hand_replays_from_its_record(deal: Dealer) -> None:
    hand = deal(CAPTAIN_NEAR, BOX_LOOSE, "9S", "KD QC")
    play(hand, "pass", "pass", "draw stock", "discard KD", "draw discard", "discard 8S")
    copy = Hand.replay(hand.record())
    assert bf.hand_state(copy) == bf.hand_state(hand)
    play(hand, "draw stock")
    assert bf.hand_state(copy) != bf.hand_state(hand)


def test_melds_in_a_knock_are_melds() -> None:
    action = Action.parse("knock TS [2H 3H 4H] [7C 7D 7S]")
    assert action.melds == (Meld("2H 3H 4H"), Meld("7C 7D 7S"))
