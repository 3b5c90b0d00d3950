"""`racko serve`: Rack-O in the browser, with friends and computer players (Starlette on uvicorn, WebSockets).

Routes: ``/`` the start page; ``POST /api/tables`` makes a table and answers its links; ``/t/{table}`` the table
page (a seat's token travels in the link's fragment, ``#seat=…``, which browsers never send to a server in a request
line or a Referer); ``/ws/{table}`` the table's WebSocket; ``/api/tables/{table}/record`` the last finished game's
record.  The page is plain HTML, CSS and JavaScript from the package: no build step, nothing fetched elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from racko import bots
from racko.play.session import bots_for, default_opponent
from racko.record import GameRecord
from racko.rules import VARIANTS
from racko.web import learn as learn_room
from racko.web import lobby as lobby_room
from racko.web import me as me_room
from racko.web import puzzles as puzzles_room
from racko.web import ratings as ratings_room
from racko.web import review as review_room
from racko.web.frames import read_frame
from racko.web.http import STATIC, client_address, page, player_of
from racko.web.limits import (
    ALL_ADDRESSES,
    BODY_LIMIT,
    NEW_TABLES_PER_ADDRESS,
    RATE,
    Bucket,
    CreationLimit,
    TooBig,
    origin_allowed,
    read_body,
)
from racko.web.memory import keep_collections_short
from racko.web.metrics import CONTENT_TYPE, Metrics
from racko.web.players import Player
from racko.web.store import TableStore
from racko.web.tables import IDLE_SECONDS, Elsewhere, Hub, Table, Watcher, WebError, log

HELLO_SECONDS = 10.0

_EVERY_RESPONSE = [(b"x-content-type-options", b"nosniff")]


class _HeadersOnEveryResponse:
    """Adds ``X-Content-Type-Options: nosniff`` to every HTTP response: pages, files, JSON, errors."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_EVERY_RESPONSE]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    store: TableStore,
    *,
    pace: float = 0.8,
    away_seconds: float = 60.0,
    frames_per_second: float = RATE,
    short_collections: bool = False,
    allow_origins: tuple[str, ...] = (),
    new_tables_per_address: int = NEW_TABLES_PER_ADDRESS,
    new_tables_in_all: int | None = None,
    idle_seconds: float = IDLE_SECONDS,
    fill_seconds: float = lobby_room.FILL_SECONDS,
    quick_target: int | None = None,
    review_playouts: int | None = None,
    rate_shared_addresses: bool = False,
) -> Starlette:
    """The server's application over ``store``; ``frames_per_second`` limits each connection (tests that play at a
    machine's speed raise it); ``short_collections``: keep the cycle collector's pauses short (racko.web.memory);
    ``allow_origins``: the origins of pages served elsewhere that may use this server (``https://example.org``);
    ``review_playouts``: a review's play-outs a move (default: the review's own; fewer: quicker, rougher);
    ``rate_shared_addresses``: rate games whose seats play from one network address (racko.web.addresses)."""
    hub: Hub
    metrics = Metrics(
        tables=lambda: len(hub.tables), connections=lambda: sum(len(table.watchers) for table in hub.tables.values())
    )
    hub = Hub(
        store,
        pace=pace,
        away_seconds=away_seconds,
        idle_seconds=idle_seconds,
        metrics=metrics,
        rate_shared_addresses=rate_shared_addresses,
    )
    allowed = frozenset(origin.rstrip("/") for origin in allow_origins)
    lobby = lobby_room.Lobby(hub, fill_seconds=fill_seconds, quick_target=quick_target)
    ratings = ratings_room.Ratings(store)
    reviews = review_room.Reviews.with_playouts(review_playouts)

    async def forgotten(player_id: str) -> None:
        """A player was forgotten: out of quick play, out of the reviews kept here, and every table this process
        plays rewritten before the page is told (the other processes' within a second)."""
        lobby.forget(player_id)
        reviews.forget_done()
        await hub.forget_seats()

    async def game_over(table: Table, record: GameRecord) -> None:
        await asyncio.to_thread(ratings.game_over, table.table_id, table.setup, record)

    hub.game_over_hooks.append(game_over)
    creation = CreationLimit(new_tables_per_address, new_tables_in_all or ALL_ADDRESSES * new_tables_per_address)
    running = {"closing": False}

    async def start_page(request: Request) -> Response:
        return page("index.html")  # a new table (the lobby is the front page)

    async def table_page(request: Request) -> Response:
        return page("table.html")

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
        if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), allowed):
            return JSONResponse({"error": "Tables are made from this server's own start page."}, status_code=403)
        address = request.client.host if request.client is not None else "?"
        if not creation.allows(address):
            return JSONResponse(
                {"error": "Too many new tables at once: wait a minute, then try again."},
                status_code=429,
                headers={"Retry-After": "60"},
            )
        try:
            body = await read_body(request, BODY_LIMIT)
        except TooBig:
            return JSONResponse({"error": "The settings are too long."}, status_code=413)
        try:
            form = json.loads(body)
            if not isinstance(form, dict):
                raise WebError("bad-form", "The table's settings are a JSON object.")
            maker = await _maker(request, hub, form)
            links = await hub.create(form, maker, [address if player is not None else None for player in maker or []])
        except (ValueError, RecursionError):
            return JSONResponse({"error": "The settings are not JSON."}, status_code=400)
        except WebError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        except Exception as error:  # the database refused the new table
            log.warning("a new table could not be kept: %s", error)
            return JSONResponse({"error": "The table could not be kept: try again in a moment."}, status_code=503)
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

    async def health(request: Request) -> Response:
        if running["closing"]:
            return JSONResponse({"status": "stopping", "node": store.node}, status_code=503)
        return JSONResponse({"status": "ok", "node": store.node, "tables": len(hub.tables)})

    async def metrics_page(request: Request) -> Response:
        return Response(metrics.text(), media_type=CONTENT_TYPE)

    async def refuse(websocket: WebSocket, code: str, message: str, close_code: int, **more: Any) -> None:
        metrics.refused.labels(code).inc()
        await _refuse(websocket, code, message, close_code, **more)

    async def table_socket(websocket: WebSocket) -> None:
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), allowed):
            metrics.refused.labels("origin").inc()
            await websocket.close(code=4403)  # before the handshake's answer: the browser gets a 403
            return
        await websocket.accept()
        try:
            hello = await asyncio.wait_for(read_frame(websocket), HELLO_SECONDS)
        except (TimeoutError, WebError, WebSocketDisconnect):
            await refuse(websocket, "no-hello", 'Say hello first: {"type": "hello", "token": …}.', 4400)
            return
        try:
            table = await hub.reach(websocket.path_params["table"])
        except Elsewhere as elsewhere:
            await refuse(websocket, elsewhere.code, str(elsewhere), 4421, node=elsewhere.node)
            return
        except WebError as error:
            close_code = 4410 if error.code == "damaged" else 4404
            await refuse(websocket, error.code, str(error), close_code)
            return
        token = hello.get("token")
        seat = table.seat_of(token) if token is not None else None
        if token is not None and seat is None:
            await refuse(websocket, "bad-token", "This link is not a seat at this table.", 4403)
            return
        player = await player_of(websocket, hub.players)
        if token is None:  # a player's own seat opens without its link
            seat = table.seat_of_player(player.id) if player is not None else None
        network = None
        if seat is not None and table.setup.get("rated"):  # one person in two browsers may not rate themselves
            network = await asyncio.to_thread(hub.marks.mark, client_address(websocket))
        watcher = Watcher(seat, websocket.send_json, close=lambda code: websocket.close(code=code), network=network)
        bucket = Bucket(frames_per_second)
        try:
            # Joining is inside the try: a client gone before its welcome arrives is still taken off the table.
            await hub.join(hub.tables.get(table.table_id, table), watcher, hello.get("version"))
            while True:
                try:
                    frame = await read_frame(websocket)
                    if watcher.replaced:  # the seat was opened elsewhere and this socket closed: its last frames go
                        continue
                    if not bucket.take():
                        raise WebError("slow-down", "Too many messages: slow down.")
                    await _handle(hub, hub.tables.get(table.table_id, table), watcher, frame, websocket, player)
                except WebError as error:
                    metrics.refused.labels(error.code).inc()
                    await _send_quietly(websocket, {"type": "error", "code": error.code, "message": str(error)})
        except (WebSocketDisconnect, RuntimeError):  # gone, or closed by the hub (the table moved)
            pass
        finally:
            current = hub.tables.get(table.table_id, table)
            await hub.leave(current, watcher)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        resumed = hub.resume_all()
        log.info("racko serve started: node %s, tables in %s, %d resumed", store.node or "-", store.describe(), resumed)
        keeper = asyncio.create_task(hub.keep())
        lobby_task = asyncio.create_task(lobby.run())
        collector = asyncio.create_task(keep_collections_short()) if short_collections else None
        yield
        running["closing"] = True
        keeper.cancel()
        lobby_task.cancel()
        if collector is not None:
            collector.cancel()
        await hub.close()
        reviews.close()
        log.info("racko serve stopped: every table handed on")

    app = Starlette(
        routes=[
            Route("/new", start_page),
            *lobby_room.routes(lobby, allowed, frames_per_second),
            *me_room.routes(
                hub.players,
                allowed,
                CreationLimit(new_tables_per_address, new_tables_in_all or ALL_ADDRESSES * new_tables_per_address),
                forgotten,
            ),
            *ratings_room.routes(ratings, hub.players),
            *learn_room.routes(),
            *puzzles_room.routes(allowed),
            *review_room.routes(reviews, store, ratings.record, hub.players, allowed),
            Route("/t/{table}", table_page),
            Route("/api/options", options),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table}/record", record),
            Route("/healthz", health),
            Route("/metrics", metrics_page),
            WebSocketRoute("/ws/{table}", table_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(_HeadersOnEveryResponse)],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.lobby = lobby
    app.state.ratings = ratings
    app.state.reviews = reviews
    app.state.metrics = metrics
    return app


async def _maker(request: Request, hub: Hub, form: dict[str, Any]) -> list[Player | None] | None:
    """The player making a table sits in its ``me`` seat, which is then theirs without its link."""
    seats = form.get("seats")
    if not isinstance(seats, list) or "me" not in seats:
        return None
    maker = await player_of(request, hub.players)
    if maker is None:
        return None
    return [maker if part == "me" else None for part in seats]


async def _send_quietly(websocket: WebSocket, frame: dict[str, Any]) -> None:
    """Send a frame, unless the connection has just closed (its end is handled where it is read)."""
    with contextlib.suppress(Exception):
        await websocket.send_json(frame)


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int, **more: Any) -> None:
    """Say why the connection is refused, and close it; a client already gone needs neither."""
    try:
        await websocket.send_json({"type": "error", "code": code, "message": message, **more})
        await websocket.close(code=close_code)
    except Exception:  # already gone
        return


async def _handle(
    hub: Hub, table: Any, watcher: Watcher, frame: dict[str, Any], websocket: WebSocket, player: Player | None
) -> None:
    kind = frame["type"]
    seat = watcher.viewer
    if kind == "act":
        await hub.act(table, seat, frame.get("version"), frame.get("action"))
    elif kind == "name":
        await hub.name(table, seat, frame.get("name"), player, client_address(websocket))
    elif kind == "hint":
        choices = await hub.hint(table, seat)
        await _send_quietly(websocket, {"type": "hint", "choices": choices})
    elif kind == "hand-over":
        await hub.hand_over(table, seat, frame.get("seat"), frame.get("bot"))
    elif kind == "again":
        await hub.again(table, seat)
    elif kind == "react":
        await hub.react(table, seat, frame.get("reaction"))
    elif kind == "presence":
        await _send_quietly(websocket, hub.presence(table))
    elif kind == "sync":
        seen = frame.get("version")
        watcher.version = seen if isinstance(seen, int) else 0
        await hub.bring(table, watcher)
    else:
        raise WebError("bad-frame", f"Unknown frame type {kind[:30]!r}.")
