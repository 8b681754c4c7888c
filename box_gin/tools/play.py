"""Play box gin in a browser: the Game Table as a web app, served by Voila.

    python -m box_gin.tools.play [--port P] [--seed N] [--lang CODE] [--no-browser]

(``make play`` runs this.)  Voila runs ``notebooks/play.ipynb``, a notebook that shows
no code: a setup form (your name, your seat or the cut, the two bots, the seed, the
rules and the target), then the Game Table.  The server listens on localhost only; the
URL is printed, and a browser opens when there is a display.  Ctrl-C stops the server
together with its kernels (its whole process group).

The notebook calls :func:`app` (the widget, :mod:`box_gin.widgets.play_app`), which reads
its defaults from the environment, so a test (or a teacher) can fix them:
``BOX_GIN_SEED``, ``BOX_GIN_LANG`` (read by :mod:`box_gin.i18n`), ``BOX_GIN_NAME``,
``BOX_GIN_SEAT`` (``cut``, ``box``, ``captain`` or ``sitter``), ``BOX_GIN_BOTS``
(``greedy`` or ``random``, or two of them separated by a comma), ``BOX_GIN_RULES`` (a
name in :data:`box_gin.PRESETS`) and ``BOX_GIN_TARGET``.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import webbrowser
from collections.abc import Sequence
from pathlib import Path

from ..i18n import _, set_language

# The app itself is a widget, box_gin.widgets.play_app; the notebooks (notebooks/play.ipynb
# and its translations) import app from here, as they did.
from ..widgets.play_app import Settings, app, preset_names, seat_players

__all__ = ["NOTEBOOK", "Settings", "app", "main", "preset_names", "seat_players"]

#: The notebook Voila serves (in a source checkout).
NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "play.ipynb"


# -- serving it ------------------------------------------------------------------------------

def free_port() -> int:
    """A TCP port free on localhost now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def has_display() -> bool:
    """Whether a browser could open a window here (not in CI, not on a headless box)."""
    if os.environ.get("CI"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def wait_until_ready(url: str, proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Poll ``url`` until it answers 200; False if the server died or time ran out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.2)
    return False


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server and its kernels: its whole process group."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        proc.wait()


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def voila_command(notebook: Path, port: int) -> list[str]:
    """The command that serves ``notebook`` on localhost:``port``."""
    return [sys.executable, "-m", "voila", notebook.name, "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", "--theme=light"]


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the app until Ctrl-C; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m box_gin.tools.play",
        description=_("Serve the Game Table as a web app (Voila) on localhost."))
    parser.add_argument("--port", type=int, default=0,
                        help=_("the port to listen on (default: a free one)"))
    parser.add_argument("--seed", type=int, default=None,
                        help=_("the seed the form starts with (default: a random one)"))
    parser.add_argument("--lang", default=None,
                        help=_("the language, such as en, fr or he (default: your locale)"))
    parser.add_argument("--no-browser", action="store_true",
                        help=_("do not open a browser"))
    parser.add_argument("--notebook", type=Path, default=NOTEBOOK, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.lang:
        set_language(args.lang)          # this process's own messages, too
    notebook: Path = args.notebook.resolve()
    if not notebook.is_file():
        print(_("No app notebook at {path}: run this from a box-gin checkout.").format(
            path=notebook), file=sys.stderr)
        return 2
    port = args.port or free_port()
    env = dict(os.environ)
    if args.seed is not None:
        env["BOX_GIN_SEED"] = str(args.seed)
    if args.lang:
        env["BOX_GIN_LANG"] = args.lang
    url = f"http://127.0.0.1:{port}/"
    print(_("Starting Voila on {url} ...").format(url=url), flush=True)
    proc = subprocess.Popen(voila_command(notebook, port), cwd=notebook.parent, env=env,
                            start_new_session=True)
    # Ctrl-C, a hang-up or a plain kill: stop the server's whole group (it runs in its own
    # session, so it would outlive us).  Set even where SIGINT was ignored (a background job).
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _interrupt)
    try:
        if not wait_until_ready(f"{url}voila/static/favicon.ico", proc, timeout=120):
            print(_("Voila did not start (exit status {code}).").format(code=proc.poll()),
                  file=sys.stderr)
            return 1
        print(_("Play at {url} (press Ctrl-C to stop).").format(url=url), flush=True)
        if not args.no_browser and has_display():
            webbrowser.open(url)
        return proc.wait()
    except KeyboardInterrupt:
        print("\n" + _("Stopping the server."), flush=True)
        return 0
    finally:
        stop(proc)


if __name__ == "__main__":
    sys.exit(main())

