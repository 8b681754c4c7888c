"""The review of a classroom hand (:mod:`box_gin.review`): a learner's own decisions, and
for the teacher every seat's.

A finished hand is reviewed from each seat's own view (:func:`~box_gin.review.review_hand`
evaluates a decision from that seat's ``SeatView`` only), so a learner's review shows
nothing their seat could not see.  A review takes a few tenths of a second a seat: it is
computed on a worker thread, never on the event loop, and kept (by table, hand, seat and
language) in a bounded cache, so a class that opens the same review costs one.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from ..i18n import _
from ..review import Review, review_hand
from ..review.page import review_page
from ..review.records import PlayedHand
from .pages import language
from .seats import seat_cookie, teacher_get
from .tables import SeatError, Table

if TYPE_CHECKING:
    from .server import Classroom

#: The most reviews kept (each a page of some tens of kilobytes).
KEEP = 256
#: The review's seed: the same hand is always reviewed alike.
SEED = 0


class Reviews:
    """The reviews computed so far, newest last, at most :data:`KEEP`; one worker."""

    def __init__(self) -> None:
        self.pages: OrderedDict[tuple[str, int, str | None, str], str] = OrderedDict()
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    def played(self, table: Table, number: int) -> PlayedHand:
        """Finished hand ``number`` of ``table`` as the review reads it (refused, a
        :class:`SeatError`, for a hand that is not finished)."""
        match = table.match
        if match is None or not 1 <= number <= len(match.history):
            raise SeatError(_("no finished hand {n} at table {code}").format(
                n=number, code=table.code))
        record = match.history[number - 1]
        hand = table.replay_hand(number, len(record.actions))
        return PlayedHand(1, number, {r.value: n for r, n in record.roles.items()}, hand)

    async def page(self, table: Table, number: int, player: str | None, lang: str) -> str:
        """The review page of hand ``number``: ``player``'s decisions (None: every
        seat's), in ``lang``; computed on the worker thread the first time."""
        key = (table.code, number, player, lang)
        with self._lock:
            if key in self.pages:
                self.pages.move_to_end(key)
                return self.pages[key]
        played = self.played(table, number)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="box-gin-review")
        title = (_("Table {code}, hand {n}: your decisions") if player is not None
                 else _("Table {code}, hand {n}: every seat's decisions")).format(
            code=table.code, n=number)
        made = await asyncio.get_running_loop().run_in_executor(
            self._pool, render, played, player, lang, title)
        with self._lock:
            self.pages[key] = made
            while len(self.pages) > KEEP:
                self.pages.popitem(last=False)
        return made


def render(played: PlayedHand, player: str | None, lang: str, title: str) -> str:
    """One hand reviewed (``player``'s decisions, or all) as a page, in ``lang``."""
    with language(lang):
        reviewed = review_hand(played, None if player is None else {player}, SEED)
        return review_page(Review((reviewed,), SEED), title)


async def seat_review(classroom: Classroom, request: Request) -> Response:
    """A learner's review of their own decisions in a finished hand of their table."""
    lang = classroom.lang(request)
    with language(lang):
        try:
            table = classroom.table_of(request.path_params["code"])
            token = request.cookies.get(seat_cookie(table.code), "")
            place = table.tokens.get(token)
            if place is None:
                return RedirectResponse(f"/join/{table.code}", status_code=303)
            number = int(request.path_params["number"])
            name = table.names[place]
            body = await classroom.reviews.page(table, number, name, lang)
        except (ValueError, SeatError) as err:
            return PlainTextResponse(str(err), status_code=404)
    return classroom.html(request, body, lang)


@teacher_get
async def teacher_review(classroom: Classroom, request: Request, table: Table,
                         lang: str) -> Response:
    """The teacher's review of a finished hand: every seat's decisions."""
    try:
        number = int(request.path_params["number"])
        body = await classroom.reviews.page(table, number, None, lang)
    except (ValueError, SeatError) as err:
        return PlainTextResponse(str(err), status_code=404)
    return classroom.html(request, body, lang, teacher=True)


__all__ = ["KEEP", "Reviews", "render", "seat_review", "teacher_review"]
