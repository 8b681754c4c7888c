"""Verdicts as data: what the grader decided on a kata, kept so that any output can say
it in its own language.

A gradebook entry's ``verdict`` (format 3, docs/checker.md)::

    {"kata": "is_set", "outcome": "failed",          # "passed", "failed" or "missing"
     "tests": {"public": 3, "more": 150, "hidden": true},
     "note": {"id": "blocked", "values": {"names": ["box_gin.melds"]}},   # or null
     "failure": {"public": false,                    # or null
                 "input": [[{"$c": "7H"}, {"$c": "7D"}]],        # the wire format
                 "call": "is_set([7H 7D])",
                 "returned": {"value": true, "changed": []},
                 #   or {"raised": "KeyError", "value_error": false, "message": "\"...\""}
                 #   or {"timeout": 2.0}
                 "expected": {"value": false},                   # or {"raises": "ValueError"}
                 "rule": {"message": "...", "language": "en"}}}

Rendering (:func:`verdict_result`, :func:`verdict_text`) reads only these fields: the
expected answer is computed again by the engine from the input, and the rule's reason by
the kata's own judge from the input, the answer and the expected value, in the language
in use; a note is rendered from its message id and values.  Nothing is parsed out of
feedback text, and what the student's process said is only ever a quoted value.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, full_deck
from ..i18n import _, get_language, using
from ..katas.core import (
    Failure,
    Kata,
    KataResult,
    Outcome,
    Raised,
    Returned,
    TimedOut,
    call_text,
    feedback_text,
    gone_text,
    problem,
)
from ..katas.feedback import blocked_note, plain_text
from ..katas.specs import BY_NAME
from ..katas.specs.nb7_words import fault_text, why_text
from ..katas.wire import Opaque, decode, encode
from .safe import one_line, quoted

_CARD_BY_TEXT = {repr(c): c for c in full_deck()}


def note_text(note_id: str, values: dict[str, Any]) -> str:
    """A note's message, from its id and values, in the language in use."""
    v = values if isinstance(values, dict) else {}
    if note_id == "missing":
        return _("no function named {name} was found").format(name=one_line(v.get("name"), 80))
    if note_id == "blocked":
        names = v.get("names")
        return blocked_note([one_line(n, 80) for n in names[:20]] if isinstance(
            names, list) else [])
    if note_id == "out_of_time":
        return _("not graded: the submission used up its time ({seconds} s)").format(
            seconds=one_line(v.get("seconds"), 20))
    if note_id == "stopped":
        return _("the function stopped the checker's run ({why})").format(
            why=gone_text(str(v.get("why"))))
    if note_id == "judge_failed":
        return _("the checker could not judge this kata's answers ({error}); only this "
                 "kata is affected").format(error=one_line(v.get("error"), 80))
    if note_id == "checker_failed":
        return _("the checker failed on this submission: {error}").format(
            error=one_line(v.get("error"), 80))
    if note_id == "bot_fault":
        return fault_text(_plain_values(v))
    return one_line(v.get("text", ""), 300)


def _plain_values(values: dict[str, Any]) -> dict[str, Any]:
    """A note's values as a gradebook holds them, every text made one visible line."""
    def plain(value: Any) -> Any:
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int | float):
            return value
        if isinstance(value, list):
            return [plain(x) for x in value[:60]]
        return one_line(value, 300)

    return {str(k)[:40]: plain(v) for k, v in list(values.items())[:40]}


@dataclass(frozen=True)
class Note:
    """A note on a kata (not about one input), as a message id and its values."""

    id: str
    values: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The note in the language in use."""
        return note_text(self.id, self.values)

    def data(self) -> dict[str, Any]:
        """The note as gradebook data."""
        return {"id": self.id, "values": dict(self.values)}


def _type_of(value: Any) -> str:
    if isinstance(value, Card):
        return "Card"
    if isinstance(value, Opaque):
        return "?"
    return type(value).__name__


def safe_problem(kata: Kata, args: Any, expected: Any, outcome: Outcome) -> str | None:
    """Why ``outcome`` is wrong (:func:`~box_gin.katas.core.problem`), and a clear reason
    when the kata's judge itself cannot take the answer (a list where it hashes...)."""
    try:
        return problem(kata, args, expected, outcome)
    except Exception:
        got = _type_of(outcome.value) if isinstance(outcome, Returned) else "?"
        want = _type_of(expected)
        return _("it returned a value of type `{got}` where a value of type `{want}` was "
                 "expected").format(got=got, want=want)


# -- storing -------------------------------------------------------------------------


def store(value: Any, depth: int = 0) -> Any:
    """A value as wire data (:mod:`box_gin.katas.wire`), stand-ins kept as they read."""
    if depth > 12:
        return {"$repr": "..."}
    if isinstance(value, Opaque):
        return {"$repr": value.text}
    if type(value) is list:
        return [store(v, depth + 1) for v in value]
    if type(value) is tuple:
        return {"$t": [store(v, depth + 1) for v in value]}
    if type(value) in (set, frozenset):
        return {"$s": [store(v, depth + 1) for v in value]}
    if type(value) is dict:
        return {"$d": [[store(k, depth + 1), store(v, depth + 1)] for k, v in value.items()]}
    return encode(value, card_type=Card, card_text=repr)


def load(data: Any) -> Any:
    """The inverse of :func:`store`."""
    return decode(data, card_of=lambda t: _CARD_BY_TEXT.get(t) or Opaque(repr(t[:20])))


def _outcome_data(outcome: Outcome) -> dict[str, Any]:
    if isinstance(outcome, Returned):
        return {"value": store(outcome.value), "changed": list(outcome.changed)}
    if isinstance(outcome, Raised):
        return {"raised": outcome.type_name, "value_error": outcome.value_error,
                "message": outcome.message}
    return {"timeout": outcome.seconds}


def verdict_of(result: KataResult, note: Note | None = None, found: bool = True
               ) -> dict[str, Any]:
    """A kata's verdict as gradebook data."""
    note_data = note.data() if note is not None else (
        {"id": "text", "values": {"text": result.note}} if result.note else None)
    f = result.failure
    failure = None
    if f is not None:
        expected = ({"raises": f.expected.type_name} if isinstance(f.expected, Raised)
                    else {"value": store(f.expected)})
        failure = {"public": f.public, "input": store(list(f.args)),
                   "call": call_text(result.kata, f.args), "returned": _outcome_data(f.outcome),
                   "expected": expected,
                   "rule": {"message": f.problem, "language": get_language()}}
    return {"kata": result.kata.name,
            "outcome": "passed" if result.passed else "failed" if found else "missing",
            "tests": {"public": result.public_tests, "more": result.more_tests,
                      "hidden": result.hidden},
            "note": note_data, "failure": failure}


# -- rendering -----------------------------------------------------------------------


def _outcome_of(data: Any) -> Outcome:
    if isinstance(data, dict) and "raised" in data:
        message = one_line(data.get("message", ""), 300)
        if message and not message.startswith('"'):
            message = quoted(message)
        return Raised(one_line(data.get("raised"), 80), data.get("value_error") is True,
                      message)
    if isinstance(data, dict) and "timeout" in data:
        seconds = data["timeout"]
        return TimedOut(float(seconds) if isinstance(seconds, int | float) else 0.0)
    changed = data.get("changed") if isinstance(data, dict) else None
    return Returned(load(data.get("value")) if isinstance(data, dict) else None,
                    tuple(one_line(c, 40) for c in changed[:8]) if isinstance(
                        changed, list) else ())


def verdict_result(verdict: dict[str, Any], kata: Kata | None = None) -> KataResult | None:
    """The verdict as a :class:`KataResult` in the language in use (None when the kata is
    not one of this kit's, or the verdict cannot be read)."""
    kata = kata or BY_NAME.get(str(verdict.get("kata")))
    if kata is None or not isinstance(verdict, dict):
        return None
    tests = verdict["tests"] if isinstance(verdict.get("tests"), dict) else {}
    note = verdict.get("note")
    note_str = note_text(str(note.get("id")), note.get("values", {})) if isinstance(
        note, dict) else None
    failure = None
    f = verdict.get("failure")
    if isinstance(f, dict):
        try:
            args = tuple(load(f.get("input", [])))
            outcome = _outcome_of(f.get("returned"))
            try:
                expected = kata.expected(args)
            except Exception:
                stored = f.get("expected")
                expected = Raised("ValueError") if isinstance(stored, dict) and \
                    "raises" in stored else load(stored.get("value") if isinstance(
                        stored, dict) else None)
            rule = f["rule"] if isinstance(f.get("rule"), dict) else {}
            why = safe_problem(kata, args, expected, outcome) or one_line(
                rule.get("message", ""), 300)
            failure = Failure(args, outcome, expected, why, f.get("public") is True)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            return None
    return KataResult(kata, verdict.get("outcome") == "passed",
                      int(tests.get("public", 0) or 0), int(tests.get("more", 0) or 0),
                      tests.get("hidden") is True, failure, note_str)


def _safe_feedback(result: KataResult) -> str:
    try:
        return feedback_text(result)
    except Exception:  # a hostile value the kata's own display trips on
        f = result.failure
        if f is None or not isinstance(f.outcome, Returned):
            raise
        stand_in = Returned(Opaque(one_line(type(f.outcome.value).__name__, 40)))
        return feedback_text(KataResult(result.kata, result.passed, result.public_tests,
                                        result.more_tests, result.hidden,
                                        Failure(f.args, stand_in, f.expected, f.problem,
                                                f.public), result.note))


def verdict_text(verdict: dict[str, Any], limit: int | None = None,
                 fallback: str = "", plain: bool = True) -> str:
    """The verdict in plain text in the language in use, capped at ``limit``
    characters; code spans without their backticks unless ``plain`` is false (for
    :func:`box_gin.katas.feedback.code_html` to draw them)."""
    result = verdict_result(verdict) if isinstance(verdict, dict) else None
    text = fallback
    if result is not None:
        text = _safe_feedback(result)
        text = plain_text(text) if plain else text
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    return text


def reason_text(verdict: dict[str, Any]) -> str:
    """Why a kata failed, in one line: the rule's reason, else the note."""
    result = verdict_result(verdict)
    if result is None:
        return ""
    if result.failure is not None:
        return result.failure.problem
    note = verdict.get("note")
    if isinstance(note, dict) and note.get("id") == "bot_fault" and isinstance(
            note.get("values"), dict):
        values = _plain_values(note["values"])
        return why_text(str(values.get("why", "")), values, str(values.get("kind", "")))
    return result.note or ""


def written_yet(verdict: dict[str, Any]) -> bool:
    """Whether a failed verdict is about a function that is there and written (a
    counterexample), not one missing, unwritten (NotImplementedError), blocked or
    not run."""
    f = verdict.get("failure") if isinstance(verdict, dict) else None
    if not isinstance(f, dict):
        return False
    returned = f.get("returned")
    return not (isinstance(returned, dict) and returned.get("raised") == "NotImplementedError")


def language(lang: str | None) -> AbstractContextManager[None]:
    """Use ``lang`` for a while, in this thread alone (None: leave the language as it
    is); no live widget re-renders for it."""
    return nullcontext() if lang is None else using(lang)


def localise(results: Sequence[dict[str, Any]], lang: str | None = None,
             limit: int | None = None) -> None:
    """Render every kata's ``feedback`` again from its verdict: in ``lang``, else in each
    submission's own language (``results[i]["language"]``), else as it is."""
    for r in results:
        want = lang or r.get("language")
        if not want or want == get_language():
            continue  # rendered in that language already
        with language(want):
            for entry in r.get("katas", {}).values():
                if isinstance(entry.get("verdict"), dict):
                    entry["feedback"] = verdict_text(entry["verdict"], limit,
                                                     entry.get("feedback", ""))
