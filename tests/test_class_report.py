"""The class report and the gradebook reader behind every platform: both gradebook
shapes, the most common failure and its counterexample, a page that loads nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from box_gin.cards import Card
from box_gin.checker.verdicts import Note, safe_problem, verdict_of
from box_gin.cli import main
from box_gin.katas import BY_NAME
from box_gin.katas.core import Failure, KataResult, Outcome, Raised, Returned, call_text
from box_gin.platforms.class_report import histogram_svg, report_html, summarise
from box_gin.platforms.gradebook import (
    GradebookError,
    cards_in_text,
    failure_call,
    load_gradebook,
    parse_gradebook,
)


def entry(passed: bool, points: int, feedback: str = "", **extra: object) -> dict:
    return {"passed": passed, "points": points, "feedback": feedback, **extra}


def graded(kata: str, hand: str | None, outcome: Outcome | None = None,
           note: Note | None = None) -> dict[str, Any]:
    """A kata entry as the checker writes it: its structured verdict, the failure field,
    and feedback text that the report must not read."""
    spec = BY_NAME[kata]
    failure = None
    if hand is not None:
        args = ([Card.parse(c) for c in hand.split()],)
        expected = spec.expected(args)
        assert outcome is not None
        why = safe_problem(spec, args, expected, outcome) or ""
        failure = Failure(args, outcome, expected, why)
    result = KataResult(spec, False, len(spec.public), 150, True, failure,
                        note.text() if note else None)
    out = entry(False, 0, "✘ not passed\n  why: spoofed reason, never read",
                verdict=verdict_of(result, note, note is None or note.id != "missing"))
    if failure is not None:
        out["failure"] = {"public": False, "size": len(failure.args[0]),
                          "call": call_text(spec, failure.args)}
    return out


PAIR = "return a pair: (a list of melds, a list of deadwood cards)"
STUDENTS = [
    {"student": "ada", "score": 5, "max_score": 5,
     "katas": {"card_value": entry(True, 1), "best_melds": entry(True, 4)}},
    {"student": "bo", "score": 1, "max_score": 5,
     "katas": {"card_value": entry(True, 1),
               "best_melds": graded("best_melds", "AH 2H 3H QH KH", Returned([]))}},
    {"student": "cy", "score": 1, "max_score": 5,
     "katas": {"card_value": entry(True, 1),
               "best_melds": graded("best_melds", "QH KH AH", Returned(7))}},
    {"student": "di", "score": 0, "max_score": 5,
     "katas": {"card_value": graded("card_value", None, note=Note(
         "missing", {"name": "card_value"})),
               "best_melds": graded("best_melds", "5S 5D 5C 6C 7C",
                                    Raised("KeyError", False, '"why: ace high"'))}},
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
    assert (best.reason, best.reason_count, best.without_call) == (PAIR, 2, 0)
    assert best.call == "best_melds([QH KH AH])"
    value = katas["card_value"]
    assert (value.passed, value.reason, value.call, value.without_call) == (
        3, "no function named card_value was found", None, 1)


@pytest.mark.parametrize("unwritten", [0, 1, 2])
def test_every_count_in_the_report_is_the_gradebooks(unwritten: int) -> None:
    """Four students: one with a counterexample, ``unwritten`` with the stub's
    NotImplementedError, the rest passed: each counted once (issue 21, item 10)."""
    students: list[dict[str, Any]] = []
    for i in range(4):
        if i == 0:
            kata = graded("is_set", "7H 7S", Returned(True))
        elif i <= unwritten:
            kata = graded("is_set", "7H 7S", Raised("NotImplementedError", False, ""))
        else:
            kata = entry(True, 1)
        students.append({"student": f"s{i}", "score": int(kata["passed"]), "max_score": 1,
                         "katas": {"is_set": kata}})
    book = parse_gradebook(students)
    (summary,) = summarise(book)
    failing = [s for s in students if not s["katas"]["is_set"]["passed"]]
    assert summary.graded == 4 and summary.passed == 4 - len(failing)
    assert summary.reason_count + summary.without_call == len(failing)
    assert summary.call == "is_set([7H 7S])" and summary.without_call == unwritten
    page = report_html(book)
    block = page[page.index('data-kata="is_set"><h3>'):page.index('id="students"')]
    assert "1 of 4 students" in block
    if unwritten:
        more = "1 more student" if unwritten == 1 else f"{unwritten} more students"
        assert more in block
    else:
        assert "more student" not in block
    assert page.count('<details class="bg-student"') == 4


def test_a_kata_nobody_has_written_shows_no_counterexample_and_no_more_line() -> None:
    students = [{"student": "s0", "score": 0, "max_score": 1, "katas": {"is_set": graded(
        "is_set", "7H 7S", Raised("NotImplementedError", False, ""))}},
        {"student": "s1", "score": 1, "max_score": 1, "katas": {"is_set": entry(True, 1)}}]
    (summary,) = summarise(parse_gradebook(students))
    assert (summary.reason_count, summary.without_call, summary.call) == (1, 1, None)
    assert "not written yet" in (summary.reason or "")
    block = report_html(parse_gradebook(students)).split('id="failures"')[1]
    assert "1 of 2 students" in block and "more student" not in block.split("</div>")[0]


def test_the_report_speaks_its_own_language_from_the_verdicts() -> None:
    from box_gin.checker.verdicts import language

    with language("fr"):
        page = report_html(parse_gradebook(STUDENTS))
    assert "spoofed reason" not in page.split('id="students"')[0]
    assert "why: ace high" not in page.split('id="students"')[0]
    assert "no function named" not in page and "not passed" not in page
    assert "<code>raise NotImplementedError()</code>" not in page  # none unwritten here


def test_long_inputs_fold_after_their_first_cards() -> None:
    from box_gin.platforms.class_report import FIRST_CARDS, call_html

    deck = " ".join(["AH"] * 52)
    html_text = call_html(f"deal([{deck}])")
    head, fold = html_text.split('<details class="bg-more">')
    assert head.count('class="bg-card ') == FIRST_CARDS
    assert fold.count('class="bg-card ') == 52 - FIRST_CARDS and "42 more cards" in fold
    assert '<details' not in call_html("is_set([7H 7S 7D])")


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
    assert "@import" not in page
    # One inline script, the print hook that opens the folds; nothing loaded.
    assert page.count("<script") == 1 and "beforeprint" in page and "src=" not in page
    failures = page[page.index('id="failures"'):page.index('id="students"')]
    assert failures.count('class="bg-card ') == 3  # QH KH AH
    assert page.count('<details class="bg-student"') == 4


def test_a_notebook_not_handed_in_is_not_failed() -> None:
    """Ada handed in notebook 1 only (its functions found, one kata failed); the katas of
    notebook 2 she never handed in are counted "not handed in", not failed, and are not
    in her failures; Bo handed in both."""
    missing = {"passed": False, "points": 1, "feedback": "", "found": False}
    book = parse_gradebook([
        {"student": "ada", "score": 1, "max_score": 4, "katas": {
            "card_value": entry(True, 1, found=True), "parse_card": entry(False, 1, found=True),
            "is_set": dict(missing), "is_run": dict(missing)}},
        {"student": "bo", "score": 3, "max_score": 4, "katas": {
            "card_value": entry(True, 1, found=True), "parse_card": entry(True, 1, found=True),
            "is_set": entry(True, 1, found=True), "is_run": entry(False, 1, found=False)}},
    ])
    by_name = {k.name: k for k in summarise(book)}
    assert (by_name["is_set"].graded, by_name["is_set"].not_handed_in) == (1, 1)
    assert (by_name["parse_card"].graded, by_name["parse_card"].not_handed_in) == (2, 0)
    # Bo handed in notebook 2 (is_set found): his missing is_run is a failure, not missing.
    assert (by_name["is_run"].graded, by_name["is_run"].passed) == (1, 0)
    page = report_html(book)
    ada = page[page.index('data-student="ada"'):page.index('data-student="bo"')]
    assert "✘ parse_card" in ada and "✘ is_set" not in ada and "✘ is_run" not in ada
    assert ada.count("bg-missing") == 2
