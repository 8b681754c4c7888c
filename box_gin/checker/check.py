"""Grading a class: the one call behind ``box-gin check``, Gradescope's autograder and any
program that grades (:func:`check`).

Read top to bottom, it is the whole flow, each step a floor below:

1. find the submissions (:mod:`.submissions`) and read the roster, if an LMS file is
   asked for (:mod:`.lms`), before any grading: a teacher learns at once that a path or
   the roster is wrong, not after the class is graded;
2. take unchanged submissions from the last run's cache and settle the seed
   (:mod:`.report`'s :class:`~.report.Cache`: the cache's seed, unless one is given);
3. start the run (:func:`.grader.start_run`: the sandbox probed, the cases ready) and
   grade the rest (:func:`.grader.grade_all`), the sandbox closed before any file is
   written;
4. put each student's feedback into their language (:func:`.verdicts.localise`);
5. write every output asked for (:func:`.report.write_outputs`, :func:`.lms.lms_csv`),
   each on its own: a file that cannot be written is an error, the others are written.

It prints nothing.  What it did comes back as an :class:`Outcome` for the command line
(:mod:`.terminal`) or any other caller to show; what stops it before any grading is a
:class:`CheckError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BoxGinError
from ..files import write_atomic
from ..i18n import _
from ..katas.specs import KATAS
from .caps import Limits, SandboxError
from .grader import CHECKER_VERSION, MAX_FEEDBACK, StudentResult, grade_all, new_seed, start_run
from .lms import DEFAULT_ASSIGNMENT, lms_csv, load_roster
from .outputs import Cache, cache_key, write_outputs
from .safe import visible
from .submissions import NothingToGrade, find_submissions
from .verdicts import localise


class CheckError(BoxGinError):
    """What stops a check before any grading: no submission under a path, a roster that
    is missing or malformed, no sandbox to be had.  Its message is the line to show."""


@dataclass(frozen=True)
class CheckSettings:
    """What to grade, how, and what to write."""

    paths: Sequence[Path]
    #: The gradebooks: a row per student and a column per kata; every result as JSON.
    csv: Path | None = None
    json: Path | None = None
    #: A folder for Gradescope's results.json (one, or one a student).
    gradescope: Path | None = None
    #: An LMS's CSV (``("canvas" or "moodle", path)``), from the ``roster``'s identifiers.
    lms: tuple[str, Path] | None = None
    roster: Path | None = None
    lms_assignment: str | None = None
    #: Submissions graded at a time.
    jobs: int = 1
    #: Wall-clock seconds for each kata's tests, and for a whole submission.
    timeout: float = 20.0
    budget: float = 60.0
    #: The seed of the fresh hidden tests (None: the cache's, else a new secret one).
    seed: int | None = None
    isolation: str = "auto"
    #: The feedback's language (None: each submission's own).
    lang: str | None = None
    #: Take unchanged submissions from the last run (kept beside the first output).
    cache: bool = True


@dataclass(frozen=True)
class LmsFile:
    """The LMS file written: where, the students it could not hold (not in the roster)
    and the roster's students with no submission (written with an empty grade)."""

    path: Path
    unknown: list[str]
    missing: list[str]


@dataclass
class Outcome:
    """What a check did."""

    #: Every student's result, in the order the submissions were found.
    results: list[StudentResult]
    seed: int
    #: The isolation in force, in words (:meth:`~.sandbox.Sandbox.describe`).
    isolation: str
    #: How many results were taken from the last run.
    kept: int
    written: list[Path] = field(default_factory=list)
    #: The outputs that could not be written, a line each.
    errors: list[str] = field(default_factory=list)
    lms: LmsFile | None = None

    @property
    def status(self) -> int:
        """The exit status: 0, or 1 when an output could not be written."""
        return 1 if self.errors else 0


def limits_of(timeout: float, budget: float) -> Limits:
    """The children's limits for ``--timeout`` and ``--budget``: a kata's tests may take
    ``timeout`` CPU seconds, a cell half of it and one call 2 s (a quarter of a shorter
    timeout, a tenth of a longer one than 20 s); each has its clock's safety above it
    (``katas.wire.wall_seconds``), so all follow the option.

    >>> [limits_of(t, 60).call_seconds for t in (4, 20, 60)]
    [1.0, 2.0, 6.0]
    """
    seconds = max(1.0, timeout)
    return Limits(kata_seconds=seconds, load_seconds=seconds, cell_seconds=seconds / 2,
                  call_seconds=min(seconds / 4, max(2.0, seconds / 10)),
                  budget_seconds=max(1.0, budget))


def cache_path(settings: CheckSettings) -> Path | None:
    """Where the run's cache is kept: beside the first output asked for (None: none)."""
    if not settings.cache:
        return None
    if settings.csv is not None:
        return settings.csv.with_name(settings.csv.name + ".box-gin-cache")
    if settings.json is not None:
        return settings.json.with_name(settings.json.name + ".box-gin-cache")
    if settings.gradescope is not None:
        return settings.gradescope / ".box-gin-cache"
    return None


def read_roster(settings: CheckSettings) -> list[dict[str, str]] | None:
    """The roster an LMS file needs, read and checked (None: no LMS file asked for)."""
    if settings.lms is None and settings.roster is None:
        return None
    if settings.lms is None or settings.roster is None:
        raise CheckError(_("box-gin check: --lms and --roster go together"))
    try:
        return load_roster(settings.roster)
    except (BoxGinError, OSError) as exc:
        raise CheckError(_("box-gin check: {error}").format(error=exc)) from None


def check(settings: CheckSettings, *,
          started: Callable[[str, int, int], None] | None = None,
          graded: Callable[[StudentResult], None] | None = None) -> Outcome:
    """Grade the submissions under ``settings.paths`` and write what ``settings`` asks
    for.  ``started(isolation, kept, to_grade)`` is called once the sandbox is ready,
    ``graded(result)`` as each submission is graded.  Raises :class:`CheckError` before
    any grading when the run cannot start."""
    try:
        subs = find_submissions(list(settings.paths))
    except (FileNotFoundError, NothingToGrade) as exc:
        raise CheckError(_("box-gin check: {error}").format(error=visible(exc))) from None
    roster = read_roster(settings)
    salt = CHECKER_VERSION + ";" + ",".join(f"{k.name}:{k.points}:{k.hidden_count}:"
                                            f"{k.fresh_count}" for k in KATAS)
    where = cache_path(settings)
    cache = Cache(where, settings.seed, cache_key() if where is not None else None)
    seed = settings.seed if settings.seed is not None else cache.seed
    seed = new_seed() if seed is None else seed
    cache.seed = seed
    try:
        run = start_run(seed=seed, jobs=settings.jobs,
                        limits=limits_of(settings.timeout, settings.budget),
                        isolation=settings.isolation)
    except SandboxError as exc:
        raise CheckError(_("box-gin check: {error}").format(error=exc)) from None
    isolation = run.sandbox.describe()
    results: dict[str, StudentResult] = {}
    digests = {s.key: s.digest(salt) for s in subs}
    todo = []
    for s in subs:
        cached = cache.get(s.key, digests[s.key])
        if cached is not None:
            results[s.key] = cached
        else:
            todo.append(s)
    if started is not None:
        started(isolation, len(subs) - len(todo), len(todo))
    try:
        for s, r in zip(todo, grade_all(todo, jobs=settings.jobs, done=graded, run=run),
                        strict=True):
            results[s.key] = r
            cache.put(s.key, digests[s.key], r)
    finally:
        run.sandbox.close()  # every child gone before a gradebook file is written
    ordered = [results[s.key] for s in subs]
    localise(ordered, settings.lang, MAX_FEEDBACK)
    written, errors = write_outputs(ordered, seed=seed, isolation=isolation,
                                    csv_path=settings.csv, json_path=settings.json,
                                    gradescope_dir=settings.gradescope)
    cache_error = cache.save()
    if cache_error:
        errors.append(cache_error)
    outcome = Outcome(ordered, seed, isolation, len(subs) - len(todo), written, errors)
    if settings.lms is not None and roster is not None:
        kind, target = settings.lms[0], Path(settings.lms[1])
        try:
            out = lms_csv(kind, ordered, roster,
                          settings.lms_assignment or DEFAULT_ASSIGNMENT)
            write_atomic(target, out.text)
        except (BoxGinError, OSError) as exc:
            outcome.errors.append(str(exc))
        else:
            outcome.lms = LmsFile(target, out.unknown, out.missing)
    return outcome
