"""The classroom table in the teacher's hands, in Chromium: at a hand's end every seat
waits until its learners press Next hand, then the next hand starts; the teacher moves a
learner (whose page follows to the new table), puts a bot in a learner's place, and
closes a table.  axe-core finds no WCAG 2.1 A/AA violation on the pages changed (the
waiting seat, the watch page with its controls, the closed table), in English and
Hebrew.  Screenshots: ``tests/browser/screenshots/teacher-*.png``, desktop and phone.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from a11y import wcag_violations
from classroom_helpers import Learner, ServeProcess, create_table, play_step, shadow
from conftest import SCREENSHOTS
from test_classroom_access import _close, _context, _open, _teacher

from box_gin.hand import Role

pytestmark = pytest.mark.browser

NAMES = ("Zoe", "Yan", "Xia")
DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 375, "height": 667}
#: What a page may log and still pass: a socket closed or refused on purpose.
EXPECTED = ("WebSocket connection", "status of 403", "status of 404")


#: Each select of the teacher's controls: its chosen caption, and whether it fits inside
#: the select (its width in the select's own font, plus room for the arrow), as
#: tests/browser/test_hebrew.py measures the play app's.
CAPTIONS_JS = """() => {
  const canvas = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('.bg-controls select')].map(s => {
    const cs = getComputedStyle(s);
    canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = s.options[s.selectedIndex].text;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return {text, fits: canvas.measureText(text).width + 16 <= room};
  });
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    proc = ServeProcess(tmp_path_factory.mktemp("teacher") / "class.db")
    yield proc
    proc.kill()


def _table(server: ServeProcess, seed: int, bots: int = 0) -> str:
    client = server.teacher()
    try:
        return create_table(client, seed=seed, bots=bots)
    finally:
        client.close()


def _seat_pages(browser: Any, server: ServeProcess, code: str, names: tuple[str, ...],
                lang: str, errors: list[str]) -> tuple[list[Learner], dict[str, Any]]:
    """Learners at places 0, 1, ... each with a browser of their own on their seat."""
    learners = [Learner(server.base, code, name, place) for place, name in enumerate(names)]
    pages = {}
    for learner in learners:
        learner.join()
        ctx = _context(browser, server, lang, DESKTOP, {f"bg_seat_{code}": learner.token},
                       errors)
        pg = _open(ctx, f"{server.base}t/{code}", errors)
        pg.wait_for_function("() => document.getElementById('bg-page').dataset.online"
                             " === '1'")
        pages[learner.name] = pg
    return learners, pages


def _unexpected(errors: list[str]) -> list[str]:
    return [e for e in errors if not any(x in e for x in EXPECTED)]


@pytest.mark.parametrize("lang", ["en", "he"])
def test_at_a_hands_end_the_next_hand_starts_when_the_learners_are_ready(
        browser: Any, server: ServeProcess, lang: str) -> None:
    errors: list[str] = []
    seed = 41
    code = _table(server, seed)
    learners, pages = _seat_pages(browser, server, code, NAMES, lang, errors)
    # The hand is played through the learners' own sockets (their tokens), quickly;
    # the browsers watch it.
    match = shadow(NAMES, seed)
    for learner in learners:
        learner.connect()
    seq = 0
    while not match.history:
        play_step(match, learners, seq)
        seq += 1
    for learner in learners:
        learner.close()
    SCREENSHOTS.mkdir(exist_ok=True)
    for pg in pages.values():
        button = pg.locator('button[data-kind="ready"]')
        button.wait_for()
        # The hand's end is at the top, its Next hand button in the first screen.
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] < DESKTOP["height"], box
        assert pg.locator(".bg-my-hand").count() == 0
    first = pages[NAMES[0]]
    assert wcag_violations(first) == []
    first.screenshot(path=str(SCREENSHOTS / f"teacher-waiting-{lang}.png"), full_page=True)
    first.set_viewport_size(PHONE)
    box = first.locator('button[data-kind="ready"]').bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    first.screenshot(path=str(SCREENSHOTS / f"teacher-waiting-{lang}-phone.png"))
    first.set_viewport_size(DESKTOP)
    # The review of the learner's own decisions in the hand just ended (issue 36).
    link = first.locator(f'#bg-past a[href="/t/{code}/review/1"]')
    assert link.count() == 1
    # (opened by the box, who has decisions of their own to see)
    review = pages[match.history[0].roles[Role.BOX]].context.new_page()
    review.goto(f"{server.base}t/{code}/review/1")
    review.locator("h1").wait_for()
    assert review.locator("html").get_attribute("lang") == lang
    assert wcag_violations(review) == []
    assert review.locator("table.bg-review tr[id]").count() > 0  # its decisions, rated
    review.screenshot(path=str(SCREENSHOTS / f"teacher-review-{lang}.png"), full_page=True)
    review.set_viewport_size(PHONE)
    review.screenshot(path=str(SCREENSHOTS / f"teacher-review-{lang}-phone.png"))
    review.close()
    # Each learner presses Next hand; until the last one does, the table waits.
    for i, name in enumerate(NAMES):
        pages[name].locator('button[data-kind="ready"]').click()
        if i < len(NAMES) - 1:
            pages[name].locator('button[data-kind="ready"]').wait_for(state="detached")
            for later in NAMES[i + 1:]:
                assert later in pages[name].locator(".bg-status").inner_text()
    for pg in pages.values():
        pg.locator(".bg-my-hand").wait_for()
        assert pg.locator('button[data-kind="ready"]').count() == 0
    _close(*pages.values())
    assert not _unexpected(errors), errors


@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_teacher_moves_a_learner_and_their_page_follows(
        browser: Any, server: ServeProcess, lang: str) -> None:
    errors: list[str] = []
    here, there = _table(server, 42), _table(server, 43, bots=2)
    _learners, pages = _seat_pages(browser, server, here, ("Zoe",), lang, errors)
    zoe = pages["Zoe"]
    teacher = _teacher(browser, server, lang, {"width": 1280, "height": 900}, errors)
    teacher.goto(f"{server.base}teacher/t/{here}")
    teacher.locator(".bg-controls").wait_for()
    assert wcag_violations(teacher) == []
    # Every select's chosen caption fits inside it (in Hebrew too), desktop and phone.
    captions = teacher.evaluate(CAPTIONS_JS)
    assert len(captions) >= 5 and all(c["fits"] for c in captions), captions
    teacher.screenshot(path=str(SCREENSHOTS / f"teacher-watch-{lang}.png"), full_page=True)
    teacher.set_viewport_size(PHONE)
    teacher.screenshot(path=str(SCREENSHOTS / f"teacher-watch-{lang}-phone.png"),
                       full_page=True)
    captions = teacher.evaluate(CAPTIONS_JS)
    assert all(c["fits"] for c in captions), captions
    overflow = teacher.evaluate("() => document.documentElement.scrollWidth"
                                " - document.documentElement.clientWidth")
    assert overflow <= 0, overflow
    teacher.set_viewport_size({"width": 1280, "height": 900})
    form = teacher.locator(f'form[action="/teacher/t/{here}/move/0"]')
    form.locator("select").select_option(f"{there}:0")
    form.locator("button").click()
    teacher.wait_for_url(f"**/teacher/t/{here}")
    # Zoe's page follows her to the other table, where the match is dealt.
    zoe.wait_for_url(f"**/t/{there}")
    zoe.locator(".bg-roles").wait_for()
    assert "Zoe" in zoe.title() and there in zoe.title()
    _close(teacher, zoe)
    assert not _unexpected(errors), errors


def test_a_bot_takes_a_learners_place_and_a_closed_table_takes_no_one(
        browser: Any, server: ServeProcess) -> None:
    errors: list[str] = []
    code = _table(server, 44)
    _learners, pages = _seat_pages(browser, server, code, NAMES, "en", errors)
    teacher = _teacher(browser, server, "en", {"width": 1280, "height": 900}, errors)
    teacher.goto(f"{server.base}teacher/t/{code}")
    form = teacher.locator(f'form[action="/teacher/t/{code}/bot/1"]')
    form.locator("select").select_option("random")
    form.locator("button").click()
    teacher.wait_for_url(f"**/teacher/t/{code}")
    # Yan's browser is closed out; the others see Yan played by a bot.
    pages["Yan"].locator("#bg-error", has_text="gave this place to someone else").wait_for()
    pages["Zoe"].locator(".bg-roles", has_text="Yan (bot)").wait_for()
    teacher.locator(f'form[action="/teacher/t/{code}/close"] button').click()
    teacher.wait_for_url(f"**/teacher/t/{code}")
    assert teacher.locator(".bg-controls").count() == 0
    assert "This table is closed." in teacher.locator(".bg-state").inner_text()
    pages["Zoe"].locator(".bg-status", has_text="This table is closed.").wait_for()
    # No one joins it; its record is still the teacher's.
    stranger = _open(browser.new_context(), f"{server.base}join/{code}", errors)
    assert "This table is closed." in stranger.locator("main").inner_text()
    assert stranger.locator('input[name="name"]').count() == 0
    record = teacher.request.get(f"{server.base}teacher/t/{code}/record.json")
    assert record.status == 200 and '"players"' in record.text()
    for lang in ("en", "he"):
        for pg, url in ((teacher, f"teacher?lang={lang}"), (pages["Zoe"], f"t/{code}?lang={lang}"),
                        (stranger, f"join/{code}?lang={lang}")):
            pg.goto(f"{server.base}{url}")
            assert wcag_violations(pg) == [], (lang, url)
    pages["Zoe"].screenshot(path=str(SCREENSHOTS / "teacher-closed-seat.png"))
    teacher.screenshot(path=str(SCREENSHOTS / "teacher-closed-overview.png"), full_page=True)
    _close(teacher, stranger, *pages.values())
    assert not _unexpected(errors), errors
