"""A check in the terminal: its progress while it runs, then the class's table, summary
and feedback (what ``box-gin check`` and Gradescope's autograder log print).

Everything a student wrote is shown through :func:`~.safe.visible`: no escape sequence or
bidi control of theirs reaches the terminal.
"""

from __future__ import annotations

import io
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from ..i18n import _, format_number, ngettext, points
from .check import CheckSettings, Outcome, check
from .grader import StudentResult
from .safe import one_line, visible


@dataclass
class Consoles:
    """Where a check speaks: results (``out``), progress (``err``), and errors
    (``fail``, said even when quiet)."""

    out: Console
    err: Console
    fail: Console

    @classmethod
    def make(cls, quiet: bool = False) -> Consoles:
        return cls(Console(quiet=quiet, highlight=False, soft_wrap=True),
                   Console(stderr=True, quiet=quiet, highlight=False, soft_wrap=True),
                   Console(stderr=True, highlight=False, soft_wrap=True))


def warm_up() -> None:
    """Import now everything the terminal will use, before any child exists."""
    warm = Console(file=io.StringIO(), width=80)
    table = Table(title="-")
    table.add_column("-")
    table.add_row(Text("-"))
    warm.print(table)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  console=warm) as bar:
        bar.advance(bar.add_task("-", total=1))


def check_with_progress(settings: CheckSettings, consoles: Consoles, quiet: bool = False
                        ) -> Outcome:
    """:func:`~.check.check`, with the isolation, the submissions taken from the last run
    and a progress bar said on ``consoles.err``."""
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   console=consoles.err, transient=True)
    task = None

    def started(isolation: str, kept: int, todo: int) -> None:
        nonlocal task
        consoles.err.print(Text(_("isolation: {how}").format(how=isolation)))
        if kept:
            consoles.err.print(ngettext("{n} unchanged submission taken from the last run",
                                        "{n} unchanged submissions taken from the last run",
                                        kept).format(n=kept))
        if not quiet and todo >= 2:
            task = bar.add_task(_("grading"), total=todo)
            bar.start()

    def graded(result: StudentResult) -> None:
        if task is not None:
            bar.advance(task)

    try:
        return check(settings, started=started, graded=graded)
    finally:
        bar.stop()


def summary(results: Sequence[StudentResult]) -> list[str]:
    """The class at a glance: mean and median score, the most-failed katas."""
    if not results:
        return []
    top = results[0]["max_score"]
    scores = [r["score"] for r in results]
    lines = [_("mean {mean} of {max}, median {median}").format(
        mean=format_number(statistics.fmean(scores), 1), median=points(statistics.median(scores)),
        max=top)]
    failed: dict[str, int] = {}
    for r in results:
        for name, entry in r["katas"].items():
            if not entry["passed"]:
                failed[name] = failed.get(name, 0) + 1
    worst = sorted(failed.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    if worst:
        lines.append(_("most failed: {katas}").format(katas=", ".join(
            _("{kata} ({n} of {total})").format(kata=k, n=n, total=len(results))
            for k, n in worst)))
    return lines


def show(outcome: Outcome, consoles: Consoles, verbose: bool = False) -> None:
    """The LMS file's notes, the class's table and summary, the feedback (with
    ``verbose``, or for a single student), the files written and the errors."""
    if outcome.lms is not None:
        lms = outcome.lms
        if lms.unknown:
            consoles.fail.print(Text(ngettext(
                "Not in the roster, so not in {file} ({n} student): {names}",
                "Not in the roster, so not in {file} ({n} students): {names}",
                len(lms.unknown)).format(file=lms.path, n=len(lms.unknown),
                                         names=", ".join(map(visible, lms.unknown)))))
        if lms.missing:
            consoles.fail.print(Text(ngettext(
                "In the roster with no submission, written with an empty grade "
                "({n} student): {names}",
                "In the roster with no submission, written with an empty grade "
                "({n} students): {names}", len(lms.missing)).format(
                n=len(lms.missing), names=", ".join(map(visible, lms.missing)))))
        consoles.out.print(Text(_("wrote {path}").format(path=lms.path)))
    ordered = outcome.results
    table = Table(title=_("box-gin check"))
    table.add_column(_("student"))
    table.add_column(_("score"), justify="right")
    table.add_column(_("katas passed"), justify="right")
    table.add_column(_("not passed"))
    for r in ordered:
        failed = [n for n, e in r["katas"].items() if not e["passed"]]
        table.add_row(Text(visible(r["student"])), f"{r['score']}/{r['max_score']}",
                      f"{len(r['katas']) - len(failed)}/{len(r['katas'])}",
                      Text(", ".join(failed) if len(failed) < len(r["katas"]) else _("all")))
    consoles.out.print(table)
    for line in summary(ordered):
        consoles.out.print(Text(line))
    if verbose or len(ordered) == 1:
        print_feedback(consoles.out, ordered)
    for path in outcome.written:
        consoles.out.print(Text(_("wrote {path}").format(path=visible(path))))
    for error in outcome.errors:
        consoles.fail.print(Text(_("box-gin check: {error}").format(error=visible(error))))


def print_feedback(out: Console, ordered: Sequence[StudentResult]) -> None:
    """Each student's problems and failed katas, the student named once."""
    for r in ordered:
        failed = [e for e in r["katas"].values() if not e["passed"]]
        problems = r.get("problems") or []
        if not failed and not problems:
            continue
        out.print(Text(f"{visible(r['student'])}: {r['score']}/{r['max_score']}",
                       style="bold"))
        for problem in problems:
            out.print(Text("  " + one_line(problem)))
        missing = [name for name, e in r["katas"].items() if not e.get("found", True)]
        for entry in failed:
            if entry.get("found", True):
                # Each line as the grader wrote it; student text in it is quoted, visible.
                out.print(Text("\n".join("  " + visible(line)
                                          for line in entry["feedback"].splitlines())))
        if missing and len(missing) == len(r["katas"]):
            out.print(Text("  " + _("no function of any kata was found")))
        elif missing:
            out.print(Text("  " + _("no function found for: {katas}").format(
                katas=", ".join(missing))))
