"""``box-gin serve``: the classroom server (Starlette on uvicorn, websockets).

Routes (every page rendered on the server, see :mod:`box_gin.classroom.pages`):

- ``/``, ``/join/CODE``: join a table by its code (the QR code leads to ``/join/CODE``),
  with a name and a free place; the seat's secret token comes back as an HttpOnly
  cookie, so that a reload or a lost connection gives the same seat back;
- ``/t/CODE`` and its websocket ``/ws/CODE``: the table as that seat sees it;
- ``/teacher?key=...`` (the key is printed at start): the teacher's pages, behind a
  cookie: create tables, watch them, replay finished hands, download match records,
  free a place (then its one-time link ``/retake/CODE/TOKEN``), move a learner, seat a
  bot, set the wait between hands, close a table (:mod:`.seats`); hands' reviews.

Every frame a learner's socket gets, the first included, is built from that seat's
view; an action is applied by the engine for the seat's own player (``player=``), under
the table's sequence number, and written to the store before any frame is sent.

What a learner sends is bounded before it is read, and nothing is ever sent by waiting on
one socket (:mod:`box_gin.classroom.limits`); every malformed request is answered with a
4xx and a message, never a 500.
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import BoxGinError
from ..i18n import LANGUAGES, _
from . import pages, reviews, seats
from .limits import MAX_MESSAGE, Guard, Outbox, TooLarge, read_body
from .pages import language, pick_language
from .seats import YEAR, seat_cookie
from .store import Store
from .tables import Room, SeatError, Table

TEACHER_COOKIE = "bg_teacher"
LANG_COOKIE = "bg_lang"
TEACHER_LANG_COOKIE = "bg_teacher_lang"


@dataclass(eq=False)
class SeatSocket:
    ws: WebSocket
    place: int
    lang: str
    #: What the socket is to be sent (set when the socket is accepted).
    outbox: Outbox | None = None
    #: The last hand's part as last sent: sent again only when it changes.
    past: str | None = None


@dataclass(eq=False)
class TeacherSocket:
    ws: WebSocket
    code: str | None
    lang: str
    base_url: str
    outbox: Outbox | None = None


def same_key(given: str, key: str) -> bool:
    """Whether ``given`` is the teacher's ``key``, in time independent of where they
    differ; compared as bytes, so that any text (not ASCII, not even valid) is just a
    wrong key."""
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"),
                                  key.encode("utf-8", "surrogatepass"))


#: The teacher's pages are brought up to date at most this often (seconds): a class of
#: ten tables changes many times a second, and the seats' updates come first.
TEACHER_EVERY = 0.25


@dataclass
class Hub:
    """The open sockets: each learner's, by table, and the teacher's."""

    seats: dict[str, list[SeatSocket]] = field(default_factory=dict)
    teachers: list[TeacherSocket] = field(default_factory=list)
    _dirty: set[str] = field(default_factory=set)
    _teacher_task: asyncio.Task[None] | None = None

    async def broadcast(self, room: Room, table: Table) -> None:
        """Send every socket at ``table`` its own seat's frame, and the teacher's pages
        theirs (each frame queued on its socket's outbox: no socket is waited on)."""
        cache: dict[tuple[int, str], dict[str, str]] = {}
        for conn in list(self.seats.get(table.code, ())):
            key = (conn.place, conn.lang)
            if key not in cache:
                cache[key] = seat_parts(table, conn.place, conn.lang)
            self.send(conn, frame_for(conn, table, cache[key]))
        self._dirty.add(table.code)
        if self.teachers and self._teacher_task is None:
            self._teacher_task = asyncio.create_task(self._update_teachers(room))

    async def _update_teachers(self, room: Room) -> None:
        """Send the teacher's pages the tables changed since the last update, then wait
        :data:`TEACHER_EVERY` before the next."""
        try:
            while self._dirty:
                dirty, self._dirty = self._dirty, set()
                teacher_cache: dict[tuple[str | None, str, str], str] = {}
                for t in list(self.teachers):
                    if t.code is not None and t.code not in dirty:
                        continue
                    tkey = (t.code, t.lang, t.base_url)
                    if tkey not in teacher_cache:
                        teacher_cache[tkey] = teacher_frame(room, t)
                    self.send(t, teacher_cache[tkey])
                await asyncio.sleep(TEACHER_EVERY)
        finally:
            self._teacher_task = None

    def send(self, conn: SeatSocket | TeacherSocket, text: str) -> None:
        """Queue ``text`` for ``conn`` (dropped when it does not drain)."""
        if conn.outbox is not None:
            conn.outbox.post(text)

    def open(self, conn: SeatSocket | TeacherSocket) -> Outbox:
        """Give an accepted socket its outbox; a socket that stops draining is dropped."""
        conn.outbox = Outbox(conn.ws, lambda: self.drop(conn))
        return conn.outbox

    def drop(self, conn: SeatSocket | TeacherSocket) -> None:
        if isinstance(conn, TeacherSocket):
            if conn in self.teachers:
                self.teachers.remove(conn)
            return
        for conns in self.seats.values():
            if conn in conns:
                conns.remove(conn)


def seat_parts(table: Table, place: int, lang: str) -> dict[str, str]:
    """The parts of the page of the seat in ``place``, from its own view, in ``lang``."""
    with language(lang):
        return pages.seat_parts(table, place)


def frame_for(conn: SeatSocket, table: Table, parts: dict[str, str]) -> str:
    """One frame for a seat's socket: its parts, the last hand's only when it changed
    since this socket last had it."""
    if parts["bg-past"] is conn.past:
        parts = {k: v for k, v in parts.items() if k != "bg-past"}
    else:
        conn.past = parts["bg-past"]
    return json.dumps({"type": "frame", "seq": table.seq, "parts": parts}, ensure_ascii=False)


def teacher_frame(room: Room, conn: TeacherSocket) -> str:
    with language(conn.lang):
        if conn.code is None:
            parts = pages.overview_parts(room.tables, conn.base_url)
            seq = 0
        else:
            table = room.tables[conn.code]
            parts, seq = seats.watch_parts(table), table.seq
    return json.dumps({"type": "frame", "seq": seq, "parts": parts}, ensure_ascii=False)


def _error(message: str) -> str:
    return json.dumps({"type": "error", "message": message}, ensure_ascii=False)


class Classroom:
    """The server's state: the store, the room of tables, the sockets, the teacher's key."""

    def __init__(self, db: str | Path, teacher_key: str | None = None,
                 now: Callable[[], float] = time.time) -> None:
        self.store = Store(db)
        self.room = Room(self.store, now)
        self.key = teacher_key or self.store.teacher_key()
        self.hub, self.reviews = Hub(), reviews.Reviews()
        #: Each waiting table's timer, set for the wait's deadline.
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self._due: set[asyncio.Task[None]] = set()

    async def changed(self, table: Table) -> None:
        """Every page of ``table`` brought up to date, and its timer set for the end of
        its wait between hands, if it waits."""
        await self.hub.broadcast(self.room, table)
        self.arm(table)

    def arm(self, table: Table) -> None:
        """Set ``table``'s timer for the end of its wait, if it waits (and only then)."""
        if (old := self.timers.pop(table.code, None)) is not None:
            old.cancel()
        if table.pause is not None and table.closed is None:
            later = max(0.0, table.deadline() - table.clock.now())
            self.timers[table.code] = asyncio.get_running_loop().call_later(
                min(later, 3600.0), self._spawn, table)

    def _spawn(self, table: Table) -> None:
        """The deadline came: the wait ends (:meth:`Table.tick`), every page is told."""
        self.timers.pop(table.code, None)
        table.tick()
        task = asyncio.get_running_loop().create_task(self.changed(table))
        self._due.add(task)
        task.add_done_callback(self._due.discard)

    # -- helpers -----------------------------------------------------------------------------

    def lang(self, conn: HTTPConnection, teacher: bool = False) -> str:
        cookie = TEACHER_LANG_COOKIE if teacher else LANG_COOKIE
        return pick_language(conn.query_params.get("lang"), conn.cookies.get(cookie),
                             conn.headers.get("accept-language"))

    def is_teacher(self, conn: HTTPConnection) -> bool:
        given = conn.cookies.get(TEACHER_COOKIE, "")
        return bool(given) and same_key(given, self.key)

    def html(self, conn: HTTPConnection, body: str, lang: str, teacher: bool = False,
             status: int = 200) -> HTMLResponse:
        response = HTMLResponse(body, status_code=status,
                                headers={"Cache-Control": "no-store",
                                         "X-Frame-Options": "DENY",
                                         "Referrer-Policy": "same-origin"})
        if conn.query_params.get("lang") == lang:
            response.set_cookie(TEACHER_LANG_COOKIE if teacher else LANG_COOKIE, lang,
                                max_age=YEAR, samesite="lax")
        return response

    @staticmethod
    def base_url(conn: HTTPConnection) -> str:
        scheme = "https" if conn.url.scheme in ("https", "wss") else "http"
        return f"{scheme}://{conn.headers.get('host', conn.url.netloc)}/"

    def table_of(self, code: str) -> Table:
        """The table of ``code``, its wait between hands ended if its deadline came while
        no timer ran (the server was down)."""
        table = self.room.get(code)
        table.tick()
        return table

    def seat_of(self, conn: HTTPConnection, table: Table) -> int | None:
        token = conn.cookies.get(seat_cookie(table.code))
        return table.tokens.get(token) if token else None

    @staticmethod
    def same_origin(conn: HTTPConnection) -> bool:
        """Whether a browser's request comes from this server's own pages (a request with
        no Origin, from a program, is let through: it has no cookies of another site)."""
        origin = conn.headers.get("origin")
        return origin is None or urlsplit(origin).netloc == conn.headers.get("host")

    async def form(self, request: Request) -> dict[str, str]:
        """A posted form's fields (the first of each), its body read with its cap
        (:class:`~box_gin.classroom.limits.TooLarge` past it)."""
        body = (await read_body(request)).decode("utf-8", "replace")
        return {k: v[0] for k, v in parse_qs(body, max_num_fields=32).items()}

    def too_large(self, request: Request, teacher: bool = False) -> Response:
        lang = self.lang(request, teacher)
        with language(lang):
            body = pages.message_page(_("Box gin"), _(
                "That form was larger than any form of this site: it was not read."), lang)
        return self.html(request, body, lang, teacher, status=413)

    # -- learners ------------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        lang = self.lang(request)
        with language(lang):
            return self.html(request, pages.home_page(lang), lang)

    async def join_code(self, request: Request) -> Response:
        lang = self.lang(request)
        code = request.query_params.get("code", "")
        with language(lang):
            try:
                table = self.table_of(code)
            except SeatError as err:
                return self.html(request, pages.home_page(lang, str(err)), lang, status=404)
        return RedirectResponse(f"/join/{table.code}", status_code=303)

    async def join(self, request: Request) -> Response:
        lang = self.lang(request)
        with language(lang):
            try:
                table = self.table_of(request.path_params["code"])
            except SeatError as err:
                return self.html(request, pages.home_page(lang, str(err)), lang, status=404)
            if self.seat_of(request, table) is not None:
                return RedirectResponse(f"/t/{table.code}", status_code=303)
            if request.method == "GET":
                return self.html(request, pages.join_page(table, lang), lang)
            if not self.same_origin(request):
                return self.html(request, pages.join_page(table, lang), lang, status=403)
            try:
                form = await self.form(request)
            except (TooLarge, ValueError):
                return self.too_large(request)
            try:
                place = int(form.get("place", "-1"))
                token = table.sit(place, form.get("name", ""))
            except (ValueError, BoxGinError) as err:
                message = str(err) if isinstance(err, BoxGinError) else \
                    _("choose a free place")
                return self.html(request, pages.join_page(table, lang, message), lang,
                                 status=400)
        await self.changed(table)
        response = RedirectResponse(f"/t/{table.code}", status_code=303)
        response.set_cookie(seat_cookie(table.code), token, max_age=YEAR, httponly=True,
                            samesite="lax")
        return response

    async def table_page(self, request: Request) -> Response:
        lang = self.lang(request)
        with language(lang):
            try:
                table = self.table_of(request.path_params["code"])
            except SeatError as err:
                return self.html(request, pages.home_page(lang, str(err)), lang, status=404)
            place = self.seat_of(request, table)
            if place is None:
                return seats.moved_to(self, request, table.code) or RedirectResponse(
                    f"/join/{table.code}", status_code=303)
            return self.html(request, pages.seat_page(table, place, lang), lang)

    async def seat_socket(self, ws: WebSocket) -> None:
        try:
            table = self.table_of(ws.path_params["code"])
        except SeatError:
            await ws.close(code=4404)
            return
        token = ws.cookies.get(seat_cookie(table.code), "")
        place = table.tokens.get(token)
        if place is None or not self.same_origin(ws):
            await ws.close(code=4403)
            return
        await ws.accept()
        self.arm(table)  # a wait found in the store when the server started
        conn = SeatSocket(ws, place, self.lang(ws))
        outbox = self.hub.open(conn)
        self.hub.seats.setdefault(table.code, []).append(conn)
        try:
            outbox.post(frame_for(conn, table, seat_parts(table, place, conn.lang)))
            while not outbox.closed:
                text = await receive_text(ws)
                with language(conn.lang):
                    try:
                        kind, action, seq = read_message(text)
                    except ValueError:
                        outbox.post(_error(_("not a message the table reads")))
                        continue
                    try:
                        if kind == "act":
                            table.act(token, action, seq)
                        elif kind == "ready":
                            table.ready(token)
                        else:
                            table.advise(token, action, seq)
                    except BoxGinError as err:
                        outbox.post(_error(str(err)))
                        continue
                await self.changed(table)
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            # Cancelled by its outbox, which dropped it (it stopped reading): it ends
            # here.  Any other cancellation (the server shutting down) goes on up.
            if not outbox.closed:
                raise
        finally:
            self.hub.drop(conn)
            outbox.close()

    # -- the teacher ---------------------------------------------------------------------------

    def forbidden(self, request: Request) -> Response:
        lang = self.lang(request, teacher=True)
        with language(lang):
            body = pages.message_page(_("Box gin: the teacher's page"), _(
                "This page is the teacher's: open it with the address the server printed "
                "when it started."), lang)
        return self.html(request, body, lang, teacher=True, status=403)

    async def teacher(self, request: Request) -> Response:
        key = request.query_params.get("key")
        if key is not None:
            if not same_key(key, self.key):
                return self.forbidden(request)
            lang = request.query_params.get("lang", "")
            there = f"/teacher?lang={lang}" if lang in LANGUAGES else "/teacher"
            response = RedirectResponse(there, status_code=303)
            response.set_cookie(TEACHER_COOKIE, self.key, max_age=YEAR, httponly=True,
                                samesite="lax")
            return response
        if not self.is_teacher(request):
            return self.forbidden(request)
        lang = self.lang(request, teacher=True)
        with language(lang):
            return seats.teacher_answer(self, request, lang)

    async def teacher_form(self, request: Request) -> tuple[dict[str, str], str] | Response:
        """A form the teacher posted, and the teacher's language; or the answer that
        refuses it (not the teacher's, :meth:`refused`; too large)."""
        refused = self.refused(request)
        if refused is not None:
            return refused
        try:
            return await self.form(request), self.lang(request, teacher=True)
        except (TooLarge, ValueError):
            return self.too_large(request, teacher=True)

    async def create(self, request: Request) -> Response:
        posted = await self.teacher_form(request)
        if isinstance(posted, Response):
            return posted
        form, lang = posted
        with language(lang):
            try:
                count = int(form.get("count") or 1)
                seed_text = form.get("seed", "").strip()
                seed = int(seed_text) if seed_text else None
                target = int(form.get("target") or 100)
                bots = int(form.get("bots") or 0)
                # Every table of the form is checked before the first is made: a form
                # that is refused makes nothing.
                made = self.room.create_many(count, form.get("preset", "standard"), target,
                                             seed, bots, form.get("bot_kind", "greedy"))
            except (ValueError, BoxGinError) as err:
                message = str(err) if isinstance(err, BoxGinError) else \
                    _("the target, the seed and the number of tables are whole numbers")
                return seats.teacher_answer(self, request, lang, message)
        for table in made:
            await self.changed(table)
        return RedirectResponse("/teacher", status_code=303)

    def refused(self, request: Request) -> Response | None:
        """The answer to a teacher's form that is not the teacher's (no teacher's cookie,
        or posted from another site's page: the cookie is SameSite and the Origin is
        checked), or None: the one check of every form of the teacher's pages."""
        if not self.is_teacher(request) or not self.same_origin(request):
            return self.forbidden(request)
        return None

    def _teacher_table(self, request: Request) -> Table | Response:
        if not self.is_teacher(request):
            return self.forbidden(request)
        try:
            return self.table_of(request.path_params["code"])
        except SeatError as err:
            return PlainTextResponse(str(err), status_code=404)

    async def teacher_socket(self, ws: WebSocket) -> None:
        if not self.is_teacher(ws) or not self.same_origin(ws):
            await ws.close(code=4403)
            return
        code = ws.query_params.get("table")
        if code is not None and code not in self.room.tables:
            await ws.close(code=4404)
            return
        await ws.accept()
        conn = TeacherSocket(ws, code, self.lang(ws, teacher=True), self.base_url(ws))
        outbox = self.hub.open(conn)
        self.hub.teachers.append(conn)
        try:
            outbox.post(teacher_frame(self.room, conn))
            while not outbox.closed:
                await receive_text(ws)  # the teacher's page sends nothing that is read
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if not outbox.closed:
                raise
        finally:
            self.hub.drop(conn)
            outbox.close()

    def app(self) -> ASGIApp:
        """The server's ASGI application (its routes behind :class:`Guard`)."""
        return Guard(Starlette(routes=[
            Route("/", self.home),
            Route("/join", self.join_code),
            Route("/join/{code}", self.join, methods=["GET", "POST"]),
            Route("/t/{code}", self.table_page),
            Route("/t/{code}/review/{number}", functools.partial(reviews.seat_review, self)),
            WebSocketRoute("/ws/teacher", self.teacher_socket),
            WebSocketRoute("/ws/{code}", self.seat_socket),
            Route("/teacher", self.teacher),
            Route("/teacher/tables", self.create, methods=["POST"]),
            Route("/teacher/wait", functools.partial(seats.room_wait, self),
                  methods=["POST"]),
            *(Route(f"/teacher/t/{{code}}{path}", functools.partial(route, self))
              for path, route in (("", seats.watch), ("/projector", seats.projector),
                                  ("/hand/{number}", seats.replay),
                                  ("/record.json", seats.record),
                                  ("/review/{number}", reviews.teacher_review),
                                  ("/freed/{place}", seats.freed))),
            *(Route(f"/teacher/t/{{code}}/{path}", functools.partial(route, self),
                    methods=["POST"])
              for path, route in (("free/{place}", seats.free), ("move/{place}", seats.move),
                                  ("bot/{place}", seats.bot), ("close", seats.close),
                                  ("wait", seats.wait))),
            Route("/retake/{code}/{token}", functools.partial(seats.retake, self)),
        ]))


async def receive_text(ws: WebSocket) -> str:
    """The next message of ``ws`` as text ("" for a binary one, which nothing sends);
    a message over :data:`~box_gin.classroom.limits.MAX_MESSAGE` closes the socket
    (the server refuses a larger frame before reading it; this holds under any server)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if not isinstance(text, str):
        return ""
    if len(text) > MAX_MESSAGE:
        await ws.close(code=1009)
        raise WebSocketDisconnect(1009)
    return text


def read_message(text: str) -> tuple[str, str, int]:
    """A learner's message (``{"type": "act", "advise" or "ready", "action": ...,
    "seq": ...}``)
    as (kind, action, seq); ValueError for anything else."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError("not JSON") from None
    if not isinstance(message, dict):
        raise ValueError("not an object")
    kind, action, seq = message.get("type"), message.get("action"), message.get("seq")
    if kind not in ("act", "advise", "ready") or not isinstance(action, str) \
            or not isinstance(seq, int) or isinstance(seq, bool):
        raise ValueError("not an action message")
    return kind, action, seq


def room_address(host: str) -> str:
    """The address to print for ``host``: for every interface (0.0.0.0), this machine's
    address on the room's network, found without sending anything."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


def startup_lines(url: str, teacher_url: str, host: str) -> list[str]:
    """What ``box-gin serve`` prints when it starts."""
    lines = [_("Box gin classroom: learners join at {url}").format(url=url),
             _("The teacher's page (keep this address secret): {url}").format(url=teacher_url)]
    if host not in ("127.0.0.1", "localhost", "::1"):
        lines.append(_("Warning: listening on {host}: anyone on this network can reach "
                       "the server. Use it only on the classroom's network.").format(host=host))
    return lines


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = "box-gin-class.db",
          out: Any = None) -> None:
    """Run the classroom server until interrupted (``box-gin serve``)."""
    import uvicorn

    out = out or sys.stdout
    classroom = Classroom(db)
    where = f"http://{room_address(host)}:{port}/"
    for line in startup_lines(where, f"{where}teacher?key={classroom.key}", host):
        print(line, file=out, flush=True)
    config = uvicorn.Config(classroom.app(), host=host, port=port, log_level="warning",
                            ws="websockets-sansio", lifespan="off",
                            # A message's cap, checked from its frame's header before its
                            # payload is read (limits.MAX_MESSAGE).
                            ws_max_size=MAX_MESSAGE,
                            # Frames are a few kilobytes on loopback or the room's network:
                            # compressing each costs more time than it saves.
                            ws_per_message_deflate=False)
    try:
        asyncio.run(uvicorn.Server(config).serve())
    except KeyboardInterrupt:  # Ctrl-C: uvicorn has closed every socket; one line says so
        pass
    finally:
        classroom.store.close()
    print(_("The classroom server stopped; every table is kept in {db}: box-gin serve --db "
            "{db} starts it again where it was.").format(db=db), file=out, flush=True)
