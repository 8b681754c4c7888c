"""Grade submissions: every kata of every student, judged here against the engine.

A student's result is plain data, an entry of the gradebook's ``students`` list::

    {"student": "ada", "key": "ada", "score": 30, "max_score": 36, "problems": [],
     "language": null,
     "katas": {"best_melds": {"passed": true, "points": 4, "feedback": "...",
                              "failure": null, "verdict": {...}}}}

Each kata's ``verdict`` is structured data (:mod:`box_gin.checker.verdicts`): the
outcome, the input, what the function returned or raised, the expected answer, the
rule's reason and the note's message id and values.  ``feedback`` is that verdict
rendered in one language; every output renders the verdict again in its own.  Text from
the student's process is only ever a quoted value in it, never a line of its own.

Everything is decided in this process: the cases (the public ones, the fixed hidden
ones and a fresh draw from the run's secret seed), their expected answers (computed
before the first child starts) and the verdicts.  A child only ever sends back what the
learner's functions returned, and that is read as untrusted data.  The bot kata's
functions (``play``, ``advise``) are graded by playing: the hands are played here and
the child, a bot's child with the engine staged, is asked for each decision
(:mod:`box_gin.checker.bots`).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..cards import Card, full_deck
from ..i18n import _
from ..katas.core import (
    Args,
    Failure,
    Kata,
    KataResult,
    Outcome,
    Raised,
    Returned,
    TimedOut,
    call_text,
    gone_text,
    shrink_failure,
)
from ..katas.specs import KATAS
from ..katas.specs.nb7_bots import BotKata
from ..katas.wire import MAX_DEPTH, Opaque, decode, encode
from .bots import BOT_CHILD, OutOfTime, bot_result, bot_sandbox, child_setup, grade_bot
from .caps import Limits
from .protocol import Child, ChildGone, Ready
from .safe import one_line, quoted, type_name, visible
from .sandbox import Sandbox, harden_grader, open_sandbox
from .submissions import BadSubmission, Submission, defined_names, engine_imports, extract_cells
from .verdicts import Note, safe_problem, verdict_of, verdict_text

#: Changes whenever grading could give a different result: part of the rerun cache key.
CHECKER_VERSION = "5"
StudentResult = dict[str, Any]
#: The longest text from a child kept anywhere (a string in an answer, a message).
MAX_TEXT = 300
#: The longest feedback on one kata, characters.
MAX_FEEDBACK = 4000
#: Shrinking rounds for a hidden counterexample.
SHRINK_ROUNDS = 20

_CARD_BY_TEXT = {repr(c): c for c in full_deck()}


def new_seed() -> int:
    """A fresh secret seed for a grading run."""
    return secrets.randbelow(2**63)


_CONTROLS = {c: "\ufffd" for c in [*range(0, 9), *range(11, 32), *range(127, 160)]}


def clean_text(value: object, limit: int = MAX_TEXT) -> str:
    """Text from a child made safe to print and store: valid UTF-8, no control characters
    but newlines and tabs (no terminal escapes), capped at ``limit`` characters."""
    text = value if isinstance(value, str) else str(type(value).__name__)
    if len(text) <= limit and text.isascii() and text.isprintable():
        return text  # the common case, checked in C
    if len(text) > limit:
        text = text[:limit] + "…"
    text = text.encode("utf-8", "replace").decode("utf-8", "replace")
    return text.translate(_CONTROLS)


def _plain(data: Any, depth: int = 0) -> Any:
    """A child's decoded JSON, with every string cleaned and nesting bounded."""
    if depth > MAX_DEPTH + 4:
        return {"$repr": "..."}
    if isinstance(data, str):
        cleaned = clean_text(data, 4 * MAX_TEXT)
        return cleaned if cleaned == data else {"$repr": repr(cleaned)}
    if isinstance(data, bool) or data is None:
        return data
    if isinstance(data, int):
        return data if abs(data) < 2**63 else {"$repr": "a very large number"}
    if isinstance(data, float):
        return {"$repr": repr(data)}
    if isinstance(data, list):
        return [_plain(d, depth + 1) for d in data[:2001]]
    if isinstance(data, dict):
        return {clean_text(k, 40): _plain(v, depth + 1) for k, v in list(data.items())[:2001]}
    return {"$repr": "?"}


def _card_of(text: str) -> Any:
    card = _CARD_BY_TEXT.get(text)
    return card if card is not None else Opaque(repr(clean_text(text, 20)))


def decode_outcome(data: Any, params: Sequence[str] = ()) -> Outcome:
    """An outcome as the child sent it, checked: anything malformed is a failure.
    ``params``: the kata's parameter names, to name an argument changed in place."""
    try:
        raw = data.get("raised") if isinstance(data, dict) else None
        # Read before cleaning too: a float is made a text there.
        timeout = data.get("timeout") if isinstance(data, dict) else None
        data = _plain(data)
        if isinstance(data, dict) and "ok" in data:
            changed = data.get("changed")
            names: tuple[str, ...] = ()
            if isinstance(changed, list) and changed:
                names = tuple(params[i] if isinstance(i, int) and 0 <= i < len(params)
                              else "?" for i in changed[:8])
            return Returned(decode(data["ok"], card_of=_card_of), names)
        if isinstance(data, dict) and isinstance(data.get("raised"), list) and len(
                data["raised"]) == 3:
            name, value_error, _message = data["raised"]
            # The student's message is a quoted value on one line, never lines of its own
            # (read before cleaning: quoted() shows its control characters as escapes).
            message = raw[2] if isinstance(raw, list) and len(raw) == 3 else ""
            text = message[:4 * MAX_TEXT] if isinstance(message, str) else ""
            return Raised(type_name(name), value_error is True, quoted(text) if text else "")
        if isinstance(data, dict) and "timeout" in data:
            return TimedOut(float(timeout) if isinstance(timeout, int | float) and not
                            isinstance(timeout, bool) and 0 <= timeout < 1e6 else 0.0)
    except (ValueError, TypeError, RecursionError, KeyError):
        pass
    return Raised("ProtocolError", False, _("the answer could not be read"))


@dataclass
class Run:
    """One grading run: its seed, its sandbox, its limits and every case it judges."""

    seed: int
    sandbox: Sandbox
    limits: Limits = field(default_factory=Limits)
    katas: Sequence[Kata] = KATAS
    #: kata name -> (cases, their expected answers), computed before any child starts.
    cases: dict[str, tuple[list[Args], list[Any]]] = field(default_factory=dict)
    #: kata name -> the cases as sent on the wire (encoded once for the whole class).
    encoded: dict[str, list[Any]] = field(default_factory=dict)
    #: The sandbox of the bots' children (the engine staged), made when first needed.
    _bots: Sandbox | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def prepare(self) -> None:
        """Draw every case and compute every expected answer, here, now."""
        for kata in self.katas:
            if isinstance(kata, BotKata):
                continue  # graded by playing: its hands come from the seed, as it plays
            if kata.name not in self.cases:
                cases = kata.graded_cases(self.seed)
                self.cases[kata.name] = (cases, [kata.expected(a) for a in cases])
                self.encoded[kata.name] = [_encode(a) for a in cases]


    def bot_sandbox(self) -> Sandbox:
        """The sandbox of a bot's child: this run's, with the engine staged (under the
        run's stage, removed with it)."""
        with self._lock:
            if self._bots is None:
                self._bots = bot_sandbox(self.sandbox)
            return self._bots


def max_score(katas: Sequence[Kata] = KATAS) -> int:
    """The points of all the katas."""
    return sum(k.points for k in katas)


def _failure_entry(result: KataResult) -> dict[str, Any] | None:
    f = result.failure
    if f is None:
        return None
    return {"public": f.public, "size": result.kata.size(f.args),
            "call": call_text(result.kata, f.args)}


def _kata_entry(result: KataResult, found: bool = True, note: Note | None = None
                ) -> dict[str, Any]:
    verdict = verdict_of(result, note, found)
    return {"passed": result.passed, "points": result.points, "found": found,
            "feedback": verdict_text(verdict, MAX_FEEDBACK), "failure": _failure_entry(result),
            "verdict": verdict}


def _preferred(kata: Kata, files: list[Path]) -> list[Path]:
    """The files in which to look for a kata's function: its own notebook's first."""
    prefix = f"{kata.notebook:02d}"
    return sorted(files, key=lambda f: (not f.name.startswith(prefix), str(f)))


def _why_id(exc: ChildGone) -> str:
    return {"timeout": "timeout", "the child exited": "exited",
            "the child sent too much": "too_much"}.get(str(exc), "protocol")


def _why(exc: ChildGone) -> str:
    return gone_text(_why_id(exc))


def grade_file(path: Path, cells: list[tuple[str, str]], katas: Sequence[Kata], run: Run,
               budget: float, notes: dict[str, Note] | None = None
               ) -> tuple[dict[str, KataResult], list[str]]:
    """Grade ``katas`` in the file ``path`` (its code ``cells``); and the file's problems.

    ``budget`` is the file's deadline (``time.monotonic``): nothing runs after it.
    ``notes`` receives each kata's note as a message id and its values.
    """
    notes = {} if notes is None else notes
    results: dict[str, KataResult] = {}
    problems: list[str] = []
    pending = list(katas)
    # The bot kata's functions run in a bot's child (the engine staged), asked a decision
    # at a time; every other kata in a kata's child, on its cases.
    bots = [k for k in katas if isinstance(k, BotKata)]
    if bots and len(bots) != len(katas):
        raise ValueError("grade a file's bot katas and its other katas apart")
    skip: set[int] = set()
    request = 0
    seen_ready = False
    for _attempt in range(len(katas) + min(len(cells), 8) + 2):
        if not pending:
            break
        if time.monotonic() >= budget:
            break
        setup = {"cells": cells, "skip": sorted(skip), "functions": [k.name for k in pending],
                 "cell_seconds": run.limits.cell_seconds,
                 "hide": sorted({h for k in pending for h in k.hide})}
        box = run.sandbox
        try:
            if bots:
                box = run.bot_sandbox()
                child = Child(box, {**setup, **child_setup(bots)}, run.limits, budget,
                              script=BOT_CHILD)
            else:
                child = Child(run.sandbox, setup, run.limits, budget)
        except ChildGone as exc:
            problems.append(_("{file}: could not be run ({why})").format(
                file=visible(path.name), why=_why(exc)))
            break
        try:
            try:
                ready = child.wait_ready()
            except ChildGone as exc:
                cell = child.current_cell
                if cell is not None and 0 <= cell < len(cells) and cell not in skip:
                    skip.add(cell)
                    problems.append(_("{cell}: stopped the run ({why}); it was skipped").format(
                        cell=cells[cell][0], why=_why(exc)))
                    continue
                problems.append(_("{file}: could not be run ({why})").format(
                    file=visible(path.name), why=_why(exc)))
                break
            said = Ready.read(_plain(ready), MAX_TEXT)
            if not seen_ready:
                seen_ready = True
                problems.extend(said.errors)
            defined, blocked = said.functions, list(said.blocked)
            for kata in list(pending):
                pending.remove(kata)
                if kata.name not in defined:
                    continue
                request += 1
                try:
                    if isinstance(kata, BotKata):
                        results[kata.name], alive = _grade_bot(child, box, kata, run, notes)
                        if not alive:
                            break  # a fresh child for the katas left
                        continue
                    results[kata.name] = _grade_kata(child, kata, request, blocked, run,
                                                     notes)
                except OutOfTime:
                    note = Note("out_of_time", {"seconds": f"{run.limits.budget_seconds:g}"})
                    notes[kata.name] = note
                    results[kata.name] = KataResult(kata, False, hidden=True, note=note.text())
                    break  # the katas left are out of time too
                except ChildGone as exc:
                    note = Note("stopped", {"why": _why_id(exc)})
                    notes[kata.name] = note
                    results[kata.name] = KataResult(kata, False, note=note.text(), hidden=True)
                    break  # a fresh child for the katas left
                except Exception as exc:
                    # Our own judging tripped on a hostile value: this kata fails, alone.
                    note = Note("judge_failed", {"error": type(exc).__name__})
                    notes[kata.name] = note
                    results[kata.name] = KataResult(kata, False, note=note.text(), hidden=True)
        finally:
            child.close()
    for kata in pending:
        if kata.name not in results:
            note = Note("out_of_time", {"seconds": f"{run.limits.budget_seconds:g}"})
            notes[kata.name] = note
            results[kata.name] = KataResult(kata, False, hidden=True, note=note.text())
    return results, problems


def _grade_bot(child: Child, box: Sandbox, kata: BotKata, run: Run,
               notes: dict[str, Note]) -> tuple[KataResult, bool]:
    """Grade a bot kata's function by playing its hands, the child asked for each
    decision; the result, and whether the child can still be asked."""
    legality, alive = grade_bot(child, box, kata, run.seed)
    result, fault = bot_result(kata, legality)
    if fault is not None:
        notes[kata.name] = Note("bot_fault", fault)
        result.note = notes[kata.name].text()
    return result, alive


def safe_judge_cases(kata: Kata, cases: Sequence[Args], outcomes: Sequence[Outcome],
                     expected: Sequence[Any], *, public: int = 0) -> list[Failure]:
    """:func:`judge_cases`, each case judged on its own: a judge that raises on an
    answer of a type it does not expect fails that case with the reason said."""
    out = []
    for i, (args, outcome) in enumerate(zip(cases, outcomes, strict=True)):
        why = safe_problem(kata, args, expected[i], outcome)
        if why is not None:
            out.append(Failure(args, outcome, expected[i], why, public=i < public))
    return out


def _grade_kata(child: Child, kata: Kata, request: int, blocked: list[str],
                run: Run, notes: dict[str, Note]) -> KataResult:
    cases, expected = run.cases[kata.name]
    answer = child.run(request, kata.name, list(kata.hide), run.encoded[kata.name])
    outcomes = [decode_outcome(o, kata.params) for o in answer["outcomes"]]
    more = answer.get("blocked")
    if isinstance(more, list):
        blocked = blocked + [one_line(b, 80) for b in more[:20]
                             if isinstance(b, str) and b not in blocked]
    n_public = len(kata.public)
    failures = safe_judge_cases(kata, cases, outcomes, expected, public=n_public)
    note = None
    if blocked:
        notes[kata.name] = Note("blocked", {"names": sorted(set(blocked))})
        note = notes[kata.name].text()
    if not failures:
        return KataResult(kata, True, n_public, len(cases) - n_public, True)
    first: Failure = min(failures, key=lambda f: (kata.size(f.args), not f.public))
    # Public failures are shrunk too (they stay marked public).
    counter = [request * 1000]

    def oracle(batch: Sequence[Args]) -> list[Outcome]:
        counter[0] += 1
        reply = child.run(counter[0], kata.name, list(kata.hide),
                          [_encode(a) for a in batch])
        return [decode_outcome(o, kata.params) for o in reply["outcomes"]]

    with suppress(ChildGone, ValueError, TypeError, KeyError, AttributeError, IndexError,
                  RecursionError, OverflowError):  # a judge that trips keeps the first
        first = shrink_failure(kata, first, oracle, rounds=SHRINK_ROUNDS)
    return KataResult(kata, False, n_public, len(cases) - n_public, True, first, note)


def _encode(args: Args) -> Any:
    return encode(list(args), card_type=Card, card_text=repr)


def assign(katas: Sequence[Kata], cells: dict[Path, list[tuple[str, str]]]
           ) -> dict[Path, list[Kata]]:
    """Each kata in one file only: the preferred one among those that define it.

    A name a file only imports from the kit (``from box_gin.melds import best_melds`` in
    the bot kata's notebook) defines that kata in the kata's own notebook alone, where
    the learner is told why the import fails; elsewhere it is no answer to grade."""
    names = {f: defined_names(c) for f, c in cells.items()}
    engine = {f: engine_imports(c) for f, c in cells.items()}
    out: dict[Path, list[Kata]] = {f: [] for f in cells}
    for kata in katas:
        own = f"{kata.notebook:02d}"
        having = [f for f in _preferred(kata, list(cells)) if kata.name in names[f]
                  and (kata.name not in engine[f] or f.name.startswith(own))]
        if having:
            out[having[0]].append(kata)
    return out


class Grading:
    """One student's submission being graded: its files' cells read, each kata assigned
    to a file, and the work cut into tasks (:meth:`tasks`: a file's group of katas
    each, the bot kata's first, the longest), which may run side by side; the result
    once all are done (:meth:`result`).

    Each file holding katas has the run's budget of its own (a notebook's looping cell
    cannot spend another notebook's time); the whole submission at most that budget
    times the number of kata notebooks, from its first task's start."""

    def __init__(self, sub: Submission, run: Run) -> None:
        self.sub, self.run = sub, run
        self.problems: list[str] = list(sub.problems)
        self.notes: dict[str, Note] = {}
        self.results: dict[str, KataResult] = {}
        self._deadline: float | None = None
        self._lock = threading.Lock()
        self.cells: dict[Path, list[tuple[str, str]]] = {}
        for f in sub.files:
            try:
                self.cells[f] = extract_cells(f, sub.data.get(f, b""))
            except BadSubmission as exc:
                self.problems.append(str(exc))
        self.groups: list[tuple[Path, list[Kata]]] = []
        for f, katas in assign(run.katas, self.cells).items():
            cases = [k for k in katas if not isinstance(k, BotKata)]
            # Katas whose answer is part of what a learner may use (Card.value...) run in
            # a child of their own, where that part was removed before any student code
            # ran; the bot kata's in a bot's child, where the engine is.
            bots: list[Kata] = [k for k in katas if isinstance(k, BotKata)]
            for group in ([k for k in cases if not k.hide], [k for k in cases if k.hide],
                          bots):
                if group:
                    self.groups.append((f, group))
        #: Each group's problems, kept in the groups' order whatever order they ran in.
        self._problems: list[list[str]] = [[] for _ in self.groups]

    def tasks(self) -> list[Callable[[], None]]:
        """A task for each file's group of katas, the bot kata's first (the longest)."""
        order = sorted(range(len(self.groups)),
                       key=lambda i: not isinstance(self.groups[i][1][0], BotKata))
        return [partial(self._grade, i) for i in order]

    def _grade(self, index: int) -> None:
        f, katas = self.groups[index]
        run = self.run
        with self._lock:
            if self._deadline is None:
                notebooks = max(1, len({k.notebook for k in run.katas}))
                self._deadline = time.monotonic() + run.limits.budget_seconds * notebooks
            deadline = self._deadline
        # A bot kata's functions may take their time on the clock (nb7_bots.Timing) on
        # top of the file's budget, within the submission's.
        extra = sum(k.timing.total_wall for k in katas if isinstance(k, BotKata))
        budget = min(deadline, time.monotonic() + run.limits.budget_seconds + extra)
        notes: dict[str, Note] = {}
        found, file_problems = grade_file(f, self.cells[f], katas, run, budget, notes)
        with self._lock:
            self.results.update(found)
            self.notes.update(notes)
            self._problems[index] = file_problems

    def result(self) -> StudentResult:
        """The student's result, once every task is done."""
        sub, run, problems = self.sub, self.run, list(self.problems)
        for group in self._problems:
            problems += [p for p in group if p not in problems]
        if not sub.files:
            problems.append(_("no notebook or .py file found"))
        entries: dict[str, dict[str, Any]] = {}
        for kata in run.katas:
            result = self.results.get(kata.name)
            if result is None:
                note = Note("missing", {"name": kata.name})
                entries[kata.name] = _kata_entry(KataResult(kata, False, hidden=True,
                                                            note=note.text()), False, note)
            else:
                entries[kata.name] = _kata_entry(result, note=self.notes.get(kata.name))
        return {"student": sub.student, "key": sub.key,
                "score": sum(e["points"] for e in entries.values()),
                "max_score": max_score(run.katas), "problems": [one_line(p, MAX_TEXT)
                                                                for p in problems],
                "language": sub.language, "katas": entries}


def grade_submission(sub: Submission, run: Run) -> StudentResult:
    """Grade one student's files, one after the other (see :class:`Grading`)."""
    grading = Grading(sub, run)
    for task in grading.tasks():
        task()
    return grading.result()


def failed_result(sub: Submission, katas: Sequence[Kata], error: str) -> StudentResult:
    """The result of a submission the checker itself failed on (a bug of ours)."""
    note = Note("checker_failed", {"error": one_line(error, 80)})
    return {"student": sub.student, "key": sub.key, "score": 0,
            "max_score": max_score(katas), "problems": [note.text()],
            "language": sub.language,
            "katas": {k.name: _kata_entry(KataResult(k, False, hidden=True, note=note.text()),
                                          False, note) for k in katas}}


def start_run(*, seed: int | None = None, jobs: int = 1, katas: Sequence[Kata] = KATAS,
              limits: Limits | None = None, isolation: str = "auto") -> Run:
    """Everything a run needs, ready before the first child: the sandbox (probed), the
    cases and their answers; this process made untraceable."""
    harden_grader()
    limits = limits or Limits()
    run = Run(new_seed() if seed is None else seed, open_sandbox(isolation, jobs, limits),
              limits, katas)
    run.prepare()
    return run


def grade_all(subs: Sequence[Submission], *, jobs: int = 1, run: Run | None = None,
              done: Callable[[StudentResult], None] | None = None) -> list[StudentResult]:
    """Grade every submission, ``jobs`` files at a time (a submission's notebooks side by
    side too); results in the submissions' order, each given to ``done`` as soon as its
    last file is graded.

    Without ``run``, one is started (and its sandbox closed at the end)."""
    own = run is None
    if run is None:
        run = start_run(jobs=jobs)
    run.prepare()
    results: dict[str, StudentResult] = {}
    try:
        gradings = [Grading(s, run) for s in subs]
        left = {id(g): len(g.groups) for g in gradings}
        failed: dict[int, str] = {}
        for g in gradings:
            if not g.groups:  # nothing to run: its result at once
                results[g.sub.key] = g.result()
                if done is not None:
                    done(results[g.sub.key])
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(task): g for g in gradings for task in g.tasks()}
            for fut in as_completed(futures):
                g = futures[fut]
                try:
                    fut.result()
                except Exception as exc:  # a bug of ours: report it, keep going
                    failed.setdefault(id(g), type(exc).__name__)
                left[id(g)] -= 1
                if left[id(g)]:
                    continue
                error = failed.get(id(g))
                result = g.result() if error is None else failed_result(g.sub, run.katas,
                                                                        error)
                results[g.sub.key] = result
                if done is not None:
                    done(result)
    finally:
        if own:
            run.sandbox.close()
    return [results[s.key] for s in subs]
