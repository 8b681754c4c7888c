"""The review as one self-contained HTML page: a summary per player, then every hand
with each reviewed decision, its rating, the best action and every alternative's value.

It loads nothing, carries its language and direction (``lang``, ``dir``), and its
tables have headers with scopes, for screen readers.
"""

from __future__ import annotations

import html

from ..i18n import _, format_number, format_percent, get_language, is_rtl, reisolate
from ..views.cards import STYLE, cards_html
from .classify import Rating, signed
from .core import Decision, Review, SeatSummary

#: The rating chips' style, for every page that shows a rating (the leaderboard's
#: decisive hands too).
RATING_STYLE = """<style>
.bg-rating{display:inline-block;border-radius:.4em;padding:0 .45em;font-weight:bold;
 border:2px solid currentColor;white-space:nowrap}
.bg-rating-best{color:#1b5e20}.bg-rating-good{color:#2e7d32}
.bg-rating-inaccuracy{color:#7a6000}.bg-rating-mistake{color:#a34a00}
.bg-rating-blunder{color:#b71c1c}
</style>"""

REVIEW_STYLE = RATING_STYLE + """<style>
:root{--ink:#111;--muted:#555;--line:#bbb}
*{box-sizing:border-box}
body{font:17px/1.45 system-ui,sans-serif;color:var(--ink);background:#fff;margin:0 auto;
 max-width:1300px;padding:1em 1.4em;overflow-wrap:break-word}
h1{font-size:1.8em;margin:.2em 0}h2{font-size:1.4em;margin:1.3em 0 .4em;
 border-bottom:3px solid var(--ink)}
.bg-scroll{max-width:100%;overflow-x:auto;margin:.3em 0 1em;background:
 linear-gradient(to right,#fff 40%,#fff0) left/2.5em 100% no-repeat local,
 linear-gradient(to left,#fff 40%,#fff0) right/2.5em 100% no-repeat local,
 linear-gradient(to right,#0004,#0000) left/.9em 100% no-repeat scroll,
 linear-gradient(to left,#0004,#0000) right/.9em 100% no-repeat scroll}
.bg-scroll:focus-visible{outline:3px solid #1f6feb;outline-offset:2px}
table.bg-review{border-collapse:collapse;width:100%}
.bg-review td.bg-hand{min-width:12.5em}.bg-review td.bg-why{min-width:11em}
.bg-review th,.bg-review td{border-bottom:1px solid var(--line);padding:.3em .45em;
 text-align:start;vertical-align:top}
.bg-review td.bg-num{text-align:end;font-variant-numeric:tabular-nums;white-space:nowrap}
.bg-alts{margin:0;padding:0;list-style:none;font-size:.9em}
.bg-alts{min-width:9em}.bg-alts li{padding-inline-start:.8em;text-indent:-.8em}
.bg-alts .bg-val{white-space:nowrap}.bg-alts .bg-chosen{font-weight:bold}
.bg-note{color:var(--muted)}
.bg-review .bg-card{font-size:.7em}
@media (max-width:600px){body{font-size:16px;padding:.6em .8em}h1{font-size:1.5em}
 h2{font-size:1.25em}}
</style>"""


def _h(text: object) -> str:
    return html.escape(str(text))


def scrolling(table: str, labelled_by: str) -> str:
    """``table`` in a region of its own that scrolls sideways when the screen is narrower
    (shadows at its edges show there is more), focusable so that a keyboard scrolls it
    too, named by the heading ``labelled_by``."""
    return (f'<div class="bg-scroll" tabindex="0" role="region" '
            f'aria-labelledby="{_h(labelled_by)}">{table}</div>')


def rating_html(rating: Rating) -> str:
    """A rating as a chip: its word (never colour alone) in its colour."""
    return f'<span class="bg-rating bg-rating-{rating.value}">{_h(rating.label)}</span>'


def summary_table(summaries: list[SeatSummary]) -> str:
    """Each player's decisions, mean points lost and accuracy, and its count per rating."""
    heads = [_("player"), _("decisions"), _("points lost per decision"), _("accuracy"),
             *(r.label for r in Rating)]
    rows = ["<tr>" + "".join(f'<th scope="col">{_h(t)}</th>' for t in heads) + "</tr>"]
    for s in summaries:
        cells = [str(s.decisions), format_number(s.mean_loss, 2), format_percent(s.accuracy),
                 *(str(s.ratings[r]) for r in Rating)]
        rows.append(f'<tr><th scope="row">{_h(s.player)}</th>'
                    + "".join(f'<td class="bg-num">{c}</td>' for c in cells) + "</tr>")
    return f'<table class="bg-review bg-summary-table">{"".join(rows)}</table>'


def _alternatives(d: Decision) -> str:
    items = []
    for v in d.evaluation.ranked:
        chosen = v.action.kind is d.played.kind and v.action.card == d.played.card
        cls = ' class="bg-chosen"' if chosen else ""
        items.append(f"<li{cls}>{_h(reisolate(v.action.label))}: "
                     f'<span class="bg-val">{_h(signed(v.value))}</span></li>')
    return f'<ul class="bg-alts">{"".join(items)}</ul>'


def decisions_table(decisions: tuple[Decision, ...]) -> str:
    """One row a decision: who, when, the cards, what was played, its rating and loss,
    the best action, every action's value, and the reason."""
    heads = [_("turn"), _("player"), _("stock"), _("cards"), _("played"), _("rating"),
             _("points lost"), _("best"), _("every action's value"), _("why")]
    rows = ["<tr>" + "".join(f'<th scope="col">{_h(t)}</th>' for t in heads) + "</tr>"]
    for d in decisions:
        who = _("{player} ({role})").format(player=d.player, role=d.role.label)
        top = "" if d.top_discard is None else "<br>" + _h(
            _("top of the pile: {card}").format(card=d.top_discard.label))
        rows.append(
            f'<tr id="g{d.game}-h{d.number}-s{d.step}"><th scope="row">{d.step + 1}</th>'
            f"<td>{_h(who)}</td><td class=\"bg-num\">{d.stock_size}</td>"
            f'<td class="bg-hand">{cards_html(d.cards, style=False)}{top}</td>'
            f"<td>{_h(reisolate(d.played.label))}</td><td>{rating_html(d.rating)}</td>"
            f'<td class="bg-num">{_h(format_number(d.loss, 1))}</td>'
            f"<td>{_h(reisolate(d.best.label))}</td><td>{_alternatives(d)}</td>"
            f'<td class="bg-why">{_h(reisolate(d.reason))}</td></tr>')
    return f'<table class="bg-review">{"".join(rows)}</table>'


def review_page(review: Review, title: str) -> str:
    """The whole page (see the module's docstring)."""
    lang = get_language()
    direction = "rtl" if is_rtl(lang) else "ltr"
    out = [f'<!doctype html><html lang="{_h(lang)}" dir="{direction}"><head>'
           '<meta charset="utf-8">'
           '<meta name="viewport" content="width=device-width, initial-scale=1">'
           f"<title>{_h(title)}</title>{REVIEW_STYLE}{STYLE}</head><body>"]
    out.append(f"<h1>{_h(title)}</h1>")
    out.append('<p class="bg-note">' + _h(_(
        "Each decision is valued by the points its seat could expect, from what that seat "
        "could see at the time, with both players then playing the greedy policy to the "
        "end of the hand (seed {seed}). A rating says how many of those points the "
        "decision gave up against the best action.").format(seed=review.seed)) + "</p>")
    summary = _("Summary")
    out.append(f'<h2 id="summary">{_h(summary)}</h2>')
    out.append(scrolling(summary_table(review.summaries()), "summary"))
    for reviewed in review.hands:
        p = reviewed.played
        out.append(f'<h2 id="g{p.game}-h{p.number}">'
                   + _h(_("Game {game}, hand {number}").format(game=p.game, number=p.number))
                   + "</h2>")
        roles = _("box: {box}; captain: {captain}; sitter: {sitter}").format(
            box=p.roles["box"], captain=p.roles["captain"], sitter=p.roles["sitter"])
        result = p.hand.result.summary() if p.hand.result is not None else \
            _("The hand is not over.")
        out.append(f"<p>{_h(roles)}. {_h(result)}</p>")
        if reviewed.decisions:
            out.append(scrolling(decisions_table(reviewed.decisions),
                                 f"g{p.game}-h{p.number}"))
        else:
            none = _("No decision to review in this hand.")
            out.append(f'<p class="bg-note">{_h(none)}</p>')
    out.append("</body></html>")
    return "".join(out)
