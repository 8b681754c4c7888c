"""One timer for every run of a learner's code: a cell, a kata's call, a bot's decision.

Standard library only: the sandboxed children load this file by its path before any
learner code runs, and the notebook's own checks (``feedback.call_once``, the bot kata's
``local_ask``) use it in the learner's kernel.

A limit is in *CPU* seconds (``ITIMER_PROF``: the time the code spends computing), so
that a busy machine never changes a verdict.  What waits instead of computing (a sleep, a
blocked read) is stopped by a wall-clock safety (``ITIMER_REAL``): by default
:func:`wall_seconds` of the limit.  Either timer raises :class:`Rang` inside the code
that runs, which says which one rang.

A busy machine must not turn computing into waiting: when the clock's safety rings, the
kernel's count (``/proc/self/schedstat``: the time this process ran, and waited for a
CPU) is read, and the safety is put off by :data:`PROBE` seconds at a time for as long
as the code ran or waited for a CPU for at least :data:`BUSY` of each (the CPU timer
still stops code that computes too long), up to :data:`WALL_CAP` times the safety.
Code that sleeps or waits on a read is stopped one probe after the safety rang; where
the kernel does not say, at once.  The time on the clock a judge compares with its limits
is likewise :func:`unqueued`: the clock's seconds less those spent waiting for a CPU.

>>> with timers() as usable:
...     arm(5.0)
...     disarm()
>>> wall_seconds(2.0)
13.0
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: The wall-clock safety of a limit: this many times the limit, plus :data:`WALL_GRACE`.
WALL_FACTOR = 4.0
WALL_GRACE = 5.0


def wall_seconds(cpu_seconds: float) -> float:
    """The wall-clock safety of a limit of ``cpu_seconds`` CPU seconds."""
    return cpu_seconds * WALL_FACTOR + WALL_GRACE


class Rang(BaseException):
    """A timer rang inside the learner's code: ``which``, ``"cpu"`` or ``"wall"``.

    A ``BaseException``, so that a learner's ``except Exception`` does not swallow it."""

    def __init__(self, which: str) -> None:
        super().__init__(which)
        self.which = which


#: Seconds the clock's safety is put off at a time while the code computes (or waits for a
#: CPU), and the share of those seconds it must have done so.
PROBE = 0.5
BUSY = 0.5
#: The clock's safety is put off to at most this many times its seconds.
WALL_CAP = 3.0
SCHEDSTAT = "/proc/self/schedstat"

#: When the clock's safety was armed, and its seconds; the probe going on: when it began,
#: and the seconds run or waited for a CPU by then (empty: none).
_armed = [0.0, 0.0]
_probe: list[float] = []


#: The kernel's count kept open for this process: (its pid, the path, the descriptor).
_open: list[Any] = []


def _schedstat() -> tuple[int, int] | None:
    """The nanoseconds this process has run, and waited for a CPU, since it began, as
    the kernel counts them (None where it does not say): one read of a file kept open,
    about a microsecond, so that every decision of a bot can afford two."""
    try:
        if not _open or _open[0] != os.getpid() or _open[1] != SCHEDSTAT:
            fd = os.open(SCHEDSTAT, os.O_RDONLY | os.O_CLOEXEC)
            if _open and _open[0] == os.getpid():
                os.close(_open[2])
            _open[:] = [os.getpid(), SCHEDSTAT, fd]
        ran, queued = os.pread(_open[2], 128, 0).split()[:2]
        return int(ran), int(queued)
    except (OSError, ValueError):
        return None


def busy_seconds() -> float | None:
    """The seconds this process has run or waited for a CPU since it began, as the kernel
    counts them (None where it does not say)."""
    both = _schedstat()
    return None if both is None else (both[0] + both[1]) / 1e9


def queued_seconds() -> float | None:
    """The seconds this process has waited for a CPU since it began, as the kernel counts
    them (None where it does not say)."""
    both = _schedstat()
    return None if both is None else both[1] / 1e9


def clock() -> tuple[float, float | None]:
    """Now, for :func:`unqueued`: the clock (``time.perf_counter``) and
    :func:`queued_seconds`."""
    return time.perf_counter(), queued_seconds()


def unqueued(start: tuple[float, float | None]) -> float:
    """The seconds on the clock since ``start`` (:func:`clock`), less those this process
    waited for a CPU meanwhile, as the kernel counts them: what the same code would have
    taken on a machine with nothing else to run (the plain clock where the kernel does
    not say).  A busy machine lengthens computing, never waiting, so this is what the
    clock's limits judge."""
    took = time.perf_counter() - start[0]
    after = None if start[1] is None else queued_seconds()
    if start[1] is None or after is None:
        return took
    return min(took, max(0.0, took - (after - start[1])))


def _ring(signum: int, frame: Any) -> None:
    if signum == signal.SIGPROF:
        raise Rang("cpu")
    now = time.monotonic()
    if now - _armed[0] < _armed[1] * WALL_CAP:
        busy = busy_seconds()
        if busy is not None and (not _probe or busy - _probe[1] >= BUSY * (now - _probe[0])):
            _probe[:] = [now, busy]  # computing, or kept from a CPU: put the safety off
            signal.setitimer(signal.ITIMER_REAL, PROBE)
            return
    raise Rang("wall")


def usable() -> bool:
    """Whether signals can stop code here (the main thread, a system with ``setitimer``)."""
    return threading.current_thread() is threading.main_thread() and hasattr(
        signal, "setitimer")


@contextmanager
def timers() -> Iterator[bool]:
    """While the block runs, the two timers raise :class:`Rang`; yields whether they can
    be used here (where they cannot, :func:`arm` must not be called).  Afterwards both
    are off and the previous handlers are back."""
    if not usable():
        yield False
        return
    before = signal.signal(signal.SIGPROF, _ring), signal.signal(signal.SIGALRM, _ring)
    try:
        yield True
    finally:
        disarm()
        signal.signal(signal.SIGPROF, before[0])
        signal.signal(signal.SIGALRM, before[1])


def install() -> None:
    """The timers raise :class:`Rang` for the rest of the process (a sandboxed child)."""
    signal.signal(signal.SIGPROF, _ring)
    signal.signal(signal.SIGALRM, _ring)


def arm(cpu_seconds: float, wall: float | None = None) -> None:
    """Start both timers: ``cpu_seconds`` of CPU time (0: none) and ``wall`` seconds on
    the clock (by default :func:`wall_seconds` of ``cpu_seconds``)."""
    seconds = wall_seconds(cpu_seconds) if wall is None else wall
    _armed[0], _armed[1] = time.monotonic(), seconds
    _probe.clear()
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def disarm() -> None:
    """Stop both timers (the clock's first: it is the one that may ring while waiting)."""
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.setitimer(signal.ITIMER_PROF, 0)
