"""The review of a classroom hand (box_gin/classroom/reviews.py, issue 36): a learner's
own decisions, each reviewed position exactly what that seat could see; the teacher's,
every seat's; computed off the event loop and kept in a bounded cache."""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom_helpers import hidden_after, leaks
from test_classroom_teacher import Clock, learners_play_to_the_hand_end

from box_gin.classroom import reviews
from box_gin.classroom.server import Classroom
from box_gin.classroom.store import Store
from box_gin.classroom.tables import Room, Table
from box_gin.hand import Role

with warnings.catch_warnings():  # Starlette's TestClient on httpx prefers httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

NAMES = ("Zoe", "Yan", "Xia")
#: A player's row in the review's summary table.
ROW = r'<th scope="row">(Zoe|Yan|Xia)</th>'


def _played_table(room: Room, seed: int) -> tuple[Table, dict[str, str]]:
    table = room.create(seed=seed)
    tokens = {name: table.sit(i, name) for i, name in enumerate(NAMES)}
    learners_play_to_the_hand_end(table, tokens)
    return table, tokens


@pytest.mark.usefixtures("each_decision_evaluated_once")
def test_each_reviewed_position_is_what_that_seat_could_see() -> None:
    table, _tokens = _played_table(Room(Store(":memory:")), seed=31)
    played = reviews.Reviews().played(table, 1)
    final = played.hand
    reviewed_players = set()
    for name in NAMES:
        role = next(r for r in Role if played.player(r) == name)
        page = reviews.render(played, name, "en", "review")
        seat = Role.CAPTAIN if role is Role.SITTER else role
        # Nothing on the page that the seat never saw (the stock; a drawn hand's other
        # cards), and no other player's decision.
        assert not leaks(page, hidden_after(final, seat)), name
        decisions = reviews.review_hand(played, {name}, reviews.SEED).decisions
        if role is Role.SITTER:
            assert not decisions  # the sitter holds no cards: nothing of theirs to review
            continue
        assert decisions, name
        reviewed_players.add(name)
        for d in decisions:
            position = table.replay_hand(1, d.step)
            view = position.view(role)
            assert (d.player, d.role) == (name, role)
            assert d.cards == view.hand and d.top_discard == view.top_discard
            assert d.stock_size == view.stock_size
            assert {v.action for v in d.evaluation.values} <= set(view.legal_actions)
        others = {n for n in NAMES if n != name}
        summary = page.split('id="summary"')[1].split("</table>")[0]
        assert name in summary and not any(o in summary for o in others), summary
    assert len(reviewed_players) == 2


@pytest.fixture
def classroom(tmp_path: Path) -> Classroom:
    return Classroom(tmp_path / "class.db", teacher_key="k" * 24, now=Clock())


def test_a_learner_reviews_their_own_decisions_and_the_teacher_everyones(
        classroom: Classroom, monkeypatch: pytest.MonkeyPatch) -> None:
    table, tokens = _played_table(classroom.room, seed=32)
    app = classroom.app()
    learner = TestClient(app, base_url="http://testserver")
    learner.cookies.set(f"bg_seat_{table.code}", tokens["Zoe"])
    page = learner.get(f"/t/{table.code}").text
    assert f'href="/t/{table.code}/review/1"' in page
    mine = learner.get(f"/t/{table.code}/review/1")
    assert mine.status_code == 200 and "your decisions" in mine.text
    assert set(re.findall(ROW, mine.text)) <= {"Zoe"}
    assert not any(f"<td>{other} (" in mine.text for other in ("Yan", "Xia"))
    # The second time comes from the cache (the same page, one entry).
    assert learner.get(f"/t/{table.code}/review/1").text == mine.text
    assert list(classroom.reviews.pages) == [(table.code, 1, "Zoe", "en")]
    # A hand not finished, or a stranger: refused.
    assert learner.get(f"/t/{table.code}/review/2").status_code == 404
    stranger = TestClient(app, base_url="http://testserver")
    assert stranger.get(f"/t/{table.code}/review/1",
                        follow_redirects=False).status_code == 303
    assert stranger.get(f"/teacher/t/{table.code}/review/1").status_code == 403
    teacher = TestClient(app, base_url="http://testserver")
    teacher.get(f"/teacher?key={classroom.key}", follow_redirects=False)
    watch = teacher.get(f"/teacher/t/{table.code}").text
    assert f'href="/teacher/t/{table.code}/review/1"' in watch
    replay = teacher.get(f"/teacher/t/{table.code}/hand/1?step=3").text
    assert f'href="/teacher/t/{table.code}/review/1#g1-h1-s2"' in replay
    every = teacher.get(f"/teacher/t/{table.code}/review/1")
    assert every.status_code == 200
    seated = {n for n in NAMES if table.role_of(NAMES.index(n)) is not None}
    # The two seats that hold cards (the sitter has no decision of its own).
    assert table.match is not None
    holders = {table.match.history[0].roles[r] for r in (Role.BOX, Role.CAPTAIN)}
    assert set(re.findall(ROW, every.text)) == holders and len(seated) == 3
    # The cache is bounded: the oldest review goes first.
    monkeypatch.setattr(reviews, "KEEP", 2)
    learner.get(f"/t/{table.code}/review/1?lang=fr")
    assert len(classroom.reviews.pages) == 2
    assert (table.code, 1, "Zoe", "en") not in classroom.reviews.pages
