"""`box-gin check`: full marks for the solutions, zero for the exercises, every wrong
submission caught by the kata it breaks, and attacks that change nothing."""

from __future__ import annotations

import ast
import csv
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from box_gin.checker.submissions import extract_cells, find_submissions
from box_gin.cli import main
from box_gin.katas import BY_NAME, KATAS
from box_gin.katas.core import Raised, TimedOut

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
    return {r["student"]: r for r in json.loads(out.read_text())["students"]}


@pytest.fixture(autouse=True)
def _cache_key_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BOX_GIN_KEY_DIR", str(tmp_path / "key"))


def test_solutions_score_full_marks_and_exercises_zero(graded_class):
    """The test run's graded class (tests/graded_class.py): the solutions in every
    language pass every kata, the exercises none."""
    students = graded_class.students
    total = sum(k.points for k in KATAS)
    for suffix in ("", "-fr", "-he", "-hu", "-id", "-uk"):
        solution, exercise = students[f"solutions{suffix}"], students[f"exercises{suffix}"]
        assert solution["score"] == total == solution["max_score"], suffix
        assert all(solution["katas"][k.name]["points"] == k.points for k in KATAS), suffix
        assert exercise["score"] == 0, suffix
        assert not any(exercise["katas"][k.name]["passed"] for k in KATAS), suffix
    assert students["run_ace_high"]["score"] < total
    result = json.loads((graded_class.gradescope / "solutions" / "results.json").read_text())
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


def _students(path: Path) -> dict[str, dict]:
    return {r["student"]: r for r in json.loads(path.read_text())["students"]}


def test_json_gradebook_shape_seed_and_signed_rerun_cache(tmp_path):
    sub = tmp_path / "class" / "ada"
    sub.mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "05_the_three_player_game.ipynb", sub)
    shutil.copy(SUBMISSIONS / "score_tie_not_undercut.py", tmp_path / "class" / "ben.py")
    out = tmp_path / "grades.json"
    assert main(["check", str(tmp_path / "class"), "--json", str(out), "-q"]) == 0
    book = json.loads(out.read_text())
    assert {"seed", "isolation", "max_score", "katas", "students"} <= set(book)
    assert isinstance(book["seed"], int) and book["max_score"] == sum(k.points for k in KATAS)
    data = _students(out)
    assert set(data) == {"ada", "ben"}
    ada = data["ada"]
    assert set(ada) == {"student", "key", "score", "max_score", "problems", "language",
                        "katas"}
    assert book["version"] == 3 and ada["key"] == "ada" and ada["language"] is None
    assert ada["score"] == 5 and ada["problems"] == []
    assert set(ada["katas"]["next_roles"]) == {"passed", "points", "found", "feedback",
                                              "failure", "verdict"}
    assert ada["katas"]["next_roles"]["failure"] is None
    assert ada["katas"]["next_roles"]["verdict"]["outcome"] == "passed"
    assert ada["katas"]["is_set"]["verdict"]["outcome"] == "missing"
    assert ada["katas"]["is_set"]["verdict"]["note"] == {"id": "missing",
                                                         "values": {"name": "is_set"}}
    failure = data["ben"]["katas"]["score_hand"]["failure"]
    assert set(failure) == {"public", "size", "call"} and failure["call"].startswith(
        "score_hand(")
    verdict = data["ben"]["katas"]["score_hand"]["verdict"]
    assert verdict["outcome"] == "failed" and verdict["failure"]["call"] == failure["call"]
    assert set(verdict["failure"]) == {"public", "input", "call", "returned", "expected",
                                       "rule"}
    cache = out.with_name(out.name + ".box-gin-cache")
    assert cache.exists()
    # A rerun keeps the cache's seed and takes unchanged submissions from it ...
    assert main(["check", str(tmp_path / "class"), "--json", str(out), "-q"]) == 0
    assert json.loads(out.read_text())["seed"] == book["seed"]
    # ... but an edited entry is not signed by this user's key: it is ignored.
    saved = json.loads(cache.read_text())
    saved["entries"]["ada"]["result"]["score"] = 99
    cache.write_text(json.dumps(saved))
    assert main(["check", str(tmp_path / "class"), "--json", str(out), "-q"]) == 0
    assert _students(out)["ada"]["score"] == 5
    (sub / "05_the_three_player_game.ipynb").write_text(
        (sub / "05_the_three_player_game.ipynb").read_text().replace("<= 2", "== 0"))
    assert main(["check", str(tmp_path / "class"), "--json", str(out), "-q"]) == 0
    ada = _students(out)["ada"]
    assert ada["score"] == 4 and not ada["katas"]["is_drawn"]["passed"]


def test_a_rerun_takes_a_translated_submission_from_the_cache(tmp_path, capsys):
    """Feedback is put into each submission's language after grading; the cached entry
    stays the one that was signed, so a French submission, unchanged, is not graded
    again (it was, every time, when the translation changed the signed entry)."""
    sub = tmp_path / "class" / "zoe" / "fr"  # her notebooks, in French
    sub.mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "fr" / "05_the_three_player_game.fr.ipynb", sub)
    shutil.copy(SUBMISSIONS / "score_tie_not_undercut.py", tmp_path / "class" / "ben.py")
    out = tmp_path / "grades.json"
    assert main(["check", str(tmp_path / "class"), "--json", str(out)]) == 0
    first = _students(out)
    assert first["zoe"]["language"] == "fr"
    capsys.readouterr()
    assert main(["check", str(tmp_path / "class"), "--json", str(out)]) == 0
    assert "2 unchanged submissions taken from the last run" in capsys.readouterr().err
    assert _students(out) == first


def test_a_cached_result_is_kept_as_it_was_signed(tmp_path):
    from box_gin.checker.outputs import Cache

    cache = Cache(tmp_path / "c.cache", seed=7, key=b"k" * 32)
    katas: dict[str, Any] = {"k": {"feedback": "not passed"}}
    result: dict[str, Any] = {"student": "ada", "score": 1, "katas": katas}
    cache.put("ada", "d1", result)
    katas["k"]["feedback"] = "pas réussi"  # what localise does, in place
    got = cache.get("ada", "d1")
    assert got is not None and got["katas"]["k"]["feedback"] == "not passed"
    got["score"] = 99
    assert cache.save() is None
    again = Cache(tmp_path / "c.cache", seed=7, key=b"k" * 32)
    assert again.get("ada", "d1") == {"student": "ada", "score": 1,
                                      "katas": {"k": {"feedback": "not passed"}}}


def test_quiet_prints_only_what_went_wrong(tmp_path, capsys):
    """`-q` keeps the table, the progress and the isolation line off the terminal, never
    the reason a run stopped: an exit status alone would leave a teacher guessing."""
    assert main(["check", str(tmp_path / "nowhere"), "-q"]) == 2
    captured = capsys.readouterr()
    assert "no such file or folder" in captured.err and "nowhere" in captured.err
    assert captured.out == ""
    (tmp_path / "empty").mkdir()
    assert main(["check", str(tmp_path / "empty"), "-q"]) == 2
    assert "no notebook or .py file" in capsys.readouterr().err
    bot = tmp_path / "bots" / "ada.py"
    bot.parent.mkdir()
    bot.write_text("def play(view):\n    return view.legal_actions[0]\n")
    assert main(["tournament", str(bot.parent), "--no-references", "-q"]) == 2
    captured = capsys.readouterr()
    assert "at least three bots" in captured.err and captured.out == ""


def test_seed_sets_the_fresh_cases(tmp_path):
    wrong = SUBMISSIONS / "set_three_cards_only.py"
    calls: list[Any] = []
    for seed in ("11", "11", "12"):
        out = tmp_path / f"g{len(calls)}.json"
        assert main(["check", str(wrong), "--json", str(out), "--seed", seed, "-q",
                     "--no-cache"]) == 0
        book = json.loads(out.read_text())
        assert book["seed"] == int(seed)
        calls.append(book["students"][0]["katas"]["is_set"]["feedback"])
    assert calls[0] == calls[1]


def test_nothing_to_grade_is_an_error(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["check", str(empty)]) == 2
    assert "no notebook or .py file" in capsys.readouterr().err
    (empty / "notes.txt").write_text("hello")
    assert main(["check", str(empty)]) == 2
    assert main(["check", str(tmp_path / "missing")]) == 2


def test_bad_files_are_reported_once_per_submission(tmp_path, capsys):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "a.ipynb").write_text('{"cells": 5}')
    (bad / "b.py").write_text("def f(:\n    pass\n")
    out = tmp_path / "g.json"
    assert main(["check", str(bad), "--json", str(out)]) == 0
    problems = _students(out)["bad"]["problems"]
    assert len(problems) == 2
    assert "a.ipynb" in problems[0] and "cells" in problems[0]
    assert "b.py" in problems[1] and "line 1" in problems[1]
    text = capsys.readouterr().out
    assert text.count("a.ipynb") == 1 and text.count("b.py") == 1
    assert "no function of any kata was found" in text
    assert "no function named" not in text


def test_summary_paths_and_feedback_layout(tmp_path, capsys):
    out = tmp_path / "g.json"
    csv_path = tmp_path / "g.csv"
    assert main(["check", str(SUBMISSIONS / "set_three_cards_only.py"),
                 str(SUBMISSIONS / "run_ace_high.py"), "--json", str(out), "--csv",
                 str(csv_path), "-v"]) == 0
    text = capsys.readouterr().out
    assert "mean" in text and "median" in text and "most failed" in text
    assert f"wrote {csv_path}" in text.replace("\n", "") and f"wrote {out}" in text.replace(
        "\n", "")
    # The student is named once; each kata's lines are indented under it.
    assert text.count("set_three_cards_only:") == 1
    lines = text.splitlines()
    head = lines.index(next(line for line in lines if line.startswith("set_three_cards_only:")))
    assert lines[head + 1].startswith("  ✘ is_set")
    hint = next(line for line in lines[head:] if "hint:" in line)
    assert hint.startswith("    hint:")


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    from box_gin import __version__

    assert capsys.readouterr().out.strip() == f"box-gin {__version__}"


def test_a_gradebook_folder_that_is_a_file_loses_only_that_file(tmp_path, capsys):
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where a folder should be")
    csv_path = tmp_path / "ok" / "g.csv"
    code = main(["check", str(SUBMISSIONS / "run_ace_high.py"), "--csv", str(csv_path),
                 "--json", str(blocker / "g.json"), "--no-cache"])
    assert code == 1
    assert rows(csv_path)["run_ace_high"]["max_score"] == str(sum(k.points for k in KATAS))
    assert "could not be written" in capsys.readouterr().err


def test_a_hostile_child_message_cannot_break_the_parent():
    from box_gin.checker.grader import clean_text, decode_outcome

    assert clean_text("\ud800x\x1b[2J") == "?x\ufffd[2J"
    assert len(clean_text("x" * 10_000)) <= 301
    deep: object = []
    for _ in range(100_000):
        deep = [deep]
    outcome = decode_outcome({"ok": deep})
    assert type(outcome).__name__ in ("Returned", "Raised")
    raised = decode_outcome({"raised": ["E" * 500, True, "\udc80" * 1000]})
    assert isinstance(raised, Raised) and raised.type_name == "E" * 80
    assert raised.message.startswith('"\\x80\\x80')  # undecodable bytes shown as bytes
    assert len(raised.message) < 210 and "\n" not in raised.message  # one capped line
    odd = decode_outcome({"raised": ["\n  ✔ passed", False, "x\n  why: fine"]})
    assert isinstance(odd, Raised) and odd.type_name == "Exception"
    assert odd.message == '"x\\n  why: fine"'
    # a time-out says the limit the child kept; anything but a plain number is no time
    assert [decode_outcome({"timeout": t}) for t in (0.75, 2, True, "9", -1.0, 1e9)] == [
        TimedOut(0.75), TimedOut(2.0), *[TimedOut(0.0)] * 4]
    for garbage in ("garbage", {"ok": {"$f": "nan-ish"}}):
        broken = decode_outcome(garbage)
        assert isinstance(broken, Raised) and broken.type_name == "ProtocolError"


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


@pytest.mark.timeout(1800)
def test_an_honest_kata_beside_a_crash_or_a_hanging_cell_still_passes(tmp_path):
    files = [ATTACKS / "resilient" / "exit_in_kata.py",
             ATTACKS / "resilient" / "cell_never_finishes.ipynb"]
    out = tmp_path / "g.json"
    # That grading ends at all is the point (pytest-timeout stops a hang); how soon it
    # ends depends on the machine, so no wall-clock bound is asserted.  The limits are
    # CPU seconds, so a busy machine leaves the honest kata its time (4 s for its tests,
    # a call 1 s); the sleeping cell, which spends none, is stopped by the clock's
    # safety over its 2 s (13 s).
    assert main(["check", *map(str, files), "--json", str(out), "-j", "2", "--timeout", "4",
                 "--budget", "600", "-q"]) == 0
    data = _students(out)
    assert data["exit_in_kata"]["score"] == BY_NAME["is_run"].points
    assert not data["exit_in_kata"]["katas"]["card_value"]["passed"]
    assert data["cell_never_finishes"]["score"] == BY_NAME["is_set"].points
    assert any("did not finish" in p for p in data["cell_never_finishes"]["problems"])


def test_attack_feedback_says_why(tmp_path):
    names = ["engine_answer", "infinite_loop", "memory_bomb", "invalid_json", "syntax_error"]
    files = [p for p in sorted(ATTACKS.iterdir()) if p.stem in names]
    out = tmp_path / "g.json"
    assert main(["check", *map(str, files), "--json", str(out), "-j", "2", "--timeout", "3",
                 "--budget", "8", "-q"]) == 0
    data = _students(out)
    assert "not available" in data["engine_answer"]["katas"]["is_set"]["feedback"]
    assert "did not finish" in data["infinite_loop"]["katas"]["is_set"]["feedback"] or any(
        "skipped" in p for p in data["infinite_loop"]["problems"])
    assert "MemoryError" in data["memory_bomb"]["katas"]["is_set"]["feedback"]
    assert "not a valid notebook" in data["invalid_json"]["problems"][0]
    assert "SyntaxError" in data["syntax_error"]["problems"][0]


def test_a_call_is_limited_in_cpu_time_so_waiting_is_not_a_time_out(tmp_path):
    # A busy machine stretches a call's wall-clock time, never its CPU time: the limits
    # are CPU seconds.  Here the first call waits 1.5 s (on the wall clock, as a call
    # starved of a core would) with a limit of 0.75 CPU seconds per call, and passes;
    # a call that computes forever still times out.
    (tmp_path / "waits.py").write_text(
        "import time\nCALLS = [0]\n\ndef is_set(cards):\n    CALLS[0] += 1\n"
        "    if CALLS[0] == 1:\n        time.sleep(1.5)\n"
        "    return len(cards) in (3, 4) and len({c.rank for c in cards}) == 1\n")
    (tmp_path / "computes.py").write_text(
        "def is_set(cards):\n    while True:\n        pass\n")
    out = tmp_path / "g.json"
    assert main(["check", str(tmp_path / "waits.py"), str(tmp_path / "computes.py"),
                 "--json", str(out), "--timeout", "3", "--budget", "120", "-q"]) == 0
    data = _students(out)
    assert data["waits"]["katas"]["is_set"]["passed"], data["waits"]["katas"]["is_set"]
    assert not data["computes"]["katas"]["is_set"]["passed"]
    assert "did not finish" in data["computes"]["katas"]["is_set"]["feedback"]


def test_an_import_from_the_kit_answers_a_kata_only_in_its_own_notebook(tmp_path):
    """The bot kata's notebook imports ``best_melds`` from the engine for its bot: that
    is no answer to kata 2's ``best_melds`` (which would run the notebook in a kata's
    child, where the import fails, and report it), but in notebook 2 itself the same
    import is graded, and the learner told why it fails."""
    from box_gin.checker.grader import assign
    from box_gin.checker.submissions import engine_imports

    bot_cells = [("cell 1", "from box_gin.melds import best_melds\nimport box_gin.actions")]
    two = [("cell 1", "from box_gin.melds import best_melds")]
    own = [("cell 1", "from box_gin.melds import best_melds\ndef best_melds(h):\n    pass")]
    assert engine_imports(bot_cells) == {"best_melds", "box_gin"}
    assert engine_imports([("c", "from .melds import best_melds\nimport boxing")]) == set()
    assert engine_imports(own) == set()
    kata = BY_NAME["best_melds"]
    seven, second = tmp_path / "07_write_a_bot.ipynb", tmp_path / "02_melds.ipynb"
    assert assign([kata], {seven: bot_cells}) == {seven: []}
    assert assign([kata], {seven: own}) == {seven: [kata]}
    assert assign([kata], {seven: bot_cells, second: two}) == {seven: [], second: [kata]}


def test_a_bot_notebook_alone_reports_no_problem_of_other_katas(tmp_path, capsys):
    """Notebook 7 handed in alone: graded, with no ImportError from a kata it holds not."""
    student = tmp_path / "ada"
    student.mkdir()
    shutil.copy(ROOT / "solutions" / "07_write_a_bot.ipynb", student)
    out = tmp_path / "grades.json"
    main(["check", str(tmp_path), "--json", str(out), "-q", "--seed", "3"])
    entry = json.loads(out.read_text())["students"][0]
    assert entry["problems"] == []
    assert entry["katas"]["play"]["passed"] and entry["katas"]["advise"]["passed"]
    assert not entry["katas"]["best_melds"]["found"]
