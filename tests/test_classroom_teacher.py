"""The teacher's hold on a classroom table (box_gin/classroom/tables.py, seats.py): the
wait between hands (ready or a deadline, on an injected clock: no test sleeps), moving a
learner, seating a bot, closing a table.  Each control is shown done, refused with a
SeatError that changes nothing, written to the store, and found again by a server that
reopens the store."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from box_gin.bots import greedy_bot
from box_gin.classroom.seats import MOVED
from box_gin.classroom.server import Classroom
from box_gin.classroom.store import Store
from box_gin.classroom.tables import LONGEST_WAIT, Room, SeatError, Table
from box_gin.hand import SeatView

with warnings.catch_warnings():  # Starlette's TestClient on httpx prefers httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def learners_play_to_the_hand_end(table: Table, tokens: dict[str, str]) -> None:
    """The learners (``tokens`` by name) play greedy moves until the hand ends (a hand
    where the only learner is the sitter is played by the bots at once)."""
    match = table.match
    assert match is not None
    hands = len(match.history)
    while len(match.history) == hands and table.pause is None:
        name = match.to_play
        assert name is not None and name in tokens, name
        view = match.view(name)
        assert isinstance(view, SeatView)
        table.act(tokens[name], str(greedy_bot(view)), table.seq)


def state(table: Table) -> tuple[object, ...]:
    """What a refused control must leave as it was."""
    return (list(table.names), dict(table.tokens), set(table.bot_places), table.seq,
            table.closed, table.delay, None if table.pause is None else
            (table.pause.hand, set(table.pause.ready)),
            None if table.match is None else table.match.to_json())


def reopened(path: Path, now: Clock) -> Room:
    return Room(Store(path), now)


# -- the wait between hands --------------------------------------------------------------------

def test_the_next_hand_waits_for_every_learner_and_survives_a_restart(tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    table = room.create("standard", 100, seed=11, bots=1)
    tokens = {"Zoe": table.sit(0, "Zoe"), "Yan": table.sit(1, "Yan")}
    learners_play_to_the_hand_end(table, tokens)
    assert table.pause is not None and table.pause.hand == 1
    assert table.waiting_for() == [0, 1]
    # Nobody plays while the table waits, the bots included.
    seq = table.seq
    with pytest.raises(SeatError, match="hand 2 starts when every player is ready"):
        for token in tokens.values():
            table.act(token, "pass", seq)
    assert table.seq == seq
    table.ready(tokens["Zoe"])
    table.ready(tokens["Zoe"])  # twice is once
    assert table.pause is not None and table.waiting_for() == [1]
    again = reopened(tmp_path / "class.db", now).get(table.code)
    assert again.pause is not None and again.pause.ready == {0} and again.seq == seq
    again.ready(tokens["Yan"])
    assert again.pause is None
    # The hand is played on (the bot too, if it is to act first).
    assert again.match is not None and len(again.match.history) == 1
    third = reopened(tmp_path / "class.db", now).get(table.code)
    assert third.pause is None and third.seq == again.seq
    assert third.match is not None and third.match.to_json() == again.match.to_json()
    with pytest.raises(SeatError, match="no next hand to wait for"):
        third.ready(tokens["Zoe"])


def test_the_wait_ends_at_its_deadline_on_the_rooms_clock(tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    table = room.create("standard", 100, seed=12, bots=2)
    table.set_delay(30)
    tokens = {"Zoe": table.sit(0, "Zoe")}
    learners_play_to_the_hand_end(table, tokens)
    assert table.pause is not None
    now.t += 29
    assert not table.tick() and table.pause is not None
    # A server restarted after the deadline finds the wait over.
    now.t += 1
    again = reopened(tmp_path / "class.db", now).get(table.code)
    # The wait after hand 1 is over (when Zoe sits out hand 2 as the sitter, the bots
    # play it through, and the table waits after hand 2).
    assert again.delay == 30 and (again.pause is None or again.pause.hand == 2)
    assert again.pause is not None or (
        again.match is not None and again.match.to_play == "Zoe")


def test_waiting_for_everyone_has_a_deadline_too(tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    table = room.create("standard", 100, seed=13, bots=2)
    tokens = {"Zoe": table.sit(0, "Zoe")}
    learners_play_to_the_hand_end(table, tokens)
    assert table.wait == 0
    now.t += LONGEST_WAIT - 1
    assert not table.tick()
    now.t += 1
    assert table.tick() and (table.pause is None or table.pause.hand == 2)


def test_the_wait_is_set_for_the_room_or_a_table_and_refused_out_of_range(
        tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    table = room.create("standard", 100, seed=14)
    before = state(table)
    for bad in (-1, LONGEST_WAIT + 1):
        with pytest.raises(SeatError, match=f"not {bad}"):
            table.set_delay(bad)
        with pytest.raises(SeatError, match=f"not {bad}"):
            room.set_delay(bad)
    assert state(table) == before and room.clock.delay == 0
    room.set_delay(60)
    assert table.wait == 60
    table.set_delay(15)
    again = reopened(tmp_path / "class.db", now)
    assert again.clock.delay == 60 and again.get(table.code).wait == 15
    again.get(table.code).set_delay(None)
    assert reopened(tmp_path / "class.db", now).get(table.code).wait == 60


# -- moving a learner ------------------------------------------------------------------------

def test_a_learner_moves_to_a_free_place_with_their_token(tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    one, two = room.create(seed=15), room.create(seed=16, bots=2)
    zoe = one.sit(0, "Zoe")
    room.move(one, 0, one, 2)                     # the same table, before the deal
    assert one.names == [None, None, "Zoe"] and one.tokens == {zoe: 2}
    room.move(one, 2, two, 0)                     # another table: its match is dealt
    assert one.names == [None, None, None] and not one.tokens
    assert two.names[0] == "Zoe" and two.tokens == {zoe: 0} and two.match is not None
    assert room.find(zoe) == (two, 0)
    again = reopened(tmp_path / "class.db", now)
    assert again.get(two.code).tokens == {zoe: 0}
    assert again.get(one.code).names == [None, None, None]


def test_a_learner_moved_from_a_match_leaves_a_bot_in_their_place(tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    one, two = room.create(seed=17, bots=1), room.create(seed=18)
    zoe, yan = one.sit(0, "Zoe"), one.sit(1, "Yan")
    room.move(one, 1, two, 2)
    assert one.names[1] == "Yan" and 1 in one.bot_places and yan not in one.tokens
    assert two.names[2] == "Yan" and two.tokens == {yan: 2}
    # Only Zoe is a learner at table one now: her moves, then the bots', play on.
    assert one.pause is not None or (one.match is not None and one.match.to_play == "Zoe")
    again = reopened(tmp_path / "class.db", now).get(one.code)
    assert 1 in again.bot_places and again.tokens == {zoe: 0}
    assert again.match is not None and one.match is not None
    assert again.match.to_json() == one.match.to_json()


def test_a_move_that_cannot_be_done_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    one, two = room.create(seed=19, bots=1), room.create(seed=20)
    one.sit(0, "Zoe")
    two.sit(0, "zoe")
    bot = next(iter(one.bot_places))
    cases = [
        ((one, bot, two, 1), "has no learner to move"),      # a bot's place
        ((one, 1, two, 1), "has no learner to move"),        # a free place
        ((one, 0, two, 0), "is not free"),                   # a taken place
        ((one, 0, two, 3), "place 4 at table"),              # no such place
        ((one, 0, two, 1), "'Zoe' is already at table"),     # a name taken there
    ]
    before = (state(one), state(two))
    for args, rule in cases:
        with pytest.raises(SeatError, match=rule):
            room.move(*args)
    assert (state(one), state(two)) == before
    two.close()
    with pytest.raises(SeatError, match=f"the teacher closed table {two.code}"):
        room.move(one, 0, two, 2)
    again = reopened(tmp_path / "class.db", now)
    assert state(again.get(one.code)) == before[0]


# -- bots ------------------------------------------------------------------------------------

def test_bots_fill_free_places_and_replace_learners_and_bots(tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    table = room.create(seed=21)
    zoe, yan = table.sit(0, "Zoe"), table.sit(1, "Yan")
    assert table.put_bot(1, "greedy") == [yan]       # before the deal: a bot's name
    assert table.names[1] == "Ada" and yan not in table.tokens
    assert table.put_bot(2, "random") == []          # a free place: the match is dealt
    assert table.match is not None and table.names == ["Zoe", "Ada", "Ben"]
    assert table.put_bot(2, "greedy") == []          # another kind of bot
    assert table.bot_kinds[2] == "greedy"
    assert table.put_bot(0, "expert") == [zoe]       # a learner's, in the match: same name
    assert table.names[0] == "Zoe" and not table.tokens
    # Bots only now: they play the match through (every wait ends: no learner to wait for).
    assert table.match.is_over
    again = reopened(tmp_path / "class.db", now).get(table.code)
    assert again.names == table.names and again.bot_places == {0, 1, 2}
    assert again.bot_kinds == {0: "expert", 1: "greedy", 2: "greedy"}
    assert again.match is not None and again.match.to_json() == table.match.to_json()


def test_a_bot_that_cannot_be_seated_is_refused_and_changes_nothing() -> None:
    table = Room(Store(":memory:")).create(seed=22, bots=1)
    table.sit(0, "Zoe")
    bot = next(iter(table.bot_places))
    before = state(table)
    for (place, kind), rule in (((3, "greedy"), "not 4"), ((-1, "greedy"), "not 0"),
                                ((1, "nobody"), "unknown bot 'nobody'"),
                                ((bot, "greedy"), f"place {bot + 1} already has that bot")):
        with pytest.raises(SeatError, match=rule):
            table.put_bot(place, kind)
    assert state(table) == before


# -- closing ---------------------------------------------------------------------------------

def test_a_closed_table_takes_no_one_and_keeps_its_record(tmp_path: Path) -> None:
    now = Clock()
    room = Room(Store(tmp_path / "class.db"), now)
    table = room.create(seed=23, bots=1)
    zoe = table.sit(0, "Zoe")
    table.sit(1, "Yan")
    record = table.record_json()
    table.close()
    before = state(table)
    for refused in (lambda: table.close(), lambda: table.sit(2, "Xia"),
                    lambda: table.act(zoe, "pass", table.seq),
                    lambda: table.put_bot(0, "greedy")):
        with pytest.raises(SeatError, match=f"the teacher closed table {table.code}"):
            refused()
    assert state(table) == before
    again = reopened(tmp_path / "class.db", now).get(table.code)
    assert again.closed == table.closed and again.record_json() == record


# -- the teacher's forms over HTTP -----------------------------------------------------------

@pytest.fixture
def classroom(tmp_path: Path) -> Classroom:
    return Classroom(tmp_path / "class.db", teacher_key="k" * 24, now=Clock())


def teacher_client(classroom: Classroom) -> TestClient:
    client = TestClient(classroom.app(), base_url="http://testserver")
    client.get(f"/teacher?key={classroom.key}", follow_redirects=False)
    return client


def test_a_freed_places_page_shows_the_same_link_on_each_reload(classroom: Classroom) -> None:
    table = classroom.room.create(seed=24)
    table.sit(0, "Zoe")
    client = teacher_client(classroom)
    response = client.post(f"/teacher/t/{table.code}/free/0", follow_redirects=False)
    assert response.status_code == 303
    there = response.headers["location"]
    tokens = dict(table.tokens)
    pages = [client.get(there).text for _i in range(3)]
    links = [re.findall(r'href="(http[^"]+/retake/[^"]+)"', p) for p in pages]
    assert links[0] and links[0] == links[1] == links[2]
    assert table.tokens == tokens and links[0][0].endswith(next(iter(tokens)))
    # Opened once, the link is spent: the page says so, and shows no link.
    learner = TestClient(classroom.app(), base_url="http://testserver")
    assert learner.get(links[0][0], follow_redirects=False).status_code == 303
    page = client.get(there).text
    assert "was opened" in page and "/retake/" not in page


def test_the_teachers_forms_are_the_teachers_alone(classroom: Classroom) -> None:
    table = classroom.room.create(seed=25)
    table.sit(0, "Zoe")
    before = state(table)
    stranger = TestClient(classroom.app(), base_url="http://testserver")
    client = teacher_client(classroom)
    for path, data in (("free/0", {}), ("move/0", {"to": f"{table.code}:1"}),
                       ("bot/1", {"kind": "greedy"}), ("close", {}), ("wait", {"delay": "5"})):
        url = f"/teacher/t/{table.code}/{path}"
        assert stranger.post(url, data=data).status_code == 403
        # The teacher's cookie, but posted from another site's page.
        response = client.post(url, data=data, headers={"Origin": "http://evil.example"})
        assert response.status_code == 403
    assert state(table) == before


def test_the_teachers_forms_move_seat_close_and_refuse(classroom: Classroom) -> None:
    table, other = classroom.room.create(seed=26), classroom.room.create(seed=27)
    table.sit(0, "Zoe")
    client = teacher_client(classroom)
    page = client.get(f"/teacher/t/{table.code}").text
    assert f'value="{other.code}:2"' in page and "Close the table" in page
    base = f"/teacher/t/{table.code}"
    before = state(table)
    for path, data, rule in (("move/0", {"to": "NOPE:1"}, "no table has the code"),
                             ("move/0", {"to": f"{table.code}:x"}, "choose a free place"),
                             ("bot/0", {"kind": "nobody"}, "unknown bot"),
                             ("wait", {"delay": "soon"}, "not soon")):
        response = client.post(f"{base}/{path}", data=data)
        assert response.status_code == 400 and rule in response.text, (path, rule)
    assert state(table) == before
    assert client.post(f"{base}/move/0", data={"to": f"{other.code}:2"},
                       follow_redirects=False).status_code == 303
    assert other.names[2] == "Zoe" and table.names[0] is None
    assert client.post(f"{base}/bot/1", data={"kind": "random"},
                       follow_redirects=False).status_code == 303
    assert table.names[1] == "Ada" and table.bot_kinds[1] == "random"
    assert client.post(f"{base}/wait", data={"delay": "30"},
                       follow_redirects=False).status_code == 303
    assert table.delay == 30
    assert client.post("/teacher/wait", data={"delay": "60"},
                       follow_redirects=False).status_code == 303
    assert classroom.room.clock.delay == 60
    assert client.post(f"{base}/close", follow_redirects=False).status_code == 303
    assert table.closed is not None
    # Closed: no one joins; the teacher still reads it and its controls are gone.
    join = TestClient(classroom.app(), base_url="http://testserver").get(f"/join/{table.code}")
    assert "This table is closed." in join.text and 'name="name"' not in join.text
    assert "Close the table" not in client.get(base).text


def test_a_moved_learners_page_follows_them(classroom: Classroom) -> None:
    table, other = classroom.room.create(seed=28), classroom.room.create(seed=29)
    learner = TestClient(classroom.app(), base_url="http://testserver")
    assert learner.post(f"/join/{table.code}", data={"name": "Zoe", "place": "0"},
                        follow_redirects=False).status_code == 303
    # Yan, already at the other table, watches it.
    yan = TestClient(classroom.app(), base_url="http://testserver")
    yan.post(f"/join/{other.code}", data={"name": "Yan", "place": "0"})
    with learner.websocket_connect(f"/ws/{table.code}") as ws, \
            yan.websocket_connect(f"/ws/{other.code}") as watcher:
        ws.receive_json()
        assert "Zoe" not in watcher.receive_json()["parts"]["bg-live"]
        client = teacher_client(classroom)
        client.post(f"/teacher/t/{table.code}/move/0", data={"to": f"{other.code}:1"})
        message = ws.receive()
        assert message["type"] == "websocket.close" and message["code"] == MOVED
        # Yan's page is told at once (before the answer to anything Yan sends next).
        watcher.send_text("not a message")
        assert "Zoe" in watcher.receive_json()["parts"]["bg-live"]
        assert watcher.receive_json()["type"] == "error"
    response = learner.get(f"/t/{table.code}")
    assert str(response.url).endswith(f"/t/{other.code}")
    assert "Zoe" in response.text and f"table {other.code}" in response.text


def test_the_servers_timer_ends_a_wait_at_its_deadline(tmp_path: Path) -> None:
    """The timer the server sets for a wait (``Classroom.arm``): its deadline already past
    on the room's clock, it fires on the loop's next turns, no sleep measured."""
    import asyncio

    now = Clock()
    classroom = Classroom(tmp_path / "class.db", teacher_key="k" * 24, now=now)
    table = classroom.room.create(seed=30, bots=2)
    learners_play_to_the_hand_end(table, {"Zoe": table.sit(0, "Zoe")})
    pause = table.pause
    assert pause is not None

    async def run() -> None:
        classroom.arm(table)
        assert table.code in classroom.timers and table.pause is pause
        classroom.arm(table)  # armed again: still one timer
        now.t += LONGEST_WAIT
        classroom.arm(table)
        for _turn in range(20):
            if table.pause is not pause:
                break
            await asyncio.sleep(0)

    asyncio.run(run())
    assert table.pause is not pause
    assert table.pause is None or table.pause.hand > pause.hand
