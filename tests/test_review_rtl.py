"""The review page in Hebrew (issue 36): a signed number ("-3.2", "+1.5" points) in a
reason or in an action's value keeps its sign on its left, as python-bidi's
``get_display`` lays the line out right to left.  The check is shown to catch the bug
first: the same page with its numbers not isolated shows signs at the numbers' right."""

from __future__ import annotations

import functools
import html
import re

import pytest

from box_gin import Hand, expert_bot
from box_gin.bots.simple import seeded_random_bot
from box_gin.i18n import LRI, PDI, using
from box_gin.review import evaluate, played_hands, review_hands
from box_gin.review.page import review_page

CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: A signed number as the review writes it, in reading order.
SIGNED = re.compile(r"[+\-\u2212][0-9]+(?:[.,][0-9]+)*")
#: The text of each cell and list item of the decisions' tables.
CELL = re.compile(r"<(td|li)[^>]*>(.*?)</\1>", re.S)
TAG = re.compile(r"<[^>]*>")


def visual(text: str) -> str:
    """``text`` as it is shown in a right-to-left block, left to right, controls gone."""
    from bidi import get_display

    return CONTROLS.sub("", get_display(text, base_dir="R"))


def misplaced_signs(page: str) -> list[tuple[str, str]]:
    """(cell, number) for each signed number of a cell whose sign is not shown on the
    number's left (the shown line holds the number's digits then its sign)."""
    bad = []
    for _tag, inner in CELL.findall(page):
        text = html.unescape(TAG.sub("", inner))
        shown = visual(text)
        for number in SIGNED.findall(CONTROLS.sub("", text)):
            if number not in shown:
                bad.append((text, number))
    return bad


def hebrew_review_page() -> str:
    """The review page, in Hebrew, of a hand of the expert against a random bot (few
    worlds: the values do not matter here, their signs do)."""
    hand = Hand.deal(seed=51)
    bots = {"captain": expert_bot, "box": seeded_random_bot(1)}
    while not hand.is_over:
        role = hand.to_play
        assert role is not None
        hand.apply(bots[role.value](hand.view(role)))
    quick = functools.partial(evaluate, max_worlds=96)
    with using("he"):
        review = review_hands(played_hands(hand.record()), seed=1, evaluator=quick)
        return review_page(review, "review")


@pytest.fixture(scope="module")
def hebrew_page() -> str:
    return hebrew_review_page()


def test_a_signed_number_keeps_its_sign_on_its_left_in_hebrew(hebrew_page: str) -> None:
    reasons = [html.unescape(TAG.sub("", inner)) for _t, inner in CELL.findall(hebrew_page)
               if re.search("[\u05d0-\u05ea]", inner) and SIGNED.search(inner)]
    assert len(reasons) >= 10  # the reasons and the values hold signed numbers ...
    assert any(n.startswith("-") for r in reasons for n in SIGNED.findall(r))
    assert any(n.startswith("+") for r in reasons for n in SIGNED.findall(r))
    assert misplaced_signs(hebrew_page) == []  # ... each shown with its sign on the left
    # and none of them sits in a placeholder's first-strong isolate (Chromium reads such
    # a pair right to left)
    assert "\u2068\u2066" not in hebrew_page


def test_the_check_catches_a_sign_at_the_wrong_end(hebrew_page: str) -> None:
    bare = hebrew_page.replace(LRI, "").replace(PDI, "").replace("\u2068", "")
    bad = misplaced_signs(bare)
    assert bad and all(number in cell for cell, number in bad)
    # the shown line holds the digits first, then the sign
    cell, number = bad[0]
    assert number[1:] + number[0] in visual(cell)
