"""`racko serve`: Rack-O in the browser, with friends and computer players (Starlette on uvicorn, WebSockets).

:func:`create_app` builds each room (the table, the lobby, the players, ratings, review, puzzles, learn, push, bots,
tournaments), wires what one room tells another, joins their routes and runs the server's life.  The pages are plain
HTML, CSS and JavaScript from the package: no build step, nothing fetched elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from racko.web import bots as bots_room
from racko.web import learn as learn_room
from racko.web import lobby as lobby_room
from racko.web import ops as ops_room
from racko.web import players as players_room
from racko.web import push as push_room
from racko.web import puzzles as puzzles_room
from racko.web import ratings as ratings_room
from racko.web import review as review_room
from racko.web import table as table_room
from racko.web import tournaments as tournaments_room
from racko.web.core import (
    ALL_ADDRESSES,
    NEW_TABLES_PER_ADDRESS,
    RATE,
    CreationLimit,
    HeadersOnEveryResponse,
    Refusal,
    static_files,
    words_route,
)
from racko.web.ops import Metrics, Runs, keep_collections_short, said_of, watch_the_loop
from racko.web.store import SchemaPart, TableStore
from racko.web.table import IDLE_SECONDS, TableRoom

log = logging.getLogger("racko.serve")


def schema_parts() -> list[SchemaPart]:
    """The rooms' own tables in the store (the table room's journal is the store's own)."""
    return [
        players_room.SCHEMA,
        ratings_room.SCHEMA,
        lobby_room.SCHEMA,
        push_room.SCHEMA,
        bots_room.SCHEMA,
        ops_room.SCHEMA,
        tournaments_room.SCHEMA,
    ]


def people(store: TableStore) -> tuple[players_room.Players, ratings_room.Ratings]:
    """The players room and the ratings room over ``store``, wired as the server wires them: forgetting a player
    reaches the ratings and histories, the bot ladder's meetings and the tournaments, too (``racko admin`` uses the
    same)."""
    players = players_room.Players(store)
    players.forgetting.append(bots_room.forget_on_ladder)
    players.forgetting.append(bots_room.forget_challenges)
    players.forgetting.append(tournaments_room.forget_in_tournaments)
    players.revoking.append(bots_room.revoke_in_bots)
    return players, ratings_room.Ratings(store, players)


@dataclass(frozen=True)
class ServerSettings:
    """Everything the server is built from besides its store: ``racko serve``'s options, and what tests set."""

    pace: float = 0.8
    """Seconds a computer player waits before its move, so that people can follow."""
    away_seconds: float = 60.0
    """Seconds a person may be away from a table without a clock before the others may hand their seat over."""
    frames_per_second: float = RATE
    """The rate each connection may send frames at (tests that play at a machine's speed raise it)."""
    short_collections: bool = False
    """Keep the cycle collector's pauses short (racko.web.ops.memory)."""
    allow_origins: tuple[str, ...] = ()
    """The origins of pages served elsewhere that may use this server (``https://example.org``)."""
    new_tables_per_address: int = NEW_TABLES_PER_ADDRESS
    new_tables_in_all: int | None = None
    """New tables a minute from one address, and from all of them (default: 30 times one address's)."""
    idle_seconds: float = IDLE_SECONDS
    """A table nobody watched this long leaves the process's memory."""
    fill_seconds: float = lobby_room.FILL_SECONDS
    quick_target: int | None = None
    """Quick play: seconds before computer players may fill the seats; the tables' target score (None: the
    variant's own)."""
    review_playouts: int | None = None
    """A review's play-outs a move (default: the review's own; fewer: quicker, rougher)."""
    rate_shared_addresses: bool = False
    """Rate games whose seats play from one network address (racko.web.players.addresses)."""
    now: Callable[[], float] = time.time
    """The server's clock, which the tables' clocks read (tests pass one they move by hand; no CLI option)."""
    push_keys: push_room.PushKeys | None = None
    push_contact: str = push_room.CONTACT
    push_reach: push_room.PushReach | None = None
    """The VAPID keys that sign "your turn" pushes (None: no pushes), the contact their claims name, and where pushes
    may go (default: the browsers' push services only, racko.web.push.reach)."""
    bot_keep_alive: float = bots_room.KEEP_ALIVE_SECONDS
    """Seconds between the keep-alive lines of the Bot API's quiet streams (docs/BOTS.md)."""
    bot_ladder: bots_room.LadderLimits | None = None
    """Run the bot ladder within these limits (None: no ladder; docs/BOTS.md)."""
    bot_requests_per_minute: int = bots_room.REQUESTS_PER_MINUTE
    bot_games_at_once: int = bots_room.GAMES_AT_ONCE
    bot_open_challenges: int = bots_room.OPEN_CHALLENGES
    """The limits on each bot's token (docs/BOTS.md)."""
    round_pause: float = tournaments_room.ROUND_PAUSE
    """Seconds between a Swiss round's end and the next round (``racko serve --round-pause``, docs/TOURNAMENTS.md)."""

    def creation_limit(self) -> CreationLimit:
        """A limit on what one address (and every address) makes a minute: tables, players."""
        in_all = self.new_tables_in_all or ALL_ADDRESSES * self.new_tables_per_address
        return CreationLimit(self.new_tables_per_address, in_all)


def create_app(store: TableStore, settings: ServerSettings | None = None) -> Starlette:
    """The server's application over ``store``, built as ``settings`` say."""
    settings = settings or ServerSettings()
    store.prepare(schema_parts())
    hub: TableRoom
    metrics = Metrics(
        tables=lambda: len(hub.tables), connections=lambda: sum(len(table.watchers) for table in hub.tables.values())
    )
    players, ratings = people(store)
    hub = TableRoom(
        store,
        players,
        pace=settings.pace,
        away_seconds=settings.away_seconds,
        idle_seconds=settings.idle_seconds,
        metrics=metrics,
        rate_shared_addresses=settings.rate_shared_addresses,
        now=settings.now,
        bot_games_at_once=settings.bot_games_at_once,
    )
    allowed = frozenset(origin.rstrip("/") for origin in settings.allow_origins)
    lobby = lobby_room.Lobby(hub, ratings, fill_seconds=settings.fill_seconds, quick_target=settings.quick_target)
    reviews = review_room.Reviews.with_playouts(settings.review_playouts)
    bot_limits = bots_room.BotLimits(
        players,
        settings.bot_requests_per_minute,
        settings.bot_games_at_once,
        settings.now,
        open_challenges=settings.bot_open_challenges,
    )
    bot_events = bots_room.BotEvents(hub, bot_limits)
    ladder = None if settings.bot_ladder is None else bots_room.Ladder(hub, bot_events, ratings, settings.bot_ladder)
    challenges = bots_room.Challenges(hub, bot_events, bot_limits)

    async def forgotten(player_id: str) -> None:
        """A player was forgotten: out of quick play, out of the reviews kept here, and every table this process
        plays rewritten before the page is told (the other processes' within a second)."""
        lobby.forget(player_id)
        await challenges.forget(player_id)
        reviews.forget_done()
        await hub.forget_seats()

    async def game_over(game: table_room.FinishedGame) -> None:
        # The places are the table room's (those who left last): the ratings, histories and statistics keep them.
        await asyncio.to_thread(ratings.game_over, game)

    hub.games_over.subscribe(game_over)
    pushes = push_room.Pushes(
        store, hub.players, settings.push_keys, contact=settings.push_contact, reach=settings.push_reach
    )
    hub.turns_begun.subscribe(pushes.turn)
    tournaments = tournaments_room.Tournaments(
        store,
        players,
        tournaments_room.RoomTables(hub, players),
        table_room.match_places,
        now=settings.now,
        pushes=pushes,
        bot_events=bot_events,
        round_pause=settings.round_pause,
    )
    hub.games_over.subscribe(tournaments.table_over)  # a tournament's standings keep the same places
    bot_events.on_open.append(tournaments.bot_opened)
    creation = settings.creation_limit()
    running = {"closing": False}

    runs = Runs(store)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        watch_the_loop()
        run = await asyncio.to_thread(runs.started)
        metrics.starts.inc(run.starts)
        metrics.unclean_ends.inc(run.unclean)
        unclean = said_of(run, runs.node)
        if unclean is not None:
            log.warning("%s", unclean)
        resumed = hub.resume_all()
        log.info("racko serve started: node %s, tables in %s, %d resumed", store.node or "-", store.describe(), resumed)
        seen_task = asyncio.create_task(runs.keep())
        keeper = asyncio.create_task(hub.keep())
        lobby_task = asyncio.create_task(lobby.run())
        pages_task = asyncio.create_task(hub.players.keep_pages_noted())
        bots_task = asyncio.create_task(bot_events.keep())
        collector = asyncio.create_task(keep_collections_short()) if settings.short_collections else None
        ladder_task = None if ladder is None else asyncio.create_task(ladder.run())
        tournaments_task = asyncio.create_task(tournaments.run())
        yield
        tournaments_task.cancel()
        if ladder_task is not None:
            ladder_task.cancel()
        running["closing"] = True
        keeper.cancel()
        lobby_task.cancel()
        pages_task.cancel()
        bots_task.cancel()
        if collector is not None:
            collector.cancel()
        seen_task.cancel()
        try:  # before the store closes with the tables: the next start knows this run ended cleanly
            await asyncio.to_thread(runs.stopped)
        except Exception as error:
            log.warning("this run's clean stop could not be noted: %s", type(error).__name__)
        await hub.close()
        pushes.close()
        reviews.close()
        log.info("racko serve stopped: every table handed on")

    app = Starlette(
        routes=[
            *lobby_room.LobbyRoutes(lobby, allowed, settings.frames_per_second).routes(),
            *players_room.PlayerRoutes(
                hub.players,
                allowed,
                settings.creation_limit(),
                lambda but: hub.players.online_names(but) + ratings.rated_names(but),
                forgotten,
                settings.now,
            ).routes(),
            *ratings_room.RatingRoutes(ratings, hub.players).routes(),
            *push_room.PushRoutes(pushes, hub.players, allowed).routes(),
            *learn_room.LearnRoutes().routes(),
            *puzzles_room.PuzzleRoutes(allowed).routes(),
            *review_room.ReviewRoutes(reviews, store, ratings.record, hub.players, allowed).routes(),
            *ops_room.OpsRoutes(store, lambda: len(hub.tables), metrics, running).routes(),
            *bots_room.BotApi(hub, bot_events, settings.bot_keep_alive, bot_limits).routes(),
            *bots_room.MatchingRoutes(challenges, lobby, bot_events, bot_limits, allowed).routes(),
            *tournaments_room.TournamentRoutes(tournaments, allowed, bot_limits).routes(),
            # last: its /ws/{table} would take /ws/lobby, Starlette trying routes in order
            *table_room.TableRoutes(hub, metrics, allowed, creation, settings.frames_per_second).routes(),
            static_files("core"),
            words_route(),
        ],
        middleware=[Middleware(HeadersOnEveryResponse)],
        exception_handlers={404: _not_found, 405: _not_allowed},
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.lobby = lobby
    app.state.ratings = ratings
    app.state.reviews = reviews
    app.state.pushes = pushes
    app.state.metrics = metrics
    app.state.ladder = ladder
    app.state.challenges = challenges
    app.state.tournaments = tournaments
    return app


async def _not_found(request: Request, exc: Exception) -> Response:
    """A route nobody serves: a JSON refusal under ``/api/`` (a program's, the Bot API's), else a short page."""
    if request.url.path.startswith("/api/"):
        return Refusal(
            "no-route", f"There is no {request.url.path[:80]} here (docs/PROTOCOL.md, docs/BOTS.md)."
        ).response()
    return PlainTextResponse("Not Found", status_code=404)


async def _not_allowed(request: Request, exc: Exception) -> Response:
    if request.url.path.startswith("/api/"):
        return Refusal("wrong-method", f"{request.url.path[:80]} does not take {request.method}.").response()
    return PlainTextResponse("Method Not Allowed", status_code=405)
