"""The play app keeps a browser's game on the server (widgets.play_app.TableStore): the
settings and every move of the table, replayed on a new page to the same state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from box_gin.bots import greedy_bot
from box_gin.widgets.game_table import GameTable
from box_gin.widgets.play_app import PlayApp, Settings, TableStore

TABLE = "t" * 24


def state(table: GameTable) -> tuple[str, list[str], str, str]:
    return table.match.to_json(), list(table.moves), table.status.value, table.message.value


def play_some(table: GameTable, human: str, moves: int) -> None:
    for _ in range(moves):
        if table.match.is_over:
            return
        if table.showing is not None:
            table.next_hand()
        elif table.role.value == "captain" and len(table.inputs) == 2:
            table.ask_advice()
        else:
            table.play(greedy_bot(table.match.view(human)))


def test_a_new_page_of_the_same_browser_gets_the_same_game(tmp_path: Path) -> None:
    app = PlayApp(Settings(name="Dana", seat="captain", seed=7, target=40),
                  store=TableStore(tmp_path, TABLE))
    assert app.table is None and not list(tmp_path.iterdir())   # nothing before a deal
    app.start()
    assert app.table is not None
    play_some(app.table, "Dana", 40)
    assert len(app.table.inputs) > 10 and app.table.match.history
    again = PlayApp(store=TableStore(tmp_path, TABLE))
    assert again.table is not None and state(again.table) == state(app.table)
    assert (again.name.value, again.seat.value, again.target.value) == ("Dana", "captain", 40)
    # and it plays on from there, kept again
    play_some(again.table, "Dana", 3)
    third = PlayApp(store=TableStore(tmp_path, TABLE))
    assert third.table is not None and state(third.table) == state(again.table)


def test_another_browser_or_no_folder_keeps_nothing(tmp_path: Path) -> None:
    app = PlayApp(Settings(seed=3), store=TableStore(tmp_path, TABLE))
    app.start()
    assert PlayApp(store=TableStore(tmp_path, "u" * 24)).table is None
    assert TableStore(tmp_path, "../../etc/passwd").path is None
    assert TableStore(None, TABLE).path is None
    assert TableStore(tmp_path / "missing", TABLE).path is None


def test_a_kept_game_that_no_longer_replays_gives_a_fresh_form(tmp_path: Path) -> None:
    (tmp_path / f"{TABLE}.json").write_text(json.dumps({
        "settings": {"name": "Dana", "seat": "box", "bots": ["greedy", "greedy"],
                     "seed": 5, "rules": "standard", "target": 100},
        "inputs": [["play", "discard ZZ"], ["exec", "import os"]]}))
    app = PlayApp(store=TableStore(tmp_path, TABLE))
    assert app.table is None
    (tmp_path / f"{TABLE}.json").write_text("{not json")
    assert PlayApp(store=TableStore(tmp_path, TABLE)).table is None


def test_only_the_tables_moves_replay() -> None:
    table = GameTable(seed=5)
    with pytest.raises(ValueError, match="exec"):
        table.replay([["exec", "import os"]])
    with pytest.raises(ValueError):
        table.replay([["_apply", "Ada", "pass"]])
