"""Every notebook in the learner's language, from the one English source.

    python -m box_gin.tools.translate_notebooks            # extract, then build
    python -m box_gin.tools.translate_notebooks extract    # only update the catalogs
    python -m box_gin.tools.translate_notebooks build      # only write the notebooks
    python -m box_gin.tools.translate_notebooks check      # list problems, write nothing

The English notebooks (``notebooks/0*.ipynb``, ``notebooks/play.ipynb`` and the kata
notebooks ``solutions/*.ipynb``) are the only source.  **Extract** cuts their text into
messages (:mod:`.notebook_messages`), one gettext catalog per notebook: a markdown cell
gives one message per heading, paragraph, list item and table row; a code cell gives its
comments, its docstrings and the string literals on lines that end with the marker
comment ``# i18n``.  The template is ``notebooks/locale/pot/<group>/
<notebook>.pot``, and each language's catalog ``notebooks/locale/<lang>/<group>/
<notebook>.po`` is brought up to date with Babel: a changed paragraph comes back
untranslated (or fuzzy, with the old translation to adapt), and nothing else moves.

**Build** writes, for every language that has started translating (any message
translated), ``notebooks/<lang>/`` and ``solutions/<lang>/`` with every message replaced
by its translation, the first code cell switched to ``set_language("<lang>")``, and
executes each notebook whose text changed, or whose outputs show a UI translation that
has changed since (:mod:`.notebook_stamp`: the metadata ``box_gin`` holds the language
and a hash of those messages), so outputs are in the language, and current; then
``exercises/<lang>/`` from ``solutions/<lang>/`` with the answers removed.  Hebrew
prose is wrapped in ``<div dir="rtl">`` and printed lines shown right to left
(:mod:`box_gin.rtl_output`); code and cards stay left to right.  A
language with any message missing or fuzzy fails the build, naming each one.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import io
import json
import posixpath
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from ..i18n import LANGUAGES, RTL_LANGUAGES, isolate_ltr
from . import notebook_stamp as stamps
from .notebook_messages import CELL_SPLIT, MARKER, TranslationError, Unit, cell_source, cell_units

# read here by the tests:
from .notebook_messages import CODE_SPAN as CODE_SPAN
from .notebook_messages import HEBREW as HEBREW
from .notebook_messages import PLACEHOLDER as PLACEHOLDER
from .notebook_messages import markdown_units as markdown_units

ROOT = Path(__file__).resolve().parents[2]
LOCALE = Path("notebooks") / "locale"
STABLE_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
SET_LANGUAGE = re.compile(r"""set_language\((["'])en\1\)""")
IMPORT_SET_LANGUAGE = re.compile(r"^(from box_gin\.i18n import .*?)\bset_language\b", re.M)


@dataclass(frozen=True)
class Source:
    """One English notebook and where its translations go."""

    group: str          # "notebooks" or "solutions"
    path: Path          # relative to the repository root

    @property
    def stem(self) -> str:
        return self.path.stem

    def pot(self, root: Path) -> Path:
        return root / LOCALE / "pot" / self.group / f"{self.stem}.pot"

    def po(self, root: Path, lang: str) -> Path:
        return root / LOCALE / lang / self.group / f"{self.stem}.po"

    def target(self, root: Path, lang: str) -> Path:
        return root / self.group / lang / tagged(self.path.name, lang)

    def exercise(self, root: Path, lang: str) -> Path | None:
        return root / "exercises" / lang / tagged(self.path.name, lang) \
            if self.group == "solutions" else None


def tagged(name: str, lang: str) -> str:
    """A translated notebook's file name: the English name with the language before
    ``.ipynb`` (``01_cards_and_dealing.fr.ipynb``), so that the same notebook open in
    two languages has two tab names, and its number still comes first."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{lang}.{suffix}" if dot else f"{name}.{lang}"


def sources(root: Path = ROOT) -> list[Source]:
    """The English notebooks: the six teaching notebooks, the play app, the katas."""
    from .kit import kit_files  # never a checkpoint or a learner's scratch notebook

    teaching = kit_files(root, "notebooks/[0-9]*.ipynb")
    play = [root / "notebooks" / "play.ipynb"]
    katas = kit_files(root, "solutions/*.ipynb")
    out = [Source("notebooks", p.relative_to(root)) for p in [*teaching, *play] if p.is_file()]
    out += [Source("solutions", p.relative_to(root)) for p in katas]
    return out


def languages() -> tuple[str, ...]:
    """Every language but English."""
    return tuple(lang for lang in LANGUAGES if lang != "en")


# --- catalogs ---------------------------------------------------------------------------

def read_notebook(path: Path) -> dict[str, Any]:
    try:
        nb: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise TranslationError(f"{path}: not a readable notebook: {err}") from None
    return nb


def template(source: Source, root: Path = ROOT) -> Catalog:
    """The messages of one English notebook, in reading order."""
    catalog = _new_catalog(None, source)
    nb = read_notebook(root / source.path)
    for index, cell in enumerate(nb.get("cells", [])):
        try:
            units = cell_units(cell)
        except TranslationError as err:
            raise TranslationError(f"{source.path} cell {index}: {err}") from None
        for unit in units:
            if unit.text not in catalog:
                catalog.add(unit.text, auto_comments=[unit.comment])
    return catalog


def _new_catalog(lang: str | None, source: Source) -> Catalog:
    catalog = Catalog(locale=lang, domain=source.stem, project="box-gin notebooks",
                      version="0.1", copyright_holder="box-gin developers",
                      msgid_bugs_address="-", creation_date=STABLE_DATE,
                      revision_date=STABLE_DATE, fuzzy=False)
    catalog.last_translator = "box-gin developers"
    if lang:
        catalog.language_team = f"{lang} <->"
    return catalog


def read_catalog(path: Path, lang: str | None = None) -> Catalog | None:
    if not path.exists():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def write_catalog(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=88, sort_output=False, include_lineno=False,
             omit_header=False, ignore_obsolete=True)
    data = buffer.getvalue()
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def extract(root: Path = ROOT, langs: Iterable[str] | None = None) -> list[Path]:
    """Write every template and bring every language's catalogs up to date with it."""
    written = []
    for source in sources(root):
        pot = template(source, root)
        write_catalog(source.pot(root), pot)
        for lang in langs or languages():
            path = source.po(root, lang)
            catalog = read_catalog(path, lang) or _new_catalog(lang, source)
            catalog.update(pot, no_fuzzy_matching=False, update_header_comment=True)
            # Babel keeps a new template's order only for new catalogs: restore it.
            ordered = _new_catalog(lang, source)
            for message in pot:
                if message.id:
                    found = catalog.get(message.id)
                    if found is not None:
                        ordered[message.id] = found
            write_catalog(path, ordered)
            written.append(path)
    return written


def translations(source: Source, lang: str, root: Path = ROOT) -> dict[str, str]:
    """msgid -> translation, for the messages translated and not fuzzy."""
    catalog = read_catalog(source.po(root, lang), lang)
    if catalog is None:
        return {}
    return {str(m.id): str(m.string) for m in catalog
            if m.id and m.string and not m.fuzzy}


def started(lang: str, root: Path = ROOT) -> bool:
    """Whether any message of ``lang`` is translated: only those languages are built."""
    return any(translations(source, lang, root) for source in sources(root))


def missing(source: Source, lang: str, root: Path = ROOT) -> list[str]:
    """The messages of the English source that ``lang`` lacks (missing or fuzzy)."""
    done = translations(source, lang, root)
    catalog = read_catalog(source.po(root, lang), lang)
    fuzzy = {str(m.id) for m in catalog or () if m.id and m.fuzzy}
    out = []
    for message in template(source, root):
        if message.id and message.id not in done:
            why = "fuzzy (the English changed)" if message.id in fuzzy else "untranslated"
            out.append(f"{source.po(root, lang).relative_to(root)}: {why}: {message.id!r}")
    return out


# --- writing a translated notebook -----------------------------------------------------

#: A markdown link's target: ``[text](target)``.
LINK = re.compile(r"(\]\()([^)\s]+)(\))")
#: ``exercises/`` or ``exercises/02_melds.ipynb`` in a code span or a link's text.
EXERCISE_NAME = re.compile(r"([`\[\u2066])exercises/([\w.-]+\.ipynb)?")
#: A replacement field of an f-string with no conversion or format: ``{hand.upcard}``.
FIELD = re.compile(r"(?<!\{)\{([^{}!:]+)\}(?!\})")
#: A link whose text is (an isolate around) a notebook path: ``[02_melds.ipynb](…)``.
NAMED_LINK = re.compile(r"\[(\u2066?)([\w./-]+\.ipynb)(\u2069?)\]\(([^)\s]+)\)")
#: The folders whose notebooks have a translation in ``<folder>/<lang>/``.
TRANSLATED = ("notebooks", "solutions", "exercises")


def _link(target: str, group: str, lang: str) -> str:
    """A relative link of an English notebook in ``group/``, for its translation in
    ``group/lang/``: the same file, or its translation when it has one."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^[#/]", target):
        return target  # a web address, an anchor, an absolute path
    path, _hash, anchor = target.partition("#")
    where = posixpath.normpath(posixpath.join(group, path))
    folder, name = posixpath.split(where)
    if folder in TRANSLATED and name.endswith(".ipynb") and (folder, name) != (
            "notebooks", "START.ipynb"):
        where = posixpath.join(folder, lang, tagged(name, lang))
    new = posixpath.relpath(where, posixpath.join(group, lang))
    return new + (f"#{anchor}" if anchor else "")


def _named_link(match: re.Match[str], lang: str) -> str:
    before, text, after, target = match.groups()
    name = posixpath.basename(target.partition("#")[0])
    folder, _sep, shown = text.rpartition("/")
    if name == tagged(shown, lang):
        text = (folder + "/" if folder else "") + name
    return f"[{before}{text}{after}]({target})"


def _markdown(source: str, units: list[Unit], table: dict[str, str], lang: str,
              group: str = "notebooks") -> str:
    lines = source.split("\n")
    rtl = lang in RTL_LANGUAGES
    for unit in reversed(units):
        text = table[unit.text]
        if rtl:
            text = isolate_ltr(text)
        if unit.kind == "table row":
            new = [unit.prefix + "| " + " | ".join(CELL_SPLIT.split(text.strip())) + " |"]
        else:
            pad = " " * len(unit.prefix) if unit.kind == "list item" else unit.prefix
            parts = text.split("\n")
            new = [unit.prefix + parts[0], *(pad + p for p in parts[1:])]
        lines[unit.first: unit.last + 1] = new
    text = "\n".join(lines)
    text = EXERCISE_NAME.sub(lambda m: m[1] + f"exercises/{lang}/" + (
        tagged(m[2], lang) if m[2] else ""), text)
    text = LINK.sub(lambda m: m[1] + _link(m[2], group, lang) + m[3], text)
    # a link that shows its file's name shows the translation's: [03_knocking.fr.ipynb]
    text = NAMED_LINK.sub(lambda m: _named_link(m, lang), text)
    if lang in RTL_LANGUAGES:
        text = f'<div dir="rtl">\n\n{text.strip()}\n\n</div>'
    return text


def _code(source: str, units: list[Unit], table: dict[str, str], lang: str) -> str:
    lines = source.split("\n")
    # right to left, bottom to top, so earlier positions stay valid
    for unit in sorted(units, key=lambda u: (u.first, u.col), reverse=True):
        text = table[unit.text]
        if lang in RTL_LANGUAGES and unit.kind == "string" and "f" in unit.quote.lower():
            # a value printed among right-to-left words keeps its own order
            text = FIELD.sub(lambda m: "{isolate(" + m[1].strip() + ")}", text)
        if unit.kind == "comment":
            new = "# " + text
        else:
            if unit.indent:
                text = "\n".join(p if n == 0 else unit.indent + p if p else p
                                 for n, p in enumerate(text.split("\n")))
            new = unit.quote + text + unit.quote[len(unit.quote.rstrip("\"'")):]
        head = lines[unit.first][: unit.col]
        tail = lines[unit.last][unit.end_col:]
        lines[unit.first: unit.last + 1] = (head + new + tail).split("\n")
    return "\n".join(MARKER.sub("", line) for line in lines)


#: Right to left, what a notebook prints is shown right to left (box_gin.rtl_output).
RTL_IMPORT = "from box_gin.rtl_output import print_right_to_left"
RTL_CALL = "print_right_to_left()"


def _right_to_left(source: str) -> str:
    """The first code cell of a right-to-left notebook: after its ``box_gin.i18n`` import
    it imports :func:`box_gin.rtl_output.print_right_to_left`, and calls it right after
    ``set_language``, before anything is printed."""
    lines = source.split("\n")
    at = next(i for i, line in enumerate(lines) if "set_language(" in line
              and not line.lstrip().startswith(("from ", "import ")))
    lines.insert(at + 1, RTL_CALL)
    imports = [i for i, line in enumerate(lines) if line.startswith("from box_gin.i18n import")]
    lines.insert(imports[0] + 1 if imports else at, RTL_IMPORT)
    return "\n".join(lines)


def _with_language(source: str, lang: str) -> str:
    """The first code cell, switched to ``lang`` (and, right to left, importing
    :func:`box_gin.i18n.isolate`, which the translated f-strings call, and showing
    printed lines right to left)."""
    if lang in RTL_LANGUAGES:
        source = IMPORT_SET_LANGUAGE.sub(r"\1isolate, set_language", source, count=1)
        return _right_to_left(_set_language(source, lang))
    return _set_language(source, lang)


def _set_language(source: str, lang: str) -> str:
    if SET_LANGUAGE.search(source):
        return SET_LANGUAGE.sub(f'set_language("{lang}")', source)
    names = "isolate, set_language" if lang in RTL_LANGUAGES else "set_language"
    setting = f'from box_gin.i18n import {names}\n\nset_language("{lang}")\n'
    # before the cell's last expression, which stays last so that its value is shown
    try:
        body = ast.parse(source).body
    except SyntaxError:
        body = []
    if body and isinstance(body[-1], ast.Expr):
        lines = source.split("\n")
        at = body[-1].lineno - 1
        return "\n".join([*lines[:at], *setting.split("\n"), *lines[at:]])
    return source.rstrip("\n") + "\n\n" + setting.rstrip("\n")


def translate_notebook(nb: dict[str, Any], table: dict[str, str], lang: str,
                       where: str = "", group: str = "notebooks") -> dict[str, Any]:
    """A copy of ``nb`` with every message translated (outputs kept as they are)."""
    cells = []
    first_code = True
    for index, cell in enumerate(nb.get("cells", [])):
        new = json.loads(json.dumps(cell))
        source = cell_source(cell)
        try:
            units = cell_units(cell)
        except TranslationError as err:
            raise TranslationError(f"{where} cell {index}: {err}") from None
        lacking = [u.text for u in units if u.text not in table]
        if lacking:
            raise TranslationError(f"{where} cell {index}: no {lang} translation of "
                                   f"{lacking[0]!r}")
        if cell.get("cell_type") == "markdown":
            source = _markdown(source, units, table, lang, group)
        elif cell.get("cell_type") == "code":
            source = _code(source, units, table, lang)
            if first_code:
                source = _with_language(source, lang)
                first_code = False
        new["source"] = source.splitlines(keepends=True)
        cells.append(new)
    metadata = {**nb.get("metadata", {}), stamps.KEY: {"language": lang}}
    return {**nb, "cells": cells, "metadata": metadata}


def _same_text(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def key(nb: dict[str, Any]) -> list[tuple[str, str, Any]]:
        return [(c.get("cell_type", ""), cell_source(c), c.get("metadata", {}).get("tags"))
                for c in nb.get("cells", [])]
    return key(a) == key(b)


def _executed(nb: dict[str, Any]) -> bool:
    code = [c for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    return all(c.get("execution_count") is not None for c in code)


@dataclass(frozen=True)
class Plan:
    """What the build would write for one notebook in one language."""

    source: Source
    lang: str
    notebook: dict[str, Any]
    stale: bool         # the committed translation's text differs (or it is missing),
                        # or a UI translation its outputs show has changed
    unstamped: bool = False  # written before notebooks carried their language and stamp


def plan(source: Source, lang: str, root: Path = ROOT) -> Plan:
    nb = read_notebook(root / source.path)
    table = translations(source, lang, root)
    new = translate_notebook(nb, table, lang, str(source.path), source.group)
    target = source.target(root, lang)
    old = read_notebook(target) if target.exists() else None
    stale = old is None or not _same_text(old, new) or not _executed(old) or (
        stamps.KEY in old.get("metadata", {}) and not stamps.fresh(old, lang, root))
    return Plan(source, lang, new, stale, old is not None and stamps.KEY not in old.get(
        "metadata", {}))


def problems(root: Path = ROOT, langs: Iterable[str] | None = None) -> list[str]:
    """Every message lacking in a started language, and every generated notebook whose
    text no longer matches its English source and catalog."""
    out: list[str] = []
    for lang in langs or languages():
        if not started(lang, root):
            continue
        lacking = [m for s in sources(root) for m in missing(s, lang, root)]
        out += lacking
        if lacking:
            continue
        for source in sources(root):
            p = plan(source, lang, root)
            if p.stale or p.unstamped:
                out.append(f"{source.target(root, lang).relative_to(root)}: out of date: "
                           "run `make translations`")
            exercise = source.exercise(root, lang)
            if exercise is not None and not p.stale and (
                    not exercise.exists() or exercise.read_text(encoding="utf-8")
                    != _exercise_text(read_notebook(source.target(root, lang)), source)):
                out.append(f"{exercise.relative_to(root)}: out of date: "
                           "run `make translations`")
    return out


def _exercise_text(nb: dict[str, Any], source: Source) -> str:
    from ..katas.release import dumps, release_notebook

    return dumps(release_notebook(nb, f"{source.group}/{source.path.name}"))


def _execute_one(args: tuple[str, str]) -> tuple[str, str]:
    from .execute import execute

    path, _lang = args
    try:
        execute(Path(path))
    except Exception as err:  # reported by the caller, with the notebook's name
        return path, f"{type(err).__name__}: {err}"
    return path, ""


def build(root: Path = ROOT, langs: Iterable[str] | None = None, jobs: int = 1,
          force: bool = False) -> list[str]:
    """Write and execute the translated notebooks; returns the problems (empty: done)."""
    from ..files import write_atomic
    from ..katas.release import dumps

    report: list[str] = []
    todo: list[tuple[str, str]] = []
    chosen = []
    for lang in langs or languages():
        if not started(lang, root):
            total = sum(len(template(s, root)) for s in sources(root))
            print(f"{lang}: not started (0 of {total} messages translated), skipped")
            continue
        lacking = [m for s in sources(root) for m in missing(s, lang, root)]
        if lacking:
            report += lacking
            continue
        chosen.append(lang)
        for source in sources(root):
            p = plan(source, lang, root)
            target = source.target(root, lang)
            if p.stale or force:
                write_atomic(target, dumps(p.notebook))
                todo.append((str(target), lang))
            elif p.unstamped:  # outputs kept: stamped as they are, once
                write_atomic(target, dumps(stamps.stamped(read_notebook(target), lang, root)))
                print(f"stamped {target.relative_to(root)}")
            else:
                print(f"up to date {target.relative_to(root)}")
    if todo:
        langs_of = dict(todo)
        for path, err in _run(todo, jobs):
            print(f"executed {Path(path).relative_to(root)}" if not err else
                  f"FAILED {path}: {err}", flush=True)
            if err:
                report.append(f"{path}: execution failed: {err}")
            else:  # the language and the UI messages its new outputs show
                write_atomic(Path(path), dumps(stamps.stamped(read_notebook(Path(path)),
                                                              langs_of[path], root)))
    for lang in chosen:
        for source in sources(root):
            exercise = source.exercise(root, lang)
            if exercise is None:
                continue
            nb = read_notebook(source.target(root, lang))
            text = _exercise_text(nb, source)
            if not exercise.exists() or exercise.read_text(encoding="utf-8") != text:
                write_atomic(exercise, text)
                print(f"released {exercise.relative_to(root)}")
    return report


def _run(todo: list[tuple[str, str]], jobs: int) -> Iterator[tuple[str, str]]:
    if jobs <= 1 or len(todo) == 1:
        for item in todo:
            print(f"execute {item[0]}", flush=True)
            yield _execute_one(item)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_execute_one, todo)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m box_gin.tools.translate_notebooks",
                                     description="Translate the notebooks from catalogs.")
    parser.add_argument("command", nargs="?", default="all",
                        choices=["all", "extract", "build", "check"])
    parser.add_argument("--lang", action="append", choices=languages(),
                        help="only this language (repeatable)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="notebooks executed at once")
    parser.add_argument("--force", action="store_true",
                        help="execute every notebook, even those whose text is unchanged")
    args = parser.parse_args(argv)
    try:
        if args.command in ("all", "extract"):
            extract(ROOT, args.lang)
        if args.command == "check":
            found = problems(ROOT, args.lang)
        elif args.command in ("all", "build"):
            found = build(ROOT, args.lang, args.jobs, args.force)
        else:
            found = []
    except TranslationError as err:
        print(err, file=sys.stderr)
        return 1
    for line in found:
        print(line, file=sys.stderr)
    if any("out of date" not in line for line in found):
        print(f"{len(found)} problem(s): translate the messages named above in their .po "
              "files (see docs/translations.md), then run `make translations` again",
              file=sys.stderr)
    elif found:
        print(f"{len(found)} notebook(s) out of date: run `make translations`",
              file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
