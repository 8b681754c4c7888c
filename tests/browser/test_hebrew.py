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


#: For each select of the setup form: whether its chosen caption fits inside it (the text's
#: width, measured in the select's own font, plus room for the arrow), and, for each field,
#: the gap between its label and its input (in the reading direction).
FORM_JS = """() => {
  const canvas = document.createElement('canvas').getContext('2d');
  const selects = [...document.querySelectorAll('.bg-setup select')].map(s => {
    const cs = getComputedStyle(s);
    canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = s.options[s.selectedIndex].text;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return {text, fits: canvas.measureText(text).width + 16 <= room,
            options: [...s.options].map(o => o.text)};
  });
  const gaps = [...document.querySelectorAll('.bg-setup .widget-inline-hbox')].map(box => {
    const label = box.querySelector('.widget-label');
    const input = box.querySelector('input, select');
    if (!label || !input) return null;
    const l = label.getBoundingClientRect(), i = input.getBoundingClientRect();
    const rtl = getComputedStyle(box).direction === 'rtl';
    return rtl ? l.left - i.right : i.left - l.right;
  }).filter(g => g !== null);
  return {selects, gaps};
}"""


@pytest.mark.parametrize("lang", ["he", "fr"])
def test_setup_form_speaks_the_language_and_fits_its_words(
        page: Any, voila: Callable[..., str], lang: str) -> None:
    url = voila(ROOT / "notebooks" / "play.ipynb",
                env={"BOX_GIN_SEED": "7", "BOX_GIN_LANG": lang})
    page.goto(url)
    page.locator("button.bg-btn-start").wait_for()
    form = page.evaluate(FORM_JS)
    catalog = read(lang)
    # Every caption of every dropdown is translated, the rules presets included.
    rules = next(s for s in form["selects"] if len(s["options"]) == 8)
    standard = catalog.get("standard", context="rules preset")
    assert standard is not None and rules["text"] == standard.string
    for select in form["selects"]:
        assert select["fits"], select           # "glouton" is not cut to "glouto"
        if lang == "he":
            assert all(HEBREW.search(o) for o in select["options"]), select
    # Labels do not touch their inputs.
    assert form["gaps"] and min(form["gaps"]) >= 4, form["gaps"]
    page.screenshot(path=str(ROOT / "tests" / "browser" / "screenshots"
                             / f"setup-form-{lang}.png"))
