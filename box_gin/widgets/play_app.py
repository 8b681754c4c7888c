"""The play app's widget: a setup form (your name, your seat or the cut, the two bots, the
seed, the rules and the target), then the Game Table.

``notebooks/play.ipynb`` shows :func:`app`; ``python -m box_gin.tools.play`` serves that
notebook with Voila.  The form's defaults come from the environment (``BOX_GIN_SEED``,
``BOX_GIN_NAME``, ``BOX_GIN_SEAT``, ``BOX_GIN_BOTS``, ``BOX_GIN_RULES``,
``BOX_GIN_TARGET``; see :meth:`Settings.from_env`), so a test or a teacher can fix them.

A reload keeps the game.  Served by ``make play``, each browser has its own table id (a
cookie the server sets, given to the kernel as ``BOX_GIN_TABLE``) and the server a
folder for the tables (``BOX_GIN_PLAY_STATE``): :class:`TableStore` keeps there, per
table, the settings and every move made (:attr:`GameTable.inputs`); a new page of the
same browser deals the same game again and replays the moves.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import ipywidgets as w

from ..bots import KIT_BOTS, bot_label
from ..files import write_atomic
from ..hand import Role
from ..i18n import _
from ..match import Match
from ..rules import PRESETS, Rules, preset_names
from .base import BoxGinWidget
from .game_table import GameTable

#: Names for the bots, the first two not taken by the person playing.
BOT_NAMES = ("Ada", "Ben", "Cy")
#: The kit's bots the form offers (:data:`box_gin.bots.KIT_BOTS`).
BOT_KINDS = tuple(KIT_BOTS)
SEATS = ("cut", "box", "captain", "sitter")


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


#: What a table id may be (the server makes them with ``secrets.token_urlsafe``).
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}\Z")


class TableStore:
    """One browser's game, kept on the server: ``FOLDER/TABLE.json`` holds the settings
    and the moves.  Nothing is kept without both a folder and a well-formed table id."""

    def __init__(self, folder: str | Path | None, table: str | None) -> None:
        self.path = None
        if folder and table and TABLE_ID.match(table) and Path(folder).is_dir():
            self.path = Path(folder) / f"{table}.json"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> TableStore:
        env = os.environ if env is None else env
        return cls(env.get("BOX_GIN_PLAY_STATE"), env.get("BOX_GIN_TABLE"))

    def load(self) -> tuple[Settings, list[list[str | None]]] | None:
        """The settings and moves kept, or None (nothing kept, or not readable)."""
        if self.path is None:
            return None
        try:
            data = json.loads(self.path.read_text("utf-8"))
            settings = Settings(**{**data["settings"], "bots": tuple(data["settings"]["bots"])})
            inputs = [list(entry) for entry in data["inputs"]]
        except (OSError, ValueError, TypeError, KeyError):
            return None
        return settings, inputs

    def save(self, settings: Settings, inputs: Sequence[Sequence[str | None]]) -> None:
        if self.path is not None:
            write_atomic(self.path, json.dumps(
                {"settings": asdict(settings), "inputs": [list(i) for i in inputs]}))


class PlayApp(BoxGinWidget):
    """The setup form and, once dealt, the Game Table.

    Parts: ``name``, ``seat``, ``bot_kinds`` (two dropdowns), ``seed``,
    ``rules_choice``, ``target`` (form fields, CSS classes ``bg-name``, ``bg-seat``,
    ``bg-bot-1``/``bg-bot-2``, ``bg-seed``, ``bg-rules``, ``bg-target``), the button
    "start" (``bg-btn-start``) and ``table`` (the Game Table, ``None`` until dealt).
    """

    css_class = "bg-play-app"

    def __init__(self, settings: Settings | None = None,
                 store: TableStore | None = None) -> None:
        super().__init__()
        self.store = TableStore.from_env() if store is None else store
        kept = self.store.load()
        s = Settings.from_env() if settings is None else settings
        if kept is not None:
            s = kept[0]
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
        #: The settings the table was dealt with (the form may have changed since).
        self.dealt: Settings | None = None
        self.table_box = w.VBox([])
        self._start([self.app_style, self.intro, self.form, self.table_box])
        if kept is not None:
            self._resume(*kept)

    def settings(self) -> Settings:
        """The settings the form shows now."""
        name = self.name.value.strip() or _("You")
        return Settings(name=name, seat=self.seat.value,
                        bots=(self.bot_kinds[0].value, self.bot_kinds[1].value),
                        seed=int(self.seed.value), rules=self.rules_choice.value,
                        target=int(self.target.value))

    def start(self) -> None:
        """Deal a new game from the form's settings."""
        self._deal(self.settings())
        self._keep()

    def _keep(self, table: GameTable | None = None) -> None:
        """Keep the game (its settings and moves) for the next page of this browser."""
        if self.table is not None and self.dealt is not None:
            self.store.save(self.dealt, self.table.inputs)

    def _resume(self, settings: Settings, inputs: list[list[str | None]]) -> None:
        """Deal the kept game again and make its moves; a game that no longer replays
        (the kit changed) is dropped for a fresh form."""
        try:
            self._deal(settings)
            assert self.table is not None
            self.table.on_input = None
            self.table.replay(inputs)
            self.table.inputs = [list(i) for i in inputs]
            self.table.on_input = self._keep
        except (ValueError, KeyError, TypeError):
            if self.table is not None:
                self.table.close()
            self.table, self.dealt = None, None
            self.table_box.children = []
            self.render()

    def _deal(self, s: Settings) -> None:
        rules = s.rules_value()
        bots = s.bot_names()
        players = seat_players(s.name, bots, s.seat, rules, s.seed)
        if self.table is not None:
            self.table.close()
        self.table = GameTable(players=players, human=s.name,
                               bots=dict(zip(bots, s.bots, strict=True)),
                               seed=s.seed, rules=rules)
        self.table.buttons["new game"].layout.display = "none"
        self.table.on_input = self._keep
        self.dealt = s
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
        # TRANSLATORS: {command} is a command to type: keep it as it is.
        threes = _("Three of you, each at a computer? Your teacher starts {command} and "
                   "shows you a table's code: join it in your browser.").format(
            command="box-gin serve")
        self.intro.value = (f"<h1>{html.escape(title)}</h1><p>{html.escape(howto)}</p>"
                            f'<p class="bg-threes">{html.escape(threes)}</p>')
        self.name.description = _("Your name")
        self.seat.description = _("Your seat")
        seat_names = {"cut": _("by the cut"), "box": Role.BOX.label,
                      "captain": Role.CAPTAIN.label, "sitter": Role.SITTER.label}
        _relabel(self.seat, [(seat_names[k], k) for k in SEATS])
        for dropdown, bot in zip(self.bot_kinds, self.settings().bot_names(), strict=True):
            dropdown.description = _("{name} (bot)").format(name=bot)
            _relabel(dropdown, [(bot_label(k), k) for k in BOT_KINDS])
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


def _relabel(dropdown: Any, options: list[tuple[str, str]]) -> None:
    """Change a dropdown's captions, keeping its value."""
    if list(dropdown.options) != options:
        value = dropdown.value
        dropdown.options = options
        dropdown.value = value


def app(settings: Settings | None = None) -> PlayApp:
    """The app: a setup form, then the Game Table (what ``notebooks/play.ipynb`` shows)."""
    return PlayApp(settings)
