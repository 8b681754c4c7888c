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

A student's name is data.  :func:`display_name` is the one place a path becomes a name
(any bytes: undecodable ones shown as ``\\xff``; control and bidi characters escaped;
Unicode NFC) and :func:`student_key` the one place a name becomes the key every output
files the student under (NFC, case folded, trailing dots and spaces dropped).  Two
submissions whose keys are equal (``Café`` in NFC and NFD, ``bob`` and ``BOB``,
``zz_victim`` and ``zz_victim.``, a file ``x.py`` beside a folder ``x/``) are told apart
the same way in every output: the folder, else the name already in its plain form, keeps
it (none does when that does not settle it, as for ``bob`` and ``BOB``); each other one
is named ``NAME~2``, ``NAME~3``... and the collision is listed among its problems
(docs/checker.md, "Names and output surfaces").
"""

from __future__ import annotations

import ast
import errno
import hashlib
import json
import os
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BoxGinError
from ..i18n import LANGUAGES, _
from ..katas.release import BEGIN_HIDDEN as HIDDEN_TESTS  # a cell with it is nbgrader's
from .safe import visible

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

    #: The name shown for the student (:func:`display_name`, made unique).
    student: str
    files: list[Path] = field(default_factory=list)
    #: The bytes of each file, as read at discovery.
    data: dict[Path, bytes] = field(default_factory=dict)
    #: Files that were skipped or could not be read, and why.
    problems: list[str] = field(default_factory=list)
    #: The key every output files the student under (:func:`student_key`).
    key: str = ""
    #: The language of the submission's notebooks, from their metadata, else their file
    #: names (``02_melds.hu.ipynb``), else the folder they are in (``exercises/hu/``).
    language: str | None = None

    def __post_init__(self) -> None:
        if not self.key:
            self.key = student_key(self.student)

    def digest(self, salt: str) -> str:
        """A hash of the files' names and contents (and ``salt``: the checker's version)."""
        h = hashlib.sha256(salt.encode())
        for f in sorted(self.files):
            h.update(f.name.encode("utf-8", "replace") + b"\0")
            h.update(hashlib.sha256(self.data.get(f, b"")).digest())
        for problem in self.problems:
            h.update(problem.encode("utf-8", "replace") + b"\0")
        return h.hexdigest()


def display_name(raw: str | bytes) -> str:
    """A path's name as a student's name: bytes that are not UTF-8 shown as ``\\xff``,
    control, bidi and format characters escaped (``\\x1b``, ``\\u202e``), Unicode NFC."""
    data = raw if isinstance(raw, bytes) else os.fsencode(raw)
    text = unicodedata.normalize("NFC", data.decode("utf-8", "backslashreplace"))
    return visible(text) or "_"


def student_key(name: str) -> str:
    """The key a student is filed under: their name in NFC, case folded, without
    trailing dots or spaces (which Windows and case-insensitive file systems drop)."""
    key = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return key.rstrip(". ") or "_"


def _plain_form(raw: str) -> bool:
    """Whether a name is already as its key would have it: NFC, no trailing dot or space."""
    text = os.fsencode(raw).decode("utf-8", "backslashreplace")
    return unicodedata.is_normalized("NFC", text) and text == text.rstrip(". ")


def language_of(files: list[Path], data: dict[Path, bytes] | None = None) -> str | None:
    """The language of a submission's files: as the notebooks' metadata says
    (``box_gin.language``, which every generated translation carries), else their file
    names (``02_melds.hu.ipynb``), else the folder they lie in (``hu/``); each only when
    all the files that say one say the same."""
    def said(f: Path) -> object:
        try:
            lang = json.loads((data or {}).get(f, b""))["metadata"]["box_gin"]["language"]
        except (ValueError, TypeError, KeyError):
            return None
        return lang if isinstance(lang, str) else None

    for found in ({said(f) for f in files} - {None},
                  {f.suffixes[-2][1:] for f in files if len(f.suffixes) > 1} & set(LANGUAGES),
                  {f.parent.name for f in files}):
        if len(found) == 1:
            (lang,) = found
            if lang in LANGUAGES:
                return str(lang)
    return None


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
                skipped.append(_("{file}: a symbolic link, not graded").format(
                    file=visible(name)))
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
                file=visible(f.name), error=exc.strerror or exc))
    sub.files = kept
    sub.language = language_of(kept, sub.data)
    return sub


def find_submissions(paths: list[Path]) -> list[Submission]:
    """The submissions under ``paths``, one per student, in a stable order, each file
    read once now.  A path with nothing to grade in it raises :class:`NothingToGrade`."""
    claims: list[_Claim] = []

    def add(student: str, files: list[Path], skipped: list[str] | None = None,
            where: Path | None = None, folder: bool = True) -> None:
        claims.append(_Claim(student, files, list(skipped or []), where or files[0],
                             folder, len(claims)))

    for path in paths:
        path = Path(path)
        before = len(claims)
        if path.is_file():
            path = path.resolve()  # named by the instructor: follow it
            if path.suffix not in SUFFIXES:
                raise NothingToGrade(_("{path}: not a notebook or a .py file").format(
                    path=path))
            add(path.stem, [path], folder=False)
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
                add(path.name, files, skipped, path)
        elif root == path and languages == subdirs and _top_files(root):
            # A copy of solutions/ or exercises/ with its translations: the English
            # notebooks are one submission, each language folder another.
            add(path.name, _top_files(root), where=path)
            for d in languages:
                files, skipped = _code_files(d)
                add(f"{path.name}-{d.name}", files, skipped, d)
        else:
            for f in _top_files(root):
                add(f.stem, [f], folder=False)
            for d in subdirs:
                files, skipped = _code_files(d)
                add(d.name, files, skipped, d)
        if not any(c.files for c in claims[before:]):
            raise NothingToGrade(_("{path}: no notebook or .py file to grade in it").format(
                path=path))
    return [_read_all(sub) for sub in resolve_names(claims)]


@dataclass
class _Claim:
    """A submission found, before its name is made unique."""

    raw: str
    files: list[Path]
    skipped: list[str]
    where: Path
    folder: bool
    order: int


def resolve_names(claims: list[_Claim]) -> list[Submission]:
    """A submission per claim, in the claims' order, named by :func:`display_name` and
    made unique by key: of the claims sharing a key, the folder, else the name in its
    plain form, keeps it; each other is named ``NAME~2``, ``NAME~3``... (the first free
    key, in byte order), and the collision is among its problems.  When no rule settles
    it (two plain folders ``bob`` and ``BOB``), none keeps the name."""
    taken: set[str] = set()
    names: dict[int, tuple[str, str | None]] = {}  # claim -> its name, and the note
    groups: dict[str, list[_Claim]] = {}
    for c in claims:
        groups.setdefault(student_key(display_name(c.raw)), []).append(c)
    def rank(c: _Claim) -> tuple[bool, bool]:
        return (not c.folder, not _plain_form(c.raw))

    winners: dict[str, _Claim | None] = {}
    for key, group in groups.items():
        group.sort(key=lambda c: (*rank(c), os.fsencode(c.raw), c.order))
        best = [c for c in group if rank(c) == rank(group[0])]
        # A tie no rule can settle (bob and BOB, both folders): nobody keeps the name.
        winner = best[0] if len(best) == 1 else None
        winners[key] = winner
        if winner is not None:
            names[winner.order] = (display_name(winner.raw), None)
        taken.add(key)
    for key, group in groups.items():
        winner = winners[key]
        for c in group:
            if c is winner:
                continue
            if winner is None and len(group) == 1:
                names[c.order] = (display_name(c.raw), None)
                continue
            other = winner or next(o for o in group if o is not c)
            base, n = display_name(c.raw), 2
            while student_key(f"{base}~{n}") in taken:
                n += 1
            taken.add(student_key(f"{base}~{n}"))
            note = _("{path}: its name is the same as {other}'s once case, Unicode form and "
                     "trailing dots are set aside: graded as {graded}").format(
                path=visible(os.fsdecode(c.where)), other=visible(os.fsdecode(other.where)),
                graded=f"{base}~{n}")
            names[c.order] = (f"{base}~{n}", note)
    out = []
    for c in claims:
        name, maybe_note = names[c.order]
        problems = [*c.skipped, *([maybe_note] if maybe_note else [])]
        out.append(Submission(name, c.files, problems=problems, key=student_key(name),
                              language=language_of(c.files)))
    return out


class BadSubmission(BoxGinError):
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
            file=visible(path.name), error=exc)) from exc
    if path.suffix == ".ipynb":
        try:
            nb = json.loads(text)
        except (ValueError, RecursionError) as exc:
            line = getattr(exc, "lineno", None)
            raise BadSubmission(_("{file}: not a valid notebook: its JSON cannot be read "
                                  "(line {line})").format(file=visible(path.name),
                                                          line=line or "?")
                                ) from exc
        cells = nb.get("cells") if isinstance(nb, dict) else None
        if not isinstance(cells, list):
            raise BadSubmission(_("{file}: not a valid notebook: it has no list of "
                                  "cells").format(file=visible(path.name)))
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
                label = _("{file}, cell {n}").format(file=visible(path.name), n=i + 1)
                out.append((label, cleaned))
        return out
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        line = getattr(exc, "lineno", None)
        raise BadSubmission(_("{file}: SyntaxError: {error} (line {line})").format(
            file=visible(path.name), error=getattr(exc, "msg", None) or type(exc).__name__,
            line=line or "?")) from exc
    lines = text.split("\n")
    out = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        last = node.end_lineno or node.lineno
        out.append((_("{file}, line {n}").format(file=visible(path.name), n=first),
                    "\n" * (first - 1) + "\n".join(lines[first - 1:last])))
    return out


def defined_names(cells: list[tuple[str, str]]) -> set[str]:
    """The names a file's code defines at its top level (functions, assignments and
    imports)."""
    return _top_level_names(cells)[0]


def engine_imports(cells: list[tuple[str, str]]) -> set[str]:
    """The names a file's code only imports from ``box_gin`` at its top level (never
    defines itself): the kit's own functions, which no kata's child lets in."""
    return _top_level_names(cells)[1]


def _top_level_names(cells: list[tuple[str, str]]) -> tuple[set[str], set[str]]:
    names: set[str] = set()
    own: set[str] = set()
    from_engine: set[str] = set()
    for _label, source in cells:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                own.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                own.update(t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                imported = {(a.asname or a.name).split(".")[0] for a in node.names}
                names.update(imported)
                modules = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                           else [a.name for a in node.names])
                engine = node.level == 0 if isinstance(node, ast.ImportFrom) else True
                engine = engine and all(m.split(".")[0] == "box_gin" for m in modules)
                if engine:
                    from_engine.update(imported)
    return names | own, from_engine - own
