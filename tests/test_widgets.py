"""The teaching widgets, driven without a browser: set values, click, read the HTML.

Every expected value is computed with the engine, never copied from a widget's output.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from box_gin import (
    Hand,
    Match,
    Meld,
    Phase,
    Role,
    Rules,
    best_discards,
    best_melds,
    greedy_bot,
    lay_off,
    parse_cards,
)
from box_gin.actions import ActionKind
from box_gin.i18n import get_language, set_language
from box_gin.views.html import result_html, score_line
from box_gin.widgets import (
    CardButton,
    DealWidget,
    GameTable,
    KnockTrainer,
    MeldExplorer,
    ScoringWidget,
)
from box_gin.widgets.base import css_key


@pytest.fixture(autouse=True)
def english():
    before = get_language()
    set_language("en")
    yield
    set_language(before)


def classes(widget) -> tuple[str, ...]:
    return tuple(widget._dom_classes)


# -- cards and buttons ------------------------------------------------------------------

def test_card_button_looks_like_its_card_and_has_a_spoken_name():
    red, black = CardButton(parse_cards("7H")[0]), CardButton(parse_cards("QS")[0])
    assert red.description == "7♥" and red.tooltip == "seven of hearts"
    assert {"bg-card-button", "bg-red", "bg-card-7H"} <= set(classes(red))
    assert "bg-black" in classes(black)
    red.selected = True
    assert "bg-selected" in classes(red)
    red.selected = False
    assert "bg-selected" not in classes(red)


def test_buttons_have_stable_css_classes():
    assert css_key("draw stock") == "bg-btn-draw-stock"
    table = GameTable(seed=2, chart=False)
    for key, button in table.buttons.items():
        assert {"bg-btn", css_key(key)} <= set(classes(button))


# -- the Deal widget ----------------------------------------------------------------------

def test_deal_widget_shows_the_engines_deal():
    deal = DealWidget(seed=7, players=["Ada", "Ben", "Cy"])
    match = Match.new(["Ada", "Ben", "Cy"], seed=7)
    assert deal.match.roles == match.roles
    html = deal.deal_readout.value
    for role in (Role.BOX, Role.CAPTAIN):
        for card in match.hand.cards(role):
            assert f'data-card="{card!r}"' in html
    assert f"{match.hand.stock_size} cards in the stock" in html
    assert f'data-card="{match.hand.upcard!r}"' in html
    for name in ("Ada", "Ben", "Cy"):
        assert name in deal.roles_readout.value


def test_deal_button_deals_from_the_seed_box():
    deal = DealWidget(seed=7)
    deal.seed_input.value = 2024
    deal.buttons["deal"].click()
    assert deal.hand.cards(Role.BOX) == Match.new(deal.players, seed=2024).hand.cards(Role.BOX)


def test_shuffle_button_picks_a_new_seed_and_deals_it():
    deal = DealWidget(seed=7)
    deal.buttons["shuffle"].click()
    seed = deal.seed_input.value
    assert seed != 7
    assert deal.hand.upcard == Match.new(deal.players, seed=seed).hand.upcard


# -- the Meld Explorer ------------------------------------------------------------------

def test_meld_explorer_shows_the_best_arrangement():
    explorer = MeldExplorer("4H 5H 6H 7H 7S 7D KC")
    best = best_melds("4H 5H 6H 7H 7S 7D KC")
    assert explorer.best == best
    assert f"Least deadwood: {best.deadwood_value}" in explorer.deadwood_readout.value
    for meld in best.melds:
        assert f'data-meld="{meld}"' in explorer.best_readout.value
    in_best = {c for m in best.melds for c in m.cards}
    for button in explorer.hand_buttons:
        assert ("bg-best" in classes(button)) == (button.card in in_best)


def test_clicking_the_deck_adds_and_removes_cards():
    explorer = MeldExplorer()
    card = parse_cards("9D")[0]
    explorer.deck_buttons[card].click()
    assert explorer.cards == (card,) and explorer.deck_buttons[card].selected
    explorer.deck_buttons[card].click()
    assert explorer.cards == () and not explorer.deck_buttons[card].selected


def test_deal_and_clear_buttons():
    explorer = MeldExplorer(seed=3)
    explorer.buttons["deal"].click()
    assert len(explorer.cards) == 10
    assert f"Least deadwood: {best_melds(explorer.cards).deadwood_value}" in \
        explorer.deadwood_readout.value
    explorer.buttons["clear"].click()
    assert explorer.cards == () and "Choose some cards" in explorer.compare_readout.value


def test_make_meld_and_undo_meld_compare_with_the_best():
    explorer = MeldExplorer("4H 5H 6H 7H 7S 7D KC")
    for card in ("4H", "5H", "6H", "7H"):
        explorer.hand_button(card).click()
    assert explorer.hand_button("4H").selected
    explorer.buttons["make meld"].click()
    mine = best_melds("7S 7D KC").deadwood_value
    assert explorer.mine.melds == (Meld("4H 5H 6H 7H"),)
    assert explorer.mine.deadwood_value == mine
    gap = mine - explorer.best.deadwood_value
    assert f"{gap} more than the best" in explorer.compare_readout.value
    assert "bg-in-meld" in classes(explorer.hand_button("5H"))
    explorer.buttons["undo meld"].click()
    assert explorer.my_melds == [] and "bg-in-meld" not in classes(explorer.hand_button("5H"))


def test_make_meld_reports_the_engines_reason_for_a_bad_meld():
    explorer = MeldExplorer("QH KH AH 2C")
    for card in ("QH", "KH", "AH"):
        explorer.hand_button(card).click()
    explorer.buttons["make meld"].click()
    assert explorer.my_melds == []
    with pytest.raises(ValueError) as err:
        Meld("QH KH AH")
    assert str(err.value).split(": ", 1)[1].replace("'", "&#x27;") in explorer.message.value


def test_a_bad_meld_is_explained_as_a_set_and_as_a_run_in_an_error_box():
    # 7H 7S 8D is neither: the message must not assume a set was meant
    explorer = MeldExplorer("7H 7S 8D KC")
    for card in ("7H", "7S", "8D"):
        explorer.hand_button(card).click()
    explorer.buttons["make meld"].click()
    assert explorer.my_melds == []
    message = explorer.message.value
    assert 'class="bg-readout bg-error"' in message
    assert "the cards of a set all have the same rank" in message
    assert "the cards of a run all have the same suit" in message
    assert "7♥ 7♠ 8♦" in message


def test_make_meld_with_no_card_chosen_says_what_to_do():
    explorer = MeldExplorer("7H 7S 7D")
    explorer.buttons["make meld"].click()
    assert explorer.my_melds == [] and "bg-error" in explorer.message.value
    assert "First click the cards" in explorer.message.value


def test_meld_explorer_states_each_deadwood_value_once():
    explorer = MeldExplorer("4H 5H 6H 7H 7S 7D KC")
    best = explorer.best
    # the best frame shows cards only; the number is the "Least deadwood" line's
    assert "bg-deadwood-value" not in explorer.best_readout.value
    assert "bg-deadwood-value" not in explorer.mine_readout.value
    assert explorer.deadwood_readout.value.count(str(best.deadwood_value)) == 1
    assert 'class="bg-deadwood"' in explorer.best_readout.value      # KC is still shown


def test_card_buttons_carry_no_inline_colour_that_would_hide_their_classes():
    explorer = MeldExplorer("4H 5H 6H 7S")
    for card in ("4H", "5H", "6H"):
        explorer.hand_button(card).click()
    explorer.buttons["make meld"].click()
    explorer.hand_button("7S").click()
    for button in explorer.hand_buttons:
        assert button.style.button_color is None and button.style.text_color is None
    assert "bg-in-meld" in classes(explorer.hand_button("4H"))
    assert "bg-selected" in classes(explorer.hand_button("7S"))


# -- the Knock Trainer ---------------------------------------------------------------------

def test_knock_trainer_click_shows_deadwood_and_knock_verdict():
    cards = "2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD"
    trainer = KnockTrainer(cards)
    analysis = best_discards(cards)
    for text, verdict in (("KD", "bg-may-knock"), ("5C", "bg-may-knock"), ("2H", "bg-no-knock")):
        trainer.card_button(text).click()
        card = trainer.chosen
        assert trainer.card_button(text).selected
        assert f"deadwood left {analysis.deadwood_after[card]}" in trainer.deadwood_readout.value
        assert verdict in trainer.verdict_readout.value
        assert trainer.layout_readout.value  # the arrangement after the discard


def test_knock_trainer_says_gin():
    trainer = KnockTrainer("AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD")
    trainer.card_button("KD").click()
    assert "bg-gin" in trainer.verdict_readout.value


def test_knock_trainer_forbids_the_card_just_taken():
    trainer = KnockTrainer("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD", forbidden="KD")
    assert "bg-forbidden" in classes(trainer.card_button("KD"))
    trainer.card_button("KD").click()
    assert "bg-illegal" in trainer.verdict_readout.value


def test_reveal_button_shows_the_engines_best_discards():
    trainer = KnockTrainer(seed=4)
    assert trainer.reveal_readout.value == ""
    trainer.buttons["reveal"].click()
    expected = best_discards(trainer.cards, forbidden=trainer.forbidden)
    assert trainer.analysis.best == expected.best
    for card in expected.best:
        assert card.label in trainer.reveal_readout.value
        assert "bg-best" in classes(trainer.card_button(card))


def test_new_hand_button_finds_a_position_near_a_knock():
    trainer = KnockTrainer(seed=1)
    first = trainer.cards
    trainer.buttons["new hand"].click()
    assert trainer.cards != first and len(trainer.cards) == 11
    assert trainer.chosen is None and not trainer.revealed
    assert best_discards(trainer.cards, forbidden=trainer.forbidden).least_deadwood <= 14


def test_revealed_table_is_two_compact_rows_not_a_row_per_card():
    trainer = KnockTrainer(seed=4)
    trainer.buttons["reveal"].click()
    table = trainer.reveal_readout.value
    analysis = best_discards(trainer.cards, forbidden=trainer.forbidden)
    assert table.count("<tr>") == 2
    order = sorted(analysis.deadwood_after.items(), key=lambda kv: (kv[1], kv[0]))
    shown = [part.split('"', 1)[0] for part in table.split('data-card="')[1:]]
    assert shown == [repr(c) for c, _d in order]


def test_the_knock_trainer_states_the_deadwood_left_once():
    trainer = KnockTrainer("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD")
    trainer.card_button("KD").click()
    assert "deadwood left 5" in trainer.deadwood_readout.value
    assert "bg-deadwood-value" not in trainer.layout_readout.value
    assert 'data-card="5C"' in trainer.layout_readout.value          # the 5♣ is still shown


def every_widget():
    return [DealWidget(seed=3), MeldExplorer("7H 7S 7D"), KnockTrainer(seed=1),
            ScoringWidget.from_cards(KNOCKER, DEFENDER), GameTable(seed=2, chart=False)]


def test_every_widgets_buttons_share_one_style_and_sit_in_rows():
    layouts = set()
    for widget in every_widget():
        rows = [child for child in widget.children if "bg-button-row" in classes(child)]
        in_rows = {id(b) for row in rows for b in row.children}
        for key, button in widget.buttons.items():
            assert "bg-btn" in classes(button), (widget, key)
            layouts.add((button.layout.width, button.layout.min_width, button.layout.height))
            assert id(button) in in_rows, (widget, key)
        widget.close()
    assert layouts == {("auto", "8em", "2.4em")}


# -- the Scoring widget ---------------------------------------------------------------------

KNOCKER = "5H 6H 7H KC KD KS 2C 2D 2S 4C"
DEFENDER = "8H 9H KH 3C 3D 3S AC 5D QD JS"


def test_scoring_widget_steps_through_each_layoff_to_the_score():
    widget = ScoringWidget.from_cards(KNOCKER, DEFENDER)
    knocker = best_melds(KNOCKER)
    defence = lay_off(knocker.melds, DEFENDER)
    assert widget.steps == 3 + len(defence.layoffs)
    assert widget.buttons["back"].disabled and widget.score_readout.value == ""
    for meld in knocker.melds:
        assert f'data-meld="{meld}"' in widget.stage.value
    widget.buttons["next"].click()
    assert "lays out its own melds" in widget.stage.value
    for layoff in defence.layoffs:
        widget.buttons["next"].click()
        assert f"lays off the {layoff.card.label}" in widget.stage.value
    widget.buttons["next"].click()
    points = defence.deadwood_value - knocker.deadwood_value
    assert widget.result.points == points
    assert f"scores {points}" in widget.score_readout.value
    assert widget.buttons["next"].disabled
    widget.buttons["back"].click()
    assert widget.step == widget.steps - 2 and widget.score_readout.value == ""
    widget.buttons["restart"].click()
    assert widget.step == 0


def test_scoring_widgets_last_step_names_the_knocker_and_the_defender():
    widget = ScoringWidget.from_cards(KNOCKER, DEFENDER)
    while not widget.buttons["next"].disabled:
        widget.buttons["next"].click()
    stage = widget.stage.value
    knocker, defender = widget.result.knocker, widget.result.defender
    assert f"Knocker: the {knocker.label}" in stage and f"Defender: the {defender.label}" in stage
    # each label stands right before its own row of melds
    assert stage.index("Knocker:") < stage.index("bg-knocker-melds") < \
        stage.index("Defender:") < stage.index("bg-arrangement")


def test_scoring_widget_from_play_matches_the_hand_result():
    widget = ScoringWidget(seed=3)
    hand = Hand.deal(seed=widget.hand.seed)
    while not hand.is_over:
        hand.apply(greedy_bot(hand.view(hand.to_play)))
    assert hand.result == widget.result
    for _ in range(widget.steps):
        widget.buttons["next"].click()
    assert hand.result.summary().replace("'", "&#x27;") in widget.score_readout.value


def test_scoring_widget_undercut_breakdown():
    widget = ScoringWidget.from_cards("AC 2C 3C 5H 5D 5S 9C 9D 9S 8H",
                                      "AH 2H 3H 4H 6C 6D 6S JC JD JS")
    assert widget.result.score.undercut
    widget.buttons["restart"].click()
    while not widget.buttons["next"].disabled:
        widget.buttons["next"].click()
    assert "Undercut" in widget.score_readout.value


# -- the Game Table -------------------------------------------------------------------------

def play_by_clicks(table: GameTable, hands: int | None = None) -> int:
    """Play the human's seat by clicking what the greedy bot would play (as sitter:
    advise it); count clicks.  ``hands``: stop after that many hands."""
    clicks = 0
    while not table.match.is_over:
        if hands is not None and len(table.match.history) >= hands:
            break
        if table.showing is not None:
            table.buttons["next hand"].click()
            continue
        action = greedy_bot(table.match.view(table.human))
        if action.card is not None:
            table.card_button(action.card).click()
            assert table.selected == action.card
        button = table.buttons[action.kind.value]
        assert table.batching or not button.disabled, action    # drawn after a batch
        button.click()
        clicks += 1
    return clicks


def test_game_table_played_by_clicks_equals_the_engines_match():
    table = GameTable(players=("You", "Ada", "Ben"), human="You", seed=5, chart=False)
    assert play_by_clicks(table) > 0
    match = Match.new(["You", "Ada", "Ben"], seed=5)
    match.play({p: greedy_bot for p in match.players})
    assert table.match.scores == match.scores and table.match.winner == match.winner
    assert f"Winner: {match.winner}." in table.status.value
    assert table.buttons["next hand"].disabled
    assert all(table.buttons[k].disabled for k in ("take", "pass", "draw stock", "discard"))
    for name, score in match.scores.items():
        assert f"<td>{score}</td>" in table.score_readout.value
        assert name in table.score_readout.value


def test_game_table_buttons_follow_the_legal_actions():
    table = GameTable(seed=3, chart=False)
    while table.showing is not None:
        table.buttons["next hand"].click()
    legal = {a.kind.value for a in table.match.legal_actions()}
    for key in ("take", "pass", "draw stock", "draw discard"):
        assert table.buttons[key].disabled == (key not in legal)


def test_take_pass_draw_discard_and_knock_buttons():
    table = GameTable(seed=3, chart=False)
    seen: set[str] = set()
    for _ in range(400):
        if table.match.is_over:
            break
        if table.showing is not None:
            table.buttons["next hand"].click()
            continue
        action = greedy_bot(table.match.view(table.human))
        legal = table.legal_actions()
        # try a button that is legal but not the bot's choice once, to cover each button
        other = next((a for a in legal if a.kind.value not in seen and a.card is None
                      and a.kind is not action.kind), None)
        chosen = other or action
        if chosen.card is not None:
            table.card_button(chosen.card).click()
        table.buttons[chosen.kind.value].click()
        assert table.error == ""
        seen.add(chosen.kind.value)
    assert {"take", "pass", "draw stock", "draw discard", "discard", "knock"} <= seen


def test_discard_without_a_card_asks_for_one_and_an_illegal_move_says_why():
    table = GameTable(seed=3, chart=False)
    while not (table.my_turn and table.match.hand.phase.value == "discard"):
        if table.showing is not None:
            table.buttons["next hand"].click()
        else:
            action = greedy_bot(table.match.view(table.human))
            if action.card is not None:
                table.card_button(action.card).click()
            table.buttons[action.kind.value].click()
    table.play("discard")  # not even an action: the engine's parser says why
    assert "not an action" in table.message.value
    table.selected = None
    table.buttons["discard"].disabled = False
    table.buttons["discard"].click()
    assert "Click a card first" in table.message.value
    taken = table.match.hand.taken_card
    if taken is not None:
        assert "bg-forbidden" in classes(table.card_button(taken))


def test_advice_button_asks_the_sitter_only_for_the_captain():
    for seed in range(1, 30):
        table = GameTable(seed=seed, chart=False)
        if table.my_turn and table.role is Role.CAPTAIN:
            break
    else:  # pragma: no cover
        pytest.fail("no seed puts you in the captain's seat")
    assert not table.buttons["advice"].disabled
    table.buttons["advice"].click()
    sitter = table.match.roles[Role.SITTER]
    expected = greedy_bot(table.match.view(sitter))
    assert table.advice is not None and table.advice.action == expected
    assert f"Advice from the sitter, {sitter}:" in table.advice_readout.value


def test_advice_is_refused_to_the_box():
    for seed in range(1, 30):
        table = GameTable(seed=seed, chart=False)
        if table.my_turn and table.role is Role.BOX:
            break
    else:  # pragma: no cover
        pytest.fail("no seed puts you in the box")
    assert table.buttons["advice"].disabled
    table.ask_advice()
    assert table.advice is None and "Only the captain" in table.message.value


def test_new_game_button_starts_from_the_next_seed():
    table = GameTable(seed=8, chart=False)
    table.buttons["new game"].click()
    assert table.seed == 9
    assert table.match.roles == Match.new(table.players, seed=9).roles


def test_next_hand_button_and_the_result_on_the_table():
    table = GameTable(seed=4, chart=False)
    while table.showing is None:
        action = greedy_bot(table.match.view(table.human))
        if action.card is not None:
            table.card_button(action.card).click()
        table.buttons[action.kind.value].click()
    record = table.match.history[-1]
    result = record.result
    assert table.showing == result
    # One score line, naming the player, on the table; none repeated in the status.
    line = score_line(result, record.roles)
    assert html.escape(line) in table.result_readout.value
    assert table.result_readout.value.count("bg-readout bg-score") == 1
    if result.winner is not None:
        assert record.roles[result.winner] in line and str(result.points) in line
        assert str(result.points) not in table.status.value
    assert not table.buttons["next hand"].disabled
    table.buttons["next hand"].click()
    assert table.showing is None or len(table.match.history) == 2


def _sitter_table(**kwargs: Any) -> GameTable:
    for seed in range(1, 40):
        table = GameTable(seed=seed, chart=False, **kwargs)
        if table.role is Role.SITTER:
            return table
    raise AssertionError("no seed puts you in the sitter's seat")  # pragma: no cover


def test_the_sitter_watches_the_captains_cards_step_by_step():
    table = _sitter_table()
    match = table.match
    captain = match.roles[Role.CAPTAIN]
    # The hand waits for the sitter at the captain's first decision: nothing was played.
    assert table.advising and not table.my_turn and match.hand.history == []
    assert [b.card for b in table.card_buttons] == list(match.hand.cards(Role.CAPTAIN))
    assert "hold no cards" in table.hand_label.value and captain in table.hand_label.value
    assert "your advice?" in table.status.value.lower()
    assert table.buttons["no advice"].layout.display is None
    assert table.buttons["advice"].layout.display == "none"
    legal = {a.kind.value for a in match.legal_actions()}
    for key in ("take", "pass"):
        assert table.buttons[key].disabled == (key not in legal)
    steps = 0
    while not table.match.history and steps < 60:
        if table.advising:
            before = len(table.match.hand.history)
            table.buttons["no advice"].click()
            steps += 1
            # The captain made exactly one move; the box may have replied; then the table
            # waits for the sitter again (or the hand is over).
            assert len(table.match.hand.history) > before or table.match.history
            assert table.advising or table.match.history
    assert table.match.history and steps >= 2


def test_the_sitters_advice_is_what_a_bot_captain_plays():
    table = _sitter_table()
    captain = table.match.roles[Role.CAPTAIN]
    greedy = greedy_bot(table.match.view(captain))
    other = next(a for a in table.legal_actions() if a != greedy)
    table.buttons[other.kind.value].click()
    assert table.match.hand.history[0][1] == other               # the captain followed it
    assert f"Your advice: {other.label}" in table.message.value
    # In the discard phase the sitter picks one of the captain's cards to advise.
    while table.advising and table.match.hand.phase is not Phase.DISCARD:
        table.buttons["no advice"].click()
    if table.advising:
        card = next(a.card for a in table.legal_actions() if a.kind is ActionKind.DISCARD)
        assert card is not None
        table.card_button(card).click()
        assert table.selected == card
        table.buttons["discard"].click()
        assert any(str(a) == f"discard {card!r}" for _r, a in table.match.hand.history) or \
            table.match.history


def test_a_sitter_may_not_advise_out_of_turn_and_an_illegal_advice_says_why():
    table = _sitter_table()
    table.give_advice("draw stock")                      # not legal at the upcard offer
    assert "may not play that now" in table.message.value
    assert table.match.hand.history == []
    table = GameTable(seed=3, chart=False)
    if table.role is not Role.SITTER:
        table.no_advice()
        assert "only as the sitter" in table.message.value


def test_the_card_just_drawn_is_marked():
    table = GameTable(seed=3, chart=False)
    for _ in range(200):
        if table.showing is not None:
            table.buttons["next hand"].click()
            continue
        if table.my_turn and table.match.hand.phase is Phase.DRAW:
            before = set(table.match.hand.cards(table.role))
            table.buttons["draw stock"].click()
            (card,) = set(table.match.hand.cards(table.role)) - before
            assert table.drawn == card
            marked = [b.card for b in table.card_buttons if "bg-drawn" in classes(b)]
            assert marked == [card]
            action = greedy_bot(table.match.view(table.human))
            if action.card is not None:
                table.card_button(action.card).click()
            table.buttons[action.kind.value].click()
            assert not any("bg-drawn" in classes(b) for b in table.card_buttons
                           if table.my_turn)
            return
        action = greedy_bot(table.match.view(table.human))
        if action.card is not None:
            table.card_button(action.card).click()
        table.buttons[action.kind.value].click()
    raise AssertionError("never drew from the stock")  # pragma: no cover


def test_each_layoff_is_shown_on_the_meld_it_went_onto():
    found = 0
    for seed in range(40):
        match = Match.new(["Ada", "Ben", "Cy"], seed=seed)
        match.play({p: greedy_bot for p in match.players})
        for record in match.history:
            result = record.result
            if result.defender_layout is None or not result.defender_layout.layoffs:
                continue
            found += 1
            page = result_html(result, record.roles, match.rules)
            assert page.count("bg-readout bg-score") == 1
            for layoff in result.defender_layout.layoffs:
                meld = re.search(r'<span class="bg-meld[^"]*" data-meld="'
                                 + re.escape(str(layoff.onto))
                                 + r'">.*?(?=<span class="bg-meld|<span class="bg-deadwood|</div>)',
                                 page)
                assert meld is not None
                assert f'data-card="{layoff.card!r}"' in meld.group(0)
                assert "bg-laid-off" in meld.group(0)
        if found >= 3:
            return
    raise AssertionError("no layoff in 40 games")  # pragma: no cover


def test_random_bots_play_against_you():
    table = GameTable(seed=6, bots="random", chart=False)
    while not table.match.is_over and len(table.match.history) < 3:
        if table.showing is not None:
            table.buttons["next hand"].click()
        elif table.advising:
            table.buttons["no advice"].click()
        else:
            table.play(table.legal_actions()[0])
    assert len(table.match.history) >= 1


def test_a_batch_of_clicks_is_drawn_once(monkeypatch: pytest.MonkeyPatch):
    import ipywidgets

    table = GameTable(seed=12)
    sent: list[object] = []
    monkeypatch.setattr(ipywidgets.Widget, "_send",
                        lambda self, msg, buffers=None: sent.append(msg))
    play_by_clicks(table, hands=2)
    per_click = len(sent)
    table.new_game(12)
    sent.clear()
    with table.batch():
        play_by_clicks(table, hands=2)
    batched = len(sent)
    assert [r.result for r in table.match.history][:2] and batched < per_click / 5
    # Within the batch nothing was drawn; after it, the table shows the game's state.
    assert str(len(table.match.history)) in table.score_readout.value


def test_big_gin_button_only_under_big_gin_rules():
    assert GameTable(seed=1, chart=False).buttons["big gin"].layout.display == "none"
    table = GameTable(seed=1, chart=False, rules=Rules(big_gin=True))
    assert table.buttons["big gin"].layout.display != "none"
    assert table.buttons["big gin"].disabled == (
        ActionKind.BIG_GIN not in {a.kind for a in table.legal_actions()})


def test_chart_is_a_deterministic_png_of_cumulative_scores():
    a, b = GameTable(seed=5), GameTable(seed=5)
    # No empty chart before the first hand is scored.
    assert a.chart.layout.display == "none" and a.chart.value == b""
    play_by_clicks(a, hands=1)
    play_by_clicks(b, hands=1)
    if any(r.winner_name for r in a.match.history):
        assert a.chart.layout.display is None
        assert a.chart.value[:8] == b"\x89PNG\r\n\x1a\n" and a.chart.value == b.chart.value
    play_by_clicks(a)
    assert a.chart.layout.display is None and a.chart.value[:8] == b"\x89PNG\r\n\x1a\n"
    series = a.cumulative_scores()
    assert {p: s[-1] for p, s in series.items()} == a.match.scores
    assert all(len(s) == len(a.match.history) + 1 for s in series.values())


def test_without_matplotlib_the_chart_says_why_and_the_game_plays(monkeypatch):
    import box_gin.widgets.game_table as game_table

    # The browser kit (JupyterLite) has no matplotlib: the table must not draw, nor raise.
    monkeypatch.setattr(game_table, "have_matplotlib", lambda: False)
    monkeypatch.setattr(game_table, "chart_png", lambda *a: pytest.fail("drew a chart"))
    table = GameTable(seed=5)
    assert table.chart not in table.children and table.chart_note in table.children
    assert "matplotlib" in table.chart_note.value
    play_by_clicks(table)
    assert table.match.winner is not None
    set_language("fr")
    try:
        assert "matplotlib" in table.chart_note.value and "navigateur" in table.chart_note.value
    finally:
        set_language("en")


# -- language and static views ----------------------------------------------------------------

def test_widgets_re_render_on_language_change_and_go_right_to_left():
    table = GameTable(seed=2, chart=False)
    trainer = KnockTrainer(seed=2)
    calls = []
    original = table.render
    table.render = lambda: (calls.append(1), original())[1]
    set_language("he")
    assert calls and "bg-rtl" in classes(table) and "bg-rtl" in classes(trainer)
    assert "bg-card-row" in classes(table.hand_row)  # cards stay left to right
    set_language("en")
    assert "bg-rtl" not in classes(table)
    table.close()
    trainer.close()


def test_widgets_show_a_static_html_view_and_a_short_text():
    deal = DealWidget(seed=1)
    bundle = deal._repr_mimebundle_()
    assert bundle["text/plain"] == "<DealWidget>"
    assert "bg-card" in bundle["text/html"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


# -- the notebook execution tool ------------------------------------------------------------

def test_execute_tool_round_trip(tmp_path: Path):
    nbformat = pytest.importorskip("nbformat")
    from box_gin.tools.execute import main

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from box_gin.widgets import DealWidget\n"
                                          "DealWidget(seed=3)"),
                nbformat.v4.new_code_cell("import os\nprint(os.path.basename(os.getcwd()))")]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    path = tmp_path / "tiny.ipynb"
    nbformat.write(nb, path)
    assert main([str(path), str(tmp_path / "missing.ipynb")]) == 0
    first = path.read_text()
    assert main([str(path)]) == 0
    assert path.read_text() == first
    done = nbformat.reads(first, as_version=4)
    assert "widgets" not in done.metadata
    assert done.cells[1].outputs[0]["text"].strip() == tmp_path.name
    data = done.cells[0].outputs[0]["data"]
    assert data["text/plain"] == "<DealWidget>" and "bg-card" in data["text/html"]
    assert "application/vnd.jupyter.widget-view+json" not in data
    assert all("execution" not in c.metadata for c in done.cells)


def test_a_player_named_you_is_not_called_you_you():
    from box_gin.views.html import roles_html

    roles = {Role.BOX: "You", Role.CAPTAIN: "Ada", Role.SITTER: "Ben"}
    line = roles_html(roles, human="You")
    assert "You (you)" not in line and "</b> You</span>" in line
    assert "Ada (you)" in roles_html(roles, human="Ada")
    set_language("fr")
    vous = {Role.BOX: "Vous", Role.CAPTAIN: "Ada", Role.SITTER: "Ben"}
    assert "Vous (vous)" not in roles_html(vous, human="Vous")


def test_the_kernels_own_errors_on_stderr_are_noise_a_notebooks_are_not() -> None:
    """A stored stderr with tornado's ZMQ error (a machine under load) makes the execute
    tool run the notebook again; a notebook's own warnings stay."""
    import nbformat

    from box_gin.tools.execute import kernel_noise

    def notebook(text: str) -> Any:
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("check(f)")
        cell.outputs = [nbformat.v4.new_output("stream", name="stderr", text=text)]
        nb.cells = [cell]
        return nb

    assert kernel_noise(notebook("ERROR:tornado.general:Uncaught exception in ZMQStream "
                                 "callback\nTraceback (most recent call last):\n"))
    assert not kernel_noise(notebook("UserWarning: the deck is short\n"))
