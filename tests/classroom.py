"""A made-up class for the platform tests: students who solved every kata but one or
two, each wrong in the way one of tests/submissions/*.py is wrong.

A student's file is the solution notebooks' code with a wrong submission's code after
it, so the wrong functions replace the right ones and every other kata still passes.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from box_gin.tools.kit import kit_files

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
WRONG = sorted(p for p in (ROOT / "tests" / "submissions").glob("*.py")
               if p.name != "conftest.py")


def english(kit: Path, folder: Path) -> Path:
    """A student folder named as ``kit`` with its English notebooks only (the translated
    ones under it would be students of their own)."""
    target = folder / kit.name
    target.mkdir(parents=True)
    for notebook in kit.glob("*.ipynb"):
        shutil.copy(notebook, target)
    return target


def solution_code() -> str:
    """Every code cell of the solution notebooks but the autograded test cells."""
    parts = []
    for path in kit_files(ROOT, "solutions/*.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            grade = cell.get("metadata", {}).get("nbgrader", {}).get("grade", False)
            if cell["cell_type"] == "code" and not grade:
                parts.append("".join(cell["source"]))
    return "\n\n".join(parts) + "\n"


def make_class(folder: Path, wrong: list[Path] | None = None) -> list[Path]:
    """A .py file per student in ``folder``, named after the wrong submission it holds;
    returns them."""
    folder.mkdir(parents=True, exist_ok=True)
    base = solution_code()
    files = []
    for path in WRONG if wrong is None else wrong:
        target = folder / f"{path.stem}.py"
        target.write_text(base + "\n\n# -- the student's own, wrong, code --\n\n"
                          + path.read_text())
        files.append(target)
    return files
