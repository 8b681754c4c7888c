"""Grade submissions: every kata of every file, judged here against the engine.

A student's result is plain data, the gradebook's JSON shape::

    {"student": "ada", "score": 30, "max_score": 36,
     "katas": {"best_melds": {"passed": true, "points": 4, "feedback": "..."}}}
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import suppress
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
    judge_cases,
    shrink_failure,
)
from ..katas.feedback import blocked_note, feedback_text
from ..katas.specs import KATAS
from .sandbox import Child, ChildGone, Limits
from .submissions import BadSubmission, Submission, extract_cells
from .wire import decode, encode

#: Changes whenever grading could give a different result: part of the rerun cache key.
CHECKER_VERSION = "1"
StudentResult = dict[str, Any]

_CARD_BY_TEXT = {repr(c): c for c in full_deck()}
_expected_lock = threading.Lock()
_expected: dict[str, list[Any]] = {}


def _encode(args: Args) -> Any:
    return encode(list(args), card_type=Card, card_text=repr)


def _card_of(text: str) -> Any:
    card = _CARD_BY_TEXT.get(text)
    if card is None:
        from .wire import Opaque

        return Opaque(repr(text))
    return card


def decode_outcome(data: Any) -> Outcome:
    """An outcome as the child sent it, checked: anything malformed is a failure."""
    if isinstance(data, dict) and "ok" in data:
        return Returned(decode(data["ok"], card_of=_card_of))
    if isinstance(data, dict) and isinstance(data.get("raised"), list) and len(
            data["raised"]) == 3:
        name, value_error, message = data["raised"]
        return Raised(str(name)[:80], value_error is True, str(message)[:300])
    if isinstance(data, dict) and "timeout" in data:
        try:
            return TimedOut(float(data["timeout"]))
        except (TypeError, ValueError):
            return TimedOut(0.0)
    return Raised("ProtocolError", False, _("the answer could not be read"))


def cases_of(kata: Kata) -> tuple[list[Args], list[Any]]:
    """The public and hidden tests of a kata and their expected answers (computed once)."""
    cases = list(kata.public) + kata.hidden_cases()
    with _expected_lock:
        if kata.name not in _expected:
            _expected[kata.name] = [kata.expected(a) for a in cases]
        return cases, _expected[kata.name]


def max_score(katas: Sequence[Kata] = KATAS) -> int:
    """The points of all the katas."""
    return sum(k.points for k in katas)


def _kata_entry(result: KataResult) -> dict[str, Any]:
    return {"passed": result.passed, "points": result.points,
            "feedback": feedback_text(result)}


def _preferred(kata: Kata, files: list[Path]) -> list[Path]:
    """The files in which to look for a kata's function: its own notebook's first."""
    prefix = f"{kata.notebook:02d}"
    return sorted(files, key=lambda f: (not f.name.startswith(prefix), str(f)))


def grade_file(path: Path, katas: Sequence[Kata], limits: Limits
               ) -> tuple[dict[str, KataResult], list[str]]:
    """Grade the katas whose functions ``path`` defines; and the file's problems."""
    try:
        cells = extract_cells(path)
    except BadSubmission as exc:
        return {}, [str(exc)]
    results: dict[str, KataResult] = {}
    problems: list[str] = []
    pending = list(katas)
    skip: set[int] = set()
    request = 0
    seen_ready = False
    for _attempt in range(len(katas) + len(cells) + 2):
        if not pending:
            break
        child = Child(cells, [k.name for k in pending], skip, limits)
        try:
            try:
                ready = child.wait_ready()
            except ChildGone as exc:
                if child.current_cell is not None:
                    skip.add(child.current_cell)
                    label = cells[child.current_cell][0]
                    problems.append(_("{cell}: stopped the run ({why}); it was skipped").format(
                        cell=label, why=_why(exc)))
                    continue
                problems.append(_("{file}: could not be run ({why})").format(
                    file=path.name, why=_why(exc)))
                break
            if not seen_ready:
                seen_ready = True
                problems.extend(str(e) for e in ready.get("errors", [])[:20])
            defined = set(ready.get("functions", []))
            blocked = [str(b) for b in ready.get("blocked", [])]
            for kata in list(pending):
                if kata.name not in defined:
                    pending.remove(kata)
                    continue
                request += 1
                try:
                    results[kata.name] = _grade_kata(child, kata, request, blocked)
                except ChildGone as exc:
                    note = _("the function stopped the checker's run ({why})").format(
                        why=_why(exc))
                    results[kata.name] = KataResult(kata, False, note=note, hidden=True)
                    pending.remove(kata)
                    break  # a fresh child for the katas left
                pending.remove(kata)
        finally:
            child.close()
    return results, problems


def _why(exc: ChildGone) -> str:
    reason = str(exc)
    if reason == "timeout":
        return _("it did not finish in time")
    if reason == "the child exited":
        return _("the process exited or was killed: a crash, os._exit, or a limit on "
                 "memory or CPU time")
    return reason


def _grade_kata(child: Child, kata: Kata, request: int, blocked: list[str]) -> KataResult:
    cases, expected = cases_of(kata)
    answer = child.run(request, kata.name, list(kata.hide), [_encode(a) for a in cases])
    outcomes = [decode_outcome(o) for o in answer["outcomes"]]
    blocked = blocked + [str(b) for b in answer.get("blocked", []) if b not in blocked]
    n_public = len(kata.public)
    failures = judge_cases(kata, cases, outcomes, expected, public=n_public)
    note = blocked_note(sorted(set(blocked))) if blocked else None
    if not failures:
        return KataResult(kata, True, n_public, len(cases) - n_public, True)
    first: Failure = min(failures, key=lambda f: (kata.size(f.args), not f.public))
    if not first.public:
        counter = [request * 1000]

        def oracle(batch: Sequence[Args]) -> list[Outcome]:
            counter[0] += 1
            reply = child.run(counter[0], kata.name, list(kata.hide),
                              [_encode(a) for a in batch])
            return [decode_outcome(o) for o in reply["outcomes"]]

        with suppress(ChildGone):
            first = shrink_failure(kata, first, oracle, rounds=20)
    return KataResult(kata, False, n_public, len(cases) - n_public, True, first, note)


def grade_submission(sub: Submission, katas: Sequence[Kata] = KATAS,
                     limits: Limits | None = None) -> StudentResult:
    """Grade one student's files."""
    limits = limits or Limits()
    per_file: dict[Path, dict[str, KataResult]] = {}
    problems: list[str] = []
    for f in sub.files:
        per_file[f], file_problems = grade_file(f, katas, limits)
        problems += file_problems
    entries: dict[str, dict[str, Any]] = {}
    for kata in katas:
        result = None
        for f in _preferred(kata, sub.files):
            if kata.name in per_file.get(f, {}):
                result = per_file[f][kata.name]
                break
        if result is None:
            note = _("no function named {name} was found").format(name=kata.name)
            if problems:
                note += " (" + "; ".join(problems[:3]) + ")"
            result = KataResult(kata, False, note=note, hidden=True)
        entry = _kata_entry(result)
        if problems and not result.passed and result.note is None:
            entry["feedback"] += "\n  " + _("problems in the submission: {list}").format(
                list="; ".join(problems[:3]))
        entries[kata.name] = entry
    if not sub.files:
        problems.append(_("no notebook or .py file found"))
    return {"student": sub.student, "score": sum(e["points"] for e in entries.values()),
            "max_score": max_score(katas), "katas": entries}


def grade_all(subs: Sequence[Submission], *, jobs: int = 1, katas: Sequence[Kata] = KATAS,
              limits: Limits | None = None,
              done: Callable[[StudentResult], None] | None = None) -> list[StudentResult]:
    """Grade every submission, ``jobs`` at a time; results in the submissions' order."""
    for kata in katas:  # expected answers once, before any thread needs them
        cases_of(kata)
    results: dict[str, StudentResult] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(grade_submission, s, katas, limits): s for s in subs}
        for fut in as_completed(futures):
            sub = futures[fut]
            try:
                result = fut.result()
            except Exception as exc:  # a bug of ours: report it, keep going
                result = {"student": sub.student, "score": 0, "max_score": max_score(katas),
                          "katas": {k.name: {"passed": False, "points": 0, "feedback": _(
                              "the checker failed on this submission: {error}").format(
                                  error=exc)} for k in katas}}
            results[sub.student] = result
            if done is not None:
                done(result)
    return [results[s.student] for s in subs]
