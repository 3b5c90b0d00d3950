"""The Bot API's routes (docs/BOTS.md, protocol ``v1``): a bot account's token in ``Authorization: Bearer``; its
events and its seat's game as newline-delimited JSON streams with keep-alive lines; a move posted in the record
format with the version it was chosen at, played through the table room's one path for moves (:meth:`TableRoom.act`:
the same refusals, clocks and gone seats as a person's), and the same ways out of a game as a person's."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from racko.observation_json import observation_to_json
from racko.web.bots.access import BotLimits, bot_of, posted_object
from racko.web.core import Refusal, after_closing
from racko.web.players import Player, Players
from racko.web.table import WAYS, Asker, Elsewhere, Table, TableNews, TableRoom, Watcher, request_of_form

PROTOCOL = "v1"
"""The version of the Bot API (docs/BOTS.md); every stream's first line and the account say it."""
KEEP_ALIVE_SECONDS = 7.0
"""A stream with nothing to say sends an empty line this often, so that proxies and clients know it is alive."""
BOT_ACCOUNT = "bot-account"


class BotEvents:
    """Each bot account's event streams in this process, and what they are told: a game started at a table where the
    account sits (``gameStart``), a game there finished (``gameFinish``).  It follows the tables as the lobby does
    (:attr:`TableRoom.tables_changed`)."""

    def __init__(self, hub: TableRoom) -> None:
        self.hub = hub
        self.streams: dict[str, set[asyncio.Queue[dict[str, Any]]]] = {}
        self.told: set[tuple[str, str, int, str]] = set()
        """(player, table, game, type): each event once per process."""
        self.on_open: list[Callable[[Player, Callable[[dict[str, Any]], None]], Awaitable[None]]] = []
        """What other parts of the room do when a bot's event stream opens (with a way to tell that stream alone):
        the challenges still open for it are told again."""
        self.on_last_close: list[Callable[[Player], Awaitable[None]]] = []
        """What they do when a bot's last event stream here closes: its seeks end."""
        hub.tables_changed.subscribe(self.table_changed)

    def tell(self, player_id: str, event: dict[str, Any]) -> None:
        """An event to every event stream the bot account has open here."""
        for queue in self.streams.get(player_id, set()):
            queue.put_nowait(event)

    def listening(self, player_id: str) -> bool:
        """Whether the bot account has an event stream open here."""
        return bool(self.streams.get(player_id))

    async def opened(self, bot: Player, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """A bot's event stream opened: the bot is online (the lobby lists it) while one is open."""
        first = not self.streams.get(bot.id)
        self.streams.setdefault(bot.id, set()).add(queue)  # at once: nothing told meanwhile is missed
        if first:
            await self.hub.players.page_opened(bot.id)
        for hook in self.on_open:
            await hook(bot, queue.put_nowait)

    async def closed(self, bot: Player, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self.streams.get(bot.id, set()).discard(queue)
        if not self.streams.get(bot.id):
            self.streams.pop(bot.id, None)
            await self.hub.players.page_closed(bot.id)
            for hook in self.on_last_close:
                await hook(bot)

    async def table_changed(self, news: TableNews) -> None:
        setup = news.setup
        for seat, spec in enumerate(setup.seats):
            player = spec.player
            if not spec.bot_account or player is None:
                continue
            kind = "gameFinish" if news.over else "gameStart"
            key = (player, news.table_id, setup.game, kind)
            if key in self.told:
                continue
            self.told.add(key)
            event = {"type": kind, "table": news.table_id, "game": setup.game, "seat": seat}
            for queue in self.streams.get(player, set()):
                queue.put_nowait(event)


def routes(
    hub: TableRoom, events: BotEvents, keep_alive: float = KEEP_ALIVE_SECONDS, limits: BotLimits | None = None
) -> list[BaseRoute]:
    """The Bot API's routes; ``keep_alive``: seconds between two keep-alive lines of a quiet stream; ``limits``: the
    operator's limits per token (default: :mod:`.access`'s)."""
    players: Players = hub.players
    limits = limits or BotLimits(players)

    async def bot_of_request(request: Request) -> Player:
        return await bot_of(request, players, limits)

    async def seat_at(table_id: str, bot: Player) -> tuple[Table, int]:
        try:
            table = await hub.reach(table_id)
        except Elsewhere as elsewhere:
            raise Refusal("elsewhere", f"{elsewhere} (node {elsewhere.node})", node=elsewhere.node) from None
        seat = table.seat_of_player(bot.id)
        if seat is None:
            raise Refusal("not-your-seat", "This bot has no seat at this table.")
        return table, seat

    async def account(request: Request) -> Response:
        try:
            bot = await bot_of_request(request)
        except Refusal as refusal:
            return refusal.response()
        return JSONResponse({"id": bot.id, "name": bot.name, "bot": True, "protocol": PROTOCOL})

    async def event_stream(request: Request) -> Response:
        try:
            bot = await bot_of_request(request)
            seats = await asyncio.to_thread(players.seats_of, bot.id)
        except Refusal as refusal:
            return refusal.response()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        told: set[str] = set()
        """The tables under way this stream said ``gameStart`` for (the store's list is read again against it)."""

        def tell_seats(lines: list[dict[str, Any]]) -> None:
            for line in lines:
                if line["table"] not in told:
                    told.add(line["table"])
                    queue.put_nowait({"type": "gameStart", "table": line["table"], "seat": line["seat"], "game": None})

        tell_seats(seats)  # the games under way where it sits, first
        await events.opened(bot, queue)

        async def lines() -> AsyncIterator[str]:
            try:
                yield json.dumps({"type": "hello", "protocol": PROTOCOL, "bot": bot.name}) + "\n"
                looked = asyncio.get_running_loop().time()
                while True:
                    now = asyncio.get_running_loop().time()
                    if now - looked >= keep_alive:
                        # A table another server process made (the ladder's, a person's there) is told by that
                        # process, which has no stream of this bot: the store's list of its seats is read again.
                        looked = now
                        with contextlib.suppress(Exception):  # the store's answer is a help; the stream goes on
                            tell_seats(await asyncio.to_thread(players.seats_of, bot.id))
                    try:
                        event = await asyncio.wait_for(queue.get(), max(0.0, keep_alive - (now - looked)))
                    except TimeoutError:
                        yield "\n"
                        continue
                    if event["type"] == "gameStart":  # kept after its game ends: the store may list a seat at a
                        told.add(str(event["table"]))  # table just finished a moment longer, never told twice
                    yield json.dumps(event) + "\n"
            finally:
                with contextlib.suppress(Exception):
                    await after_closing(lambda: events.closed(bot, queue))

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    async def game_stream(request: Request) -> Response:
        table_id = request.path_params["table"]
        try:
            bot = await bot_of_request(request)
            since = _since(request.query_params.get("since"))
            table, seat = await seat_at(table_id, bot)
        except Refusal as refusal:
            return refusal.response()
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

        async def send(frame: dict[str, Any]) -> None:
            line = frame  # each frame is built for this watcher alone: the observation is added to it
            if line["type"] == "welcome":
                line = {"type": "game", "protocol": PROTOCOL, "table": table_id, "seat": seat} | {
                    key: frame[key] for key in ("setup", "game", "away_seconds")
                }
            elif line["type"] == "state" and watcher.viewer is not None:
                # Built now, before any other await: the view of the same version, the seat's own observation in
                # the engine's terms (racko.observation_json), which racko's bots and any policy decide from.
                now = hub.tables.get(table_id, table)
                line["observation"] = observation_to_json(now.session.observation(watcher.viewer))
            queue.put_nowait(line)

        async def close(code: int) -> None:
            queue.put_nowait(None)

        watcher = Watcher(seat, send, close=close)

        async def lines() -> AsyncIterator[str]:
            try:
                await hub.join(hub.tables.get(table_id, table), watcher, since)
                while True:
                    try:
                        line = await asyncio.wait_for(queue.get(), keep_alive)
                    except TimeoutError:
                        yield "\n"
                        continue
                    if line is None:  # the seat was opened on another stream, or the table moved: reconnect
                        return
                    yield json.dumps(line) + "\n"
                    if line["type"] == "state" and (line["view"]["over"] or watcher.viewer is None):
                        # over, or the bot resigned or left: its seat is a computer's now, and its stream ends
                        finish = {"type": "gameFinish", "table": table_id, "version": line["version"]}
                        if watcher.viewer is None:
                            finish["left"] = True
                        yield json.dumps(finish) + "\n"
                        return
            finally:

                async def leave() -> None:
                    await hub.leave(hub.tables.get(table_id, table), watcher)

                with contextlib.suppress(Exception):
                    await after_closing(leave)

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    async def move(request: Request) -> Response:
        table_id = request.path_params["table"]
        try:
            bot = await bot_of_request(request)
            body = await posted_object(
                request,
                too_big="A move is at most 4 KiB.",
                not_json="A move is a JSON object.",
                not_object='A move is {"version": V, "action": {...}}.',
            )
            table, seat = await seat_at(table_id, bot)
            await hub.act(hub.tables.get(table_id, table), seat, body.get("version"), body.get("action"))
        except Refusal as refusal:
            return refusal.response()
        return JSONResponse({"ok": True, "version": hub.tables.get(table_id, table).version})

    async def way_out(request: Request) -> Response:
        """A way out of the bot's game, as a person's: resign, leave, abort, offer to end, accept or decline the
        standing offer, or take a gone seat back (docs/BOTS.md)."""
        table_id, way = request.path_params["table"], request.path_params["way"]
        try:
            bot = await bot_of_request(request)
            if way not in WAYS:
                raise Refusal("no-route", f"A game's way out is one of {', '.join(WAYS)}.")
            await posted_object(
                request,
                too_big="The body is at most 4 KiB.",
                not_json="The body is a JSON object.",
                not_object="The body is a JSON object.",
                empty=b"{}",
            )
            table, seat = await seat_at(table_id, bot)
            await hub.way(hub.tables.get(table_id, table), seat, way)
        except Refusal as refusal:
            return refusal.response()
        return JSONResponse({"ok": True, "version": hub.tables.get(table_id, table).version})

    async def make_table(request: Request) -> Response:
        """A bot's own table (its seat ``me``, seated by its token), made as the start page makes one: its people's
        seats have links (for the bot's operator to send), its computer levels play at once."""
        try:
            bot = await bot_of_request(request)
            form = await posted_object(
                request,
                too_big="The settings are at most 4 KiB.",
                not_json="The table's settings are a JSON object.",
                not_object="The table's settings are a JSON object.",
            )

            async def bot_named(name: str) -> Player | None:
                return await asyncio.to_thread(players.bot_named, name[:40])

            links = await hub.create(await request_of_form(form, Asker.bot(bot), None, bot_named))
        except Refusal as refusal:
            return refusal.response()
        return JSONResponse(links, headers={"Cache-Control": "no-store"})  # the people's links are in it

    return [
        Route("/api/bot/account", account),
        Route("/api/bot/tables", make_table, methods=["POST"]),
        Route("/api/bot/stream/event", event_stream),
        Route("/api/bot/game/stream/{table}", game_stream),
        Route("/api/bot/game/{table}/move", move, methods=["POST"]),
        Route("/api/bot/game/{table}/{way}", way_out, methods=["POST"]),
    ]


def _since(text: str | None) -> int:
    if text is None:
        return 0
    if not text.isdigit() or len(text) > 12:
        raise Refusal("bad-since", "since is the last version (sequence number) the bot was sent.")
    return int(text)
