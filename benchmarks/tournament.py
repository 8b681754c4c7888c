"""Tournament benchmarks: the expert against greedy, the expert sitter's advice, and
sandboxed decisions per second (see benchmarks/README.md, "Tournament").

    python benchmarks/tournament.py [--deals N] [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from box_gin.bots import expert_advise, expert_bot, greedy_bot
from box_gin.tournament import Budget, Entrant, Settings, measure, measure_advice, run
from box_gin.tournament.cli import entrants

GREEDY = """
from box_gin import greedy_bot
def play(view):
    return greedy_bot(view)
def advise(view):
    return greedy_bot(view)
"""


#: The tournaments the rates are measured on: (bots, deals, what).  Each bot's two
#: children start once for the whole run (about 60 ms of CPU each), so a small
#: tournament pays more of its time to the starts than a class's does: the second size
#: has a class's shape, about 500 games a child (a class of 30 bots and the three
#: reference bots, 10 deals: 31,680 games over 60 children; here 8,064 over 16).
SIZES = [(8, 6, "small: 126 games a child"), (8, 24, "a class's shape: 504 games a child")]


def sandboxed_rate(bots: int, deals: int, jobs: int) -> tuple[float, int, float]:
    """Decisions per second of a tournament of ``bots`` sandboxed greedy bots."""
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(bots):
            folder = Path(tmp) / f"bot{i:02d}"
            folder.mkdir()
            (folder / "bot.py").write_text(GREEDY)
        found, _skipped = entrants([Path(tmp)], with_references=False)
        start = time.perf_counter()
        results = run(found, Settings(deals=deals, seed=1, budget=Budget(2.0, 60.0)),
                  jobs=jobs, final=False)
        seconds = time.perf_counter() - start
    decisions = sum(b.decisions for b in results.bots)
    return decisions / seconds, len(results.games), seconds


def inprocess_rate(bots: int, deals: int) -> tuple[float, int, float]:
    """Decisions per second of the same tournament with the greedy bots in this process
    (no sandbox, no wire): what the sandbox and the wire are measured against.  At its
    best: with the default 1,024 games side by side, and with 256 (fewer games in flight
    are faster here, where no batch crosses a pipe)."""
    best: tuple[float, int, float] | None = None
    for lanes in (Settings().lanes, 256):
        found = [Entrant(f"bot{i:02d}", reference="greedy_bot") for i in range(bots)]
        start = time.perf_counter()
        results = run(found, Settings(deals=deals, seed=1, budget=Budget(2.0, 60.0),
                                      lanes=lanes), jobs=1, final=False)
        seconds = time.perf_counter() - start
        decisions = sum(b.decisions for b in results.bots)
        if best is None or decisions / seconds > best[0]:
            best = decisions / seconds, len(results.games), seconds
    assert best is not None
    return best


def strength(deals: int) -> None:
    """The expert against greedy, and the expert sitter's advice, on duplicate deals."""
    start = time.perf_counter()
    m = measure(expert_bot, against=greedy_bot, deals=deals, seed=2026)
    low, high = m.interval
    print(f"expert vs greedy: {m.wins.wins}/{m.wins.games} = {m.rate:.1%} "
          f"[{low:.1%}, {high:.1%}], {m.drawn} drawn ({time.perf_counter() - start:.0f} s)")
    a = measure_advice(greedy_bot, expert_advise, against=greedy_bot, deals=deals, seed=2026)
    d, dl, dh = a.difference
    print(f"greedy captain advised by the expert sitter: {a.advised}; alone: {a.alone}; "
          f"gain {d:+.1%} [{dl:+.1%}, {dh:+.1%}]")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rates", action="store_true",
                        help="only the decisions per second, in-process and sandboxed")
    args = parser.parse_args()
    deals = 50 if args.quick else args.deals
    print(f"CPython {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[2]:.1f}")
    if not args.rates:
        strength(deals)
    for bots, rounds, what in ([(6, 2, "quick")] if args.quick else SIZES):
        print(f"{bots} bots, {rounds} deals ({what}):")
        here, games, seconds = inprocess_rate(bots, rounds)
        print(f"  in-process decisions (the same greedy bots, no sandbox), -j 1: {here:,.0f}/s "
              f"({games} games in {seconds:.1f} s)")
        for jobs in (1, 2):
            rate, games, seconds = sandboxed_rate(bots, rounds, jobs)
            print(f"  sandboxed decisions, -j {jobs}: {rate:,.0f}/s ({games} games in "
                  f"{seconds:.1f} s): {rate / here:.0%} of in-process")


if __name__ == "__main__":
    main()
