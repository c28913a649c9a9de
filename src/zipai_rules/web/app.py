"""The web table as an ASGI app (Starlette; the ``serve`` extra): ``GET /`` the page,
``/static/…`` its script and style (package data ``web/static/``), the WebSocket ``/ws`` the
wire of :mod:`zipai_rules.web.table`, and, for a table whose store is a
:class:`~zipai_rules.web.store.RecordStore`, the records
(``/records``, ``/records/{id}``, ``/records/{id}.json``).

Every response carries a strict Content-Security-Policy (a replay page its own): only the
page's own script and style run, nothing is fetched from elsewhere, and the table's picture
(an SVG the library draws, read by the page as XML and shown inline) may use only the
picture's own style sheet.
``zipai serve`` runs it with uvicorn (:mod:`zipai_rules.cli.serve`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..drawing import STYLE as PICTURE_STYLE
from ..replay_html import sha256_source
from ..variant import Variant
from .records_routes import record_routes
from .store import RecordStore
from .table import Frame, RecordSink, WebTable

STATIC = Path(__file__).parent / "static"
#: frames queued to a connection that does not read before it is dropped
SEND_LIMIT = 256
#: the close code of a connection whose seat was resumed on another one (the page then does
#: not reconnect, so two windows holding one token do not take the seat from each other)
TAKEN_OVER = 4001
#: the page's policy: its own script and style, and the style inside the table's picture
#: (shown inline, so that the page's DOM holds the cards it shows), named by its hash; its own
#: socket; nothing else
CSP = ("default-src 'none'; script-src 'self'; "
       f"style-src 'self' {sha256_source(PICTURE_STYLE)}; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class _Headers:
    """Adds the policy headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(k.lower() == b"content-security-policy" for k, _ in headers):
                    headers.append((b"content-security-policy", CSP.encode()))  # a replay
                    # page keeps its own (replay_html.replay_csp: its script by its hash)
                headers += [(b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


def create_app(variant: str | Variant = "hunan", *, humans: int = 1,
               window_seconds: float = 20.0, store: RecordSink | None = None,
               seed: int | None = None, ascii: bool = False, pace: float = 0.0,
               table: WebTable | None = None) -> Starlette:
    """The web table app: one :class:`~zipai_rules.web.table.WebTable` (``table``, or one
    made of the other arguments, as :class:`WebTable` takes them) served at ``/ws``. The
    table is ``app.state.table``. Raises what :class:`WebTable` raises."""
    table = table or WebTable(variant, humans=humans, window_seconds=window_seconds,
                              store=store, seed=seed, ascii=ascii, pace=pace)

    # the page in the table's one language: Chinese, or English where the table is ASCII
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    if table.ascii:
        html = html.replace('<html lang="zh" data-lang="zh">', '<html lang="en" data-lang="en">')

    async def page(request: Request) -> Response:
        return HTMLResponse(html)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)  # no favicon: a browser asks for one

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        queue: asyncio.Queue[Frame | int | None] = asyncio.Queue()
        dropped = False

        def send(frame: Frame) -> None:
            nonlocal dropped
            if queue.qsize() >= SEND_LIMIT:
                dropped = True  # it does not read: end it
                queue.put_nowait(None)
            elif not dropped:
                queue.put_nowait(frame)

        async def pump() -> None:
            while isinstance(frame := await queue.get(), dict):
                await websocket.send_json(frame)
            await websocket.close(code=frame or 1000)

        # a seat resumed on another connection: this one ends with TAKEN_OVER
        conn = table.connect(send, lambda: queue.put_nowait(TAKEN_OVER))
        sender = asyncio.create_task(pump())
        try:
            while not sender.done():
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                table.receive(conn, text if text is not None else message.get("bytes") or b"")
        except WebSocketDisconnect:
            pass
        finally:
            table.disconnect(conn)
            if not sender.done():
                queue.put_nowait(None)
                await asyncio.gather(sender, return_exceptions=True)

    routes: list[BaseRoute] = [
        Route("/", page),
        Route("/favicon.ico", no_icon),
        WebSocketRoute("/ws", socket),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    if isinstance(store, RecordStore):  # a sink that only adds has no pages
        routes += record_routes(store)
    app = Starlette(routes=routes)
    app.state.table = table
    app.add_middleware(_Headers)
    return app
