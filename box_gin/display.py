"""HTML for engine values: cards that look like cards, with a text alternative.

Pure string building; the rules modules import this lazily, inside ``_repr_html_``,
and it never imports a widget library.  CSS classes are stable (see ``docs``):
``bg-card``, ``bg-red``/``bg-black``, ``bg-meld``, ``bg-deadwood``, ``bg-readout``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .i18n import _, is_rtl

if TYPE_CHECKING:
    from .cards import Card
    from .knocking import DiscardAnalysis
    from .layoffs import LayoffResult
    from .melds import Arrangement, Meld

STYLE = """<style>
.bg-cards{display:inline-flex;flex-wrap:wrap;gap:4px;align-items:center;direction:ltr}
.bg-card{display:inline-flex;flex-direction:column;justify-content:space-between;
 width:2.6em;height:3.6em;padding:.15em .25em;border:1px solid #888;border-radius:.35em;
 background:#fff;font:bold 1.1em/1 system-ui,sans-serif;box-shadow:1px 1px 2px #0003;
 box-sizing:border-box;user-select:none}
.bg-card .bg-pip{font-size:1.5em;align-self:center}
.bg-red{color:#c8102e}.bg-black{color:#111}
.bg-card.bg-selected{outline:3px solid #1f6feb;transform:translateY(-4px)}
.bg-card.bg-dim{opacity:.45}
.bg-meld{display:inline-flex;gap:2px;padding:3px;margin:2px;border-radius:.5em;
 background:#e6f4ea;border:2px solid #2e7d32}
.bg-deadwood{display:inline-flex;gap:2px;padding:3px;margin:2px;border-radius:.5em;
 background:#fdecea;border:2px dashed #c62828}
.bg-readout{font:1.05em system-ui,sans-serif;margin:.3em 0}
.bg-layoff{background:#fff8e1;border-color:#f9a825}
.bg-back{background:repeating-linear-gradient(45deg,#1f4e79,#1f4e79 4px,#2e75b6 4px,#2e75b6 8px)}
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


def _dir() -> str:
    return ' dir="rtl"' if is_rtl() else ""


def meld_html(meld: Meld, *, style: bool = True, extra_class: str = "") -> str:
    """A meld, framed in green."""
    inner = "".join(card_html(c) for c in meld.cards)
    label = html.escape(f"{meld.kind.label}: {' '.join(c.spoken for c in meld.cards)}")
    cls = "bg-meld" + (f" {extra_class}" if extra_class else "")
    return (STYLE if style else "") + \
        f'<span class="{cls}" data-meld="{meld}" aria-label="{label}">{inner}</span>'


def deadwood_html(cards: Iterable[Card], *, style: bool = True) -> str:
    """Deadwood cards, framed in red dashes."""
    cs = list(cards)
    if not cs:
        return ""
    inner = "".join(card_html(c) for c in cs)
    return (STYLE if style else "") + f'<span class="bg-deadwood">{inner}</span>'


def arrangement_html(arrangement: Arrangement) -> str:
    """Melds, deadwood and the deadwood value."""
    melds = "".join(meld_html(m, style=False) for m in arrangement.melds)
    value = _("Deadwood: {value}").format(value=arrangement.deadwood_value)
    return (
        f"{STYLE}<div class=\"bg-arrangement\"{_dir()}><div class=\"bg-cards\">{melds}"
        f"{deadwood_html(arrangement.deadwood, style=False)}</div>"
        f'<div class="bg-readout bg-deadwood-value">{html.escape(value)}</div></div>'
    )


def layoff_html(result: LayoffResult) -> str:
    """The defender's melds, layoffs and deadwood."""
    melds = "".join(meld_html(m, style=False) for m in result.melds)
    offs = "".join(
        f'<span class="bg-meld bg-layoff" title="{html.escape(str(lo.onto))}">'
        f"{card_html(lo.card)}</span>"
        for lo in result.layoffs
    )
    value = _("Deadwood after layoffs: {value}").format(value=result.deadwood_value)
    return (
        f"{STYLE}<div class=\"bg-layoffs\"{_dir()}><div class=\"bg-cards\">{melds}{offs}"
        f"{deadwood_html(result.deadwood, style=False)}</div>"
        f'<div class="bg-readout bg-deadwood-value">{html.escape(value)}</div></div>'
    )


def discard_analysis_html(analysis: DiscardAnalysis) -> str:
    """Each discard with the deadwood it leaves; the best ones marked."""
    rows = "".join(
        f"<tr><td>{card_html(c)}</td><td class=\"bg-readout\">{d}"
        f"{' ★' if c in analysis.best else ''}</td></tr>"
        for c, d in sorted(analysis.deadwood_after.items(), key=lambda kv: (kv[1], kv[0]))
    )
    head = html.escape(_("Discard")) + "</th><th>" + html.escape(_("Deadwood left"))
    return f"{STYLE}<table class=\"bg-discards\"{_dir()}><tr><th>{head}</th></tr>{rows}</table>"


if TYPE_CHECKING:
    from .hand import Hand, HandResult, SeatView
    from .match import Match


def _readout(text: str, cls: str) -> str:
    return f'<div class="bg-readout {cls}">{html.escape(text)}</div>'


def result_html(result: HandResult) -> str:
    """The end of a hand: both lay-outs, the layoffs and the score."""
    parts = [_readout(result.summary(), "bg-score")]
    if result.knocker_layout is not None and result.knocker is not None:
        parts.append(_readout(_("The {role} knocked:").format(role=result.knocker.label),
                              "bg-knocker"))
        parts.append(arrangement_html(result.knocker_layout))
    if result.defender_layout is not None and result.defender is not None:
        parts.append(_readout(_("The {role} laid out:").format(role=result.defender.label),
                              "bg-defender"))
        parts.append(layoff_html(result.defender_layout))
    return f'<div class="bg-result"{_dir()}>' + "".join(parts) + "</div>"


def view_html(view: SeatView) -> str:
    """A seat's view: its cards, the top of the discard pile, the stock."""
    top = view.top_discard
    info = _("{role} · stock: {stock} · phase: {phase}").format(
        role=view.role.label, stock=view.stock_size, phase=view.phase.label)
    pile = card_html(top) if top else "–"
    return (
        f'{STYLE}<div class="bg-view"{_dir()}>{_readout(info, "bg-info")}'
        f'<div class="bg-cards">{"".join(card_html(c) for c in view.hand)}</div>'
        f'<div class="bg-readout bg-pile">{html.escape(_("Discard pile:"))} {pile}</div></div>'
    )


def hand_html(hand: Hand) -> str:
    """Both hands face up (a teacher's view), the upcard and the stock."""
    from .hand import Role

    rows = []
    for role in (Role.CAPTAIN, Role.BOX):
        rows.append(_readout(role.label.capitalize(), f"bg-{role.value}-label"))
        rows.append(cards_html(hand.cards(role), style=False))
    top = hand.discard_pile[-1] if hand.discard_pile else None
    rows.append(_readout(_("Discard pile: {card} · stock: {n}").format(
        card=top.label if top else "–", n=hand.stock_size), "bg-pile"))
    if hand.result is not None:
        rows.append(result_html(hand.result))
    return f'{STYLE}<div class="bg-hand"{_dir()}>' + "".join(rows) + "</div>"


def match_html(match: Match) -> str:
    """The score sheet: one row per hand, the running totals."""
    head = "".join(f"<th>{html.escape(p)}</th>" for p in match.players)
    rows = []
    running = dict.fromkeys(match.players, 0)
    for record in match.history:
        name = record.winner_name
        if name is not None:
            running[name] += record.result.points
        cells = "".join(f"<td>{running[p]}</td>" for p in match.players)
        rows.append(f"<tr><td>{record.number}</td><td>{html.escape(record.result.outcome.label)}"
                    f"</td>{cells}</tr>")
    title = html.escape(_("Hand")) + "</th><th>" + html.escape(_("Outcome"))
    return (f'<table class="bg-scoresheet"{_dir()}><tr><th>{title}</th>{head}</tr>'
            + "".join(rows) + "</table>")
