"""Translations: complete, current, with every placeholder kept; language selection."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from box_gin import i18n
from box_gin.catalogs import extract, fields, problems, read

LANGS = i18n.LANGUAGES[1:]


@pytest.fixture(scope="module")
def template():  # type: ignore[no-untyped-def]
    return extract()


@pytest.fixture(autouse=True)
def english():  # type: ignore[no-untyped-def]
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_is_complete_current_and_keeps_placeholders(lang: str, template) -> None:  # type: ignore[no-untyped-def]
    found = problems(lang, template)
    assert not found, f"{len(found)} problems in the {lang} catalog:\n" + "\n".join(found[:40])


def test_the_checker_of_catalogs_can_fail(template, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A lost placeholder, a missing and a fuzzy entry are each reported."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="fr", domain=i18n.DOMAIN)
    ids = [m.id for m in template if m.id and isinstance(m.id, str) and fields(m.id)]
    catalog.add(ids[0], "sans champ")
    catalog.add(ids[1], "x", flags=["fuzzy"])
    catalog.add("a message no longer in the source", "x")
    monkeypatch.setattr("box_gin.catalogs.read", lambda lang: catalog)
    found = "\n".join(problems("fr", template))
    assert "placeholders changed" in found
    assert "stale" in found
    assert "missing" in found
    assert "obsolete" in found


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_follow_the_language(lang: str) -> None:
    """Each catalog has as many plural forms as the language's CLDR rules (uk: 3)."""
    from babel.messages.plurals import get_plural

    catalog = read(lang)
    assert catalog.num_plurals == get_plural(lang).num_plurals
    assert read("uk").num_plurals == 3 and read("id").num_plurals == 1


@pytest.mark.parametrize("lang", LANGS)
def test_engine_messages_are_translated(lang: str) -> None:
    from box_gin import Role

    i18n.set_language(lang)
    assert Role.CAPTAIN.label != "captain"
    with pytest.raises(ValueError) as err:
        from box_gin import parse_cards

        parse_cards("1H")
    assert "'1H'" in str(err.value)
    assert "not a card" not in str(err.value)


def test_unknown_language_is_refused_and_changes_nothing() -> None:
    i18n.set_language("fr")
    with pytest.raises(ValueError, match="xx"):
        i18n.set_language("xx")
    assert i18n.get_language() == "fr"


def test_listeners_hear_each_change() -> None:
    heard: list[str] = []
    remove = i18n.on_language_change(heard.append)
    i18n.set_language("hu")
    i18n.set_language("he")
    remove()
    i18n.set_language("fr")
    assert heard == ["hu", "he"]
    assert i18n.is_rtl("he") and not i18n.is_rtl("fr")


@pytest.mark.parametrize(("env", "expected"), [
    ({"BOX_GIN_LANG": "uk"}, "uk"),
    ({"LC_ALL": "C", "LANG": "C"}, "en"),
])
def test_language_from_the_environment(env: dict[str, str], expected: str) -> None:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("BOX_GIN_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    code = ("import locale\n"
            "try:\n    locale.setlocale(locale.LC_ALL, '')\nexcept locale.Error:\n    pass\n"
            "from box_gin import i18n; print(i18n.get_language())")
    out = subprocess.run([sys.executable, "-c", code], env=clean | env, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == expected


def test_no_translation_call_hides_inside_an_f_string() -> None:
    """The extractor cannot see ``_()`` inside an f-string: such a message would never
    reach the catalogs and would show in English in every language."""
    import re
    import tokenize
    from pathlib import Path

    import box_gin

    hidden = []
    for path in Path(box_gin.__file__).parent.rglob("*.py"):
        with path.open("rb") as source:
            for token in tokenize.tokenize(source.readline):
                if token.type == tokenize.STRING and re.match(r"^[rRbB]*[fF]", token.string) \
                        and re.search(r"\b(_|ngettext|pgettext)\(", token.string):
                    hidden.append(f"{path.name}:{token.start[0]}")
    assert not hidden, "translation calls inside f-strings: " + ", ".join(hidden)


def test_language_from_the_system_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without BOX_GIN_LANG, the system locale decides (this machine may have no id_ID
    locale installed, so the locale module's answer is stood in for)."""
    import locale

    monkeypatch.delenv("BOX_GIN_LANG", raising=False)
    monkeypatch.setattr(locale, "getlocale", lambda category=None: ("id_ID", "UTF-8"))
    i18n.set_language(None)
    assert i18n.get_language() == "id"
    monkeypatch.setattr(locale, "getlocale", lambda category=None: ("pt_BR", "UTF-8"))
    i18n.set_language(None)
    assert i18n.get_language() == "en"
    monkeypatch.setenv("BOX_GIN_LANG", "he")
    i18n.set_language(None)
    assert i18n.get_language() == "he"
