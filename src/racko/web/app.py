"""`racko serve`: Rack-O in the browser, with friends and computer players (Starlette on uvicorn, WebSockets).

Routes: ``/`` the start page; ``POST /api/tables`` makes a table and answers its links; ``/t/{table}`` the table
page (a seat's token travels in the link's fragment, ``#seat=…``, which browsers never send to a server in a request
line or a Referer); ``/ws/{table}`` the table's WebSocket; ``/api/tables/{table}/record`` the last finished game's
record.  The page is plain HTML, CSS and JavaScript from the package: no build step, nothing fetched elsewhere.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from racko import bots
from racko.play.session import bots_for, default_opponent
from racko.rules import VARIANTS
from racko.web.memory import keep_collections_short
from racko.web.store import TableStore
from racko.web.tables import Hub, Watcher, WebError

STATIC = Path(__file__).parent / "static"
FRAME_LIMIT = 4096
"""The largest frame a client may send, in characters (a real one is under 200); a larger one is refused."""
RATE = 15.0
BURST = 40.0
"""Frames a connection may send per second, and in a burst: far above a person's pace, far below a flood."""
HELLO_SECONDS = 10.0
SWEEP_DAYS = 30.0
"""Tables nobody touched for this many days are forgotten (their finished records with them)."""

_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _page(name: str) -> Response:
    return FileResponse(STATIC / name, headers=_SECURITY_HEADERS)


class _Bucket:
    """A token bucket: ``take()`` is False once a connection sends faster than RATE for longer than BURST allows."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = BURST
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def create_app(
    store: TableStore,
    *,
    pace: float = 0.8,
    away_seconds: float = 60.0,
    frames_per_second: float = RATE,
    short_collections: bool = False,
) -> Starlette:
    """The server's application over ``store``; ``frames_per_second`` limits each connection (tests that play at a
    machine's speed raise it); ``short_collections``: keep the cycle collector's pauses short (racko.web.memory)."""
    hub = Hub(store, pace=pace, away_seconds=away_seconds)

    async def start_page(request: Request) -> Response:
        return _page("index.html")

    async def table_page(request: Request) -> Response:
        return _page("table.html")

    async def options(request: Request) -> Response:
        return JSONResponse(
            {
                "variants": [
                    {
                        "name": name,
                        "title": cls.title,
                        "description": cls.description,
                        "players": list(cls.player_counts),
                        "bots": list(bots_for(name)),
                        "default_bot": default_opponent(name),
                        "target": cls.rules(cls.player_counts[0]).target,
                        "refill": cls.rules(cls.player_counts[0]).refill,
                    }
                    for name, cls in VARIANTS.items()
                ],
                "bots": {name: bots.describe(name) for name in bots.available()},
            }
        )

    async def create_table(request: Request) -> Response:
        body = await request.body()
        if len(body) > FRAME_LIMIT:
            return JSONResponse({"error": "The settings are too long."}, status_code=413)
        try:
            form = json.loads(body)
            _, links = hub.create(form)
        except (ValueError, RecursionError):
            return JSONResponse({"error": "The settings are not JSON."}, status_code=400)
        except WebError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse(links)

    async def record(request: Request) -> Response:
        text = hub.record(request.path_params["table"])
        if text is None:
            return JSONResponse({"error": "No finished game at this table yet."}, status_code=404)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="racko-game.json"'},
        )

    async def table_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        table = hub.table(websocket.path_params["table"])
        if table is None:
            await _refuse(websocket, "no-table", "There is no such table.", 4404)
            return
        try:
            hello = await asyncio.wait_for(_frame(websocket), HELLO_SECONDS)
        except (TimeoutError, WebError, WebSocketDisconnect):
            await _refuse(websocket, "no-hello", 'Say hello first: {"type": "hello", "token": …}.', 4400)
            return
        token = hello.get("token")
        seat = table.seat_of(token) if token is not None else None
        if token is not None and seat is None:
            await _refuse(websocket, "bad-token", "This link is not a seat at this table.", 4403)
            return
        watcher = Watcher(seat, websocket.send_json, close=lambda: websocket.close(code=4409))
        bucket = _Bucket(frames_per_second)
        try:
            # Joining is inside the try: a client gone before its welcome arrives is still taken off the table.
            await hub.join(table, watcher, hello.get("version"))
            while True:
                try:
                    frame = await _frame(websocket)
                    if watcher.replaced:  # the seat was opened elsewhere and this socket closed: its last frames go
                        continue
                    if not bucket.take():
                        raise WebError("slow-down", "Too many messages: slow down.")
                    await _handle(hub, hub.tables.get(table.table_id, table), watcher, frame, websocket)
                except WebError as error:
                    await websocket.send_json({"type": "error", "code": error.code, "message": str(error)})
        except WebSocketDisconnect:
            pass
        finally:
            current = hub.tables.get(table.table_id, table)
            await hub.leave(current, watcher)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store.sweep(SWEEP_DAYS * 86400)
        hub.resume_all()
        collector = asyncio.create_task(keep_collections_short()) if short_collections else None
        yield
        if collector is not None:
            collector.cancel()
        for table in hub.tables.values():
            if table.thinking is not None:
                table.thinking.cancel()

    app = Starlette(
        routes=[
            Route("/", start_page),
            Route("/t/{table}", table_page),
            Route("/api/options", options),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table}/record", record),
            WebSocketRoute("/ws/{table}", table_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    return app


async def _frame(websocket: WebSocket) -> dict[str, Any]:
    """The next frame as a JSON object; anything else is a :class:`WebError` (the socket stays open)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise WebError("bad-frame", "Frames are JSON text.")
    if len(text) > FRAME_LIMIT:
        raise WebError("too-big", f"A frame is at most {FRAME_LIMIT} characters.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise WebError("bad-frame", "A frame is a JSON object.") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WebError("bad-frame", 'A frame is a JSON object with a "type".')
    return data


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Say why the connection is refused, and close it; a client already gone needs neither."""
    try:
        await websocket.send_json({"type": "error", "code": code, "message": message})
        await websocket.close(code=close_code)
    except Exception:  # already gone
        return


async def _handle(hub: Hub, table: Any, watcher: Watcher, frame: dict[str, Any], websocket: WebSocket) -> None:
    kind = frame["type"]
    seat = watcher.viewer
    if kind == "act":
        await hub.act(table, seat, frame.get("version"), frame.get("action"))
    elif kind == "name":
        await hub.name(table, seat, frame.get("name"))
    elif kind == "hint":
        choices = await hub.hint(table, seat)
        await websocket.send_json({"type": "hint", "choices": choices})
    elif kind == "hand-over":
        await hub.hand_over(table, seat, frame.get("seat"), frame.get("bot"))
    elif kind == "again":
        await hub.again(table, seat)
    elif kind == "react":
        await hub.react(table, seat, frame.get("reaction"))
    elif kind == "presence":
        await websocket.send_json(hub.presence(table))
    elif kind == "sync":
        seen = frame.get("version")
        watcher.version = seen if isinstance(seen, int) else 0
        await hub.bring(table, watcher)
    else:
        raise WebError("bad-frame", f"Unknown frame type {kind[:30]!r}.")
