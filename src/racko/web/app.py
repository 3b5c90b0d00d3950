"""`racko serve`: Rack-O in the browser, with friends and computer players (Starlette on uvicorn, WebSockets).

:func:`create_app` builds each room (the table, the lobby, the players, ratings, review, puzzles, learn, push),
wires what one room tells another, joins their routes and runs the server's life.  The pages are plain HTML, CSS and
JavaScript from the package: no build step, nothing fetched elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware

from racko.record import GameRecord
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
from racko.web.core import (
    ALL_ADDRESSES,
    NEW_TABLES_PER_ADDRESS,
    RATE,
    CreationLimit,
    HeadersOnEveryResponse,
    static_files,
    words_route,
)
from racko.web.ops import Metrics, Runs, keep_collections_short, said_of, watch_the_loop
from racko.web.store import SchemaPart, TableStore
from racko.web.table import IDLE_SECONDS, Hub, Table

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
    ]


def people(store: TableStore) -> tuple[players_room.Players, ratings_room.Ratings]:
    """The players room and the ratings room over ``store``, wired as the server wires them: forgetting a player
    reaches the ratings and histories, and the bot ladder's meetings, too (``racko admin`` uses the same)."""
    players = players_room.Players(store)
    players.forgetting.append(bots_room.forget_on_ladder)
    players.forgetting.append(bots_room.forget_challenges)
    players.revoking.append(bots_room.revoke_in_bots)
    return players, ratings_room.Ratings(store, players)


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
    now: Callable[[], float] = time.time,
    push_keys: push_room.PushKeys | None = None,
    push_contact: str = push_room.CONTACT,
    push_reach: push_room.PushReach | None = None,
    bot_keep_alive: float = bots_room.KEEP_ALIVE_SECONDS,
    bot_ladder: bots_room.LadderLimits | None = None,
    bot_requests_per_minute: int = bots_room.REQUESTS_PER_MINUTE,
    bot_games_at_once: int = bots_room.GAMES_AT_ONCE,
    bot_open_challenges: int = bots_room.OPEN_CHALLENGES,
) -> Starlette:
    """The server's application over ``store``; ``frames_per_second`` limits each connection (tests that play at a
    machine's speed raise it); ``short_collections``: keep the cycle collector's pauses short (racko.web.ops.memory);
    ``allow_origins``: the origins of pages served elsewhere that may use this server (``https://example.org``);
    ``review_playouts``: a review's play-outs a move (default: the review's own; fewer: quicker, rougher);
    ``rate_shared_addresses``: rate games whose seats play from one network address (racko.web.players.addresses);
    ``now``: the server's clock, which the tables' clocks read (tests pass one they move by hand; no CLI option);
    ``push_keys``: the VAPID keys that sign "your turn" pushes (None: no pushes), ``push_contact`` the contact their
    claims name; ``push_reach``: where pushes may go (default: the browsers' push services only, racko.web.push.reach);
    ``bot_keep_alive``: seconds between the keep-alive lines of the Bot API's quiet streams (docs/BOTS.md);
    ``bot_ladder``: run the bot ladder within these limits (None: no ladder; docs/BOTS.md);
    ``bot_requests_per_minute``, ``bot_games_at_once``, ``bot_open_challenges``: the limits on each bot's token
    (docs/BOTS.md)."""
    store.prepare(schema_parts())
    hub: Hub
    metrics = Metrics(
        tables=lambda: len(hub.tables), connections=lambda: sum(len(table.watchers) for table in hub.tables.values())
    )
    players, ratings = people(store)
    hub = Hub(
        store,
        players,
        pace=pace,
        away_seconds=away_seconds,
        idle_seconds=idle_seconds,
        metrics=metrics,
        rate_shared_addresses=rate_shared_addresses,
        now=now,
    )
    allowed = frozenset(origin.rstrip("/") for origin in allow_origins)
    lobby = lobby_room.Lobby(hub, ratings, fill_seconds=fill_seconds, quick_target=quick_target)
    reviews = review_room.Reviews.with_playouts(review_playouts)
    bot_limits = bots_room.BotLimits(
        players, bot_requests_per_minute, bot_games_at_once, now, open_challenges=bot_open_challenges
    )
    bot_events = bots_room.BotEvents(hub, bot_limits)
    ladder = None if bot_ladder is None else bots_room.Ladder(hub, bot_events, ratings, bot_ladder)
    challenges = bots_room.Challenges(hub, bot_events, bot_limits)

    async def forgotten(player_id: str) -> None:
        """A player was forgotten: out of quick play, out of the reviews kept here, and every table this process
        plays rewritten before the page is told (the other processes' within a second)."""
        lobby.forget(player_id)
        await challenges.forget(player_id)
        reviews.forget_done()
        await hub.forget_seats()

    async def game_over(table: Table, record: GameRecord) -> None:
        # The seats gone at the end (their clock's computer player played for them) are rated last, and so are the
        # seats whose person resigned or left the table (docs/PLAYING.md).
        clock = table.clock
        gone = [
            (clock is not None and spec.bot is None and clock.gone(seat))
            or bool(table.setup["seats"][seat].get("left"))
            for seat, spec in enumerate(table.session.seats)
        ]
        await asyncio.to_thread(ratings.game_over, table.table_id, {**table.setup, "gone": gone}, record)

    hub.game_over_hooks.append(game_over)
    pushes = push_room.Pushes(store, hub.players, push_keys, contact=push_contact, reach=push_reach)
    hub.turn_hooks.append(pushes.turn)
    creation = CreationLimit(new_tables_per_address, new_tables_in_all or ALL_ADDRESSES * new_tables_per_address)
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
        collector = asyncio.create_task(keep_collections_short()) if short_collections else None
        ladder_task = None if ladder is None else asyncio.create_task(ladder.run())
        yield
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
            *lobby_room.routes(lobby, allowed, frames_per_second),
            *players_room.routes(
                hub.players,
                allowed,
                CreationLimit(new_tables_per_address, new_tables_in_all or ALL_ADDRESSES * new_tables_per_address),
                lambda but: hub.players.online_names(but) + ratings.rated_names(but),
                forgotten,
                now,
            ),
            *ratings_room.routes(ratings, hub.players),
            *push_room.routes(pushes, hub.players, allowed),
            *learn_room.routes(),
            *puzzles_room.routes(allowed),
            *review_room.routes(reviews, store, ratings.record, hub.players, allowed),
            *ops_room.routes(store, lambda: len(hub.tables), metrics, running),
            *bots_room.routes(hub, bot_events, bot_keep_alive, bot_limits),
            *bots_room.matching_routes(challenges, lobby, bot_events, bot_limits, allowed),
            # last: its /ws/{table} would take /ws/lobby, Starlette trying routes in order
            *table_room.routes(hub, metrics, allowed, creation, frames_per_second),
            static_files("core"),
            words_route(),
        ],
        middleware=[Middleware(HeadersOnEveryResponse)],
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
    return app
