"""The teacher's hold on the learners' places: a place freed for another browser.

A learner is their place's secret token (a cookie).  One who lost it (another device,
a closed private window) is given their place back by the teacher: *Free* gives the
place a new token (kept in the store, so it holds across a restart), which closes the
old browser out, and the teacher's page shows a one-time link (and its QR code) to the
place.  Opening the link sets the new browser's cookie to yet another token, so that
the link opens the place once.  The place keeps its player's name and cards: the match
knows its players by name.  To move a learner to another place, the teacher frees that
place and gives them its link.
"""

from __future__ import annotations

import contextlib
import secrets
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from ..errors import BoxGinError
from ..i18n import _
from .pages import esc, lab, language, message_page, page, qr_svg
from .tables import SeatError, Table

if TYPE_CHECKING:
    from .server import Classroom


#: A seat's cookie lasts a year (a class's term, and more).
YEAR = 365 * 24 * 3600


def seat_cookie(code: str) -> str:
    """The cookie holding a seat's secret token at table ``code``."""
    return f"bg_seat_{code}"


def reissue(table: Table, place: int) -> str:
    """Give the learner's ``place`` at ``table`` a new secret token, and return it; the
    old token opens nothing from now on.  A place with no learner (free, or a bot's) is
    refused (:class:`SeatError`)."""
    if place not in (0, 1, 2) or table.names[place] is None or place in table.bot_places:
        raise SeatError(_("place {place} has no learner to free").format(place=place + 1))
    token = secrets.token_urlsafe(24)
    table.store.new_token(table.id, place, token)
    for old in [t for t, p in table.tokens.items() if p == place]:
        del table.tokens[old]
    table.tokens[token] = place
    return token


def retake_page(table: Table, place: int, url: str, lang: str) -> str:
    """The page the teacher gets on freeing a place: the one-time link back to it."""
    name = table.names[place] or ""
    said = _("Place {n} is free for {name}: the browser that had it is closed out. Give "
             "this link (or its QR code) to {name}; it opens the place once.").format(
        n=place + 1, name=name)
    body = (f'<p><a href="/teacher/t/{table.code}">{esc(lab("Back to the table"))}</a></p>'
            f'<p class="bg-readout">{esc(said)}</p>'
            f'<p class="bg-url bg-retake" dir="ltr"><a href="{esc(url)}">{esc(url)}</a></p>'
            f'<div class="bg-qr">{qr_svg(url)}</div>')
    return page(_("Box gin · table {code}").format(code=table.code), body, lang,
                here=f"/teacher/t/{table.code}")


# -- the routes (registered by the server, :meth:`.server.Classroom.app`) ----------------

async def free(classroom: Classroom, request: Request) -> Response:
    """The teacher frees a learner's place for another browser (:mod:`.seats`): the
    browser that had it is closed out; the answer is the one-time link back to it."""
    if not classroom.is_teacher(request) or not classroom.same_origin(request):
        return classroom.forbidden(request)
    table = classroom._teacher_table(request)
    if isinstance(table, Response):
        return table
    lang = classroom.lang(request, teacher=True)
    with language(lang):
        try:
            place = int(request.path_params["place"])
            token = reissue(table, place)
        except (ValueError, BoxGinError) as err:
            return PlainTextResponse(str(err), status_code=404)
        url = f"{classroom.base_url(request)}retake/{table.code}/{token}"
        body = retake_page(table, place, url, lang)
    for conn in [c for c in classroom.hub.seats.get(table.code, ()) if c.place == place]:
        classroom.hub.drop(conn)
        if conn.outbox is not None:
            conn.outbox.close()
        with contextlib.suppress(Exception):
            await conn.ws.close(code=4403)
    await classroom.hub.broadcast(classroom.room, table)
    return classroom.html(request, body, lang, teacher=True)


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


__all__ = ["YEAR", "free", "reissue", "retake", "retake_page", "seat_cookie"]
