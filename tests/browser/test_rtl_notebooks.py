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


@pytest.fixture(scope="module")
def lab(jupyterlab: Callable[[Path], str],
        tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One JupyterLab for the module (each test opens its own copies, in a folder of its
    own, on a reset workspace): its root folder and its URL."""
    folder = tmp_path_factory.mktemp("rtl-lab")
    return folder, jupyterlab(folder)


def open_notebook(page: Any, lab: tuple[Path, str], request: pytest.FixtureRequest,
                  name: str) -> None:
    """A fresh copy of the Hebrew notebook ``name``, opened in a folder of the test's
    own, the workspace reset (no other test's notebook open beside it)."""
    root, url = lab
    mine = re.sub(r"\W", "_", request.node.name)
    (root / mine).mkdir()
    shutil.copy(ROOT / "notebooks" / "he" / name, root / mine / name)
    page.set_viewport_size({"width": 1200, "height": 1400})
    page.goto(url.replace("/lab?", f"/lab/tree/{mine}/{name}?reset&"))
    page.wait_for_function("() => window.jupyterapp !== undefined")
    page.locator(".jp-Notebook .jp-MarkdownOutput").first.wait_for(timeout=300_000)


def direction(locator: Any) -> str:
    return str(locator.evaluate("e => getComputedStyle(e).direction"))


def test_hebrew_prose_reads_right_to_left_and_cards_left_to_right(
        page: Any, lab: tuple[Path, str], request: pytest.FixtureRequest) -> None:
    open_notebook(page, lab, request, "01_cards_and_dealing.he.ipynb")
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
        page: Any, lab: tuple[Path, str], request: pytest.FixtureRequest) -> None:
    open_notebook(page, lab, request, "01_cards_and_dealing.he.ipynb")
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


#: The left edges of the first character of ``a`` and of ``b`` in the first text node of
#: ``root`` that holds the string ``token`` (``a`` and ``b`` are its first and last
#: characters): on screen, a left-to-right token has ``a`` left of ``b``.
ORDER_JS = """([selector, token]) => {
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.indexOf(token);
      if (at < 0 || !/[\\u0590-\\u05ff]/.test(root.textContent)) continue;
      const box = i => { const r = document.createRange();
        r.setStart(node, i); r.setEnd(node, i + 1); return r.getBoundingClientRect().left; };
      return [box(at), box(at + token.length - 1)];
    }
  }
  return null;
}"""


def test_cards_and_code_keep_their_order_inside_hebrew_prose_and_output(
        page: Any, lab: tuple[Path, str], request: pytest.FixtureRequest) -> None:
    """Notebook 3 in Hebrew, as saved: "ה־K♦" in a paragraph shows K left of ♦ (not
    "♦K"), a code span reads as written, and the printed "נלקח: 2C" keeps 2 before C."""
    open_notebook(page, lab, request, "03_knocking.he.ipynb")
    prose = ".jp-Notebook .jp-MarkdownOutput div[dir='rtl'] :is(p, li)"
    output = ".jp-Notebook .jp-OutputArea-output pre"
    for where, token in ((prose, "K♦"), (prose, "5♣"), (prose, "best_discards"),
                         (output, "2C")):
        # JupyterLab renders cells as they come into view: scroll until the token shows
        handle = page.wait_for_function(
            """([selector, token, order]) => {
                 const found = eval(order)([selector, token]);
                 if (found) return found;
                 const scroller = document.querySelector('.jp-WindowedPanel-outer');
                 if (scroller) scroller.scrollTop += 300;
                 return null; }""", arg=[where, token, ORDER_JS], timeout=60_000,
            polling=250)
        first, last = handle.json_value()
        assert first < last, f"{token} is shown reversed among Hebrew words: {first, last}"
    page.locator(prose).filter(has_text="K♦").first.scroll_into_view_if_needed()


def test_hebrew_kata_feedback_keeps_cards_and_code_in_order(page: Any) -> None:
    """A failed kata's feedback in Hebrew, as the notebook shows it (its HTML): every card
    of the counterexample and the call reads left to right inside the Hebrew sentences."""
    from box_gin.i18n import set_language
    from box_gin.katas import check
    from box_gin.katas.feedback import CheckResult

    def card_value(card: Any) -> int:  # wrong for the face cards
        return min(card.rank, 9)

    set_language("he")
    try:
        result = check(card_value, "card_value")
        assert isinstance(result, CheckResult), result
        html = result._repr_html_()
    finally:
        set_language("en")
    page.set_viewport_size({"width": 900, "height": 700})
    page.set_content(f'<html lang="he"><body><div dir="rtl" id="out">{html}</div></body></html>')
    text = page.inner_text("#out")
    assert HEBREW.search(text)
    tokens = [t for t in re.findall(r"(?:10|[2-9TJQKA])[♣♦♥♠CDHS]|card_value\(\w+\)", text)]
    assert tokens, text
    for token in set(tokens):
        found = page.evaluate(ORDER_JS, ["#out *", token])
        if found is not None:
            assert found[0] < found[1], f"{token} is reversed in the feedback: {found}"
