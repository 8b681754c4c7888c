"""The class report in a real Chromium: one self-contained page, offline, whose
histogram, pass rates, counterexample cards and student sections show the gradebook."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from box_gin.checker.grader import max_score
from box_gin.cli import main
from box_gin.katas import KATAS
from box_gin.platforms.gradebook import load_gradebook

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from classroom import WRONG, english, make_class  # noqa: E402

# A class of a dozen: a wrong student for each of several katas, best_melds wrong in three
# ways (its counterexample card is drawn).  Every student also plays the bot kata, about
# a second of grading each, so the class is not every wrong submission there is.
CLASS = [p for p in WRONG if p.stem in {
    "card_value_ace_eleven", "parse_card_no_strip", "deal_box_first", "run_ace_high",
    "best_melds_ace_high", "best_melds_card_twice", "best_melds_no_sets",
    "can_knock_strictly_below", "lay_off_no_chain", "score_undercut_sign",
    "winner_ignores_target", "roles_is_box"}]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("report")
    book = folder / "class.json"
    assert len(CLASS) == 12
    students = [english(ROOT / "solutions", folder), english(ROOT / "exercises", folder),
                *make_class(folder / "class", CLASS)]
    assert main(["check", *map(str, students), "--json", str(book), "-j", "2", "-q"]) == 0
    page = folder / "report.html"
    assert main(["report", str(book), "--html", str(page), "--lang", "en"]) == 0
    return page, load_gradebook(book).students


def test_the_report_shows_the_gradebook(page: Any, report: tuple[Path, list[Any]]) -> None:
    path, students = report
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(path.as_uri())
    assert requests == [path.as_uri()], requests  # nothing else is loaded
    counts = page.locator(".bg-histogram rect").evaluate_all(
        "rs => rs.map(r => Number(r.dataset.count))")
    assert sum(counts) == len(students)
    rows = page.locator("table.bg-rates tbody tr")
    assert rows.count() == len(KATAS)
    for kata in KATAS:
        passed = sum(s["katas"][kata.name]["passed"] for s in students)
        cell = page.locator(f'tr[data-kata="{kata.name}"] td').nth(2)
        assert cell.inner_text() == f"{passed}/{len(students)}"
    # best_melds fails for several students: its card is drawn with real cards.
    failure = page.locator('.bg-failure[data-kata="best_melds"]')
    assert failure.locator(".bg-card").count() >= 1
    assert page.locator("details.bg-student").count() == len(students)
    exercises = page.locator('details.bg-student[data-student="exercises"]')
    assert f"0/{max_score(KATAS)}" in exercises.locator(":scope > summary").inner_text()
    # Folded: the student's feedback shows only once their line is clicked.
    assert not exercises.locator("pre.bg-feedback").first.is_visible()
    exercises.locator(":scope > summary").click()
    assert exercises.locator("pre.bg-feedback").first.is_visible()
    assert exercises.locator(".bg-chips .bg-chip.bg-fail").count() == len(KATAS)
    # The feedback's code spans are code, not backticks.
    assert "`" not in exercises.inner_text()
    assert exercises.locator("pre.bg-feedback code").count() >= 1
    shots = ROOT / "tests" / "browser" / "screenshots"
    shots.mkdir(exist_ok=True)
    exercises.screenshot(path=str(shots / "class_report_student_open.png"))
    page.screenshot(path=str(shots / "class_report.png"))
    # Folded, each student is one line: a class is not metres of cards.
    exercises.locator(":scope > summary").click()
    tallest = page.locator("details.bg-student").evaluate_all(
        "ds => Math.max(...ds.map(d => d.getBoundingClientRect().height))")
    assert tallest < 120, tallest
    # Readable on a projector: body text at least 18 px.
    size = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 18


def test_the_report_prints(page: Any, report: tuple[Path, list[Any]], tmp_path: Path) -> None:
    path, _students = report
    page.goto(path.as_uri())
    assert page.evaluate("() => [...document.querySelectorAll('details')].some(d => !d.open)")
    page.emulate_media(media="print")
    # Printing opens every fold (the browser's beforeprint): each student's feedback is on
    # paper.
    page.evaluate("() => dispatchEvent(new Event('beforeprint'))")
    assert page.evaluate("() => [...document.querySelectorAll('details')].every(d => d.open)")
    pdf = tmp_path / "report.pdf"
    page.pdf(path=str(pdf), format="A4")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page") >= 2
    page.emulate_media(media="screen")


@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_report_has_no_accessibility_violations(page: Any, report: tuple[Path, list[Any]],
                                                    lang: str) -> None:
    """axe-core (WCAG 2.1 A and AA) finds nothing on the class report, in English and in
    Hebrew (right to left)."""
    from a11y import violations

    path, _students = report
    if lang != "en":
        translated = path.with_name(f"report-{lang}.html")
        assert main(["report", str(path.with_name("class.json")), "--html", str(translated),
                     "--lang", lang]) == 0
        path = translated
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(path.as_uri())
    assert violations(page) == []
