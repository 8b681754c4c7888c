"""Bounds on what the classroom server reads and sends, so that one learner cannot stall
the class (docs/classroom.md, "One learner cannot spoil it for the class").

- A request body is read with its cap enforced while it is read (:func:`read_body`): a
  form larger than :data:`MAX_BODY` is refused (413) after at most that much is read.
- A websocket message is capped by the server itself (uvicorn's ``ws_max_size``, a
  frame's announced length checked before its payload is read) and again by the
  handler (:data:`MAX_MESSAGE`).
- Every socket sends through an :class:`Outbox` of its own: a bounded queue and a
  writer with a deadline per frame.  Posting a frame never waits; a socket that does not
  drain (its queue full, or a frame not taken within :data:`SEND_SECONDS`) is dropped and
  its connection aborted.  Its seat comes back as after a reload; the other sockets of the
  table keep their frames.
- Every HTTP response says its ``Content-Type`` and ``X-Content-Type-Options: nosniff``
  (:class:`Guard`, an ASGI middleware that also hands the handlers a way to abort a
  websocket's connection).

>>> MAX_MESSAGE < MAX_BODY
True
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

#: The largest request body read (bytes): the teacher's and the join forms are a few
#: hundred bytes.
MAX_BODY = 16 * 1024
#: The largest websocket message read from a learner or the teacher (bytes): an action
#: is a short text in a short JSON object.
MAX_MESSAGE = 4 * 1024
#: The frames a socket may have waiting to be sent before it is dropped.
OUTBOX = 64
#: Seconds one frame may take to go out before its socket is dropped.
SEND_SECONDS = 10.0
#: Where :class:`Guard` puts a websocket's abort in the ASGI scope.
ABORT_KEY = "box_gin.abort"


class TooLarge(Exception):
    """A request body over :data:`MAX_BODY` (answered 413)."""


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body of ``request``, read chunk by chunk and refused (:class:`TooLarge`) as
    soon as it passes ``limit`` bytes: a larger body is never held whole."""
    announced = request.headers.get("content-length", "")
    if announced.isdigit() and int(announced) > limit:
        raise TooLarge(announced)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge(len(body))
    return bytes(body)


def _aborter(send: Send) -> Callable[[], None] | None:
    """A way to drop the connection behind ``send`` at once, without a closing handshake
    that a peer which does not read would never let through (uvicorn's transport), or
    None where the server does not offer one."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    abort = getattr(transport, "abort", None)
    return abort if callable(abort) else None


class Guard:
    """ASGI middleware: ``Content-Type`` (plain text where a response gave none) and
    ``X-Content-Type-Options: nosniff`` on every HTTP response; for a websocket, its
    abort in the scope (:data:`ABORT_KEY`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[ABORT_KEY] = _aborter(send)
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("content-type", "text/plain; charset=utf-8")
                headers["x-content-type-options"] = "nosniff"
            await send(message)

        await self.app(scope, receive, sending)


class Outbox:
    """What one socket is to be sent, in order, by a writer of its own.

    :meth:`post` never waits.  When the socket does not drain (``OUTBOX`` frames waiting,
    or one frame not taken within ``SEND_SECONDS``), ``dropped`` is called (the hub forgets
    the socket), the connection is aborted and the socket's handler stopped.
    """

    def __init__(self, ws: WebSocket, dropped: Callable[[], Any], *, size: int = OUTBOX,
                 seconds: float = SEND_SECONDS) -> None:
        self.ws = ws
        self.dropped = dropped
        self.seconds = seconds
        self.closed = False
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=size)
        self._handler = asyncio.current_task()
        self._writer = asyncio.create_task(self._write())

    def post(self, text: str) -> bool:
        """Queue ``text`` for the socket; False (and the socket dropped) when it is not
        draining, or already closed."""
        if self.closed:
            return False
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.fail()
            return False
        return True

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                await asyncio.wait_for(self.ws.send_text(text), self.seconds)
        except asyncio.CancelledError:
            raise
        except (TimeoutError, RuntimeError, OSError, WebSocketDisconnect):
            self.fail()
        except Exception:  # a server's own error on a broken connection: drop it too
            self.fail()

    def fail(self) -> None:
        """Drop the socket: forgotten by the hub, its connection aborted (where the server
        allows; else its handler is stopped, which closes it)."""
        if self.closed:
            return
        self.closed = True
        self.dropped()
        if self._writer is not asyncio.current_task():
            self._writer.cancel()
        abort = self.ws.scope.get(ABORT_KEY)
        if callable(abort):
            with contextlib.suppress(Exception):
                abort()
        elif self._handler is not None and self._handler is not asyncio.current_task():
            self._handler.cancel()

    def close(self) -> None:
        """The socket is gone: stop its writer (nothing more is sent)."""
        self.closed = True
        self._writer.cancel()
