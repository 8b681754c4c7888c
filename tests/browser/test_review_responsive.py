"""The review page on a phone (375x667) and a desktop, in English and in Hebrew, in a
real Chromium: the page never scrolls sideways (its wide tables scroll inside their own
focusable, named regions), its heading is in the first screen, and axe-core finds no
WCAG 2.1 A/AA violation.  Screenshots of each are left in ``tests/browser/screenshots/``."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from a11y import wcag_violations
from conftest import SCREENSHOTS

from box_gin import Hand, expert_bot
from box_gin.bots.simple import seeded_random_bot
from box_gin.i18n import using
from box_gin.review import evaluate, played_hands, review_hands
from box_gin.review.page import review_page

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 900}

#: The page's width, the window's, the main heading's box, and for each scrolling
#: region: its scroll width, client width, tabindex and accessible name's source.
LAYOUT_JS = """() => {
  const h = document.querySelector('h1').getBoundingClientRect();
  return {page: document.documentElement.scrollWidth, width: window.innerWidth,
          height: window.innerHeight,
          h1: [h.left, h.top, h.right, h.bottom],
          regions: [...document.querySelectorAll('.bg-scroll')].map(r => [
            r.scrollWidth, r.clientWidth, r.getAttribute('tabindex'),
            document.getElementById(r.getAttribute('aria-labelledby'))?.textContent])};
}"""


@functools.cache
def review_text(lang: str) -> str:
    """The review page, in ``lang``, of a hand of the expert against a random bot (few
    worlds: the values do not matter here, the layout does)."""
    hand = Hand.deal(seed=51)
    bots = {"captain": expert_bot, "box": seeded_random_bot(1)}
    while not hand.is_over:
        role = hand.to_play
        assert role is not None
        hand.apply(bots[role.value](hand.view(role)))
    quick = functools.partial(evaluate, max_worlds=96)
    with using(lang):
        review = review_hands(played_hands(hand.record()), seed=1, evaluator=quick)
        return review_page(review, "Review: seed 51")


@pytest.mark.parametrize("lang", ["en", "he"])
def test_review_page_fits_a_phone(page: Any, lang: str) -> None:
    page.set_viewport_size(PHONE)
    page.set_content(review_text(lang))
    layout = page.evaluate(LAYOUT_JS)
    assert layout["page"] <= layout["width"], layout  # no sideways scroll of the page
    left, top, right, bottom = layout["h1"]
    assert left >= 0 and right <= layout["width"], layout  # the heading: in the first
    assert top >= 0 and bottom <= layout["height"], layout  # screen
    regions = layout["regions"]
    assert len(regions) >= 2
    assert all(r[2] == "0" and r[3] for r in regions), regions  # focusable and named
    assert any(r[0] > r[1] for r in regions)  # a table wider than the phone scrolls
    assert wcag_violations(page) == []
    page.screenshot(path=str(SCREENSHOTS / f"review-page-{lang}-phone.png"))
    page.set_viewport_size(DESKTOP)
    layout = page.evaluate(LAYOUT_JS)
    assert layout["page"] <= layout["width"], layout
    assert all(r[0] <= r[1] for r in layout["regions"]), layout  # a desktop scrolls none
    assert wcag_violations(page) == []
    page.screenshot(path=str(SCREENSHOTS / f"review-page-{lang}-desktop.png"))
