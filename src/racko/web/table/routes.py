"""The table room's routes: the start page (``/new``) and what it asks (``/api/options``, ``POST /api/tables``), the
table's page (``/t/{table}``: a seat's token travels in the link's fragment, ``#seat=…``, which browsers never send
in a request line or a Referer), its socket (``/ws/{table}``, docs/PROTOCOL.md) and its last finished game's record.
Each route is a named handler of :class:`TableRoutes`; a socket's frames go to small named handlers, one per frame
type (:data:`FRAMES`), which reach the table room's part that does it (its moves, ways out, seating, watching)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
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
from racko.web.table.registry import log
from racko.web.table.requests import ME, Asker, request_of_form
from racko.web.table.room import TableRoom
from racko.web.table.seats import COMPUTER_PLAYS
from racko.web.table.table import Elsewhere, Table, Watcher

HELLO_SECONDS = 10.0


@dataclass
class Connection:
    """One socket at a table: the room, the table it reached, its watcher (who it sees the table as), its player."""

    room: TableRoom
    table: Table
    watcher: Watcher
    websocket: WebSocket
    player: Player | None

    @property
    def now(self) -> Table:
        """The table as it is now (it may have been opened again since the socket reached it)."""
        return self.room.registry.tables.get(self.table.table_id, self.table)

    @property
    def seat(self) -> int | None:
        return self.watcher.viewer

    async def answer(self, frame: dict[str, Any]) -> None:
        """A frame to this socket only, unless it has just closed (its end is handled where it is read)."""
        with contextlib.suppress(Exception):
            await self.websocket.send_json(frame)

    async def leave(self) -> None:
        """Off the table: the lobby lists a game to watch only while its people have it open."""
        await self.room.leave(self.now, self.watcher)

    async def page_closed(self) -> None:
        if self.player is not None:
            await self.room.players.page_closed(self.player.id)


async def act(connection: Connection, frame: dict[str, Any]) -> None:
    await connection.room.moves.act(connection.now, connection.seat, frame.get("version"), frame.get("action"))


async def name(connection: Connection, frame: dict[str, Any]) -> None:
    address = client_address(connection.websocket)
    seating = connection.room.seating
    await seating.name(connection.now, connection.seat, frame.get("name"), connection.player, address)


async def hint(connection: Connection, frame: dict[str, Any]) -> None:
    choices = await connection.room.moves.hint(connection.now, connection.seat)
    await connection.answer({"type": "hint", "choices": choices})


async def hand_over(connection: Connection, frame: dict[str, Any]) -> None:
    await connection.room.ways.hand_over(connection.now, connection.seat, frame.get("seat"), frame.get("bot"))


async def again(connection: Connection, frame: dict[str, Any]) -> None:
    await connection.room.seating.again(connection.now, connection.seat)


async def way_out(connection: Connection, frame: dict[str, Any]) -> None:
    """Resign, leave, abort, offer to end, accept or decline it, or "I'm back" (the frame's type names it)."""
    await connection.room.ways.take(connection.now, connection.seat, str(frame["type"]))


async def react(connection: Connection, frame: dict[str, Any]) -> None:
    await connection.room.moves.react(connection.now, connection.seat, frame.get("reaction"))


async def presence(connection: Connection, frame: dict[str, Any]) -> None:
    await connection.answer(connection.room.watching.presence(connection.now))


async def sync(connection: Connection, frame: dict[str, Any]) -> None:
    seen = frame.get("version")
    connection.watcher.version = seen if isinstance(seen, int) else 0
    await connection.room.watching.bring(connection.now, connection.watcher)


FRAMES: dict[str, Callable[[Connection, dict[str, Any]], Awaitable[None]]] = {
    "act": act,
    "name": name,
    "hint": hint,
    "hand-over": hand_over,
    "again": again,
    "resign": way_out,
    "leave": way_out,
    "abort": way_out,
    "offer-end": way_out,
    "accept-end": way_out,
    "decline-end": way_out,
    "back": way_out,
    "react": react,
    "presence": presence,
    "sync": sync,
}
"""Each frame a client may send, and its handler (docs/PROTOCOL.md lists them)."""


class TableRoutes:
    """The table's routes: each a named handler; ``creation`` limits new tables from one address,
    ``frames_per_second`` each socket."""

    def __init__(
        self,
        room: TableRoom,
        metrics: Metrics,
        allowed: frozenset[str],
        creation: CreationLimit,
        frames_per_second: float,
    ) -> None:
        self.room = room
        self.metrics = metrics
        self.allowed = allowed
        self.creation = creation
        self.frames_per_second = frames_per_second

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/new", self.start_page),
            Route("/t/{table}", self.table_page),
            Route("/api/options", self.options),
            Route("/api/tables", answers_refusals(self.create_table), methods=["POST"]),
            Route("/api/tables/{table}/record", self.record),
            WebSocketRoute("/ws/{table}", self.table_socket),
            static_files("table"),
        ]

    async def start_page(self, request: Request) -> Response:
        return page("table", "index.html", request)  # a new table (the lobby is the front page)

    async def table_page(self, request: Request) -> Response:
        return page("table", "table.html", request)

    async def options(self, request: Request) -> Response:
        return JSONResponse(_options())

    async def create_table(self, request: Request) -> Response:
        if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), self.allowed):
            raise Refusal("origin", "Tables are made from this server's own start page.")
        address = request.client.host if request.client is not None else "?"
        if not self.creation.allows(address):
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
        room = self.room
        seats = form.get("seats")
        maker = await player_of(request, room.players) if isinstance(seats, list) and ME in seats else None
        table_request = await request_of_form(form, Asker.page(maker), address, self._bot_named)
        try:
            links = await room.create(table_request)
        except Refusal:
            raise
        except Exception as error:  # the database refused the new table
            log.warning("a new table could not be kept: %s", error)
            raise Refusal("not-saved", "The table could not be kept: try again in a moment.") from None
        return JSONResponse(links)

    async def _bot_named(self, name: str) -> Player | None:
        return await asyncio.to_thread(self.room.players.bot_named, name[:40])

    async def record(self, request: Request) -> Response:
        text = self.room.record(request.path_params["table"])
        if text is None:
            return Refusal("not-found", "No finished game at this table yet.").response()
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="racko-game.json"'},
        )

    async def refuse(self, websocket: WebSocket, refusal: Refusal, close_code: int) -> None:
        """Say why the connection is refused, and close it; a client already gone needs neither."""
        self.metrics.refused.labels(refusal.code).inc()
        try:
            await websocket.send_json(refusal.frame())
            await websocket.close(code=close_code)
        except Exception:  # already gone
            return

    async def table_socket(self, websocket: WebSocket) -> None:
        room, metrics = self.room, self.metrics
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), self.allowed):
            metrics.refused.labels("origin").inc()
            await websocket.close(code=4403)  # before the handshake's answer: the browser gets a 403
            return
        await websocket.accept()
        connection = await _connect(room, websocket, self.refuse)
        if connection is None:
            return
        bucket = Bucket(self.frames_per_second)
        player = connection.player
        if player is not None:
            await room.players.page_opened(player.id)
        try:
            # Joining is inside the try: a client gone before its welcome arrives is still taken off the table.
            await room.join(connection.now, connection.watcher, connection.watcher.version)
            await room.seating.note_network(connection.now, connection.seat, connection.watcher.network)
            while True:
                try:
                    frame = await read_frame(websocket)
                    if connection.watcher.replaced:  # the seat was opened elsewhere and this socket closed
                        continue
                    if not bucket.take():
                        raise Refusal("slow-down", "Too many messages: slow down.")
                    handler = FRAMES.get(str(frame["type"]))
                    if handler is None:
                        raise Refusal("bad-frame", f"Unknown frame type {str(frame['type'])[:30]!r}.")
                    await handler(connection, frame)
                except Refusal as refusal:
                    metrics.refused.labels(refusal.code).inc()
                    await connection.answer(refusal.frame())
        except (WebSocketDisconnect, RuntimeError):  # gone, or closed by the room (the table moved)
            pass
        finally:
            await after_closing(connection.leave, connection.page_closed)


async def _connect(
    room: TableRoom, websocket: WebSocket, refuse: Callable[[WebSocket, Refusal, int], Awaitable[None]]
) -> Connection | None:
    """The socket's hello read, its table reached and its seat found (a link's token, or the player's own seat);
    ``None`` once it was refused with the reason and closed.  A person whose seat a computer player took (they
    resigned, left, or were handed over) watches, and is told why."""
    try:
        hello = await asyncio.wait_for(read_frame(websocket), HELLO_SECONDS)
    except (TimeoutError, Refusal, WebSocketDisconnect):
        await refuse(websocket, Refusal("no-hello", 'Say hello first: {"type": "hello", "token": …}.'), 4400)
        return None
    try:
        table = await room.reach(websocket.path_params["table"])
    except Elsewhere as elsewhere:
        await refuse(websocket, elsewhere, 4421)
        return None
    except Refusal as refusal:
        await refuse(websocket, refusal, 4410 if refusal.code == "damaged" else 4404)
        return None
    token = hello.get("token")
    seat = table.seat_of(token) if token is not None else None
    if token is not None and seat is None:
        await refuse(websocket, Refusal("bad-token", "This link is not a seat at this table."), 4403)
        return None
    player = await player_of(websocket, room.players)
    if token is None and player is not None:  # a player's own seat opens without its link
        seat = table.seat_of_player(player.id)
    former = None
    if seat is not None and table.seats.state(seat) in COMPUTER_PLAYS:  # a computer took it: they watch
        seat, former = None, seat
    network = None
    if seat is not None and table.setup.rated:  # one person in two browsers may not rate themselves
        network = await asyncio.to_thread(room.marks.mark, client_address(websocket))
    watcher = Watcher(seat, websocket.send_json, close=lambda code: websocket.close(code=code), network=network)
    watcher.former = former
    version = hello.get("version")
    watcher.version = version if isinstance(version, int) else 0
    return Connection(room, table, watcher, websocket, player)


def _options() -> dict[str, Any]:
    """What the start page offers: the variants, the computer players, the speeds."""
    return {
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
