"""Speed of the notebook's ``check``: a correct answer to each kata, judged in-process.

    python benchmarks/check_speed.py            # print the table
    python benchmarks/check_speed.py --write    # also replace "check() speed" in README.md

Each kata's answer is the function of the solution notebooks.  ``check`` runs what the
grader runs (the public tests, the fixed hidden cases, fresh draws from a new seed), each
case through the grader's wire encoding as in the grader, and then a search of random
inputs; a correct answer goes through all of it.  The target is 2 s per kata on the
2-core development machine, quiet (3 s for the bot kata's check, which plays hands and
measures the bot); the time is the worst of 3 runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import time
from pathlib import Path
from typing import Any

from box_gin.katas import KATAS
from box_gin.katas.feedback import run_check
from box_gin.katas.specs.nb7_bots import BotKata
from box_gin.tournament.strength import check as bot_check

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "benchmarks" / "README.md"
HEADING = "## check() speed"
TARGET = 2.0
#: The bot kata's check(), which plays its hands and measures the bot (issue 34).
BOT_TARGET = 3.0


def solutions() -> dict[str, Any]:
    """Every kata's function from its own solution notebook, as a learner's kernel holds
    it (each notebook run in a namespace of its own: notebook 7 imports the engine's
    ``best_melds``, which is no answer to notebook 2's kata)."""
    found: dict[str, Any] = {}
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        ns: dict[str, Any] = {}
        for cell in json.loads(path.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] == "code" and not src.startswith("check("):
                exec(compile(src, str(path), "exec"), ns)
        number = int(path.name[:2])
        found.update({k.name: ns[k.name] for k in KATAS if k.notebook == number})
    return found


def measure(runs: int = 3) -> list[tuple[str, int, float]]:
    """(kata, inputs judged, worst seconds of ``runs``) for each kata."""
    ns = solutions()
    rows = []
    for kata in KATAS:
        times, tried = [], 0
        for _run in range(runs):
            start = time.perf_counter()
            if isinstance(kata, BotKata):  # the notebook's check(play): legal, then strong
                checked = bot_check(ns[kata.name])
                times.append(time.perf_counter() - start)
                if not checked.legality.passed:
                    raise SystemExit(f"the solution of {kata.name} does not pass")
                tried = checked.legality.decisions
                continue
            result = run_check(ns[kata.name], kata)
            times.append(time.perf_counter() - start)
            if not result.passed:
                raise SystemExit(f"the solution of {kata.name} does not pass:\n"
                                 f"{result.feedback()}")
            tried = result.public_tests + result.more_tests
        rows.append((kata.name, tried, max(times)))
    return rows


def section(rows: list[tuple[str, int, float]]) -> str:
    bots = {k.name for k in KATAS if isinstance(k, BotKata)}
    worst = max(t for n, _c, t in rows if n not in bots)
    worst_bot = max((t for n, _c, t in rows if n in bots), default=0.0)
    lines: list[str] = [
        HEADING, "",
        f"`python benchmarks/check_speed.py` on CPython {platform.python_version()}, "
        f"{os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.1f} at the end. "
        "`check(fn)` of the solution notebooks' answer to each kata, "
        "in-process: the public tests, the grader's fixed hidden cases, fresh draws from a new "
        "seed, then the search; for the bot kata, the notebook's `check(play)` and "
        "`check(advise)`: the kata's hands, then the bot measured against the reference "
        "bots (its inputs are the decisions judged). Worst of 3 runs; target: at most "
        f"{TARGET:g} s per kata, {BOT_TARGET:g} s for the bot kata.", "",
        "| kata | inputs judged | seconds |", "|---|---:|---:|",
    ]
    lines += [f"| {name} | {count} | {sec:.2f} |" for name, count, sec in rows]
    verdict = "met" if worst <= TARGET else "missed"
    bot_verdict = "met" if worst_bot <= BOT_TARGET else "missed"
    lines += ["", f"Slowest kata: {worst:.2f} s, target {TARGET:g} s: {verdict}. The bot "
              f"kata: {worst_bot:.2f} s, target {BOT_TARGET:g} s: {bot_verdict}.", ""]
    return "\n".join(lines)


def write_section(text: str, readme: Path = README) -> None:
    """Replace the section in the README (or add it before the nbval section)."""
    old = readme.read_text()
    pattern = re.compile(rf"^{re.escape(HEADING)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(old):
        new = pattern.sub(lambda m: text + "\n", old)
    else:
        marker = "## Notebook execution time"
        new = old.replace(marker, text + "\n" + marker) if marker in old else \
            old.rstrip() + "\n\n" + text
    readme.write_text(new)


def main() -> None:
    """Measure, print, and with --write update the README."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    text = section(measure())
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
