"""The ``box-gin`` command: it parses, calls the library, and shows what came back.

    box-gin check submissions/ --csv grades.csv --json grades.json -j 2
    box-gin release solutions exercises
    box-gin nbgrader course/        box-gin gradescope-bundle autograder.zip
    box-gin report grades.json --html report.html
    box-gin serve --host 0.0.0.0
    box-gin tournament submissions/ --json results.json --html leaderboard.html
    box-gin review match.json --seat Ada --html review.html

Every command is a line of :func:`commands`: a function that adds its parser and one
that runs it.  Grading itself is :func:`box_gin.checker.check.check`; this module only
turns the options into its settings and shows its outcome (:mod:`box_gin.checker.terminal`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .i18n import _, switched


def default_jobs() -> int:
    """How many notebooks ``box-gin check`` grades at a time unless told: the cores this
    process may use, at most 4 (each child may hold 1 GiB)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


def _version() -> str:
    from . import __version__

    return __version__


Adder = Callable[[Any], None]
Runner = Callable[[argparse.Namespace], int]


def commands() -> list[tuple[str, Adder, Runner]]:
    """Every command of ``box-gin``, in the order ``--help`` lists them: its name, what
    adds its parser to the subparsers, and what runs it."""
    from .platforms import cli as platforms
    from .review import cli as review
    from .tournament import cli as tournament

    return [
        ("check", _add_check, _check),
        ("release", _add_release, _release),
        ("nbgrader", platforms.add_nbgrader, platforms.run),
        ("gradescope-bundle", platforms.add_gradescope_bundle, platforms.run),
        ("report", platforms.add_report, platforms.run),
        ("serve", _add_serve, _serve),
        ("tournament", tournament.add_command, tournament.run),
        ("review", review.add_command, review.run),
    ]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="box-gin", description=_("Katas for three-handed Gin Rummy: grade and release."))
    parser.add_argument("--version", action="version", version=f"box-gin {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    for _name, add, _run in commands():
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    runner = next(run for name, _add, run in commands() if name == args.command)
    if not getattr(args, "lang", None):
        return runner(args)
    with switched(args.lang):  # the caller's language given back (main may run in-process)
        return runner(args)


# -- check ------------------------------------------------------------------------------

class _LmsAction(argparse.Action):
    """``--lms KIND FILE``, the kind checked before any grading starts."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from .checker.lms import LMS_KINDS

        if values[0] not in LMS_KINDS:
            parser.error(_("--lms: {kind!r} is not an LMS box-gin writes for: choose one of "
                           "{kinds}").format(kind=values[0], kinds=", ".join(LMS_KINDS)))
        setattr(namespace, self.dest, values)


def _add_check(sub: Any) -> None:
    check = sub.add_parser("check", help=_("grade submissions into a gradebook"))
    check.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                       help=_("a notebook, a .py file, or a folder of submissions"))
    check.add_argument("--csv", type=Path, metavar="FILE",
                       help=_("write a gradebook: a row per student, a column per kata"))
    check.add_argument("--json", type=Path, metavar="FILE",
                       help=_("write every student's results and feedback as JSON"))
    check.add_argument("--gradescope", type=Path, metavar="DIR",
                       help=_("write Gradescope's results.json into DIR"))
    check.add_argument("-j", "--jobs", type=int, default=default_jobs(), metavar="N",
                       help=_("grade N notebooks at a time, a class's or one student's "
                              "(default: the machine's cores, at most 4)"))
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
    check.add_argument("--roster", type=Path, metavar="FILE",
                       help=_("a CSV mapping submission names to the LMS's identifiers"))
    check.add_argument("--lms", nargs=2, metavar=("canvas|moodle", "FILE"), action=_LmsAction,
                       help=_("write the grades as the CSV Canvas or Moodle imports"))
    check.add_argument("--lms-assignment", default=None, metavar="NAME",
                       help=_("the grade column's name in the LMS (default: box-gin katas)"))


def _check(args: argparse.Namespace) -> int:
    from rich.text import Text

    from .checker.check import CheckError, CheckSettings
    from .checker.terminal import Consoles, check_with_progress, show, warm_up

    consoles = Consoles.make(args.quiet)
    warm_up()
    settings = CheckSettings(
        paths=list(args.paths), csv=args.csv, json=args.json, gradescope=args.gradescope,
        lms=None if args.lms is None else (args.lms[0], Path(args.lms[1])),
        roster=args.roster, lms_assignment=args.lms_assignment, jobs=args.jobs,
        timeout=args.timeout, budget=args.budget, seed=args.seed, isolation=args.isolation,
        # The feedback: in --lang, else in each submission's own language (exercises/hu/).
        lang=args.lang, cache=not args.no_cache)
    try:
        outcome = check_with_progress(settings, consoles, args.quiet)
    except CheckError as exc:
        consoles.fail.print(Text(str(exc)))
        return 2
    show(outcome, consoles, verbose=args.verbose)
    return outcome.status


# -- release and serve ------------------------------------------------------------------

def _add_release(sub: Any) -> None:
    release = sub.add_parser("release", help=_("make exercise notebooks from solutions"))
    release.add_argument("solutions", type=Path)
    release.add_argument("exercises", type=Path)


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


def _add_serve(sub: Any) -> None:
    serve = sub.add_parser("serve", help=_("serve the classroom table: three browsers to a "
                                           "game, and the teacher's page"))
    serve.add_argument("--host", default="127.0.0.1",
                       help=_("the address to listen on (default 127.0.0.1, this machine "
                              "only; 0.0.0.0 for the classroom's network)"))
    serve.add_argument("--port", type=int, default=8000, help=_("the port (default 8000)"))
    serve.add_argument("--db", type=Path, default=Path("box-gin-class.db"), metavar="PATH",
                       help=_("the database of the tables and their games (default "
                              "box-gin-class.db)"))


def _serve(args: argparse.Namespace) -> int:
    try:
        from .classroom.server import serve
    except ImportError as exc:
        print(_("box-gin serve needs the serve extra: pip install 'box-gin[serve]' "
                "({error})").format(error=exc), file=sys.stderr)
        return 1
    serve(args.host, args.port, args.db)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
