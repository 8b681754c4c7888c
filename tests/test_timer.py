"""The one timer of a learner's code (box_gin/katas/timer.py): a busy machine, which keeps
the code from a CPU, does not turn its computing into waiting; code that waits is still
stopped.  The kernel's count is replaced here by a stand-in, so that what is checked is
what the timer does with it, not how busy this machine is."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from box_gin.checker.protocol import Child
from box_gin.katas import timer


def _count(values: Callable[[], float | None]) -> tuple[list[int], Callable[[], float | None]]:
    calls = [0]

    def read() -> float | None:
        calls[0] += 1
        return values()

    return calls, read


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short probes, and room for many of them under the cap."""
    monkeypatch.setattr(timer, "PROBE", 0.05)
    monkeypatch.setattr(timer, "WALL_CAP", 20.0)


def test_the_safety_is_put_off_while_the_code_runs_or_waits_for_a_cpu(monkeypatch, quick):
    """Code kept from a CPU (by the kernel's count, busy all the time) is not stopped by
    the clock: its safety is put off probe after probe while it computes."""
    calls, read = _count(time.monotonic)  # ran or waited for a CPU all along
    monkeypatch.setattr(timer, "busy_seconds", read)
    with timer.timers() as usable:
        assert usable
        timer.arm(0, 0.2)
        start = time.monotonic()
        while time.monotonic() - start < 0.6:
            pass
        timer.disarm()
    assert calls[0] >= 1  # the safety rang (at 0.2 s), and was put off: no Rang


def test_code_that_waits_is_stopped_one_probe_after_the_safety(monkeypatch, quick):
    calls, read = _count(lambda: 7.0)  # neither ran nor waited for a CPU
    monkeypatch.setattr(timer, "busy_seconds", read)
    with timer.timers(), pytest.raises(timer.Rang) as rang:
        timer.arm(0, 0.2)
        time.sleep(30)
    assert rang.value.which == "wall"
    assert calls[0] == 2  # the first probe, then the verdict


def test_where_the_kernel_does_not_say_the_safety_stops_at_once(monkeypatch, quick):
    calls, read = _count(lambda: None)
    monkeypatch.setattr(timer, "busy_seconds", read)
    with timer.timers(), pytest.raises(timer.Rang) as rang:
        timer.arm(0, 0.2)
        time.sleep(30)
    assert rang.value.which == "wall" and calls[0] == 1


def test_the_safety_is_put_off_no_further_than_its_cap(monkeypatch, quick):
    """Busy or not, the clock stops code at the cap: every wait has a deadline."""
    monkeypatch.setattr(timer, "WALL_CAP", 3.0)
    monkeypatch.setattr(timer, "busy_seconds", time.monotonic)  # busy all along
    with timer.timers(), pytest.raises(timer.Rang) as rang:
        timer.arm(0, 0.1)
        start = time.monotonic()
        while time.monotonic() - start < 30:
            pass
    assert rang.value.which == "wall" and time.monotonic() - start < 30


def test_the_cpu_timer_still_stops_code_that_computes_too_long(monkeypatch, quick):
    monkeypatch.setattr(timer, "WALL_CAP", 400.0)  # 20 s: the CPU time comes first
    monkeypatch.setattr(timer, "busy_seconds", time.monotonic)
    with timer.timers(), pytest.raises(timer.Rang) as rang:
        timer.arm(0.2, 0.05)  # the clock's safety far below the CPU time: put off
        start = time.process_time()
        while time.process_time() - start < 30:
            pass
    assert rang.value.which == "cpu"


def test_the_kernel_counts_this_process_running():
    before = timer.busy_seconds()
    if before is None:
        pytest.skip("this kernel keeps no schedstat")
    start = time.process_time()
    while time.process_time() - start < 0.05:
        pass
    after = timer.busy_seconds()
    assert after is not None and after - before >= 0.04


def test_the_grader_puts_its_deadline_off_as_the_child_does():
    """The grader's side (``Child._busy``): a child the kernel counts running or waiting
    for a CPU gets another probe; one that waited (asleep, blocked) does not; nor does
    one the kernel says nothing about."""
    waited = [0.0]
    box = SimpleNamespace(waited_seconds=lambda proc: (1.0, waited[0]))
    child = SimpleNamespace(proc=object(), box=box)
    first = Child._busy(child, None)  # type: ignore[arg-type]
    assert first is not None
    time.sleep(0.2)
    waited[0] += 0.01  # busy: hardly waited in 0.2 s
    second = Child._busy(child, first)  # type: ignore[arg-type]
    assert second is not None and second[0] > first[0]
    time.sleep(0.2)
    waited[0] += 0.5  # waited more than the time since the probe began
    assert Child._busy(child, second) is None  # type: ignore[arg-type]
    silent = SimpleNamespace(proc=object(), box=SimpleNamespace(waited_seconds=lambda p: None))
    assert Child._busy(silent, None) is None  # type: ignore[arg-type]


def test_a_wait_for_a_cpu_is_not_counted_on_the_clock(monkeypatch):
    """``unqueued``: the clock's seconds less those the kernel counts the process waiting
    for a CPU; where the kernel says nothing, the plain clock."""
    queued = [3.0]
    monkeypatch.setattr(timer, "queued_seconds", lambda: queued[0])
    start = timer.clock()
    time.sleep(0.05)
    queued[0] += 0.04  # 0.04 s of those were spent waiting for a CPU
    took = timer.unqueued(start)
    plain = time.perf_counter() - start[0]
    assert 0 < took <= plain - 0.04 + 1e-6
    queued[0] += 10.0  # more than the clock: never below nothing
    assert timer.unqueued(start) == 0.0
    monkeypatch.setattr(timer, "queued_seconds", lambda: None)
    assert timer.unqueued(timer.clock()) >= 0.0
    silent = timer.clock()
    time.sleep(0.02)
    assert timer.unqueued(silent) >= 0.02


@pytest.mark.parametrize("kept_from_a_cpu", [True, False])
def test_the_bot_katas_judge_counts_computing_not_a_busy_machine(monkeypatch, kept_from_a_cpu):
    """A decision that takes the clock past its limit because the machine kept it from a
    CPU is not 'stalled'; one that computes past it is: the bot kata's judge sees the
    clock less the waits the kernel counts (here the kernel's and a stand-in's)."""
    from box_gin.bots import greedy_bot
    from box_gin.katas.specs.nb7_bots import Timing, legality

    if timer.busy_seconds() is None:
        pytest.skip("this kernel keeps no schedstat: the clock's safety would ring")
    real = timer.queued_seconds
    extra = [0.0]
    monkeypatch.setattr(timer, "queued_seconds", lambda: (real() or 0.0) + extra[0])
    done: list[int] = []

    def play(view):
        if not done:
            done.append(1)
            if kept_from_a_cpu:  # 1.2 s on the clock, a second of it (the stand-in says)
                start = time.perf_counter()  # waiting for a CPU
                while time.perf_counter() - start < 1.2:
                    pass
                extra[0] += 1.0
            else:  # 1.2 s of computing: past the clock's limit however busy the machine
                start = time.process_time()
                while time.process_time() - start < 1.2:
                    pass
        return greedy_bot(view)

    timing = Timing(decision=2.0, wall=1.0, total=30, total_wall=60)
    fault = legality(play, "play", hands=0, timing=timing).fault
    if kept_from_a_cpu:
        assert fault is None
    else:
        assert fault is not None and fault.reason == "stalled"
