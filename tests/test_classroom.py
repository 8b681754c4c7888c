"""The classroom server (``box-gin serve``): what each seat's socket gets, who may act,
the teacher's key, the store, the languages.

Most tests run against a real server process (``classroom_helpers.ServeProcess``) and
talk to it as browsers do: HTTP with cookies, then a websocket per seat.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from classroom_helpers import (
    Learner,
    ServeProcess,
    create_table,
    greedy_action,
    hidden_after,
    hidden_from,
    leaks,
    play_step,
    ready_all,
    seat_three,
    shadow,
)
from websockets.exceptions import InvalidStatus

from box_gin import Match
from box_gin.classroom.pages import language, pick_language, seat_parts
from box_gin.classroom.store import DuplicateActionError, Store
from box_gin.classroom.tables import Room, SeatError, load_table
from box_gin.hand import Role

NAMES = ("Zoe", "Yan", "Xia")
PACKAGE = Path(__file__).resolve().parent.parent / "box_gin" / "classroom"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    proc = ServeProcess(tmp_path_factory.mktemp("classroom") / "class.db")
    yield proc
    proc.kill()


@pytest.fixture(scope="module")
def teacher(server: ServeProcess) -> Iterator[httpx.Client]:
    client = server.teacher()
    yield client
    client.close()


# -- nothing a seat may not see reaches it ---------------------------------------------------

def test_no_frame_shows_a_card_its_seat_may_not_see(server: ServeProcess,
                                                    teacher: httpx.Client) -> None:
    """Two hands played through the sockets: every frame each seat's socket got, and
    each seat's page, shows none of the cards hidden from that seat at that move."""
    code = create_table(teacher, seed=21)
    learners = seat_three(server, code, NAMES)
    match = shadow(NAMES, 21)
    checked = 0

    def check_all(hand_over: object = None) -> None:
        nonlocal checked
        for learner in learners:
            frame = learner.last
            found = leaks(frame["parts"]["bg-live"], hidden_from(match, match.hand,
                                                                   learner.name))
            assert not found, f"{learner.name} was sent {found} at move {frame['seq']}"
            if previous is not None:
                role = previous_roles[learner.name]
                seat = Role.CAPTAIN if role is Role.SITTER else role
                found = leaks(learner.past, hidden_after(previous, seat))
                assert not found, f"{learner.name} was sent {found} of the last hand"
            checked += 1

    previous = None
    previous_roles: dict[str, Role] = {}
    for learner in learners:
        learner.connect()
    check_all()
    seq, advised = 0, 0
    while len(match.history) < 2:
        name, action = greedy_action(match)
        if match.role_of(name) is Role.CAPTAIN:
            sitter = next(lr for lr in learners if lr.name == match.roles[Role.SITTER])
            sitter.send("advise", action, seq)
            for learner in learners:
                learner.recv()
            said = {lr.name: "bg-advice" in lr.last["parts"]["bg-live"] for lr in learners}
            assert said == {lr.name: lr.name in (name, sitter.name) for lr in learners}
            advised += 1
        hand, roles = match.hand, {p: match.role_of(p) for p in NAMES}
        play_step(match, learners, seq)
        seq += 1
        if match.hand is not hand:
            previous, previous_roles = hand, roles
            check_all()
            ready_all(learners)
        check_all()
        for learner in learners:
            page = learner.page()
            assert not leaks(page.split('id="bg-past"')[0],
                             hidden_from(match, match.hand, learner.name))
    assert advised and checked > 3 * 20
    for learner in learners:
        learner.close()


def test_only_the_seat_to_play_acts_and_only_once(server: ServeProcess,
                                                  teacher: httpx.Client) -> None:
    code = create_table(teacher, seed=22)
    learners = seat_three(server, code, NAMES)
    match = shadow(NAMES, 22)
    for learner in learners:
        learner.connect()
    name, action = greedy_action(match)
    actor = next(lr for lr in learners if lr.name == name)
    others = [lr for lr in learners if lr is not actor]
    # Another seat sends the action of the player to act: the engine refuses it.
    others[0].send("act", action, 0)
    assert others[0].recv()["type"] == "error"
    assert re.search(r"player to act is \w+, not", others[0].errors[-1])
    # The right seat, twice with the same move number: applied once, refused once.
    actor.send("act", action, 0)
    actor.send("act", action, 0)
    first, second = actor.recv(), actor.recv()
    assert first["type"] == "frame" and first["seq"] == 1
    assert second["type"] == "error" and "move 0" in second["message"]
    match.apply(action, player=name)
    for learner in others:
        assert learner.recv()["seq"] == 1
    # A message that is not one is refused, the table unchanged.
    assert actor.ws is not None
    actor.ws.send("{not json")
    assert actor.recv()["type"] == "error"
    record = Match.from_json(teacher.get(f"/teacher/t/{code}/record.json").text)
    assert record.to_dict() == match.to_dict()
    assert len(record.hand.history) == 1
    for learner in learners:
        learner.close()


def test_no_seat_without_its_token(server: ServeProcess, teacher: httpx.Client) -> None:
    code = create_table(teacher, seed=23)
    learners = seat_three(server, code, NAMES)
    forged = Learner(server.base, code, "Eve", 0, token="not-a-token")
    with pytest.raises(InvalidStatus):
        forged.connect()
    # No cookie: the table page sends the browser to the join form.
    response = httpx.get(f"{server.base}t/{code}", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == f"/join/{code}"
    # A full table takes no one else, and a taken place is refused.
    extra = httpx.post(f"{server.base}join/{code}", data={"name": "Eve", "place": "1"})
    assert extra.status_code == 400
    # A learner's cookie opens neither the teacher's page nor its socket.
    cookies = {"Cookie": learners[0].cookie}
    assert httpx.get(f"{server.base}teacher", headers=cookies).status_code == 403
    assert httpx.get(f"{server.base}teacher/t/{code}/record.json",
                     headers=cookies).status_code == 403
    assert httpx.get(f"{server.base}teacher?key=wrong").status_code == 403
    spy = Learner(server.base, code, "Eve", 0, token=learners[0].token)
    spy.code = "teacher"
    with pytest.raises(InvalidStatus):
        spy.connect()
    # A page of another site may not open a seat's socket with the seat's cookie.
    from websockets.sync.client import connect
    from websockets.typing import Origin

    with pytest.raises(InvalidStatus), connect(
            f"ws://{server.base[7:]}ws/{code}", origin=Origin("http://evil.example"),
            additional_headers={"Cookie": learners[0].cookie}):
        pass


def test_a_reconnect_gives_the_same_seat_back(server: ServeProcess,
                                              teacher: httpx.Client) -> None:
    code = create_table(teacher, seed=24)
    learners = seat_three(server, code, NAMES)
    match = shadow(NAMES, 24)
    for learner in learners:
        learner.connect()
    for seq in range(3):
        play_step(match, learners, seq)
    before = [lr.last for lr in learners]
    for learner in learners:
        frame = learner.connect()                       # a new socket, the same cookie
        assert frame["seq"] == before[learners.index(learner)]["seq"] == 3
        assert frame["parts"]["bg-live"] == before[learners.index(learner)]["parts"]["bg-live"]
        assert "bg-past" in frame["parts"]
    play_step(match, learners, 3)
    for learner in learners:
        learner.close()


def test_a_killed_server_resumes_every_table(tmp_path: Path) -> None:
    """kill -9 in the middle of a hand; the new server has every seat and every move."""
    first = ServeProcess(tmp_path / "class.db")
    try:
        teacher = first.teacher()
        codes = [create_table(teacher, seed=30 + i) for i in range(2)]
        tables = {code: (seat_three(first, code, NAMES), shadow(NAMES, 30 + i))
                  for i, code in enumerate(codes)}
        for code, (learners, match) in tables.items():
            for learner in learners:
                learner.connect()
            for seq in range(4 + codes.index(code)):
                play_step(match, learners, seq)
        frames = {code: [lr.last for lr in learners]
                  for code, (learners, _m) in tables.items()}
    finally:
        first.kill()
    second = ServeProcess(tmp_path / "class.db", port=first.port)
    try:
        assert second.key == first.key
        for code, (learners, match) in tables.items():
            for learner, before in zip(learners, frames[code], strict=True):
                frame = learner.connect()
                assert frame["seq"] == before["seq"]
                assert frame["parts"]["bg-live"] == before["parts"]["bg-live"]
            seq = learners[0].last["seq"]
            while not match.history:
                play_step(match, learners, seq)
                seq += 1
            text = second.teacher().get(f"/teacher/t/{code}/record.json").text
            assert Match.from_json(text).to_dict() == match.to_dict()
            for learner in learners:
                learner.close()
    finally:
        second.kill()


def test_the_wait_between_hands_survives_a_killed_server(tmp_path: Path) -> None:
    """kill -9 while the table waits after a hand, one learner ready: the new server
    still waits, for the two others only; their presses start the next hand."""
    first = ServeProcess(tmp_path / "class.db")
    try:
        code = create_table(first.teacher(), seed=33)
        learners, match = seat_three(first, code, NAMES), shadow(NAMES, 33)
        for learner in learners:
            learner.connect()
        seq = 0
        while not match.history:
            play_step(match, learners, seq)
            seq += 1
        learners[0].send("ready", "ready", seq)
        for learner in learners:
            learner.recv()
        assert "Yan, Xia." in learners[1].last["parts"]["bg-news"]
    finally:
        first.kill()
    second = ServeProcess(tmp_path / "class.db", port=first.port)
    try:
        frames = [learner.connect() for learner in learners]
        assert all(f["seq"] == seq for f in frames)
        assert 'data-kind="ready"' not in frames[0]["parts"]["bg-live"]
        assert all('data-kind="ready"' in f["parts"]["bg-live"] for f in frames[1:])
        assert "Yan, Xia." in frames[1]["parts"]["bg-news"]
        # Nobody plays while it waits; the two presses start the next hand.
        learners[1].send("act", "pass", seq)
        assert "starts when every player is ready" in learners[1].recv()["message"]
        ready_all(learners[1:])
        for learner in learners[:1]:
            learner.recv()
            learner.recv()
        assert all("bg-my-hand" in lr.last["parts"]["bg-live"] for lr in learners)
        for learner in learners:
            learner.close()
    finally:
        second.kill()


# -- the teacher's pages ---------------------------------------------------------------------

def test_the_teacher_sees_every_table_and_replays_each_hand(server: ServeProcess,
                                                           teacher: httpx.Client) -> None:
    code = create_table(teacher, seed=25, bots=2)
    (learner,) = [Learner(server.base, code, "Zoe", 0)]
    learner.join()
    overview = teacher.get("/teacher").text
    assert f'data-code="{code}"' in overview and "<svg" in overview
    assert "Ada" in overview and "Ben" in overview
    projector = teacher.get(f"/teacher/t/{code}/projector").text
    assert f"/join/{code}" in projector and "<svg" in projector
    match = Match.from_json(teacher.get(f"/teacher/t/{code}/record.json").text)
    assert match.players == ("Zoe", "Ben", "Ada")
    learner.connect()
    while not match.history:
        assert match.to_play == "Zoe"                   # the bots answer at once
        _name, action = greedy_action(match)
        learner.send("act", action, learner.last["seq"])
        assert learner.recv()["type"] == "frame"
        match = Match.from_json(teacher.get(f"/teacher/t/{code}/record.json").text)
    learner.close()
    record = match.history[0]
    replay = teacher.get(f"/teacher/t/{code}/hand/1?step=0").text
    assert replay.count('class="bg-view') == 3
    last = teacher.get(f"/teacher/t/{code}/hand/1?step={len(record.actions)}").text
    assert "bg-result" in last
    assert teacher.get(f"/teacher/t/{code}/hand/9").status_code == 404


def test_pages_speak_their_readers_language(server: ServeProcess) -> None:
    teacher = server.teacher(lang="fr")
    code = create_table(teacher, seed=26, bots=2)
    assert '<html lang="fr" dir="ltr">' in teacher.get("/teacher").text
    learner = Learner(server.base, code, "Zoe", 0)
    learner.join()
    hebrew = learner.page(lang="he-IL,he;q=0.9,en;q=0.5")
    assert '<html lang="he" dir="rtl">' in hebrew
    assert ".bg-cards{display:inline-flex;flex-wrap:wrap;gap:4px;align-items:center;" \
        "direction:ltr}" in hebrew
    frame = learner.connect(lang="uk")
    with language("uk"):
        box, captain = Role.BOX.label, Role.CAPTAIN.label
    assert box != "box" and f"<b>{box}</b>" in frame["parts"]["bg-live"]
    assert f"<b>{captain}</b>" in frame["parts"]["bg-live"]
    learner.close()


def test_language_choice() -> None:
    assert pick_language(None, None, "hu-HU,hu;q=0.9,en;q=0.8") == "hu"
    assert pick_language(None, None, "de-DE,de;q=0.9,id;q=0.5") == "id"
    assert pick_language(None, None, "en;q=0.2,fr;q=0.8") == "fr"
    assert pick_language(None, "he", "fr") == "he"
    assert pick_language("uk", "he", "fr") == "uk"
    assert pick_language("xx", None, None) == "en"


# -- the store and the tables, in process ----------------------------------------------------

def test_the_store_refuses_an_action_twice_and_keeps_the_table(tmp_path: Path) -> None:
    store = Store(tmp_path / "class.db")
    assert store.journal_mode == "wal"
    room = Room(store)
    table = room.create("standard", 100, seed=5)
    tokens = [table.sit(i, n) for i, n in enumerate(NAMES)]
    match = shadow(NAMES, 5)
    for seq in range(6):
        name, action = greedy_action(match)
        table.act(tokens[NAMES.index(name)], action, seq)
        match.apply(action, player=name)
    with pytest.raises(DuplicateActionError):
        store.add_action(table.id, 3, "Zoe", "pass")
    with pytest.raises(SeatError):
        table.act(tokens[0], "pass", 2)
    again = load_table(Store(tmp_path / "class.db"), table.id)
    assert again.seq == 6 and again.match is not None
    assert again.match.to_dict() == match.to_dict() == table.match.to_dict()  # type: ignore[union-attr]
    assert again.tokens == table.tokens and again.names == table.names
    rows = sqlite3.connect(tmp_path / "class.db").execute(
        "SELECT COUNT(*) FROM actions").fetchone()
    assert rows == (6,)


def test_sitting_down_checks_the_name_and_the_place() -> None:
    room = Room(Store(":memory:"))
    table = room.create("standard", 100, seed=1, bots=1)
    table.sit(0, "  Zoe  ")
    assert table.names[0] == "Zoe"
    for place, name in ((1, "zoe"), (1, ""), (1, "x" * 30), (2, "Yan"), (3, "Yan")):
        with pytest.raises(SeatError):
            table.sit(place, name)
    with pytest.raises(SeatError):
        room.create("no-such-rules")
    with pytest.raises(SeatError):
        room.create(bots=3)
    with pytest.raises(SeatError):
        room.get("nope")
    assert room.get(table.code.lower()) is table


def test_the_sitters_page_is_built_from_the_captains_view() -> None:
    room = Room(Store(":memory:"))
    table = room.create("standard", 100, seed=8)
    for i, name in enumerate(NAMES):
        table.sit(i, name)
    match = table.match
    assert match is not None
    box = match.roles[Role.BOX]
    with language("en"):
        parts = {n: seat_parts(table, NAMES.index(n))["bg-live"] for n in NAMES}
    sitter = match.roles[Role.SITTER]
    captain_cards = set(re.findall(r'data-card="(\w\w)"', parts[match.roles[Role.CAPTAIN]]))
    sitter_cards = set(re.findall(r'data-card="(\w\w)"', parts[sitter]))
    assert {repr(c) for c in match.hand.cards(Role.CAPTAIN)} <= sitter_cards
    assert sitter_cards == captain_cards
    assert not {repr(c) for c in match.hand.cards(Role.CAPTAIN)} & set(
        re.findall(r'data-card="(\w\w)"', parts[box])) - {repr(match.hand.upcard)}


def test_only_the_store_touches_the_database() -> None:
    def imported(path: Path) -> set[str]:
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        return names

    for path in PACKAGE.glob("*.py"):
        assert ("sqlite3" in imported(path)) == (path.name == "store.py"), path


def test_ctrl_c_stops_the_server_with_one_line(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT), with a learner's socket open: the server closes, says so in one
    line, and prints no traceback."""
    import signal

    server = ServeProcess(tmp_path / "class.db")
    try:
        learner = Learner(server.base, create_table(server.teacher(), seed=30), "Zoe", 0)
        learner.join()
        learner.connect()
        server.proc.send_signal(signal.SIGINT)
        server.proc.wait(60)
    finally:
        server.kill()
    lines = server.log.read_text().splitlines()
    assert "Traceback" not in "\n".join(lines)
    assert len(lines) == 3 and lines[-1].startswith("The classroom server stopped"), lines


def test_learners_are_told_which_players_are_bots() -> None:
    room = Room(Store(":memory:"))
    table = room.create("standard", 100, seed=31, bots=2)
    table.sit(0, "Zoe")
    with language("en"):
        live = seat_parts(table, 0)["bg-live"]
    for bot in ("Ada", "Ben"):
        assert f"{bot} (bot)" in live, live
    assert "Zoe (bot)" not in live and "Zoe (you)" in live
