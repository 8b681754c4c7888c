"""Text that came from a student, made safe for every place the kit writes it.

A student controls their folder's name, their files' names, and everything their process
says (exception messages, returned strings).  None of it may act as anything but text:

- :func:`visible` shows control characters, bidi overrides and other invisible format
  characters as escapes (``\\x1b``, ``\\u202e``), so that nothing reaches a terminal as a
  command and nothing reorders the line it is on;
- :func:`quoted` makes a message one visible, capped, quoted line (``"it \\"failed\\""``),
  so that nothing in it can pose as a line the grader wrote;
- :func:`csv_cell` neutralises what a spreadsheet would evaluate (OWASP's guidance on CSV
  injection: a leading ``=``, ``+``, ``-``, ``@``, tab or carriage return), numbers kept as
  numbers.

>>> visible("ada\\x1b]0;owned\\x07\\u202e")
'ada\\\\x1b]0;owned\\\\x07\\\\u202e'
>>> quoted('boom\\n  why: all good')
'"boom\\\\n  why: all good"'
>>> csv_cell("=HYPERLINK(1)"), csv_cell(-3), csv_cell("-3")
("'=HYPERLINK(1)", -3, "'-3")
"""

from __future__ import annotations

import unicodedata
from typing import Any

#: The longest message from a student's process kept in a verdict, characters.
MAX_QUOTED = 200
#: Invisible characters that move or hide text: the bidi controls and the like (Cf).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: The first characters a spreadsheet reads as the start of a formula.
_FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _hidden(ch: str) -> bool:
    return ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl",
                                                       "Zp")


def visible(value: Any, limit: int | None = None) -> str:
    """``value`` as text with every control, bidi, format or unassigned character shown as an
    escape, and lone surrogates (undecodable bytes of a file name) as ``\\xNN``; capped at
    ``limit`` characters (``…`` added) when given."""
    text: str = value if isinstance(value, str) else str(value)
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    if text.isascii() and text.isprintable():
        return text  # the common case, checked in C
    out = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that os.fsdecode could not decode
            out.append(f"\\x{code - 0xDC00:02x}")
        elif _hidden(ch):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def one_line(text: Any, limit: int | None = None) -> str:
    """:func:`visible`, newlines and tabs escaped too: a single line."""
    return visible(text, limit)  # newlines and tabs are Cc: escaped already


def quoted(text: Any, limit: int = MAX_QUOTED) -> str:
    """A student's message as one visible, capped line in double quotes."""
    body = visible(text, limit).replace('"', '\\"')
    if len(body) > limit + 1:  # escapes made it longer: cap what is shown
        body = body[:limit] + "…"
    return f'"{body}"'


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as it is: text that would start a formula gets a
    leading apostrophe; numbers (``int``/``float``, never ``bool``) stay numbers."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float) or value is None:
        return value
    text = str(value)
    if text.startswith(_FORMULA):
        return "'" + text
    return text


def csv_row(values: list[Any]) -> list[Any]:
    """:func:`csv_cell` on every cell of a row."""
    return [csv_cell(v) for v in values]


def type_name(name: Any) -> str:
    """An exception's type name as the child sent it, kept only if it is a dotted
    Python name (a class can be given any name: ``type("✔ passed", ...)``)."""
    text = name if isinstance(name, str) else ""
    parts = text[:80].split(".")
    if text and all(p.isidentifier() and p.isascii() for p in parts):
        return text[:80]
    return "Exception"
