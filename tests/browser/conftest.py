"""Fixtures for end-to-end tests in a real, headless Chromium (Debian's, via Playwright).

Every page fails its test on a console error or an uncaught page error, and leaves a
screenshot of its final state in ``tests/browser/screenshots/`` (ignored by git).
Servers (Voila, JupyterLab) start in their own process group and are killed with it,
so their kernels die too.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).with_name("screenshots")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def find_chromium() -> str | None:
    """Debian's Chromium, or the one named by BOX_GIN_CHROMIUM."""
    named = os.environ.get("BOX_GIN_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


CHROMIUM = find_chromium()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM is not None:
        return
    skip = pytest.mark.skip(reason="no Chromium found: browser tests skipped "
                                   "(apt-get install chromium, or set BOX_GIN_CHROMIUM)")
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if CHROMIUM is None:
        terminalreporter.write_line(
            "NOTE: no Chromium was found, so the browser tests were SKIPPED "
            "(apt-get install chromium to run them).", yellow=True, bold=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(url: str, proc: subprocess.Popen[bytes], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


class Server:
    """A server process in its own session, killed with its whole process group."""

    def __init__(self, args: list[str], ready_url: str, base_url: str, cwd: Path,
                 env: dict[str, str] | None = None, log: Path | None = None) -> None:
        self.base_url = base_url
        self.log_path = log
        out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        try:
            wait_for(ready_url, self.proc)
        except Exception:
            self.stop()
            raise

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("JUPYTER_PLATFORM_DIRS", None)
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra or {})
    return env


@pytest.fixture(scope="session")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., str]]:
    """Start Voila on a notebook as ``make play`` does (box_gin.tools.play: the kit's
    template and settings, the notebook signed); returns the URL that renders it."""
    from box_gin.tools.play import sign, voila_command, voila_env

    servers: list[Server] = []

    def start(notebook: Path, env: dict[str, str] | None = None) -> str:
        port = free_port()
        folder = tmp_path_factory.mktemp("voila")
        (folder / "tables").mkdir()
        sign(notebook, folder / "trust")
        server = Server(
            [*voila_command(notebook, port, trust_dir=folder / "trust"),
             "--VoilaConfiguration.file_allowlist=['.*']"],
            ready_url=f"http://127.0.0.1:{port}/voila/static/favicon.ico",
            base_url=f"http://127.0.0.1:{port}/", cwd=notebook.parent,
            env=voila_env(server_env(env), folder / "tables"), log=folder / "voila.log")
        servers.append(server)
        return server.base_url

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[Path], str]]:
    """Start JupyterLab (as root, with its own settings and workspaces) on a folder."""
    servers: list[Server] = []

    def start(folder: Path) -> str:
        port = free_port()
        home = tmp_path_factory.mktemp("lab")
        settings = home / "settings"
        notif = settings / "@jupyterlab" / "apputils-extension"
        notif.mkdir(parents=True)
        (notif / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        token = "box-gin-test"
        server = Server(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
             "--ServerApp.ip=127.0.0.1", "--ServerApp.allow_root=True",
             f"--IdentityProvider.token={token}",
             f"--LabApp.user_settings_dir={settings}",
             f"--LabApp.workspaces_dir={home / 'workspaces'}",
             "--LabApp.expose_app_in_browser=True", f"--ServerApp.root_dir={folder}"],
            ready_url=f"http://127.0.0.1:{port}/api/status?token={token}",
            base_url=f"http://127.0.0.1:{port}/", cwd=folder,
            env=server_env({"JUPYTER_CONFIG_DIR": str(home / "config"),
                            "JUPYTER_DATA_DIR": str(home / "data")}),
            log=home / "lab.log")
        servers.append(server)
        return f"{server.base_url}lab?token={token}"

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no Chromium found")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


#: The height of the page's content, even when it scrolls inside an element (Voila's lab
#: template scrolls its body inside a container, which ``full_page`` does not see).
CONTENT_HEIGHT_JS = """() => Math.max(document.documentElement.scrollHeight,
  ...[...document.querySelectorAll('body *')].filter(e => {
    const o = getComputedStyle(e).overflowY; return o === 'auto' || o === 'scroll';
  }).map(e => e.scrollHeight + e.getBoundingClientRect().top))"""


def grow_to_content(pg: Any, limit: int = 5000) -> None:
    """Make the viewport as tall as the content (up to ``limit``), for a whole screenshot.
    Not for JupyterLab, whose panels fill the window whatever its height."""
    if "/lab" in pg.url:
        return
    try:
        height = int(pg.evaluate(CONTENT_HEIGHT_JS))
    except Exception:  # a screenshot of the viewport is still worth having
        return
    size = pg.viewport_size or {"width": 1280, "height": 900}
    if height > size["height"]:
        pg.set_viewport_size({"width": size["width"], "height": min(height + 20, limit)})
        pg.wait_for_timeout(100)


@contextlib.contextmanager
def checked_page(browser: Any, name: str) -> Iterator[tuple[Any, list[str]]]:
    """A fresh page and the list where its console errors, page errors and requests
    beyond this machine are written; a screenshot of its final state is saved as
    ``name``.png when it closes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []

    def offline(route: Any) -> None:
        # Nothing the kit serves may reach outside this machine: any such request fails
        # the test (the play app's template links no CDN).
        errors.append(f"external request: {route.request.url}")
        route.abort()

    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]|localhost[:/])"), offline)
    pg = context.new_page()
    pg.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}")
          if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    pg.set_default_timeout(300_000)
    yield pg, errors
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        grow_to_content(pg)
        pg.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    finally:
        context.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page that records console errors and page errors; the test fails on any,
    and a screenshot of the final state is saved."""
    with checked_page(browser, request.node.name) as (pg, errors):
        yield pg
    assert not errors, "browser errors:\n" + "\n".join(errors)


@pytest.fixture(scope="module")
def module_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[tuple[Any, list[str]]]:
    """One page for a whole module whose tests only look at what it shows (a page that
    takes long to load, read by several tests): the page and its list of errors, which
    each test must check (see tests/browser/test_widgets_look.py's ``shown``)."""
    with checked_page(browser, request.module.__name__) as (pg, errors):
        yield pg, errors
    assert not errors, "browser errors:\n" + "\n".join(errors)
