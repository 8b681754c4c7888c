"""The ``box-gin`` command: ``check`` grades submissions, ``release`` makes exercises,
``serve`` runs the classroom table.

    box-gin check submissions/ --csv grades.csv --json grades.json -j 2
    box-gin release solutions exercises
    box-gin serve --host 0.0.0.0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .i18n import _, format_number, ngettext, points, set_language
from .platforms import cli as platforms_cli

if TYPE_CHECKING:
    from rich.console import Console

    from .checker.grader import StudentResult
    from .checker.sandbox import Limits


def _version() -> str:
    from . import __version__

    return __version__


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="box-gin", description=_("Katas for three-handed Gin Rummy: grade and release."))
    parser.add_argument("--version", action="version", version=f"box-gin {_version()}")
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
    check.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                       help=_("wall-clock seconds for a whole submission, restarts and "
                              "shrinking included (default 60)"))
    check.add_argument("--seed", type=int, metavar="N",
                       help=_("the seed of the fresh hidden tests (default: a new secret "
                              "one, written into the JSON gradebook)"))
    check.add_argument("--isolation", default="auto",
                       choices=("auto", "bubblewrap", "uid", "none"),
                       help=_("how to isolate student code (default: the strongest that "
                              "works here)"))
    check.add_argument("--lang", help=_("the language of the feedback (en, fr, hu, uk, id, he)"))
    check.add_argument("--no-cache", action="store_true",
                       help=_("grade every submission again, even if it has not changed"))
    check.add_argument("-v", "--verbose", action="store_true",
                       help=_("show the feedback on every failed kata"))
    check.add_argument("-q", "--quiet", action="store_true", help=_("print only errors"))
    platforms_cli.add_check_options(check)
    release = sub.add_parser("release", help=_("make exercise notebooks from solutions"))
    release.add_argument("solutions", type=Path)
    release.add_argument("exercises", type=Path)
    platforms_cli.add_commands(sub)
    serve = sub.add_parser("serve", help=_("serve the classroom table: three browsers to a "
                                           "game, and the teacher's page"))
    serve.add_argument("--host", default="127.0.0.1",
                       help=_("the address to listen on (default 127.0.0.1, this machine "
                              "only; 0.0.0.0 for the classroom's network)"))
    serve.add_argument("--port", type=int, default=8000, help=_("the port (default 8000)"))
    serve.add_argument("--db", type=Path, default=Path("box-gin-class.db"), metavar="PATH",
                       help=_("the database of the tables and their games (default "
                              "box-gin-class.db)"))
    from .tournament import cli as tournament_cli

    tournament_cli.add_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if getattr(args, "lang", None):
        set_language(args.lang)
    # check's feedback: in --lang, else in each submission's own language (exercises/hu/).
    args.feedback_lang = getattr(args, "lang", None)
    if args.command == "release":
        return _release(args)
    if args.command == "serve":
        return _serve(args)
    if args.command == "tournament":
        from .tournament import cli as tournament_cli

        return tournament_cli.run(args)
    handled = platforms_cli.run(args)
    if handled is not None:
        return handled
    return _check(args)


def _serve(args: argparse.Namespace) -> int:
    try:
        from .classroom.server import serve
    except ImportError as exc:
        print(_("box-gin serve needs the serve extra: pip install 'box-gin[serve]' "
                "({error})").format(error=exc), file=sys.stderr)
        return 1
    serve(args.host, args.port, args.db)
    return 0


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


def _limits(seconds: float, budget: float) -> Limits:
    from .checker.sandbox import Limits

    seconds = max(1.0, seconds)
    return Limits(kata_seconds=seconds, load_seconds=seconds, cell_seconds=seconds / 2,
                  call_seconds=min(2.0, seconds / 4), budget_seconds=max(1.0, budget))


def _summary(results: Sequence[StudentResult]) -> list[str]:
    """The class at a glance: mean and median score, the most-failed katas."""
    import statistics

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


def _check(args: argparse.Namespace) -> int:
    import io

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table
    from rich.text import Text

    from .checker.grader import CHECKER_VERSION, MAX_FEEDBACK, grade_all, new_seed, start_run
    from .checker.report import Cache, cache_key, write_outputs
    from .checker.safe import visible
    from .checker.sandbox import SandboxError
    from .checker.submissions import NothingToGrade, find_submissions
    from .checker.verdicts import localise
    from .katas.specs import KATAS

    out = Console(quiet=args.quiet, highlight=False, soft_wrap=True)
    err = Console(stderr=True, quiet=args.quiet, highlight=False, soft_wrap=True)
    fail = Console(stderr=True, highlight=False, soft_wrap=True)  # said even with --quiet
    # Everything the run will import, imported now, before any child exists.
    warm = Console(file=io.StringIO(), width=80)
    warm_table = Table(title="-")
    warm_table.add_column("-")
    warm_table.add_row(Text("-"))
    warm.print(warm_table)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  console=warm) as warm_bar:
        warm_bar.advance(warm_bar.add_task("-", total=1))
    try:
        subs = find_submissions(list(args.paths))
    except (FileNotFoundError, NothingToGrade) as exc:
        fail.print(Text(_("box-gin check: {error}").format(error=visible(exc))))
        return 2
    roster, roster_error = platforms_cli.before_check(args)
    if roster_error is not None:
        fail.print(Text(visible(roster_error)))
        return 2
    salt = CHECKER_VERSION + ";" + ",".join(f"{k.name}:{k.points}:{k.hidden_count}:"
                                            f"{k.fresh_count}" for k in KATAS)
    cache_path = _cache_path(args)
    cache = Cache(cache_path, args.seed, cache_key() if cache_path is not None else None)
    seed = args.seed if args.seed is not None else cache.seed
    seed = new_seed() if seed is None else seed
    cache.seed = seed
    try:
        run = start_run(seed=seed, jobs=args.jobs, limits=_limits(args.timeout, args.budget),
                        isolation=args.isolation)
    except SandboxError as exc:
        fail.print(Text(_("box-gin check: {error}").format(error=exc)))
        return 2
    isolation = run.sandbox.describe()
    err.print(Text(_("isolation: {how}").format(how=isolation)))
    results: dict[str, StudentResult] = {}
    todo = []
    digests = {s.key: s.digest(salt) for s in subs}
    for s in subs:
        cached = cache.get(s.key, digests[s.key])
        if cached is not None:
            results[s.key] = cached
        else:
            todo.append(s)
    if len(subs) > len(todo):
        kept = len(subs) - len(todo)
        err.print(ngettext("{n} unchanged submission taken from the last run",
                           "{n} unchanged submissions taken from the last run", kept).format(
            n=kept))
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      console=err, transient=True,
                      disable=args.quiet or len(todo) < 2) as bar:
            task = bar.add_task(_("grading"), total=len(todo))

            def done(result: StudentResult) -> None:
                bar.advance(task)

            for s, r in zip(todo, grade_all(todo, jobs=args.jobs, done=done, run=run),
                            strict=True):
                results[s.key] = r
                cache.put(s.key, digests[s.key], r)
    finally:
        run.sandbox.close()  # every child gone before a gradebook file is written
    ordered = [results[s.key] for s in subs]
    localise(ordered, getattr(args, "feedback_lang", None), MAX_FEEDBACK)
    written, errors = write_outputs(ordered, seed=seed, isolation=isolation,
                                    csv_path=args.csv, json_path=args.json,
                                    gradescope_dir=args.gradescope)
    cache_error = cache.save()
    if cache_error:
        errors.append(cache_error)
    lms_status = platforms_cli.after_check(args, ordered, roster)

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
    out.print(table)
    for line in _summary(ordered):
        out.print(Text(line))
    if args.verbose or len(ordered) == 1:
        _print_feedback(out, ordered)
    for path in written:
        out.print(Text(_("wrote {path}").format(path=visible(path))))
    for error in errors:
        fail.print(Text(_("box-gin check: {error}").format(error=visible(error))))
    return 1 if errors else lms_status


def _print_feedback(out: Console, ordered: Sequence[StudentResult]) -> None:
    """Each student's problems and failed katas, the student named once."""
    from rich.text import Text

    from .checker.safe import one_line, visible

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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
