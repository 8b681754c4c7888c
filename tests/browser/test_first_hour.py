"""A learner's first hour, in JupyterLab started as ``make lab`` starts it (the command of
``box_gin.tools.lab``, with a fresh home folder): the landing page opens first with no news
pop-up and no start-up warnings; its link opens notebook 2, which runs and whose Meld
Explorer works; the recap's link opens the kata notebook, and a kata written there passes
its check.  The kit is copied first, so nothing in the repository is saved over."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from box_gin.tools.lab import CONFIG, LANDING, lab_command


def _conftest() -> Any:
    """This folder's conftest as a module of its own (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location("box_gin_browser_conftest",
                                                  Path(__file__).with_name("conftest.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_helpers = _conftest()
SCREENSHOTS, Server = _helpers.SCREENSHOTS, _helpers.Server
free_port, server_env = _helpers.free_port, _helpers.server_env

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "first-hour"

#: The path of the document in the main area's current tab.
CURRENT_PATH_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  return w && w.context ? w.context.path : null;
}"""

KERNEL_READY_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session
            && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""

ALL_RUN_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session.kernel;
  return kernel.status === 'idle' && w.content.widgets.every(
    c => c.model.type !== 'code' || c.model.executionCount !== null);
}"""


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The kit's learner-facing files in a fresh folder, served as ``make lab`` serves it."""
    folder = tmp_path_factory.mktemp("kit")
    shutil.copy(ROOT / LANDING, folder / LANDING)
    for name in ("notebooks", "exercises", CONFIG):
        shutil.copytree(ROOT / name, folder / name,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    home = tmp_path_factory.mktemp("home")
    port = free_port()
    extra = ["--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
             f"--IdentityProvider.token={TOKEN}",
             f"--LabApp.workspaces_dir={home / 'workspaces'}",
             "--LabApp.expose_app_in_browser=True"]
    env = server_env({"JUPYTER_CONFIG_DIR": str(home / "config"),
                      "JUPYTER_DATA_DIR": str(home / "data"),
                      "JUPYTER_RUNTIME_DIR": str(home / "runtime")})
    env.pop("JUPYTER_CONFIG_PATH", None)
    command, env = lab_command(folder, extra, env)
    assert command[0] == sys.executable
    log = home / "lab.log"
    server = Server(command, ready_url=f"http://127.0.0.1:{port}/api/status?token={TOKEN}",
                    base_url=f"http://127.0.0.1:{port}/", cwd=folder, env=env, log=log)
    yield server.base_url, log
    server.stop()


def snap(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"first-hour-{name}.png"))


def wait_for_document(page: Any, path: str) -> None:
    page.wait_for_function(f"() => ({CURRENT_PATH_JS})() === {path!r}", timeout=300_000)


def run_cell(page: Any, index: int) -> None:
    page.evaluate(f"""() => {{
      const nb = window.jupyterapp.shell.currentWidget.content;
      nb.activeCellIndex = {index};
      return window.jupyterapp.commands.execute('notebook:run-cell');
    }}""")


def cell_index(page: Any, text: str) -> int:
    return int(page.evaluate(f"""() => window.jupyterapp.shell.currentWidget.content.widgets
        .findIndex(c => c.model.sharedModel.getSource().includes({text!r}))"""))


def test_the_first_hour(page: Any, kit: tuple[str, Path]) -> None:
    base_url, log = kit
    # 1. The server's address opens the landing page, and nothing else asks for attention.
    page.goto(f"{base_url}?token={TOKEN}")
    page.wait_for_function("() => window.jupyterapp !== undefined")
    wait_for_document(page, LANDING)
    landing = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    expect(landing.get_by_role("heading", name="Start here", exact=False)).to_be_visible()
    url = f"{base_url}lab/api/settings/@jupyterlab/apputils-extension:notification"
    with urllib.request.urlopen(f"{url}?token={TOKEN}") as response:
        schema = json.load(response)["schema"]["properties"]
    assert schema["fetchNews"]["default"] == "false"         # the kit's default, not asked
    assert schema["checkForUpdates"]["default"] is False
    page.wait_for_timeout(3000)             # the news question comes a moment after start
    assert page.get_by_text("official Jupyter news").count() == 0
    started = log.read_text("utf-8", "replace")
    assert "DeprecationWarning" not in started and "Skipped non-installed" not in started
    snap(page, "1-landing")

    # 2. Its link opens notebook 2; Run All; the Meld Explorer answers clicks.
    landing.get_by_role("link", name="Meld finding", exact=True).click()
    wait_for_document(page, "notebooks/02_meld_finding.ipynb")
    page.wait_for_function(KERNEL_READY_JS, timeout=300_000)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    explorer = notebook.locator(".bg-meld-explorer")
    expect(explorer.locator("button.bg-btn-clear")).to_be_visible(timeout=300_000)
    page.wait_for_function(ALL_RUN_JS, timeout=300_000)
    errors = notebook.locator("[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, "a cell raised an error or wrote to stderr"
    explorer.locator("button.bg-btn-clear").click()
    for card in ("4H", "5H", "6H", "9C"):
        explorer.locator(f".bg-deck button.bg-card-{card}").click()
    expect(explorer.locator(".bg-deadwood-readout")).to_have_text("Least deadwood: 9")
    for card in ("4H", "5H", "6H"):
        explorer.locator(f".bg-explorer-hand button.bg-card-{card}").click()
    explorer.locator("button.bg-btn-make-meld").click()
    expect(explorer.locator(".bg-compare-readout")).to_have_text(
        "Your deadwood 9 equals the best, 9.")
    explorer.scroll_into_view_if_needed()
    snap(page, "2-meld-explorer")

    # 3. The recap's link opens the katas; one is written and passes its check.
    notebook.get_by_role("link", name="exercises/02_melds.ipynb", exact=True).click()
    wait_for_document(page, "exercises/02_melds.ipynb")
    page.wait_for_function(KERNEL_READY_JS, timeout=300_000)
    run_cell(page, cell_index(page, "from box_gin.katas import check"))
    kata = cell_index(page, "def is_set(cards):")
    editor = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").nth(kata).locator(
        ".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("def is_set(cards): return 3 <= len(cards) <= 4 and "
                       "len({card.rank for card in cards}) == 1")
    run_cell(page, kata)
    run_cell(page, kata + 1)
    checked = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").nth(
        kata + 1).locator(".bg-check")
    expect(checked).to_contain_text("is_set: passed", timeout=300_000)
    checked.scroll_into_view_if_needed()
    snap(page, "3-kata-checked")


def test_notebook_6_keeps_its_answers_folded_until_asked(page: Any,
                                                         kit: tuple[str, Path]) -> None:
    base_url, _log = kit
    path = "notebooks/06_strategy_by_simulation.ipynb"
    page.goto(f"{base_url}lab/tree/{path}?token={TOKEN}")
    page.wait_for_function("() => window.jupyterapp !== undefined")
    wait_for_document(page, path)
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    answer = notebook.locator("details.bg-folded").first
    expect(answer).to_be_attached(timeout=300_000)
    answer.scroll_into_view_if_needed()
    numbers = answer.locator(".bg-folded-text")
    assert "of decided hands" in (numbers.text_content() or "")
    expect(numbers).to_be_hidden()                   # stored, but closed
    snap(page, "4-notebook-6-folded")
    answer.locator("summary").click()
    expect(numbers).to_be_visible()
    expect(numbers).to_contain_text("box scores")
    snap(page, "5-notebook-6-opened")
