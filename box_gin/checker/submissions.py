"""Find the submissions under the paths given, and the code in each file.

- A notebook or a ``.py`` file given by name is one student's submission (named after
  the file).
- A folder of notebooks and ``.py`` files only is one student's submission (named after
  the folder), like a copy of ``exercises/``.  Its language folders (``fr/``, ``he/``
  ..., as ``exercises/`` has them) are one submission each, named ``exercises-fr``.
- A folder with subfolders holds one submission per subfolder (a folder per student);
  files directly inside it are one submission each.
- nbgrader's layout, ``submitted/<student>/<assignment>/``, is recognised, given either
  the course folder or ``submitted`` itself.

Nothing next to a submission (a ``conftest.py``, a module it imports) is ever run: only
the code cells of notebooks and the statements of ``.py`` files are read.
"""

from __future__ import annotations

import ast
import errno
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BoxGinError
from ..i18n import LANGUAGES, _
from ..katas.release import BEGIN_HIDDEN as HIDDEN_TESTS  # a cell with it is nbgrader's

SUFFIXES = (".ipynb", ".py")
SKIP_DIRS = {".ipynb_checkpoints", "__pycache__", ".git", ".venv"}
#: The largest file read as a submission, bytes.
MAX_FILE = 4 * 1024 * 1024
#: The most files read from one student's folder.
MAX_FILES = 64


class NothingToGrade(BoxGinError):
    """A path given to the checker holds no notebook or ``.py`` file to grade."""


@dataclass
class Submission:
    """One student's files, read once, at discovery: grading and the digest use these
    bytes, whatever happens to the files afterwards."""

    student: str
    files: list[Path] = field(default_factory=list)
    #: The bytes of each file, as read at discovery.
    data: dict[Path, bytes] = field(default_factory=dict)
    #: Files that were skipped or could not be read, and why.
    problems: list[str] = field(default_factory=list)

    def digest(self, salt: str) -> str:
        """A hash of the files' names and contents (and ``salt``: the checker's version)."""
        h = hashlib.sha256(salt.encode())
        for f in sorted(self.files):
            h.update(f.name.encode("utf-8", "replace") + b"\0")
            h.update(hashlib.sha256(self.data.get(f, b"")).digest())
        for problem in self.problems:
            h.update(problem.encode("utf-8", "replace") + b"\0")
        return h.hexdigest()


def read_regular(path: Path, limit: int = MAX_FILE) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a symlink, FIFO or device) of at
    most ``limit`` bytes; else ``OSError`` saying why."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, _("not a regular file"))
        if info.st_size > limit:
            raise OSError(errno.EFBIG, _("larger than {n} bytes").format(n=limit))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise OSError(errno.EFBIG, _("larger than {n} bytes").format(n=limit))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _code_files(folder: Path) -> tuple[list[Path], list[str]]:
    """The code files inside ``folder``, never through a symlink; and what was skipped."""
    out: list[Path] = []
    skipped: list[str] = []
    for top, dirs, names in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                         and not os.path.islink(os.path.join(top, d)))
        for name in sorted(names):
            p = Path(top) / name
            if name.startswith(".") or p.suffix not in SUFFIXES or name == "conftest.py":
                continue
            if p.is_symlink():
                skipped.append(_("{file}: a symbolic link, not graded").format(file=name))
                continue
            out.append(p)
    return sorted(out)[:MAX_FILES], skipped


def _top_files(folder: Path) -> list[Path]:
    """The code files lying directly in ``folder`` (no symlinks, no folders)."""
    return [f for f in sorted(folder.iterdir())
            if f.suffix in SUFFIXES and f.name != "conftest.py" and not f.name.startswith(".")
            and not f.is_symlink() and not f.is_dir()]


def _read_all(sub: Submission) -> Submission:
    kept = []
    for f in sub.files:
        try:
            sub.data[f] = read_regular(f)
            kept.append(f)
        except OSError as exc:
            sub.problems.append(_("{file}: not graded ({error})").format(
                file=f.name, error=exc.strerror or exc))
    sub.files = kept
    return sub


def find_submissions(paths: list[Path]) -> list[Submission]:
    """The submissions under ``paths``, one per student, in a stable order, each file
    read once now.  A path with nothing to grade in it raises :class:`NothingToGrade`."""
    found: dict[str, Submission] = {}

    def add(student: str, files: list[Path], skipped: list[str] | None = None) -> None:
        name, n = student, 2
        while name in found:
            name, n = f"{student}-{n}", n + 1
        found[name] = _read_all(Submission(name, files, problems=list(skipped or [])))

    for path in paths:
        path = Path(path)
        before = set(found)
        if path.is_file():
            path = path.resolve()  # named by the instructor: follow it
            if path.suffix not in SUFFIXES:
                raise NothingToGrade(_("{path}: not a notebook or a .py file").format(
                    path=path))
            add(path.stem, [path])
            continue
        if not path.is_dir():
            raise FileNotFoundError(_("no such file or folder: {path}").format(path=path))
        root = path / "submitted" if (path / "submitted").is_dir() else path
        subdirs = sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink()
                         and p.name not in SKIP_DIRS and not p.name.startswith("."))
        languages = [d for d in subdirs if d.name in LANGUAGES]
        if not subdirs:
            files, skipped = _code_files(path)
            if files:
                add(path.name, files, skipped)
        elif root == path and languages == subdirs and _top_files(root):
            # A copy of solutions/ or exercises/ with its translations: the English
            # notebooks are one submission, each language folder another.
            add(path.name, _top_files(root))
            for d in languages:
                files, skipped = _code_files(d)
                add(f"{path.name}-{d.name}", files, skipped)
        else:
            for f in _top_files(root):
                add(f.stem, [f])
            for d in subdirs:
                files, skipped = _code_files(d)
                add(d.name, files, skipped)
        if not any(found[s].files for s in set(found) - before):
            for s in set(found) - before:
                del found[s]
            raise NothingToGrade(_("{path}: no notebook or .py file to grade in it").format(
                path=path))
    return list(found.values())


class BadSubmission(Exception):
    """A file that holds no code we can read (not a notebook, not text)."""


def _clean(source: str) -> str | None:
    """A cell's code with IPython magics and shell lines made harmless (None: skip it)."""
    if source.lstrip().startswith("%%"):
        return None
    lines = []
    for line in source.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")):
            line = line[: len(line) - len(stripped)] + "pass  # " + stripped
        lines.append(line)
    return "\n".join(lines)


def extract_cells(path: Path, data: bytes | None = None) -> list[tuple[str, str]]:
    """The code of a file as (label, source) pieces: the code cells of a notebook, the
    top-level statements of a ``.py`` file.  ``data``: the file's bytes, read earlier."""
    try:
        raw = read_regular(path) if data is None else data
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadSubmission(_("{file}: cannot be read as text ({error})").format(
            file=path.name, error=exc)) from exc
    if path.suffix == ".ipynb":
        try:
            nb = json.loads(text)
        except (ValueError, RecursionError) as exc:
            line = getattr(exc, "lineno", None)
            raise BadSubmission(_("{file}: not a valid notebook: its JSON cannot be read "
                                  "(line {line})").format(file=path.name, line=line or "?")
                                ) from exc
        cells = nb.get("cells") if isinstance(nb, dict) else None
        if not isinstance(cells, list):
            raise BadSubmission(_("{file}: not a valid notebook: it has no list of "
                                  "cells").format(file=path.name))
        out = []
        for i, cell in enumerate(cells):
            if not isinstance(cell, dict) or cell.get("cell_type") != "code":
                continue
            src = cell.get("source", "")
            src = "".join(s for s in src if isinstance(s, str)) if isinstance(
                src, list) else str(src)
            if HIDDEN_TESTS in src:
                continue  # an nbgrader test cell: the instructor's, graded by nbgrader
            cleaned = _clean(src)
            if cleaned is not None and cleaned.strip():
                out.append((_("{file}, cell {n}").format(file=path.name, n=i + 1), cleaned))
        return out
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        line = getattr(exc, "lineno", None)
        raise BadSubmission(_("{file}: SyntaxError: {error} (line {line})").format(
            file=path.name, error=getattr(exc, "msg", None) or type(exc).__name__,
            line=line or "?")) from exc
    lines = text.split("\n")
    out = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        last = node.end_lineno or node.lineno
        out.append((_("{file}, line {n}").format(file=path.name, n=first),
                    "\n" * (first - 1) + "\n".join(lines[first - 1:last])))
    return out


def defined_names(cells: list[tuple[str, str]]) -> set[str]:
    """The names a file's code defines at its top level (functions and assignments)."""
    names: set[str] = set()
    for _label, source in cells:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names
