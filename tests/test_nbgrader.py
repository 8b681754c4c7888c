"""nbgrader-native katas, end to end with real nbgrader 0.9: `box-gin nbgrader` lays out a
course; nbgrader releases it, autogrades three students and exports the grades; every
kata's points are the ones `box-gin check` gives the same submitted notebooks.

nbgrader lives in its own virtual environment (it would add the classic `notebook`
package and its own JupyterLab extensions to the project's one): `make test` builds
`.venv-nbgrader` and points BOX_GIN_NBGRADER_VENV at it.  Run alone, the test looks for
`.venv-nbgrader` and skips with a note when there is none, unless
BOX_GIN_REQUIRE_NBGRADER=1 (as in `make test`), where a missing nbgrader fails.
"""

from __future__ import annotations

import ast
import csv
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from box_gin.cli import main
from box_gin.katas import BY_NAME, KATAS
from box_gin.platforms.gradebook import load_gradebook
from box_gin.platforms.nbgrader import CourseError, annotate
from box_gin.tools.kit import kit_files

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
WRONG = ROOT / "tests" / "submissions" / "best_melds_ace_high.py"
VENV = Path(os.environ.get("BOX_GIN_NBGRADER_VENV", ROOT / ".venv-nbgrader"))
NBGRADER = VENV / "bin" / "nbgrader"
ASSIGNMENT = "katas"

SCORES = """
import json
from nbgrader.api import Gradebook
out = {}
with Gradebook("sqlite:///gradebook.db") as gb:
    for sub in gb.assignment_submissions("katas"):
        cells = out.setdefault(sub.student.id, {})
        for nb in sub.notebooks:
            for grade in nb.grades:
                cells[grade.name] = [grade.score, grade.max_score]
print(json.dumps(out))
"""


def _nbgrader_or_skip() -> None:
    if NBGRADER.exists():
        return
    message = (f"nbgrader is not installed in {VENV}: `make test` builds it "
               "(or set BOX_GIN_NBGRADER_VENV)")
    if os.environ.get("BOX_GIN_REQUIRE_NBGRADER") == "1":
        pytest.fail(message)
    pytest.skip(message)


def run(course: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(ROOT), BOX_GIN_SEED="11", BOX_GIN_LANG="en")
    env.pop("JUPYTER_PLATFORM_DIRS", None)
    proc = subprocess.run(list(args), cwd=course, env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def defined(source: str) -> set[str]:
    return {n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}


def submit(course: Path, student: str, fill: dict[str, str]) -> None:
    """A student's copy of the released notebooks, each solution cell's code replaced
    by ``fill[grade_id]`` when given."""
    folder = course / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    for nb_path in sorted((course / "release" / ASSIGNMENT).glob("*.ipynb")):
        nb = json.loads(nb_path.read_text())
        for cell in nb["cells"]:
            grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id")
            if grade_id in fill:
                cell["source"] = fill[grade_id]
        (folder / nb_path.name).write_text(json.dumps(nb, indent=1))


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    _nbgrader_or_skip()
    course = tmp_path_factory.mktemp("course")
    assert main(["nbgrader", str(course)]) == 0
    run(course, str(NBGRADER), "generate_assignment", ASSIGNMENT, "--force")
    answers: dict[str, str] = {}
    for path in kit_files(ROOT, "solutions/*.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["metadata"].get("nbgrader", {}).get("solution"):
                answers[cell["metadata"]["nbgrader"]["grade_id"]] = "".join(cell["source"])
    wrong = WRONG.read_text()
    broken = {f"{name}-code": wrong for name in defined(wrong) if name in BY_NAME}
    assert broken == {"best_melds-code": wrong}
    submit(course, "full", answers)
    submit(course, "zero", {})
    submit(course, "wrong", {**answers, **broken})
    run(course, str(NBGRADER), "autograde", ASSIGNMENT, "--create")
    run(course, str(NBGRADER), "export")
    scores = json.loads(run(course, str(VENV / "bin" / "python"), "-c", SCORES).stdout)
    with (course / "grades.csv").open() as f:
        exported = {r["student_id"]: r for r in csv.DictReader(f)}
    book = course / "check.json"
    assert main(["check", str(course), "--json", str(book), "-q", "--no-cache"]) == 0
    checked = {r["student"]: r for r in load_gradebook(book).students}
    return {"root": course, "scores": scores, "exported": exported, "checked": checked}


def test_the_release_has_no_answers_and_no_hidden_tests(course: dict[str, Any]) -> None:
    for path in (course["root"] / "release" / ASSIGNMENT).glob("*.ipynb"):
        text = path.read_text()
        assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
        assert "grade(" not in text
        nb = json.loads(text)
        tests = [c for c in nb["cells"] if c["metadata"]["nbgrader"]["grade"]]
        assert len(tests) == len([k for k in KATAS if f"{k.notebook:02d}" == path.name[:2]])
        assert all(c["metadata"]["editable"] is False for c in tests)


def test_each_kata_is_one_autograded_cell_worth_its_points(course: dict[str, Any]) -> None:
    cells = course["scores"]["full"]
    assert sorted(cells) == sorted(f"{k.name}-test" for k in KATAS)
    for kata in KATAS:
        assert cells[f"{kata.name}-test"] == [kata.points, kata.points]


def test_solutions_get_full_marks_and_exercises_zero(course: dict[str, Any]) -> None:
    total = sum(k.points for k in KATAS)
    assert all(score == best for score, best in course["scores"]["full"].values())
    assert all(score == 0 for score, _best in course["scores"]["zero"].values())
    exported = course["exported"]
    assert float(exported["full"]["score"]) == float(exported["full"]["max_score"]) == total
    assert float(exported["zero"]["score"]) == 0


def test_a_wrong_submission_gets_the_points_box_gin_check_gives_it(
        course: dict[str, Any]) -> None:
    cells = course["scores"]["wrong"]
    assert cells["best_melds-test"][0] == 0
    for student in ("full", "zero", "wrong"):
        checked = course["checked"][student]["katas"]
        graded = {k.name: course["scores"][student][f"{k.name}-test"][0] for k in KATAS}
        assert graded == {k.name: checked[k.name]["points"] for k in KATAS}, student
        assert float(course["exported"][student]["score"]) == course["checked"][student][
            "score"]


def test_the_test_cell_shows_the_checkers_feedback() -> None:
    from box_gin.platforms.nbgrader import grade

    namespace: dict[str, Any] = {}
    exec(WRONG.read_text(), namespace)
    with pytest.raises(AssertionError) as failed:
        grade("best_melds", namespace, seed=3)
    text = str(failed.value)
    assert text.startswith("✘ best_melds: not passed.")
    call = next(line.strip() for line in text.splitlines() if line.startswith("    "))
    assert call.startswith("best_melds(")
    with pytest.raises(AssertionError, match="no function named is_set"):
        grade("is_set", {}, seed=3)


def test_annotating_the_solutions_changes_nothing() -> None:
    """The committed solutions carry the metadata `annotate` gives them."""
    for path in kit_files(ROOT, "solutions/*.ipynb"):
        nb = json.loads(path.read_text())
        assert annotate(nb) == nb, path.name


def test_a_course_is_not_overwritten_without_force(tmp_path: Path, capsys) -> None:
    assert main(["nbgrader", str(tmp_path)]) == 0
    config = tmp_path / "nbgrader_config.py"
    config.write_text("c = get_config()  # the instructor's own\n")
    assert main(["nbgrader", str(tmp_path)]) == 1
    assert "--force" in capsys.readouterr().err
    assert main(["nbgrader", str(tmp_path), "--assignment", "week2"]) == 0
    assert "instructor's own" in config.read_text()
    assert sorted(p.name for p in (tmp_path / "source" / "week2").iterdir()) == sorted(
        p.name for p in SOLUTIONS.glob("*.ipynb"))
    assert main(["nbgrader", str(tmp_path), "--assignment", "../x"]) == 1
    assert main(["nbgrader", str(tmp_path), "--force"]) == 0
    assert "course_id = 'box-gin'" in config.read_text()


def test_the_test_cell_runs_the_checkers_graded_cases(monkeypatch) -> None:
    """grade() calls the function on exactly the cases a checker run with that seed
    judges: the public ones, the fixed hidden ones, then the fresh ones."""
    from box_gin.platforms.nbgrader import grade_result

    kata = BY_NAME["is_drawn"]
    seen: list[tuple[int, bool]] = []

    def is_drawn(stock_size, knocked):
        seen.append((stock_size, knocked))
        return stock_size <= 2 and not knocked

    assert grade_result("is_drawn", {"is_drawn": is_drawn}, seed=5).passed
    assert seen == [tuple(a) for a in kata.graded_cases(5)]
    seen.clear()
    monkeypatch.setenv("BOX_GIN_SEED", "5")
    assert grade_result("is_drawn", {"is_drawn": is_drawn}).passed
    assert seen == [tuple(a) for a in kata.graded_cases(5)]
    monkeypatch.setenv("BOX_GIN_SEED", "five")
    with pytest.raises(CourseError, match="BOX_GIN_SEED"):
        grade_result("is_drawn", {"is_drawn": is_drawn})
