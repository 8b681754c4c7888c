"""Read the gradebook that ``box-gin check --json`` writes, in any of its shapes.

Every platform module reads gradebooks through :func:`load_gradebook`, so one place
knows their shapes: a list of students (the first format), or an object
``{"seed": ..., "students": [...]}`` (a run with its seed kept beside the results).

>>> book = parse_gradebook([{"student": "ada", "score": 1, "max_score": 36,
...                          "katas": {"card_value": {"passed": True, "points": 1,
...                                                   "feedback": "ok"}}}])
>>> book.students[0]["student"], book.seed
('ada', None)
>>> parse_gradebook({"seed": 7, "students": []}).seed
7
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BoxGinError
from ..i18n import _

StudentResult = dict[str, Any]
_CARD = re.compile(r"\b(?:10|[A2-9TJQK])[CDHS]\b")


class GradebookError(BoxGinError):
    """A gradebook file that is not a gradebook (its rule is named in the message)."""


@dataclass
class Gradebook:
    """The students' results of one grading run, and that run's seed when kept."""

    students: list[StudentResult]
    seed: int | str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def kata_names(self) -> list[str]:
        """The katas graded, in the gradebook's order (the first student's)."""
        names: list[str] = []
        for s in self.students:
            for name in s["katas"]:
                if name not in names:
                    names.append(name)
        return names


def _check_student(index: int, s: Any, where: str) -> StudentResult:
    if not isinstance(s, dict):
        raise GradebookError(_("{file}: student {n} is not an object").format(
            file=where, n=index + 1))
    for key, kind in (("student", str), ("score", (int, float)), ("max_score", (int, float)),
                      ("katas", dict)):
        if not isinstance(s.get(key), kind) or isinstance(s.get(key), bool):
            raise GradebookError(_("{file}: student {n} has no valid {key!r}").format(
                file=where, n=index + 1, key=key))
    for name, entry in s["katas"].items():
        if not isinstance(entry, dict) or not isinstance(entry.get("passed"), bool) or \
                not isinstance(entry.get("points"), int | float):
            raise GradebookError(_("{file}: {student}'s kata {kata!r} needs 'passed' and "
                                   "'points'").format(file=where, student=s["student"],
                                                      kata=name))
    result: StudentResult = s
    return result


def parse_gradebook(data: Any, where: str = "gradebook") -> Gradebook:
    """A gradebook from its JSON data: a list of students, or an object with
    ``students`` (and ``seed``)."""
    extra: dict[str, Any] = {}
    seed = None
    if isinstance(data, dict):
        if not isinstance(data.get("students"), list):
            raise GradebookError(_("{file}: a gradebook object needs a 'students' list").format(
                file=where))
        seed = data.get("seed")
        extra = {k: v for k, v in data.items() if k not in ("students", "seed")}
        data = data["students"]
    if not isinstance(data, list):
        raise GradebookError(_("{file}: a gradebook is a list of students or an object with "
                               "'students'").format(file=where))
    students = [_check_student(i, s, where) for i, s in enumerate(data)]
    return Gradebook(students, seed, extra)


def load_gradebook(path: Path) -> Gradebook:
    """Read a gradebook JSON file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise GradebookError(_("{file}: cannot be read ({error})").format(
            file=path, error=exc.strerror or exc)) from exc
    except ValueError as exc:
        raise GradebookError(_("{file}: not valid JSON ({error})").format(
            file=path, error=exc)) from exc
    return parse_gradebook(data, str(path))


def failure_call(name: str, entry: dict[str, Any]) -> str | None:
    """The failing call of a kata entry, as text (``best_melds([AH 2H])``), or None.

    Read from the entry's ``failure`` field when the checker wrote one, else from the
    feedback's indented call line."""
    failure = entry.get("failure")
    if isinstance(failure, dict) and isinstance(failure.get("call"), str):
        call: str = failure["call"]
        return call
    for line in str(entry.get("feedback", "")).splitlines():
        text = line.strip()
        if line.startswith("    ") and text.startswith(f"{name}("):
            return text
    return None


def cards_in_text(text: str) -> list[str]:
    """The card names in a text, in order: ``['AH', '2H']``."""
    return [m.replace("10", "T") for m in _CARD.findall(text)]
