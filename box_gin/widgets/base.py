"""What every box-gin widget shares: clickable cards, named buttons, the stylesheet,
re-rendering when the language changes, and a static HTML fallback.

A widget here only *shows* the engine's answers and *sends* a person's choices to the
engine; every rule lives in the engine modules.  Each widget keeps its parts as
attributes (``buttons``, ``card_buttons``, read-outs) so a test can set values, call
``.click()`` and read the rendered HTML without a browser.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Any

import ipywidgets as w

from ..cards import Card
from ..i18n import is_rtl, on_language_change
from ..views.cards import STYLE

#: Styles for the parts that are ipywidgets (buttons), added to the engine's STYLE.
WIDGET_STYLE = """<style>
.bg-widget{font-family:system-ui,sans-serif}
.bg-widget.bg-rtl{direction:rtl}
.bg-widget .bg-card-row{direction:ltr;flex-wrap:wrap;gap:4px;padding:4px 2px;overflow:visible}
.jupyter-widgets.widget-button.bg-card-button{width:3em;height:4.2em;padding:0;
 border:1px solid #888;border-radius:.35em;background:#fff;font:bold 1.35em/1 system-ui,
 sans-serif;box-shadow:1px 1px 2px #0003;margin:2px}
.jupyter-widgets.widget-button.bg-card-button.bg-red{color:#c8102e}
.jupyter-widgets.widget-button.bg-card-button.bg-black{color:#111}
.jupyter-widgets.widget-button.bg-card-button.bg-selected{background:#dbe7fd;
 outline:3px solid #1f6feb;outline-offset:-3px}
.jupyter-widgets.widget-button.bg-card-button.bg-in-meld{background:#e6f4ea;
 box-shadow:inset 0 -.45em 0 #2e7d32}
.jupyter-widgets.widget-button.bg-card-button.bg-best{border:3px solid #f9a825}
.jupyter-widgets.widget-button.bg-card-button.bg-forbidden{opacity:.5}
.jupyter-widgets.widget-button.bg-card-button:disabled{opacity:.6;cursor:default}
.bg-widget .bg-button-row{flex-wrap:wrap;align-items:center;gap:6px;margin:4px 0;
 overflow:visible}
.jupyter-widgets.widget-button.bg-btn{box-sizing:border-box;flex:0 0 auto;align-self:flex-start;
 width:auto;min-width:8em;max-width:20em;height:2.4em;margin:0;padding:0 1em;
 font:500 1em/1 system-ui,sans-serif;border:1px solid #8a94a6;border-radius:.4em;
 background:#f3f5f8;color:#1b2330}
.jupyter-widgets.widget-button.bg-btn:hover:enabled{background:#e3e8ef}
.jupyter-widgets.widget-button.bg-btn:disabled{opacity:.5;cursor:default}
.bg-widget .bg-stage-label{font-weight:600;margin:.5em 0 .1em}
.bg-widget .bg-upcard,.bg-widget .bg-stock{display:flex;align-items:center;gap:.4em}
.bg-widget .bg-error{display:inline-block;color:#a4161a;background:#fdecea;
 border-left:4px solid #c62828;padding:.35em .6em;border-radius:.25em}
</style>"""

#: A ready-made widget holding both stylesheets (show it once, anywhere on the page).
STYLESHEET = STYLE + WIDGET_STYLE


def css_key(name: str) -> str:
    """A button's stable CSS class from its key: ``"draw stock"`` -> ``bg-btn-draw-stock``."""
    return "bg-btn-" + "-".join(name.split())


class CardButton(w.Button):  # type: ignore[misc]
    """A card a person can click: rank and suit on its face, in the suit's colour.

    Its tooltip (the ``title`` a screen reader announces) is the card in words.  CSS
    classes: ``bg-card-button``, ``bg-red``/``bg-black``, and ``bg-selected`` while it
    is selected.
    """

    def __init__(self, card: Card, **kwargs: Any) -> None:
        super().__init__(description=card.label, tooltip=card.spoken, **kwargs)
        self.card = card
        self.add_class("bg-card-button")
        self.add_class("bg-red" if card.suit.is_red else "bg-black")
        self.add_class("bg-card-" + repr(card))
        # Colours and borders come from the stylesheet's classes only: an inline style
        # (``style.button_color``) would hide the classes bg-selected, bg-in-meld, bg-best.
        self.layout.width = "3em"
        self.layout.height = "4.2em"
        self._selected = False

    @property
    def selected(self) -> bool:
        """Whether the card is selected (shown raised, class ``bg-selected``)."""
        return self._selected

    @selected.setter
    def selected(self, value: bool) -> None:
        self._selected = bool(value)
        self.mark("bg-selected", self._selected)

    def mark(self, css_class: str, on: bool) -> None:
        """Add or remove a CSS class."""
        if on and css_class not in self._dom_classes:
            self.add_class(css_class)
        elif not on and css_class in self._dom_classes:
            self.remove_class(css_class)

    def relabel(self) -> None:
        """Refresh the spoken name after a language change."""
        self.tooltip = self.card.spoken


def card_row(buttons: Iterable[w.Widget]) -> w.HBox:
    """A left-to-right row of card buttons (cards stay left to right in any language)."""
    row = w.HBox(list(buttons))
    row.add_class("bg-card-row")
    return row


#: The layout every action button shares (its look is the class ``bg-btn``): as wide as
#: its caption, never a full-width bar.
BUTTON_LAYOUT = {"width": "auto", "min_width": "8em", "height": "2.4em"}


def action_button(key: str, handler: Callable[[], None]) -> w.Button:
    """An action button in the kit's one style, with CSS classes ``bg-btn`` and
    ``bg-btn-<key>``; ``handler`` runs on a click."""
    button = w.Button(layout=w.Layout(**BUTTON_LAYOUT))
    button.add_class("bg-btn")
    button.add_class(css_key(key))
    button.on_click(lambda _b: handler())
    return button


def button_row(buttons: Iterable[w.Widget]) -> w.HBox:
    """A row of action buttons (class ``bg-button-row``), wrapping when narrow."""
    row = w.HBox(list(buttons))
    row.add_class("bg-button-row")
    return row


def readout(css_class: str) -> w.HTML:
    """An HTML read-out with a stable CSS class."""
    box = w.HTML()
    box.add_class("bg-readout-widget")
    box.add_class(css_class)
    return box


def text_html(text: str, css_class: str) -> str:
    """A line of text (escaped) for a read-out, right to left when the language is."""
    direction = ' dir="rtl"' if is_rtl() else ""
    return f'<div class="bg-readout {css_class}"{direction}>{html.escape(text)}</div>'


class BoxGinWidget(w.VBox):  # type: ignore[misc]
    """Base class: a vertical box with the stylesheet, named buttons, and a re-render
    on every language change (set with :func:`box_gin.i18n.set_language`).

    Subclasses build their parts in ``__init__``, then call ``self._start(children)``;
    they implement ``render`` (fill the read-outs from the engine's state) and
    ``_labels`` (the button captions, in the language in use).
    """

    #: The widget's own CSS class, besides ``bg-widget``.
    css_class = "bg-widget"

    def __init__(self) -> None:
        super().__init__()
        self.stylesheet = w.HTML(STYLESHEET)
        self.buttons: dict[str, w.Button] = {}
        self.add_class("bg-widget")
        self.add_class(self.css_class)
        self._unsubscribe: Callable[[], None] | None = None

    def _button(self, key: str, handler: Callable[[], None]) -> w.Button:
        """A named button (see :func:`action_button`), kept in ``buttons[key]``."""
        button = action_button(key, handler)
        self.buttons[key] = button
        return button

    def _start(self, children: list[w.Widget]) -> None:
        self.children = [self.stylesheet, *children]
        self._unsubscribe = on_language_change(self._language_changed)
        self._language_changed()

    def _language_changed(self, _lang: str | None = None) -> None:
        if is_rtl():
            self.add_class("bg-rtl")
        elif "bg-rtl" in self._dom_classes:
            self.remove_class("bg-rtl")
        for key, text in self._labels().items():
            self.buttons[key].description = text
        for button in self._all_card_buttons():
            button.relabel()
        self.render()

    def _labels(self) -> dict[str, str]:
        return {}

    def _all_card_buttons(self) -> Iterable[CardButton]:
        return ()

    def render(self) -> None:
        """Fill every read-out from the current state."""

    def close(self) -> None:
        """Stop listening for language changes, then close the widget."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        super().close()

    # -- static fallbacks ----------------------------------------------------------------

    def static_html(self) -> str:
        """The current state as plain HTML (what a page without widgets shows)."""
        return ""

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            html_view = self.static_html()
            # right to left, every read-out of the view reads so (cards keep left to right)
            bundle["text/html"] = f'<div dir="rtl">{html_view}</div>' if is_rtl() and \
                html_view else html_view
        return bundle

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"
