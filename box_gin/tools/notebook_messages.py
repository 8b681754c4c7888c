"""The messages of a notebook's cells: what a translator translates.

A markdown cell gives one message per heading, paragraph, list item and table row (found
with markdown-it-py's token maps); a code cell gives its comments, its docstrings and the
string literals on lines that end with the marker comment ``# i18n``
(:mod:`box_gin.tools.translate_notebooks` writes the catalogs and the translations).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from typing import Any

from ..errors import BoxGinError

#: The marker that makes the string literals of a code line translatable; ``# i18n: chart``
#: also marks text that matplotlib draws (a note for the translator).
MARKER = re.compile(r"[ \t]*#\s*i18n(?::\s*(chart))?[ \t]*$")
#: Comments that are instructions to tools, never prose.
TOOL_COMMENT = re.compile(r"#\s*(?:##|type:|noqa|pragma|fmt:|i18n(?::\s*chart)?\s*$)")
STRING = re.compile(r"(?s)^([rRuUfF]{0,2})('''|\"\"\"|'|\")(.*)\2$")
BULLET = re.compile(r"^(\s*(?:[-*+]|\d{1,9}[.)])[ \t]+)")
HEADING = re.compile(r"^(\s*#{1,6}[ \t]+)")
CELL_SPLIT = re.compile(r"\s*(?<!\\)\|\s*")


class TranslationError(BoxGinError):
    """A notebook or catalog that cannot be translated as it stands."""


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
