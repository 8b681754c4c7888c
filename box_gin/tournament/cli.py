"""``box-gin tournament PATH``: the class's bots, the reference bots, the leaderboard.

    box-gin tournament submitted/ --json results.json --html leaderboard.html -j 2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _, format_number, ngettext


def add_command(sub: Any) -> None:
    """Add the ``tournament`` subcommand to the ``box-gin`` parser."""
    p = sub.add_parser("tournament", help=_("play the class's bots against each other"))
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                   help=_("a notebook, a .py file, or a folder of submissions"))
    p.add_argument("--matches", type=int, default=10, metavar="N",
                   help=_("deals each group of three bots plays, each six times with the "
                          "seats rotated (default 10)"))
    p.add_argument("--seed", metavar="SECRET",
                   help=_("replay a published tournament from its seed (by default the "
                          "deals come from a fresh secret seed, revealed at the end)"))
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                   help=_("play on N worker processes"))
    p.add_argument("--json", type=Path, metavar="FILE", help=_("write the results as JSON"))
    p.add_argument("--records", type=Path, metavar="FILE",
                   help=_("write every match record, one JSON line each (default: beside "
                          "the JSON results)"))
    p.add_argument("--html", type=Path, metavar="FILE", help=_("write the leaderboard page"))
    p.add_argument("--decision-time", type=float, default=1.0, metavar="SECONDS",
                   help=_("seconds a bot may take for one decision (default 1)"))
    p.add_argument("--game-time", type=float, default=20.0, metavar="SECONDS",
                   help=_("seconds a bot may take in one game (default 20)"))
    p.add_argument("--no-references", action="store_true",
                   help=_("leave the reference bots out"))
    p.add_argument("--isolation", default="auto",
                   choices=("auto", "bubblewrap", "uid", "none"),
                   help=_("how to isolate student code (default: the strongest that "
                          "works here)"))
    p.add_argument("--dask", metavar="ADDRESS",
                   help=_("play the games on the Dask cluster at ADDRESS"))
    p.add_argument("--lang", help=_("the language of the leaderboard (en, fr, hu, uk, id, he)"))
    p.add_argument("-q", "--quiet", action="store_true", help=_("print only errors"))


def entrants(paths: list[Path], with_references: bool = True
             ) -> tuple[list[Any], list[tuple[str, str]]]:
    """:func:`read_entrants`' bots and the submissions that cannot enter."""
    found = read_entrants(paths, with_references)
    return found.bots, found.skipped


@dataclass
class Entries:
    """What :func:`read_entrants` found: the bots, the submissions that cannot enter
    (each with its reason), and what is worth saying about how the paths were read."""

    bots: list[Any] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The learners whose folder is there but empty: they did not hand in.
    missing: list[str] = field(default_factory=list)


def read_entrants(paths: list[Path], with_references: bool = True) -> Entries:
    """The bots under ``paths`` (each submission that defines ``play``), named as
    ``box-gin check`` names them, then the reference bots; and the submissions that
    cannot enter, each with the reason (its files' problems: a file that cannot be read,
    a syntax error and its line; or no ``play`` function)."""
    from ..checker.submissions import (
        BadSubmission,
        defined_names,
        extract_cells,
        find_submissions,
    )
    from .run import Entrant, references

    refs = references(("random_bot", "greedy_bot", "expert_bot")) if with_references else []
    taken = {e.name for e in refs}
    found_entries = Entries()
    out, skipped = found_entries.bots, found_entries.skipped

    def enter(student: str, cells: list[tuple[str, str]], problems: list[str]) -> None:
        name, n = student, 2
        while name in taken:
            name, n = f"{student}-{n}", n + 1
        taken.add(name)
        out.append(Entrant(name, cells=tuple(cells), problems=tuple(problems)))

    # The folders given that hold files and no folder: each file may be a learner's.
    flat = {Path(p).resolve() for p in paths if Path(p).is_dir()
            and not any(c.is_dir() for c in Path(p).iterdir())}
    for sub in find_submissions(paths):
        if not sub.files and not sub.problems:
            found_entries.missing.append(sub.student)
            continue
        bots: list[tuple[Path, list[tuple[str, str]]]] = []
        problems = list(sub.problems)
        for f in sub.files:
            try:
                found = extract_cells(f, sub.data.get(f, b""))
            except BadSubmission as exc:
                problems.append(str(exc))
                continue
            if "play" in defined_names(found):
                bots.append((f, found))
        if not bots:
            reason = "; ".join(problems) or _("it defines no function named play")
            skipped.append((sub.student, reason))
        elif len(bots) > 1 and all(f.resolve().parent in flat for f, _cells in bots):
            # A folder given flat, whose files each define play (a class's files, as an
            # LMS download lays them out): a bot a file, never one bot made of them all.
            for f, found in bots:
                enter(f.stem, found, problems)
            found_entries.notes.append(ngettext(
                "{folder}: {n} file defines play: each is entered as a bot of its own, "
                "named after its file",
                "{folder}: {n} files define play: each is entered as a bot of its own, "
                "named after its file", len(bots)).format(folder=sub.student, n=len(bots)))
        else:  # a learner's folder: its first file that defines play
            enter(sub.student, bots[0][1], problems)
    out.extend(refs)
    return found_entries


def missing_extra(dask: bool) -> str | None:
    """What to install when a library the tournament needs is missing, else None."""
    needs = [("openskill", "tournament")] + ([("distributed", "dask")] if dask else [])
    for module, extra in needs:
        try:
            __import__(module)
        except ImportError as exc:
            return _("box-gin tournament needs the {extra} extra: pip install "
                     "'box-gin[{extra}]' ({error})").format(extra=extra, error=exc)
    return None


def run(args: argparse.Namespace) -> int:
    """Run the tournament the arguments describe; the exit status."""
    missing = missing_extra(bool(args.dask))
    if missing:
        print(missing, file=sys.stderr)
        return 1
    from ..files import write_atomic
    from .core import Budget, commitment, new_secret
    from .report import crash_text, leaderboard_html, write_records
    from .run import Settings
    from .run import run as run_tournament

    found = read_entrants(args.paths, not args.no_references)
    bots, skipped = found.bots, found.skipped
    say = (lambda text: None) if args.quiet else print
    for note in found.notes:
        say(note)
    for name, reason in skipped:
        say(_("{name}: not entered: {reason}").format(name=name, reason=reason))
    for name in found.missing:
        say(_("{name}: not handed in (the folder is empty)").format(name=name))
    if len(bots) < 3:
        print(_("a tournament needs at least three bots"), file=sys.stderr)
        return 2
    secret = args.seed if args.seed is not None else new_secret()
    settings = Settings(deals=max(1, args.matches), seed=secret,
                        budget=Budget(args.decision_time, args.game_time),
                        isolation=args.isolation)
    # The secret's hash, published before the first game: the secret itself only after
    # the last, so that no bot can know a deal, and anyone can check the run afterwards.
    if args.seed is None:
        say(_("The deals come from a secret seed whose SHA-256 is {digest}; the seed is "
              "revealed when the last game is over.").format(digest=commitment(secret)))
    else:
        say(_("The deals come from the seed given (--seed): this replays the tournament "
              "published with it."))
    if args.json:
        write_atomic(args.json, json.dumps(
            {"status": "playing", "settings": {"seed_sha256": commitment(secret)}}, indent=1))
    runner = None
    if args.dask:
        from .distributed import dask_runner

        runner = dask_runner(args.dask)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    # The games played so far, on the terminal (not with -q; gone once the run ends).
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  console=Console(stderr=True), transient=True,
                  disable=args.quiet) as bar:
        task = bar.add_task(_("games"), total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        results = run_tournament(bots, settings, jobs=max(1, args.jobs), runner=runner,
                                 progress=progress)
    data = results.to_dict()
    data["not_entered"] = [{"name": name, "reason": reason} for name, reason in skipped]
    data["not_handed_in"] = list(found.missing)
    if args.json:
        write_atomic(args.json, json.dumps(data, indent=1, ensure_ascii=False))
    records = args.records or (args.json.with_suffix(".records.jsonl") if args.json else None)
    if records:
        write_records(results, records)
    if args.html:
        write_atomic(args.html, leaderboard_html(data))
    say(ngettext("{n} game played", "{n} games played", len(results.games)).format(
        n=len(results.games)))
    if args.seed is None:
        say(_("The seed was {seed} (its SHA-256: {digest}): --seed {seed} replays this "
              "tournament.").format(seed=secret, digest=commitment(secret)))
    for b in results.bots:
        rating, low, high = (format_number(v, 1) for v in (b.rating, b.low, b.high))
        say(f"{b.place:>3}  {b.name:<24} {rating:>6}  [{low:>5} – {high:>5}]  "
            + _("{wins} of {games} won; {illegal} illegal, {timeouts} time-outs, "
                "{crashes} crashes").format(wins=b.wins, games=b.games, illegal=b.illegal,
                                           timeouts=b.timeouts, crashes=b.crashes))
    for b in results.bots:
        if b.crashes:
            say(f"{b.name}: {crash_text(asdict(b))}")
    return 0
