"""Every widget in every language: its buttons and read-outs show the catalog's words,
switching language re-renders a live widget, and Hebrew lays widgets out right to left.

The expected words are read from the .po sources with Babel, not from the widgets.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from box_gin import Role, i18n
from box_gin.catalogs import read
from box_gin.widgets import DealWidget, GameTable, KnockTrainer, MeldExplorer, ScoringWidget

LANGS = i18n.LANGUAGES[1:]
WIDGETS: dict[str, Callable[[], Any]] = {
    "deal": lambda: DealWidget(seed=3),
    "meld explorer": lambda: MeldExplorer("4H 5H 6H 7H 7S 7D KC", seed=3),
    "knock trainer": lambda: KnockTrainer(seed=3),
    "scoring": lambda: ScoringWidget(seed=3),
    "game table": lambda: GameTable(seed=3, chart=False),
}


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def translation(lang: str, english: str, context: str | None = None) -> str:
    message = read(lang).get(english, context=context)
    assert message is not None and message.string, f"{english!r} has no {lang} translation"
    return str(message.string)


def visible_text(widget: Any) -> str:
    """Every button caption and read-out of a widget, as text."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        for attr in ("description", "value"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                parts.append(html.unescape(value))
        for child in getattr(node, "children", ()):
            walk(child)

    walk(widget)
    return "\n".join(parts)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(WIDGETS))
def test_widget_speaks_the_language_it_is_built_in(name: str, lang: str) -> None:
    english_captions = {k: b.description for k, b in WIDGETS[name]().buttons.items()}
    i18n.set_language(lang)
    widget = WIDGETS[name]()
    try:
        for key, button in widget.buttons.items():
            assert button.description == translation(lang, english_captions[key]), key
        rtl = "bg-rtl" in widget._dom_classes
        assert rtl == (lang == "he")
    finally:
        widget.close()


@pytest.mark.parametrize("lang", LANGS)
def test_game_table_read_outs_are_translated(lang: str) -> None:
    i18n.set_language(lang)
    table = GameTable(seed=7, chart=False)  # seed 7: you are captain, and it is your turn
    try:
        assert table.match.to_play == table.human
        text = visible_text(table)
        roles = [translation(lang, english) for english in ("box", "captain", "sitter")]
        assert any(role in text for role in roles), text[:500]
        assert translation(lang, "Discard pile:") in text
        assert "Discard pile:" not in text
    finally:
        table.close()


@pytest.mark.parametrize("lang", LANGS)
def test_switching_language_re_renders_a_live_widget(lang: str) -> None:
    table = GameTable(seed=3, chart=False)
    try:
        before = {k: b.description for k, b in table.buttons.items()}
        i18n.set_language(lang)
        for key, button in table.buttons.items():
            assert button.description == translation(lang, before[key]), key
        assert Role.BOX.label == translation(lang, "box")
        i18n.set_language("en")
        assert {k: b.description for k, b in table.buttons.items()} == before
    finally:
        table.close()


def test_a_closed_widget_stops_listening() -> None:
    table = GameTable(seed=3, chart=False)
    caption = table.buttons["pass"].description
    table.close()
    i18n.set_language("fr")
    assert table.buttons["pass"].description == caption
