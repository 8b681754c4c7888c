"""The tournament's leaderboard page is usable by everyone: axe-core finds no violation
of WCAG 2.1 A and AA in English and in Hebrew, with every kind of entry a class makes
(bots, references, a crashing bot, submissions that cannot enter, a learner who did not
hand in); on a phone it does not scroll sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from a11y import violations

from box_gin.i18n import set_language
from box_gin.tournament import Entrant, Settings, references, run
from box_gin.tournament.report import leaderboard_html

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    bots = [*references(), Entrant("greedy_twin", reference="greedy_bot")]
    data = run(bots, Settings(deals=1, seed=3)).to_dict()
    data["bots"][-1].update(crashes=12, first_crash={
        "game": 4, "hand": 2, "role": "captain", "type": "KeyError",
        "message": "'<b>ten</b>'", "cell": "bot.py, line 3", "line": 7, "function": "play"})
    data["not_entered"] = [{"name": "syntax", "reason": "bot.py: SyntaxError: '(' was "
                                                        "never closed (line 2)"}]
    data["not_handed_in"] = ["nobody"]
    return data


def _open(page: Any, results: dict[str, Any], tmp_path: Path, lang: str) -> None:
    set_language(lang)
    try:
        path = tmp_path / f"leaderboard-{lang}.html"
        path.write_text(leaderboard_html(results), encoding="utf-8")
    finally:
        set_language("en")
    page.goto(path.as_uri())


@pytest.mark.usefixtures("each_decision_evaluated_once")
@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_leaderboard_has_no_accessibility_violations(
        page: Any, results: dict[str, Any], tmp_path: Path, lang: str) -> None:
    _open(page, results, tmp_path, lang)
    assert page.locator("ul.bg-crashes li").count() == 1
    assert "KeyError" in page.locator("ul.bg-crashes").inner_text()
    assert page.locator("ul.bg-not-handed-in li[data-bot=nobody]").count() == 1
    assert violations(page) == []


@pytest.mark.usefixtures("each_decision_evaluated_once")
def test_the_leaderboard_on_a_phone(page: Any, results: dict[str, Any],
                                    tmp_path: Path) -> None:
    page.set_viewport_size({"width": 375, "height": 667})
    _open(page, results, tmp_path, "en")
    overflow = page.evaluate("() => document.documentElement.scrollWidth"
                             " - document.documentElement.clientWidth")
    assert overflow <= 0


def test_axe_finds_what_it_is_asked_to(page: Any) -> None:
    """The check can fail: a page with no language, a button with no name and an image
    with no text has violations."""
    page.set_content("<!doctype html><html><head><title>x</title></head><body><main>"
                     "<button></button><img src='data:,'></main></body></html>")
    found = " ".join(violations(page))
    for rule in ("html-has-lang", "button-name", "image-alt"):
        assert rule in found, found
