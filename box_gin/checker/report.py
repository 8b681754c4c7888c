"""The gradebook: a CSV, a JSON file, Gradescope's ``results.json``, and the rerun cache.

Every file is written atomically (a temporary file, then ``os.replace``), from the
results held in the checker's memory: nothing a submission writes meanwhile survives.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..i18n import ngettext
from ..katas.core import Kata
from ..katas.release import write_atomic
from ..katas.specs import KATAS
from .grader import StudentResult


def gradebook_csv(results: Sequence[StudentResult], katas: Sequence[Kata] = KATAS) -> str:
    """A row per student, a column per kata (its points), the total and the maximum."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["student", *(k.name for k in katas), "total", "max_score"])
    for r in results:
        w.writerow([r["student"], *(r["katas"][k.name]["points"] for k in katas),
                    r["score"], r["max_score"]])
    return out.getvalue()


def gradebook_json(results: Sequence[StudentResult]) -> str:
    """Every student's result, with the feedback on each kata."""
    return json.dumps(list(results), indent=1, ensure_ascii=False) + "\n"


def gradescope_json(result: StudentResult, katas: Sequence[Kata] = KATAS) -> str:
    """One student's result in Gradescope's ``results.json`` format."""
    tests = []
    for k in katas:
        entry = result["katas"][k.name]
        tests.append({"name": k.name, "score": entry["points"], "max_score": k.points,
                      "status": "passed" if entry["passed"] else "failed",
                      "output": entry["feedback"], "visibility": "visible"})
    data = {"score": result["score"], "max_score": result["max_score"], "tests": tests,
            "output": ngettext("{score} of {max} point", "{score} of {max} points",
                               result["max_score"]).format(score=result["score"],
                                                           max=result["max_score"])}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write_outputs(results: Sequence[StudentResult], *, csv_path: Path | None = None,
                  json_path: Path | None = None, gradescope_dir: Path | None = None) -> None:
    """Write the gradebook files asked for."""
    if csv_path is not None:
        write_atomic(csv_path, gradebook_csv(results))
    if json_path is not None:
        write_atomic(json_path, gradebook_json(results))
    if gradescope_dir is not None:
        if len(results) == 1:
            write_atomic(gradescope_dir / "results.json", gradescope_json(results[0]))
        else:
            for r in results:
                write_atomic(gradescope_dir / r["student"] / "results.json", gradescope_json(r))


class Cache:
    """Results of earlier runs, keyed by student and a hash of their files."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.entries: dict[str, dict[str, Any]] = {}
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data, dict) and isinstance(data.get("entries"), dict):
                    self.entries = data["entries"]
            except (OSError, ValueError):
                self.entries = {}

    def get(self, student: str, digest: str) -> StudentResult | None:
        """The cached result, if the files have not changed."""
        entry = self.entries.get(student)
        if isinstance(entry, dict) and entry.get("digest") == digest and isinstance(
                entry.get("result"), dict):
            result: StudentResult = entry["result"]
            return result
        return None

    def put(self, student: str, digest: str, result: StudentResult) -> None:
        """Remember a result."""
        self.entries[student] = {"digest": digest, "result": result}

    def save(self) -> None:
        """Write the cache (atomically)."""
        if self.path is not None:
            write_atomic(self.path, json.dumps({"entries": self.entries}, ensure_ascii=False))
