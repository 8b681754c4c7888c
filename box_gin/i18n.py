"""One translation function for every string a person reads.

English is the source language.  ``_`` translates a message, ``ngettext`` a message
with a count.  Catalogs are gettext ``.mo`` files under ``box_gin/locale``; a missing
catalog falls back to English.  The language comes from :func:`set_language`, else the
``BOX_GIN_LANG`` environment variable, else the system locale, else English.

A sentence that shows a value says it the learner's way: :func:`format_number` and
:func:`format_percent` (CLDR's separators for the language, written as Babel writes
them, without Babel: ``49,9 %``, ``2 140``), :func:`yes_no` for a truth value.  In a
right-to-left language every card, formula, code span, file name and ``{placeholder}``
of a translation is wrapped in a left-to-right isolate (:func:`isolate_ltr`), so that
``K♦`` or ``26 − 4 = 22`` keep their order inside Hebrew text; :func:`isolate` does the
same for one value put into a line by code.
"""

from __future__ import annotations

import functools
import gettext
import locale
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

DOMAIN = "box_gin"
#: The catalogs' folder (a plain path: pathlib costs every import of the engine, each
#: sandboxed child's too, 3.5 ms).
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
#: Languages with a catalog, English first.
LANGUAGES: tuple[str, ...] = ("en", "fr", "hu", "uk", "id", "he")
#: Languages written right to left.
RTL_LANGUAGES = frozenset({"he"})

_translation: gettext.NullTranslations | None = None
_language: str | None = None
_listeners: list[Callable[[str], None]] = []
#: The language of the block running now, where :func:`using` set one: each thread and
#: each asyncio task has its own (a server renders each request in its reader's language).
_in_use: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar(
    "box_gin_language_in_use", default=None)


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
    folder = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES")
    po, mo = os.path.join(folder, f"{DOMAIN}.po"), os.path.join(folder, f"{DOMAIN}.mo")
    if os.path.exists(mo) and (not os.path.exists(po)
                               or os.stat(mo).st_mtime >= os.stat(po).st_mtime):
        with open(mo, "rb") as compiled:
            return gettext.GNUTranslations(compiled)
    if os.path.exists(po):
        import io

        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with open(po, "rb") as source:
            catalog = read_po(source)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        buffer.seek(0)
        return gettext.GNUTranslations(buffer)
    return gettext.NullTranslations()


def get_language() -> str:
    """The language in use, as a code such as ``"en"`` or ``"fr"``."""
    global _language
    block = _in_use.get()
    if block is not None:
        return block[0]
    if _language is None:
        _language = _detect()
    return _language


def set_language(lang: str | None) -> None:
    """Use ``lang`` for every message from now on (``None``: detect it again).

    Live widgets that registered with :func:`on_language_change` re-render.
    """
    global _language, _translation
    code = _code(lang or _detect(), lang)
    _language = code
    _translation = _load(code)
    for listener in list(_listeners):
        listener(code)


def _code(text: str, asked: object) -> str:
    code = text.split("_")[0].split("-")[0].lower()
    if code not in LANGUAGES:
        raise ValueError(
            f"unknown language {asked!r}: choose one of {', '.join(LANGUAGES)}"
        )
    return code


@functools.cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return _load(lang)


@contextmanager
def switched(lang: str) -> Iterator[None]:
    """Use ``lang`` for every message inside the block, in every thread (a command's run,
    its worker threads too), and the language chosen before it afterwards: a command
    run in another program's process (a test, a notebook) leaves that program's
    language as it found it."""
    before = _language
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Use ``lang`` inside the block, for this thread or asyncio task alone.

    Every other thread and task keeps its own language, even while this block waits
    (``await``): the classroom server renders each request in its reader's language,
    side by side.  Outside every such block, :func:`set_language`'s language holds.
    No widget re-renders (the language in use elsewhere has not changed)."""
    code = _code(lang, lang)
    token = _in_use.set((code, _catalog(code)))
    try:
        yield
    finally:
        _in_use.reset(token)


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
    block = _in_use.get()
    if block is not None:
        return block[1]
    if _translation is None:
        _translation = _load(get_language())
    return _translation


def _(message: str) -> str:
    """Translate ``message`` into the language in use."""
    return _bidi(_current().gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message whose form depends on the count ``n``."""
    return _bidi(_current().ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in a context, where one English word has two meanings
    (``pgettext("phase", "discard")`` is a stage of the turn, not the verb)."""
    return _bidi(_current().pgettext(context, message))


def _bidi(text: str) -> str:
    return isolate_ltr(text) if get_language() in RTL_LANGUAGES else text


# --- values in sentences -----------------------------------------------------------------

#: How each language writes a number, from CLDR (as Babel reads it): the decimal
#: separator, the group separator (every three digits) and what follows a percentage.
#: Written out here so that formatting a number needs no Babel (JupyterLite's kernel
#: loads none); ``tests/test_i18n.py`` checks every entry against Babel's own formatting.
#: A language without an entry (one without a catalog) writes numbers as English does.
NUMBER_SYMBOLS: dict[str, tuple[str, str, str]] = {
    "en": (".", ",", "%"),
    "fr": (",", "\u202f", "\u00a0%"),
    "hu": (",", "\u00a0", "%"),
    "uk": (",", "\u00a0", "%"),
    "id": (",", ".", "%"),
    "he": (".", ",", "%"),
}


def _symbols() -> tuple[str, str, str]:
    return NUMBER_SYMBOLS.get(get_language(), NUMBER_SYMBOLS["en"])


def _decimal(value: float, digits: int, trailing_zeros: bool, scale: int = 0) -> str:
    """``value`` (times ``10**scale``) in the language in use, rounded half to even to
    ``digits`` places after the separator, written all (``trailing_zeros``) or without
    trailing zeros: CLDR's ``#,##0.00`` and ``#,##0.##`` as Babel applies them."""
    from decimal import Decimal  # here: every child and kernel imports this module

    separator, group, _ = _symbols()
    number = Decimal(str(value)).scaleb(scale)
    negative = number.is_signed()
    rounded = abs(number).normalize().quantize(Decimal(1).scaleb(-digits))
    whole, _, fraction = f"{rounded:f}".partition(".")
    grouped = whole[-3:]
    whole = whole[:-3]
    while whole:
        grouped = whole[-3:] + group + grouped
        whole = whole[:-3]
    if not trailing_zeros:
        fraction = fraction.rstrip("0")
    return ("-" if negative else "") + grouped + (separator + fraction if fraction else "")


def format_number(value: float, decimals: int = 0) -> str:
    """``value`` as the language in use writes it in a sentence, with ``decimals``
    digits after the separator: ``format_number(2140)`` is ``2,140`` in English,
    ``2 140`` in French; ``format_number(6.944, 2)`` is ``6.94`` / ``6,94``."""
    return _decimal(value, decimals, trailing_zeros=True)


def format_short(value: float, most: int = 2) -> str:
    """``value`` with at most ``most`` decimals and no trailing zero, as the language in
    use writes it: ``2``, ``0,25``, ``1,5`` in French (seconds, points)."""
    return _decimal(value, most, trailing_zeros=False)


def points(value: float) -> str:
    """A number of points as the language in use writes it: whole (``41``), else with
    one decimal (a median of ``40.5`` is ``40,5`` in French)."""
    return format_short(value, 1)


def format_percent(share: float, decimals: int = 1) -> str:
    """A share (0.499) as a percentage of the language in use, with ``decimals`` digits:
    ``49.9%`` in English, ``49,9 %`` in French."""
    return _decimal(share, decimals, trailing_zeros=True, scale=2) + _symbols()[2]


def yes_no(value: bool | None) -> str:
    """A truth value as a word of the language in use (``None``: a dash), for a
    sentence; a bare Python value stays ``True`` / ``False``."""
    if value is None:
        return "\u2013"
    return _("yes") if value else _("no")


# --- right to left ---------------------------------------------------------------------

#: Left-to-right isolate, first-strong isolate (its direction from its first letter), and
#: the end of an isolate.
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
#: What is left as it is: HTML tags and entities, a markdown link's target, an isolate
#: already there.
_PROTECTED = r"<[^<>]*>|&#?\w+;|\]\([^()\s]*\)|[\u2066-\u2068][^\u2069]*\u2069"
#: Left-to-right material: a placeholder, a code span, a card or a run of cards of one
#: suit (``K♦``, ``5-6-7♥``, ``10♣``, ``7H``), a Latin word, file name or number.
_ATOM = (r"\{[^{}]*\}|``(?:(?!``).)+``|`[^`]+`"
         r"|(?:10|[2-9TJQKA])(?:[-\u2013](?:10|[2-9TJQKA]))*[♣♦♥♠]"
         r"|[0-9A-Za-z_][0-9A-Za-z_./\\-]*(?:\(\))?%?")
#: What joins two atoms into one left-to-right run: an operator, or spaces and commas.
_JOIN = r"[ \t\u00a0]*[−+\-=×÷<>≤≥→][ \t\u00a0]*|,?[ \t\u00a0]+"
_LTR_RUN = re.compile(rf"(?P<keep>{_PROTECTED})|(?P<run>(?:{_ATOM})(?:(?:{_JOIN})(?:{_ATOM}))*)")
_PLAIN = re.compile(r"[0-9.,]+|[A-Za-z]+")


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _wrap(match: re.Match[str]) -> str:
    run = match.group("run")
    if run is None or _PLAIN.fullmatch(run):
        return match.group(0)  # a plain word or number keeps its place on its own
    if _PLACEHOLDER.fullmatch(run):
        # a value alone: a card or a name reads left to right, a Hebrew label right to left
        return FSI + run + PDI
    return LRI + run + PDI


@functools.lru_cache(maxsize=4096)
def isolate_ltr(text: str) -> str:
    """``text`` with every left-to-right run (a card or cards, a formula such as
    ``26 − 4 = 22``, a code span, a file name) inside a left-to-right isolate
    (U+2066 … U+2069), and every ``{placeholder}`` standing alone inside a first-strong
    isolate (U+2068 … U+2069: a card keeps left to right, a Hebrew word right to left), so
    that the right-to-left text around them cannot reorder them.  HTML tags, entities and
    link targets are left alone."""
    if not text or not any("\u0590" <= ch <= "\u08ff" for ch in text):
        return text  # no right-to-left letters: nothing can reorder it
    return _LTR_RUN.sub(_wrap, text)


#: A signed number (a left-to-right isolate) inside a placeholder's first-strong isolate:
#: Chromium reads such a pair right to left and moves the sign to the number's other end.
_NESTED = re.compile("\u2068(\u2066[^\u2066-\u2069]*\u2069)\u2069")
#: A placeholder's first-strong isolate with nothing isolated inside it.
_FIRST_STRONG = re.compile("\u2068([^\u2066-\u2069]*)\u2069")


def reisolate(text: str) -> str:
    """A sentence already filled with its values (``_(...).format(...)``), made to read
    right in a right-to-left language: a signed number keeps its sign on the left, and a
    card inside a value that also holds a word ("discard 5♠") keeps its rank before its
    suit.  The placeholders' first-strong isolates are taken off and every left-to-right
    run is isolated again (:func:`isolate_ltr`).  In a left-to-right language the text is
    returned as it is."""
    if get_language() not in RTL_LANGUAGES:
        return text
    return isolate_ltr(_FIRST_STRONG.sub(r"\1", _NESTED.sub(r"\1", text)))


def isolate(value: object) -> str:
    """``str(value)`` in a first-strong isolate when the language in use is written
    right to left, so that a card, a tuple of cards or a number printed beside Hebrew
    words keeps its own order (and a Hebrew word its own)."""
    text = str(value)
    return FSI + text + PDI if get_language() in RTL_LANGUAGES else text
