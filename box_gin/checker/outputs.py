"""The gradebook: a CSV, a JSON file, Gradescope's ``results.json``, and the rerun cache.

Every file is written atomically (a temporary file, then ``os.replace``), each on its
own, from the results held in the checker's memory, after every child of the run is
gone: nothing a submission could write survives.  Every cell of the CSV is
spreadsheet-safe (:func:`box_gin.checker.safe.csv_cell`); every student is filed under
their key (:func:`box_gin.checker.submissions.student_key`), unique in the run, so one
student's result never lands in another's file.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import hmac
import io
import json
import os
import secrets
import urllib.parse
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from ..files import write_atomic
from ..i18n import _, ngettext
from ..katas.core import Kata
from ..katas.specs import KATAS
from .grader import CHECKER_VERSION, StudentResult
from .safe import csv_row
from .submissions import read_regular, student_key

#: The gradebook's format: 3 added each kata's structured ``verdict`` and each
#: student's ``key`` and ``language`` (docs/checker.md).
GRADEBOOK_VERSION = 3


def key_of(result: StudentResult) -> str:
    """The key a student's result is filed under (an older gradebook: made from the name)."""
    key = result.get("key")
    return key if isinstance(key, str) and key else student_key(str(result["student"]))


def gradebook_csv(results: Sequence[StudentResult], katas: Sequence[Kata] = KATAS) -> str:
    """A row per student, a column per kata (its points), the total and the maximum."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["student", *(k.name for k in katas), "total", "max_score"])
    for r in results:
        w.writerow(csv_row([r["student"], *(r["katas"][k.name]["points"] for k in katas),
                            r["score"], r["max_score"]]))
    return out.getvalue()


def gradebook(results: Sequence[StudentResult], *, seed: int, isolation: str,
              katas: Sequence[Kata] = KATAS) -> dict[str, Any]:
    """The whole gradebook as plain data (the JSON file's shape, see docs/checker.md)."""
    return {"format": "box-gin-gradebook", "version": GRADEBOOK_VERSION,
            "checker": CHECKER_VERSION,
            "seed": seed, "isolation": isolation,
            "max_score": sum(k.points for k in katas),
            "katas": [{"name": k.name, "points": k.points, "notebook": k.notebook}
                      for k in katas],
            "students": list(results)}


def gradebook_json(results: Sequence[StudentResult], *, seed: int, isolation: str,
                   katas: Sequence[Kata] = KATAS) -> str:
    """Every student's result, with the feedback on each kata, and the run's seed."""
    return json.dumps(gradebook(results, seed=seed, isolation=isolation, katas=katas),
                      indent=1, ensure_ascii=False) + "\n"


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


def folder_name(result: StudentResult) -> str:
    """The folder a student's files go in: their key, every character but ASCII letters,
    digits, ``-`` and ``_`` percent-encoded (one to one, so keys unique in the run give
    folders unique on any file system, case-insensitive ones too)."""
    return urllib.parse.quote(key_of(result), safe="-_").replace(".", "%2E") or "_"


def write_outputs(results: Sequence[StudentResult], *, seed: int, isolation: str,
                  csv_path: Path | None = None, json_path: Path | None = None,
                  gradescope_dir: Path | None = None) -> tuple[list[Path], list[str]]:
    """Write the gradebook files asked for, each on its own: the paths written, and an
    error for each file that could not be (the others are written all the same)."""
    jobs: list[tuple[Path, Callable[[], str]]] = []
    if csv_path is not None:
        jobs.append((csv_path, lambda: gradebook_csv(results)))
    if json_path is not None:
        jobs.append((json_path, lambda: gradebook_json(results, seed=seed,
                                                       isolation=isolation)))
    if gradescope_dir is not None:
        if len(results) == 1:
            jobs.append((gradescope_dir / "results.json",
                         lambda: gradescope_json(results[0])))
        else:
            for r in results:
                jobs.append((gradescope_dir / folder_name(r) / "results.json",
                             lambda r=r: gradescope_json(r)))  # type: ignore[misc]
    written, errors = [], []
    for path, text in jobs:
        try:
            # A character that UTF-8 cannot hold (a lone surrogate) is shown, not fatal.
            write_atomic(path, text().encode("utf-8", "backslashreplace").decode("utf-8"))
            written.append(path)
        except (OSError, ValueError, UnicodeError) as exc:
            errors.append(_("{path}: could not be written ({error})").format(
                path=path, error=exc.strerror if isinstance(exc, OSError) and exc.strerror
                else exc))
    return written, errors


def _key_path() -> Path:
    base = os.environ.get("BOX_GIN_KEY_DIR") or os.path.join(
        os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config"),
        "box-gin")
    return Path(base) / "cache.key"


def cache_key() -> bytes | None:
    """The secret that authenticates this user's cache entries (made on first use,
    readable by this user only); None when it cannot be kept."""
    path = _key_path()
    with suppress(OSError):
        return read_regular(path, 4096)[:64] or None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
        return read_regular(path, 4096)[:64] or None
    except OSError:
        return None


class Cache:
    """Results of earlier runs, keyed by student and a hash of their files; each entry
    signed (HMAC-SHA256 with this user's key), so a planted or edited entry is ignored.
    The cache keeps its run's seed: a rerun draws the same fresh cases."""

    def __init__(self, path: Path | None, seed: int | None = None,
                 key: bytes | None = None) -> None:
        self.path = path
        self.key = key
        self.seed = seed
        self.entries: dict[str, dict[str, Any]] = {}
        if path is None or key is None:
            return
        try:
            data = json.loads(read_regular(path, 64 * 1024 * 1024).decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return
        if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
            return
        stored = data.get("seed")
        if not isinstance(stored, int) or not hmac.compare_digest(
                str(data.get("mac", "")), self._mac(["seed", stored])):
            return
        if seed is not None and stored != seed:
            return  # another seed: every submission is graded again
        self.seed = stored
        self.entries = {s: e for s, e in data["entries"].items() if isinstance(e, dict)}

    def _mac(self, value: Any) -> str:
        assert self.key is not None
        message = json.dumps(value, sort_keys=True, ensure_ascii=True).encode()
        return hmac.new(self.key, message, hashlib.sha256).hexdigest()

    def get(self, student: str, digest: str) -> StudentResult | None:
        """The cached result, if the files have not changed and the entry is ours: a copy,
        so that what the run does to it (its feedback put into the student's language)
        leaves the signed entry as it was."""
        entry = self.entries.get(student)
        if not isinstance(entry, dict) or entry.get("digest") != digest:
            return None
        result = entry.get("result")
        if not isinstance(result, dict) or not hmac.compare_digest(
                str(entry.get("mac", "")), self._mac([self.seed, student, digest, result])):
            return None
        return copy.deepcopy(result)

    def put(self, student: str, digest: str, result: StudentResult) -> None:
        """Remember a result (a copy of it, as it is now: the run may change its own)."""
        if self.key is not None:
            kept = copy.deepcopy(result)
            self.entries[student] = {"digest": digest, "result": kept, "mac": self._mac(
                [self.seed, student, digest, kept])}

    def save(self) -> str | None:
        """Write the cache (atomically); an error message if it could not be."""
        if self.path is None or self.key is None or self.seed is None:
            return None
        try:
            entries = {}
            for key, entry in self.entries.items():
                try:  # an entry that cannot be kept costs only itself
                    json.dumps(entry, ensure_ascii=False).encode("utf-8")
                    entries[key] = entry
                except (ValueError, TypeError, UnicodeError):
                    continue
            write_atomic(self.path, json.dumps({"seed": self.seed, "mac": self._mac(
                ["seed", self.seed]), "entries": entries}, ensure_ascii=False))
        except (OSError, UnicodeError, ValueError) as exc:
            return _("{path}: could not be written ({error})").format(
                path=self.path, error=getattr(exc, "strerror", None) or exc)
        return None
