"""A fresh clone opened with ``make lab``'s command (``python -m box_gin.tools.lab``),
without running a cell: the kit's notebooks are trusted, so their saved outputs keep
their styles (JupyterLab's sanitizer drops the ``<style>`` of an untrusted output and the
cards run together), while a learner's own notebook is not trusted.  And the server
starts without the noise the kit can avoid."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).with_name("screenshots")
TOKEN = "box-gin-test"
PATIENCE = 300.0
NOTEBOOK = "notebooks/01_cards_and_dealing.ipynb"

#: How the first saved card face is drawn: its border and its width.
CARD_STYLE_JS = """() => {
  const card = document.querySelector('.jp-Notebook .jp-OutputArea-output .bg-card');
  if (!card) return null;
  const style = getComputedStyle(card);
  return {border: style.borderTopStyle, width: card.getBoundingClientRect().width,
          display: style.display};
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def clone_in_lab(tmp_path_factory: pytest.TempPathFactory) -> Any:
    home = tmp_path_factory.mktemp("fresh")
    clone = home / "box-gin"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True,
                   capture_output=True)
    # A learner's own notebook: notebook 1's saved outputs under a note of theirs (an
    # exact copy would be trusted: a signature is of the content, wherever it lies).
    mine = json.loads((clone / NOTEBOOK).read_text("utf-8"))
    mine["cells"].insert(0, {"cell_type": "markdown", "id": "mine", "metadata": {},
                             "source": ["My notes"]})
    (clone / "notebooks" / "Mine.ipynb").write_text(json.dumps(mine), "utf-8")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_PLATFORM_DIRS"}
    # The kernels' sockets in a short folder of their own: under pytest's deeper folders
    # (pytest-xdist's popen-gw0/) a socket's path would pass its 107 bytes, so the lab
    # tool would rightly fall back to TCP and log the very noise this module checks for.
    runtime = Path(tempfile.mkdtemp(prefix="bg-rt-", dir="/tmp" if os.path.isdir("/tmp")
                                    else None))
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(runtime), PYTHONPATH=str(ROOT))
    log = home / "lab.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "box_gin.tools.lab", str(clone), "--", "--no-browser",
             f"--port={port}", "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}",
             f"--LabApp.user_settings_dir={home / 'settings'}",
             f"--LabApp.workspaces_dir={home / 'workspaces'}",
             "--LabApp.expose_app_in_browser=True"],
            cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + PATIENCE
    while True:
        with contextlib.suppress(OSError), urllib.request.urlopen(
                f"{base}api/status?token={TOKEN}", timeout=30) as answer:
            if answer.status == 200:
                break
        assert proc.poll() is None, log.read_text("utf-8", "replace")
        assert time.monotonic() < deadline, "JupyterLab did not start"
        time.sleep(0.5)
    yield base, log, clone
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(PATIENCE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    shutil.rmtree(runtime, ignore_errors=True)


def open_saved(page: Any, base: str, path: str) -> dict[str, Any]:
    # ?reset: a workspace of its own (another notebook's styles would apply page-wide)
    page.goto(f"{base}lab/tree/{path}?reset&token={TOKEN}")
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=PATIENCE * 1000)
    page.wait_for_function(f"({CARD_STYLE_JS})() !== null", timeout=PATIENCE * 1000)
    style: dict[str, Any] = page.evaluate(CARD_STYLE_JS)
    page.locator(".jp-Notebook .jp-OutputArea-output .bg-card").first.scroll_into_view_if_needed()
    return style


def test_a_learners_own_notebook_stays_untrusted(page: Any, clone_in_lab: Any):
    base, _log, _clone = clone_in_lab
    style = open_saved(page, base, "notebooks/Mine.ipynb")
    page.screenshot(path=str(SCREENSHOTS / "fresh-clone-learners-notebook.png"))
    assert style["border"] != "solid", style    # the sanitizer dropped its <style>


def test_a_fresh_clone_shows_the_kits_saved_cards_styled(page: Any, clone_in_lab: Any):
    base, log, _clone = clone_in_lab
    style = open_saved(page, base, NOTEBOOK)
    page.screenshot(path=str(SCREENSHOTS / "fresh-clone-notebook-1-untouched.png"))
    # (a card's inline-flex is "flex" inside the row of cards, itself a flex box)
    assert style["border"] == "solid" and style["display"] in ("flex", "inline-flex"), style
    assert style["width"] > 25, style           # a card face, not a letter in a run of text
    text = log.read_text("utf-8", "replace")
    assert f"{NOTEBOOK} is not trusted" not in text


def test_lab_starts_without_the_noise_the_kit_can_avoid(page: Any, clone_in_lab: Any):
    base, log, _clone = clone_in_lab
    open_saved(page, base, NOTEBOOK)        # a kernel starts, its websocket connects
    page.wait_for_function("""() => {
      const w = window.jupyterapp.shell.currentWidget;
      const k = w && w.sessionContext && w.sessionContext.session
                && w.sessionContext.session.kernel;
      return k && k.connectionStatus === 'connected' && k.status === 'idle';
    }""", timeout=PATIENCE * 1000)
    text = log.read_text("utf-8", "replace")
    for noise in ("running over TCP without encryption", "websocket_ping_timeout"):
        assert noise not in text, noise
