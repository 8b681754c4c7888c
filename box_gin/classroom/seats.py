"""The teacher's hold on the learners' places, and the teacher's controls of a table.

A learner is their place's secret token (a cookie).  One who lost it (another device,
a closed private window) is given their place back by the teacher: *Free* gives the
place a new token (kept in the store, so it holds across a restart), which closes the
old browser out, and the teacher's page shows a one-time link (and its QR code) to the
place; that page can be reloaded: it shows the same link until the link is opened.
Opening the link sets the new browser's cookie to yet another token, so that the link
opens the place once.  The place keeps its player's name and cards: the match knows its
players by name.

The watch page's controls (each a form posted from the teacher's own page, refused
otherwise: :meth:`.server.Classroom.refused`): move a learner to a free place, of this
table or another (their token goes with them, and their page follows: its socket is
closed with :data:`MOVED` and the page reloads to the new table); put a bot in a free
place, in a learner's or in another bot's; the wait before a next hand (the table's, or
the room's on the overview); close the table.
"""

from __future__ import annotations

import contextlib
import inspect
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from ..bots import bot_label
from ..errors import BoxGinError
from ..i18n import _, ngettext
from ..views.html import hand_html, match_html, roles_html
from .pages import (
    esc,
    lab,
    language,
    message_page,
    page,
    projector_page,
    qr_svg,
    replay_page,
    seats_html,
    state_line,
    teacher_page,
)
from .tables import BOT_KINDS, LONGEST_WAIT, Room, SeatError, Table

if TYPE_CHECKING:
    from .server import Classroom


#: A seat's cookie lasts a year (a class's term, and more).
YEAR = 365 * 24 * 3600
#: The close code of a moved learner's socket: their page reloads, to their new place.
MOVED = 4301
#: The waits the forms offer (seconds; 0: until every player is ready).
WAITS = (0, 15, 30, 60, 120, 300)


def seat_cookie(code: str) -> str:
    """The cookie holding a seat's secret token at table ``code``."""
    return f"bg_seat_{code}"


def reissue(table: Table, place: int, link: bool = False) -> str:
    """Give the learner's ``place`` at ``table`` a new secret token, and return it; the
    old token opens nothing from now on (``link``: the token is a one-time link the
    teacher holds).  A place with no learner (free, or a bot's) is refused
    (:class:`SeatError`)."""
    if place not in (0, 1, 2) or table.names[place] is None or place in table.bot_places:
        raise SeatError(_("place {place} has no learner to free").format(place=place + 1))
    token = secrets.token_urlsafe(24)
    table.store.new_token(table.id, place, token, link)
    for old in [t for t, p in table.tokens.items() if p == place]:
        del table.tokens[old]
    table.tokens[token] = place
    if link:
        table.links.add(place)
    else:
        table.links.discard(place)
    return token


def retake_page(table: Table, place: int, url: str, lang: str) -> str:
    """The page the teacher gets on freeing a place: the one-time link back to it (or,
    once the link was opened, that it was)."""
    name = table.names[place] or ""
    back = f'<p><a href="/teacher/t/{table.code}">{esc(lab("Back to the table"))}</a></p>'
    if not url:
        said = _("The link to place {n} was opened: the place is taken again. Free it "
                 "again for a new link.").format(n=place + 1)
        body = f'{back}<p class="bg-readout">{esc(said)}</p>'
    else:
        said = _("Place {n} is free for {name}: the browser that had it is closed out. "
                 "Give this link (or its QR code) to {name}; it opens the place once."
                 ).format(n=place + 1, name=name)
        body = (f'{back}<p class="bg-readout">{esc(said)}</p>'
                f'<p class="bg-url bg-retake" dir="ltr"><a href="{esc(url)}">{esc(url)}'
                f'</a></p><div class="bg-qr">{qr_svg(url)}</div>')
    return page(_("Box gin · table {code}").format(code=table.code), body, lang,
                here=f"/teacher/t/{table.code}")


# -- the watch page and its controls ---------------------------------------------------------

def watch_parts(table: Table) -> dict[str, str]:
    """A table as the teacher sees it: every card face up, the score sheet, the hands."""
    match = table.match
    parts = [f'<div class="bg-readout bg-state">{esc(state_line(table))}</div>',
             seats_html(table)]
    if match is not None:
        parts.append(roles_html(match.roles))
        if not match.is_over and table.pause is None:
            parts.append(hand_html(match.hand))
        parts.append(f"<h2>{esc(lab('Score sheet'))}</h2>{match_html(match)}")
        every = esc(_("Every seat's decisions"))
        links = "".join(
            f'<li><a href="/teacher/t/{table.code}/hand/{r.number}">'
            f"{esc(lab('Hand {n}: the result').format(n=r.number))}</a>: "
            f"{esc(r.result.summary())} · <a href=\"/teacher/t/{table.code}/review/"
            f'{r.number}">{every}</a></li>' for r in match.history)
        if links:
            parts.append(f"<h2>{esc(lab('Replay a hand'))}</h2><ul>{links}</ul>")
    return {"bg-live": "".join(parts)}


def _form(action: str, fields: str, button: str, label: str = "") -> str:
    named = f' aria-label="{esc(label)}" title="{esc(label)}"' if label else ""
    return (f'<form class="bg-control" method="post" action="{esc(action)}">{fields}'
            f'<button class="bg-act" type="submit"{named}>{esc(button)}</button></form>')


def _select(name: str, label: str, options: list[tuple[str, str]], chosen: str = "") -> str:
    shown = "".join(f'<option value="{esc(v)}"{" selected" if v == chosen else ""}>'
                    f"{esc(t)}</option>" for v, t in options)
    return f'<label>{esc(label)} <select name="{name}">{shown}</select></label>'


def wait_text(wait: int) -> str:
    """A wait before a next hand, in words."""
    if not wait:
        return _("Until every player is ready")
    return ngettext("At most {n} second", "At most {n} seconds", wait).format(n=wait)


def wait_form(action: str, chosen: int | None, room: bool) -> str:
    """The form that sets the wait before a next hand (a table's: or the room's)."""
    options = [] if room else [("", _("As the whole room"))]
    options += [(str(w), wait_text(w)) for w in WAITS]
    fields = _select("delay", _("Wait before the next hand"), options,
                     "" if chosen is None else str(chosen))
    return _form(action, fields, _("Save"))


def place_controls(room: Room, table: Table, place: int) -> str:
    """The teacher's forms for one place: free it for another browser and move its
    learner (a learner's), put a bot in it (any place)."""
    name = table.names[place]
    base = f"/teacher/t/{table.code}"
    kinds = [(k, bot_label(k)) for k in BOT_KINDS]
    forms = []
    if name is not None and place not in table.bot_places:
        label = _("Free place {n} ({name}) for another browser").format(n=place + 1,
                                                                      name=name)
        forms.append(_form(f"{base}/free/{place}", "", _("Free"), label))
        to = [(f"{t.code}:{p}", _("Table {code}, place {n}").format(code=t.code, n=p + 1))
              for t in room.tables.values() if t.closed is None
              for p in range(3) if t.names[p] is None]
        if to:
            forms.append(_form(f"{base}/move/{place}", _select(
                "to", _("Move place {n} to").format(n=place + 1), to), _("Move")))
    if table.match is None or name is not None:
        forms.append(_form(f"{base}/bot/{place}", _select(
            "kind", _("Bot for place {n}").format(n=place + 1), kinds,
            table.bot_kinds.get(place, table.bot_kind)), _("Put a bot here")))
    title = f"{lab('Place {n}').format(n=place + 1)}: {name or '–'}"
    return (f'<div class="bg-place-controls"><h3>{esc(title)}</h3>{"".join(forms)}'
            "</div>")


def controls_html(room: Room, table: Table) -> str:
    """The watch page's controls (outside its live part: a frame never resets a form the
    teacher is filling in)."""
    if table.closed is not None:
        return ""
    base = f"/teacher/t/{table.code}"
    places = "".join(place_controls(room, table, p) for p in range(3))
    title, close = _("Controls"), _form(f"{base}/close", "", _("Close the table"))
    return (f'<section class="bg-controls" aria-labelledby="bg-controls-title">'
            f'<h2 id="bg-controls-title">{esc(title)}</h2>{places}'
            f"{wait_form(f'{base}/wait', table.delay, room=False)}{close}</section>")


def watch_page(room: Room, table: Table, lang: str, error: str = "") -> str:
    parts = watch_parts(table)
    title = _("Box gin · table {code}").format(code=table.code)
    err = f'<p class="bg-error" role="alert">{esc(error)}</p>' if error else ""
    body = (f'<p><a href="/teacher">{esc(lab("All tables"))}</a></p>{err}'
            f'<section id="bg-live">{parts["bg-live"]}</section>'
            + controls_html(room, table))
    return page(title, body, lang, ws=f"/ws/teacher?table={table.code}",
                here=f"/teacher/t/{table.code}")


# -- the routes (registered by the server, :meth:`.server.Classroom.app`) ----------------

#: A page of one of the teacher's tables, made at once or awaited (a review).
Render = Callable[["Classroom", Request, Table, str], Response | Awaitable[Response]]


def teacher_get(render: Render) -> Callable[[Classroom, Request], Awaitable[Response]]:
    """A page of one of the teacher's tables: refused to anyone but the teacher, else
    ``render(classroom, request, table, lang)`` in the teacher's language."""
    async def route(classroom: Classroom, request: Request) -> Response:
        table = classroom._teacher_table(request)
        if isinstance(table, Response):
            return table
        lang = classroom.lang(request, teacher=True)
        with language(lang):
            made = render(classroom, request, table, lang)
            return await made if inspect.isawaitable(made) else made
    return route


async def close_seats(classroom: Classroom, table: Table, place: int,
                      code: int = 4403) -> None:
    """Close the sockets of ``place`` at ``table`` (4403: the place is no longer theirs;
    :data:`MOVED`: it moved, and the page follows)."""
    for conn in [c for c in classroom.hub.seats.get(table.code, ()) if c.place == place]:
        classroom.hub.drop(conn)
        if conn.outbox is not None:
            conn.outbox.close()
        with contextlib.suppress(Exception):
            await conn.ws.close(code=code)


async def free(classroom: Classroom, request: Request) -> Response:
    """The teacher frees a learner's place for another browser: the browser that had it
    is closed out; the answer leads to the page of the one-time link back to it."""
    table = classroom.refused(request) or classroom._teacher_table(request)
    if isinstance(table, Response):
        return table
    with language(classroom.lang(request, teacher=True)):
        try:
            place = int(request.path_params["place"])
            reissue(table, place, link=True)
        except (ValueError, BoxGinError) as err:
            return PlainTextResponse(str(err), status_code=404)
    await close_seats(classroom, table, place)
    await classroom.changed(table)
    return RedirectResponse(f"/teacher/t/{table.code}/freed/{place}", status_code=303)


@teacher_get
def freed(classroom: Classroom, request: Request, table: Table, lang: str) -> Response:
    """The one-time link to a freed place, as long as no browser opened it: the page can
    be reloaded, and changes nothing."""
    try:
        place = int(request.path_params["place"])
        if place not in (0, 1, 2):
            raise ValueError(place)
    except ValueError:
        return PlainTextResponse(_("a table has places 1, 2 and 3, not {place}").format(
            place=request.path_params["place"]), status_code=404)
    token = next((t for t, p in table.tokens.items() if p == place), None)
    url = (f"{classroom.base_url(request)}retake/{table.code}/{token}"
           if token is not None and place in table.links else "")
    return classroom.html(request, retake_page(table, place, url, lang), lang, teacher=True)


#: A control: it changes the tables (or refuses, changing nothing) and says which tables
#: changed, with the place whose sockets to close (None: none) and their close code.
Control = Callable[[Table, dict[str, str]], list[tuple[Table, int | None, int]]]


async def control(classroom: Classroom, request: Request, do: Control) -> Response:
    """A control of the watch page: ``do`` changes the table (or refuses, changing
    nothing) and says which places' sockets to close, with which code."""
    table = classroom._teacher_table(request)
    if isinstance(table, Response):
        return table
    posted = await classroom.teacher_form(request)
    if isinstance(posted, Response):
        return posted
    form, lang = posted
    with language(lang):
        try:
            closing = do(table, form)
        except (ValueError, BoxGinError) as err:
            message = str(err) if isinstance(err, BoxGinError) else _("choose a free place")
            body = watch_page(classroom.room, table, lang, message)
            return classroom.html(request, body, lang, teacher=True, status=400)
    for at, place, code in closing:
        if place is not None:
            await close_seats(classroom, at, place, code)
    for changed in {id(t): t for t in (table, *(c[0] for c in closing))}.values():
        await classroom.changed(changed)
    return RedirectResponse(f"/teacher/t/{table.code}", status_code=303)


def _place(request: Request) -> int:
    place = int(request.path_params["place"])
    if place not in (0, 1, 2):
        raise SeatError(_("a table has places 1, 2 and 3, not {place}").format(
            place=place + 1))
    return place


async def move(classroom: Classroom, request: Request) -> Response:
    """Move a learner to a free place (``to``: ``CODE:PLACE``), at this table or another."""
    def do(table: Table, form: dict[str, str]) -> list[tuple[Table, int | None, int]]:
        code, _sep, place = form.get("to", "").partition(":")
        to = classroom.table_of(code)
        at = _place(request)
        classroom.room.move(table, at, to, int(place))
        return [(table, at, MOVED), (to, None, 0)]
    return await control(classroom, request, do)


async def bot(classroom: Classroom, request: Request) -> Response:
    """Put a bot (``kind``) in a place: free, a learner's, or another bot's."""
    def do(table: Table, form: dict[str, str]) -> list[tuple[Table, int | None, int]]:
        place = _place(request)
        table.put_bot(place, form.get("kind", ""))
        return [(table, place, 4403)]
    return await control(classroom, request, do)


async def close(classroom: Classroom, request: Request) -> Response:
    """Close a table: no one joins it or plays at it any more; its record stays."""
    def do(table: Table, form: dict[str, str]) -> list[tuple[Table, int | None, int]]:
        table.close()
        return []
    return await control(classroom, request, do)


def _delay(text: str) -> int | None:
    try:
        return int(text) if text.strip() else None
    except ValueError:
        raise SeatError(_("the wait before the next hand is 0 (until every player is "
                          "ready) to {most} seconds, not {n}").format(
            most=LONGEST_WAIT, n=text[:24])) from None


async def wait(classroom: Classroom, request: Request) -> Response:
    """A table's wait before a next hand (empty: the room's)."""
    def do(table: Table, form: dict[str, str]) -> list[tuple[Table, int | None, int]]:
        table.set_delay(_delay(form.get("delay", "")))
        return []
    return await control(classroom, request, do)


async def room_wait(classroom: Classroom, request: Request) -> Response:
    """The room's wait before a next hand (every table without its own)."""
    posted = await classroom.teacher_form(request)
    if isinstance(posted, Response):
        return posted
    form, lang = posted
    with language(lang):
        try:
            classroom.room.set_delay(_delay(form.get("delay", "")) or 0)
        except BoxGinError as err:
            return teacher_answer(classroom, request, lang, str(err))
    for table in classroom.room.tables.values():
        await classroom.changed(table)
    return RedirectResponse("/teacher", status_code=303)


@teacher_get
def watch(classroom: Classroom, request: Request, table: Table, lang: str) -> Response:
    """One table, every card face up, and the teacher's controls."""
    return classroom.html(request, watch_page(classroom.room, table, lang), lang,
                          teacher=True)


@teacher_get
def projector(classroom: Classroom, request: Request, table: Table, lang: str) -> Response:
    """The join code and its QR code, full screen."""
    body = projector_page(table, classroom.base_url(request), lang)
    return classroom.html(request, body, lang, teacher=True)


@teacher_get
def replay(classroom: Classroom, request: Request, table: Table, lang: str) -> Response:
    """A finished hand, step by step, as each seat saw it."""
    try:
        number = int(request.path_params["number"])
        step = int(request.query_params.get("step", "0"))
        table.replay_hand(number, 0)
    except (ValueError, BoxGinError) as err:
        return PlainTextResponse(str(err), status_code=404)
    return classroom.html(request, replay_page(table, number, step, lang), lang,
                          teacher=True)


async def record(classroom: Classroom, request: Request) -> Response:
    table = classroom._teacher_table(request)
    if isinstance(table, Response):
        return table
    try:
        text = table.record_json()
    except SeatError as err:
        return PlainTextResponse(str(err), status_code=404)
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="box-gin-{table.code}.json"',
        "Cache-Control": "no-store"})


def teacher_answer(classroom: Classroom, request: Request, lang: str,
                   error: str = "") -> Response:
    """The teacher's overview, with the room's wait (with ``error``, refused: 400)."""
    body = teacher_page(classroom.room.tables, classroom.base_url(request), lang, error,
                        wait_form("/teacher/wait", classroom.room.clock.delay, room=True))
    return classroom.html(request, body, lang, teacher=True, status=400 if error else 200)


def moved_to(classroom: Classroom, request: Request, code: str) -> Response | None:
    """A learner whose token was moved to another table: their page follows (the new
    table's cookie set, the page sent there)."""
    token = request.cookies.get(seat_cookie(code))
    found = classroom.room.find(token) if token else None
    if found is None or found[0].code == code:
        return None
    table = found[0]
    response = RedirectResponse(f"/t/{table.code}", status_code=303)
    response.set_cookie(seat_cookie(table.code), token or "", max_age=YEAR, httponly=True,
                        samesite="lax")
    return response


async def retake(classroom: Classroom, request: Request) -> Response:
    """A freed place's one-time link: this browser gets the place (a new token)."""
    lang = classroom.lang(request)
    with language(lang):
        try:
            table = classroom.table_of(request.path_params["code"])
            place = table.tokens.get(request.path_params["token"])
            if place is None:
                raise SeatError(_("This link has been used or replaced: ask the "
                                  "teacher for a new one."))
            token = reissue(table, place)
        except SeatError as err:
            return classroom.html(request, message_page(_("Box gin"), str(err), lang),
                             lang, status=404)
    response = RedirectResponse(f"/t/{table.code}", status_code=303)
    response.set_cookie(seat_cookie(table.code), token, max_age=YEAR, httponly=True,
                        samesite="lax")
    return response


__all__ = ["MOVED", "YEAR", "bot", "close", "free", "freed", "move", "moved_to", "reissue",
           "retake", "retake_page", "room_wait", "seat_cookie", "teacher_answer", "wait",
           "watch_page",
           "watch_parts"]
