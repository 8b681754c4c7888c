"""The leaderboard: one self-contained HTML page, in the class report's style.

The table (place, bot, rating with its 95% interval, games and wins per seat, faults),
a chart of the ratings with their intervals (inline SVG), and the decisive hands of the
final, replayed from its match record and drawn with the kit's card views.  It loads
nothing, reads on a projector and prints.  A bot's place is one more than the number of
bots whose interval lies wholly above its own (:func:`.ratings.places`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from ..hand import Hand, Role
from ..i18n import _, format_number, get_language, is_rtl, ngettext
from ..match import Match
from ..platforms.class_report import PAGE_STYLE
from ..review.core import review_hand
from ..review.page import RATING_STYLE, rating_html, summary_table
from ..review.records import PlayedHand
from ..rules import Rules
from ..views.cards import STYLE
from ..views.html import deal_html, match_html, result_html

LEADERBOARD_STYLE = """<style>
table.bg-board{border-collapse:collapse;width:100%}
.bg-board th,.bg-board td{border-bottom:1px solid var(--line);padding:.3em .5em;
 text-align:start}
.bg-board td.bg-num{text-align:end;font-variant-numeric:tabular-nums}
.bg-board tr.bg-reference td{color:var(--muted)}
.bg-board .bg-faults{color:var(--bad);font-weight:bold}
.bg-ratings{width:100%;max-width:900px;height:auto;display:block}
.bg-replay{border:2px solid var(--line);border-radius:.6em;padding:.5em .9em;margin:.8em 0;
 break-inside:avoid}
.bg-actions{font:.9em/1.4 ui-monospace,monospace;direction:ltr;text-align:left;
 overflow-wrap:anywhere}
.bg-scroll,.bg-match,.bg-result{max-width:100%;overflow-x:auto}
p.bg-muted{overflow-wrap:anywhere}
.bg-replay,.bg-replay *{max-width:100%;box-sizing:border-box}
.bg-replay .bg-cards{flex-wrap:wrap}
</style>"""


def _plain(text: object, cap: int = 200) -> str:
    """A bot's own words (an exception's message), on one line, without control
    characters, capped: quoted safely on a terminal and a page alike."""
    flat = "".join(c if c.isprintable() else " " for c in str(text))
    return flat if len(flat) <= cap else flat[:cap - 1] + "…"


def crash_text(bot: dict[str, Any]) -> str:
    """What a bot's crashes say to its learner and the teacher: how many, the first's
    game, hand and seat, what it raised and where in the learner's code ("" for a bot
    that never crashed)."""
    n = int(bot.get("crashes") or 0)
    if not n:
        return ""
    parts = [ngettext("{n} crash", "{n} crashes", n).format(n=n)]
    first = bot.get("first_crash") or {}
    if first.get("game") is not None:
        try:
            role = Role(str(first.get("role"))).label
        except ValueError:
            role = str(first.get("role"))
        if first["game"] == -1:
            parts.append(_("the first in the final, hand {hand}, as the {role}").format(
                hand=first.get("hand", "?"), role=role))
        else:  # the schedule's games counted from 1, as a reader counts them
            parts.append(_("the first in game {game}, hand {hand}, as the {role}").format(
                game=int(first["game"]) + 1, hand=first.get("hand", "?"), role=role))
    if first.get("type"):
        error = _plain(first["type"], 60)
        if first.get("message"):
            error += f": {_plain(first['message'])}"
        parts.append(error)
    if first.get("line") is not None:
        parts.append(_("raised in {function}, line {line} ({cell})").format(
            function=_plain(first.get("function") or "?", 60), line=first["line"],
            cell=_plain(first.get("cell") or "?", 120)))
    elif not first.get("type"):
        parts.append(_("the bot's process stopped without saying why"))
    return "; ".join(parts)


def _one(value: object) -> str:
    """A rating or an interval's end as the language writes it, one decimal."""
    return format_number(float(value), 1)  # type: ignore[arg-type]


def _h(text: object) -> str:
    return html.escape(str(text))


def ratings_svg(bots: Sequence[dict[str, Any]]) -> str:
    """Each bot's rating as a dot on its 95% interval, best first (inline SVG)."""
    if not bots:
        return ""
    lows = [float(b["low"]) for b in bots]
    highs = [float(b["high"]) for b in bots]
    lo, hi = min(lows), max(highs)
    span = (hi - lo) or 1.0
    row, left, right, top = 34, 220, 30, 20
    width = 900
    height = top + row * len(bots) + 40
    scale = (width - left - right) / span

    def x(v: float) -> float:
        return left + (v - lo) * scale

    label = _("Ratings with their 95% intervals")
    parts = [f'<svg class="bg-ratings" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{_h(label)}" xmlns="http://www.w3.org/2000/svg" '
             f'font-family="system-ui,sans-serif" direction="ltr" style="direction:ltr">']
    for i, b in enumerate(bots):
        y = top + i * row + row / 2
        colour = "#888" if b.get("reference") else "#1f6feb"
        parts.append(f'<text x="{left - 10}" y="{y + 6:.1f}" text-anchor="end" '
                     f'font-size="18">{_h(b["name"])}</text>')
        parts.append(f'<line x1="{x(float(b["low"])):.1f}" y1="{y:.1f}" '
                     f'x2="{x(float(b["high"])):.1f}" y2="{y:.1f}" stroke="{colour}" '
                     f'stroke-width="6" stroke-linecap="round" data-bot="{_h(b["name"])}"/>')
        parts.append(f'<circle cx="{x(float(b["rating"])):.1f}" cy="{y:.1f}" r="8" '
                     f'fill="#111"><title>{_h(b["name"])}: {_one(b["rating"])} '
                     f'[{_one(b["low"])} – {_one(b["high"])}]</title></circle>')
    base = top + row * len(bots) + 8
    parts.append(f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" '
                 f'stroke="#111" stroke-width="2"/>')
    step = 10 if span > 30 else 5
    tick = int(lo // step) * step
    while tick <= hi:
        if tick >= lo:
            parts.append(f'<text x="{x(tick):.1f}" y="{base + 24}" text-anchor="middle" '
                         f'font-size="16">{tick}</text>')
        tick += step
    parts.append("</svg>")
    return "".join(parts)


def decisive_hands(record: dict[str, Any], n: int = 3) -> list[int]:
    """The hands of a match record that decided it: the last one (which reached the
    target) and those that scored the most, in play order."""
    hands = record.get("hands", [])
    scored = [i for i, h in enumerate(hands) if h.get("winner")]
    if not scored:
        return []
    best = sorted(scored, key=lambda i: (-int(hands[i].get("points", 0)), i))
    chosen = {scored[-1], *best[: n - 1]}
    return sorted(chosen)


def replay_html(record: dict[str, Any], index: int) -> str:
    """One hand of a match record, replayed: the deal, the actions, each rated by the
    review (``box_gin/review``: the expected points it lost against the best action, from
    what its player could know), and the result, with each player's accuracy."""
    rules = Rules.from_dict(record["rules"])
    entry = record["hands"][index]
    roles = {Role(k): v for k, v in entry["roles"].items()}
    hand = Hand.deal(rules, seed=int(entry["seed"]))
    start = deal_html(hand, roles)
    played = []
    for text in entry["actions"]:
        played.append((roles[hand.to_play] if hand.to_play else "", text))
        hand.apply(text)
    reviewed = review_hand(PlayedHand(1, int(entry["number"]), {r.value: n for r, n in
                                                                 roles.items()}, hand),
                           seed=int(entry["seed"]) & 0xFFFFFFFF)
    rated = {d.step: d for d in reviewed.decisions}
    moves = []
    for step, (player, text) in enumerate(played):
        move = f"{_h(player)}: {_h(text)}"
        decision = rated.get(step)
        if decision is not None:
            move += " " + rating_html(decision.rating)
            if not decision.rating.fine:
                move += " " + _h(_("(best: {action})").format(action=decision.best.label))
        moves.append(move)
    title = _("Hand {n}").format(n=entry["number"])
    result = result_html(hand.result, roles) if hand.result else ""
    number = int(entry["number"])
    summary = ""
    if reviewed.decisions:  # a wide table: it scrolls in its own box on a phone
        summary = (f'<div class="bg-scroll" role="region" tabindex="0" '
                   f'aria-labelledby="replay-{number}">'
                   f"{summary_table(reviewed.summaries())}</div>")
    return (f'<section class="bg-replay" data-hand="{number}">'
            f'<h3 id="replay-{number}">{_h(title)}</h3>'
            f"{start}<p class=\"bg-actions\">{' · '.join(moves)}</p>{result}{summary}"
            "</section>")


def leaderboard_html(results: dict[str, Any], title: str | None = None) -> str:
    """The leaderboard page for a tournament's results (``Results.to_dict()``)."""
    title = title or _("box-gin tournament")
    bots = results["bots"]
    settings = results["settings"]
    direction = "rtl" if is_rtl() else "ltr"
    out = [f'<!DOCTYPE html><html lang="{_h(get_language())}" dir="{direction}"><head>'
           f'<meta charset="utf-8"><meta name="viewport" '
           f'content="width=device-width, initial-scale=1"><title>{_h(title)}</title>'
           f"{PAGE_STYLE}{STYLE}{LEADERBOARD_STYLE}{RATING_STYLE}</head><body><h1>{_h(title)}</h1>"]
    stats = [(_("bots"), len(bots)), (_("games"), settings["games"]),
             (_("deals"), settings["deals"]), (_("seed"), settings["seed"])]
    out.append('<section class="bg-summary">' + "".join(
        f'<div class="bg-stat"><span>{_h(k)}</span><b>{_h(v)}</b></div>' for k, v in stats)
        + "</section>")
    fair = _("Every bot played every seat against every other on the same deals. A bot's "
             "place is one more than the number of bots whose 95% interval lies wholly "
             "above its own: a bot is placed below another only when it is surely worse, "
             "so several bots may share a place.")
    out.append(f'<p class="bg-muted">{_h(fair)}</p>')
    board_title = _("Leaderboard")
    out.append(f'<h2 id="leaderboard">{_h(board_title)}</h2>')
    seats = (Role.BOX, Role.CAPTAIN, Role.SITTER)
    heads = [_("place"), _("bot"), _("rating"), _("95% interval"), _("games"), _("wins"),
             *[_("wins as {seat}").format(seat=s.label) for s in seats],
             _("illegal actions"), _("time-outs"), _("crashes")]
    out.append('<div class="bg-scroll" role="region" tabindex="0" '
               'aria-labelledby="leaderboard"><table class="bg-board"><thead><tr>' + "".join(
        f"<th>{_h(h)}</th>" for h in heads) + "</tr></thead><tbody>")
    reference = _("(reference)")
    for b in bots:
        name = f'<bdi>{_h(b["name"])}</bdi>' + (f' <span class="bg-muted">{_h(reference)}</span>'
                                if b["reference"] else "")
        per_seat = "".join(
            f'<td class="bg-num"><bdi dir="ltr">{b["wins_per_seat"][s.value]}/'
            f'{b["games_per_seat"][s.value]}</bdi></td>' for s in seats)
        faults = "".join(
            f'<td class="bg-num{" bg-faults" if b[k] else ""}">{b[k]}</td>'
            for k in ("illegal", "timeouts", "crashes"))
        row_class = ' class="bg-reference"' if b["reference"] else ""
        out.append(
            f'<tr data-bot="{_h(b["name"])}"{row_class}>'
            f'<td class="bg-num">{b["place"]}</td><td>{name}</td>'
            f'<td class="bg-num">{_one(b["rating"])}</td>'
            f'<td class="bg-num"><bdi dir="ltr">{_one(b["low"])} – {_one(b["high"])}</bdi></td>'
            f'<td class="bg-num">{b["games"]}</td><td class="bg-num">{b["wins"]}</td>'
            f"{per_seat}{faults}</tr>")
    out.append("</tbody></table></div>")
    missing = results.get("not_entered") or []
    if missing:
        head = _("Not entered")
        out.append(f'<h2 id="not-entered">{_h(head)}</h2><ul class="bg-not-entered">' + "".join(
            f'<li data-bot="{_h(m.get("name", ""))}"><bdi>{_h(m.get("name", ""))}</bdi>: '
            f'{_h(m.get("reason", ""))}</li>' for m in missing if isinstance(m, dict))
            + "</ul>")
    absent = results.get("not_handed_in") or []
    if absent:
        head = _("Not handed in")
        out.append(f'<h2 id="not-handed-in">{_h(head)}</h2><ul class="bg-not-handed-in">'
                   + "".join(f'<li data-bot="{_h(name)}"><bdi>{_h(name)}</bdi></li>'
                             for name in absent if isinstance(name, str)) + "</ul>")
    crashed = [(b["name"], crash_text(b)) for b in bots if b.get("crashes")]
    if crashed:
        head = _("Crashes")
        out.append(f'<h2 id="crashes">{_h(head)}</h2><ul class="bg-crashes">' + "".join(
            f'<li data-bot="{_h(name)}"><bdi>{_h(name)}</bdi>: {_h(text)}</li>'
            for name, text in crashed) + "</ul>")
    chart_title = _("Ratings with their 95% intervals")
    out.append(f'<h2 id="ratings">{_h(chart_title)}</h2>')
    out.append(ratings_svg(bots))
    final = results.get("final")
    if final:
        record = final["record"]
        match = Match.from_dict(record)
        final_title = _("The final")
        out.append(f'<h2 id="final">{_h(final_title)}</h2>')
        line = _("The three best bots played a whole match to {target} points.").format(
            target=record["rules"].get("target", 100))
        out.append(f"<p>{_h(line)}</p>")
        out.append(match_html(match))
        chosen = decisive_hands(record)
        if chosen:
            head = ngettext("The decisive hand", "The decisive hands", len(chosen))
            out.append(f"<h3>{_h(head)}</h3>")
        for i in chosen:
            out.append(replay_html(record, i))
    chain = _("The match records, chained: sha256 {digest}").format(
        digest=results["records_sha256"])
    out.append(f'<p class="bg-muted">{_h(chain)}</p>')
    out.append("</body></html>")
    return "".join(out)


def write_records(results: Any, path: Any) -> None:
    """Every match record, one JSON line per game in schedule order (the final last)."""
    from ..files import write_atomic

    lines = [g.record for g in results.games]
    if results.final is not None:
        lines.append(results.final.record)
    write_atomic(path, "\n".join(lines) + "\n")
