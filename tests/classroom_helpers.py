"""Helpers for the classroom tests: a real ``box-gin serve`` process, learners that join
over HTTP and play over websockets, and a shadow match that knows what each seat may
see at every move (the tests' own copy of the engine's state, never the server's).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from box_gin import Match
from box_gin.bots import greedy_bot
from box_gin.cards import Card
from box_gin.hand import Hand, Role, SeatView
from box_gin.rules import PRESETS

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServeProcess:
    """``box-gin serve`` in its own process group, on a free port, with a database."""

    def __init__(self, db: Path, port: int | None = None, timeout: float = 60) -> None:
        self.db, self.port = db, port or free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.log = db.with_suffix(f".{time.monotonic_ns()}.log")
        env = dict(os.environ, PYTHONPATH=str(ROOT), BOX_GIN_LANG="en")
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "box_gin.cli", "serve", "--port", str(self.port),
                 "--db", str(db)], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("box-gin serve exited:\n" + self.log.read_text())
            try:
                if httpx.get(self.base, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise TimeoutError("box-gin serve did not answer:\n" + self.log.read_text())
            time.sleep(0.2)
        found = re.search(r"teacher\?key=(\S+)", self.log.read_text())
        assert found, self.log.read_text()
        self.key = found.group(1)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the server's process group (SIGKILL: no chance to clean up)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)
            self.proc.wait(20)

    def teacher(self, lang: str | None = None) -> httpx.Client:
        """An HTTP client logged in as the teacher (the key in the URL, then a cookie)."""
        client = httpx.Client(base_url=self.base, timeout=30)
        url = f"/teacher?key={self.key}" + (f"&lang={lang}" if lang else "")
        response = client.get(url, follow_redirects=True)
        assert response.status_code == 200, response.text
        return client


def create_table(teacher: httpx.Client, seed: int, preset: str = "standard",
                 target: int = 100, bots: int = 0) -> str:
    """Create one table from the teacher's form; returns its join code."""
    before = set(re.findall(r'data-code="(\w+)"', teacher.get("/teacher").text))
    response = teacher.post("/teacher/tables", data={
        "preset": preset, "target": str(target), "bots": str(bots), "bot_kind": "greedy",
        "seed": str(seed), "count": "1"})
    assert response.status_code == 303, response.text
    after = set(re.findall(r'data-code="(\w+)"', teacher.get("/teacher").text))
    (code,) = after - before
    return code


ACTION_RE = re.compile(r'data-kind="(act|advise)" data-action="([^"]+)"')
CARD_RE = re.compile(r'data-card="(\w\w)"')
READY_RE = re.compile(r'data-kind="(ready)" data-action="(ready)"')


@dataclass
class Learner:
    """One learner: a seat at a table (its token a cookie), its socket, every frame."""

    base: str
    code: str
    name: str
    place: int
    token: str = ""
    ws: ClientConnection | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    #: The last hand's part of the page as last sent (frames leave it out unchanged).
    past: str = ""
    _stack: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def join(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as client:
            response = client.post(f"/join/{self.code}",
                                   data={"name": self.name, "place": str(self.place)})
            assert response.status_code == 303, response.text
            self.token = response.cookies[f"bg_seat_{self.code}"]
            assert "httponly" in response.headers["set-cookie"].lower()

    @property
    def cookie(self) -> str:
        return f"bg_seat_{self.code}={self.token}"

    def page(self, lang: str | None = None) -> str:
        headers = {"Cookie": self.cookie}
        if lang:
            headers["Accept-Language"] = lang
        response = httpx.get(f"{self.base}t/{self.code}", headers=headers, timeout=30)
        assert response.status_code == 200, response.text
        self.pages.append(response.text)
        return response.text

    def connect(self, lang: str = "en") -> dict[str, Any]:
        self.close()
        self.ws = self._stack.enter_context(connect(
            f"ws://{self.base[7:]}ws/{self.code}", open_timeout=30,
            additional_headers={"Cookie": self.cookie, "Accept-Language": lang}))
        return self.recv()

    def recv(self, timeout: float = 60) -> dict[str, Any]:
        """The next message: a frame (kept in ``frames``) or an error (in ``errors``)."""
        assert self.ws is not None
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "frame":
            self.frames.append(message)
            if "bg-past" in message["parts"]:
                self.past = message["parts"]["bg-past"]
        else:
            self.errors.append(message["message"])
        return message

    def send(self, kind: str, action: str, seq: int) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps({"type": kind, "action": action, "seq": seq}))

    @property
    def last(self) -> dict[str, Any]:
        return self.frames[-1]

    def buttons(self) -> list[tuple[str, str]]:
        return ACTION_RE.findall(self.last["parts"]["bg-live"])

    def close(self) -> None:
        self._stack.close()
        self.ws = None


def seat_three(server: ServeProcess, code: str, names: tuple[str, str, str] = (
        "Zoe", "Yan", "Xia")) -> list[Learner]:
    learners = [Learner(server.base, code, name, place) for place, name in enumerate(names)]
    for learner in learners:
        learner.join()
    return learners


def shadow(names: tuple[str, str, str], seed: int, preset: str = "standard",
           target: int = 100) -> Match:
    """The tests' own copy of a table's match (same players in place order, same seed)."""
    return Match.new(names, PRESETS[preset].replace(target=target), seed)


def hidden_from(match: Match, hand: Hand, name: str) -> set[Card]:
    """The cards of ``hand`` that the player ``name`` may not see now: the stock, and the
    other seat's cards it has not seen taken (the sitter sees as the captain does)."""
    role = match.role_of(name)
    seat = Role.CAPTAIN if role is Role.SITTER else role
    view = hand.view(seat)
    other = set(hand.cards(seat.opponent)) - set(view.opponent_known)
    return set(hand.stock) | other


def hidden_after(hand: Hand, seat: Role) -> set[Card]:
    """The cards of a finished hand never shown to ``seat``: the stock, and for a drawn
    hand the other seat's cards (a knock lays both hands out)."""
    hidden = set(hand.stock)
    if hand.result is not None and hand.result.knocker is None:
        hidden |= set(hand.cards(seat.opponent))
    return hidden


def leaks(html: str, cards: set[Card]) -> set[str]:
    """The cards of ``cards`` that ``html`` shows (face, label or spoken name)."""
    shown = set(CARD_RE.findall(html))
    found = {repr(c) for c in cards if repr(c) in shown}
    found |= {repr(c) for c in cards if f'aria-label="{c.spoken}"' in html}
    return found


def greedy_action(match: Match) -> tuple[str, str]:
    """The player to act and the greedy bot's action for it, from the shadow match."""
    name = match.to_play
    assert name is not None
    view = match.view(name)
    assert isinstance(view, SeatView)
    return name, str(greedy_bot(view))


def play_step(match: Match, learners: list[Learner], seq: int) -> tuple[str, str]:
    """The player to act plays the greedy action; every learner gets the next frame."""
    name, action = greedy_action(match)
    actor = next(lr for lr in learners if lr.name == name)
    assert ("act", action) in actor.buttons(), (action, actor.buttons())
    actor.send("act", action, seq)
    match.apply(action, player=name)
    for learner in learners:
        frame = learner.recv()
        assert frame["type"] == "frame" and frame["seq"] == seq + 1, frame
    return name, action


def ready_all(learners: list[Learner]) -> None:
    """A hand has ended: each learner presses Next hand (each press reaches every
    learner as a frame); the last press starts the next hand."""
    for i, learner in enumerate(learners):
        assert ("ready", "ready") in READY_RE.findall(learner.last["parts"]["bg-live"]), \
            learner.last
        learner.send("ready", "ready", learner.last["seq"])
        for other in learners:
            frame = other.recv()
            assert frame["type"] == "frame", frame
            started = "bg-my-hand" in frame["parts"]["bg-live"]
            assert started == (i == len(learners) - 1), (i, frame)


def open_all(learners: list[Learner]) -> Iterator[None]:
    for learner in learners:
        learner.connect()
    yield
    for learner in learners:
        learner.close()
