"""What one hostile bot costs a class tournament in wall time (benchmarks/README.md,
"Tournament"): the same tournament of sandboxed greedy bots, once as it is and once with
one of them replaced by a bot that sleeps in every decision (or one that computes with
its timers switched off).  The target: at most three times the honest class's time.

    python benchmarks/hostile_tournament.py [--bots 8] [--deals 2] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from box_gin.tournament import Budget, Settings, run
from box_gin.tournament.cli import entrants

GREEDY = """
from box_gin import greedy_bot
def play(view):
    return greedy_bot(view)
def advise(view):
    return greedy_bot(view)
"""

HOSTILE = {
    # Sleeps in every decision, its alarm ignored: waiting, not computing.
    "sleeper": """
import signal, time
from box_gin import greedy_bot
def play(view):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    time.sleep(30)
    return greedy_bot(view)
def advise(view):
    return play(view)
""",
    # Switches off its timers and computes for ever.
    "spinner": """
import signal
from box_gin import greedy_bot
def play(view):
    signal.signal(signal.SIGPROF, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass
def advise(view):
    return play(view)
""",
}


def timed(bots: int, deals: int, hostile: str | None) -> tuple[float, int]:
    """Seconds for the tournament, and the faults counted against the hostile bot."""
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(bots):
            folder = Path(tmp) / f"bot{i:02d}"
            folder.mkdir()
            code = HOSTILE[hostile] if hostile is not None and i == 0 else GREEDY
            (folder / "bot.py").write_text(code)
        found, _skipped = entrants([Path(tmp)], with_references=False)
        start = time.perf_counter()
        results = run(found, Settings(deals=deals, seed=1, budget=Budget(1.0, 20.0)),
                      final=False)
        seconds = time.perf_counter() - start
    first = next(b for b in results.bots if b.name == "bot00")
    return seconds, first.timeouts + first.crashes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.bots} sandboxed bots, {args.deals} deals, load {os.getloadavg()[0]:.1f}")
    honest = min(timed(args.bots, args.deals, None)[0] for _ in range(args.repeat))
    print(f"honest class: {honest:.1f} s")
    for kind in HOSTILE:
        seconds, faults = min(timed(args.bots, args.deals, kind) for _ in range(args.repeat))
        print(f"with one {kind}: {seconds:.1f} s ({seconds / honest:.2f}x the honest "
              f"class; {faults:,} of its decisions defaulted)")


if __name__ == "__main__":
    main()
