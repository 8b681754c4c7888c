"""Grading speed: `box-gin check` per submission and for a class, beside nbconvert.

    python benchmarks/grading.py            # print the table
    python benchmarks/grading.py --write    # also replace "Grading speed" in README.md

A submission is a copy of the solution notebooks (every kata graded: the case katas
with their hidden tests, the bot kata with its played hands).  The class is 100 such
copies graded with ``-j 2``.  For scale, the same notebooks are executed with
``jupyter nbconvert --execute`` (which grades nothing).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
README = ROOT / "benchmarks" / "README.md"
HEADING = "## Grading speed"
#: Issue 34's targets: nbconvert for the class / box-gin check for the class, and one
#: submission's whole command (seconds).
RATIO_TARGET = 25.0
SINGLE_TARGET = 1.5


ISOLATION: list[str] = []


def _check(paths: list[Path], jobs: int) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "box_gin.cli", "check", *map(str, paths),
                           "-j", str(jobs), "--no-cache"], check=True, cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "LANG": "C"})
    elapsed = time.perf_counter() - start
    ISOLATION[:] = [line.split(":", 1)[1].strip() for line in done.stderr.splitlines()
                    if line.startswith("isolation:")][:1]
    return elapsed


def _nbconvert(folder: Path) -> float:
    jupyter = Path(sys.executable).with_name("jupyter")
    start = time.perf_counter()
    subprocess.run([str(jupyter), "nbconvert", "--to", "notebook", "--execute",
                    "--output-dir", str(folder / "out"), *map(str, sorted(folder.glob(
                        "*.ipynb")))], check=True, capture_output=True, cwd=folder)
    return time.perf_counter() - start


def measure(students: int = 100, jobs: int = 2, repeats: int = 3) -> dict[str, float]:
    """Seconds: one submission (best of ``repeats``), a class, nbconvert of one."""
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one"
        one.mkdir()
        for notebook in sorted(SOLUTIONS.glob("*.ipynb")):  # English: one student
            shutil.copy(notebook, one)
        single = min(_check([one], jobs) for _ in range(repeats))
        klass = Path(tmp) / "class"
        for i in range(students):
            shutil.copytree(one, klass / f"student{i:03d}")
        whole = _check([klass], jobs)
        executed = min(_nbconvert(one) for _ in range(max(1, repeats - 1)))
    return {"single": single, "class": whole, "nbconvert": executed,
            "students": students, "jobs": jobs, "load": os.getloadavg()[2]}


def isolation() -> str:
    """The isolation the measured runs used, as the checker said it."""
    return ISOLATION[0] if ISOLATION else "?"


def _what() -> str:
    """What a submission holds, from the kit itself."""
    from box_gin.katas import CASE_KATAS, KATAS

    notebooks = len(list(SOLUTIONS.glob("*.ipynb")))
    bots = len(KATAS) - len(CASE_KATAS)
    return (f"the {notebooks} solution notebooks (all {len(KATAS)} katas: {len(CASE_KATAS)} "
            "judged on their public, 100 fixed hidden and 50 fresh hidden tests, the "
            f"{bots} of the bot kata on the hands they play; each notebook's katas run in a "
            "sandboxed child process)")


def table(m: dict[str, float]) -> str:
    """The measurements as the README's section."""
    n, jobs = int(m["students"]), int(m["jobs"])
    per = m["class"] / n
    ratio = m["nbconvert"] * n / jobs / m["class"]
    return "\n".join([
        HEADING,
        "",
        f"`python benchmarks/grading.py` on {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPU(s). A submission is "
        f"{_what()}; \"nbconvert\" merely executes the same notebooks (it grades nothing). "
        f"Isolation in force: {isolation()}.",
        "",
        "| measurement | seconds |",
        "|---|---:|",
        f"| `box-gin check -j {jobs}`, one submission (whole command, best of 3) | "
        f"{m['single']:.2f} |",
        f"| `box-gin check -j {jobs}`, a class of {n} | {m['class']:.1f} |",
        f"| … per submission in the class | {per:.2f} |",
        f"| `jupyter nbconvert --execute`, the same notebooks, once | {m['nbconvert']:.2f} |",
        f"| … for the class of {n}, {jobs} at a time (estimate) | "
        f"{m['nbconvert'] * n / jobs:.1f} |",
        f"| … ratio: nbconvert for the class / `box-gin check` for the class | "
        f"{m['nbconvert'] * n / jobs / m['class']:.1f}x |",
        "",
        f"Load average (15 min) at the end of the run: {m.get('load', 0):.1f}. The targets "
        f"(issue 34): a ratio of at least {RATIO_TARGET:g}x with the isolation in force "
        f"({_met(ratio >= RATIO_TARGET)}), and one submission in at most "
        f"{SINGLE_TARGET:g} s ({_met(m['single'] <= SINGLE_TARGET)}); both sides are "
        "measured in the same run, so a busy machine slows both.",
        "",
    ])


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def write_section(text: str, readme: Path = README) -> None:
    """Replace the "Grading speed" section of the README (or append it)."""
    old = readme.read_text(encoding="utf-8") if readme.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(HEADING)}\n.*?(?=^## |\Z)", re.S | re.M)
    new = pattern.sub(lambda _m: text + "\n", old) if pattern.search(old) else \
        old.rstrip("\n") + "\n\n" + text
    readme.write_text(new, encoding="utf-8")


def main() -> None:
    """Measure, print, and with --write update the README."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    text = table(measure(args.students, args.jobs))
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
