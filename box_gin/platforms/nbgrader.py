"""nbgrader-native katas: cell metadata, the autograded test cells, and a course folder.

The solution notebooks carry nbgrader's cell metadata (schema version 3):

- each kata's ``def`` cell is a *solution* cell (``grade_id`` = the cell's id);
- the text, the imports, the given helpers and the ``check(...)`` cells are *locked*;
- after each ``check(...)`` cell comes one *autograded test* cell worth the kata's
  points, whose code sits between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN
  TESTS``: nbgrader (and ``box-gin release``) leave it out of what students get, and
  ``nbgrader autograde`` puts it back.  It calls :func:`grade`, which runs the kata's
  public, fixed hidden and fresh hidden tests with the same judges as ``box-gin check``
  (for the bot kata's ``play`` and ``advise``: plays its fixed and shuffled hands, as
  ``box-gin check`` does) and raises ``AssertionError`` with the same feedback when one
  fails.

``box-gin nbgrader COURSE_DIR`` lays out ``COURSE_DIR/source/<assignment>/`` with the
solution notebooks and writes an ``nbgrader_config.py``; then nbgrader's own commands
(``generate_assignment``, ``autograde``, ``export``) do the rest.

>>> nb = {"cells": [{"cell_type": "code", "id": "is_set-code", "metadata": {},
...                  "source": "def is_set(cards):\\n    ### BEGIN SOLUTION\\n    return 1\\n"
...                            "    ### END SOLUTION"},
...                 {"cell_type": "code", "id": "is_set-check", "metadata": {},
...                  "source": "check(is_set)", "outputs": [], "execution_count": None}],
...       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
>>> out = annotate(nb)
>>> [c["id"] for c in out["cells"]]
['is_set-code', 'is_set-check', 'is_set-test']
>>> out["cells"][2]["metadata"]["nbgrader"]["points"]
1
>>> annotate(out) == out
True
"""

from __future__ import annotations

import copy
import os
import secrets
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import BoxGinError
from ..files import write_atomic
from ..i18n import _
from ..katas.core import Failure, KataResult, judge_cases, shrink_failure
from ..katas.feedback import blocked_note, engine_uses, feedback_text, local_oracle, plain_text
from ..katas.release import BEGIN_HIDDEN, END_HIDDEN, dumps
from ..katas.specs import BY_NAME, KATAS
from ..katas.specs.nb7_bots import BotKata, legality, result_of

SCHEMA_VERSION = 3
#: The environment variable that fixes the fresh hidden tests' seed (else it is secret).
SEED_VARIABLE = "BOX_GIN_SEED"
DEFAULT_ASSIGNMENT = "katas"
CONFIG_NAME = "nbgrader_config.py"


class CourseError(BoxGinError):
    """A course folder that cannot be laid out as asked."""


# -- the kernel side: one autograded cell -------------------------------------------


def _seed() -> int:
    text = os.environ.get(SEED_VARIABLE, "").strip()
    if text:
        try:
            return int(text)
        except ValueError as exc:
            raise CourseError(_("{variable} must be a whole number, not {value!r}").format(
                variable=SEED_VARIABLE, value=text)) from exc
    return secrets.randbits(32)


def grade_result(name: str, namespace: Mapping[str, Any], seed: int | None = None
                 ) -> KataResult:
    """Judge the function ``name`` of ``namespace`` (a kernel's globals) on the kata's
    graded tests: the public ones, the fixed hidden ones, and fresh ones from ``seed``."""
    kata = BY_NAME.get(name)
    if kata is None:
        raise CourseError(_("No kata is called {name!r}. The katas are: {names}.").format(
            name=name, names=", ".join(k.name for k in KATAS)))
    fn = namespace.get(name)
    if not callable(fn):
        return KataResult(kata, False, note=_("no function named {name} was found").format(
            name=name), hidden=True)
    if isinstance(kata, BotKata):  # the bot kata: its hands played, as box-gin check does
        return result_of(kata, legality(fn, kata.kind, hands=kata.hands, timing=kata.timing,
                                        seed=_seed() if seed is None else seed))
    uses = engine_uses(fn)
    if uses:
        return KataResult(kata, False, note=blocked_note(uses), hidden=True)
    cases = kata.graded_cases(_seed() if seed is None else seed)
    oracle = local_oracle(fn, kata)
    n_public = len(kata.public)
    failures = judge_cases(kata, cases, oracle(cases), public=n_public)
    if not failures:
        return KataResult(kata, True, n_public, len(cases) - n_public, True)
    first: Failure = min(failures, key=lambda f: (kata.size(f.args), not f.public))
    if not first.public:
        first = shrink_failure(kata, first, oracle, rounds=20)
    return KataResult(kata, False, n_public, len(cases) - n_public, True, first)


def grade(name: str, namespace: Mapping[str, Any], seed: int | None = None) -> None:
    """An autograded test cell's body: print the verdict when the kata passes, raise
    ``AssertionError`` with the feedback when it does not (nbgrader then gives 0)."""
    result = grade_result(name, namespace, seed)
    text = plain_text(feedback_text(result))  # code spans as plain text
    if not result.passed:
        raise AssertionError(text)
    print(text)


# -- the solution notebooks' metadata ------------------------------------------------


def _source(cell: Mapping[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _meta(grade_id: str, *, solution: bool = False, locked: bool = False,
          points: int | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"grade": points is not None, "grade_id": grade_id,
                            "locked": locked, "schema_version": SCHEMA_VERSION,
                            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    return meta


def test_source(name: str) -> str:
    """The source of a kata's autograded test cell."""
    return ("# The checker's hidden tests for this kata: nbgrader grades this cell.\n"
            f"{BEGIN_HIDDEN}\n"
            f"from box_gin.platforms.nbgrader import grade\n"
            f"grade({name!r}, globals())\n"
            f"{END_HIDDEN}")


def _test_cell(name: str) -> dict[str, Any]:
    kata = BY_NAME[name]
    return {"cell_type": "code", "execution_count": None, "id": f"{name}-test",
            "metadata": {"nbgrader": _meta(f"{name}-test", locked=True, points=kata.points)},
            "outputs": [], "source": test_source(name)}


def _kata_of_check(source: str) -> str | None:
    text = source.strip()
    if text.startswith("check(") and text.endswith(")") and text[6:-1] in BY_NAME:
        return text[6:-1]
    return None


def _grade_id(cell: Mapping[str, Any], index: int) -> str:
    cell_id = cell.get("id")
    return str(cell_id) if cell_id else f"cell-{index}"


def annotate(nb: Mapping[str, Any]) -> dict[str, Any]:
    """A solution notebook with nbgrader's metadata on every cell and an autograded test
    cell after each ``check(...)`` cell (a new dict; annotating twice changes nothing)."""
    out = copy.deepcopy(dict(nb))
    cells: list[dict[str, Any]] = []
    old = [c for c in out.get("cells", []) if not str(c.get("id", "")).endswith("-test")
           or "nbgrader" not in c.get("metadata", {})]
    tests = {str(c["id"]): c for c in out.get("cells", []) if c not in old}
    for i, cell in enumerate(old):
        src = _source(cell)
        grade_id = _grade_id(cell, i)
        metadata = cell.setdefault("metadata", {})
        if cell.get("cell_type") == "code" and "### BEGIN SOLUTION" in src:
            metadata["nbgrader"] = _meta(grade_id, solution=True)
        else:
            metadata["nbgrader"] = _meta(grade_id, locked=True)
        cells.append(cell)
        name = _kata_of_check(src) if cell.get("cell_type") == "code" else None
        if name is not None:
            test = _test_cell(name)
            kept = tests.get(test["id"])
            if kept is not None and _source(kept) == test["source"] and \
                    kept["metadata"].get("nbgrader") == test["metadata"]["nbgrader"]:
                test = kept  # keep its outputs
            cells.append(test)
    out["cells"] = cells
    return out


# -- a course folder -----------------------------------------------------------------


def commands(assignment: str) -> list[str]:
    """nbgrader's commands for the course, in order (run in the course folder)."""
    return [f"nbgrader generate_assignment {assignment} --force",
            f"nbgrader autograde {assignment} --create", "nbgrader export"]


#: How to install nbgrader where it runs (the extra of box-gin's that pins it).
INSTALL = "pip install 'box-gin[nbgrader]'"


def next_steps(course: Path, assignment: str, installed: bool | None = None) -> list[str]:
    """What to do after ``box-gin nbgrader``: install nbgrader when it is missing here
    (``installed``: by default, whether an ``nbgrader`` command is on the PATH), then
    its commands, the ones the course's ``nbgrader_config.py`` lists."""
    import shutil

    if installed is None:
        installed = shutil.which("nbgrader") is not None
    lines = []
    if not installed:
        lines.append(_("nbgrader is not installed here; install it first (nbgrader 0.9, "
                       "where the course will run): {command}").format(command=INSTALL))
    lines.append(_("Then, in {course}:").format(course=course) if not installed else
                 _("Next, in {course}:").format(course=course))
    lines += [f"    {command}" for command in commands(assignment)]
    return lines


CONFIG = '''\
"""nbgrader's settings for the box-gin katas (written by `box-gin nbgrader`).

Run nbgrader's commands in this folder:

{commands}
"""

import os

c = get_config()  # noqa: F821 (nbgrader defines it)
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.course_id = {course_id!r}
# The stub box-gin's own exercises use, in place of nbgrader's "# YOUR CODE HERE".
c.ClearSolutions.code_stub = {{"python": "raise NotImplementedError()"}}
# Each autograded cell runs a kata's public and hidden tests: give a notebook time.
c.Execute.timeout = 300
# The fresh hidden tests are drawn from a secret seed for each `nbgrader autograde`;
# set BOX_GIN_SEED to a number to draw the same ones again.
'''


def make_course(course: Path, solutions: Path, assignment: str = DEFAULT_ASSIGNMENT,
                course_id: str = "box-gin", force: bool = False) -> list[Path]:
    """Lay out an nbgrader course: ``course/source/<assignment>/`` holds the annotated
    solution notebooks, ``course/nbgrader_config.py`` the settings.  An existing
    configuration is kept unless ``force``; returns the files written."""
    if not assignment or any(ch in assignment for ch in "/\\") or assignment.startswith("."):
        raise CourseError(_("{name!r} is not a valid assignment name: use letters, digits, "
                            "'-' and '_'").format(name=assignment))
    sources = sorted(Path(solutions).glob("*.ipynb"))
    if not sources:
        raise CourseError(_("no notebooks in {path}").format(path=solutions))
    target = Path(course) / "source" / assignment
    if target.exists() and not force and any(target.iterdir()):
        raise CourseError(_("{path} already exists: use --force to replace it").format(
            path=target))
    if target.exists():
        shutil.rmtree(target)
    written: list[Path] = []
    import json

    for src in sources:
        nb = annotate(json.loads(src.read_text(encoding="utf-8")))
        for cell in nb["cells"]:
            if cell.get("cell_type") == "code":
                cell["outputs"], cell["execution_count"] = [], None
        path = target / src.name
        write_atomic(path, dumps(nb))
        written.append(path)
    config = Path(course) / CONFIG_NAME
    if force or not config.exists():
        write_atomic(config, CONFIG.format(
            commands="\n".join(f"    {c}" for c in commands(assignment)), course_id=course_id))
        written.append(config)
    return written
