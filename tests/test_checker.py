"""`box-gin check`: full marks for the solutions, zero for the exercises, every wrong
submission caught by the kata it breaks, and attacks that change nothing."""

from __future__ import annotations

import ast
import csv
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

from box_gin.checker.submissions import extract_cells, find_submissions
from box_gin.cli import main
from box_gin.katas import BY_NAME, KATAS

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
WRONG = sorted(p for p in SUBMISSIONS.glob("*.py") if p.name != "conftest.py")
ATTACKS = SUBMISSIONS / "attacks"
CARD = re.compile(r"\b(?:[A2-9TJQK])[CDHS]\b")


def breaks(path: Path) -> list[str]:
    """The katas a wrong submission says it breaks (its BREAKS list)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "BREAKS":
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{path.name} has no BREAKS list")


def rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open() as f:
        return {r["student"]: r for r in csv.DictReader(f)}


@pytest.fixture(scope="module")
def wrong_results(tmp_path_factory):
    out = tmp_path_factory.mktemp("wrong") / "grades.json"
    assert main(["check", *map(str, WRONG), "--json", str(out), "-j", "2", "-q"]) == 0
    return {r["student"]: r for r in json.loads(out.read_text())}


def test_solutions_score_full_marks_and_exercises_zero(tmp_path):
    gradebook = tmp_path / "grades.csv"
    gradescope = tmp_path / "gs"
    code = main(["check", str(ROOT / "solutions"), str(ROOT / "exercises"), "--csv",
                 str(gradebook), "--gradescope", str(gradescope), "-j", "2", "-q"])
    assert code == 0
    table = rows(gradebook)
    total = sum(k.points for k in KATAS)
    assert table["solutions"]["total"] == str(total) == table["solutions"]["max_score"]
    assert table["exercises"]["total"] == "0"
    assert all(table["exercises"][k.name] == "0" for k in KATAS)
    assert all(table["solutions"][k.name] == str(k.points) for k in KATAS)
    result = json.loads((gradescope / "solutions" / "results.json").read_text())
    assert result["score"] == total and len(result["tests"]) == len(KATAS)
    assert {t["status"] for t in result["tests"]} == {"passed"}


def test_there_are_at_least_twenty_wrong_submissions():
    assert len(WRONG) >= 20
    for path in WRONG:
        assert ast.get_docstring(ast.parse(path.read_text())), path.name
        assert set(breaks(path)) <= set(BY_NAME), path.name


@pytest.mark.parametrize("path", WRONG, ids=lambda p: p.stem)
def test_each_wrong_submission_fails_the_kata_it_breaks(path, wrong_results):
    result = wrong_results[path.stem]
    for name in breaks(path):
        entry = result["katas"][name]
        assert not entry["passed"] and entry["points"] == 0, entry
        lines = entry["feedback"].splitlines()
        call = next(line.strip() for line in lines if line.startswith("    "))
        assert call.startswith(f"{name}("), entry["feedback"]
        assert "returned:" in entry["feedback"] and "expected:" in entry["feedback"]
        if name != "deal":  # a deal takes a whole deck
            assert len(CARD.findall(call)) <= 6, call


def test_json_gradebook_shape_and_rerun_cache(tmp_path):
    sub = tmp_path / "class" / "ada"
    sub.mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "05_the_three_player_game.ipynb", sub)
    shutil.copy(SUBMISSIONS / "score_tie_not_undercut.py", tmp_path / "class" / "ben.py")
    out = tmp_path / "grades.json"
    assert main(["check", str(tmp_path / "class"), "--json", str(out), "-q"]) == 0
    data = {r["student"]: r for r in json.loads(out.read_text())}
    assert set(data) == {"ada", "ben"}
    ada = data["ada"]
    assert set(ada) == {"student", "score", "max_score", "katas"}
    assert ada["score"] == 5 and ada["max_score"] == sum(k.points for k in KATAS)
    assert set(ada["katas"]["next_roles"]) == {"passed", "points", "feedback"}
    cache = out.with_name(out.name + ".box-gin-cache")
    assert cache.exists()
    # A rerun takes unchanged submissions from the cache: poison one cached entry to see.
    saved = json.loads(cache.read_text())
    saved["entries"]["ada"]["result"]["score"] = 99
    cache.write_text(json.dumps(saved))
    assert main(["check", str(tmp_path / "class"), "--json", str(out), "-q"]) == 0
    assert {r["student"]: r for r in json.loads(out.read_text())}["ada"]["score"] == 99
    (sub / "05_the_three_player_game.ipynb").write_text(
        (sub / "05_the_three_player_game.ipynb").read_text().replace("<= 2", "== 0"))
    assert main(["check", str(tmp_path / "class"), "--json", str(out), "-q"]) == 0
    ada = {r["student"]: r for r in json.loads(out.read_text())}["ada"]
    assert ada["score"] == 4 and not ada["katas"]["is_drawn"]["passed"]


def test_nbgrader_layout_names_students(tmp_path):
    for student in ("alice", "bob"):
        folder = tmp_path / "course" / "submitted" / student / "ps2"
        folder.mkdir(parents=True)
        shutil.copy(ROOT / "exercises" / "02_melds.ipynb", folder)
    (tmp_path / "course" / "submitted" / "alice" / "ps2" / "conftest.py").write_text(
        "raise SystemExit('never run')")
    subs = find_submissions([tmp_path / "course"])
    assert [s.student for s in subs] == ["alice", "bob"]
    assert [f.name for f in subs[0].files] == ["02_melds.ipynb"]


def test_magics_are_dropped_and_py_files_split_into_statements(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": "%time x = 1\n!ls\ny = 2"},
                    {"cell_type": "code", "source": "%%bash\necho hi"},
                    {"cell_type": "markdown", "source": "text"}]}
    path = tmp_path / "a.ipynb"
    path.write_text(json.dumps(nb))
    cells = extract_cells(path)
    assert len(cells) == 1 and "%" not in cells[0][1].split("#")[0]
    py = tmp_path / "b.py"
    py.write_text("import os\n\n\n@staticmethod\ndef f():\n    return 1\nX = 2\n")
    assert len(extract_cells(py)) == 3


def _our_sleepers() -> set[int]:
    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmd[:2] == [b"sleep", b"600"]:
                pids.add(int(entry))
    return pids


def test_attacks_score_zero_and_leave_the_gradebook_intact(tmp_path):
    before = _our_sleepers()
    out = tmp_path / "out"
    out.mkdir()
    gradebook = out / "grades.csv"
    attacks = tmp_path / "attacks"
    shutil.copytree(ATTACKS, attacks)
    writer = attacks / "write_output.py"
    writer.write_text(writer.read_text().replace("GRADEBOOK_PATH", str(gradebook)))
    files = sorted(p for p in attacks.iterdir() if p.suffix in (".py", ".ipynb"))
    start = time.monotonic()
    code = main(["check", *map(str, files), "--csv", str(gradebook), "--json",
                 str(out / "grades.json"), "-j", "2", "--timeout", "4", "-q"])
    assert code == 0
    assert time.monotonic() - start < 60
    table = rows(gradebook)
    assert set(table) == {p.stem for p in files}
    expected = {p.stem: 0 for p in files}
    expected["cell_never_finishes"] = BY_NAME["is_set"].points  # its slow cell is skipped
    expected["exit_in_kata"] = BY_NAME["is_run"].points  # an honest kata beside a crash
    assert {s: int(r["total"]) for s, r in table.items()} == expected
    data = {r["student"]: r for r in json.loads((out / "grades.json").read_text())}
    assert "not available" in data["engine_answer"]["katas"]["is_set"]["feedback"]
    assert "did not finish" in data["infinite_loop"]["katas"]["is_set"]["feedback"]
    assert "MemoryError" in data["memory_bomb"]["katas"]["is_set"]["feedback"]
    assert "not a valid notebook" in data["invalid_json"]["katas"]["is_set"]["feedback"]
    assert "SyntaxError" in data["syntax_error"]["katas"]["is_set"]["feedback"]
    assert not data["exit_in_kata"]["katas"]["card_value"]["passed"]
    assert sorted(os.listdir(out)) == ["grades.csv", "grades.csv.box-gin-cache",
                                       "grades.json"]
    time.sleep(0.2)
    assert _our_sleepers() <= before, "a child's process outlived the check"
