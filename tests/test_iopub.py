"""Notebook 05 drives a Game Table from code: the cell that plays a whole game through the
table's buttons must send few messages (Jupyter drops output above 1000 IOPub messages a
second, and a flood leaves the page showing a table out of step with the game), and after a
Run All the table the learner sees must be a fresh game to play."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient: Any = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "05_three_player_game.ipynb"
#: Far under the 1000 messages a second at which Jupyter starts dropping output.
MOST_MESSAGES = 200


class CountingClient(nbclient.NotebookClient):  # type: ignore[misc,name-defined]
    """Counts the IOPub messages each cell's execution sends, by kind."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counts: dict[int, Counter[str]] = {}

    def process_message(self, msg: dict[str, Any], cell: Any, cell_index: int) -> Any:
        self.counts.setdefault(cell_index, Counter())[msg["msg_type"]] += 1
        return super().process_message(msg, cell, cell_index)


@pytest.fixture(scope="module")
def executed() -> tuple[Any, CountingClient]:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # One more cell at the end: is the learner's table (shown near the top of the Game
    # Table section) still the fresh game that its seed deals?
    nb.cells.append(nbformat.v4.new_code_cell(
        "fresh = GameTable(players=['You', 'Ada', 'Ben'], human='You', bots='greedy', "
        "seed=12)\n"
        "print(table.match.to_json() == fresh.match.to_json(), table.showing is None, "
        "table.match.history == [])"))
    env = {"PYTHONPATH": str(ROOT), "BOX_GIN_PURE": os.environ.get("BOX_GIN_PURE", "")}
    os.environ.update({k: v for k, v in env.items() if v})
    client = CountingClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    return nb, client


def _cell_playing_the_game(nb: Any) -> int:
    return next(i for i, c in enumerate(nb.cells)
                if c.cell_type == "code" and ".click()" in c.source and "while" in c.source)


def test_the_cell_that_plays_a_game_by_clicks_sends_few_messages(
        executed: tuple[Any, CountingClient]) -> None:
    nb, client = executed
    index = _cell_playing_the_game(nb)
    counts = client.counts[index]
    total = sum(counts.values())
    assert total < MOST_MESSAGES, dict(counts)
    # It did play a whole game: the score sheet it shows has a winner.
    html = "".join(o.get("data", {}).get("text/html", "") for o in nb.cells[index].outputs)
    assert "Game over. Winner:" in html


def test_after_run_all_the_learners_table_is_a_fresh_game(
        executed: tuple[Any, CountingClient]) -> None:
    nb, _client = executed
    (output,) = nb.cells[-1].outputs
    assert output["text"].split() == ["True", "True", "True"]
