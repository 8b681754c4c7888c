"""The card faces in HTML: a card, a row of cards, cards face down, folded text.

Standard library and ``box_gin.i18n`` only (a card is read through its attributes): the
grading sandbox stages this file, and a kata's code may show cards with it there, as
``box_gin.display``.  The views of the engine's other values are in
:mod:`box_gin.views.html`.  CSS classes are stable (see ``docs/css-classes.md``):
``bg-card``, ``bg-red``/``bg-black``, ``bg-deadwood``, ``bg-backs``, ``bg-folded``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..i18n import _, is_rtl, ngettext

if TYPE_CHECKING:
    from ..cards import Card

__all__ = ["STYLE", "Folded", "back_html", "card_html", "cards_html", "deadwood_html",
           "dir_attribute"]

STYLE = """<style>
.bg-cards{display:inline-flex;flex-wrap:wrap;gap:4px;align-items:center;direction:ltr}
.bg-card{display:inline-flex;flex-direction:column;justify-content:space-between;
 width:2.8em;height:3.9em;padding:.15em .25em;border:1px solid #888;border-radius:.35em;
 background:#fff;font:bold 1.2em/1 system-ui,sans-serif;box-shadow:1px 1px 2px #0003;
 box-sizing:border-box;user-select:none;vertical-align:middle}
.bg-card .bg-pip{font-size:1.5em;align-self:center}
.bg-red{color:#c8102e}.bg-black{color:#111}
.bg-card.bg-selected{outline:3px solid #1f6feb;transform:translateY(-4px)}
.bg-card.bg-dim{opacity:.45}
.bg-card.bg-laid-off{background:#fff3c4;border:2px solid #f9a825}
.bg-meld{display:inline-flex;gap:2px;padding:3px;margin:2px;border-radius:.5em;
 background:#e6f4ea;border:2px solid #2e7d32}
.bg-deadwood{display:inline-flex;gap:2px;padding:3px;margin:2px;border-radius:.5em;
 background:#fdecea;border:2px dashed #c62828}
.bg-readout{font:1.05em system-ui,sans-serif;margin:.3em 0}
.bg-score{font-weight:bold}
.bg-layoff{background:#fff8e1;border-color:#f9a825}
.bg-back{background:repeating-linear-gradient(45deg,#1f4e79,#1f4e79 4px,#2e75b6 4px,#2e75b6 8px);
 width:1.6em}
.bg-role{padding:0 .3em}
.bg-scoresheet,.bg-cut,.bg-discards{border-collapse:collapse;font:1em system-ui,sans-serif}
.bg-scoresheet td,.bg-scoresheet th{border:1px solid #bbb;padding:.2em .6em;text-align:center}
.bg-scoresheet .bg-total td{font-weight:bold;border-top:2px solid #333}
</style>"""


def card_html(card: Card, *, extra_class: str = "") -> str:
    """One card: rank and suit in its colour, with an accessible label."""
    colour = "bg-red" if card.suit.is_red else "bg-black"
    classes = " ".join(c for c in ("bg-card", colour, extra_class) if c)
    return (
        f'<span class="{classes}" role="img" aria-label="{html.escape(card.spoken)}" '
        f'data-card="{card!r}" title="{html.escape(card.spoken)}">'
        f"<span>{card.rank_text}</span><span class=\"bg-pip\">{card.suit.symbol}</span></span>"
    )


def cards_html(cards: Iterable[Card], *, style: bool = True) -> str:
    """A row of cards."""
    inner = "".join(card_html(c) for c in cards)
    return (STYLE if style else "") + f'<span class="bg-cards">{inner}</span>'


def dir_attribute() -> str:
    """`` dir="rtl"`` when the language reads right to left, else nothing."""
    return ' dir="rtl"' if is_rtl() else ""


def deadwood_html(cards: Iterable[Card], *, style: bool = True) -> str:
    """Deadwood cards, framed in red dashes."""
    cs = list(cards)
    if not cs:
        return ""
    inner = "".join(card_html(c) for c in cs)
    return (STYLE if style else "") + f'<span class="bg-deadwood">{inner}</span>'


def back_html(count: int) -> str:
    """``count`` cards face down (an opponent's hidden cards), as one labelled row."""
    label = ngettext("{n} card face down", "{n} cards face down", count).format(n=count)
    inner = "".join('<span class="bg-card bg-back" aria-hidden="true"></span>'
                    for _i in range(count))
    return (f'<span class="bg-cards bg-backs" role="img" aria-label="{html.escape(label)}" '
            f'title="{html.escape(label)}">{inner}</span>')


class Folded:
    """Text kept folded until a reader opens it: answers to check a guess against.

    In a notebook it shows as a "Show the numbers" toggle (HTML ``<details>``, class
    ``bg-folded``), closed until clicked; its plain text (a terminal, nbval) is the text.

    >>> Folded("42 hands")
    42 hands
    """

    def __init__(self, text: str, summary: str | None = None) -> None:
        self.text = text
        self.summary = summary

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        summary = self.summary if self.summary is not None else _("Show the numbers")
        return (f'<details class="bg-folded"{dir_attribute()}><summary style="cursor:pointer;'
                f'font-weight:600;color:#1f4e79">{html.escape(summary)}</summary>'
                f'<pre class="bg-folded-text" dir="{"rtl" if is_rtl() else "ltr"}">'
                f'{html.escape(self.text)}</pre></details>')
