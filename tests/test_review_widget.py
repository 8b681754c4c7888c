"""The Review widget and the review's exercise, driven without a browser: click, read the
HTML.  Expected values come from the review itself, never from the widget's output."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("ipywidgets")

from box_gin import Hand, greedy_bot
from box_gin.actions import ActionKind
from box_gin.i18n import set_language
from box_gin.review import played_hands, review_hands
from box_gin.review.exercise import WHYS, check_discards, discard_question
from box_gin.widgets import ReviewWidget
from box_gin.widgets.review_widget import chart_html, decision_view


def _hand(seed: int = 4) -> Hand:
    hand = Hand.deal(seed=seed)
    while not hand.is_over:
        role = hand.to_play
        assert role is not None
        hand.apply(greedy_bot(hand.view(role)))
    return hand


@pytest.fixture(scope="module")
def widget() -> ReviewWidget:
    return ReviewWidget.from_hand(_hand(), seat="box", seed=1)


def test_the_widget_shows_the_reviews_decisions_of_one_seat(widget: ReviewWidget) -> None:
    review = review_hands(played_hands(_hand().record()), seat="box", seed=1)
    assert widget.decisions == review.decisions
    assert {d.player for d in widget.decisions} == {"box"}
    assert widget.slider.max == len(review.decisions)


def test_previous_and_next_step_through_and_stop_at_the_ends(widget: ReviewWidget) -> None:
    widget.show(0)
    assert widget.buttons["previous"].disabled and not widget.buttons["next"].disabled
    widget.buttons["previous"].click()
    assert widget.index == 0
    widget.buttons["next"].click()
    assert widget.index == 1 and widget.slider.value == 2
    for _i in range(len(widget.decisions) + 2):
        widget.buttons["next"].click()
    assert widget.index == len(widget.decisions) - 1 and widget.buttons["next"].disabled
    widget.slider.value = 1
    assert widget.index == 0


def test_each_decision_shows_its_cards_rating_reason_and_every_value(
        widget: ReviewWidget) -> None:
    assert "box (box)" not in str(widget.header.value)
    for i, d in enumerate(widget.decisions):
        widget.show(i)
        cards = re.findall(r'data-card="(\w+)"', str(widget.position_readout.value))
        assert set(map(repr, d.cards)) <= set(cards)
        rating = str(widget.rating_readout.value)
        assert f"bg-rating-{d.rating.value}" in rating
        assert d.reason.replace("'", "&#x27;") in rating
        chart = str(widget.chart_readout.value)
        assert chart.count("<li") == len(d.evaluation.values)
        assert chart.count("bg-best") == 1 and chart.count("bg-played") == 1


def test_the_chart_draws_bars_in_proportion_from_zero() -> None:
    view = decision_view(_hand(), 5)
    from box_gin.review import evaluate

    evaluation = evaluate(view, seed=1)
    chart = chart_html(evaluation)
    widths = [float(x) for x in re.findall(r'class="bg-bar" style="left:[\d.]+%;width:([\d.]+)%',
                                           chart)]
    values = [abs(v.value) for v in evaluation.ranked]
    span = max(0.0, *(v.value for v in evaluation.ranked)) - \
        min(0.0, *(v.value for v in evaluation.ranked))
    assert widths == pytest.approx([v / span * 100 for v in values], abs=0.06)


def test_the_position_is_what_the_seat_saw(widget: ReviewWidget) -> None:
    for d, view in zip(widget.decisions, widget.views, strict=True):
        assert view.hand == d.cards and view.top_discard == d.top_discard
        assert view.role is d.role


def test_hebrew_reads_right_to_left_and_translates_the_buttons(widget: ReviewWidget) -> None:
    try:
        set_language("he")
        assert "bg-rtl" in widget._dom_classes
        assert widget.buttons["next"].description not in ("", "Next")
        assert 'dir="rtl"' in str(widget.chart_readout.value)
        rating = str(widget.rating_readout.value)
        # the reason is said again in Hebrew, its signed numbers in isolates of their own
        assert re.search("[\u05d0-\u05ea]{3}", rating.split("bg-review-reason")[1])
        assert "\u2066+" in rating or "\u2066-" in rating or "\u2066\u2212" in rating
        assert "\u2068\u2066" not in rating
        # a card in an action's name keeps its rank before its suit (an isolate of its own)
        widget.show(2)
        assert re.search("\u2066(?:10|[2-9JQKA])[♣♦♥♠]", str(widget.chart_readout.value))
        assert re.search("\u2066(?:10|[2-9JQKA])[♣♦♥♠]", str(widget.rating_readout.value))
        assert "direction:ltr" in str(widget.stylesheet.value)  # the bars keep left to right
    finally:
        set_language("en")
    assert widget.buttons["next"].description == "Next"


def test_a_hand_without_a_decision_is_refused() -> None:
    hand = Hand.deal(seed=1)
    review = review_hands(played_hands(hand.record()), seed=0)
    with pytest.raises(ValueError):
        ReviewWidget(review)


def test_the_exercise_finds_the_discard_that_breaks_a_set_and_checks_answers() -> None:
    view = decision_view(_hand(), 5)
    q = discard_question(view, "KS", "QS", seed=1)
    assert q.better.rank != 13 and q.why == "meld" and q.gain > 2
    assert {a.card for a in view.legal_actions if a.kind is ActionKind.DISCARD} >= \
        {q.first, q.second}
    assert check_discards(q, "QS", "meld").startswith("Right, and")
    assert check_discards(q, "KS", "meld").startswith("Not quite")
    assert check_discards(q, "QS", "deadwood").startswith("Right card, but")
    assert "must be one of" in check_discards(q, "QS", "luck")
    assert "not one of the two" in check_discards(q, "2C", "meld")
    assert check_discards(q, "", "").startswith("Write your answer first")
    assert set(WHYS) >= {q.why}
    with pytest.raises(ValueError):
        discard_question(view, "KS", "7H" if "7H" not in map(repr, view.hand) else "7C")
