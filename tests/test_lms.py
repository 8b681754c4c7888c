"""Grades into the LMS: `box-gin check --roster R --lms canvas|moodle FILE` writes the CSV
that Canvas's gradebook import and Moodle's grade import read, with their documented
columns; students the roster does not know, or who sent nothing, are listed, never
silently dropped."""

from __future__ import annotations

import csv
import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from box_gin.checker.lms import RosterError, lms_csv, parse_roster
from box_gin.cli import main
from box_gin.katas import KATAS
from box_gin.platforms.gradebook import load_gradebook

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
TOTAL = sum(k.points for k in KATAS)

ROSTER = """submission,name,canvas_id,sis_user_id,sis_login_id,section,email,idnumber
solutions,"Lovelace, Ada",101,S1,ada,Section A,ada@example.org,1001
exercises,"Babbage, Charles",102,S2,cbab,Section A,cb@example.org,1002
absent,"Nobody, Ned",103,S3,ned,Section B,ned@example.org,1003
"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, graded_class: Any) -> Iterator[Path]:
    """Three submissions: two in the roster, one (a wrong .py) not: the test run's graded
    class (its gradebook and rerun cache copied here, its cache's key in force), so that
    each test's ``check`` of the same submissions takes them from the cache."""
    folder = tmp_path_factory.mktemp("lms")
    (folder / "roster.csv").write_text(ROSTER)
    for name in ("book.json", "book.json.box-gin-cache"):
        shutil.copy(graded_class.folder / name, folder / name)
    before = os.environ.get("BOX_GIN_KEY_DIR")
    os.environ["BOX_GIN_KEY_DIR"] = str(graded_class.key_dir)
    try:
        yield folder
    finally:
        if before is None:
            del os.environ["BOX_GIN_KEY_DIR"]
        else:
            os.environ["BOX_GIN_KEY_DIR"] = before


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_canvas_csv_has_canvas_columns_and_points(graded: Path, capsys) -> None:
    out = graded / "canvas.csv"
    code = main(["check", str(ROOT / "solutions"), str(ROOT / "exercises"),
                 str(SUBMISSIONS / "run_ace_high.py"), "--json", str(graded / "book.json"),
                 "--roster", str(graded / "roster.csv"), "--lms", "canvas", str(out),
                 "--lms-assignment", "Katas (4321)"])
    assert code == 0
    table = rows(out.read_text())
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                        "Katas (4321)"]
    assert table[1][0] == "Points Possible" and table[1][-1] == str(TOTAL)
    assert table[2] == ["Lovelace, Ada", "101", "S1", "ada", "Section A", str(TOTAL)]
    assert table[3] == ["Babbage, Charles", "102", "S2", "cbab", "Section A", "0"]
    assert table[4] == ["Nobody, Ned", "103", "S3", "ned", "Section B", ""]
    assert len(table) == 5
    err = capsys.readouterr().err
    assert "Not in the roster" in err and "run_ace_high" in err
    assert "no submission" in err and "absent" in err


def test_moodle_csv_has_an_identifier_a_grade_and_feedback(graded: Path, capsys) -> None:
    out = graded / "moodle.csv"
    code = main(["check", str(ROOT / "solutions"), str(ROOT / "exercises"), "--json",
                 str(graded / "book.json"), "--roster", str(graded / "roster.csv"), "--lms",
                 "moodle", str(out), "-q"])
    assert code == 0
    table = rows(out.read_text())
    assert table[0] == ["ID number", "box-gin katas", "Feedback"]
    assert table[1] == ["1001", str(TOTAL), f"{TOTAL} of {TOTAL} points: every kata passed."]
    assert table[2][:2] == ["1002", "0"] and "card_value" in table[2][2]
    assert table[3] == ["1003", "", ""]
    book = {r["student"]: r for r in load_gradebook(graded / "book.json").students}
    assert book["solutions"]["score"] == TOTAL


def test_moodle_falls_back_to_email_then_username() -> None:
    results = [{"student": "ada", "score": 3, "max_score": 36, "katas": {}}]
    by_email = parse_roster("submission,email\nada,ada@example.org\n")
    assert rows(lms_csv("moodle", results, by_email).text)[0][0] == "Email address"
    by_user = parse_roster("submission,username\nada,alove\n")
    assert rows(lms_csv("moodle", results, by_user).text)[1][:2] == ["alove", "3"]


@pytest.mark.parametrize(("roster", "rule"), [
    ("name,email\nAda,a@x\n", "'submission' column"),
    ("submission,email\nada,a@x\nada,b@x\n", "twice"),
    ("submission,email\n,a@x\n", "empty"),
])
def test_a_bad_roster_is_refused_by_its_rule(roster: str, rule: str) -> None:
    with pytest.raises(RosterError, match=rule):
        parse_roster(roster)


def test_each_lms_needs_its_identifiers() -> None:
    results = [{"student": "ada", "score": 3, "max_score": 36, "katas": {}}]
    roster = parse_roster("submission,section\nada,A\n")
    with pytest.raises(RosterError, match="Canvas finds a student"):
        lms_csv("canvas", results, roster)
    with pytest.raises(RosterError, match="Moodle finds a student"):
        lms_csv("moodle", results, roster)
    with pytest.raises(RosterError, match="blackboard"):
        lms_csv("blackboard", results, roster)
    partial = parse_roster("submission,email\nada,a@x\nbo,\n")
    with pytest.raises(RosterError, match="empty for: bo"):
        lms_csv("moodle", results, partial)


def test_lms_without_roster_is_refused_before_grading(tmp_path: Path, capsys) -> None:
    code = main(["check", str(ROOT / "solutions"), "--lms", "canvas",
                 str(tmp_path / "x.csv"), "-q"])
    assert code == 2
    err = capsys.readouterr().err
    assert "--roster" in err
    assert "isolation:" not in err  # no sandbox opened: nothing was graded
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize(("roster", "rule"), [
    (None, "roster.csv"),  # no such file
    ("name,email\nAda,a@x\n", "'submission' column"),
])
def test_a_missing_or_bad_roster_is_refused_before_grading(tmp_path: Path, capsys,
                                                           roster: str | None,
                                                           rule: str) -> None:
    if roster is not None:
        (tmp_path / "roster.csv").write_text(roster)
    code = main(["check", str(ROOT / "solutions"), "--roster", str(tmp_path / "roster.csv"),
                 "--lms", "moodle", str(tmp_path / "m.csv")])
    assert code == 2
    err = capsys.readouterr().err
    assert rule in err and "isolation:" not in err
    assert not (tmp_path / "m.csv").exists()


def test_an_unknown_lms_is_refused_before_grading(graded: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["check", str(ROOT / "solutions"), "--roster", str(graded / "roster.csv"),
              "--lms", "blackboard", str(graded / "bb.csv")])
    assert stopped.value.code == 2
    assert "blackboard" in capsys.readouterr().err
    assert not (graded / "bb.csv").exists()
