"""The table room's routes: the start page (``/new``) and what it asks (``/api/options``, ``POST /api/tables``), the
table's page (``/t/{table}``: a seat's token travels in the link's fragment, ``#seat=…``, which browsers never send
in a request line or a Referer), its socket (``/ws/{table}``, docs/PROTOCOL.md) and its last finished game's record.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from racko import bots
from racko.play.session import bots_for, default_opponent
from racko.rules import VARIANTS
from racko.web.clock import DEFAULT_PRESET, PRESETS, TURN_PRESETS
from racko.web.core import (
    BODY_LIMIT,
    Bucket,
    CreationLimit,
    Refusal,
    TooBig,
    after_closing,
    answers_refusals,
    client_address,
    origin_allowed,
    page,
    read_body,
    read_frame,
    static_files,
)
from racko.web.ops import Metrics
from racko.web.players import Player, player_of
from racko.web.table.hub import Hub
from racko.web.table.registry import log
from racko.web.table.requests import ME, Asker, request_of_form
from racko.web.table.state import Elsewhere, Watcher

HELLO_SECONDS = 10.0


def routes(
    hub: Hub, metrics: Metrics, allowed: frozenset[str], creation: CreationLimit, frames_per_second: float
) -> list[BaseRoute]:
    """The table's routes; ``creation`` limits new tables from one address, ``frames_per_second`` each socket."""

    async def start_page(request: Request) -> Response:
        return page("table", "index.html", request)  # a new table (the lobby is the front page)

    async def table_page(request: Request) -> Response:
        return page("table", "table.html", request)

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
                # The real-time speeds a table may be made with (their numbers, for the pages to say them).
                "clocks": [preset.json() for preset in PRESETS.values()],
                # The turn-based speeds (days per move) a friends' table may have; quick play stays real time.
                "turn_clocks": [preset.json() for preset in TURN_PRESETS.values()],
                "default_clock": DEFAULT_PRESET,
            }
        )

    @answers_refusals
    async def create_table(request: Request) -> Response:
        if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), allowed):
            raise Refusal("origin", "Tables are made from this server's own start page.")
        address = request.client.host if request.client is not None else "?"
        if not creation.allows(address):
            raise Refusal(
                "too-many-tables", "Too many new tables at once: wait a minute, then try again.", retry_after=60
            )
        try:
            body = await read_body(request, BODY_LIMIT)
        except TooBig:
            raise Refusal("too-big", "The settings are too long.") from None
        try:
            form = json.loads(body)
        except (ValueError, RecursionError):
            raise Refusal("bad-form", "The settings are not JSON.") from None
        if not isinstance(form, dict):
            raise Refusal("bad-form", "The table's settings are a JSON object.")
        seats = form.get("seats")
        maker = await player_of(request, hub.players) if isinstance(seats, list) and ME in seats else None
        table_request = await request_of_form(form, Asker.page(maker), address, _bot_named(hub))
        try:
            links = await hub.create(table_request)
        except Refusal:
            raise
        except Exception as error:  # the database refused the new table
            log.warning("a new table could not be kept: %s", error)
            raise Refusal("not-saved", "The table could not be kept: try again in a moment.") from None
        return JSONResponse(links)

    async def record(request: Request) -> Response:
        text = hub.record(request.path_params["table"])
        if text is None:
            return Refusal("not-found", "No finished game at this table yet.").response()
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="racko-game.json"'},
        )

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
        except (TimeoutError, Refusal, WebSocketDisconnect):
            await refuse(websocket, "no-hello", 'Say hello first: {"type": "hello", "token": …}.', 4400)
            return
        try:
            table = await hub.reach(websocket.path_params["table"])
        except Elsewhere as elsewhere:
            await refuse(websocket, elsewhere.code, str(elsewhere), 4421, node=elsewhere.node)
            return
        except Refusal as error:
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
        if player is not None:
            await hub.players.page_opened(player.id)
        try:
            # Joining is inside the try: a client gone before its welcome arrives is still taken off the table.
            await hub.join(hub.tables.get(table.table_id, table), watcher, hello.get("version"))
            await hub.note_network(hub.tables.get(table.table_id, table), watcher.viewer, watcher.network)
            while True:
                try:
                    frame = await read_frame(websocket)
                    if watcher.replaced:  # the seat was opened elsewhere and this socket closed: its last frames go
                        continue
                    if not bucket.take():
                        raise Refusal("slow-down", "Too many messages: slow down.")
                    await _handle(hub, hub.tables.get(table.table_id, table), watcher, frame, websocket, player)
                except Refusal as error:
                    metrics.refused.labels(error.code).inc()
                    await _send_quietly(websocket, error.frame())
        except (WebSocketDisconnect, RuntimeError):  # gone, or closed by the hub (the table moved)
            pass
        finally:

            async def leave_table() -> None:
                await hub.leave(hub.tables.get(table.table_id, table), watcher)

            async def close_page() -> None:
                if player is not None:
                    await hub.players.page_closed(player.id)

            await after_closing(leave_table, close_page)

    return [
        Route("/new", start_page),
        Route("/t/{table}", table_page),
        Route("/api/options", options),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}/record", record),
        WebSocketRoute("/ws/{table}", table_socket),
        static_files("table"),
    ]


def _bot_named(hub: Hub) -> Callable[[str], Awaitable[Player | None]]:
    async def named(name: str) -> Player | None:
        return await asyncio.to_thread(hub.players.bot_named, name[:40])

    return named


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
    elif kind == "back":
        if seat is None:
            raise Refusal("spectator", "Spectators have no seat to take back.")
        await hub.back(table, seat)
    elif kind in ("resign", "leave"):
        await hub.resign(table, seat, "resigned" if kind == "resign" else "left")
    elif kind == "abort":
        await hub.abort(table, seat)
    elif kind == "offer-end":
        await hub.offer_end(table, seat)
    elif kind in ("accept-end", "decline-end"):
        await hub.answer_end(table, seat, kind == "accept-end")
    elif kind == "react":
        await hub.react(table, seat, frame.get("reaction"))
    elif kind == "presence":
        await _send_quietly(websocket, hub.presence(table))
    elif kind == "sync":
        seen = frame.get("version")
        watcher.version = seen if isinstance(seen, int) else 0
        await hub.bring(table, watcher)
    else:
        raise Refusal("bad-frame", f"Unknown frame type {kind[:30]!r}.")
