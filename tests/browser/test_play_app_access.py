"""The play app (Voila) is usable by everyone: axe-core finds no violation of WCAG 2.1 A
and AA on its form and on its table once a game is under way, in English and in Hebrew."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from a11y import violations

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", params=["en", "he"])
def app_url(voila: Callable[..., str], request: pytest.FixtureRequest) -> str:
    return voila(ROOT / "notebooks" / "play.ipynb", env={"BOX_GIN_LANG": request.param})


def test_the_play_app_has_no_accessibility_violations(page: Any, app_url: str) -> None:
    page.goto(app_url)
    page.locator(".bg-name input").wait_for()
    form = violations(page)
    page.locator(".bg-name input").fill("Zoe")
    page.locator("button.bg-btn-start").click()
    page.locator(".bg-game-table .bg-status").wait_for()
    table = violations(page)
    assert (form, table) == ([], [])
    # The check does look at this page: a button with no name is caught.
    page.evaluate("() => document.body.appendChild(document.createElement('button'))")
    assert any(v.startswith("button-name") for v in violations(page))
