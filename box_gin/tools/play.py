"""Play box gin in a browser: the Game Table as a web app, served by Voila.

    python -m box_gin.tools.play [--host H] [--port P] [--seed N] [--lang CODE] [--no-browser]

(``make play`` runs this.)  Voila runs ``notebooks/play.ipynb``, a notebook that shows
no code: a setup form (your name, your seat or the cut, the two bots, the seed, the
rules and the target), then the Game Table.  The server listens on 127.0.0.1 unless
``--host`` says otherwise (with a warning: anyone who reaches that address may play);
the URL is printed, and a browser opens when there is a display.  Ctrl-C stops the
server together with its kernels (its whole process group).

What the server is given (``jupyter-config/play/voila.py``, with the page template
``jupyter-config/data/voila/templates/box-gin``):

- each page's kernel is freed when the page closes: Voila's page sends a shutdown
  request as it unloads, with the ``_xsrf`` cookie, which :func:`prelaunch_hook` makes
  the server set (without it the request is refused with 403), and kernels left idle
  with no page connected are culled;
- each browser gets a table id (a cookie); the kernel keeps that browser's game in a
  folder of this server's (``BOX_GIN_PLAY_STATE``), so a reload deals it again and
  replays its moves (:class:`box_gin.widgets.play_app.TableStore`);
- the page loads nothing from outside the machine (Voila's own template links Font
  Awesome from a CDN; the kit's template does not, the icons are in Voila's bundle);
- no start-up noise: the notebook is signed for this server (no "not trusted"), kernels
  talk over local sockets (no "running over TCP without encryption").

The notebook calls :func:`app` (the widget, :mod:`box_gin.widgets.play_app`), which reads
its defaults from the environment, so a test (or a teacher) can fix them:
``BOX_GIN_SEED``, ``BOX_GIN_LANG`` (read by :mod:`box_gin.i18n`), ``BOX_GIN_NAME``,
``BOX_GIN_SEAT`` (``cut``, ``box``, ``captain`` or ``sitter``), ``BOX_GIN_BOTS``
(``greedy`` or ``random``, or two of them separated by a comma), ``BOX_GIN_RULES`` (a
name in :data:`box_gin.PRESETS`) and ``BOX_GIN_TARGET``.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import webbrowser
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..i18n import _, set_language

# The app itself is a widget, box_gin.widgets.play_app; the notebooks (notebooks/play.ipynb
# and its translations) import app from here, as they did.
from ..rules import preset_names
from ..widgets.play_app import TABLE_ID, Settings, app, seat_players

__all__ = ["NOTEBOOK", "Settings", "app", "main", "preset_names", "seat_players"]

#: The notebook Voila serves (in a source checkout).
NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "play.ipynb"
#: The kit's Jupyter settings (jupyter-config/): the server's for the app in ``play/``,
#: the page template in ``data/``.
CONFIG = Path(__file__).resolve().parents[2] / "jupyter-config"
#: The cookie that names a browser's table.
TABLE_COOKIE = "box_gin_table"
#: Seconds a kernel may sit idle with no page connected before the server culls it.
CULL_IDLE_SECONDS = 600


# -- inside the server -----------------------------------------------------------------------

def prelaunch_hook(req: Any, notebook: Any, cwd: str) -> Any:
    """Voila calls this (``VoilaConfiguration.prelaunch_hook``) as a page asks for a new
    kernel: it sets the ``_xsrf`` cookie, which the page sends back when it closes so the
    server frees its kernel, and a table id cookie for this browser, which the kernel
    reads as ``BOX_GIN_TABLE`` (a first, silent cell)."""
    _ = req.xsrf_token          # tornado sets the _xsrf cookie when it is read
    table = req.get_cookie(TABLE_COOKIE) or ""
    if not TABLE_ID.match(table):
        table = secrets.token_urlsafe(18)
        req.set_cookie(TABLE_COOKIE, table, httponly=True, samesite="Strict",
                       expires_days=30, path="/")
    import nbformat

    assert TABLE_ID.match(table)  # only these characters reach the cell
    notebook.cells.insert(0, nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
        f"import os\nos.environ['BOX_GIN_TABLE'] = {table!r}"))
    return notebook


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


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.0.0.1, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def voila_command(notebook: Path, port: int, host: str = "127.0.0.1",
                  trust_dir: Path | None = None) -> list[str]:
    """The command that serves ``notebook`` on ``host``:``port`` with the kit's template
    (run it with :func:`voila_env`); ``trust_dir``: where :func:`sign` signed it."""
    command = [sys.executable, "-m", "voila", notebook.name, "--no-browser",
               f"--port={port}", f"--Voila.ip={host}", "--theme=light",
               "--template=box-gin"]
    if os.name == "posix":   # local sockets: no "Kernel is running over TCP" warning
        command.append("--KernelManager.transport=ipc")
    if trust_dir is not None:
        command.append(f"--NotebookNotary.data_dir={trust_dir}")
    return command


def voila_env(env: Mapping[str, str], state_dir: Path) -> dict[str, str]:
    """``env`` with the kit's Voila settings and template, and the tables' folder."""
    out = dict(env)
    for name, path in (("JUPYTER_CONFIG_PATH", CONFIG / "play"),
                       ("JUPYTER_PATH", CONFIG / "data")):
        out[name] = os.pathsep.join([str(path), *filter(None, out.get(name, "").split(
            os.pathsep))])
    out["BOX_GIN_PLAY_STATE"] = str(state_dir)
    return out


def sign(notebook: Path, trust_dir: Path) -> None:
    """Sign ``notebook`` in a notary of its own at ``trust_dir`` (the server's, for this
    run): Voila then does not warn that it is not trusted, and nothing is written into
    the home folder."""
    import nbformat
    from nbformat.sign import NotebookNotary

    trust_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    notary = NotebookNotary(data_dir=str(trust_dir))  # type: ignore[no-untyped-call]
    notary.sign(nbformat.read(notebook, as_version=4))  # type: ignore[no-untyped-call]


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the app until Ctrl-C; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m box_gin.tools.play",
        description=_("Serve the Game Table as a web app (Voila) on localhost."))
    parser.add_argument("--host", default="127.0.0.1",
                        help=_("the address to listen on (default: 127.0.0.1, this "
                               "machine only)"))
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
    if not is_loopback(args.host):
        print(_("Warning: listening on {host}, not on this machine only: anyone who can "
                "reach this address may open the app and start kernels here.").format(
            host=args.host), file=sys.stderr, flush=True)
    notebook: Path = args.notebook.resolve()
    if not notebook.is_file():
        print(_("No app notebook at {path}: run this from a box-gin checkout.").format(
            path=notebook), file=sys.stderr)
        return 2
    port = args.port or free_port()
    state = Path(tempfile.mkdtemp(prefix="box-gin-play-"))   # mode 700: this user's only
    (state / "tables").mkdir()
    env = voila_env(os.environ, state / "tables")
    if args.seed is not None:
        env["BOX_GIN_SEED"] = str(args.seed)
    if args.lang:
        env["BOX_GIN_LANG"] = args.lang
    sign(notebook, state / "trust")
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
    print(_("Starting Voila on {url} ...").format(url=url), flush=True)
    try:
        proc = subprocess.Popen(voila_command(notebook, port, args.host, state / "trust"),
                                cwd=notebook.parent, env=env, start_new_session=True)
    except BaseException:
        shutil.rmtree(state, ignore_errors=True)
        raise
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
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

