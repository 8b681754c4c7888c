"""The classroom server under a class's load (slow: `make class-load`, not `make test`).

A real ``box-gin serve`` and, in this process, 10 tables of 3 simulated browsers
(websockets on loopback) playing 200 hands in all at once, the teacher watching the
overview (``benchmarks/classroom_load.py``).  The test checks that no action is lost or
applied twice (every frame arrives with the next move number, every duplicate is
refused, every table's record equals the clients' own copy of the match and replays);
the latency it prints is recorded in ``benchmarks/README.md``, not asserted here.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from classroom_helpers import ServeProcess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from classroom_load import simulate

pytestmark = pytest.mark.load


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("think", [0.0, 0.2], ids=["flat-out", "thinking"])
def test_ten_tables_play_two_hundred_hands(tmp_path: Path, think: float) -> None:
    """``flat-out``: every table always has an action in flight (a saturating load);
    ``thinking``: each player thinks 0 to 0.4 s before acting (still some 25 actions a
    second for the class, far faster than people play)."""
    server = ServeProcess(tmp_path / "class.db")
    try:
        report = asyncio.run(simulate(server.base, server.key, tables=10, hands=200,
                                      think=think))
    finally:
        server.kill()
    print(report.summary())
    assert report.hands == 200 and report.records_replayed == 10
    assert not report.mismatches
    assert report.duplicates_sent > 0
    assert report.duplicates_refused == report.duplicates_sent
    assert len(report.latencies) == report.actions > 200 * 4
