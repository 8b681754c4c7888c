"""The message catalogs: extract every translatable string, update the ``.po`` files,
and find what is missing, stale or broken in a translation.

Run ``python -m box_gin.catalogs update`` after changing messages, then translate the
new entries in ``box_gin/locale/<lang>/LC_MESSAGES/box_gin.po``;
``python -m box_gin.catalogs check`` lists every problem (the test suite runs it too).
"""

from __future__ import annotations

import argparse
import datetime
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from . import __version__, i18n
from .i18n import DOMAIN, LANGUAGES

PACKAGE = Path(__file__).resolve().parent
#: The catalogs' folder, as :mod:`box_gin.i18n` reads it.
LOCALE_DIR = Path(i18n.LOCALE_DIR)
# Catalog headers carry a fixed date, so that updating them changes only messages.
STABLE_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
# The catalogs carry the version's first two parts (box_gin.__version__: "0.1.0" -> "0.1"),
# so a patch release leaves every header as it was.
CATALOG_VERSION = ".".join(__version__.split(".")[:2])
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def extract() -> Catalog:
    """Every message of the package's source, as a template catalog."""
    template = Catalog(project="box-gin", version=CATALOG_VERSION, domain=DOMAIN, fuzzy=False,
                       copyright_holder="box-gin developers", creation_date=STABLE_DATE,
                       revision_date=STABLE_DATE, msgid_bugs_address="-")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
    ):
        template.add(message, None, [(f"box_gin/{filename}", lineno)],
                     auto_comments=comments, context=context)
    return template


def po_path(lang: str) -> Path:
    """Where the catalog source of ``lang`` lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    """The catalog of ``lang`` (empty if none exists yet)."""
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, fuzzy=False)
    with path.open("rb") as source:
        return read_po(source, locale=lang)


def write(lang: str, catalog: Catalog) -> None:
    """Write the catalog of ``lang``, sorted and without line numbers (stable diffs)."""
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as target:
        write_po(target, catalog, width=88, sort_output=True, include_lineno=False,
                 omit_header=False, ignore_obsolete=True)


def update() -> None:
    """Bring every language's catalog up to date with the source's messages."""
    template = extract()
    LOCALE_DIR.mkdir(exist_ok=True)
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("wb") as target:
        write_po(target, template, width=88, sort_output=True, include_lineno=False)
    for lang in LANGUAGES[1:]:
        catalog = read(lang)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.project, catalog.version = "box-gin", CATALOG_VERSION
        catalog.copyright_holder, catalog.msgid_bugs_address = "box-gin developers", "-"
        catalog.creation_date = catalog.revision_date = STABLE_DATE
        catalog.last_translator = "box-gin developers"
        catalog.language_team = f"{lang} <->"
        write(lang, catalog)


def fields(text: str) -> set[str]:
    """The ``{placeholders}`` of a format string, with their conversions."""
    out = set()
    for _literal, name, _spec, conversion in string.Formatter().parse(text):
        if name is not None:
            out.add(f"{{{name}{'!' + conversion if conversion else ''}}}")
    return out


def _forms(message: Message) -> tuple[list[str], list[str]]:
    ids = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
    strs = list(message.string) if isinstance(message.string, (list, tuple)) \
        else [message.string]
    return [str(i) for i in ids], [str(s or "") for s in strs]


def problems(lang: str, template: Catalog | None = None) -> list[str]:
    """Everything wrong with ``lang``'s catalog: missing, fuzzy (stale) or obsolete
    entries, wrong plural counts, and placeholders lost or changed."""
    template = template or extract()
    catalog = read(lang)
    out = []
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    for message in template:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        found = catalog.get(message.id, context=message.context)
        if found is None:
            out.append(f"{lang}: missing: {key!r}")
            continue
        ids, strs = _forms(found)
        if found.fuzzy:
            out.append(f"{lang}: stale (fuzzy): {key!r}")
        if not all(strs):
            out.append(f"{lang}: untranslated: {key!r}")
            continue
        if len(ids) > 1 and len(strs) != catalog.num_plurals:
            out.append(f"{lang}: {len(strs)} plural forms, wants {catalog.num_plurals}: {key!r}")
        expected = fields(ids[-1]) | fields(ids[0])
        for text in strs:
            if len(ids) > 1:
                # A plural form may leave out the count, never add or rename a field.
                if not fields(text) <= expected:
                    out.append(f"{lang}: placeholders changed in {key!r}: {text!r}")
            elif fields(text) != expected:
                out.append(f"{lang}: placeholders changed in {key!r}: {text!r}")
    for message in catalog:
        key = message.id if isinstance(message.id, str) else (message.id or [""])[0]
        if message.id and (key, message.context) not in wanted:
            out.append(f"{lang}: obsolete (no longer in the source): {key!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m box_gin.catalogs update|check``."""
    parser = argparse.ArgumentParser(prog="python -m box_gin.catalogs")
    parser.add_argument("command", choices=["update", "check"])
    args = parser.parse_args(argv)
    if args.command == "update":
        update()
        return 0
    template = extract()
    found = [p for lang in LANGUAGES[1:] for p in problems(lang, template)]
    print("\n".join(found) or "all catalogs complete")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
