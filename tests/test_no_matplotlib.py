"""The browser kit has no matplotlib: notebooks 05 and 06 must still run there, every
chart cell saying plainly that its chart needs the full install (docs: README, "In the
browser"). Here matplotlib is hidden from a real kernel, and the notebooks run whole."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from box_gin.compat import chart_needs_full_install

ROOT = Path(__file__).resolve().parent.parent
HIDE = 'import sys\nsys.modules["matplotlib"] = None  # as in the browser: no matplotlib\n'


def _outputs_text(nb: nbformat.NotebookNode) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(out.get("text", ""))
            parts.extend(str(v) for v in out.get("data", {}).values())
    return "\n".join(parts)


@pytest.mark.parametrize("name", ["05_three_player_game", "06_strategy_by_simulation"])
def test_a_notebook_runs_without_matplotlib_and_says_why(name: str) -> None:
    nb = nbformat.reads(json.dumps(json.loads(
        (ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))), as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(HIDE))
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    text = _outputs_text(nb)
    assert chart_needs_full_install() in text
    assert "image/png" not in json.dumps([c.get("outputs", []) for c in nb.cells])
