"""JupyterLab itself, where learners work: open notebook 1 (a copy, so nothing in the
repository is saved over), run all cells, then use the Deal widget in the page."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from box_gin import STANDARD, Match, Role
from box_gin.tools.kit import kit_files

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = kit_files(ROOT, "notebooks/01_*.ipynb")[0]
SEED = 4242
PLAYERS = ["Ada", "Ben", "Cy"]        # as notebook 1 creates its Deal widget

KERNEL_STATUS_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = w && w.sessionContext && w.sessionContext.session
                 && w.sessionContext.session.kernel;
  return kernel ? kernel.connectionStatus : null;
}"""


#: Every code cell has run (run-all clears each count when it queues the cell) and the
#: kernel is idle: later cells, which drive the widget from code, are done.
ALL_RUN_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session.kernel;
  return kernel.status === 'idle' && w.content.widgets.every(
    c => c.model.type !== 'code' || c.model.executionCount !== null);
}"""


def cards(locator: Any) -> list[str]:
    return list(locator.locator(".bg-card").evaluate_all("cs => cs.map(c => c.dataset.card)"))


def test_run_notebook_in_jupyterlab_and_deal(page: Any, tmp_path: Path,
                                             jupyterlab: Callable[[Path], str]) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(NOTEBOOK, folder / NOTEBOOK.name)
    url = jupyterlab(folder)
    page.goto(url.replace("/lab?", f"/lab/tree/{NOTEBOOK.name}?"))
    page.wait_for_function("() => window.jupyterapp !== undefined")
    page.wait_for_function(f"({KERNEL_STATUS_JS})() === 'connected'", timeout=300_000)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")

    widget = page.locator(".jp-Notebook .bg-deal-widget")   # only a live widget has it
    expect(widget.locator("button.bg-btn-deal")).to_be_visible(timeout=300_000)
    page.wait_for_function(ALL_RUN_JS, timeout=300_000)
    errors = page.locator(".jp-Notebook [data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, "a cell raised an error or wrote to stderr"
    seed = widget.locator(".bg-seed input")
    seed.fill(str(SEED))
    seed.press("Enter")
    widget.locator("button.bg-btn-deal").click()

    hand = Match.new(PLAYERS, STANDARD, SEED).hand
    box = widget.locator(".bg-deal-readout .bg-hand-box")
    page.wait_for_function(
        """want => [...document.querySelectorAll(
             '.jp-Notebook .bg-deal-widget .bg-deal-readout .bg-hand-box .bg-card')]
           .map(c => c.dataset.card).join(' ') === want""",
        arg=" ".join(repr(c) for c in hand.cards(Role.BOX)), timeout=300_000)
    assert cards(box) == [repr(c) for c in hand.cards(Role.BOX)]
    captain = widget.locator(".bg-deal-readout .bg-hand-captain")
    assert cards(captain) == [repr(c) for c in hand.cards(Role.CAPTAIN)]
    assert cards(widget.locator(".bg-deal-readout .bg-upcard")) == [repr(hand.upcard)]
    assert widget.locator(".bg-deal-readout .bg-stock").inner_text().strip() == \
        f"{hand.stock_size} cards in the stock"
