"""The Game Table in Hebrew, in a real browser: laid out right to left, with the cards
and numbers still in their natural left-to-right order.  The screenshot is kept in
tests/browser/screenshots/ like every browser test's."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from box_gin.catalogs import read

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
HEBREW = re.compile(r"[\u0590-\u05FF]")


def hebrew(english: str) -> str:
    message = read("he").get(english)
    assert message is not None and message.string
    return str(message.string)


def test_game_table_in_hebrew_reads_right_to_left(page: Any, voila: Callable[..., str]) -> None:
    url = voila(ROOT / "notebooks" / "play.ipynb",
                env={"BOX_GIN_SEED": "7", "BOX_GIN_LANG": "he", "BOX_GIN_SEAT": "captain"})
    page.goto(url)
    start = page.locator("button.bg-btn-start")
    assert start.inner_text().strip() == hebrew("Deal")
    start.click()
    table = page.locator(".bg-game-table")
    table.locator(".bg-my-hand .bg-card-button").first.wait_for()

    assert "bg-rtl" in (table.get_attribute("class") or "")
    assert table.evaluate("e => getComputedStyle(e).direction") == "rtl"
    status = table.locator(".bg-status").inner_text()
    assert HEBREW.search(status), status
    assert table.locator("button.bg-btn-advice").inner_text().strip() == hebrew("Ask the sitter")

    # The hand's row stays left to right: the cards, sorted, run from left to right.
    row = table.locator(".bg-my-hand").first
    assert row.evaluate("e => getComputedStyle(e).direction") == "ltr"
    boxes = [b.bounding_box() for b in row.locator(".bg-card-button").all()]
    lefts = [b["x"] for b in boxes if b]
    assert len(lefts) >= 10 and lefts == sorted(lefts)

    # The panel itself is right-aligned: the status line starts at the right edge.
    status_box = table.locator(".bg-status").bounding_box()
    table_box = table.bounding_box()
    assert status_box and table_box
    text_right = table.locator(".bg-status").evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e);"
        " const b = r.getBoundingClientRect(); return [b.left, b.right]; }")
    assert abs(text_right[1] - status_box["x"] - status_box["width"]) < 40
