"""Grades into the LMS: a roster, and the CSV that Canvas or Moodle imports.

The roster is a CSV file with a header.  Its ``submission`` column holds the names the
checker gives submissions (a student's folder or file name); the other columns hold the
LMS's identifiers:

- Canvas (Grades, Import): ``name``, ``canvas_id``, ``sis_user_id``, ``sis_login_id``,
  ``section``.  The file has Canvas's columns ``Student``, ``ID``, ``SIS User ID``,
  ``SIS Login ID``, ``Section`` and one assignment column, after a ``Points Possible``
  row; Canvas needs one of name, ID or SIS User ID to find a student.
- Moodle (Grade administration, Import, CSV file): ``idnumber``, ``email`` or
  ``username`` (the first present identifies the student; map it in Moodle's import
  form), then a grade column named after the assignment and a ``Feedback`` column.

A roster row matches the submission whose key (``box_gin.checker.submissions.student_key``:
NFC, case folded, trailing dots dropped) is its ``submission``'s key.  Every cell is
spreadsheet-safe (``box_gin.checker.safe.csv_cell``): a name or identifier that starts
like a formula is written with a leading apostrophe.

Students in the gradebook with no row in the roster (*unknown*) and roster rows with no
submission (*missing*) are both listed: an unknown student's grade cannot go into the
file, and a missing student's row is written with an empty grade, never a made-up one.

>>> roster = parse_roster("submission,name,sis_login_id,section\\nada,Ada L,al,A\\n")
>>> out = lms_csv("canvas", [{"student": "ada", "score": 30, "max_score": 36,
...                           "katas": {}}], roster, "Katas")
>>> print(out.text, end="")
Student,ID,SIS User ID,SIS Login ID,Section,Katas
Points Possible,,,,,36
Ada L,,,al,A,30
>>> out.unknown, out.missing
([], [])
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BoxGinError
from ..i18n import _, ngettext
from .outputs import key_of
from .safe import csv_row
from .submissions import student_key

LMS_KINDS = ("canvas", "moodle")
CANVAS_COLUMNS = (("Student", "name"), ("ID", "canvas_id"), ("SIS User ID", "sis_user_id"),
                  ("SIS Login ID", "sis_login_id"), ("Section", "section"))
#: Moodle's user fields an import can match on, in the order tried, and their labels.
MOODLE_IDENTIFIERS = (("idnumber", "ID number"), ("email", "Email address"),
                      ("username", "Username"))
DEFAULT_ASSIGNMENT = "box-gin katas"


class RosterError(BoxGinError):
    """A roster that cannot be read or does not fit the LMS asked for."""


@dataclass
class LmsFile:
    """An LMS import file, and the students it could not match."""

    text: str
    #: In the gradebook, not in the roster: their grade is not in the file.
    unknown: list[str] = field(default_factory=list)
    #: In the roster, not in the gradebook: written with an empty grade.
    missing: list[str] = field(default_factory=list)


def parse_roster(text: str, where: str = "roster") -> list[dict[str, str]]:
    """The rows of a roster CSV (each a dict of its columns, stripped)."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    columns = [c.strip() for c in reader.fieldnames or []]
    if "submission" not in columns:
        raise RosterError(_("{file}: the roster needs a 'submission' column (the names "
                            "box-gin check gives submissions); it has: {columns}").format(
            file=where, columns=", ".join(columns) or "-"))
    rows: list[dict[str, str]] = []
    seen: set[str] = set()
    for number, raw in enumerate(reader, start=2):
        row = {(k or "").strip(): (v or "").strip() for k, v in raw.items()
               if isinstance(v, str)}
        name = row.get("submission", "")
        if not name:
            raise RosterError(_("{file} line {n}: the 'submission' column is empty").format(
                file=where, n=number))
        if name in seen:
            raise RosterError(_("{file} line {n}: {name!r} is in the roster twice").format(
                file=where, n=number, name=name))
        seen.add(name)
        rows.append(row)
    return rows


def load_roster(path: Path) -> list[dict[str, str]]:
    """Read a roster CSV file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RosterError(_("{file}: cannot be read ({error})").format(
            file=path, error=exc)) from exc
    return parse_roster(text, str(path))


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def lms_csv(kind: str, results: Sequence[dict[str, Any]], roster: Sequence[dict[str, str]],
            assignment: str = DEFAULT_ASSIGNMENT) -> LmsFile:
    """The import file for ``kind`` (``canvas`` or ``moodle``): a row per roster student,
    in the roster's order."""
    if kind not in LMS_KINDS:
        raise RosterError(_("{kind!r} is not an LMS box-gin writes for: choose one of "
                            "{kinds}").format(kind=kind, kinds=", ".join(LMS_KINDS)))
    by_key = {key_of(r): r for r in results}
    listed = {student_key(row["submission"]) for row in roster}
    unknown = [r["student"] for r in results if key_of(r) not in listed]
    missing = [row["submission"] for row in roster
               if student_key(row["submission"]) not in by_key]
    max_score = max((r["max_score"] for r in results), default=0)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    if kind == "canvas":
        if not any(row.get(key) for row in roster for key in ("name", "canvas_id",
                                                                 "sis_user_id")):
            raise RosterError(_("Canvas finds a student by name, ID or SIS User ID: the "
                                "roster needs a 'name', 'canvas_id' or 'sis_user_id' "
                                "column"))
        w.writerow(csv_row([label for label, _key in CANVAS_COLUMNS] + [assignment]))
        w.writerow(csv_row(["Points Possible", "", "", "", "", _number(max_score)]))
        for row in roster:
            result = by_key.get(student_key(row["submission"]))
            w.writerow(csv_row([row.get(key, "") for _label, key in CANVAS_COLUMNS]
                               + [_number(result["score"]) if result else ""]))
    else:
        key, label = next(((k, lb) for k, lb in MOODLE_IDENTIFIERS
                           if any(row.get(k) for row in roster)), (None, None))
        if key is None or label is None:
            raise RosterError(_("Moodle finds a student by ID number, email address or "
                                "username: the roster needs an 'idnumber', 'email' or "
                                "'username' column"))
        empty = [row["submission"] for row in roster if not row.get(key)]
        if empty:
            raise RosterError(_("the roster's {column!r} column is empty for: {names}").format(
                column=key, names=", ".join(empty)))
        w.writerow(csv_row([label, assignment, "Feedback"]))
        for row in roster:
            result = by_key.get(student_key(row["submission"]))
            if result is None:
                w.writerow(csv_row([row[key], "", ""]))
                continue
            w.writerow(csv_row([row[key], _number(result["score"]), moodle_feedback(result)]))
    return LmsFile(out.getvalue(), unknown, missing)


def moodle_feedback(result: dict[str, Any]) -> str:
    """A student's grade in words, for Moodle's feedback column."""
    failed = [n for n, e in result["katas"].items() if not e["passed"]]
    score, top = _number(result["score"]), _number(result["max_score"])
    if not failed:
        return ngettext("{score} of {max} point: every kata passed.",
                        "{score} of {max} points: every kata passed.",
                        int(result["max_score"])).format(score=score, max=top)
    return ngettext("{score} of {max} point; not passed: {katas}",
                    "{score} of {max} points; not passed: {katas}",
                    int(result["max_score"])).format(score=score, max=top,
                                                     katas=", ".join(failed))
