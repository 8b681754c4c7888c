"""The class report and the gradebook reader behind every platform: both gradebook
shapes, the most common failure and its counterexample, a page that loads nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from box_gin.cli import main
from box_gin.platforms.gradebook import (
    GradebookError,
    cards_in_text,
    failure_call,
    load_gradebook,
    parse_gradebook,
)
from box_gin.platforms.report import histogram_svg, report_html, summarise


def entry(passed: bool, points: int, feedback: str = "", **extra: object) -> dict:
    return {"passed": passed, "points": points, "feedback": feedback, **extra}


def failing(call: str, why: str) -> dict:
    return entry(False, 0, f"✘ best_melds: not passed.\n  The smallest input found on "
                 f"which your answer is wrong:\n    {call}\n  returned: x\n  expected: y\n"
                 f"  why: {why}\n  hint: h")


STUDENTS = [
    {"student": "ada", "score": 5, "max_score": 5,
     "katas": {"card_value": entry(True, 1), "best_melds": entry(True, 4)}},
    {"student": "bo", "score": 1, "max_score": 5,
     "katas": {"card_value": entry(True, 1),
               "best_melds": failing("best_melds([AH 2H 3H QH KH])", "ace high")}},
    {"student": "cy", "score": 1, "max_score": 5,
     "katas": {"card_value": entry(True, 1),
               "best_melds": failing("best_melds([QH KH AH])", "ace high")}},
    {"student": "di", "score": 0, "max_score": 5,
     "katas": {"card_value": entry(False, 0, "✘ card_value: not passed.\n  no function "
                                   "named card_value was found"),
               "best_melds": failing("best_melds([5S 5D 5C 6C 7C])", "a card twice")}},
]


def test_both_gradebook_shapes_read_the_same(tmp_path: Path) -> None:
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(STUDENTS))
    shaped = tmp_path / "object.json"
    shaped.write_text(json.dumps({"seed": 1234, "students": STUDENTS}))
    a, b = load_gradebook(listed), load_gradebook(shaped)
    assert a.students == b.students == STUDENTS
    assert (a.seed, b.seed) == (None, 1234)
    assert a.kata_names() == ["card_value", "best_melds"]


@pytest.mark.parametrize(("data", "rule"), [
    ({"seed": 1}, "'students' list"),
    ("text", "a list of students"),
    ([{"student": "a", "score": 1, "max_score": 2}], "'katas'"),
    ([{"student": "a", "score": True, "max_score": 2, "katas": {}}], "'score'"),
    ([{"student": "a", "score": 1, "max_score": 2, "katas": {"k": {"passed": 1}}}],
     "'passed' and 'points'"),
])
def test_a_bad_gradebook_is_refused_by_its_rule(data: object, rule: str) -> None:
    with pytest.raises(GradebookError, match=rule):
        parse_gradebook(data)


def test_a_broken_file_is_named(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["report", str(bad), "--html", str(tmp_path / "r.html")]) == 1
    assert "bad.json" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_the_most_common_failure_and_its_smallest_counterexample() -> None:
    katas = {k.name: k for k in summarise(parse_gradebook(STUDENTS))}
    best = katas["best_melds"]
    assert (best.passed, best.graded) == (1, 4)
    assert (best.reason, best.reason_count) == ("ace high", 2)
    assert best.call == "best_melds([QH KH AH])"
    value = katas["card_value"]
    assert (value.passed, value.reason, value.call, value.without_call) == (
        3, "no function named card_value was found", None, 1)


def test_the_checkers_failure_field_is_preferred() -> None:
    e = entry(False, 0, "no call line here", failure={"public": False, "size": 2,
                                                      "call": "is_set([7H 7S])"})
    assert failure_call("is_set", e) == "is_set([7H 7S])"
    assert cards_in_text("is_set([7H 7S 10D])") == ["7H", "7S", "TD"]


def test_the_histogram_counts_every_student() -> None:
    svg = histogram_svg([0, 1, 1, 5, 36, 36, 36], 36)
    counts = [int(n) for n in re.findall(r'data-count="(\d+)"', svg)]
    assert sum(counts) == 7 and counts[0] == 3 and counts[-1] == 3
    labels = re.findall(r"<title>([^:<]*):", svg)
    assert labels[:2] == ["0–2", "3–5"] and labels[-1] == "33–36"  # no score in two bins


def test_the_page_loads_nothing_and_draws_cards() -> None:
    page = report_html(parse_gradebook(STUDENTS), title="Class 3B")
    assert "<title>Class 3B</title>" in page
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page)
    assert "@import" not in page and "<script" not in page
    failures = page[page.index('id="failures"'):page.index('id="students"')]
    assert failures.count('class="bg-card ') == 3  # QH KH AH
    assert page.count('class="bg-student"') == 4
