"""Play box gin in a browser: the Game Table as a web app, served by Voila.

    python -m box_gin.tools.play [--port P] [--seed N] [--lang CODE] [--no-browser]

(``make play`` runs this.)  Voila runs ``notebooks/play.ipynb``, a notebook that shows
no code: a setup form (your name, your seat or the cut, the two bots, the seed, the
rules and the target), then the Game Table.  The server listens on localhost only; the
URL is printed, and a browser opens when there is a display.  Ctrl-C stops the server
together with its kernels (its whole process group).

The notebook calls :func:`app`, which reads its defaults from the environment, so a
test (or a teacher) can fix them: ``BOX_GIN_SEED``, ``BOX_GIN_LANG`` (read by
:mod:`box_gin.i18n`), ``BOX_GIN_NAME``, ``BOX_GIN_SEAT`` (``cut``, ``box``,
``captain`` or ``sitter``), ``BOX_GIN_BOTS`` (``greedy`` or ``random``, or two of them
separated by a comma), ``BOX_GIN_RULES`` (a name in :data:`box_gin.PRESETS`) and
``BOX_GIN_TARGET``.
"""

from __future__ import annotations

import argparse
import html
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import webbrowser
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..hand import Role
from ..i18n import _, pgettext, set_language
from ..match import Match
from ..rules import PRESETS, Rules

if TYPE_CHECKING:
    from ..widgets.game_table import GameTable

#: The notebook Voila serves (in a source checkout).
NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "play.ipynb"
#: Names for the bots, the first two not taken by the person playing.
BOT_NAMES = ("Ada", "Ben", "Cy")
BOT_KINDS = ("greedy", "random")
SEATS = ("cut", "box", "captain", "sitter")


def preset_names() -> dict[str, str]:
    """The rules presets' names in the language in use, by key of :data:`PRESETS`."""
    return {
        "standard": pgettext("rules preset", "standard"),
        "gin-20": pgettext("rules preset", "gin bonus 20"),
        "big-gin": pgettext("rules preset", "big gin"),
        "oklahoma": pgettext("rules preset", "Oklahoma"),
        "oklahoma-spades": pgettext("rules preset", "Oklahoma, a spade doubles"),
        "classic": pgettext("rules preset", "classic bonuses"),
        "hollywood": pgettext("rules preset", "Hollywood"),
        "discard-taken": pgettext("rules preset", "taken card may go back"),
    }


# -- the game's settings ----------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """What the setup form asks for."""

    name: str = "You"
    seat: str = "cut"
    bots: tuple[str, str] = ("greedy", "greedy")
    seed: int = 1
    rules: str = "standard"
    target: int = 100

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Defaults from ``BOX_GIN_*`` environment variables; a random seed without one."""
        env = os.environ if env is None else env
        seed_text = env.get("BOX_GIN_SEED", "").strip()
        seed = int(seed_text) if seed_text else random.randrange(1, 10_000)
        kinds = [k.strip() for k in env.get("BOX_GIN_BOTS", "greedy").split(",") if k.strip()]
        kinds = [k if k in BOT_KINDS else "greedy" for k in kinds] or ["greedy"]
        seat = env.get("BOX_GIN_SEAT", "cut").strip().lower()
        preset = env.get("BOX_GIN_RULES", "standard").strip()
        preset = preset if preset in PRESETS else "standard"
        target_text = env.get("BOX_GIN_TARGET", "").strip()
        return cls(
            name=env.get("BOX_GIN_NAME", "").strip() or _("You"),
            seat=seat if seat in SEATS else "cut",
            bots=(kinds[0], kinds[-1]),
            seed=seed,
            rules=preset,
            target=int(target_text) if target_text else PRESETS[preset].target,
        )

    def rules_value(self) -> Rules:
        """The rules preset with the chosen target."""
        return PRESETS[self.rules].replace(target=self.target)

    def bot_names(self) -> tuple[str, str]:
        """The two bots' names (never the person's own)."""
        free = [n for n in BOT_NAMES if n != self.name]
        return free[0], free[1]


def seat_players(human: str, others: Sequence[str], seat: str, rules: Rules,
                 seed: int) -> tuple[str, str, str]:
    """The order of the three players at the table so that the cut for roles, made from
    ``seed``, puts ``human`` in ``seat`` ("box", "captain", "sitter"; "cut": wherever the
    cut puts the first seat).

    The cut deals its cards by seat, not by name, so sitting down in the seat the cut
    makes box is the same as being cut box: nothing about the game is forced.
    """
    if seat not in SEATS:
        raise ValueError(_("unknown seat {seat!r}: choose one of {seats}").format(
            seat=seat, seats=", ".join(SEATS)))
    if seat == "cut":
        return human, others[0], others[1]
    probe = Match.new(("0", "1", "2"), rules, seed)
    where = int(probe.roles[Role(seat)])
    order = list(others)
    order.insert(where, human)
    return order[0], order[1], order[2]


# -- the app (a widget) -------------------------------------------------------------------

def _widgets() -> Any:
    import ipywidgets

    return ipywidgets


APP_STYLE = """<style>
.bg-play-app{max-width:1100px;margin:0 auto;font-family:system-ui,sans-serif}
.bg-play-app .bg-setup{background:#f4f1e8;border:1px solid #cfc6ad;border-radius:.6em;
 padding:.5em .8em;margin:.3em 0 .6em;gap:.2em 1em;flex-wrap:wrap;align-items:center}
.bg-play-app .bg-setup .widget-label{font-weight:600;margin:0;margin-inline-end:.6em}
.bg-play-app .bg-setup .widget-inline-hbox{margin-inline-end:.4em}
.bg-play-app .bg-game-table{background:radial-gradient(ellipse at center,#1d7a46 0%,
 #11562f 75%,#0c4325 100%);color:#f5f5f0;border-radius:1em;padding:.8em 1.2em 1.2em;
 box-shadow:inset 0 0 2em #0007,0 2px 6px #0004;border:6px solid #6b4423}
.bg-play-app .bg-game-table .bg-readout{color:#f5f5f0}
.bg-play-app .bg-game-table .bg-roles{font-size:1.15em}
.bg-play-app .bg-game-table .bg-role b{color:#ffd966}
.bg-play-app .bg-game-table .bg-status-text{font-size:1.35em;font-weight:600;color:#fff}
.bg-play-app .bg-game-table .bg-error{color:#ffb4a8;font-weight:600}
.bg-play-app .bg-game-table .bg-advice-text{background:#fff8d6;color:#3b3000;
 border-radius:.4em;padding:.3em .6em;display:inline-block}
.bg-play-app .bg-game-table .bg-log{margin:.1em 0;opacity:.9}
.bg-play-app .bg-game-table .bg-card .bg-pip,.bg-play-app .bg-game-table .bg-card span{
 color:inherit}
.bg-play-app .bg-game-table .bg-result,.bg-play-app .bg-game-table .bg-match{
 background:#fbfaf5;color:#111;border-radius:.6em;padding:.4em .8em;margin:.3em 0;
 display:inline-block}
.bg-play-app .bg-game-table .bg-result .bg-readout,
.bg-play-app .bg-game-table .bg-match .bg-readout{color:#111}
.bg-play-app .bg-game-table .bg-chart{background:#fff;border-radius:.6em;padding:.3em;
 margin-top:.4em}
.bg-play-app .bg-game-table .bg-actions,.bg-play-app .bg-game-table .bg-meta{
 flex-wrap:wrap}
.bg-play-app .bg-game-table .bg-my-hand{min-height:5.5em;align-items:flex-end}
.bg-play-app .bg-game-table .bg-my-hand:empty{min-height:0}
.bg-play-app .bg-game-table .bg-result>.bg-score{font-size:1.15em}
.bg-play-app .bg-game-table button.bg-btn{background:#f7f3e3;color:#1b1b1b;
 font-weight:600;border-radius:.4em;box-shadow:0 1px 2px #0005}
.bg-play-app .bg-game-table button.bg-btn:disabled{opacity:1;background:#ffffff1a;
 color:#ffffff80;box-shadow:none}
.bg-play-app .bg-game-table button.bg-card-button:disabled{opacity:1;cursor:default}
</style>"""


def _make_app_class() -> type[Any]:
    from ..widgets.base import BoxGinWidget
    from ..widgets.game_table import GameTable

    w = _widgets()

    class PlayApp(BoxGinWidget):
        """The setup form and, once dealt, the Game Table.

        Parts: ``name``, ``seat``, ``bot_kinds`` (two dropdowns), ``seed``,
        ``rules_choice``, ``target`` (form fields, CSS classes ``bg-name``, ``bg-seat``,
        ``bg-bot-1``/``bg-bot-2``, ``bg-seed``, ``bg-rules``, ``bg-target``), the button
        "start" (``bg-btn-start``) and ``table`` (the Game Table, ``None`` until dealt).
        """

        css_class = "bg-play-app"

        def __init__(self, settings: Settings | None = None) -> None:
            super().__init__()
            s = Settings.from_env() if settings is None else settings
            wide = {"description_width": "initial"}
            self.name = w.Text(value=s.name, style=wide, layout=w.Layout(width="14em"))
            self.seat = w.Dropdown(options=[(k, k) for k in SEATS], value=s.seat,
                                   style=wide, layout=w.Layout(width="auto", min_width="15em"))
            self.bot_kinds = [
                w.Dropdown(options=[(k, k) for k in BOT_KINDS], value=kind, style=wide,
                           layout=w.Layout(width="auto", min_width="14em"))
                for kind in s.bots]
            self.seed = w.IntText(value=s.seed, style=wide, layout=w.Layout(width="10em"))
            self.rules_choice = w.Dropdown(options=[(k, k) for k in PRESETS], value=s.rules,
                                           style=wide,
                                           layout=w.Layout(width="auto", min_width="16em"))
            self.target = w.BoundedIntText(value=s.target, min=1, max=10_000, style=wide,
                                           layout=w.Layout(width="9em"))
            for part, css in ((self.name, "bg-name"), (self.seat, "bg-seat"),
                              (self.bot_kinds[0], "bg-bot-1"),
                              (self.bot_kinds[1], "bg-bot-2"), (self.seed, "bg-seed"),
                              (self.rules_choice, "bg-rules"), (self.target, "bg-target")):
                part.add_class(css)
            start = self._button("start", self.start)
            start.button_style = "success"
            self.form = w.HBox([self.name, self.seat, *self.bot_kinds, self.seed,
                                self.rules_choice, self.target, start])
            self.form.add_class("bg-setup")
            self.app_style = w.HTML(APP_STYLE)
            self.intro = w.HTML()
            self.intro.add_class("bg-intro")
            self.table: GameTable | None = None
            self.table_box = w.VBox([])
            self._start([self.app_style, self.intro, self.form, self.table_box])

        def settings(self) -> Settings:
            """The settings the form shows now."""
            name = self.name.value.strip() or _("You")
            return Settings(name=name, seat=self.seat.value,
                            bots=(self.bot_kinds[0].value, self.bot_kinds[1].value),
                            seed=int(self.seed.value), rules=self.rules_choice.value,
                            target=int(self.target.value))

        def start(self) -> None:
            """Deal a new game from the form's settings."""
            s = self.settings()
            rules = s.rules_value()
            bots = s.bot_names()
            players = seat_players(s.name, bots, s.seat, rules, s.seed)
            if self.table is not None:
                self.table.close()
            self.table = GameTable(players=players, human=s.name,
                                   bots=dict(zip(bots, s.bots, strict=True)),
                                   seed=s.seed, rules=rules)
            self.table.buttons["new game"].layout.display = "none"
            self.table_box.children = [self.table]
            self.render()

        def _labels(self) -> dict[str, str]:
            return {"start": _("Deal") if self.table is None else _("Deal a new game")}

        def render(self) -> None:
            self.buttons["start"].description = self._labels()["start"]
            howto = _("Choose your seat and the bots, then press {deal}. Click a card, then "
                      "{discard} or {knock}; as captain you may press {advice}. As sitter "
                      "you hold no cards: you watch the captain's and advise each of its "
                      "moves.").format(
                deal=_("Deal"), discard=_("Discard"), knock=_("Knock"),
                advice=_("Ask the sitter"))
            title = _("Box gin")
            self.intro.value = f"<h1>{html.escape(title)}</h1><p>{html.escape(howto)}</p>"
            self.name.description = _("Your name")
            self.seat.description = _("Your seat")
            seat_names = {"cut": _("by the cut"), "box": Role.BOX.label,
                          "captain": Role.CAPTAIN.label, "sitter": Role.SITTER.label}
            kind_names = {"greedy": _("greedy"), "random": _("random")}
            _relabel(self.seat, [(seat_names[k], k) for k in SEATS])
            for dropdown, bot in zip(self.bot_kinds, self.settings().bot_names(), strict=True):
                dropdown.description = _("{name} (bot)").format(name=bot)
                _relabel(dropdown, [(kind_names[k], k) for k in BOT_KINDS])
            self.seed.description = _("Seed")
            self.rules_choice.description = _("Rules")
            names = preset_names()
            _relabel(self.rules_choice, [(names.get(k, k), k) for k in PRESETS])
            self.target.description = _("Target")

        def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
            # The live widget, and as text only "<PlayApp>": the same in every language
            # and with every seed, so the committed notebook passes nbval anywhere.
            bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
            if bundle is not None:
                bundle.pop("text/html", None)
            return bundle

        def __repr__(self) -> str:
            return "<PlayApp>"

    return PlayApp


def _relabel(dropdown: Any, options: list[tuple[str, str]]) -> None:
    """Change a dropdown's captions, keeping its value."""
    if list(dropdown.options) != options:
        value = dropdown.value
        dropdown.options = options
        dropdown.value = value


def app(settings: Settings | None = None) -> Any:
    """The app: a setup form, then the Game Table (what ``notebooks/play.ipynb`` shows)."""
    return _make_app_class()(settings)


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

