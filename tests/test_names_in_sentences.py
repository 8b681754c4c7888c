"""Messages that hold a player's name read right for any name, "You" included, in every
language: the name is never the subject of a conjugated verb ("You wins", "Vous gagne")
nor glued to a word that changes with it ("Jeu de Ada"); it stands after a colon, in
parentheses, or beside a word that does not change (a postposition)."""

from __future__ import annotations

import re

import pytest

from box_gin.catalogs import extract, read
from box_gin.i18n import LANGUAGES

#: A name followed (after an optional "(role)") by a word: a verb, most of the time.
NAME_THEN_WORD = re.compile(r"\{name\}(?: \([^)]*\))? (\w+)")
#: Words that may follow a name, by language: they do not change with it.
POSTPOSITIONS = {"hu": {"javára"}}
#: A name glued after a preposition that must change with it (de Ada -> d'Ada).
ELIDED = {"fr": re.compile(r"\b(?:de|du|le|la) \{name\}")}


def _name_messages() -> list[str]:
    return sorted(str(m.id if isinstance(m.id, str) else m.id[0]) for m in extract()
                  if m.id and "{name}" in str(m.id)
                  and "{name!r}" not in str(m.id) and "rule {name}" not in str(m.id)
                  and "function" not in str(m.id) and "check(" not in str(m.id)
                  and "must be" not in str(m.id)       # there {name} is a field, not a player
                  and "fixed hand {name}" not in str(m.id))  # or a hand's name (gin-now)


def test_there_are_such_messages() -> None:
    assert len(_name_messages()) >= 8


@pytest.mark.parametrize("message", _name_messages())
def test_in_english_a_name_is_never_the_subject_of_a_verb(message: str) -> None:
    found = NAME_THEN_WORD.search(message)
    assert found is None, message


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_in_every_translation_too(lang: str) -> None:
    catalog = read(lang)
    allowed = POSTPOSITIONS.get(lang, set())
    for english in _name_messages():
        message = catalog.get(english)
        assert message is not None, english
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in forms:
            for word in NAME_THEN_WORD.findall(str(text)):
                assert word in allowed, (english, text)
            if lang in ELIDED:
                assert not ELIDED[lang].search(str(text)), (english, text)
