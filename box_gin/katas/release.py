"""Make the learners' exercise notebooks from the instructor's solution notebooks.

Answers are marked as nbgrader marks them; :func:`strip_solutions` replaces each marked
block with a stub that raises ``NotImplementedError``, indented like the block:

>>> print(strip_solutions('''def f(x):
...     \"\"\"Twice x.\"\"\"
...     ### BEGIN SOLUTION
...     return 2 * x
...     ### END SOLUTION'''))
def f(x):
    \"\"\"Twice x.\"\"\"
    raise NotImplementedError()

Hidden tests are marked as nbgrader marks them too; :func:`strip_hidden_tests` removes
each ``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS`` region, markers included:

>>> print(strip_hidden_tests('''# graded here
... ### BEGIN HIDDEN TESTS
... grade("f", globals())
... ### END HIDDEN TESTS'''))
# graded here

Outputs and execution counts are cleared, and the notebook is written with a fixed
layout, so releasing twice gives the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import BoxGinError
from ..files import write_atomic
from ..i18n import _

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
STUB = "raise NotImplementedError()"
BEGIN_HIDDEN = "### BEGIN HIDDEN TESTS"
END_HIDDEN = "### END HIDDEN TESTS"
#: A cell with this tag is the instructor's only; the release leaves it out.
SOLUTION_ONLY_TAG = "solution-only"


class ReleaseError(BoxGinError):
    """A solution notebook whose markers do not pair up."""


def strip_solutions(source: str, where: str = "") -> str:
    """``source`` with each ``### BEGIN SOLUTION`` ... ``### END SOLUTION`` block replaced
    by ``raise NotImplementedError()`` at the indentation of its first marker."""
    out: list[str] = []
    inside = False
    for number, line in enumerate(source.split("\n"), start=1):
        marker = line.strip()
        if marker == BEGIN:
            if inside:
                raise ReleaseError(_("{where} line {n}: a second {begin} before {end}").format(
                    where=where, n=number, begin=BEGIN, end=END))
            inside = True
            out.append(line[: len(line) - len(line.lstrip())] + STUB)
        elif marker == END:
            if not inside:
                raise ReleaseError(_("{where} line {n}: {end} without {begin}").format(
                    where=where, n=number, begin=BEGIN, end=END))
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ReleaseError(_("{where}: {begin} is never closed by {end}").format(
            where=where, begin=BEGIN, end=END))
    return "\n".join(out)


def strip_hidden_tests(source: str, where: str = "") -> str:
    """``source`` without its hidden-test regions (markers included), as nbgrader
    releases an autograded test cell."""
    out: list[str] = []
    inside = False
    for number, line in enumerate(source.split("\n"), start=1):
        marker = line.strip()
        if marker == BEGIN_HIDDEN:
            if inside:
                raise ReleaseError(_("{where} line {n}: a second {begin} before {end}").format(
                    where=where, n=number, begin=BEGIN_HIDDEN, end=END_HIDDEN))
            inside = True
        elif marker == END_HIDDEN:
            if not inside:
                raise ReleaseError(_("{where} line {n}: {end} without {begin}").format(
                    where=where, n=number, begin=BEGIN_HIDDEN, end=END_HIDDEN))
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ReleaseError(_("{where}: {begin} is never closed by {end}").format(
            where=where, begin=BEGIN_HIDDEN, end=END_HIDDEN))
    return "\n".join(out)


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def release_notebook(nb: dict[str, Any], where: str = "") -> dict[str, Any]:
    """The exercise version of a solution notebook (a new dict)."""
    cells = []
    for i, cell in enumerate(nb.get("cells", [])):
        tags = cell.get("metadata", {}).get("tags", [])
        if SOLUTION_ONLY_TAG in tags:
            continue
        new = dict(cell)
        new["metadata"] = {k: v for k, v in cell.get("metadata", {}).items()
                           if k not in ("execution", "collapsed", "scrolled")}
        if cell.get("cell_type") == "code":
            label = f"{where} cell {i}"
            new["source"] = _lines(strip_hidden_tests(strip_solutions(_source(cell), label),
                                                      label))
            new["outputs"] = []
            new["execution_count"] = None
        else:
            new["source"] = _lines(_source(cell))
        cells.append(new)
    metadata = {k: v for k, v in nb.get("metadata", {}).items() if k != "widgets"}
    return {**nb, "cells": cells, "metadata": metadata}


def dumps(nb: dict[str, Any]) -> str:
    """A notebook as text, laid out as nbformat lays it out."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def release(solutions: Path, exercises: Path) -> list[Path]:
    """Write an exercise notebook for every solution notebook; returns what was written."""
    written = []
    sources = sorted(Path(solutions).glob("*.ipynb"))
    if not sources:
        raise ReleaseError(_("no notebooks in {path}").format(path=solutions))
    for src in sources:
        nb = json.loads(src.read_text(encoding="utf-8"))
        target = Path(exercises) / src.name
        write_atomic(target, dumps(release_notebook(nb, src.name)))
        written.append(target)
    return written
