"""The classroom table as a class uses it: four browsers (the teacher and three learners)
on one ``box-gin serve``; a seeded hand played to the end through the pages' buttons,
with a reload and a server restart (kill -9) in the middle.

The learners' clicks follow the greedy bot, worked out on the test's own shadow of the
match (the same players and seed); the pages only ever show what each seat may see.
Screenshots: ``tests/browser/screenshots/classroom-*.png``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from classroom_helpers import (
    ServeProcess,
    greedy_action,
    hidden_from,
    leaks,
    shadow,
)
from conftest import SCREENSHOTS

from box_gin import Match
from box_gin.hand import Role

pytestmark = pytest.mark.browser

SEED = 11
NAMES = ("Zoe", "Yan", "Xia")
LANGS = ("en", "he", "uk")


def _context(browser: Any, lang: str, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale=lang,
                                  extra_http_headers={"Accept-Language": lang})

    def offline(route: Any) -> None:
        errors.append(f"external: {route.request.url}")
        route.abort()

    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), offline)
    return context


def _watch(pg: Any, errors: list[str]) -> Any:
    pg.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    # A refused websocket while the server restarts is expected; nothing else.
    pg.on("console", lambda msg: errors.append(f"console: {msg.text}")
          if msg.type == "error" and "WebSocket" not in msg.text else None)
    pg.set_default_timeout(60_000)
    return pg


def _seq(pg: Any) -> int:
    return int(pg.locator("#bg-page").get_attribute("data-seq"))


def _wait_seq(pages: list[Any], seq: int) -> None:
    for pg in pages:
        pg.wait_for_function(
            f"() => Number(document.getElementById('bg-page').dataset.seq) >= {seq}")


def _wait_online(pages: list[Any], state: str) -> None:
    for pg in pages:
        pg.wait_for_function(
            f"() => document.getElementById('bg-page').dataset.online === '{state}'")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    proc = ServeProcess(tmp_path / "class.db")
    yield proc
    proc.kill()


def test_three_browsers_play_a_hand(browser: Any, server: ServeProcess,
                                    tmp_path: Path) -> None:
    errors: list[str] = []
    teacher_ctx = _context(browser, "fr", errors)
    teacher = _watch(teacher_ctx.new_page(), errors)
    teacher.goto(f"{server.base}teacher?key={server.key}")
    assert teacher.locator("html").get_attribute("lang") == "fr"
    teacher.fill("input[name=seed]", str(SEED))
    teacher.locator("form.bg-form button[type=submit]").click()
    card = teacher.locator(".bg-table-card").first
    code = card.locator(".bg-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{5}", code)
    assert card.locator(".bg-qr svg").count() == 1

    contexts, learners = [], []
    for place, (name, lang) in enumerate(zip(NAMES, LANGS, strict=True)):
        ctx = _context(browser, lang, errors)
        contexts.append(ctx)
        pg = _watch(ctx.new_page(), errors)
        pg.goto(f"{server.base}join/{code}")
        pg.fill("input[name=name]", name)
        pg.check(f"input[name=place][value='{place}']")
        pg.locator("form.bg-form button[type=submit]").click()
        pg.wait_for_url(f"**/t/{code}")
        learners.append(pg)
    _wait_seq(learners, 0)
    _wait_online(learners, "1")
    for pg in learners:
        pg.locator(".bg-roles").wait_for()
    hebrew = learners[1]
    assert hebrew.locator("html").get_attribute("dir") == "rtl"
    assert hebrew.locator(".bg-my-hand").evaluate("e => getComputedStyle(e).direction") \
        == "ltr"
    teacher.goto(f"{server.base}teacher")
    teacher.locator(".bg-table-card .bg-state").wait_for()

    match = shadow(NAMES, SEED)
    page_of = dict(zip(NAMES, learners, strict=True))
    seq, advised = 0, False
    hand = match.hand
    while not match.history:
        name, action = greedy_action(match)
        role = match.role_of(name)
        if role is Role.CAPTAIN and not advised:
            # The sitter advises the captain once: only the captain is told.
            sitter = page_of[match.roles[Role.SITTER]]
            sitter.locator(f'button[data-kind="advise"][data-action="{action}"]').click()
            page_of[name].locator(".bg-advice").wait_for()
            box = page_of[match.roles[Role.BOX]]
            assert box.locator(".bg-advice").count() == 0
            advised = True
        for other, pg in page_of.items():
            shown = pg.locator("#bg-live").inner_html()
            found = leaks(shown, hidden_from(match, hand, other))
            assert not found, f"{other} sees {found} at move {seq}"
        page_of[name].locator(f'button[data-kind="act"][data-action="{action}"]').click()
        match.apply(action, player=name)
        seq += 1
        _wait_seq(learners, seq)
        if seq == 3:
            # A learner reloads: the same seat, the same cards.
            before = learners[0].locator(".bg-my-hand").inner_html()
            learners[0].reload()
            _wait_online([learners[0]], "1")
            _wait_seq([learners[0]], seq)
            assert learners[0].locator(".bg-my-hand").inner_html() == before
        if seq == 5:
            # The server dies (kill -9) and comes back on the same port and database:
            # every page reconnects by itself to the same seat and the same hand.
            server.kill()
            _wait_online(learners, "0")
            restarted = ServeProcess(server.db, port=server.port)
            server.proc, server.log = restarted.proc, restarted.log
            _wait_online(learners, "1")
            _wait_seq(learners, seq)

    for pg in learners:
        pg.locator(".bg-past .bg-result").wait_for()
        pg.locator(".bg-past .bg-scoresheet").wait_for()
    SCREENSHOTS.mkdir(exist_ok=True)
    for name, pg in page_of.items():
        pg.screenshot(path=str(SCREENSHOTS / f"classroom-{name}.png"), full_page=True)
    teacher.goto(f"{server.base}teacher")
    teacher.screenshot(path=str(SCREENSHOTS / "classroom-teacher.png"), full_page=True)
    record = teacher.request.get(f"{server.base}teacher/t/{code}/record.json").text()
    assert Match.from_json(record).to_dict() == match.to_dict()
    teacher.goto(f"{server.base}teacher/t/{code}/hand/1?step=4")
    assert teacher.locator(".bg-replay .bg-view").count() == 3
    teacher.screenshot(path=str(SCREENSHOTS / "classroom-replay.png"), full_page=True)
    # A learner's browser cannot open the teacher's page.
    refused = learners[0].request.get(f"{server.base}teacher")
    assert refused.status == 403 and f'data-code="{code}"' not in refused.text()
    for ctx in (teacher_ctx, *contexts):
        ctx.close()
    assert not errors, errors
