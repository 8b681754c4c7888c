"""Notebook 6 asks its questions before it shows any answer: the exact numbers stay folded
(closed ``<details>``) until a learner opens them, and no cell is a wall of code."""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "06_strategy_by_simulation.ipynb"
LONGEST = 20


def cells() -> list[dict]:
    return json.loads(NOTEBOOK.read_text("utf-8"))["cells"]


def text(cell: dict) -> str:
    return "".join(cell["source"])


def test_no_code_cell_is_longer_than_twenty_lines():
    long = {i: len(text(c).splitlines()) for i, c in enumerate(cells())
            if c["cell_type"] == "code" and len(text(c).splitlines()) > LONGEST}
    assert long == {}


def test_the_questions_come_before_the_plots_and_numbers():
    all_cells = cells()
    questions = next(i for i, c in enumerate(all_cells) if "## Questions" in text(c))
    shows = [i for i, c in enumerate(all_cells) if c["cell_type"] == "code" and any(
        "image/png" in o.get("data", {}) or o["output_type"] == "stream"
        for o in c.get("outputs", []))]
    assert shows and questions < min(shows)


def test_every_number_after_the_questions_is_folded_until_opened():
    all_cells = cells()
    questions = next(i for i, c in enumerate(all_cells) if "## Questions" in text(c))
    folded = 0
    for i, cell in enumerate(all_cells[questions:], start=questions):
        for out in cell.get("outputs", []):
            assert out["output_type"] != "stream", f"cell {i} prints its numbers in the open"
            data = out.get("data", {})
            if "image/png" in data:
                continue
            html = "".join(data.get("text/html", ""))
            assert html.startswith('<details class="bg-folded"'), f"cell {i} shows {data}"
            assert "<details open" not in html
            folded += 1
    assert folded >= 5
