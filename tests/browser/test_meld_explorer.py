"""The Meld Explorer of notebook 2, in Voila, in a real browser: click cards of the deck
and the best melds and the deadwood read-outs must show the engine's answer."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from box_gin import best_melds
from box_gin.cards import Card
from box_gin.tools.kit import kit_files

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = kit_files(ROOT, "notebooks/02_*.ipynb")[0]
EXPLORER = ".bg-meld-explorer"
#: Clicked one by one; the 7♥ fits the run and the set, the clubs make a second run.
CLICKS = ["4H", "5H", "6H", "7H", "7S", "7D", "KC", "AC", "2C", "3C", "9D"]

#: The best-arrangement read-out as data: each meld's text and the deadwood cards, with
#: the value from the "Least deadwood" line (the frame itself does not repeat it).
BEST_JS = """el => ({
  melds: [...el.querySelectorAll('.bg-best-readout .bg-meld')].map(m => m.dataset.meld),
  deadwood: [...el.querySelectorAll('.bg-best-readout .bg-deadwood .bg-card')]
            .map(c => c.dataset.card),
  value: el.querySelector('.bg-deadwood-readout').innerText.trim()})"""


@pytest.fixture(scope="module")
def explorer_url(voila: Callable[..., str]) -> str:
    return voila(NOTEBOOK, env={"BOX_GIN_LANG": "en"})


def expected(cards: list[Card]) -> dict[str, Any]:
    best = best_melds(cards)
    return {"melds": [str(m) for m in best.melds],
            "deadwood": [repr(c) for c in best.deadwood],
            "value": f"Least deadwood: {best.deadwood_value}"}


def hand_cards(page: Any) -> set[str]:
    classes = page.locator(f"{EXPLORER} .bg-explorer-hand button.bg-card-button").evaluate_all(
        "bs => bs.map(b => [...b.classList].find(c => /^bg-card-..$/.test(c)))")
    return {c.removeprefix("bg-card-") for c in classes}


def test_meld_explorer_shows_the_engines_best_melds(page: Any, explorer_url: str) -> None:
    page.goto(explorer_url)
    explorer = page.locator(EXPLORER)
    explorer.locator("button.bg-btn-clear").click()
    deadwood = explorer.locator(".bg-deadwood-readout")
    expect(deadwood).to_have_text("Least deadwood: 0")
    assert hand_cards(page) == set()

    chosen: list[Card] = []
    for text in CLICKS:
        explorer.locator(f".bg-deck button.bg-card-{text}").click()
        chosen.append(Card.parse(text))
        best = best_melds(chosen)
        # wait for the deadwood read-out, then read the whole best arrangement
        expect(deadwood).to_have_text(f"Least deadwood: {best.deadwood_value}")
        expect(explorer.locator(f".bg-deck button.bg-card-{text}")).to_have_class(
            re.compile(r"\bbg-selected\b"))
        # The deadwood can stay the same from one click to the next (4H 5H 6H, then 7H):
        # wait for the arrangement itself, within a deadline.
        want, deadline = expected(chosen), time.monotonic() + 300
        got = explorer.evaluate(BEST_JS)
        while got != want and time.monotonic() < deadline:
            page.wait_for_timeout(200)
            got = explorer.evaluate(BEST_JS)
        assert got == want, f"after clicking {' '.join(CLICKS[:len(chosen)])}"
        assert hand_cards(page) == {repr(c) for c in chosen}

    # the hand's cards in the best melds are marked, the others not
    in_best = {repr(c) for m in best_melds(chosen).melds for c in m.cards}
    for text in CLICKS:
        button = explorer.locator(f".bg-explorer-hand button.bg-card-{text}")
        assert ("bg-best" in (button.get_attribute("class") or "").split()) == (text in in_best)

    # clicking a chosen card again takes it out of the hand
    explorer.locator(".bg-deck button.bg-card-7H").click()
    rest = [c for c in chosen if c != Card.parse("7H")]
    expect(deadwood).to_have_text(f"Least deadwood: {best_melds(rest).deadwood_value}")
    assert explorer.evaluate(BEST_JS) == expected(rest)
    assert hand_cards(page) == {repr(c) for c in rest}
