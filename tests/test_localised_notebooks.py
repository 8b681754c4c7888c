"""A translated notebook speaks its language from its first output: its first code cell
sets the language (``set_language`` imported once, and before any output), and what its
code prints is in that language, not the English of the notebook it was translated from."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from box_gin.tools.kit import kit_files

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LOCALISED = [p for p in kit_files(NOTEBOOKS.parent, "notebooks/*/*.ipynb")
             if len(p.parent.name) == 2]
#: English words the French notebook printed from its own code ("Ada cut J♠",
#: "captain:", "upcard offer captain", "round 1:").
ENGLISH = re.compile(r"\b(cut|captain|upcard|stock|round|offer|draw|sitter)\b")


def code_cells(path: Path) -> list[dict]:
    return [c for c in json.loads(path.read_text("utf-8"))["cells"] if c["cell_type"] == "code"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def shown_text(cell: dict) -> list[str]:
    """What a reader sees as text: printed streams, and results that have no HTML view.
    Action names are code and stay English: quoted ('take', 'draw stock'), or opening
    an engine error ("draw discard: ...")."""
    texts = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            texts.append("".join(out["text"]))
        elif "text/html" not in out.get("data", {}) and "text/plain" in out.get("data", {}):
            texts.append("".join(out["data"]["text/plain"]))
    # (without the bidi isolates a Hebrew line is printed in)
    plain = [re.sub("[\u2066-\u2069]", "", t) for t in texts]
    return [re.sub(r"(?m)^(take|pass|draw stock|draw discard)(?=: )", "",
                   re.sub(r"'[a-z ]+'", "", t)) for t in plain]


def test_there_is_a_localised_notebook():
    assert LOCALISED, "no notebooks/<lang>/*.ipynb"


@pytest.mark.parametrize("path", LOCALISED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_language_is_set_once_before_any_output(path: Path):
    lang = path.parent.name
    cells = code_cells(path)
    setting = [i for i, c in enumerate(cells) if f'set_language("{lang}")' in source(c)]
    assert setting, f"{path.name} never calls set_language({lang!r})"
    first = setting[0]
    assert all(not c.get("outputs") for c in cells[:first]), "output before the language"
    # in the setting cell itself only its last expression (after the setting) shows
    assert not cells[first].get("outputs") or "set_language" not in source(
        cells[first]).rstrip().rsplit("\n", 1)[-1], "output before the language"
    imports = sum(len(re.findall(r"\bimport\b[^\n]*\bset_language\b|\bbox_gin\.set_language\b",
                                 source(c))) for c in cells)
    assert imports == 1, f"set_language is imported {imports} times"


@pytest.mark.parametrize("path", LOCALISED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_codes_printed_output_is_in_the_notebooks_language(path: Path):
    english = [(i, m.group()) for i, c in enumerate(code_cells(path))
               for text in shown_text(c) for m in ENGLISH.finditer(text)]
    assert english == [], f"English words in the outputs of code cells: {english}"
