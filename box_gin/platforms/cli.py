"""The platforms' commands: ``box-gin nbgrader``, ``gradescope-bundle`` and ``report``
(each an adder of its parser and :func:`run`, in ``box_gin.cli.commands``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..i18n import _

COMMANDS = ("nbgrader", "gradescope-bundle", "report")
#: Where the solution notebooks are when box-gin runs from its source tree.
SOURCE_SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def add_nbgrader(sub: Any) -> None:
    """Add ``box-gin nbgrader``."""
    nb = sub.add_parser("nbgrader", help=_("lay out an nbgrader course with the katas"))
    nb.add_argument("course", type=Path, metavar="COURSE_DIR")
    nb.add_argument("--solutions", type=Path, metavar="DIR",
                    help=_("the solution notebooks (default: solutions/)"))
    nb.add_argument("--assignment", default="katas", metavar="NAME",
                    help=_("the assignment's name in nbgrader (default: katas)"))
    nb.add_argument("--course-id", default="box-gin", metavar="ID",
                    help=_("nbgrader's course id (default: box-gin)"))
    nb.add_argument("--force", action="store_true",
                    help=_("replace the assignment's source and the configuration"))


def add_gradescope_bundle(sub: Any) -> None:
    """Add ``box-gin gradescope-bundle``."""
    gs = sub.add_parser("gradescope-bundle", help=_("write a Gradescope autograder zip"))
    gs.add_argument("out", type=Path, metavar="OUT.zip")
    gs.add_argument("--wheel", type=Path, metavar="FILE",
                    help=_("put this box-gin wheel in the bundle instead of building one"))
    gs.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS",
                    help=_("wall-clock seconds for each kata's tests (default 20)"))
    gs.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                    help=_("wall-clock seconds for a whole submission, restarts and "
                           "shrinking included (default 60)"))


def add_report(sub: Any) -> None:
    """Add ``box-gin report``."""
    rp = sub.add_parser("report", help=_("draw a class report from a gradebook"))
    rp.add_argument("gradebook", type=Path, metavar="GRADEBOOK.json")
    rp.add_argument("--html", type=Path, required=True, metavar="FILE",
                    help=_("write the report as one self-contained HTML page"))
    rp.add_argument("--title", help=_("the report's title"))
    rp.add_argument("--lang", help=_("the language of the feedback (en, fr, hu, uk, id, he)"))


def run(args: argparse.Namespace) -> int:
    """Run one of the platforms' commands (:data:`COMMANDS`)."""
    from ..errors import BoxGinError

    try:
        if args.command == "nbgrader":
            return _nbgrader(args)
        if args.command == "gradescope-bundle":
            return _gradescope(args)
        return _report(args)
    except (BoxGinError, OSError) as exc:
        print(_("box-gin {command}: {error}").format(command=args.command, error=exc),
              file=sys.stderr)
        return 1


def _nbgrader(args: argparse.Namespace) -> int:
    from .nbgrader import make_course, next_steps

    solutions = args.solutions
    if solutions is None:
        solutions = Path("solutions") if Path("solutions").is_dir() else SOURCE_SOLUTIONS
    written = make_course(args.course, solutions, args.assignment, args.course_id,
                          force=args.force)
    for path in written:
        print(_("wrote {path}").format(path=path))
    if not any(p.name == "nbgrader_config.py" for p in written):
        print(_("kept the existing {path} (--force replaces it)").format(
            path=args.course / "nbgrader_config.py"))
    for line in next_steps(args.course, args.assignment):
        print(line)
    return 0


def _gradescope(args: argparse.Namespace) -> int:
    from .gradescope import write_bundle

    names = write_bundle(args.out, wheel=args.wheel, timeout=args.timeout,
                         budget=args.budget)
    print(_("wrote {path}: {files}").format(path=args.out, files=", ".join(names)))
    return 0


def _report(args: argparse.Namespace) -> int:
    from ..files import write_atomic
    from .class_report import report_html
    from .gradebook import load_gradebook

    book = load_gradebook(args.gradebook)
    write_atomic(args.html, report_html(book, title=args.title))
    print(_("wrote {path}").format(path=args.html))
    return 0
