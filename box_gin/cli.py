"""The ``box-gin`` command: ``check`` grades submissions, ``release`` makes exercises.

    box-gin check submissions/ --csv grades.csv --json grades.json -j 2
    box-gin release solutions exercises
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .i18n import _, ngettext, set_language
from .platforms import cli as platforms_cli

if TYPE_CHECKING:
    from .checker.sandbox import Limits


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="box-gin", description=_("Katas for three-handed Gin Rummy: grade and release."))
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help=_("grade submissions into a gradebook"))
    check.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                       help=_("a notebook, a .py file, or a folder of submissions"))
    check.add_argument("--csv", type=Path, metavar="FILE",
                       help=_("write a gradebook: a row per student, a column per kata"))
    check.add_argument("--json", type=Path, metavar="FILE",
                       help=_("write every student's results and feedback as JSON"))
    check.add_argument("--gradescope", type=Path, metavar="DIR",
                       help=_("write Gradescope's results.json into DIR"))
    check.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                       help=_("grade N submissions at a time"))
    check.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS",
                       help=_("wall-clock seconds for each kata's tests (default 20)"))
    check.add_argument("--lang", help=_("the language of the feedback (en, fr, hu, uk, id, he)"))
    check.add_argument("--no-cache", action="store_true",
                       help=_("grade every submission again, even if it has not changed"))
    check.add_argument("-v", "--verbose", action="store_true",
                       help=_("show the feedback on every failed kata"))
    check.add_argument("-q", "--quiet", action="store_true", help=_("print nothing"))
    platforms_cli.add_check_options(check)
    release = sub.add_parser("release", help=_("make exercise notebooks from solutions"))
    release.add_argument("solutions", type=Path)
    release.add_argument("exercises", type=Path)
    platforms_cli.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if getattr(args, "lang", None):
        set_language(args.lang)
    if args.command == "release":
        return _release(args)
    handled = platforms_cli.run(args)
    if handled is not None:
        return handled
    return _check(args)


def _release(args: argparse.Namespace) -> int:
    from .katas.release import ReleaseError, release

    try:
        written = release(args.solutions, args.exercises)
    except (ReleaseError, OSError) as exc:
        print(_("box-gin release: {error}").format(error=exc), file=sys.stderr)
        return 1
    for path in written:
        print(_("wrote {path}").format(path=path))
    return 0


def _cache_path(args: argparse.Namespace) -> Path | None:
    if args.no_cache:
        return None
    if args.csv is not None:
        return Path(args.csv).with_name(Path(args.csv).name + ".box-gin-cache")
    if args.json is not None:
        return Path(args.json).with_name(Path(args.json).name + ".box-gin-cache")
    if args.gradescope is not None:
        return Path(args.gradescope) / ".box-gin-cache"
    return None


def _limits(seconds: float) -> Limits:
    from .checker.sandbox import Limits

    seconds = max(1.0, seconds)
    return Limits(kata_seconds=seconds, load_seconds=seconds, cell_seconds=seconds / 2,
                  call_seconds=min(2.0, seconds / 4))


def _check(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table
    from rich.text import Text

    from .checker.grader import CHECKER_VERSION, StudentResult, grade_all
    from .checker.report import Cache, write_outputs
    from .checker.submissions import find_submissions
    from .katas.specs import KATAS

    out = Console(quiet=args.quiet, highlight=False)
    err = Console(stderr=True, quiet=args.quiet, highlight=False)
    try:
        subs = find_submissions(list(args.paths))
    except FileNotFoundError as exc:
        err.print(_("box-gin check: {error}").format(error=exc))
        return 2
    if not subs:
        err.print(_("box-gin check: no submissions found"))
        return 2
    salt = CHECKER_VERSION + ";" + ",".join(f"{k.name}:{k.points}:{k.hidden_count}"
                                            for k in KATAS)
    cache = Cache(_cache_path(args))
    results: dict[str, StudentResult] = {}
    todo = []
    digests = {s.student: s.digest(salt) for s in subs}
    for s in subs:
        cached = cache.get(s.student, digests[s.student])
        if cached is not None:
            results[s.student] = cached
        else:
            todo.append(s)
    if len(subs) > len(todo):
        kept = len(subs) - len(todo)
        err.print(ngettext("{n} unchanged submission taken from the last run",
                           "{n} unchanged submissions taken from the last run", kept).format(
            n=kept))
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  console=err, transient=True, disable=args.quiet or len(todo) < 2) as bar:
        task = bar.add_task(_("grading"), total=len(todo))

        def done(result: StudentResult) -> None:
            bar.advance(task)

        for r in grade_all(todo, jobs=args.jobs, done=done, limits=_limits(args.timeout)):
            results[r["student"]] = r
            cache.put(r["student"], digests[r["student"]], r)
    ordered = [results[s.student] for s in subs]
    write_outputs(ordered, csv_path=args.csv, json_path=args.json,
                  gradescope_dir=args.gradescope)
    cache.save()
    lms_status = platforms_cli.after_check(args, ordered)

    table = Table(title=_("box-gin check"))
    table.add_column(_("student"))
    table.add_column(_("score"), justify="right")
    table.add_column(_("katas passed"), justify="right")
    table.add_column(_("not passed"))
    for r in ordered:
        failed = [n for n, e in r["katas"].items() if not e["passed"]]
        table.add_row(Text(r["student"]), f"{r['score']}/{r['max_score']}",
                      f"{len(r['katas']) - len(failed)}/{len(r['katas'])}",
                      Text(", ".join(failed) if len(failed) < len(r["katas"]) else _("all")))
    out.print(table)
    if args.verbose or len(ordered) == 1:
        for r in ordered:
            for entry in r["katas"].values():
                if not entry["passed"]:
                    out.print(Text(r["student"], style="bold"))
                    out.print(Text(entry["feedback"]))
    return lms_status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
