"""Talking to a sandboxed child (:class:`Child`): its orders as JSON lines on its stdin,
its answers on a pipe of its own, each line led by a random nonce, every byte bounded and
decoded here defensively; the pipes non-blocking, served in one loop with one deadline.
Anything else, a child that dies, hangs or breaks the protocol, is :class:`ChildGone`."""

from __future__ import annotations

import json
import os
import secrets
import select
import subprocess
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from ..katas.timer import BUSY, PROBE, wall_seconds
from .caps import Limits
from .safe import one_line
from .sandbox import Sandbox
from .staging import remove_tree

#: The most a child may send in one line (bytes); more is an attack or a bug.
MAX_LINE = 8 * 1024 * 1024
#: The size asked for a child's answer pipe (bytes).
ANSWERS_PIPE = 1 << 20
#: A child that computes past a limit its own CPU timer should have kept (a learner who
#: switched the timer off, or catches what it raises) is stopped once the kernel counts
#: this factor of the limit and :data:`CPU_SLACK` more seconds of its CPU time: a hanging
#: loop costs its CPU limit, not the wall clock's safety far above it.
CPU_FACTOR = 1.25
CPU_SLACK = 0.5
#: Seconds a child may wait (asleep, or blocked on anything but the orders it is being
#: sent) while it owes a cell or an answer, as the kernel counts it (the child's clock
#: time neither on a CPU nor waiting for one: a busy machine adds none).  Honest code
#: computes; a sleep, or a child whose protocol broke and waits for orders, does not.
IDLE = 2.0
#: How often the kernel's count is read while a child computes (seconds).
POLL = 0.05
#: The size asked for a child's stdin pipe (bytes): a whole batch of views fits, so the
#: driver writes it at once and goes on with its work while the child reads.
ORDERS_PIPE = 1 << 18


def widen_pipe(fd: int, size: int = ORDERS_PIPE) -> None:
    """Ask the kernel for a pipe of ``size`` bytes at ``fd`` (Linux); where it says no (a
    user over the machine's pipe budget, another system), the pipe stays as it is."""
    import fcntl

    with suppress(OSError, AttributeError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)


class ChildGone(Exception):
    """The child died, hung, or broke the protocol."""


@dataclass(frozen=True)
class Ready:
    """What a child says once its cells have run (its ``ready`` line), read
    defensively: what stopped its cells, which of the asked functions it defines, which
    imports it was refused, and (a bot's child) whether it has ``play`` and ``advise``."""

    errors: tuple[str, ...] = ()
    functions: frozenset[str] = frozenset()
    blocked: tuple[str, ...] = ()
    play: bool = False
    advise: bool = False

    @classmethod
    def read(cls, message: Any, text_size: int) -> Ready:
        """A ``ready`` message as sent; anything malformed reads as nothing said (at
        most 20 errors of ``text_size`` characters and 20 refused imports, each one
        visible line)."""
        if not isinstance(message, dict):
            return cls()

        def lines(value: Any, size: int) -> tuple[str, ...]:
            if not isinstance(value, list):
                return ()
            return tuple(one_line(v, size) for v in value[:20] if isinstance(v, str))

        names = message.get("functions")
        functions = frozenset(names) if isinstance(names, list) and all(
            isinstance(n, str) for n in names) else frozenset()
        return cls(lines(message.get("errors"), text_size), functions,
                   lines(message.get("blocked"), 80), bool(message.get("play")),
                   bool(message.get("advise")))


def answers(message: dict[str, Any], batch: int, first: int, size: int
            ) -> list[dict[str, Any]]:
    """The answers a bot's child sent in one line (``botchild.py``: the batch's id, the
    place of the first answer, the answers in order), read as untrusted data: the line
    must be the next one expected, for the batch ``batch`` from the place ``first`` on,
    with at least one answer and no more than the ``size`` the batch asked, each a
    mapping; anything else (out of order, forged, too many, too few at the end) is the
    protocol broken (:class:`ChildGone`)."""
    held = message.get("n")
    number, place = message.get("id"), message.get("i")
    if (message.get("t") != "a" or type(number) is not int or number != batch
            or type(place) is not int or place != first or not isinstance(held, list)
            or not held
            or len(held) > size - first
            or not all(isinstance(answer, dict) for answer in held)):
        raise ChildGone("a malformed answer")
    return held


#: The script of a kata's child, under the staged ``box_gin``.
KATA_CHILD = "checker/child.py"


class Child:
    """One running child for one submission file (``script``: the child to run, under
    the staged ``box_gin``: a kata's, or a bot's in a sandbox that stages the engine)."""

    def __init__(self, box: Sandbox, setup: dict[str, Any], limits: Limits,
                 budget: float, script: str = KATA_CHILD) -> None:
        self.box = box
        self.limits = limits
        self.budget = budget
        self.nonce = secrets.token_hex(16)
        self.uid = box.take_uid()
        self.current_cell: int | None = None
        self._buffer = bytearray()
        self._out = bytearray()
        #: The child's stdin refused a write: it stopped reading (or died).
        self._broken = False
        #: A line of the child's came: its process (not only bubblewrap's) is running.
        self._heard = False
        #: The CPU seconds the child may still use for what it computes now, as the
        #: kernel counts them from :attr:`_cpu_from` (None: not watched, or not yet read).
        self._cpu_cap: float | None = None
        self._cpu_from: float | None = None
        #: The child's seconds waited when last read, and how many of them count.
        self._waited: float | None = None
        self._idle = 0.0
        read_end, write_end = os.pipe()
        # A whole answer fits: an honest child never waits on the driver to read it.
        widen_pipe(read_end, ANSWERS_PIPE)
        self._read = read_end
        self.folder: str | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        rlimits = box.child_limits(limits)
        try:
            self.proc, self.folder = box.spawn(
                self.uid, ["-I", "-S", "-B", f"{{box}}/box_gin/{script}",
                           json.dumps(rlimits)], limits, (write_end,))
        except OSError as exc:
            os.close(write_end)
            self.close()
            raise ChildGone("the sandbox could not start") from exc
        os.close(write_end)
        assert self.proc.stdin is not None
        self._write = self.proc.stdin.fileno()
        widen_pipe(self._write)
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        package = "/box/box_gin" if box.kind == "bubblewrap" else str(box.stage / "box_gin")
        self._queue({**setup, "nonce": self.nonce, "fd": write_end, "package": package})

    def _queue(self, message: dict[str, Any]) -> None:
        self._out += json.dumps(message).encode() + b"\n"

    def send(self, message: dict[str, Any]) -> None:
        """Queue a line for the child: :meth:`receive` writes it while it reads."""
        self._queue(message)

    def send_line(self, line: str) -> None:
        """:meth:`send` of a message already written as its JSON text (one line, no
        newline in it)."""
        self._out += line.encode() + b"\n"

    def flush(self) -> None:
        """Write what is queued now, as much as the pipe takes without waiting (the rest
        is written by :meth:`receive`): the child may work on it while this process goes
        on with something else."""
        while self._out and not self._broken and self._write_some():
            pass

    def _write_some(self) -> bool:
        """Write what the pipe takes of the queue now; False when it took nothing (it is
        full, or the child stopped reading)."""
        try:
            sent = os.write(self._write, self._out[:1 << 16])
        except BlockingIOError:
            return False
        except OSError:
            self._broken = True
            self._out.clear()
            return False
        del self._out[:sent]
        return sent > 0

    def _lines(self) -> dict[str, Any] | None:
        prefix = self.nonce.encode() + b" "
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                return None
            line = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            if line.startswith(prefix):
                self._heard = True
                try:
                    message = json.loads(line[len(prefix):].decode("utf-8", "replace"))
                except (ValueError, RecursionError) as exc:
                    raise ChildGone("a garbled message") from exc
                if isinstance(message, dict):
                    return message

    def watch_cpu(self, seconds: float | None) -> None:
        """From now, the child may compute ``seconds`` of CPU time (a limit its own timer
        keeps) before the kernel's count stops it (:data:`CPU_FACTOR`); None: unwatched."""
        self._cpu_cap = None if seconds is None else seconds * CPU_FACTOR + CPU_SLACK
        self._cpu_from = None
        self._waited, self._idle = None, 0.0

    def _over_cpu(self, writing: bool) -> bool:
        """Whether the child computed past :meth:`watch_cpu`'s limit, or waited more than
        :data:`IDLE` seconds, by the kernel's count (read once the child's own process
        runs; never where it is not known).  Time waited while the driver still had
        orders to write (``writing``) does not count: the child may be waiting for them."""
        if self._cpu_cap is None or not self._heard or self.proc is None:
            return False
        both = self.box.waited_seconds(self.proc)
        now = self.box.cpu_seconds(self.proc) if both is None else both[0]
        if now is None:
            return False
        if self._cpu_from is None:
            self._cpu_from = now
        if both is not None:
            if self._waited is not None and not writing:
                self._idle += max(0.0, both[1] - self._waited)
            self._waited = both[1]
        return now - self._cpu_from > self._cpu_cap or self._idle > IDLE

    def receive(self, seconds: float, accept: Callable[[dict[str, Any]], bool],
                stretch: float | None = None) -> dict[str, Any]:
        """Send what is queued and read until a message ``accept`` takes, within
        ``seconds`` and the submission's budget: one loop, one deadline; a child that
        computes past its CPU limit (:meth:`watch_cpu`), or waits instead of computing, is
        stopped as soon as the kernel counts it.  ``stretch``: the deadline is put off
        as the child's own clock safety is (``katas/timer.py``), :data:`PROBE` seconds at
        a time while the kernel counts the child running or waiting for a CPU for at
        least :data:`BUSY` of them (a busy machine), to at most ``stretch`` seconds."""
        start = time.monotonic()
        deadline = min(start + seconds, self.budget)
        hard = deadline if stretch is None else min(start + max(stretch, seconds), self.budget)
        probe: tuple[float, float] | None = None
        while True:
            message = self._lines()
            while message is not None:
                if accept(message):
                    return message
                message = self._lines()
            left = deadline - time.monotonic()
            if left <= 0:
                probe = self._busy(probe) if time.monotonic() < hard else None
                if probe is None:
                    raise ChildGone("timeout")
                deadline = min(probe[0] + PROBE, hard)
                continue
            writers = [self._write] if self._out and not self._broken else []
            # Once its stdin is closed, what the child sent before is still read first:
            # a child that died is found where it died, not where the write failed.
            watched = self._cpu_cap is not None
            if watched and self._over_cpu(bool(self._out) and not self._broken):
                raise ChildGone("timeout")
            ready, writable, _x = select.select([self._read], writers, [],
                                                0 if self._broken else
                                                min(left, POLL) if watched else left)
            if self._broken and not ready:
                raise ChildGone("the child stopped reading")
            if writable:
                self._write_some()
                if self._broken:
                    continue
            if ready:
                try:
                    chunk = os.read(self._read, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise ChildGone("the child exited")
                self._buffer += chunk
                if len(self._buffer) > MAX_LINE:
                    raise ChildGone("the child sent too much")

    def _busy(self, probe: tuple[float, float] | None) -> tuple[float, float] | None:
        """A new probe, ``(now, seconds waited)``, when the child ran or waited for a CPU
        for at least :data:`BUSY` of the time since ``probe`` (the first: at once);
        None when it waited instead, or the kernel does not say."""
        both = None if self.proc is None else self.box.waited_seconds(self.proc)
        if both is None:
            return None
        now = time.monotonic()
        if probe is not None and both[1] - probe[1] > (1 - BUSY) * (now - probe[0]):
            return None
        return now, both[1]

    def wait_ready(self) -> dict[str, Any]:
        """Follow the child through the cells until it is ready for requests."""
        def accept(message: dict[str, Any]) -> bool:
            if message.get("t") == "cell" and isinstance(message.get("i"), int):
                self.current_cell = message["i"]
                self.watch_cpu(self.limits.cell_seconds)  # each cell its own CPU time
            return message.get("t") == "ready"

        self.watch_cpu(self.limits.cell_seconds)
        try:
            message = self.receive(wall_seconds(self.limits.load_seconds), accept)
        finally:
            self.watch_cpu(None)
        self.current_cell = None
        return message

    def run(self, request_id: int, function: str, hide: list[tuple[str, str]],
            cases: list[Any]) -> dict[str, Any]:
        """Run ``function`` on the encoded ``cases``; the child's answer."""
        self._queue({"t": "run", "id": request_id, "function": function,
                     "hide": [list(h) for h in hide], "cases": cases,
                     "timeout": self.limits.call_seconds, "budget": self.limits.kata_seconds})
        # The child keeps the limits in CPU seconds; here, only the wall-clock safety
        # (its batch's, and one more call's, which may be running when the batch's ends).
        seconds = wall_seconds(self.limits.kata_seconds) + wall_seconds(self.limits.call_seconds)
        self.watch_cpu(self.limits.kata_seconds + self.limits.call_seconds)
        try:
            message = self.receive(seconds, lambda m: m.get(
                "t") == "result" and m.get("id") == request_id)
        finally:
            self.watch_cpu(None)
        outcomes = message.get("outcomes")
        if not isinstance(outcomes, list) or len(outcomes) != len(cases):
            raise ChildGone("a malformed answer")
        return message

    def close(self) -> None:
        """Kill the child and everything it started; remove its folder."""
        if self.proc is not None:
            self.box.release(self.proc)
            with suppress(OSError):
                if self.proc.stdin is not None:
                    self.proc.stdin.close()
        with suppress(OSError):
            os.close(self._read)
        self.box.give_uid(self.uid)
        self.uid = None
        if self.folder is not None:
            remove_tree(self.folder)
            self.folder = None

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
