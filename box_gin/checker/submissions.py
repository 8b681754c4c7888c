"""Find the submissions under the paths given, and the code in each file.

- A notebook or a ``.py`` file given by name is one student's submission (named after
  the file).
- A folder of notebooks and ``.py`` files only is one student's submission (named after
  the folder), like a copy of ``exercises/``.
- A folder with subfolders holds one submission per subfolder (a folder per student);
  files directly inside it are one submission each.
- nbgrader's layout, ``submitted/<student>/<assignment>/``, is recognised, given either
  the course folder or ``submitted`` itself.

Nothing next to a submission (a ``conftest.py``, a module it imports) is ever run: only
the code cells of notebooks and the statements of ``.py`` files are read.
"""

from __future__ import annotations

import ast
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..i18n import _

SUFFIXES = (".ipynb", ".py")
SKIP_DIRS = {".ipynb_checkpoints", "__pycache__", ".git", ".venv"}


@dataclass
class Submission:
    """One student's files."""

    student: str
    files: list[Path] = field(default_factory=list)

    def digest(self, salt: str) -> str:
        """A hash of the files' names and contents (and ``salt``: the checker's version)."""
        h = hashlib.sha256(salt.encode())
        for f in sorted(self.files):
            h.update(f.name.encode() + b"\0")
            try:
                h.update(f.read_bytes())
            except OSError:
                h.update(b"<unreadable>")
            h.update(b"\0")
        return h.hexdigest()


def _code_files(folder: Path) -> list[Path]:
    out = []
    for p in sorted(folder.rglob("*")):
        if any(part in SKIP_DIRS or part.startswith(".")
               for part in p.relative_to(folder).parts):
            continue
        if p.is_file() and p.suffix in SUFFIXES and p.name != "conftest.py":
            out.append(p)
    return out


def find_submissions(paths: list[Path]) -> list[Submission]:
    """The submissions under ``paths``, one per student, in a stable order."""
    found: dict[str, Submission] = {}

    def add(student: str, files: list[Path]) -> None:
        name, n = student, 2
        while name in found:
            name, n = f"{student}-{n}", n + 1
        found[name] = Submission(name, files)

    for path in paths:
        path = Path(path)
        if path.is_file():
            add(path.stem, [path])
            continue
        if not path.is_dir():
            raise FileNotFoundError(_("no such file or folder: {path}").format(path=path))
        root = path / "submitted" if (path / "submitted").is_dir() else path
        subdirs = sorted(p for p in root.iterdir() if p.is_dir() and p.name not in SKIP_DIRS
                         and not p.name.startswith("."))
        if not subdirs:
            add(path.name, _code_files(path))
            continue
        for f in sorted(root.iterdir()):
            if f.is_file() and f.suffix in SUFFIXES and f.name != "conftest.py":
                add(f.stem, [f])
        for d in subdirs:
            add(d.name, _code_files(d))
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


def extract_cells(path: Path) -> list[tuple[str, str]]:
    """The code of a file as (label, source) pieces: the code cells of a notebook, the
    top-level statements of a ``.py`` file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadSubmission(_("{file}: cannot be read as text ({error})").format(
            file=path.name, error=exc)) from exc
    if path.suffix == ".ipynb":
        try:
            nb = json.loads(text)
            cells = nb["cells"]
            assert isinstance(cells, list)
        except (ValueError, KeyError, TypeError, AssertionError) as exc:
            raise BadSubmission(_("{file}: not a valid notebook (its JSON cannot be read: "
                                  "{error})").format(file=path.name, error=exc)) from exc
        out = []
        for i, cell in enumerate(cells):
            if not isinstance(cell, dict) or cell.get("cell_type") != "code":
                continue
            src = cell.get("source", "")
            src = "".join(src) if isinstance(src, list) else str(src)
            cleaned = _clean(src)
            if cleaned is not None and cleaned.strip():
                out.append((_("{file}, cell {n}").format(file=path.name, n=i + 1), cleaned))
        return out
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return [(path.name, text)]  # the child reports the syntax error
    lines = text.split("\n")
    out = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        last = node.end_lineno or node.lineno
        out.append((_("{file}, line {n}").format(file=path.name, n=first),
                    "\n" * (first - 1) + "\n".join(lines[first - 1:last])))
    return out
