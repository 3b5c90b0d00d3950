"""The Bot API's routes (docs/BOTS.md, protocol ``v2``): a bot account's token in ``Authorization: Bearer``; its
events and its seat's game as newline-delimited JSON streams with keep-alive lines; a move posted in the record
format with the version it was chosen at, played through the table room's one path for moves (:meth:`TableRoom.act`:
the same refusals, clocks and gone seats as a person's), and the same ways out of a game as a person's.

Across server processes (:class:`BotEvents`): each event stream is noted in the store (at most
:data:`~racko.web.bots.access.EVENT_STREAMS` a token: a newer one ends the oldest, wherever it is), events for a bot
whose stream is at another process go through the store (``racko_bot_events``), and a keeper reads the store every
:data:`POLL_SECONDS`: the tokens this process knows that were revoked (their streams end), its streams another
process ended, the events for its bots, and what the challenges and seeks need (:attr:`BotEvents.pollers`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from racko.observation_json import observation_to_json
from racko.web.bots.access import BotLimits, bot_of, posted_object
from racko.web.core import Refusal, after_closing, answers_refusals
from racko.web.players import Player, Players, key_hash
from racko.web.store import Rows
from racko.web.table import (
    PLACE_FIELDS,
    WAYS,
    Asker,
    Elsewhere,
    Table,
    TableNews,
    TableRoom,
    Watcher,
    place_index,
    request_of_form,
)

PROTOCOL = "v2"
"""The version of the Bot API (docs/BOTS.md); every stream's first line and the account say it."""
PROTOCOLS = ("v1", PROTOCOL)
"""The versions a game's stream speaks (``?protocol=``): v1 named a rack's place in the log by its index."""
KEEP_ALIVE_SECONDS = 7.0
"""A stream with nothing to say sends an empty line this often, so that proxies and clients know it is alive."""
POLL_SECONDS = 0.5
"""How often each process reads the store for what other processes did (revoked tokens, ended streams, events)."""
HEARTBEAT_SECONDS = 10.0
"""How often each process notes its event streams alive in the store, and sweeps what is gone."""
STALE_SECONDS = 30.0
"""An event stream whose process has not noted it alive for this long is gone (the process stopped)."""
SEATS_SECONDS = 30.0
"""With several processes, how often an event stream reads the store's list of its bot's seats again (a game made at
another process is told through the store at once; this is the net under it)."""
EVENTS_KEPT_SECONDS = 60.0
"""How long an event waits in the store for the processes to read it."""
OVERLAP_SECONDS = 5.0
"""Each read of the events looks this far back before the last one (a write that committed late is not missed; the
events already told are told once)."""
BOT_ACCOUNT = "bot-account"
log = logging.getLogger("racko.serve")

Line = dict[str, Any] | None
"""What a stream's queue carries: a line to send, or None: the stream ends."""


@dataclass(eq=False)
class Stream:
    """A stream open in this process: its bot, the hash of the token it was opened with, and its queue."""

    stream_id: str
    bot: Player
    hashed: str
    queue: asyncio.Queue[Line]
    events: bool
    """An event stream (noted in the store, limited per token); else a game stream."""
    opened: float = field(default_factory=time.monotonic)

    def end(self, reason: str) -> None:
        """The stream's last line says why it ends (``revoked``: its token; ``replaced``: a newer event stream)."""
        self.queue.put_nowait({"type": "streamEnded", "reason": reason})
        self.queue.put_nowait(None)


def listening_in(rows: Rows, bot_id: str, now: float) -> bool:
    """Whether the bot has an event stream open in any process (read in the caller's transaction)."""
    return bool(rows("SELECT 1 FROM racko_bot_streams WHERE player_id = ? AND seen > ?", (bot_id, now - STALE_SECONDS)))


def publish(rows: Rows, player_id: str, event: dict[str, Any]) -> str:
    """An event for a bot, kept in the store for whichever process has its event stream (in the caller's
    transaction); its id, for :meth:`BotEvents.told_here`."""
    event_id = secrets.token_urlsafe(9)
    rows(
        "INSERT INTO racko_bot_events (event_id, player_id, event, made) VALUES (?, ?, ?, ?)",
        (event_id, player_id, json.dumps(event), time.time()),
    )
    return event_id


@dataclass
class Poller:
    """What another part of the room reads in the keeper's transaction, and does with it afterwards."""

    read: Callable[[Rows], Any]
    then: Callable[[Any], Awaitable[None]]


class BotEvents:
    """Each bot account's streams in this process, and what they are told: a game started at a table where the
    account sits (``gameStart``), a game there finished (``gameFinish``), the challenges.  It follows the tables as
    the lobby does (:attr:`TableRoom.tables_changed`), and keeps this process in step with the others (:meth:`keep`)."""

    def __init__(self, hub: TableRoom, limits: BotLimits | None = None) -> None:
        self.hub = hub
        self.store = hub.store
        self.limits = limits or BotLimits(hub.players)
        self.node = f"{self.store.node or 'local'}:{secrets.token_hex(4)}"
        """This run of this process, as its streams are noted in the store."""
        self.streams: dict[str, set[asyncio.Queue[Line]]] = {}
        """Each bot's event streams here (the bot is online while it has one anywhere)."""
        self.open: dict[str, Stream] = {}
        """Every stream here, event and game streams, by id."""
        self.told: set[tuple[str, str, int, str]] = set()
        """(player, table, game, type): each event once per process."""
        self.delivered: dict[str, float] = {}
        """The events from the store told here already (by id), and when."""
        self.polled_to = time.time() - OVERLAP_SECONDS
        self.beat = 0.0
        self.on_open: list[Callable[[Player, Callable[[dict[str, Any]], None]], Awaitable[None]]] = []
        """What other parts of the room do when a bot's event stream opens (with a way to tell that stream alone):
        the challenges still open for it are told again."""
        self.on_last_close: list[Callable[[Player], Awaitable[None]]] = []
        """What they do when a bot's last event stream here closes: its seeks end (if it has none elsewhere)."""
        self.pollers: list[Poller] = []
        """What the challenges and the seeks read at each of the keeper's looks."""
        self.sweepers: list[Callable[[Rows, float], None]] = []
        """What they sweep at each heartbeat (in its transaction; the server's clock)."""
        hub.tables_changed.subscribe(self.table_changed)

    # --- telling ----------------------------------------------------------------------------------------

    def tell(self, player_id: str, event: dict[str, Any]) -> None:
        """An event to every event stream the bot account has open here."""
        for queue in self.streams.get(player_id, set()):
            queue.put_nowait(event)

    def told_here(self, told: list[tuple[str, str, dict[str, Any]]]) -> None:
        """Events just published (``(event_id, player_id, event)``, committed): told to the streams here at once,
        and passed over when the keeper reads them back."""
        now = time.time()
        for event_id, player_id, event in told:
            self.delivered[event_id] = now
            self.tell(player_id, event)

    def listening(self, player_id: str) -> bool:
        """Whether the bot account has an event stream open here."""
        return bool(self.streams.get(player_id))

    # --- streams ----------------------------------------------------------------------------------------

    def _note_stream(self, stream: Stream) -> list[str]:
        """Note a new event stream in the store (blocks); the ids of the bot's streams it ends (beyond the limit,
        the oldest first)."""
        now = time.time()

        def work(rows: Rows) -> list[str]:
            rows("UPDATE racko_bot_accounts SET created = created WHERE player_id = ?", (stream.bot.id,))  # a lock
            rows(
                "INSERT INTO racko_bot_streams (stream_id, player_id, token_hash, node, opened, seen) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (stream.stream_id, stream.bot.id, stream.hashed, self.node, now, now),
            )
            live = rows(
                "SELECT stream_id FROM racko_bot_streams WHERE player_id = ? AND seen > ? "
                "ORDER BY opened DESC, stream_id",
                (stream.bot.id, now - STALE_SECONDS),
            )
            ended = [str(stream_id) for (stream_id,) in live if stream_id != stream.stream_id]
            ended = ended[max(0, self.limits.event_streams - 1) :]
            for stream_id in ended:
                rows("DELETE FROM racko_bot_streams WHERE stream_id = ?", (stream_id,))
            return ended

        return self.store.run(work, durable=False)

    async def opened(self, stream: Stream) -> None:
        """A bot's stream opened here.  An event stream is noted in the store (the oldest beyond the limit ends,
        here at once, elsewhere at that process's next look), and the bot is online while one is open."""
        self.open[stream.stream_id] = stream
        if not stream.events:
            return
        bot = stream.bot
        first = not self.streams.get(bot.id)
        self.streams.setdefault(bot.id, set()).add(stream.queue)  # at once: nothing told meanwhile is missed
        for ended in await asyncio.to_thread(self._note_stream, stream):
            if ended in self.open:
                self.open[ended].end("replaced")
        if first:
            await self.hub.players.page_opened(bot.id)
        for hook in self.on_open:
            await hook(bot, stream.queue.put_nowait)

    async def closed(self, stream: Stream) -> None:
        self.open.pop(stream.stream_id, None)
        if not stream.events:
            return
        bot = stream.bot
        self.streams.get(bot.id, set()).discard(stream.queue)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(
                self.store.run,
                lambda rows: rows("DELETE FROM racko_bot_streams WHERE stream_id = ?", (stream.stream_id,)),
                durable=False,
            )
        if not self.streams.get(bot.id):
            self.streams.pop(bot.id, None)
            await self.hub.players.page_closed(bot.id)
            for hook in self.on_last_close:
                await hook(bot)

    # --- the tables -------------------------------------------------------------------------------------

    async def table_changed(self, news: TableNews) -> None:
        setup = news.setup
        told: list[tuple[str, dict[str, Any]]] = []
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
            self.tell(player, event)
            told.append((player, event))
        if told and self.store.shared:  # another process may hold the bot's event stream: through the store

            def work(rows: Rows) -> list[str]:
                return [publish(rows, player, event) for player, event in told]

            with contextlib.suppress(Exception):  # the store's list of seats tells them at the next keep-alive
                now = time.time()
                for event_id in await asyncio.to_thread(self.store.run, work, durable=False):
                    self.delivered[event_id] = now

    # --- in step with the other processes ------------------------------------------------------------

    async def keep(self) -> None:
        """For the server's life: every :data:`POLL_SECONDS`, what the other processes did (:meth:`look`); every
        :data:`HEARTBEAT_SECONDS`, this process's event streams noted alive and what is gone swept.  A failure of
        either (the database away a moment) is logged, and the next turn tries again."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                await self.look()
            except Exception as error:
                log.warning("the Bot API could not read the store: %s: %s", type(error).__name__, error)
            if time.monotonic() - self.beat >= HEARTBEAT_SECONDS:
                self.beat = time.monotonic()
                try:
                    await asyncio.to_thread(self._heartbeat)
                except Exception as error:
                    log.warning("the Bot API could not note its streams: %s: %s", type(error).__name__, error)

    async def look(self) -> None:
        """One look at the store: tokens revoked (their streams end), this process's event streams ended elsewhere,
        the events for its bots, and the pollers' reads."""
        limits = self.limits
        checking = set(limits.known) | {stream.hashed for stream in self.open.values()}
        looked_at = time.monotonic()
        listening = set(self.streams)
        since = self.polled_to - OVERLAP_SECONDS
        started = time.time()

        def read(rows: Rows) -> tuple[Any, ...]:
            valid = limits.still_valid(rows, checking) if checking else {}
            alive = {
                str(row[0]) for row in rows("SELECT stream_id FROM racko_bot_streams WHERE node = ?", (self.node,))
            }
            events = (
                rows("SELECT event_id, player_id, event FROM racko_bot_events WHERE made > ?", (since,))
                if listening
                else []
            )
            return valid, alive, events, [poller.read(rows) for poller in self.pollers]

        # Read as this process writes (its own connection on SQLite: a stream it just noted is seen even before the
        # moves' group commit that the note joined), in a transaction that writes nothing.
        valid, alive, events, polled = await asyncio.to_thread(self.store.run, read, durable=False)
        self.polled_to = started
        limits.checked(valid)
        for stream in list(self.open.values()):
            if stream.opened > looked_at:
                continue  # opened while the store was read: the next look sees it
            if stream.hashed in checking and stream.hashed not in valid:
                stream.end("revoked")
            elif stream.events and stream.stream_id not in alive:
                stream.end("replaced")
        now = time.time()
        for event_id, player_id, text in events:
            if event_id in self.delivered or player_id not in self.streams:
                continue
            self.delivered[str(event_id)] = now
            with contextlib.suppress(ValueError):
                self.tell(str(player_id), json.loads(text))
        self.delivered = {key: at for key, at in self.delivered.items() if now - at < 2 * EVENTS_KEPT_SECONDS}
        for poller, result in zip(self.pollers, polled, strict=True):
            await poller.then(result)

    def _heartbeat(self) -> None:
        """This process's event streams noted alive; the streams of stopped processes, old events, full buckets and
        the sweepers' rows gone; the bots that made requests noted seen (blocks)."""
        now, clock = time.time(), self.limits.now()
        active, self.limits.active = sorted(self.limits.active), set()

        def work(rows: Rows) -> None:
            rows("UPDATE racko_bot_streams SET seen = ? WHERE node = ?", (now, self.node))
            rows("DELETE FROM racko_bot_streams WHERE seen < ?", (now - STALE_SECONDS,))
            rows("DELETE FROM racko_bot_events WHERE made < ?", (now - EVENTS_KEPT_SECONDS,))
            rows("DELETE FROM racko_bot_budgets WHERE stamp < ?", (clock - 60.0,))  # full again by now
            rows("DELETE FROM racko_bot_failures WHERE stamp < ?", (clock - 60.0,))
            for bot_id in active:
                rows("UPDATE racko_players SET seen = ? WHERE id = ?", (now, bot_id))
            for sweep in self.sweepers:
                sweep(rows, clock)

        self.store.run(work, durable=False)


class EventLines:
    """One bot's event stream (``/api/bot/stream/event``): the games it said ``gameStart`` for, and its lines."""

    def __init__(
        self, bot: Player, stream: Stream, events: BotEvents, players: Players, keep_alive: float, shared: bool
    ) -> None:
        self.bot = bot
        self.stream = stream
        self.events = events
        self.players = players
        self.keep_alive = keep_alive
        self.shared = shared
        self.told: dict[str, int | None] = {}
        """The tables this stream said ``gameStart`` for, with the game (None: a game under way, from the store's
        list of its seats, which is read again against it)."""
        self.finished: set[str] = set()
        """The tables whose game it said ``gameFinish`` for since (their next game is told)."""

    def tell_seats(self, seats: list[dict[str, Any]]) -> None:
        """The games under way where the bot sits (the store's list of its seats), each told once."""
        for line in seats:
            if line["table"] not in self.told:
                self.told[line["table"]] = None
                start = {"type": "gameStart", "table": line["table"], "seat": line["seat"], "game": None}
                self.stream.queue.put_nowait(start | {"new": True})

    def new_to_it(self, event: dict[str, Any]) -> bool:
        """Whether the stream says this event: a game's start told twice (by the process that plays the table,
        through the store, by the store's list of seats) is said once."""
        table, game = str(event.get("table")), event.get("game")
        if event["type"] == "gameFinish":
            self.finished.add(table)
        if event["type"] != "gameStart":
            return True
        told = self.told
        if game is not None and (table not in told or table in self.finished or told[table] not in (None, game)):
            told[table] = game
            self.finished.discard(table)
            return True
        return False

    async def lines(self) -> AsyncIterator[str]:
        keep_alive, queue = self.keep_alive, self.stream.queue
        try:
            yield json.dumps({"type": "hello", "protocol": PROTOCOL, "bot": self.bot.name}) + "\n"
            looked = listed = asyncio.get_running_loop().time()
            while True:
                now = asyncio.get_running_loop().time()
                if now - looked >= keep_alive:
                    looked = now
                if self.shared and now - listed >= SEATS_SECONDS:
                    # A table another server process made is told by that process through the store; the store's
                    # list of the bot's seats is read again now and then as well (one process alone makes every
                    # table it has: nothing to read).
                    listed = now
                    with contextlib.suppress(Exception):  # the store's answer is a help; the stream goes on
                        self.tell_seats(await asyncio.to_thread(self.players.seats_of, self.bot.id))
                try:  # asyncio.timeout: no task of its own per line, as wait_for makes (Python 3.11)
                    async with asyncio.timeout(max(0.0, keep_alive - (now - looked))):
                        event = await queue.get()
                except TimeoutError:
                    yield "\n"
                    continue
                if event is None:  # ended: its token revoked, or a newer stream took its place
                    return
                if event.pop("new", False) or self.new_to_it(event):
                    yield json.dumps(event) + "\n"
        finally:
            with contextlib.suppress(Exception):
                await after_closing(self.closed)

    async def closed(self) -> None:
        await self.events.closed(self.stream)


class GameLines:
    """A bot's seat's game stream (``/api/bot/game/stream/{table}``): the table's frames for its seat, each with
    the seat's own observation, as lines; it ends with the game, or when the bot's seat is no longer its own."""

    def __init__(
        self,
        hub: TableRoom,
        events: BotEvents,
        table: Table,
        seat: int,
        protocol: str,
        stream: Stream,
        since: int,
        keep_alive: float,
    ) -> None:
        self.hub = hub
        self.events = events
        self.table = table
        self.protocol = protocol
        self.seat = seat
        self.stream = stream
        self.since = since
        self.keep_alive = keep_alive
        self.watcher = Watcher(seat, self.send, close=self.close)

    @property
    def now(self) -> Table:
        """The table as it is now (it may have been opened again since the stream reached it)."""
        return self.hub.tables.get(self.table.table_id, self.table)

    async def send(self, frame: dict[str, Any]) -> None:
        line = frame  # each frame is built for this watcher alone: the observation is added to it
        table_id, viewer = self.table.table_id, self.watcher.viewer
        if line["type"] == "welcome":
            line = {"type": "game", "protocol": self.protocol, "table": table_id, "seat": self.seat} | {
                key: frame[key] for key in ("setup", "game", "away_seconds")
            }
        elif line["type"] == "state" and viewer is not None:
            # Built now, before any other await: the view of the same version, the seat's own observation in the
            # engine's terms (racko.observation_json), which racko's bots and any policy decide from.
            line["observation"] = observation_to_json(self.now.session.observation(viewer))
            if self.protocol == "v1":
                line = line | {"log": [_v1_entry(entry) for entry in line["log"]]}
        self.stream.queue.put_nowait(line)

    async def close(self, code: int) -> None:
        self.stream.queue.put_nowait(None)

    async def lines(self) -> AsyncIterator[str]:
        await self.events.opened(self.stream)
        table_id, watcher, queue = self.table.table_id, self.watcher, self.stream.queue
        try:
            await self.hub.join(self.now, watcher, self.since)
            while True:
                try:
                    async with asyncio.timeout(self.keep_alive):
                        line = await queue.get()
                except TimeoutError:
                    yield "\n"
                    continue
                if line is None:  # the seat opened on another stream, the table moved, the token revoked
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
            with contextlib.suppress(Exception):
                await after_closing(self.left)

    async def left(self) -> None:
        await self.hub.leave(self.now, self.watcher)
        await self.events.closed(self.stream)


class BotApi:
    """The Bot API's routes, each a named handler (a :class:`Refusal` it raises is its JSON answer); ``keep_alive``:
    seconds between two keep-alive lines of a quiet stream; ``limits``: the operator's limits per token (default: the
    events' own)."""

    def __init__(
        self, hub: TableRoom, events: BotEvents, keep_alive: float = KEEP_ALIVE_SECONDS, limits: BotLimits | None = None
    ) -> None:
        self.hub = hub
        self.events = events
        self.keep_alive = keep_alive
        self.limits = limits or events.limits
        self.players: Players = hub.players

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/bot/account", answers_refusals(self.account)),
            Route("/api/bot/tables", answers_refusals(self.make_table), methods=["POST"]),
            Route("/api/bot/stream/event", answers_refusals(self.event_stream)),
            Route("/api/bot/game/stream/{table}", answers_refusals(self.game_stream)),
            Route("/api/bot/game/{table}/move", answers_refusals(self.move), methods=["POST"]),
            Route("/api/bot/game/{table}/{way}", answers_refusals(self.way_out), methods=["POST"]),
        ]

    async def _bot(self, request: Request) -> Player:
        return await bot_of(request, self.players, self.limits)

    def _stream(self, request: Request, bot: Player, events_stream: bool) -> Stream:
        token = request.headers.get("authorization", "").partition(" ")[2].strip()
        queue: asyncio.Queue[Line] = asyncio.Queue()
        return Stream("s" + secrets.token_urlsafe(12), bot, key_hash(token), queue, events_stream)

    async def _seat_at(self, table_id: str, bot: Player) -> tuple[Table, int]:
        try:
            table = await self.hub.reach(table_id)
        except Elsewhere as elsewhere:
            raise Refusal("elsewhere", f"{elsewhere} (node {elsewhere.node})", node=elsewhere.node) from None
        seat = table.seat_of_player(bot.id)
        if seat is None:
            raise Refusal("not-your-seat", "This bot has no seat at this table.")
        return table, seat

    def _version(self, table: Table) -> int:
        """The table's version now (it may have been opened again meanwhile)."""
        return self.hub.tables.get(table.table_id, table).version

    async def account(self, request: Request) -> Response:
        bot = await self._bot(request)
        return JSONResponse(
            {"id": bot.id, "name": bot.name, "bot": True, "protocol": PROTOCOL, "protocols": list(PROTOCOLS)}
        )

    async def event_stream(self, request: Request) -> Response:
        bot = await self._bot(request)
        seats = await asyncio.to_thread(self.players.seats_of, bot.id)
        stream = self._stream(request, bot, True)
        lines = EventLines(bot, stream, self.events, self.players, self.keep_alive, self.hub.store.shared)
        lines.tell_seats(seats)  # the games under way where it sits, first
        await self.events.opened(stream)
        return StreamingResponse(lines.lines(), media_type="application/x-ndjson")

    async def game_stream(self, request: Request) -> Response:
        bot = await self._bot(request)
        since = _since(request.query_params.get("since"))
        protocol = _protocol(request.query_params.get("protocol"))
        table, seat = await self._seat_at(request.path_params["table"], bot)
        stream = self._stream(request, bot, False)
        lines = GameLines(self.hub, self.events, table, seat, protocol, stream, since, self.keep_alive)
        return StreamingResponse(lines.lines(), media_type="application/x-ndjson")

    async def move(self, request: Request) -> Response:
        started = time.perf_counter()
        hub = self.hub
        bot = await self._bot(request)
        body = await posted_object(
            request,
            too_big="A move is at most 4 KiB.",
            not_json="A move is a JSON object.",
            not_object='A move is {"version": V, "action": {...}}.',
        )
        table, seat = await self._seat_at(request.path_params["table"], bot)
        action = body.get("action")
        if isinstance(action, dict) and "seat" in action and action["seat"] != seat:
            raise Refusal("wrong-seat", f"This bot sits in seat {seat}: a move names its own seat, or none.")
        await hub.act(hub.tables.get(table.table_id, table), seat, body.get("version"), action)
        if hub.metrics is not None:
            hub.metrics.bot_move.observe(time.perf_counter() - started)
        return JSONResponse({"ok": True, "version": self._version(table)})

    async def way_out(self, request: Request) -> Response:
        """A way out of the bot's game, as a person's: resign, leave, abort, offer to end, accept or decline the
        standing offer, or take a gone seat back (docs/BOTS.md)."""
        way = request.path_params["way"]
        bot = await self._bot(request)
        if way not in WAYS:
            raise Refusal("no-route", f"A game's way out is one of {', '.join(WAYS)}.")
        await posted_object(
            request,
            too_big="The body is at most 4 KiB.",
            not_json="The body is a JSON object.",
            not_object="The body is a JSON object.",
            empty=b"{}",
        )
        table, seat = await self._seat_at(request.path_params["table"], bot)
        await self.hub.way(self.hub.tables.get(table.table_id, table), seat, way)
        return JSONResponse({"ok": True, "version": self._version(table)})

    async def make_table(self, request: Request) -> Response:
        """A bot's own table (its seat ``me``, seated by its token), made as the start page makes one: its people's
        seats have links (for the bot's operator to send), its computer levels play at once."""
        bot = await self._bot(request)
        form = await posted_object(
            request,
            too_big="The settings are at most 4 KiB.",
            not_json="The table's settings are a JSON object.",
            not_object="The table's settings are a JSON object.",
        )
        links = await self.hub.create(await request_of_form(form, Asker.bot(bot), None, self._bot_named))
        return JSONResponse(links, headers={"Cache-Control": "no-store"})  # the people's links are in it

    async def _bot_named(self, name: str) -> Player | None:
        return await asyncio.to_thread(self.players.bot_named, name[:40])


def _protocol(text: str | None) -> str:
    if text is None:
        return PROTOCOL
    if text not in PROTOCOLS:
        raise Refusal("bad-protocol", f"The protocol is one of {', '.join(PROTOCOLS)}.")
    return text


def _v1_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as protocol v1 wrote it: a rack's place by its index (0: slot 5, High-Low's left end)."""
    return entry | {field: place_index(field, entry[field]) for field in PLACE_FIELDS if field in entry}


def _since(text: str | None) -> int:
    if text is None:
        return 0
    if not text.isdigit() or len(text) > 12:
        raise Refusal("bad-since", "since is the last version (sequence number) the bot was sent.")
    return int(text)
