"""What a translated notebook carries about itself: its language, and a record of the UI
messages its stored outputs were made from, so that a changed UI translation re-executes
it.

A generated notebook's metadata holds ``box_gin: {language, ui_messages, ui_used}``.
The language lets the grader give feedback in the learner's language whatever folder the
submission lies in (:mod:`box_gin.checker.submissions`).  ``ui_used`` names, by a short
hash of its English (context, singular, plural), every message of that language's UI
catalog (``box_gin/locale/<lang>/LC_MESSAGES/box_gin.po``) whose translation the
outputs show when the notebook is stamped, right after it is executed; ``ui_messages`` is
a hash of the translations those messages have then.  A notebook is fresh while the
translations of the messages it names hash the same: when a translator changes one of
them (or it leaves the catalog), the stored outputs would keep the old words, so
``make translations`` runs the notebook again.

A message is recognised in the outputs by its literal text (the text between its
placeholders, in order, on one line), however short: a translation of one word (a
role's name, *Reste*) counts when the outputs show that word whole.  Recognising too
much costs at most a run when that message changes; a message the catalog gains later
is in no notebook's record, so a new message for the classroom server re-executes
nothing, whatever its words.
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
#: Attributes whose text a reader meets too (a screen reader, a tooltip).
_ATTRIBUTE = re.compile(r"""\b(?:aria-label|title|alt|placeholder)=(?:"([^"]*)"|'([^']*)')""")
#: A word of two letters or more: a translation with none (``✔``, ``{a} / {b}``) shows
#: nothing of its own to recognise.
_WORD = re.compile(r"[^\W\d_]{2,}")
_LETTER = re.compile(r"[^\W_]")


def shown_text(nb: dict[str, Any]) -> str:
    """Everything the outputs of ``nb`` show as text (printed, plain, the text of their
    HTML, one line per element, and its labels and tooltips), without bidi controls and
    HTML escapes."""
    parts = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append("".join(out.get("text", "")))
            for kind, value in out.get("data", {}).items():
                text = "".join(value) if isinstance(value, list) else str(value)
                if kind == "text/html":
                    text = _STYLE.sub("", text)
                    parts.append(html.unescape(_TAG.sub("\n", text)))
                    parts += [html.unescape(a or b) for a, b in _ATTRIBUTE.findall(text)]
                elif kind in ("text/plain", "text/markdown"):
                    parts.append(text)
    return _CONTROLS.sub("", "\n".join(parts))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def message_key(context: str | None, ids: tuple[str, ...] | list[str]) -> str:
    """The name a stamp gives a UI message: a short hash of its context and English."""
    return _digest("\x04".join([context or "", *map(str, ids)]))


@functools.lru_cache(maxsize=8)
def _catalog(po: Path, mtime: float) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every message of ``po`` by its id: (its translations, the literal parts of each
    translation that has a word: the text between its placeholders)."""
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    out: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
        strings = tuple(str(s or "") for s in (
            m.string if isinstance(m.string, tuple | list) else (m.string,)))
        key = message_key(m.context, ids)
        texts = tuple(s for s in strings if s and _WORD.search(_PLACEHOLDER.sub(" ", s)))
        out[key] = (strings, texts)
    return out


def _find(part: str, text: str, start: int) -> int:
    """Where ``part`` is in ``text`` from ``start`` with no letter glued to its ends
    (a word of it is a whole word of the text), else -1."""
    head = _LETTER.match(part[:1]) is not None
    tail = _LETTER.match(part[-1:]) is not None
    at = text.find(part, start)
    while at >= 0:
        before = at == 0 or not head or not _LETTER.match(text[at - 1])
        end = at + len(part)
        after = end >= len(text) or not tail or not _LETTER.match(text[end])
        if before and after:
            return at
        at = text.find(part, at + 1)
    return -1


def _in_order(parts: list[str], text: str) -> bool:
    at = 0
    for part in parts:
        at = _find(part, text, at)
        if at < 0:
            return False
        at += len(part)
    return True


def _shows(translation: str, text: str, lines: list[str]) -> bool:
    """Whether one line of the outputs shows the literal parts of ``translation`` in
    order (values between them), or, for a translation of several lines, the whole text
    does."""
    parts = [p for p in _PLACEHOLDER.split(_CONTROLS.sub("", translation)) if p.strip()]
    parts = [p.strip() if len(parts) == 1 else p for p in parts]
    if not parts or not all(p in text for p in parts):
        return False
    if any("\n" in p for p in parts):
        return _in_order(parts, text)
    longest = max(parts, key=len)
    return any(longest in line and _in_order(parts, line) for line in lines)


def ui_catalog(root: Path, lang: str) -> Path:
    return root / "box_gin" / "locale" / lang / "LC_MESSAGES" / "box_gin.po"


def _messages(lang: str, root: Path) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    po = ui_catalog(root, lang)
    return _catalog(po, po.stat().st_mtime) if po.exists() else {}


def used_messages(nb: dict[str, Any], lang: str, root: Path) -> list[str]:
    """The ids of the UI messages of ``lang`` whose translation the stored outputs of
    ``nb`` show."""
    text = shown_text(nb)
    lines = text.split("\n")
    return sorted(key for key, (_strings, texts) in _messages(lang, root).items()
                  if any(_shows(t, text, lines) for t in texts))


def translations_hash(used: list[str], lang: str, root: Path) -> str:
    """A hash of the translations the messages ``used`` have now (a message no longer
    in the catalog counts as changed)."""
    catalog = _messages(lang, root)
    rows = [key + "\x00" + "\x01".join(catalog[key][0]) if key in catalog else key + "\x00-"
            for key in sorted(used)]
    return hashlib.sha256("\n".join(rows).encode("utf-8")).hexdigest()[:16]


def ui_messages_hash(nb: dict[str, Any], lang: str, root: Path) -> str:
    """A hash of the UI messages of ``lang`` (their translations) that the stored outputs
    of ``nb`` show."""
    return translations_hash(used_messages(nb, lang, root), lang, root)


def stamp(nb: dict[str, Any], lang: str, root: Path) -> dict[str, Any]:
    """What ``nb``'s metadata says about itself once its outputs are those it stores."""
    used = used_messages(nb, lang, root)
    return {"language": lang, "ui_messages": translations_hash(used, lang, root),
            "ui_used": used}


def stamped(nb: dict[str, Any], lang: str, root: Path) -> dict[str, Any]:
    """``nb`` with its stamp in its metadata."""
    return {**nb, "metadata": {**nb.get("metadata", {}), KEY: stamp(nb, lang, root)}}


def fresh(nb: dict[str, Any], lang: str, root: Path) -> bool:
    """Whether the UI messages ``nb``'s outputs were made from still have the
    translations they had when it was stamped: else one has changed since (or the
    notebook was never stamped, or stamped before stamps named their messages)."""
    mine = nb.get("metadata", {}).get(KEY)
    if not isinstance(mine, dict) or mine.get("language") != lang:
        return False
    used = mine.get("ui_used")
    if not isinstance(used, list):
        return False
    return bool(mine.get("ui_messages") == translations_hash(used, lang, root))
