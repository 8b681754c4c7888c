"""``make play``'s server as a class would use it, in a real Chromium: pages that close
free their kernels (Voila's shutdown request is accepted, not refused for a missing
``_xsrf``), a reload keeps the game, and nothing the page asks for leaves 127.0.0.1.

The server is ``python -m box_gin.tools.play`` itself; its kernels are counted among its
processes.  Every wait is on a condition, with a generous limit that is never the point
of the test.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from box_gin.tools.play import is_loopback, main, voila_command

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).with_name("screenshots")
#: A limit for conditions that hold within a second on an idle machine.
PATIENCE = 300.0
#: The table's state, read from the page (as tests/browser/test_play_app.py reads it).
STATE_JS = """() => {
  const q = s => document.querySelector('.bg-game-table ' + s);
  const text = s => (q(s) ? q(s).innerText.trim() : '');
  const hand = [...document.querySelectorAll('.bg-game-table .bg-my-hand .bg-card-button')]
    .map(b => [...b.classList].find(c => /^bg-card-..$/.test(c)).slice(8));
  return {status: text('.bg-status'), hand: hand.join(' '),
          pile: text('.bg-pile-readout'), log: text('.bg-message')};
}"""


def eventually(condition: Callable[[], Any], what: str) -> Any:
    """Wait until ``condition()`` is true (polling), within :data:`PATIENCE`."""
    deadline = time.monotonic() + PATIENCE
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still not so after {PATIENCE:g} s: {what}")
        time.sleep(0.2)


class Play:
    """``python -m box_gin.tools.play`` running, its output in a file."""

    def __init__(self, log: Path) -> None:
        self.log = log
        env = dict(os.environ, PYTHONPATH=str(ROOT), CI="1", BOX_GIN_LANG="en")
        env.pop("JUPYTER_PLATFORM_DIRS", None)
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "box_gin.tools.play", "--seed", "7", "--no-browser"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)
        found = eventually(lambda: self.proc.poll() is not None or re.search(
            r"Play at (http://\S+)", log.read_text("utf-8", "replace")), "the URL printed")
        assert isinstance(found, re.Match), log.read_text("utf-8", "replace")
        self.url = found.group(1)

    def kernels(self) -> int:
        """How many kernels the server runs now."""
        try:
            procs = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return 0
        count = 0
        for p in procs:
            with contextlib.suppress(psutil.Error):
                if any("ipykernel_launcher" in part for part in p.cmdline()):
                    count += 1
        return count

    def output(self) -> str:
        return self.log.read_text("utf-8", "replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(PATIENCE)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def play(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Play]:
    server = Play(tmp_path_factory.mktemp("play") / "play.log")
    yield server
    server.stop()


def open_app(browser: Any, url: str, requests: list[str]) -> Any:
    """A page of a new browser context on the app, every request it makes recorded."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.on("request", lambda r: requests.append(r.url))
    page.set_default_timeout(PATIENCE * 1000)
    page.goto(url)
    page.locator(".bg-play-app button.bg-btn-start").wait_for()
    return page


def test_pages_that_close_free_their_kernels(browser: Any, play: Play) -> None:
    requests: list[str] = []
    before = play.kernels()
    pages = [open_app(browser, play.url, requests) for _ in range(3)]
    eventually(lambda: play.kernels() == before + 3, "a kernel for each page")
    for page in pages:
        context = page.context
        page.close(run_before_unload=True)   # the tab closes: Voila's page says so
        context.close()
    eventually(lambda: play.kernels() == before, "every closed page's kernel freed")
    assert "_xsrf' argument missing" not in play.output()
    assert not re.search(r"\b403 POST /voila/api/shutdown", play.output())


def twin_table(name: str, seat: str) -> Any:
    """The table the server's page deals for ``name`` in ``seat``, played here: the game is
    seeded (``--seed 7``) and the bots too, so it shows what the page will show."""
    from box_gin.widgets.play_app import PlayApp, Settings, TableStore

    settings = Settings.from_env({"BOX_GIN_SEED": "7", "BOX_GIN_NAME": name,
                                  "BOX_GIN_SEAT": seat})
    app = PlayApp(settings, store=TableStore(None, None))
    app.start()
    return app.table


def shown(table: Any) -> dict[str, str]:
    """What :data:`STATE_JS` reads of the page, read of ``table``: its status and hand."""
    status = " ".join(re.sub(r"<[^>]+>", " ", table.status.value).split())
    hand = " ".join(repr(b.card) for b in table.hand_row.children if hasattr(b, "card"))
    return {"status": status, "hand": hand}


def test_a_reload_keeps_the_game(browser: Any, play: Play) -> None:
    requests: list[str] = []
    page = open_app(browser, play.url, requests)
    page.locator(".bg-name input").fill("Dana")
    page.locator(".bg-seat select").select_option(label="captain")
    page.locator("button.bg-btn-start").click()
    page.locator(".bg-game-table .bg-status").wait_for()
    twin = twin_table("Dana", "captain")
    # Two moves of ours (the captain acts first: pass on the upcard, or take it).  A move
    # reaches the page as several messages, the hand's new card last of all: the page has
    # answered once its status and hand are the twin's (not at its first change).
    for _ in range(2):
        button = page.locator(".bg-game-table button.bg-btn-pass:not([disabled]), "
                              ".bg-game-table button.bg-btn-draw-stock:not([disabled])")
        classes = str(button.first.get_attribute("class"))
        twin.play("pass" if "bg-btn-pass" in classes.split() else "draw stock")
        button.first.click()
        expected = shown(twin)

        def answered(expected: dict[str, str] = expected) -> bool:
            state = page.evaluate(STATE_JS)
            return bool({k: " ".join(state[k].split()) for k in expected} == expected)

        eventually(answered, f"the table answers: {expected}")
    played = page.evaluate(STATE_JS)
    assert played["status"] and played["pile"]
    kernels = play.kernels()
    page.reload()
    page.locator(".bg-game-table .bg-status").wait_for()
    eventually(lambda: page.evaluate(STATE_JS) == played,
               f"the same table after the reload: {played}")
    assert page.locator(".bg-name input").input_value() == "Dana"
    page.screenshot(path=str(SCREENSHOTS / "play-app-after-reload.png"), full_page=True)
    # The old page's kernel is freed, the new page has one.
    eventually(lambda: play.kernels() == kernels, "one kernel for the reloaded page")
    # Another browser gets a table of its own.
    other = open_app(browser, play.url, requests)
    assert other.locator(".bg-game-table").count() == 0
    for pg in (page, other):
        context = pg.context
        pg.close(run_before_unload=True)
        context.close()


def test_nothing_the_page_asks_for_leaves_this_machine(browser: Any, play: Play) -> None:
    requests: list[str] = []
    page = open_app(browser, play.url, requests)
    page.locator("button.bg-btn-start").click()
    page.locator(".bg-game-table .bg-status").wait_for()
    page.wait_for_load_state("networkidle")
    assert requests
    elsewhere = [u for u in requests if not u.startswith(("http://127.0.0.1:", "data:",
                                                           "blob:", "ws://127.0.0.1:"))]
    assert elsewhere == []
    context = page.context
    page.close(run_before_unload=True)
    context.close()


def test_the_server_starts_quietly_and_culls_idle_kernels(play: Play) -> None:
    out = play.output()
    # a kernel whose page went away without a word is culled once idle (600 s)
    assert re.search(r"Culling kernels with idle durations > 600 seconds", out), out
    for noise in ("is not trusted", "running over TCP without encryption",
                  "websocket_ping_timeout", "notebook_secret"):
        assert noise not in out, noise


def test_listening_beyond_this_machine_is_said_plainly(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert "--Voila.ip=0.0.0.0" in voila_command(ROOT / "notebooks" / "play.ipynb", 1,
                                                 "0.0.0.0")
    assert main(["--host", "0.0.0.0", "--lang", "en", "--no-browser",
                 "--notebook", str(tmp_path / "none.ipynb")]) == 2
    err = capsys.readouterr().err
    assert "0.0.0.0" in err and "anyone" in err
    assert main(["--lang", "en", "--no-browser",
                 "--notebook", str(tmp_path / "none.ipynb")]) == 2
    assert "anyone" not in capsys.readouterr().err
