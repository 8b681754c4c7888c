"""HTML for the engine's values: melds, arrangements, layoffs, discards, a seat's view,
a deal, a hand's result and its score, a match's score sheet.

Pure string building, importing the engine at the top; the engine's values show
themselves in a notebook through these functions, imported inside their
``_repr_html_`` hooks only (as python-chess keeps ``_repr_svg_``).  The card faces are in
:mod:`box_gin.views.cards`.  CSS classes are stable (see ``docs/css-classes.md``).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence

from ..hand import Hand, HandResult, Outcome, Role, SeatView
from ..i18n import _, ngettext, pgettext
from ..knocking import DiscardAnalysis
from ..layoffs import Layoff, LayoffResult
from ..match import CutRound, Match, SitterView
from ..melds import Arrangement, Meld
from ..rules import Rules
from .cards import STYLE, back_html, card_html, cards_html, deadwood_html, dir_attribute


def meld_html(meld: Meld, *, style: bool = True, extra_class: str = "") -> str:
    """A meld, framed in green."""
    inner = "".join(card_html(c) for c in meld.cards)
    label = html.escape(f"{meld.kind.label}: {' '.join(c.spoken for c in meld.cards)}")
    cls = "bg-meld" + (f" {extra_class}" if extra_class else "")
    return (STYLE if style else "") + \
        f'<span class="{cls}" data-meld="{meld}" aria-label="{label}">{inner}</span>'


def arrangement_html(arrangement: Arrangement, *, value: bool = True) -> str:
    """Melds, deadwood and (unless ``value=False``, for a view that states it elsewhere)
    the deadwood value."""
    melds = "".join(meld_html(m, style=False) for m in arrangement.melds)
    line = ""
    if value:
        text = _("Deadwood: {value}").format(value=arrangement.deadwood_value)
        line = f'<div class="bg-readout bg-deadwood-value">{html.escape(text)}</div>'
    return (
        f"{STYLE}<div class=\"bg-arrangement\"{dir_attribute()}><div class=\"bg-cards\">{melds}"
        f"{deadwood_html(arrangement.deadwood, style=False)}</div>{line}</div>"
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
        f"{STYLE}<div class=\"bg-layoffs\"{dir_attribute()}><div class=\"bg-cards\">{melds}{offs}"
        f"{deadwood_html(result.deadwood, style=False)}</div>"
        f'<div class="bg-readout bg-deadwood-value">{html.escape(value)}</div></div>'
    )


#: The compact table of discards (kept out of STYLE, which every stored view embeds).
DISCARDS_STYLE = """<style>
.bg-discards th{text-align:start;font-weight:600;padding:.1em .5em .1em 0;white-space:nowrap}
.bg-discards td{padding:.1em .15em;text-align:center}
.bg-discards .bg-card{font-size:.8em;box-shadow:none}
.bg-discards td.bg-best-discard .bg-card{border:2px solid #f9a825}
.bg-discards td.bg-readout{font-size:.95em;margin:0}
</style>"""


def discard_analysis_html(analysis: DiscardAnalysis) -> str:
    """Each discard with the deadwood it leaves, best first and the best ones starred: two
    compact rows (the discards as small cards, the deadwood under each)."""
    order = sorted(analysis.deadwood_after.items(), key=lambda kv: (kv[1], kv[0]))
    cards = "".join(
        f'<td class="{"bg-best-discard" if c in analysis.best else ""}">{card_html(c)}</td>'
        for c, _d in order)
    values = "".join(
        f'<td class="bg-readout{" bg-best-discard" if c in analysis.best else ""}">'
        f"{d}{' ★' if c in analysis.best else ''}</td>" for c, d in order)
    discard = html.escape(pgettext("column", "Discard"))
    left = html.escape(_("Deadwood left"))
    return (f"{STYLE}{DISCARDS_STYLE}<table class=\"bg-discards\"{dir_attribute()}>"
            f"<tr><th>{discard}</th>{cards}</tr><tr><th>{left}</th>{values}</tr></table>")


def _readout(text: str, cls: str) -> str:
    return f'<div class="bg-readout {cls}">{html.escape(text)}</div>'


def _knocker_melds_html(result: HandResult) -> str:
    """The knocker's melds with each card the defender laid off attached to the meld it
    went onto (class ``bg-laid-off``), then the knocker's deadwood and its value."""
    layout = result.knocker_layout
    assert layout is not None
    layoffs = result.defender_layout.layoffs if result.defender_layout is not None else ()
    tip = html.escape(_("laid off by the defender"))
    parts = []
    for index, meld in enumerate(layout.melds):
        added = [lo.card for lo in layoffs if lo.onto_index == index]
        cards = sorted([*meld.cards, *added], key=lambda c: (c.rank, c.suit))
        inner = "".join(
            card_html(c, extra_class="bg-laid-off").replace(
                'title="', f'title="{tip}: ', 1) if c in added else card_html(c)
            for c in cards)
        cls = "bg-meld bg-with-layoffs" if added else "bg-meld"
        parts.append(f'<span class="{cls}" data-meld="{meld}">{inner}</span>')
    value = _("Deadwood: {value}").format(value=layout.deadwood_value)
    return (f'<div class="bg-arrangement bg-knocker-layout"{dir_attribute()}><div class="bg-cards">'
            + "".join(parts) + deadwood_html(layout.deadwood, style=False)
            + f'</div><div class="bg-readout bg-deadwood-value">{html.escape(value)}</div>'
            "</div>")


def _defender_html(layout: LayoffResult) -> str:
    """The defender's own melds and the deadwood left after its layoffs."""
    melds = "".join(meld_html(m, style=False) for m in layout.melds)
    value = _("Deadwood after layoffs: {value}").format(value=layout.deadwood_value)
    return (f'<div class="bg-layoffs bg-defender-layout"{dir_attribute()}><div class="bg-cards">'
            f"{melds}{deadwood_html(layout.deadwood, style=False)}</div>"
            f'<div class="bg-readout bg-deadwood-value">{html.escape(value)}</div></div>')


def score_line(result: HandResult, roles: Mapping[Role, str] | None = None) -> str:
    """Who scored the hand and how many points, naming the player when ``roles`` (the
    hand's roles) are given."""
    if result.winner is None or roles is None:
        return result.summary()
    # TRANSLATORS: {outcome} is knock, gin, big gin or undercut; {role} box or captain.
    return ngettext("{outcome}: {points} point to {name} ({role}).",
                    "{outcome}: {points} points to {name} ({role}).", result.points).format(
        outcome=result.outcome.label.capitalize(), points=result.points,
        name=roles[result.winner], role=result.winner.label)


def result_html(result: HandResult, roles: Mapping[Role, str] | None = None,
                rules: Rules | None = None) -> str:
    """The end of a hand: one score line (with how it was counted, given the ``rules``),
    the knocker's melds with the layoffs attached to the meld each went onto, and the
    defender's melds and deadwood.  ``roles``: the hand's roles, to name the players."""
    line = html.escape(score_line(result, roles))
    if rules is not None and result.knocker_layout is not None:
        line += (' <span class="bg-breakdown">'
                 f"{html.escape(score_breakdown(result, rules))}</span>")
    parts = [f'<div class="bg-readout bg-score">{line}</div>']
    if result.knocker_layout is not None and result.knocker is not None:
        knocker = (_("Knocker: {name} ({role})").format(
            name=roles[result.knocker], role=result.knocker.label) if roles is not None
            else _("The {role} knocked:").format(role=result.knocker.label))
        parts.append(_readout(knocker, "bg-knocker"))
        parts.append(_knocker_melds_html(result))
    if result.defender_layout is not None and result.defender is not None:
        defender = (_("Defender: {name} ({role})").format(
            name=roles[result.defender], role=result.defender.label) if roles is not None
            else _("The {role} laid out:").format(role=result.defender.label))
        parts.append(_readout(defender, "bg-defender"))
        parts.append(_defender_html(result.defender_layout))
    return f'{STYLE}<div class="bg-result"{dir_attribute()}>' + "".join(parts) + "</div>"


def view_html(view: SeatView) -> str:
    """A seat's view: its cards, the top of the discard pile, the stock."""
    top = view.top_discard
    info = _("{role} · stock: {stock} · phase: {phase}").format(
        role=view.role.label, stock=view.stock_size, phase=view.phase.label)
    pile = card_html(top) if top else "–"
    pile_label = html.escape(_("Discard pile:"))
    return (
        f'{STYLE}<div class="bg-view"{dir_attribute()}>{_readout(info, "bg-info")}'
        f'<div class="bg-cards">{"".join(card_html(c) for c in view.hand)}</div>'
        f'<div class="bg-readout bg-pile">{pile_label} {pile}</div></div>'
    )


def sitter_view_html(view: SitterView) -> str:
    """The sitter's view: no cards of its own, the captain's cards it watches."""
    captain = view.captain
    top = captain.top_discard
    info = _("{role} · stock: {stock} · phase: {phase}").format(
        role=view.role.label, stock=captain.stock_size, phase=captain.phase.label)
    watching = _("The sitter holds no cards. The captain's cards, which it watches:")
    pile = card_html(top) if top else "–"
    pile_label = html.escape(_("Discard pile:"))
    return (
        f'{STYLE}<div class="bg-view bg-sitter-view"{dir_attribute()}>{_readout(info, "bg-info")}'
        f'{_readout(watching, "bg-watching")}'
        f'<div class="bg-cards bg-watched">{"".join(card_html(c) for c in view.watching)}'
        f'</div><div class="bg-readout bg-pile">{pile_label} {pile}</div></div>'
    )


def hand_html(hand: Hand) -> str:
    """Both hands face up (a teacher's view), the upcard and the stock."""
    rows = []
    for role in (Role.CAPTAIN, Role.BOX):
        rows.append(_readout(role.label.capitalize(), f"bg-{role.value}-label"))
        rows.append(cards_html(hand.cards(role), style=False))
    top = hand.discard_pile[-1] if hand.discard_pile else None
    rows.append(_readout(_("Discard pile: {card} · stock: {n}").format(
        card=top.label if top else "–", n=hand.stock_size), "bg-pile"))
    if hand.result is not None:
        rows.append(result_html(hand.result))
    return f'{STYLE}<div class="bg-hand"{dir_attribute()}>' + "".join(rows) + "</div>"


def match_html(match: Match) -> str:
    """The score sheet: one row per hand (roles, outcome, who scored), the running totals."""
    head = "".join(f"<th>{html.escape(p)}</th>" for p in match.players)
    rows = []
    running = dict.fromkeys(match.players, 0)
    for record in match.history:
        name = record.winner_name
        if name is not None:
            running[name] += record.result.points
        cells = "".join(
            f'<td class="{"bg-scored" if p == name else ""}">{running[p]}</td>'
            for p in match.players)
        box = html.escape(record.roles[Role.BOX])
        rows.append(f"<tr><td>{record.number}</td><td>{box}</td>"
                    f"<td>{html.escape(record.result.outcome.label)}</td>{cells}</tr>")
    totals = "".join(f"<td>{match.scores[p]}</td>" for p in match.players)
    total_label = html.escape(_("Total"))
    rows.append(f'<tr class="bg-total"><td colspan="3">{total_label}</td>{totals}</tr>')
    title = "".join(f"<th>{html.escape(t)}</th>" for t in (_("Hand"), _("Box"), _("Outcome")))
    winner = ""
    if match.winner is not None:
        winner = _readout(_("Winner of the game: {name}").format(name=match.winner),
                          "bg-winner")
    return (f'{STYLE}<div class="bg-match"{dir_attribute()}><table class="bg-scoresheet">'
            f"<tr>{title}{head}</tr>" + "".join(rows) + f"</table>{winner}</div>")


def roles_html(roles: Mapping[Role, str], *, human: str | None = None) -> str:
    """Who is box, captain and sitter this hand (``human`` is marked "you")."""
    cells = []
    for role in (Role.BOX, Role.CAPTAIN, Role.SITTER):
        name = roles[role]
        if name == human and name != _("You"):
            name = _("{name} (you)").format(name=name)
        cells.append(
            f'<span class="bg-role bg-role-{role.value}"><b>{html.escape(role.label)}</b>'
            f" {html.escape(name)}</span>"
        )
    return f'<div class="bg-readout bg-roles"{dir_attribute()}>' + " · ".join(cells) + "</div>"


def cut_html(cuts: Iterable[CutRound]) -> str:
    """Each round of the cut for roles: the card each player cut."""
    rows = []
    for number, cut in enumerate(cuts, start=1):
        cells = "".join(
            f'<td>{html.escape(name)}</td><td>{card_html(card)}</td>' for name, card in cut.cards
        )
        label = html.escape(_("Cut {n}").format(n=number))
        rows.append(f"<tr><th>{label}</th>{cells}</tr>")
    return f'<table class="bg-cut"{dir_attribute()}>' + "".join(rows) + "</table>"


def deal_html(hand: Hand, roles: Mapping[Role, str] | None = None) -> str:
    """A fresh deal face up: the box's and the captain's hands, the upcard, the stock."""
    rows = []
    for role in (Role.BOX, Role.CAPTAIN):
        title = role.label.capitalize()
        if roles is not None:
            title = _("{role}: {name}").format(role=title, name=roles[role])
        rows.append(_readout(title, f"bg-{role.value}-label"))
        rows.append(f'<div class="bg-cards bg-hand-{role.value}">'
                    + "".join(card_html(c) for c in hand.cards(role)) + "</div>")
    stock = ngettext("{n} card in the stock", "{n} cards in the stock", hand.stock_size)
    upcard_label = html.escape(_("Upcard:"))
    rows.append(
        f'<div class="bg-readout bg-upcard">{upcard_label} '
        f'{card_html(hand.upcard)}</div>'
        f'<div class="bg-readout bg-stock">{back_html(1)} '
        f'{html.escape(stock.format(n=hand.stock_size))}</div>'
    )
    return f'{STYLE}<div class="bg-deal"{dir_attribute()}>' + "".join(rows) + "</div>"


def score_breakdown(result: HandResult, rules: Rules) -> str:
    """How the hand's points were counted, in one line of words and numbers.

    The points are the engine's (``result.points``); this only shows the sum.
    """
    if result.outcome is Outcome.DRAWN or result.knocker_layout is None \
            or result.defender_layout is None:
        return _("Drawn hand: nobody scores.")
    k = result.knocker_layout.deadwood_value
    d = result.defender_layout.deadwood_value
    if result.outcome is Outcome.BIG_GIN:
        text = _("Big gin: bonus {bonus} + the defender's deadwood {d} = {points}").format(
            bonus=rules.big_gin_bonus, d=d, points=result.points)
    elif result.outcome is Outcome.GIN:
        text = _("Gin: bonus {bonus} + the defender's deadwood {d} = {points}").format(
            bonus=rules.gin_bonus, d=d, points=result.points)
    elif result.outcome is Outcome.UNDERCUT:
        text = _("Undercut: the knocker's {k} is not less than the defender's {d}, so the "
                 "defender scores bonus {bonus} + ({k} − {d}) = {points}").format(
            k=k, d=d, bonus=rules.undercut_bonus, points=result.points)
    else:
        text = _("Knock: the knocker's {k} is less than the defender's {d}, so the knocker "
                 "scores {d} − {k} = {points}").format(k=k, d=d, points=result.points)
    if result.doubled:
        text += " " + _("The score is doubled: the first upcard was a spade.")
    return text


def score_html(result: HandResult, rules: Rules) -> str:
    """The score read-out: who scores, how many points, and the breakdown."""
    return (f'<div class="bg-score-box"{dir_attribute()}>{_readout(result.summary(), "bg-score")}'
            f'{_readout(score_breakdown(result, rules), "bg-breakdown")}</div>')


def layoff_step_html(knocker_melds: Sequence[Meld], layoffs: Sequence[Layoff]) -> str:
    """The knocker's melds with the cards laid off so far added, marked as layoffs."""
    parts = []
    for index, meld in enumerate(knocker_melds):
        added = [lo.card for lo in layoffs if lo.onto_index == index]
        cards = sorted([*meld.cards, *added], key=lambda c: (c.rank, c.suit))
        inner = "".join(card_html(c, extra_class="bg-laid-off" if c in added else "")
                        for c in cards)
        parts.append(f'<span class="bg-meld" data-meld="{meld}">{inner}</span>')
    return f'{STYLE}<div class="bg-cards bg-knocker-melds">' + "".join(parts) + "</div>"
