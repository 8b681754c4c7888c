"""The classroom's pages for every learner: axe-core finds no violation of WCAG 2.1 A and
AA on the player's, the sitter's and the teacher's pages (English and Hebrew); a whole
hand is played with the keyboard alone, the focus coming back to where the next move is
made, and its end is shown at the top of all three seats; on a 375x667 phone nothing is
cut off, nothing scrolls sideways, the status and one's own hand are in the first screen
and every control is at least 44 px tall and wide.

One ``box-gin serve`` for the module; each test makes its own table.  Screenshots:
``tests/browser/screenshots/access-*.png``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from a11y import wcag_violations
from classroom_helpers import ServeProcess, create_table, greedy_action, seat_three, shadow
from conftest import SCREENSHOTS

from box_gin.hand import Role

pytestmark = pytest.mark.browser

NAMES = ("Zoe", "Yan", "Xia")
PHONE = {"width": 375, "height": 667}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    proc = ServeProcess(tmp_path_factory.mktemp("access") / "class.db")
    yield proc
    proc.kill()


def _context(browser: Any, server: ServeProcess, lang: str, viewport: dict[str, int],
             cookies: dict[str, str], errors: list[str]) -> Any:
    context = browser.new_context(viewport=viewport, locale=lang,
                                  extra_http_headers={"Accept-Language": lang})
    def refuse(route: Any) -> None:  # nothing leaves the machine
        errors.append(f"external: {route.request.url}")
        route.abort()

    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), refuse)
    context.add_cookies([{"name": k, "value": v, "url": server.base}
                         for k, v in cookies.items()])
    return context


def _open(context: Any, url: str, errors: list[str]) -> Any:
    pg = context.new_page()
    pg.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    pg.on("console", lambda msg: errors.append(f"console: {msg.text}")
          if msg.type == "error" else None)
    pg.set_default_timeout(60_000)
    pg.goto(url)
    return pg


def _seats(browser: Any, server: ServeProcess, seed: int, lang: str,
           viewport: dict[str, int], errors: list[str]) -> tuple[str, dict[str, Any]]:
    """A new table with three learners, each in a browser of their own: code, pages."""
    teacher = server.teacher()
    try:
        code = create_table(teacher, seed=seed)
    finally:
        teacher.close()
    pages = {}
    for learner in seat_three(server, code, NAMES):
        ctx = _context(browser, server, lang, viewport, {f"bg_seat_{code}": learner.token},
                       errors)
        pg = _open(ctx, f"{server.base}t/{code}", errors)
        pg.wait_for_function("() => document.getElementById('bg-page').dataset.online"
                             " === '1'")
        pg.locator(".bg-roles").wait_for()
        pages[learner.name] = pg
    return code, pages


def _teacher(browser: Any, server: ServeProcess, lang: str, viewport: dict[str, int],
             errors: list[str]) -> Any:
    ctx = _context(browser, server, lang, viewport, {}, errors)
    pg = _open(ctx, f"{server.base}teacher?key={server.key}&lang={lang}", errors)
    pg.locator(".bg-table-card").first.wait_for()
    return pg


def _close(*pages: Any) -> None:
    for pg in pages:
        pg.context.close()


def _roles(seed: int) -> dict[Role, str]:
    return dict(shadow(NAMES, seed).roles)


@pytest.mark.parametrize("lang", ["en", "he"])
def test_classroom_pages_have_no_accessibility_violations(
        browser: Any, server: ServeProcess, lang: str) -> None:
    errors: list[str] = []
    seed = 5
    code, pages = _seats(browser, server, seed, lang, {"width": 1100, "height": 900},
                         errors)
    teacher = _teacher(browser, server, lang, {"width": 1280, "height": 900}, errors)
    roles = _roles(seed)
    found = {}
    SCREENSHOTS.mkdir(exist_ok=True)
    for role, name in roles.items():
        pg = pages[name]
        assert pg.locator("html").get_attribute("lang") == lang
        assert pg.locator("html").get_attribute("dir") == ("rtl" if lang == "he" else "ltr")
        found[role.value] = wcag_violations(pg)
        pg.screenshot(path=str(SCREENSHOTS / f"access-{role.value}-{lang}.png"),
                      full_page=True)
    found["teacher"] = wcag_violations(teacher)
    teacher.screenshot(path=str(SCREENSHOTS / f"access-teacher-{lang}.png"), full_page=True)
    teacher.goto(f"{server.base}teacher/t/{code}")
    teacher.locator(".bg-state").wait_for()
    found["watch"] = wcag_violations(teacher)
    teacher.goto(f"{server.base}teacher/t/{code}/projector")
    found["projector"] = wcag_violations(teacher)
    teacher.goto(f"{server.base}join/{code}")
    found["join"] = wcag_violations(teacher)
    teacher.goto(f"{server.base}")
    found["home"] = wcag_violations(teacher)
    _close(teacher, *pages.values())
    assert not any(found.values()), found
    assert not errors, errors


def _tab_to(pg: Any, action: str, limit: int = 40) -> int:
    """Press Tab until the button of ``action`` has the focus; the presses it took."""
    for presses in range(limit):
        if pg.evaluate("() => document.activeElement && "
                       "document.activeElement.dataset.action") == action:
            return presses
        pg.keyboard.press("Tab")
    raise AssertionError(f"{action} not reached in {limit} Tab presses")


def test_a_hand_by_keyboard_alone_and_its_end_at_the_top(
        browser: Any, server: ServeProcess) -> None:
    errors: list[str] = []
    seed = 11
    code, pages = _seats(browser, server, seed, "en", {"width": 1100, "height": 900},
                         errors)
    match = shadow(NAMES, seed)
    seq = 0
    presses = []
    while not match.history:
        name, action = greedy_action(match)
        pg = pages[name]
        presses.append(_tab_to(pg, action))
        # The focus is drawn: an outline a sighted keyboard user sees.
        outline = pg.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("none", ""), outline
        pg.keyboard.press("Enter")
        match.apply(action, player=name)
        seq += 1
        for other in pages.values():
            other.wait_for_function(
                f"() => Number(document.getElementById('bg-page').dataset.seq) >= {seq}")
        # After the move, the focus stays in the table, never dropped to the body.
        assert pg.evaluate("() => document.activeElement !== document.body")
    # Once a seat is to move, its next move is a few Tab presses away, not a dozen.
    assert max(presses[1:]) <= 12 and sorted(presses)[len(presses) // 2] <= 4, presses
    record = match.history[-1]
    for name, pg in pages.items():
        banner = pg.locator("#bg-live .bg-ended")
        banner.wait_for()
        # At the top of the page, in the first screen, before the new hand's table.
        box = banner.bounding_box()
        assert box is not None and box["y"] < 300, (name, box)
        text = banner.inner_text()
        assert str(record.result.points) in text, text
        for player in NAMES:
            assert player in text, text
        assert pg.locator("#bg-news").inner_text().strip()
        # The result and the score sheet below pass axe-core too.
        assert wcag_violations(pg) == [], name
        pg.screenshot(path=str(SCREENSHOTS / f"access-ended-{name}.png"))
    # The teacher's replay of the hand, step by step.
    teacher = _teacher(browser, server, "en", {"width": 1280, "height": 900}, errors)
    teacher.goto(f"{server.base}teacher/t/{code}/hand/1?step=3")
    assert teacher.locator(".bg-replay .bg-view").count() == 3
    assert wcag_violations(teacher) == []
    _close(teacher, *pages.values())
    assert not errors, errors


def test_a_place_freed_by_the_teacher_is_retaken_from_a_new_browser(
        browser: Any, server: ServeProcess) -> None:
    errors: list[str] = []
    code, pages = _seats(browser, server, 5, "en", {"width": 1100, "height": 900}, errors)
    old = pages["Zoe"]
    # A new browser without the seat's cookie is told the table is full, and what to do.
    lost = browser.new_context()
    stranger = _open(lost, f"{server.base}join/{code}", errors)
    assert "Ask the teacher" in stranger.locator("main").inner_text()
    # The teacher frees Zoe's place from the table's page (the button is keyboard-reachable).
    teacher = _teacher(browser, server, "en", {"width": 1280, "height": 900}, errors)
    teacher.goto(f"{server.base}teacher/t/{code}")
    teacher.wait_for_function("() => document.getElementById('bg-page').dataset.online"
                              " === '1'")
    # A live update keeps the teacher's focus on the control it was on.
    yan = teacher.get_by_role("button", name="Free place 2 (Yan) for another browser")
    yan.focus()
    name, action = greedy_action(shadow(NAMES, 5))
    pages[name].locator(f'button[data-kind="act"][data-action="{action}"]').click()
    teacher.wait_for_function("() => Number(document.getElementById('bg-page')"
                              ".dataset.seq) >= 1")
    assert teacher.evaluate("() => document.activeElement.getAttribute('aria-label')") \
        == "Free place 2 (Yan) for another browser"
    old.wait_for_function("() => Number(document.getElementById('bg-page').dataset.seq) >= 1")
    hand = old.locator(".bg-my-hand").inner_html()
    free = teacher.get_by_role("button", name="Free place 1 (Zoe) for another browser")
    free.focus()
    teacher.keyboard.press("Enter")
    link = teacher.locator(".bg-retake a")
    link.wait_for()
    url = link.get_attribute("href")
    assert url and f"/retake/{code}/" in url
    assert teacher.locator(".bg-qr svg").count() == 1
    assert wcag_violations(teacher) == []
    teacher.screenshot(path=str(SCREENSHOTS / "access-freed.png"))
    # The old browser is closed out: its socket goes, and a reload finds no seat.
    old.wait_for_function("() => document.getElementById('bg-page').dataset.online === '0'")
    old.locator("#bg-error", has_text="gave this place to someone else").wait_for()
    old.reload()
    assert "/join/" in old.url
    # The new browser opens the link: Zoe's place, with Zoe's cards.
    stranger.goto(url)
    stranger.wait_for_url(f"**/t/{code}")
    stranger.locator(".bg-my-hand").wait_for()
    assert "Zoe" in stranger.title()
    assert stranger.locator(".bg-my-hand").inner_html() == hand
    # The link opens the place once.
    other = _open(browser.new_context(), url, errors)
    assert "/t/" not in other.url and "ask the teacher" in other.locator("main").inner_text()
    _close(teacher, stranger, other, *pages.values())
    # Expected: the old browser's socket refused (403) and the used link's 404.
    expected = ("WebSocket connection", "status of 404", "status of 403")
    assert not [e for e in errors if not any(x in e for x in expected)], errors


#: Every control of the page narrower or shorter than 44 px, and whether the page scrolls
#: sideways.
PHONE_JS = """() => {
  const small = [...document.querySelectorAll('button, a, input, select, summary')]
    .filter(e => e.offsetParent !== null)
    .map(e => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => r.width < 44 || r.height < 44)
    .map(([e, r]) => `${e.tagName} ${(e.innerText || e.getAttribute('aria-label') || '')
      .slice(0, 20)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  const root = document.documentElement;
  return {small, overflow: root.scrollWidth - root.clientWidth};
}"""


@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_classroom_on_a_phone(browser: Any, server: ServeProcess, lang: str) -> None:
    errors: list[str] = []
    seed = 5
    code, pages = _seats(browser, server, seed, lang, PHONE, errors)
    teacher = _teacher(browser, server, lang, PHONE, errors)
    for role, name in _roles(seed).items():
        pg = pages[name]
        pg.screenshot(path=str(SCREENSHOTS / f"access-phone-{role.value}-{lang}.png"))
        found = pg.evaluate(PHONE_JS)
        assert found["overflow"] <= 0, (role, found)
        assert not found["small"], (role, found["small"])
        # The status and one's own hand in the first screen.
        for part in (".bg-status", ".bg-my-hand"):
            box = pg.locator(f"#bg-live {part}").bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"], \
                (role, part, box)
        buttons = pg.locator("#bg-live button:not(.bg-card-act)")
        if buttons.count():
            box = buttons.last.bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"], \
                (role, box)
    for shot, url in (("overview", f"{server.base}teacher"),
                      ("watch", f"{server.base}teacher/t/{code}"),
                      ("join", f"{server.base}join/{code}"), ("home", server.base)):
        teacher.goto(url)
        found = teacher.evaluate(PHONE_JS)
        assert found["overflow"] <= 0, (url, found)
        assert not found["small"], (url, found["small"])
        teacher.screenshot(path=str(SCREENSHOTS / f"access-phone-{shot}-{lang}.png"),
                           full_page=True)
    _close(teacher, *pages.values())
    assert not errors, errors


def test_the_projectors_qr_code_fills_its_box_at_1920x1080(browser: Any,
                                                           server: ServeProcess) -> None:
    """On a projector (1920x1080) the join code and the QR code fill the screen: the QR
    code drawn most of the screen's height (its SVG scales with its box: a viewBox, no
    fixed size), square, and wholly in the first screen."""
    errors: list[str] = []
    client = server.teacher()
    try:
        code = create_table(client, seed=8)
    finally:
        client.close()
    teacher = _teacher(browser, server, "en", {"width": 1920, "height": 1080}, errors)
    teacher.goto(f"{server.base}teacher/t/{code}/projector")
    svg = teacher.locator(".bg-projector .bg-qr svg")
    svg.wait_for()
    assert svg.get_attribute("viewBox") and not svg.get_attribute("width")
    box = svg.bounding_box()
    drawn = teacher.evaluate(
        "() => { const r = document.querySelector('.bg-projector .bg-qr svg')"
        ".getBBox(); return [r.width, r.height]; }")
    assert box is not None and box["height"] >= 0.6 * 1080, box
    assert abs(box["width"] - box["height"]) <= 2, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= 1080, box  # in the first screen
    assert drawn[0] > 0 and drawn[1] > 0  # the code's modules are drawn, not an empty box
    SCREENSHOTS.mkdir(exist_ok=True)
    teacher.screenshot(path=str(SCREENSHOTS / "access-projector-1920.png"))
    _close(teacher)
    assert not errors, errors
