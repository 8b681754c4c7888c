"""The classroom's pages, rendered on the server with the kit's views.

Every piece of a learner's page is built from that seat's view of the hand
(:meth:`Match.view`, the engine's :class:`SeatView` or :class:`SitterView`): the cards of
the other seat are never at hand here, so they cannot reach the page.  The card faces,
melds, layoffs and the score sheet are :mod:`box_gin.views`' own.

Each page is rendered in its reader's language (:func:`language`): the server renders
one page at a time on one thread, so the kit's language is switched for the rendering
and switched back.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Mapping

from .. import i18n
from ..actions import Action, ActionKind
from ..bots import bot_label
from ..cards import Card
from ..hand import Role, SeatView
from ..i18n import _, is_rtl, ngettext
from ..match import SitterView
from ..rules import PRESETS, preset_names
from ..views.cards import STYLE, back_html, card_html
from ..views.html import (
    match_html,
    result_html,
    roles_html,
    sitter_view_html,
    view_html,
)
from .assets import PAGE_STYLE, SCRIPT
from .languages import LANGUAGE_NAMES, language, pick_language
from .tables import BOT_KINDS, Table


def _labels() -> dict[str, str]:
    """The pages' short texts in the language in use (here, so that each is written
    once, as a plain message for the catalogs)."""
    return {
        "Language": _("Language"),
        "Knock": _("Knock"),
        "Score sheet": _("Score sheet"),
        "Place {n}": _("Place {n}"),
        "Discard pile:": _("Discard pile:"),
        "Table code": _("Table code"),
        "Join": _("Join"),
        "This table is full.": _("This table is full."),
        "Your name": _("Your name"),
        "Your place": _("Your place"),
        "Sit down": _("Sit down"),
        "bot": _("bot"),
        "Watch": _("Watch"),
        "Projector": _("Projector"),
        "Match record": _("Match record"),
        "Target": _("Target"),
        "No tables yet: create one above.": _("No tables yet: create one above."),
        "Rules": _("Rules"),
        "Bots for empty places": _("Bots for empty places"),
        "Bots": _("Bots"),
        "Seed": _("Seed"),
        "random": _("random"),
        "Tables": _("Tables"),
        "Create tables": _("Create tables"),
        "Hand {n}: the result": _("Hand {n}: the result"),
        "Replay a hand": _("Replay a hand"),
        "All tables": _("All tables"),
        "Previous": _("Previous"),
        "Next": _("Next"),
        "Back to the table": _("Back to the table"),
        "Join a table": _("Join a table"),
        "The table": _("The table"),
        "The last hand": _("The last hand"),
        "This table is closed.": _("This table is closed."),
        "Next hand": _("Next hand"),
    }


_LABEL_CACHE: dict[str, dict[str, str]] = {}


def lab(text: str) -> str:
    """The short text ``text`` of :func:`_labels` in the language in use."""
    lang = i18n.get_language()
    if lang not in _LABEL_CACHE:
        _LABEL_CACHE[lang] = _labels()
    return _LABEL_CACHE[lang][text]


def esc(text: object) -> str:
    return html.escape(str(text))


def page(title: str, body: str, lang: str, *, ws: str = "", seq: int = 0,
         here: str = "", seat: bool = False) -> str:
    """A whole page: ``body`` in ``<main id="bg-page">``, the language links at its foot
    (first the table, on a phone's small screen), and the script when the page has a
    websocket (``ws``, its path); ``seat``: a seat's page, whose focus the script keeps
    on the next move, and which says so when the teacher gives its place to someone else
    (another browser, or a bot)."""
    direction = "rtl" if is_rtl(lang) else "ltr"
    gone = _("The teacher gave this place to someone else: reload the page to see where "
             "you can sit.") if seat else ""
    marks = f' data-seat="1" data-gone="{esc(gone)}"' if seat else ""
    links = " ".join(
        f'<a href="{esc(here)}?lang={code}" lang="{code}" hreflang="{code}"'
        f'{" aria-current=page" if code == lang else ""}>{esc(name)}</a>'
        for code, name in LANGUAGE_NAMES.items())
    return (f'<!doctype html><html lang="{lang}" dir="{direction}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{esc(title)}</title>{STYLE}{PAGE_STYLE}</head><body>"
            f'<main id="bg-page" data-ws="{esc(ws)}" data-seq="{seq}"'
            f"{marks}>"
            f'<header class="bg-top"><h1>{esc(title)}</h1></header>{body}</main>'
            f'<footer class="bg-foot"><nav class="bg-langs" aria-label="{esc(lab("Language"))}">'
            f"{links}</nav></footer>{SCRIPT if ws else ''}</body></html>")


# -- the learner's table ---------------------------------------------------------------------

_FACES: dict[tuple[Card, str, str], str] = {}
_LABELS: dict[tuple[str, str], str] = {}


def face(card: Card, extra: str = "") -> str:
    """The kit's card face (:func:`~box_gin.views.cards.card_html`), kept once made: a
    class's pages show the same 52 faces many times a second."""
    key = (card, extra, i18n.get_language())
    made = _FACES.get(key)
    if made is None:
        made = _FACES[key] = card_html(card, extra_class=extra)
    return made


def action_label(text: str) -> str:
    """An action's words in the language in use (kept once made)."""
    key = (text, i18n.get_language())
    made = _LABELS.get(key)
    if made is None:
        if len(_LABELS) > 20_000:
            _LABELS.clear()
        made = _LABELS[key] = Action.parse(text).label
    return made


def _button(kind: str, action: Action, content: str, extra: str = "") -> str:
    return (f'<button class="bg-act{extra}" data-kind="{kind}" data-action="{esc(action)}">'
            f"{content}</button>")


def _action_buttons(actions: tuple[Action, ...], kind: str) -> str:
    """One button per action that is not a discard (the cards themselves discard)."""
    labels = {ActionKind.TAKE: _("Take the upcard"), ActionKind.PASS: _("Pass"),
              ActionKind.DRAW_STOCK: _("Draw from stock"),
              ActionKind.DRAW_DISCARD: _("Draw the discard"), ActionKind.BIG_GIN: _("Big gin")}
    parts = []
    for action in actions:
        if action.kind in labels:
            parts.append(_button(kind, action, esc(labels[action.kind])))
        elif action.kind is ActionKind.KNOCK and action.card is not None:
            parts.append(_button(kind, action, f"{esc(lab('Knock'))} {face(action.card)}"))
    return f'<div class="bg-actions">{"".join(parts)}</div>' if parts else ""


def _seat_cards(view: SeatView, kind: str, drawn: object) -> str:
    """The seat's cards (the sitter: the captain's), each a discard button when the seat
    is to discard; the card just drawn marked ``bg-drawn``."""
    discards = {a.card: a for a in view.legal_actions if a.kind is ActionKind.DISCARD}
    parts = []
    for card in view.hand:
        marks = " ".join(m for m in (
            "bg-drawn" if card == drawn else "",
            "bg-dim" if card == view.taken_card and card not in discards else "") if m)
        shown = face(card, marks)
        action = discards.get(card)
        parts.append(_button(kind, action, shown, " bg-card-act") if action else shown)
    return f'<div class="bg-cards bg-my-hand">{"".join(parts)}</div>'


_PAST: dict[tuple[int, int, int, str], str] = {}


def past_hand(table: Table) -> str:
    """The last finished hand's result and the score sheet: public, the same for every
    seat, so rendered once per hand and language."""
    match = table.match
    if match is None or not match.history:
        return ""
    key = (table.id, id(match), len(match.history), i18n.get_language())
    if key not in _PAST:
        if len(_PAST) > 1000:
            _PAST.clear()
        record = match.history[-1]
        title = _("Hand {n}: the result").format(n=record.number)
        mine = _("Review your decisions in this hand")
        _PAST[key] = (
            f"<h2>{esc(title)}</h2>{result_html(record.result, record.roles, table.rules)}"
            f'<p><a href="/t/{table.code}/review/{record.number}">{esc(mine)}</a></p>'
            f"<h2>{esc(lab('Score sheet'))}</h2>{match_html(match)}")
    return _PAST[key]


def shown_name(table: Table, name: str | None) -> str:
    """A player's name as the pages show it: a bot's marked as a bot."""
    if not name:
        return "–"
    bots = {table.names[i] for i in table.bot_places}
    return f"{name} ({lab('bot')})" if name in bots else name


#: The last hand's end stays at the top of every seat's page until the new hand has had
#: this many moves (its upcard offer, at least, is played under it).
ENDED_FOR = 3


def hand_ended(table: Table, moves: int | None) -> str:
    """The last hand's end, for the top of a seat's page: who was where, what it scored
    and the scores now, with a link to the whole result below; "" when no hand has ended
    or the new hand has had :data:`ENDED_FOR` moves (``moves``; None: the match is over)."""
    match = table.match
    if match is None or not match.history or (moves is not None and moves >= ENDED_FOR):
        return ""
    record = match.history[-1]
    title = _("Hand {n} is over.").format(n=record.number)
    scores = " · ".join(f"{shown_name(table, n)} {match.scores.get(n, 0)}"
                        for n in table.names if n)
    said = _("Scores: {scores}").format(scores=scores)
    more = _("The hand's result and the score sheet")
    return (f'<section class="bg-ended" aria-labelledby="bg-ended-title">'
            f'<h2 id="bg-ended-title">{esc(title)}</h2>'
            f"{roles_html({r: shown_name(table, n) for r, n in record.roles.items()})}"
            f'<div class="bg-readout"><b>{esc(record.result.summary())}</b></div>'
            f'<div class="bg-readout">{esc(said)}</div>'
            f'<a href="#bg-past">{esc(more)}</a></section>')


def waiting_line(table: Table, place: int) -> str:
    """What a seat is told while the table waits between two hands."""
    names = ", ".join(table.name_of(p) for p in table.waiting_for())
    said = [_("Read the hand's result, then press Next hand.")
            if place in table.waiting_for() else _("You are ready."),
            _("Waiting for: {names}.").format(names=names),
            ngettext("The next hand starts when every player is ready, or at the latest "
                     "{n} second after the end of the hand.",
                     "The next hand starts when every player is ready, or at the latest "
                     "{n} seconds after the end of the hand.", table.wait).format(
                n=table.wait) if table.wait else
            _("The next hand starts when every player is ready.")]
    return " ".join(said)


def seat_parts(table: Table, place: int) -> dict[str, str]:
    """The learner's page, by part id, built from the seat's own view only: the table
    (``bg-live``), the last hand's result (``bg-past``) and one line for screen readers,
    the table's news (``bg-news``, a polite live region)."""
    name = table.names[place] or ""
    match = table.match
    if match is None:
        taken = sum(n is not None for n in table.names)
        rows = "".join(
            f"<li>{esc(lab('Place {n}').format(n=i + 1))}: {esc(shown_name(table, n))}</li>"
            for i, n in enumerate(table.names))
        text = ngettext("Waiting for players: {n} place of 3 is taken.",
                        "Waiting for players: {n} places of 3 are taken.", taken).format(n=taken)
        live = (f'<div class="bg-felt"><div class="bg-readout bg-status">{esc(text)}</div>'
                f"<ul>{rows}</ul></div>")
        return {"bg-live": live, "bg-past": "", "bg-news": esc(text)}
    past = past_hand(table)
    if table.closed is not None or table.pause is not None:
        text = (lab("This table is closed.") if table.closed is not None
                else waiting_line(table, place))
        ready = (f'<button class="bg-act" data-kind="ready" data-action="ready">'
                 f'{esc(lab("Next hand"))}</button>' if place in table.waiting_for()
                 and table.closed is None else "")
        return {"bg-live": f'<div class="bg-felt">{hand_ended(table, None)}'
                           f'<div class="bg-readout bg-status">{esc(text)}</div>{ready}'
                           '<div class="bg-error" id="bg-error" role="alert"></div></div>',
                "bg-past": past, "bg-news": esc(text)}
    if match.is_over:
        text = _("Game over. Winner: {name}.").format(name=shown_name(table, match.winner))
        return {"bg-live": f'<div class="bg-felt">{hand_ended(table, None)}'
                           f'<div class="bg-readout bg-status">{esc(text)}</div></div>',
                "bg-past": past, "bg-news": esc(text)}
    seen = match.view(name)
    role = seen.role
    view = seen.captain if isinstance(seen, SitterView) else seen
    seat = view.role
    n = len(match.history) + 1
    to_play = shown_name(table, match.to_play)
    discards = any(a.kind is ActionKind.DISCARD for a in view.legal_actions)
    if isinstance(seen, SitterView):
        kind = "advise"
        status = (_("Hand {n}: the captain, {name}, is to play — {phase}. Your advice?")
                  .format(n=n, name=to_play, phase=view.phase.label) if seen.advising else
                  _("Hand {n}. To play: {name}.").format(n=n, name=to_play))
        label = _("You are the sitter and hold no cards. The captain's cards, which you "
                  "watch and advise on ({name}):").format(
            name=shown_name(table, match.roles[Role.CAPTAIN]))
        actions = view.legal_actions                  # the captain's, when it is to play
    else:
        kind = "act"
        status = (_("Hand {n}: your turn, {role} — {phase}.").format(
            n=n, role=role.label, phase=view.phase.label) if view.my_turn
            else _("Hand {n}. To play: {name}.").format(n=n, name=to_play))
        label = _("Your cards ({role}):").format(role=role.label)
        actions = view.legal_actions
    opponent = match.roles[seat.opponent]  # marked a bot in the roles' line above
    known = ('<span class="bg-cards">' + "".join(face(c) for c in view.opponent_known)
             + "</span>") if view.opponent_known else ""
    opponent_label = _("{name} ({role}):").format(name=opponent, role=seat.opponent.label)
    top = view.top_discard
    stock = ngettext("{n} card in the stock", "{n} cards in the stock",
                     view.stock_size).format(n=view.stock_size)
    drawn = table.drawn.get(seat) if view.to_play is seat else None
    parts = [
        hand_ended(table, len(view.history)),
        roles_html({r: shown_name(table, n) for r, n in match.roles.items()}, human=name),
        f'<div class="bg-readout bg-status">{esc(status)}</div>',
        f'<div class="bg-readout bg-opponent">{esc(opponent_label)} '
        f"{back_html(view.opponent_card_count - len(view.opponent_known))}{known}</div>",
        f'<div class="bg-readout bg-pile">{esc(lab("Discard pile:"))} '
        f'{face(top) if top else "–"} {back_html(1)} {esc(stock)}</div>',
        f'<div class="bg-readout bg-hand-label">{esc(label)}</div>',
        _seat_cards(view, kind, drawn),
    ]
    if kind == "advise" and actions:
        hint = (_("Your advice for the captain: click a card to discard, or a button.")
                if discards else _("Your advice for the captain: choose a button."))
        parts.append(f'<div class="bg-readout">{esc(hint)}</div>')
    parts.append(_action_buttons(actions, kind))
    if actions and (kind == "advise" or view.my_turn):
        keys = _("Keys: Tab goes to the next card or button, Shift+Tab back; Enter or "
                 "Space plays it.")
        parts.append(f'<p class="bg-readout bg-keys">{esc(keys)}</p>')
    advice = table.current_advice()
    said = ""
    if role is Role.CAPTAIN and advice is not None and view.my_turn:
        said = _("Advice from the sitter, {name}: {advice}").format(
            name=match.roles[Role.SITTER], advice=advice.label)
    elif role is Role.SITTER and advice is not None:
        said = _("Your advice: {action}").format(action=advice.label)
    if said:
        parts.append(f'<div class="bg-advice">{esc(said)}</div>')
    log = [_("{name} ({role}): {action}").format(
        name=match.roles[r], role=r.label, action=action_label(t))
        for r, t in view.history[-6:]]
    parts.append("".join(f'<div class="bg-readout bg-log">{esc(line)}</div>' for line in log))
    parts.append('<div class="bg-error" id="bg-error" role="alert"></div>')
    if len(view.history) < ENDED_FOR and match.history:
        news = [_("Hand {n} is over.").format(n=match.history[-1].number),
                match.history[-1].result.summary(), *log[-1:], status, said]
    else:
        news = [*log[-1:], status, said]
    return {"bg-live": '<div class="bg-felt">' + "".join(parts) + "</div>", "bg-past": past,
            "bg-news": esc(" ".join(x for x in news if x))}


def seat_page(table: Table, place: int, lang: str) -> str:
    parts = seat_parts(table, place)
    title = _("Box gin · table {code} · {name}").format(code=table.code,
                                                       name=table.names[place])
    body = (f'<div id="bg-news" class="bg-sr" role="status" aria-live="polite">'
            f'{parts["bg-news"]}</div>'
            f'<section id="bg-live" aria-label="{esc(lab("The table"))}">{parts["bg-live"]}'
            f'</section><section id="bg-past" class="bg-past" tabindex="-1" '
            f'aria-label="{esc(lab("The last hand"))}">{parts["bg-past"]}</section>')
    return page(title, body, lang, ws=f"/ws/{table.code}", seq=table.seq,
                here=f"/t/{table.code}", seat=True)


# -- joining ---------------------------------------------------------------------------------

def home_page(lang: str, error: str = "") -> str:
    form = (f'<form class="bg-form" method="get" action="/join">'
            f'<label>{esc(lab("Table code"))} <input name="code" required maxlength="8" '
            f'autocapitalize="characters" autocomplete="off" dir="ltr"></label>'
            f'<button class="bg-act" type="submit">{esc(lab("Join"))}</button></form>')
    err = f'<p class="bg-error">{esc(error)}</p>' if error else ""
    return page(_("Box gin: join a table"), err + form, lang, here="/")


def join_page(table: Table, lang: str, error: str = "") -> str:
    places = []
    for i, name in enumerate(table.names):
        label = _("Place {n}").format(n=i + 1)
        if name is None:
            places.append(f'<label><input type="radio" name="place" value="{i}" required> '
                          f"{esc(label)}</label>")
        else:
            places.append(f'<label><input type="radio" disabled> {esc(label)}: '
                          f"{esc(name)}</label>")
    full = all(n is not None for n in table.names)
    if table.closed is not None:
        error = error or lab("This table is closed.")
        full = True
    lost = _("Lost your place (another device, a closed window)? Ask the teacher: they "
             "can give you a link back to it.")
    body = (f'<p class="bg-error">{esc(error)}</p>' if error else "") + (
        f"<p>{esc(lab('This table is full.'))}</p><p>{esc(lost)}</p>" if full else
        f'<form class="bg-form" method="post" action="/join/{table.code}">'
        f'<label>{esc(lab("Your name"))} <input name="name" required maxlength="24" '
        f'autocomplete="nickname"></label><fieldset><legend>{esc(lab("Your place"))}</legend>'
        + "".join(places) + "</fieldset>"
        f'<button class="bg-act" type="submit">{esc(lab("Sit down"))}</button></form>')
    title = _("Box gin · table {code}").format(code=table.code)
    return page(title, body, lang, here=f"/join/{table.code}")


# -- the teacher's pages ---------------------------------------------------------------------

def state_line(table: Table) -> str:
    match = table.match
    if table.closed is not None:
        return lab("This table is closed.")
    if match is None:
        taken = sum(n is not None for n in table.names)
        return ngettext("Waiting for players: {n} place of 3 is taken.",
                        "Waiting for players: {n} places of 3 are taken.", taken).format(n=taken)
    if match.is_over:
        return _("Game over. Winner: {name}.").format(name=match.winner)
    if table.pause is not None:
        names = ", ".join(table.name_of(p) for p in table.waiting_for())
        return " ".join((_("Hand {n} is over.").format(n=table.pause.hand),
                         _("Waiting for: {names}.").format(names=names)))
    return _("Hand {n}. To play: {name}.").format(n=len(match.history) + 1,
                                                 name=match.to_play or "–")


def seats_html(table: Table, controls: Callable[[Table, int], str] | None = None) -> str:
    """The places, their players, roles and scores; ``controls``: the teacher's forms for
    each place, in a column of their own (:mod:`.seats`)."""
    match = table.match
    rows = []
    for i, name in enumerate(table.names):
        role = table.role_of(i)
        score = match.scores.get(name, 0) if match is not None and name else ""
        bot = f" ({lab('bot')})" if i in table.bot_places else ""
        rows.append(f"<tr><td>{i + 1}</td><td>{esc((name or '–') + bot)}</td>"
                    f"<td>{esc(role.label if role else '')}</td><td>{score}</td>"
                    + (f"<td>{controls(table, i)}</td>" if controls else "") + "</tr>")
    titles = [_("Place"), _("Name"), _("Role"), _("Score")]
    if controls:
        titles.append(_("Controls"))
    head = "".join(f"<th>{esc(t)}</th>" for t in titles)
    return (f'<div class="bg-wide"><table class="bg-seats"><tr>{head}</tr>{"".join(rows)}'
            "</table></div>")


@functools.lru_cache(maxsize=256)
def qr_svg(url: str, scale: int = 4) -> str:
    """The QR code of ``url`` as inline SVG (segno), with a viewBox and no fixed size, so
    that it fills the box the page gives it (on the projector, most of the screen)."""
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=scale, dark="#111",
                                                     light="#fff", omitsize=True))


def overview_parts(tables: Mapping[str, Table], base_url: str) -> dict[str, str]:
    """The teacher's overview: every table's code, QR code, seats, scores and state."""
    cards = []
    for table in tables.values():
        url = f"{base_url}join/{table.code}"
        names = preset_names()
        links = " · ".join((
            f'<a href="/teacher/t/{table.code}">{esc(lab("Watch"))}</a>',
            f'<a href="/teacher/t/{table.code}/projector">{esc(lab("Projector"))}</a>',
            f'<a href="/teacher/t/{table.code}/record.json" download>'
            f'{esc(lab("Match record"))}</a>' if table.match is not None else ""))
        cards.append(
            f'<div class="bg-table-card" data-code="{table.code}">'
            f'<div class="bg-code">{table.code}</div>'
            f'<div class="bg-readout">{esc(names.get(table.preset, table.preset))} · '
            f'{esc(lab("Target"))} {table.target}</div>'
            + ("" if table.closed is not None else
               f'<div class="bg-qr">{qr_svg(url)}</div><div dir="ltr">{esc(url)}</div>') +
            f'<div class="bg-readout bg-state">{esc(state_line(table))}</div>'
            f"{seats_html(table)}<div>{links}</div></div>")
    if not cards:
        cards.append(f"<p>{esc(lab('No tables yet: create one above.'))}</p>")
    return {"bg-live": '<div class="bg-tables">' + "".join(cards) + "</div>"}


def create_form(error: str = "") -> str:
    names = preset_names()
    presets = "".join(f'<option value="{k}">{esc(names.get(k, k))}</option>' for k in PRESETS)
    bots = "".join(f'<option value="{n}">{n}</option>' for n in range(3))
    kind_options = "".join(f'<option value="{k}">{esc(bot_label(k))}</option>'
                           for k in BOT_KINDS)
    err = f'<p class="bg-error">{esc(error)}</p>' if error else ""
    return (f'{err}<form class="bg-form" method="post" action="/teacher/tables">'
            f'<label>{esc(lab("Rules"))} <select name="preset">{presets}</select></label>'
            f'<label>{esc(lab("Target"))} <input name="target" type="number" min="1" '
            f'max="10000" value="100"></label>'
            f'<label>{esc(lab("Bots for empty places"))} <select name="bots">{bots}</select>'
            f'</label><label>{esc(lab("Bots"))} <select name="bot_kind">{kind_options}'
            f'</select></label><label>{esc(lab("Seed"))} <input name="seed" type="number" '
            f'min="0" placeholder="{esc(lab("random"))}"></label>'
            f'<label>{esc(lab("Tables"))} <input name="count" type="number" min="1" max="30" '
            f'value="1"></label>'
            f'<button class="bg-act" type="submit">{esc(lab("Create tables"))}</button></form>')


def teacher_page(tables: Mapping[str, Table], base_url: str, lang: str,
                 error: str = "", room_form: str = "") -> str:
    parts = overview_parts(tables, base_url)
    body = (create_form(error) + room_form
            + f'<section id="bg-live">{parts["bg-live"]}</section>')
    return page(_("Box gin: the teacher's page"), body, lang, ws="/ws/teacher",
                here="/teacher")


def projector_page(table: Table, base_url: str, lang: str) -> str:
    url = f"{base_url}join/{table.code}"
    body = (f'<div class="bg-projector"><div class="bg-big-code">{table.code}</div>'
            f'<div class="bg-qr">{qr_svg(url, 10)}</div>'
            f'<p class="bg-readout" dir="ltr">{esc(url)}</p></div>')
    return page(_("Box gin · table {code}").format(code=table.code), body, lang,
                here=f"/teacher/t/{table.code}/projector")


def replay_page(table: Table, number: int, step: int, lang: str) -> str:
    """Hand ``number`` after ``step`` actions, as each seat saw it (the teacher's)."""
    match = table.match
    assert match is not None
    record = match.history[number - 1]
    total = len(record.actions)
    step = max(0, min(step, total))
    hand = table.replay_hand(number, step)
    roles = record.roles
    if step == 0:
        what = _("The deal.")
    else:
        who = hand.history[step - 1][0]
        what = _("{name} ({role}): {action}").format(
            name=roles[who], role=who.label, action=hand.history[step - 1][1].label)
    here = f"/teacher/t/{table.code}/hand/{number}"
    nav = " · ".join(x for x in (
        f'<a href="{here}?step={step - 1}" rel="prev">{esc(lab("Previous"))}</a>'
        if step > 0 else "",
        esc(_("Step {step} of {total}").format(step=step, total=total)),
        f'<a href="{here}?step={step + 1}" rel="next">{esc(lab("Next"))}</a>'
        if step < total else "") if x)
    seats = []
    for role in (Role.BOX, Role.CAPTAIN, Role.SITTER):
        title = _("{role}: {name}").format(role=role.label.capitalize(), name=roles[role])
        shown = sitter_view_html(SitterView(hand.view(Role.CAPTAIN))) \
            if role is Role.SITTER else view_html(hand.view(role))
        seats.append(f"<div><h3>{esc(title)}</h3>{shown}</div>")
    end = result_html(record.result, roles, table.rules) if step == total else ""
    review = (f"/teacher/t/{table.code}/review/{number}"
              + (f"#g1-h{number}-s{step - 1}" if step else ""))
    every = _("Every seat's decisions")
    body = (f'<p><a href="/teacher/t/{table.code}">{esc(lab("Back to the table"))}</a> · '
            f'<a href="{review}">{esc(every)}</a></p>'
            f'<p class="bg-readout">{nav}</p><p class="bg-readout bg-step">{esc(what)}</p>'
            f'<div class="bg-replay">{"".join(seats)}</div>{end}')
    title = _("Table {code}, hand {n}").format(code=table.code, n=number)
    return page(title, body, lang, here=here)


def message_page(title: str, text: str, lang: str) -> str:
    return page(title, f'<p class="bg-error">{esc(text)}</p><p><a href="/">'
                       f'{esc(lab("Join a table"))}</a></p>', lang)


__all__ = ["LANGUAGE_NAMES", "home_page", "join_page", "language", "overview_parts",
           "pick_language", "projector_page", "replay_page", "seat_page", "seat_parts",
           "seats_html", "state_line", "teacher_page"]
