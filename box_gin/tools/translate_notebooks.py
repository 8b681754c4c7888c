"""Every notebook in the learner's language, from the one English source.

    python -m box_gin.tools.translate_notebooks            # extract, then build
    python -m box_gin.tools.translate_notebooks extract    # only update the catalogs
    python -m box_gin.tools.translate_notebooks build      # only write the notebooks
    python -m box_gin.tools.translate_notebooks check      # list problems, write nothing

The English notebooks (``notebooks/0*.ipynb``, ``notebooks/play.ipynb`` and the kata
notebooks ``solutions/*.ipynb``) are the only source.  **Extract** cuts their text into
messages, one gettext catalog per notebook: a markdown cell gives one message per
heading, paragraph, list item and table row (found with markdown-it-py's token maps);
a code cell gives its comments, its docstrings and the string literals on lines that end
with the marker comment ``# i18n``.  The template is ``notebooks/locale/pot/<group>/
<notebook>.pot``, and each language's catalog ``notebooks/locale/<lang>/<group>/
<notebook>.po`` is brought up to date with Babel: a changed paragraph comes back
untranslated (or fuzzy, with the old translation to adapt), and nothing else moves.

**Build** writes, for every language that has started translating (any message
translated), ``notebooks/<lang>/`` and ``solutions/<lang>/`` with every message replaced
by its translation, the first code cell switched to ``set_language("<lang>")``, and
executes each notebook whose text changed (so outputs are in the language too); then
``exercises/<lang>/`` from ``solutions/<lang>/`` with the answers removed.  Hebrew
prose is wrapped in ``<div dir="rtl">``; code, outputs and cards stay left to right.  A
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
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from ..errors import BoxGinError
from ..i18n import LANGUAGES, RTL_LANGUAGES, isolate_ltr

ROOT = Path(__file__).resolve().parents[2]
LOCALE = Path("notebooks") / "locale"
#: The marker that makes the string literals of a code line translatable; ``# i18n: chart``
#: also marks text that matplotlib draws (a note for the translator).
MARKER = re.compile(r"[ \t]*#\s*i18n(?::\s*(chart))?[ \t]*$")
STABLE_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
#: Comments that are instructions to tools, never prose.
TOOL_COMMENT = re.compile(r"#\s*(?:##|type:|noqa|pragma|fmt:|i18n(?::\s*chart)?\s*$)")
STRING = re.compile(r"(?s)^([rRuUfF]{0,2})('''|\"\"\"|'|\")(.*)\2$")
BULLET = re.compile(r"^(\s*(?:[-*+]|\d{1,9}[.)])[ \t]+)")
HEADING = re.compile(r"^(\s*#{1,6}[ \t]+)")
CELL_SPLIT = re.compile(r"\s*(?<!\\)\|\s*")
SET_LANGUAGE = re.compile(r"""set_language\((["'])en\1\)""")
IMPORT_SET_LANGUAGE = re.compile(r"^(from box_gin\.i18n import .*?)\bset_language\b", re.M)


class TranslationError(BoxGinError):
    """A notebook or catalog that cannot be translated as it stands."""


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


# --- cutting a cell into messages ------------------------------------------------------

@dataclass(frozen=True)
class Unit:
    """One message of a cell: where it sits and how it is written back.

    ``first``/``last`` are 0-based line numbers (markdown) or token positions (code)."""

    kind: str           # heading, paragraph, list item, table row, comment, docstring, string
    text: str           # the message (msgid)
    first: int
    last: int
    prefix: str = ""    # text kept before the message on its first line
    col: int = 0        # code: column where the replaced text starts
    end_col: int = 0    # code: column where it ends (on line ``last``)
    quote: str = ""     # code strings: prefix letters and quotes, kept
    indent: str = ""    # code docstrings: indentation of continuation lines

    @property
    def comment(self) -> str:
        return {
            "table row": "table row: keep one ' | ' between cells, as many cells",
            "string": "code string: keep every {placeholder}; no quote characters",
            "chart": "chart text (code string): keep every {placeholder}; no quotes",
            "docstring": "docstring of a function the learner reads",
            "comment": "code comment",
        }.get(self.kind, f"markdown {self.kind}")


def _md() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in text.split("\n"))


def markdown_units(source: str) -> list[Unit]:
    """The messages of a markdown cell, in order."""
    lines = source.split("\n")
    tokens = _md().parse(source)
    units: list[Unit] = []
    item_starts: list[int] = []
    row: list[str] | None = None
    row_line = 0
    for i, token in enumerate(tokens):
        if token.type == "list_item_open" and token.map:
            item_starts.append(token.map[0])
        elif token.type == "list_item_close":
            item_starts.pop()
        elif token.type in ("heading_open", "paragraph_open") and token.map:
            first, last = token.map[0], token.map[1] - 1
            inline = tokens[i + 1].content
            line = lines[first]
            if token.type == "heading_open":
                match = HEADING.match(line)
                kind = "heading"
            elif item_starts and item_starts[-1] == first:
                match = BULLET.match(line)
                kind = "list item"
            else:
                match = re.match(r"^\s*", line)
                kind = "paragraph"
            prefix = match.group(1) if match and match.groups() else (
                match.group(0) if match else "")
            if token.type == "heading_open" and last > first:
                raise TranslationError(f"setext heading at line {first + 1}: use '#'")
            if inline.strip():
                units.append(Unit(kind, _one_line(inline), first, last, prefix))
        elif token.type == "tr_open" and token.map:
            row, row_line = [], token.map[0]
        elif token.type == "inline" and row is not None:
            row.append(token.content.strip())
        elif token.type == "tr_close" and row is not None:
            line = lines[row_line]
            prefix = re.match(r"^\s*", line).group(0)  # type: ignore[union-attr]
            if any(row):
                units.append(Unit("table row", " | ".join(row), row_line, row_line, prefix))
            row = None
    return units


def _docstring_positions(source: str) -> set[tuple[int, int]]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value,
                                                                     ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.add((body[0].lineno, body[0].col_offset))
    return found


def _comment_text(token: str) -> str:
    """The prose of a comment: without its ``#`` and without a trailing marker."""
    match = MARKER.search(token, 1)
    return token[1: match.start() if match else len(token)].strip()


def code_units(source: str) -> list[Unit]:
    """The messages of a code cell: comments, docstrings and marked string literals."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError) as err:
        raise TranslationError(f"code cell does not tokenize: {err}") from None
    lines = source.split("\n")
    marked = {t.start[0]: bool(m.group(1)) for t in tokens if t.type == tokenize.COMMENT
              and (m := MARKER.search(t.string))}
    docstrings = _docstring_positions(source)
    units = []
    for t in tokens:
        (row, col), (end_row, end_col) = t.start, t.end
        if t.type == tokenize.COMMENT:
            if TOOL_COMMENT.match(t.string):
                continue
            text = _comment_text(t.string)
            if text:
                units.append(Unit("comment", text, row - 1, row - 1, "", col, end_col))
        elif t.type == tokenize.STRING:
            docstring = (row, col) in docstrings
            if not docstring and end_row not in marked:
                continue
            match = STRING.match(t.string)
            if match is None or "b" in match.group(1).lower():
                continue
            letters, quote, body = match.groups()
            indent = ""
            if docstring and "\n" in body:
                indent = re.match(r"^\s*", lines[row - 1]).group(0)  # type: ignore[union-attr]
                body = "\n".join(part.strip() if n else part
                                 for n, part in enumerate(body.split("\n")))
            if any(ch.isalpha() for ch in body):
                kind = "docstring" if docstring else "chart" if marked[end_row] else "string"
                units.append(Unit(kind, body, row - 1, end_row - 1, "", col, end_col,
                                  letters + quote, indent))
    return units


def cell_source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEBREW = re.compile(r"[\u0590-\u05ff]")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[^\W\d_]{2,}")


def has_prose(text: str) -> bool:
    """Whether ``text`` holds words to translate once its code spans and placeholders are
    set aside (a table row of code only, such as ``| `7H 7S 7D` | `True` |``, has none)."""
    return WORD.search(PLACEHOLDER.sub(" ", CODE_SPAN.sub(" ", text))) is not None


def cell_units(cell: dict[str, Any]) -> list[Unit]:
    """The messages of one cell (none for raw cells), leaving out text with no prose."""
    source = cell_source(cell)
    if cell.get("cell_type") == "markdown":
        units = markdown_units(source)
    elif cell.get("cell_type") == "code":
        units = code_units(source)
    else:
        units = []
    return [unit for unit in units if has_prose(unit.text)]


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


def _with_language(source: str, lang: str) -> str:
    """The first code cell, switched to ``lang`` (and, right to left, importing
    :func:`box_gin.i18n.isolate`, which the translated f-strings call)."""
    if lang in RTL_LANGUAGES:
        source = IMPORT_SET_LANGUAGE.sub(r"\1isolate, set_language", source, count=1)
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
    return {**nb, "cells": cells}


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
    stale: bool         # the committed translation's text differs (or it is missing)


def plan(source: Source, lang: str, root: Path = ROOT) -> Plan:
    nb = read_notebook(root / source.path)
    table = translations(source, lang, root)
    new = translate_notebook(nb, table, lang, str(source.path), source.group)
    target = source.target(root, lang)
    old = read_notebook(target) if target.exists() else None
    stale = old is None or not _same_text(old, new) or not _executed(old)
    return Plan(source, lang, new, stale)


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
            if p.stale:
                out.append(f"{source.target(root, lang).relative_to(root)}: out of date: "
                           "run `make translations`")
            exercise = source.exercise(root, lang)
            if exercise is not None and not p.stale and (
                    not exercise.exists() or exercise.read_text(encoding="utf-8")
                    != _exercise_text(p.notebook, source)):
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
            else:
                print(f"up to date {target.relative_to(root)}")
    if todo:
        for path, err in _run(todo, jobs):
            print(f"executed {Path(path).relative_to(root)}" if not err else
                  f"FAILED {path}: {err}", flush=True)
            if err:
                report.append(f"{path}: execution failed: {err}")
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
