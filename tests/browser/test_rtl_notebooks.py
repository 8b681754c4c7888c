"""The Hebrew notebooks in JupyterLab: prose right to left, code, cards and card output
left to right.  Copies are opened (nothing in the repository is saved over); notebook 1
is also run, so its live Deal widget is checked too.  Screenshots are kept in
tests/browser/screenshots/ like every browser test's."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
HEBREW = re.compile(r"[\u0590-\u05FF]")
ALL_RUN_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return kernel && kernel.status === 'idle' && w.content.widgets.every(
    c => c.model.type !== 'code' || c.model.executionCount !== null);
}"""


def open_notebook(page: Any, jupyterlab: Callable[[Path], str], tmp_path: Path,
                  name: str) -> None:
    folder = tmp_path / "lab"
    folder.mkdir(exist_ok=True)
    shutil.copy(ROOT / "notebooks" / "he" / name, folder / name)
    page.set_viewport_size({"width": 1200, "height": 1400})
    page.goto(jupyterlab(folder).replace("/lab?", f"/lab/tree/{name}?"))
    page.wait_for_function("() => window.jupyterapp !== undefined")
    page.locator(".jp-Notebook .jp-MarkdownOutput").first.wait_for(timeout=300_000)


def direction(locator: Any) -> str:
    return str(locator.evaluate("e => getComputedStyle(e).direction"))


def test_hebrew_prose_reads_right_to_left_and_cards_left_to_right(
        page: Any, tmp_path: Path, jupyterlab: Callable[[Path], str]) -> None:
    open_notebook(page, jupyterlab, tmp_path, "01_cards_and_dealing.ipynb")
    first = page.locator(".jp-Notebook .jp-MarkdownOutput").first
    prose = first.locator("div[dir='rtl']")
    expect(prose).to_have_count(1)
    assert direction(prose) == "rtl"
    heading = prose.locator("h1")
    assert HEBREW.search(heading.inner_text())
    # Right to left: the heading's text ends at the right edge of its cell.
    line = heading.evaluate("""e => { const r = document.createRange();
        r.selectNodeContents(e); const t = r.getBoundingClientRect();
        const c = e.getBoundingClientRect(); return [t.left - c.left, c.right - t.right]; }""")
    assert line[1] < 40 < line[0], line
    items = prose.locator("li")
    assert items.count() == 4 and all(HEBREW.search(t) for t in items.all_inner_texts())

    # The glossary table runs right to left: its first column is the rightmost.
    table = page.locator(".jp-Notebook .jp-MarkdownOutput").nth(1).locator("table")
    cells = table.locator("tr").nth(1).locator("td")
    first_cell, second_cell = cells.nth(0).bounding_box(), cells.nth(1).bounding_box()
    assert first_cell and second_cell and first_cell["x"] > second_cell["x"]

    # Code stays left to right, and so do the cards of an output.
    code = page.locator(".jp-Notebook .jp-CodeCell .cm-content").first
    assert direction(code) == "ltr"
    assert 'set_language("he")' in code.inner_text()
    cards = page.locator(".jp-Notebook .jp-OutputArea .bg-cards").first
    cards.wait_for()
    assert direction(cards) == "ltr"


def test_hebrew_notebook_runs_and_its_widget_is_right_to_left(
        page: Any, tmp_path: Path, jupyterlab: Callable[[Path], str]) -> None:
    open_notebook(page, jupyterlab, tmp_path, "01_cards_and_dealing.ipynb")
    page.wait_for_function("""() => { const w = window.jupyterapp.shell.currentWidget;
        const s = w && w.sessionContext && w.sessionContext.session;
        return s && s.kernel && s.kernel.connectionStatus === 'connected'; }""",
                           timeout=300_000)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    widget = page.locator(".jp-Notebook .bg-deal-widget")
    expect(widget.locator("button.bg-btn-deal")).to_be_visible(timeout=300_000)
    page.wait_for_function(ALL_RUN_JS, timeout=300_000)
    errors = page.locator(".jp-Notebook [data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, "a cell raised an error or wrote to stderr"
    assert direction(widget.first) == "rtl"
    assert HEBREW.search(widget.locator("button.bg-btn-deal").first.inner_text())
    hand = widget.locator(".bg-deal-readout .bg-hand-box .bg-card").first
    row = hand.locator("xpath=..")
    assert direction(row) == "ltr"
    xs = [b["x"] for b in (c.bounding_box() for c in row.locator(".bg-card").all()) if b]
    assert len(xs) == 10 and xs == sorted(xs)
    widget.first.scroll_into_view_if_needed()
