"""A simulated class for ``box-gin serve``: tables of three websocket clients that play
hands through the server, as browsers do, and time each action.

    .venv/bin/python benchmarks/classroom_load.py http://127.0.0.1:8000/ KEY --tables 10 --hands 200

The teacher's key (printed by ``box-gin serve``) creates the tables; three clients per
table join over HTTP and play over their sockets, choosing as the greedy bot would from
their own copy of the match (the same players and seed), so hands end as real ones do.
For every action the clients measure the time from sending it to the moment *every*
seat of the table has the frame it caused.  Every tenth action is also sent a second
time under the same move number, which the server must refuse.  At the end each table's
match record is downloaded and replayed, and checked against the clients' own copy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from box_gin.bots import greedy_bot
from box_gin.hand import SeatView
from box_gin.match import Match
from box_gin.rules import PRESETS

NAMES = ("Ana", "Bo", "Cem")


@dataclass
class LoadReport:
    """What a simulated class measured and checked."""

    tables: int
    hands: int
    actions: int
    latencies: list[float] = field(default_factory=list)
    duplicates_sent: int = 0
    duplicates_refused: int = 0
    records_replayed: int = 0
    mismatches: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def quantile(self, q: float) -> float:
        """The ``q`` quantile of the latencies, in milliseconds."""
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def summary(self) -> str:
        """The figures in one line."""
        return (f"{self.tables} tables, {self.hands} hands, {self.actions} actions in "
                f"{self.seconds:.1f} s; action to every seat's update: "
                f"median {self.quantile(0.5):.1f} ms, p95 {self.quantile(0.95):.1f} ms, "
                f"p99 {self.quantile(0.99):.1f} ms, max {1000 * max(self.latencies):.1f} ms; "
                f"duplicates refused {self.duplicates_refused}/{self.duplicates_sent}; "
                f"records replayed {self.records_replayed}/{self.tables}")


class _Seat:
    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.errors: asyncio.Queue[str] = asyncio.Queue()

    async def read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] == "frame":
                await self.frames.put((time.perf_counter(), message))
            else:
                await self.errors.put(message["message"])


async def _post(host: str, port: int, path: str, body: str,
                cookie: str = "") -> tuple[int, dict[str, str]]:
    """A form POST over a bare socket (the standard library's HTTP client would block)."""
    reader, writer = await asyncio.open_connection(host, port)
    data = body.encode()
    writer.write((f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
                  "Content-Type: application/x-www-form-urlencoded\r\n"
                  f"Content-Length: {len(data)}\r\n"
                  + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n").encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    cookies = {}
    for line in head[1:]:
        name, _sep, value = line.partition(":")
        if name.lower() == "set-cookie":
            key, _eq, rest = value.strip().partition("=")
            cookies[key] = rest.split(";")[0]
    return status, cookies


async def _get(host: str, port: int, path: str, cookie: str) -> str:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
                  f"Cookie: {cookie}\r\n\r\n").encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    return raw.split(b"\r\n\r\n", 1)[1].decode()


async def _table(host: str, port: int, code: str, seed: int, hands: int, teacher: str,
                 report: LoadReport, think: float) -> None:
    from websockets.asyncio.client import connect

    seats: list[_Seat] = []
    tokens = []
    for place, name in enumerate(NAMES):
        status, cookies = await _post(host, port, f"/join/{code}",
                                      f"name={name}&place={place}")
        assert status == 303, status
        tokens.append(cookies[f"bg_seat_{code}"])
    readers = []
    for token in tokens:
        ws = await connect(f"ws://{host}:{port}/ws/{code}", max_size=2 ** 22,
                           additional_headers={"Cookie": f"bg_seat_{code}={token}"})
        seat = _Seat(ws)
        seats.append(seat)
        readers.append(asyncio.create_task(seat.read()))
    for seat in seats:
        await seat.frames.get()
    match = Match.new(NAMES, PRESETS["standard"].replace(target=10_000), seed)
    rng = random.Random(seed)
    seq = 0
    while len(match.history) < hands:
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        to_play = match.to_play
        assert to_play is not None
        name = to_play
        view = match.view(name)
        assert isinstance(view, SeatView)
        action = str(greedy_bot(view))
        actor = seats[NAMES.index(name)]
        message = json.dumps({"type": "act", "action": action, "seq": seq})
        sent = time.perf_counter()
        await actor.ws.send(message)
        duplicate = seq % 10 == 9
        if duplicate:
            await actor.ws.send(message)
            report.duplicates_sent += 1
        hands_before = len(match.history)
        match.apply(action, player=name)
        arrived = []
        for seat in seats:
            when, frame = await seat.frames.get()
            if frame["seq"] != seq + 1:
                report.mismatches.append(f"{code}: frame {frame['seq']} for move {seq + 1}")
            arrived.append(when)
        report.latencies.append(max(arrived) - sent)
        if duplicate:
            await actor.errors.get()
            report.duplicates_refused += 1
        seq += 1
        report.actions += 1
        if len(match.history) > hands_before and not match.is_over:
            # The table waits until each learner presses Next hand: each press reaches
            # every seat as a frame (the move number unchanged).
            for seat in seats:
                await seat.ws.send(json.dumps({"type": "ready", "action": "ready",
                                               "seq": seq}))
                for other in seats:
                    await other.frames.get()
    report.hands += len(match.history)
    for seat in seats:
        await seat.ws.close()
    for task in readers:
        task.cancel()
    text = await _get(host, port, f"/teacher/t/{code}/record.json", teacher)
    replayed = Match.from_json(text)
    if replayed.to_dict() != match.to_dict():
        report.mismatches.append(f"{code}: the record differs from the play")
    else:
        report.records_replayed += 1


async def simulate(base: str, key: str, tables: int = 10, hands: int = 200,
                   seed: int = 1000, think: float = 0.0) -> LoadReport:
    """Create ``tables`` tables on the server at ``base`` and play ``hands`` hands in all
    on them at once; returns the report.  ``think``: the mean time (seconds, uniform
    from 0 to twice it) each player takes before acting; 0 plays as fast as the server
    answers (every table always has an action in flight: a saturating load)."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    teacher = f"bg_teacher={key}"
    status, _c = await _post(host, port, "/teacher/tables",
                             f"preset=standard&target=10000&bots=0&bot_kind=greedy&"
                             f"seed={seed}&count={tables}", teacher)
    assert status == 303, status
    overview = await _get(host, port, "/teacher", teacher)
    codes = re.findall(r'data-code="(\w+)"', overview)[-tables:]
    report = LoadReport(tables=tables, hands=0, actions=0)
    per = [hands // tables + (1 if i < hands % tables else 0) for i in range(tables)]
    started = time.perf_counter()
    # The teacher watches the overview the whole time, as in class.
    from websockets.asyncio.client import connect

    async with connect(f"ws://{host}:{port}/ws/teacher", max_size=2 ** 24,
                       additional_headers={"Cookie": teacher}) as watcher:
        async def watch() -> None:
            async for _frame in watcher:
                pass

        watching = asyncio.create_task(watch())
        # The tables were created in order, so table i has the seed seed + i.
        await asyncio.gather(*(
            _table(host, port, code, seed + i, per[i], teacher, report, think)
            for i, code in enumerate(codes)))
        watching.cancel()
    report.seconds = time.perf_counter() - started
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/classroom_load.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the server's address, e.g. http://127.0.0.1:8000/")
    parser.add_argument("key", help="the teacher's key that box-gin serve printed")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--think", type=float, default=0.0,
                        help="each player's mean thinking time in seconds (default 0)")
    args = parser.parse_args(argv)
    report = asyncio.run(simulate(args.base, args.key, args.tables, args.hands, args.seed,
                                  args.think))
    print(report.summary())
    return 1 if report.mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
