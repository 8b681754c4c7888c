"""The classroom pages' languages: each one's own name, the reader's choice (asked for,
remembered, or the browser's), and rendering in it."""

from __future__ import annotations

from contextlib import AbstractContextManager

from .. import i18n
from ..i18n import LANGUAGES

#: Each language's own name (never translated: a reader finds their language by it).
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "hu": "Magyar", "uk": "Українська",
                  "id": "Bahasa Indonesia", "he": "עברית"}


def language(lang: str) -> AbstractContextManager[None]:
    """Render in ``lang`` (one of :data:`~box_gin.i18n.LANGUAGES`) inside the block, for
    this request's task alone (:func:`box_gin.i18n.using`)."""
    return i18n.using(lang)


def pick_language(asked: str | None, cookie: str | None, accept: str | None) -> str:
    """The page's language: asked for (``?lang=``), else remembered (a cookie), else the
    browser's first choice that the kit speaks (``Accept-Language``), else English."""
    for code in (asked, cookie):
        if code and code in LANGUAGES:
            return code
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = tag.split("-")[0].strip().lower()
        if code in LANGUAGES and q > 0:
            choices.append((-q, i, code))
    return sorted(choices)[0][2] if choices else "en"


__all__ = ["LANGUAGE_NAMES", "language", "pick_language"]
