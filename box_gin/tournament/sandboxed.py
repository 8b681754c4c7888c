"""Bots in the grader's sandbox: one long-lived child per bot, asked in batches.

The isolation is the checker's (:func:`box_gin.checker.sandbox.open_sandbox`: bubblewrap
with every namespace unshared, a uid of its own as root, the same resource caps), with
the files every bot's child gets, the grader's of the bot kata too
(:func:`box_gin.checker.bots.bot_sandbox`): a read-only copy of the engine and of the
child's script, ``box_gin/checker/botchild.py``, and nothing else of the kit, the driver
or the other bots.

The driver sends a batch of views on the child's stdin and reads the answers back, in
order and several to a line (:func:`box_gin.checker.protocol.answers`), on a pipe of
its own, led by a random nonce; a line is bounded (:data:`MAX_REPLY`), and anything
malformed, late or missing kills the child, which is started again for its
next batch: the decisions it owed are played by default and counted as its crashes or
time-outs.  After :data:`MAX_RESTARTS` restarts a bot is out: every later decision of
it is played by default and counted as a crash.

Time is the kernel's count, never the child's word alone (docs/tournament.md, "Time"):

- *CPU time.*  The child reports each decision's CPU time; the kernel's count for the
  whole batch (the sandbox's ``schedstat``, read from outside) must cover no more than
  the child reported (:data:`LIE_FACTOR`, :data:`LIE_SLACK`), else every decision of the
  batch is a time-out.  A decision over its budget is a time-out, and a child still
  computing :data:`KILL_AFTER` past its own timer's ring (a bot that switched its
  timers off) is stopped at once.
- *Waiting.*  The time the child spends neither on a CPU nor waiting for one (a sleep, a
  blocked read) is counted too: over :data:`IDLE` seconds in one batch, the child is
  stopped and the decisions it owed are time-outs.  A busy machine adds nothing to it.
- Where the kernel does not say (no ``schedstat``, several processes), each answer must
  come within the decision's clock safety (``wall_seconds``) and :data:`GRACE`; where it
  does, the clock only caps what a busy machine may delay an answer (``WALL_CAP`` times
  that safety), as the child's own safety is put off while it is kept from a CPU
  (``katas/timer.py``).

A bot that times out in a game is benched for the rest of it (``core``): a sleeping bot
costs the tournament a few seconds, not minutes.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import select
import shutil
import subprocess
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from typing import Any

from ..checker.bots import BOT_CHILD, bot_sandbox
from ..checker.caps import Limits
from ..checker.protocol import ChildGone, Ready, answers, widen_pipe
from ..checker.sandbox import Sandbox
from ..checker.seatwire import Histories, question, update
from ..katas.specs.nb7_bots import cpu_timer
from ..katas.timer import WALL_CAP, wall_seconds
from ..rules import Rules
from .core import Budget, Reply, Request

#: The most a child may send in one line (bytes).
MAX_REPLY = 1 << 20
#: How many times a bot's child is started again before the bot is out.
MAX_RESTARTS = 3
#: Seconds an answer may come after its decision's budget (the pipe, a busy machine).
GRACE = 1.0
#: CPU seconds a decision may run past its child's own CPU timer before the driver
#: stops it (the timer answers first unless the bot switched it off).
KILL_AFTER = 0.25
#: Seconds a child may wait (asleep, blocked) in one batch: an honest bot never waits.
IDLE = 1.0
#: The kernel's CPU count for a batch may pass the child's own report by this factor and
#: this many seconds (what the child does outside its timed decisions: reading the batch,
#: writing answers) before the report is taken for a lie.
LIE_FACTOR = 1.1
LIE_SLACK = 0.1
#: How often the driver looks at a child's clocks while it waits for an answer (seconds).
POLL = 0.02
#: The answer pipe's size (bytes): a whole batch's answers fit, so an honest child never
#: waits on the driver to read them.
PIPE_BYTES = 1 << 20

__all__ = ["GRACE", "MAX_REPLY", "MAX_RESTARTS", "SandboxedPlayer", "SidedPlayer",
           "bot_sandbox", "close_all", "launch_all"]


class SandboxedPlayer:
    """One bot's child in the sandbox, started on its first batch."""

    def __init__(self, name: str, cells: list[tuple[str, str]], box: Sandbox,
                 rules: Rules, budget: Budget, limits: Limits | None = None) -> None:
        self.name = name
        self.cells = cells
        self.box = box
        self.rules = rules
        self.budget = budget
        self.limits = limits or Limits(cpu_seconds=3600)
        self.restarts = -1  # the first start is no restart
        self.out = False
        self.errors: list[str] = []
        self.has_play = self.has_advise = False
        self._proc: subprocess.Popen[bytes] | None = None
        self._read = -1
        self._write = -1
        self._uid: int | None = None
        self._folder: str | None = None
        self._nonce = b""
        self._buffer = bytearray()
        self._histories = Histories()  # what the running child holds of each hand's
        self._sent: tuple[int, int, float, float] | None = None  # id, count, start, deadline
        self._failed: str | None = None
        self._request = 0
        self._wall = wall_seconds(budget.decision)
        #: The child's clocks when the batch was sent (CPU, waited; None: not known).
        self._base: tuple[float, float | None] | None = None
        self._kill_cpu = cpu_timer(budget.decision) + KILL_AFTER
        #: A launched child's set-up: "sent", or "failed" to be sent; None once it is
        #: ready (or not launched).
        self._launched: str | None = None

    # -- the child ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the child and load the bot's code (a restart counts): :meth:`launch`,
        then :meth:`wait_ready`."""
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the child and send it the bot's code, without waiting for it to be ready
        (:meth:`wait_ready`, which the first batch's :meth:`send` calls): the tournament
        launches every child of a chunk first, so that their starts run side by side
        instead of the driver waiting on each in turn (:func:`launch_all`)."""
        self.close()
        self.restarts += 1
        if self.restarts > MAX_RESTARTS:
            self.out = True
            return
        nonce = secrets.token_hex(16)
        read_end, write_end = os.pipe()
        with suppress(OSError, AttributeError):
            fcntl.fcntl(read_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        limits = self.limits
        # The checker child's own sandbox set-up (capped /tmp, capabilities dropped,
        # limits), with the same limits a kata's child gets.
        rlimits = self.box.child_limits(limits)
        self._uid = self.box.take_uid()
        try:
            self._proc, self._folder = self.box.spawn(
                self._uid, ["-I", "-S", "-B", f"{{box}}/box_gin/{BOT_CHILD}",
                            json.dumps(rlimits)], limits, (write_end,))
        except OSError:
            os.close(read_end)
            os.close(write_end)
            self.close()
            self.out = True
            return
        os.close(write_end)
        self._read, self._nonce, self._buffer = read_end, nonce.encode(), bytearray()
        self._histories = Histories()
        assert self._proc.stdin is not None
        self._write = self._proc.stdin.fileno()
        widen_pipe(self._write)
        package = ("/box/box_gin" if self.box.kind == "bubblewrap"
                   else str(self.box.stage / "box_gin"))
        setup = {"nonce": nonce, "fd": write_end, "package": package, "cells": self.cells,
                 "rules": self.rules.to_dict(),
                 # CPU time, as the bot kata's: a busy machine times out no decision; the
                 # clock only stops what waits instead of computing.
                 "cpu_seconds": cpu_timer(self.budget.decision),
                 "decision_seconds": self._wall,
                 "cell_seconds": min(10.0, limits.load_seconds)}
        self._launched = "sent"
        try:
            self._exchange(json.dumps(setup).encode() + b"\n", wall_seconds(limits.load_seconds))
        except ChildGone:
            self._launched = "failed"

    def wait_ready(self) -> None:
        """Read the launched child's ``ready`` line (within the load's time on the clock,
        from now); a child that fails to start is started again (a restart counts)."""
        launched, self._launched = self._launched, None
        if launched is None or self._proc is None:
            return
        try:
            if launched == "failed":
                raise ChildGone("its set-up was not read")
            ready = self._line(time.monotonic() + wall_seconds(self.limits.load_seconds))
        except ChildGone:
            self.close()
            return self.start()
        if ready.get("t") != "ready":
            self.close()
            return self.start()
        said = Ready.read(ready, 200)
        self.has_play, self.has_advise = said.play, said.advise
        self.errors = list(said.errors)

    def _exchange(self, data: bytes, seconds: float) -> None:
        """Write ``data`` to the child within ``seconds``."""
        deadline = time.monotonic() + seconds
        view = memoryview(data)
        os.set_blocking(self._write, False)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChildGone("timeout")
            _r, writable, _x = select.select([], [self._write], [], left)
            if writable:
                try:
                    sent = os.write(self._write, view[:1 << 16])
                except BlockingIOError:
                    continue
                except OSError as exc:
                    raise ChildGone("the child stopped reading") from exc
                view = view[sent:]

    def _meter(self) -> tuple[float, float | None] | None:
        """The child's CPU seconds and seconds waited so far, as the kernel counts them
        (waited: None where it is not known; the whole: None where nothing is)."""
        if self._proc is None:
            return None
        both = self.box.waited_seconds(self._proc)
        if both is not None:
            return both
        cpu = self.box.cpu_seconds(self._proc)
        return None if cpu is None else (cpu, None)

    def _line(self, deadline: float, watch: Callable[[], None] | None = None
              ) -> dict[str, Any]:
        """The child's next line led by its nonce, by ``deadline``; ``watch`` is called
        every :data:`POLL` seconds while none comes (it raises to stop waiting)."""
        prefix = self._nonce + b" "
        while True:
            end = self._buffer.find(b"\n")
            while end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                if line.startswith(prefix):
                    try:
                        message = json.loads(line[len(prefix):])
                    except (ValueError, RecursionError) as exc:
                        raise ChildGone("a garbled message") from exc
                    if isinstance(message, dict):
                        return message
                    raise ChildGone("a garbled message")
                end = self._buffer.find(b"\n")
            left = deadline - time.monotonic()
            # Past the deadline, what the child sent in time is still read.
            wait = max(left, 0.0) if watch is None else min(max(left, 0.0), POLL)
            ready, _w, _x = select.select([self._read], [], [], wait)
            if not ready and left <= 0:
                raise ChildGone("timeout")
            if not ready and watch is not None:
                watch()
            if ready:
                try:
                    chunk = os.read(self._read, 1 << 16)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    raise ChildGone("the child exited") from exc
                if not chunk:
                    raise ChildGone("the child exited")
                self._buffer += chunk
                if len(self._buffer) > MAX_REPLY:
                    raise ChildGone("the child sent too much")

    def close(self, uids: list[int] | None = None) -> None:
        """Kill the child and everything it started.  Its uid goes back to the sandbox
        once nothing of it runs, or, given ``uids``, onto that list for the caller to give
        back with others (:func:`close_all`: one sweep for them all)."""
        self._launched = None
        if self._proc is not None:
            self.box.release(self._proc)  # killed, its cgroup and clock gone
            with suppress(OSError):
                if self._proc.stdin is not None:
                    self._proc.stdin.close()
            self._proc = None
        if self._read >= 0:
            with suppress(OSError):
                os.close(self._read)
            self._read = -1
        if self._uid is not None:
            if uids is None:
                self.box.give_uid(self._uid)
            else:
                uids.append(self._uid)
            self._uid = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    # -- the Player protocol ------------------------------------------------------------

    def send(self, requests: Sequence[Request]) -> None:
        """Send a batch of decisions (answered by :meth:`receive`)."""
        self._failed = None
        n = len(requests)
        if self._proc is None and not self.out:
            self.start()
        elif self._launched is not None:
            self.wait_ready()
        if self.out:
            self._sent, self._failed = (0, n, time.monotonic(), 0.0), "crash"
            return
        self._request += 1
        histories = self._histories
        parts = []
        for r in requests:
            kind = "a" if r.kind == "advise" else "p"
            hand, seat = r.hand, r.seat
            held = histories.since(hand, seat, len(hand.history))
            if held is None:  # the child holds no view of this seat of the hand: whole
                facts = r.facts
                parts.append(question(kind, facts, histories.text(hand, facts[12], seat),
                                      r.advice))
            else:  # what changed since the child's last view of it
                parts.append(update(kind, r.role, hand, r.legal, held, r.advice))
        questions = ",".join(parts)
        start = time.monotonic()
        deadline = start + n * self._wall + 2.0
        self._sent = (self._request, n, start, deadline)
        self._base = self._meter()
        try:
            self._exchange(f'{{"id":{self._request},"q":[{questions}]}}\n'.encode(),
                           n * self._wall + 2.0)
        except ChildGone as exc:
            self._failed = "timeout" if str(exc) == "timeout" else "crash"

    def receive(self) -> list[Reply]:
        """The replies to the batch sent, one per decision (see the module's docstring
        for the time each may take).  A child that runs past a decision's CPU time, waits
        past :data:`IDLE`, or says it took less CPU than the kernel counted is killed, and
        the decisions it still owes are its time-outs (its crashes if it died)."""
        assert self._sent is not None
        request, n, start, _deadline = self._sent
        self._sent = None
        replies: list[Reply] = []
        fault = self._failed
        base = self._base
        # Timed from now: the driver may have been reading another bot's answers.
        last = max(start, time.monotonic())
        now = base
        last_cpu = None if base is None else base[0]

        def watch() -> None:
            reading = self._meter()
            if reading is None or base is None:
                return
            cpu, waited = reading
            if last_cpu is not None and cpu - last_cpu > self._kill_cpu:
                raise ChildGone("timeout")  # computing on, its own timer switched off
            if waited is not None and base[1] is not None and waited - base[1] > IDLE:
                raise ChildGone("timeout")  # asleep, or blocked, not computing

        # Where the kernel counts the child's time, it stops a child that computes past
        # its timer or waits (watch); the clock then only caps a busy machine's delay,
        # as the child's own safety is put off while it is kept from a CPU (katas/timer.py).
        wall = self._wall * WALL_CAP if base is not None and base[1] is not None else self._wall
        while fault is None and len(replies) < n:
            try:
                held = answers(self._line(last + wall + GRACE, watch), request,
                               len(replies), n)
            except ChildGone as exc:
                fault = "timeout" if str(exc) == "timeout" else "crash"
                break
            arrived = time.monotonic()
            now = self._meter()
            if now is not None:
                last_cpu = now[0]
            # The line's time on the clock is its last answer's (botchild.FLUSH).
            replies += [self._reply(answer.get("a"), answer.get("s"),
                                    arrived - last if k == len(held) - 1 else 0.0)
                        for k, answer in enumerate(held)]
            last = arrived
        if fault is None and base is not None and now is not None:
            counted = now[0] - base[0]
            said = sum(r.seconds for r in replies)
            if counted > said * LIE_FACTOR + LIE_SLACK:
                # The child said its decisions took less CPU time than the kernel counted
                # for the batch: its times are not believed, and it is started again.
                share = counted / max(1, n)
                replies = [Reply(None, "timeout", share) for _ in replies]
                self.close()
        if fault is not None:
            if not self.out:
                self.close()  # started again on the next batch
            share = min(self.budget.decision, (time.monotonic() - last) / max(1, n))
            replies += [Reply(None, fault, share) for _ in range(n - len(replies))]
        return replies

    def _reply(self, answer: Any, spent: Any, elapsed: float) -> Reply:
        # The child's own timing of the decision (checked against the kernel's count for
        # the whole batch by :meth:`receive`); over the budget, a time-out.
        if type(spent) is float and 0.0 <= spent <= self.budget.decision \
                and type(answer) is str:  # the usual answer, read at once
            return Reply(answer, None, spent)
        if isinstance(spent, int | float) and not isinstance(spent, bool) \
                and spent == spent:  # not NaN
            seconds = min(max(float(spent), 0.0), 1e6)
        else:
            seconds = elapsed
        if seconds > self.budget.decision or (isinstance(answer, dict) and "x" in answer):
            return Reply(None, "timeout", seconds)
        if answer is None or isinstance(answer, str):
            return Reply(answer, None, seconds)
        if isinstance(answer, dict) and "e" in answer:
            return Reply(None, "crash", seconds, crash=crash_of(answer))
        return Reply(None, "illegal", seconds)


def crash_of(answer: dict[str, Any]) -> dict[str, Any]:
    """What a child said its bot raised (``{"e", "m", "w", "l", "f"}``, see
    ``botchild.py``), each part checked and capped: the child's word, never trusted."""
    def text(key: str, cap: int) -> str | None:
        value = answer.get(key)
        return value[:cap] if isinstance(value, str) else None

    line = answer.get("l")
    said = {"type": text("e", 60) or "?", "message": text("m", 200) or "",
            "cell": text("w", 120), "function": text("f", 60),
            "line": line if isinstance(line, int) and not isinstance(line, bool)
            and 0 < line < 1_000_000 else None}
    return {k: v for k, v in said.items() if v is not None}


class SidedPlayer:
    """One bot as two children: one asked only as the box, one only as the captain or
    the sitter (who sees the captain's cards).  The six seatings of a deal are played
    side by side, so a single child would be asked about the same deal from both sides
    of the table at once, and a bot that remembers what it is asked would know its
    opponent's hand; each of these children only ever sees one side of a deal."""

    def __init__(self, box_side: SandboxedPlayer, table_side: SandboxedPlayer) -> None:
        self.name = box_side.name
        self.sides = (box_side, table_side)
        self._split: list[int] = []

    def send(self, requests: Sequence[Request]) -> None:
        """Send each side its own requests (answered by :meth:`receive`)."""
        from ..hand import Role

        self._split = [0 if r.role is Role.BOX else 1 for r in requests]
        for side, player in enumerate(self.sides):
            mine = [r for r, s in zip(requests, self._split, strict=True) if s == side]
            if mine:
                player.send(mine)

    def receive(self) -> list[Reply]:
        """The replies of both sides, in the order of the requests sent."""
        answers = [iter(player.receive()) if side in self._split else iter(())
                   for side, player in enumerate(self.sides)]
        return [next(answers[side]) for side in self._split]

    def close(self) -> None:
        for player in self.sides:
            player.close()


def launch_all(players: Iterable[object]) -> None:
    """Launch the sandboxed children of ``players`` (:class:`SandboxedPlayer`, or the
    two of a :class:`SidedPlayer`) that are not running, all at once: each is ready
    for its first batch without the driver having waited on the others' starts."""
    for player in players:
        for side in getattr(player, "sides", (player,)):
            if isinstance(side, SandboxedPlayer) and side._proc is None and not side.out:
                side.launch()


def close_all(players: Iterable[Any]) -> None:
    """Close ``players``: every sandboxed child (as :func:`launch_all` finds them) is
    killed, then their uids are swept together and given back (one look at ``/proc`` for
    them all, not one each); any other player is closed as it closes itself."""
    by_box: dict[int, tuple[Sandbox, list[int]]] = {}
    children: list[SandboxedPlayer] = []
    for player in players:
        if isinstance(player, SidedPlayer):
            children += player.sides
        elif isinstance(player, SandboxedPlayer):
            children.append(player)
        else:
            player.close()
    for side in children:  # all killed first: they die side by side
        if side._proc is not None:
            side.box.stop(side._proc)
    for side in children:
        _box, uids = by_box.setdefault(id(side.box), (side.box, []))
        side.close(uids)
    for box, uids in by_box.values():
        box.give_uids(uids)
