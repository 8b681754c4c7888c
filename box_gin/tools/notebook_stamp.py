"""What a translated notebook carries about itself: its language, and a stamp of the UI
messages its stored outputs show, so that a changed UI translation re-executes it.

A generated notebook's metadata holds ``box_gin: {language, ui_messages}``.  The
language lets the grader give feedback in the learner's language whatever folder the
submission lies in (:mod:`box_gin.checker.submissions`).  ``ui_messages`` is a hash of
every message of that language's UI catalog (``box_gin/locale/<lang>/LC_MESSAGES/
box_gin.po``) whose translation shows in the notebook's outputs, with that translation:
when a translator changes one of them, the stored outputs would keep the old words, and
the hash computed from them no longer matches, so ``make translations`` runs the
notebook again.  Messages the outputs do not show do not count, so a new message for the
classroom server re-executes nothing; nor do translations of fewer than two words (a
role's name), which every output would seem to show.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from pathlib import Path
from typing import Any

#: The key of a generated notebook's metadata that holds what this module writes.
KEY = "box_gin"
_CONTROLS = re.compile("[\u2066-\u2069\u200e\u200f]")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_STYLE = re.compile(r"(?is)<(style|script)\b.*?</\1>")
_TAG = re.compile(r"<[^<>]*>")
#: Two words in a row: a translation shorter than that (a role's name, "oui") is found in
#: every output, and any new message of one word would change every notebook's stamp.
_WORDS = re.compile(r"[^\W\d_]{2,}[ \u00a0'’-]+[^\W\d_]{2,}")


def shown_text(nb: dict[str, Any]) -> str:
    """Everything the outputs of ``nb`` show as text (printed, plain, the text of their
    HTML, one line per element), without bidi controls and HTML escapes."""
    parts = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append("".join(out.get("text", "")))
            for kind, value in out.get("data", {}).items():
                text = "".join(value) if isinstance(value, list) else str(value)
                if kind == "text/html":
                    parts.append(html.unescape(_TAG.sub("\n", _STYLE.sub("", text))))
                elif kind in ("text/plain", "text/markdown"):
                    parts.append(text)
    return _CONTROLS.sub("", "\n".join(parts))


@functools.lru_cache(maxsize=8)
def _patterns(po: Path, mtime: float) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(key, its literal parts: the text between its placeholders) of every translation
    of ``po``."""
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    out = []
    for m in catalog:
        if not m.id:
            continue
        msgid = "\x04".join(m.id) if isinstance(m.id, tuple | list) else str(m.id)
        strings = m.string if isinstance(m.string, tuple | list) else [m.string]
        for n, text in enumerate(s for s in strings if s):
            if not any(_WORDS.search(part) for part in _PLACEHOLDER.split(text)):
                continue  # too little of its own to recognise
            parts = tuple(p for p in _PLACEHOLDER.split(_CONTROLS.sub("", text)) if p)
            out.append((f"{msgid}\x00{n}\x00{text}", parts))
    return tuple(out)


def _in_order(parts: tuple[str, ...], text: str) -> bool:
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


def _shows(parts: tuple[str, ...], lines: list[str]) -> bool:
    """Whether one line shows ``parts`` in order (values between them), or, for a
    translation of several lines, the whole text does."""
    if any("\n" in p for p in parts):
        return _in_order(parts, "\n".join(lines))
    longest = max(parts, key=len)
    return any(longest in line and _in_order(parts, line) for line in lines)


def ui_catalog(root: Path, lang: str) -> Path:
    return root / "box_gin" / "locale" / lang / "LC_MESSAGES" / "box_gin.po"


def ui_messages_hash(nb: dict[str, Any], lang: str, root: Path) -> str:
    """A hash of the UI messages of ``lang`` (English and translation) that the stored
    outputs of ``nb`` show."""
    po = ui_catalog(root, lang)
    if not po.exists():
        return ""
    text = shown_text(nb)
    lines = text.split("\n")
    used = sorted(key for key, parts in _patterns(po, po.stat().st_mtime)
                  if all(p in text for p in parts) and _shows(parts, lines))
    return hashlib.sha256("\n".join(used).encode("utf-8")).hexdigest()[:16]


def stamp(nb: dict[str, Any], lang: str, root: Path) -> dict[str, Any]:
    """What ``nb``'s metadata says about itself once its outputs are those it stores."""
    return {"language": lang, "ui_messages": ui_messages_hash(nb, lang, root)}


def stamped(nb: dict[str, Any], lang: str, root: Path) -> dict[str, Any]:
    """``nb`` with its stamp in its metadata."""
    return {**nb, "metadata": {**nb.get("metadata", {}), KEY: stamp(nb, lang, root)}}


def fresh(nb: dict[str, Any], lang: str, root: Path) -> bool:
    """Whether ``nb``'s stamp is the one its outputs and the UI catalog give now: else a
    UI translation it shows has changed since it was executed (or it was never stamped)."""
    return bool(nb.get("metadata", {}).get(KEY) == stamp(nb, lang, root))
