"""One translation function for every string a person reads.

English is the source language.  ``_`` translates a message, ``ngettext`` a message
with a count.  Catalogs are gettext ``.mo`` files under ``box_gin/locale``; a missing
catalog falls back to English.  The language comes from :func:`set_language`, else the
``BOX_GIN_LANG`` environment variable, else the system locale, else English.
"""

from __future__ import annotations

import gettext
import locale
import os
from collections.abc import Callable
from pathlib import Path

DOMAIN = "box_gin"
LOCALE_DIR = Path(__file__).with_name("locale")
#: Languages with a catalog, English first.
LANGUAGES: tuple[str, ...] = ("en", "fr", "hu", "uk", "id", "he")
#: Languages written right to left.
RTL_LANGUAGES = frozenset({"he"})

_translation: gettext.NullTranslations | None = None
_language: str | None = None
_listeners: list[Callable[[str], None]] = []


def _detect() -> str:
    env = os.environ.get("BOX_GIN_LANG")
    if env:
        return env
    try:
        loc = locale.getlocale(locale.LC_MESSAGES)[0]
    except (AttributeError, ValueError):  # pragma: no cover - platform dependent
        loc = None
    if loc:
        code = loc.split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def _load(lang: str) -> gettext.NullTranslations:
    """The catalog for ``lang``: the compiled .mo when it is up to date, else the .po
    source compiled in memory (so an edited catalog needs no reinstall), else English."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as compiled:
            return gettext.GNUTranslations(compiled)
    if po.exists():
        import io

        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with po.open("rb") as source:
            catalog = read_po(source)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        buffer.seek(0)
        return gettext.GNUTranslations(buffer)
    return gettext.NullTranslations()


def get_language() -> str:
    """The language in use, as a code such as ``"en"`` or ``"fr"``."""
    global _language
    if _language is None:
        _language = _detect()
    return _language


def set_language(lang: str | None) -> None:
    """Use ``lang`` for every message from now on (``None``: detect it again).

    Live widgets that registered with :func:`on_language_change` re-render.
    """
    global _language, _translation
    code = (lang or _detect()).split("_")[0].split("-")[0].lower()
    if code not in LANGUAGES:
        raise ValueError(
            f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}"
        )
    _language = code
    _translation = _load(code)
    for listener in list(_listeners):
        listener(code)


def is_rtl(lang: str | None = None) -> bool:
    """Whether ``lang`` (default: the language in use) is written right to left."""
    return (lang or get_language()) in RTL_LANGUAGES


def on_language_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener(lang)`` after each language change; returns an unsubscribe."""
    _listeners.append(listener)

    def remove() -> None:
        if listener in _listeners:
            _listeners.remove(listener)

    return remove


def _current() -> gettext.NullTranslations:
    global _translation
    if _translation is None:
        _translation = _load(get_language())
    return _translation


def _(message: str) -> str:
    """Translate ``message`` into the language in use."""
    return _current().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message whose form depends on the count ``n``."""
    return _current().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in a context, where one English word has two meanings
    (``pgettext("phase", "discard")`` is a stage of the turn, not the verb)."""
    return _current().pgettext(context, message)
