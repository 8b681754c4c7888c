"""`box-gin release`: exercises are generated from the solutions, and are up to date."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from box_gin.cli import main
from box_gin.katas import KATAS, NOTEBOOKS, katas_of
from box_gin.katas.release import (
    ReleaseError,
    release_notebook,
    strip_hidden_tests,
    strip_solutions,
)
from box_gin.katas.specs.nb7_bots import FUNCTIONS as BOT_FUNCTIONS
from box_gin.katas.specs.nb7_bots import NOTEBOOK as BOT_NOTEBOOK
from box_gin.tools.kit import kit_files

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"


def test_a_marked_block_becomes_a_stub_at_its_indentation():
    source = ("def f(x):\n    ### BEGIN SOLUTION\n    y = 2 * x\n    return y\n"
              "    ### END SOLUTION\n")
    assert strip_solutions(source) == "def f(x):\n    raise NotImplementedError()\n"


def test_code_outside_the_markers_is_kept():
    source = "import math\n\ndef g():\n    '''Doc.'''\n    ### BEGIN SOLUTION\n    return 1\n" \
             "    ### END SOLUTION\n\nX = 3"
    assert strip_solutions(source) == \
        "import math\n\ndef g():\n    '''Doc.'''\n    raise NotImplementedError()\n\nX = 3"


@pytest.mark.parametrize("source", ["### BEGIN SOLUTION\nx = 1", "x = 1\n### END SOLUTION",
                                    "### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION"])
def test_unpaired_markers_are_an_error(source):
    with pytest.raises(ReleaseError):
        strip_solutions(source)


def test_outputs_and_counts_are_cleared_and_solution_only_cells_dropped():
    nb = {"cells": [
        {"cell_type": "code", "execution_count": 3, "id": "a", "metadata": {},
         "outputs": [{"output_type": "stream", "name": "stdout", "text": "hi"}],
         "source": "x = 1"},
        {"cell_type": "code", "execution_count": 4, "id": "b",
         "metadata": {"tags": ["solution-only"]}, "outputs": [], "source": "secret = 1"},
    ], "metadata": {"widgets": {}}, "nbformat": 4, "nbformat_minor": 5}
    out = release_notebook(nb)
    assert [c["id"] for c in out["cells"]] == ["a"]
    assert out["cells"][0]["outputs"] == [] and out["cells"][0]["execution_count"] is None
    assert "widgets" not in out["metadata"]


def test_exercises_are_up_to_date(tmp_path, capsys):
    """Fails when solutions/ changed and `make exercises` was not run."""
    assert main(["release", str(SOLUTIONS), str(tmp_path)]) == 0
    made = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert made == sorted(p.name for p in kit_files(ROOT, "exercises/*.ipynb"))
    for name in made:
        assert (tmp_path / name).read_bytes() == (EXERCISES / name).read_bytes(), (
            f"exercises/{name} is out of date: run `make exercises`")


def test_five_notebooks_hold_every_kata():
    assert sorted(p.stem for p in kit_files(ROOT, "solutions/*.ipynb")) == sorted(
        [*NOTEBOOKS.values(), BOT_NOTEBOOK[1]])
    assert len(KATAS) >= 15
    for number, stem in NOTEBOOKS.items():
        nb = json.loads((SOLUTIONS / f"{stem}.ipynb").read_text())
        code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
        for kata in katas_of(number):
            assert any(src.startswith(f"def {kata.name}(") for src in code), kata.name
            assert f"check({kata.name})" in code, kata.name


def test_exercises_have_stubs_and_no_answers_or_outputs():
    for path in kit_files(ROOT, "exercises/*.ipynb"):
        text = path.read_text()
        assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
        nb = json.loads(text)
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None
        stubs = sum("raise NotImplementedError()" in "".join(c["source"]) for c in nb["cells"]
                    if c["cell_type"] == "code")
        number = int(path.name[:2])
        assert stubs == (len(BOT_FUNCTIONS) if number == BOT_NOTEBOOK[0] else
                         len(katas_of(number)))


def test_solutions_are_committed_executed_with_passing_checks():
    for path in kit_files(ROOT, "solutions/*.ipynb"):
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] == "code" and src.startswith("check("):
                text = "".join(cell["outputs"][0]["data"]["text/plain"])
                assert text.startswith("✔"), (path.name, src, text)
        assert "widgets" not in nb["metadata"]


def test_hidden_tests_are_left_out_of_the_release():
    source = ("# graded here\n### BEGIN HIDDEN TESTS\ngrade('is_set', globals())\n"
              "### END HIDDEN TESTS\nx = 1")
    assert strip_hidden_tests(source) == "# graded here\nx = 1"
    for bad in ("### BEGIN HIDDEN TESTS\nx", "x\n### END HIDDEN TESTS",
                "### BEGIN HIDDEN TESTS\n### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS"):
        with pytest.raises(ReleaseError):
            strip_hidden_tests(bad)


def test_each_kata_has_one_autograded_cell_worth_its_points():
    """nbgrader's metadata: a solution cell, locked cells, one graded test per kata."""
    for number, stem in NOTEBOOKS.items():
        nb = json.loads((SOLUTIONS / f"{stem}.ipynb").read_text())
        meta = [c["metadata"]["nbgrader"] for c in nb["cells"]]
        assert all(m["schema_version"] == 3 for m in meta)
        graded = {m["grade_id"]: m["points"] for m in meta if m["grade"]}
        assert graded == {f"{k.name}-test": k.points for k in katas_of(number)}
        solutions = {m["grade_id"] for m in meta if m["solution"]}
        assert solutions == {f"{k.name}-code" for k in katas_of(number)}
        assert all(m["locked"] for m in meta if not m["solution"])
        ids = [m["grade_id"] for m in meta]
        assert len(ids) == len(set(ids))
        tests = [c for c in nb["cells"] if c["metadata"]["nbgrader"]["grade"]]
        for cell in tests:  # committed executed: every graded test passes on the solution
            text = "".join(cell["outputs"][0]["text"])
            assert text.startswith("✔"), (stem, text)


def test_exercises_keep_the_test_cells_without_the_hidden_tests():
    for path in kit_files(ROOT, "exercises/*.ipynb"):
        nb = json.loads(path.read_text())
        tests = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")]
        assert len(tests) == len(katas_of(int(path.name[:2])))
        for cell in tests:
            assert "grade(" not in "".join(cell["source"])
