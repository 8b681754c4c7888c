"""Grade submissions: every kata of every student, judged here against the engine.

A student's result is plain data, an entry of the gradebook's ``students`` list::

    {"student": "ada", "score": 30, "max_score": 36, "problems": [],
     "katas": {"best_melds": {"passed": true, "points": 4, "feedback": "...",
                              "failure": null}}}

Everything is decided in this process: the cases (the public ones, the fixed hidden
ones and a fresh draw from the run's secret seed), their expected answers (computed
before the first child starts) and the verdicts.  A child only ever sends back what the
learner's functions returned, and that is read as untrusted data.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import suppress
from dataclasses import dataclass, field
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
    judge_cases,
    shrink_failure,
)
from ..katas.feedback import blocked_note, feedback_text
from ..katas.specs import KATAS
from ..katas.wire import MAX_DEPTH, Opaque, decode, encode
from .sandbox import Child, ChildGone, Limits, Sandbox, harden_grader, open_sandbox
from .submissions import BadSubmission, Submission, defined_names, extract_cells

#: Changes whenever grading could give a different result: part of the rerun cache key.
CHECKER_VERSION = "2"
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
            name, value_error, message = data["raised"]
            return Raised(clean_text(name, 80), value_error is True, clean_text(message))
        if isinstance(data, dict) and "timeout" in data:
            timeout = data["timeout"]
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

    def prepare(self) -> None:
        """Draw every case and compute every expected answer, here, now."""
        for kata in self.katas:
            if kata.name not in self.cases:
                cases = kata.graded_cases(self.seed)
                self.cases[kata.name] = (cases, [kata.expected(a) for a in cases])
                self.encoded[kata.name] = [_encode(a) for a in cases]


def max_score(katas: Sequence[Kata] = KATAS) -> int:
    """The points of all the katas."""
    return sum(k.points for k in katas)


def _failure_entry(result: KataResult) -> dict[str, Any] | None:
    f = result.failure
    if f is None:
        return None
    return {"public": f.public, "size": result.kata.size(f.args),
            "call": call_text(result.kata, f.args)}


def _kata_entry(result: KataResult, found: bool = True) -> dict[str, Any]:
    text = feedback_text(result)
    if len(text) > MAX_FEEDBACK:
        text = text[:MAX_FEEDBACK] + "…"
    return {"passed": result.passed, "points": result.points, "found": found,
            "feedback": clean_text(text, MAX_FEEDBACK + 1), "failure": _failure_entry(result)}


def _preferred(kata: Kata, files: list[Path]) -> list[Path]:
    """The files in which to look for a kata's function: its own notebook's first."""
    prefix = f"{kata.notebook:02d}"
    return sorted(files, key=lambda f: (not f.name.startswith(prefix), str(f)))


def _why(exc: ChildGone) -> str:
    reason = str(exc)
    if reason == "timeout":
        return _("it did not finish in time")
    if reason == "the child exited":
        return _("the process exited or was killed: a crash, os._exit, or a limit on "
                 "memory or CPU time")
    if reason == "the child sent too much":
        return _("it sent far too much output")
    return _("it broke the checker's protocol")


def grade_file(path: Path, cells: list[tuple[str, str]], katas: Sequence[Kata], run: Run,
               budget: float) -> tuple[dict[str, KataResult], list[str]]:
    """Grade ``katas`` in the file ``path`` (its code ``cells``); and the file's problems.

    ``budget`` is the submission's deadline (``time.monotonic``): nothing runs after it.
    """
    results: dict[str, KataResult] = {}
    problems: list[str] = []
    pending = list(katas)
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
        try:
            child = Child(run.sandbox, setup, run.limits, budget)
        except ChildGone as exc:
            problems.append(_("{file}: could not be run ({why})").format(
                file=path.name, why=_why(exc)))
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
                    file=path.name, why=_why(exc)))
                break
            ready = _plain(ready)
            if not seen_ready:
                seen_ready = True
                errors = ready.get("errors")
                problems.extend(clean_text(e) for e in (errors if isinstance(
                    errors, list) else [])[:20])
            defined = ready.get("functions")
            defined = set(defined) if isinstance(defined, list) and all(
                isinstance(d, str) for d in defined) else set()
            blocked = ready.get("blocked")
            blocked = [clean_text(b, 80) for b in blocked[:20]] if isinstance(
                blocked, list) else []
            for kata in list(pending):
                pending.remove(kata)
                if kata.name not in defined:
                    continue
                request += 1
                try:
                    results[kata.name] = _grade_kata(child, kata, request, blocked, run)
                except ChildGone as exc:
                    note = _("the function stopped the checker's run ({why})").format(
                        why=_why(exc))
                    results[kata.name] = KataResult(kata, False, note=note, hidden=True)
                    break  # a fresh child for the katas left
        finally:
            child.close()
    for kata in pending:
        if kata.name not in results:
            results[kata.name] = KataResult(kata, False, hidden=True, note=_(
                "not graded: the submission used up its time ({seconds} s)").format(
                    seconds=f"{run.limits.budget_seconds:g}"))
    return results, problems


def _grade_kata(child: Child, kata: Kata, request: int, blocked: list[str],
                run: Run) -> KataResult:
    cases, expected = run.cases[kata.name]
    answer = child.run(request, kata.name, list(kata.hide), run.encoded[kata.name])
    outcomes = [decode_outcome(o, kata.params) for o in answer["outcomes"]]
    more = answer.get("blocked")
    if isinstance(more, list):
        blocked = blocked + [clean_text(b, 80) for b in more[:20] if b not in blocked]
    n_public = len(kata.public)
    failures = judge_cases(kata, cases, outcomes, expected, public=n_public)
    note = blocked_note(sorted(set(blocked))) if blocked else None
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

    with suppress(ChildGone):
        first = shrink_failure(kata, first, oracle, rounds=SHRINK_ROUNDS)
    return KataResult(kata, False, n_public, len(cases) - n_public, True, first, note)


def _encode(args: Args) -> Any:
    return encode(list(args), card_type=Card, card_text=repr)


def assign(katas: Sequence[Kata], cells: dict[Path, list[tuple[str, str]]]
           ) -> dict[Path, list[Kata]]:
    """Each kata in one file only: the preferred one among those that define it."""
    names = {f: defined_names(c) for f, c in cells.items()}
    out: dict[Path, list[Kata]] = {f: [] for f in cells}
    for kata in katas:
        having = [f for f in _preferred(kata, list(cells)) if kata.name in names[f]]
        if having:
            out[having[0]].append(kata)
    return out


def grade_submission(sub: Submission, run: Run) -> StudentResult:
    """Grade one student's files, within the run's budget for one submission."""
    budget = time.monotonic() + run.limits.budget_seconds
    problems: list[str] = list(sub.problems)
    cells: dict[Path, list[tuple[str, str]]] = {}
    for f in sub.files:
        try:
            cells[f] = extract_cells(f, sub.data.get(f, b""))
        except BadSubmission as exc:
            problems.append(str(exc))
    results: dict[str, KataResult] = {}
    for f, katas in assign(run.katas, cells).items():
        # Katas whose answer is part of what a learner may use (Card.value...) run in a
        # child of their own, where that part was removed before any student code ran.
        for group in ([k for k in katas if not k.hide], [k for k in katas if k.hide]):
            if group:
                found, file_problems = grade_file(f, cells[f], group, run, budget)
                results.update(found)
                problems += [p for p in file_problems if p not in problems]
    if not sub.files:
        problems.append(_("no notebook or .py file found"))
    entries: dict[str, dict[str, Any]] = {}
    for kata in run.katas:
        result = results.get(kata.name)
        if result is None:
            entries[kata.name] = _kata_entry(KataResult(kata, False, hidden=True, note=_(
                "no function named {name} was found").format(name=kata.name)), False)
        else:
            entries[kata.name] = _kata_entry(result)
    return {"student": sub.student, "score": sum(e["points"] for e in entries.values()),
            "max_score": max_score(run.katas), "problems": [clean_text(p) for p in problems],
            "katas": entries}


def failed_result(student: str, katas: Sequence[Kata], error: str) -> StudentResult:
    """The result of a submission the checker itself failed on (a bug of ours)."""
    note = _("the checker failed on this submission: {error}").format(error=error)
    return {"student": student, "score": 0, "max_score": max_score(katas),
            "problems": [clean_text(note)],
            "katas": {k.name: {"passed": False, "points": 0, "found": False,
                               "feedback": clean_text(note), "failure": None} for k in katas}}


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
    """Grade every submission, ``jobs`` at a time; results in the submissions' order.

    Without ``run``, one is started (and its sandbox closed at the end)."""
    own = run is None
    if run is None:
        run = start_run(jobs=jobs)
    run.prepare()
    lock = threading.Lock()
    results: dict[str, StudentResult] = {}
    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(grade_submission, s, run): s for s in subs}
            for fut in as_completed(futures):
                sub = futures[fut]
                try:
                    result = fut.result()
                except Exception as exc:  # a bug of ours: report it, keep going
                    result = failed_result(sub.student, run.katas, type(exc).__name__)
                with lock:
                    results[sub.student] = result
                if done is not None:
                    done(result)
    finally:
        if own:
            run.sandbox.close()
    return [results[s.student] for s in subs]
