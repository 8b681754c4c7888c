"""The tournament's leaderboard in a real Chromium: one self-contained page, offline,
with the table, the chart of ratings with their intervals, and the decisive hands of
the final drawn with the kit's cards; in English and in Hebrew (right to left)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from box_gin.i18n import set_language
from box_gin.tournament import Entrant, Settings, references, run
from box_gin.tournament.report import decisive_hands, leaderboard_html

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    bots = [*references(), Entrant("greedy_twin", reference="greedy_bot")]
    return run(bots, Settings(deals=2, seed=7)).to_dict()


@pytest.mark.usefixtures("each_decision_evaluated_once")
@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_leaderboard_shows_the_tournament(page: Any, results: dict[str, Any],
                                              tmp_path: Path, lang: str) -> None:
    set_language(lang)
    try:
        path = tmp_path / f"leaderboard-{lang}.html"
        path.write_text(leaderboard_html(results), encoding="utf-8")
    finally:
        set_language("en")
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(path.as_uri())
    assert requests == [path.as_uri()], requests  # nothing else is loaded
    assert page.evaluate("() => document.documentElement.dir") == (
        "rtl" if lang == "he" else "ltr")
    names = [b["name"] for b in results["bots"]]
    rows = page.locator("table.bg-board tbody tr")
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.bot)") == names
    # The chart: an interval per bot, its dot inside it, best first from the top.
    lines = page.locator("svg.bg-ratings line[data-bot]")
    assert lines.evaluate_all("ls => ls.map(l => l.dataset.bot)") == names
    boxes = lines.evaluate_all("ls => ls.map(l => { const b = l.getBoundingClientRect(); "
                               "return [b.left, b.right, b.top]; })")
    dots = page.locator("svg.bg-ratings circle").evaluate_all(
        "cs => cs.map(c => { const b = c.getBoundingClientRect(); "
        "return (b.left + b.right) / 2; })")
    for (left, right, _top), dot in zip(boxes, dots, strict=True):
        assert left - 1 <= dot <= right + 1
    assert [b[2] for b in boxes] == sorted(b[2] for b in boxes)
    # The decisive hands of the final, replayed with real cards.
    chosen = decisive_hands(results["final"]["record"])
    replays = page.locator("section.bg-replay")
    assert replays.count() == len(chosen) >= 1
    assert replays.first.locator(".bg-card").count() >= 21  # two hands and the upcard
    size = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 18
