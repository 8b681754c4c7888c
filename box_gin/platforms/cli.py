"""The platforms' subcommands and ``box-gin check``'s ``--roster``/``--lms`` options.

``box_gin.cli`` calls :func:`add_commands` and :func:`add_check_options` while it builds
its parser, :func:`run` before its own commands, and :func:`after_check` once the
gradebook is computed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..i18n import _, ngettext

COMMANDS = ("nbgrader", "gradescope-bundle", "report")
#: Where the solution notebooks are when box-gin runs from its source tree.
SOURCE_SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def add_commands(sub: Any) -> None:
    """Add ``nbgrader``, ``gradescope-bundle`` and ``report`` to ``box-gin``."""
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
    gs = sub.add_parser("gradescope-bundle", help=_("write a Gradescope autograder zip"))
    gs.add_argument("out", type=Path, metavar="OUT.zip")
    gs.add_argument("--wheel", type=Path, metavar="FILE",
                    help=_("put this box-gin wheel in the bundle instead of building one"))
    gs.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS",
                    help=_("wall-clock seconds for each kata's tests (default 20)"))
    gs.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                    help=_("wall-clock seconds for a whole submission, restarts and "
                           "shrinking included (default 60)"))
    rp = sub.add_parser("report", help=_("draw a class report from a gradebook"))
    rp.add_argument("gradebook", type=Path, metavar="GRADEBOOK.json")
    rp.add_argument("--html", type=Path, required=True, metavar="FILE",
                    help=_("write the report as one self-contained HTML page"))
    rp.add_argument("--title", help=_("the report's title"))
    rp.add_argument("--lang", help=_("the language of the feedback (en, fr, hu, uk, id, he)"))


class _LmsAction(argparse.Action):
    """``--lms KIND FILE``, the kind checked before any grading starts."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from .lms import LMS_KINDS

        if values[0] not in LMS_KINDS:
            parser.error(_("--lms: {kind!r} is not an LMS box-gin writes for: choose one of "
                           "{kinds}").format(kind=values[0], kinds=", ".join(LMS_KINDS)))
        setattr(namespace, self.dest, values)


def add_check_options(check: argparse.ArgumentParser) -> None:
    """Add ``--roster``, ``--lms`` and ``--lms-assignment`` to ``box-gin check``."""
    check.add_argument("--roster", type=Path, metavar="FILE",
                       help=_("a CSV mapping submission names to the LMS's identifiers"))
    check.add_argument("--lms", nargs=2, metavar=("canvas|moodle", "FILE"), action=_LmsAction,
                       help=_("write the grades as the CSV Canvas or Moodle imports"))
    check.add_argument("--lms-assignment", default=None, metavar="NAME",
                       help=_("the grade column's name in the LMS (default: box-gin katas)"))


def run(args: argparse.Namespace) -> int | None:
    """Run one of the platforms' commands; None when the command is not one of them."""
    if args.command not in COMMANDS:
        return None
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
    from .gradebook import load_gradebook
    from .report import report_html

    book = load_gradebook(args.gradebook)
    write_atomic(args.html, report_html(book, title=args.title))
    print(_("wrote {path}").format(path=args.html))
    return 0


def before_check(args: argparse.Namespace) -> tuple[list[dict[str, str]] | None, str | None]:
    """Before any grading: the roster ``--roster`` names, read and checked, or the error
    that stops ``box-gin check`` at once (a teacher should not wait for a class to be
    graded to learn that the roster is missing or malformed)."""
    lms = getattr(args, "lms", None)
    roster_path = getattr(args, "roster", None)
    if lms is None and roster_path is None:
        return None, None
    from ..errors import BoxGinError
    from .lms import load_roster

    if lms is None or roster_path is None:
        return None, _("box-gin check: --lms and --roster go together")
    try:
        return load_roster(roster_path), None
    except (BoxGinError, OSError) as exc:
        return None, _("box-gin check: {error}").format(error=exc)


def after_check(args: argparse.Namespace, results: Sequence[dict[str, Any]],
                roster: list[dict[str, str]] | None) -> int:
    """Write the LMS file ``box-gin check --lms`` asked for, from the ``roster`` that
    :func:`before_check` read; the exit status (0 when it was written, or none was asked
    for; 1 when it could not be)."""
    lms = getattr(args, "lms", None)
    if lms is None or roster is None:
        return 0
    from ..checker.safe import visible
    from ..errors import BoxGinError
    from ..files import write_atomic
    from .lms import DEFAULT_ASSIGNMENT, lms_csv

    kind, target = lms[0], Path(lms[1])
    try:
        out = lms_csv(kind, results, roster, args.lms_assignment or DEFAULT_ASSIGNMENT)
        write_atomic(target, out.text)
    except (BoxGinError, OSError) as exc:
        print(_("box-gin check: {error}").format(error=exc), file=sys.stderr)
        return 1
    if out.unknown:
        print(ngettext("Not in the roster, so not in {file} ({n} student): {names}",
                       "Not in the roster, so not in {file} ({n} students): {names}",
                       len(out.unknown)).format(file=target, n=len(out.unknown),
                                                names=", ".join(map(visible, out.unknown))),
              file=sys.stderr)
    if out.missing:
        print(ngettext("In the roster with no submission, written with an empty grade "
                       "({n} student): {names}",
                       "In the roster with no submission, written with an empty grade "
                       "({n} students): {names}", len(out.missing)).format(
            n=len(out.missing), names=", ".join(map(visible, out.missing))), file=sys.stderr)
    if not args.quiet:
        print(_("wrote {path}").format(path=target))
    return 0
