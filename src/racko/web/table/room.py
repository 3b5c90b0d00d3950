"""The table room as the others reach it: :class:`TableRoom` builds the table's parts, each with the few things it
needs (never the whole room), joins them, and is what the other rooms call (the room's own routes call the part that
does a thing: a frame's way to every seat's frames crosses no extra layer).  No part calls another through it, and
it keeps no state of its own.

- :class:`~.registry.Registry`: the tables this process plays, their leases, commits and set-up changes;
- :class:`~.watching.Watching`: the connections, and what each is shown;
- :class:`~.changes.Changes`: the one step after a change (save, tell the seats, tell the listeners);
- :class:`~.moves.Moves`: people's moves, hints, reactions;
- :class:`~.turns.Turns`: the drivers (computer players, stand-ins, the clock's deadlines, the pause);
- :class:`~.ways.WaysOut`: resign, leave, abort, offers, "I'm back", hand-over;
- :class:`~.seating.Seating`: new tables, seats taken and named, the next game, forgotten players' seats.

Each table's seats are a :class:`~.seats.Seats` (the one state machine), read by every part."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from racko.web.ops import Metrics
from racko.web.players import AddressMarks, Player, Players
from racko.web.store import TableStore
from racko.web.table.changes import Changes, FinishedGame, TableNews, Topic, TurnNews
from racko.web.table.moves import Moves
from racko.web.table.registry import IDLE_SECONDS, Registry
from racko.web.table.requests import TableRequest
from racko.web.table.seating import Seating
from racko.web.table.table import Table, Watcher
from racko.web.table.turns import Turns
from racko.web.table.watching import Watching
from racko.web.table.ways import WaysOut


class TableRoom:
    """Every table this server process plays: the table's parts, joined."""

    def __init__(
        self,
        store: TableStore,
        players: Players,
        *,
        pace: float = 0.8,
        away_seconds: float = 60.0,
        idle_seconds: float = IDLE_SECONDS,
        metrics: Metrics | None = None,
        rate_shared_addresses: bool = False,
        now: Callable[[], float] = time.time,
        bot_games_at_once: int = 8,
    ) -> None:
        self.store = store
        self.players = players
        """The players room: seats bound to players, their lists of tables, forgotten seats."""
        self.now = now
        """The server's clock (seconds since the epoch): what the journal's times and the clocks are read on (tests
        pass one they move by hand)."""
        self.away_seconds = away_seconds
        self.metrics = metrics
        self.registry = Registry(store, now=now, idle_seconds=idle_seconds, metrics=metrics)
        self.watching = Watching(now, self.registry.saved, store.unsaved, away_seconds)
        self.changes = Changes(self.watching, self.registry, now, metrics)
        self.ways = WaysOut(self.registry, self.changes, now, away_seconds)
        self.turns = Turns(
            self.registry, self.changes, self.ways.end_game, players.list_turn, now=now, pace=pace, metrics=metrics
        )
        self.seating = Seating(
            self.registry,
            self.changes,
            players,
            now=now,
            metrics=metrics,
            rate_shared_addresses=rate_shared_addresses,
            bot_games_at_once=bot_games_at_once,
        )
        self.moves = Moves(self.registry, self.changes, now)
        self.changes.wake = self.turns.wake
        self.registry.opened = self._opened
        self.registry.each_second = self.seating.forget_seats
        self.changes.tables.subscribe(self._lists_of_players)

    # --- what the other rooms follow ------------------------------------------------------------------

    @property
    def tables_changed(self) -> Topic[TableNews]:
        """A table's seats, game or people changed (the lobby's lines, the bots' events, the ladder)."""
        return self.changes.tables

    @property
    def turns_begun(self) -> Topic[TurnNews]:
        """A person's turn began, or a turn-based one is running out (push)."""
        return self.changes.turns

    @property
    def games_over(self) -> Topic[FinishedGame]:
        """A game ended (ratings, histories, the finishing record, statistics): once per process."""
        return self.changes.games

    @property
    def tables(self) -> dict[str, Table]:
        return self.registry.tables

    @property
    def marks(self) -> AddressMarks:
        return self.seating.marks

    @property
    def rate_shared_addresses(self) -> bool:
        return self.seating.rate_shared_addresses

    @property
    def clock_tick(self) -> float:
        return self.turns.clock_tick

    @clock_tick.setter
    def clock_tick(self, seconds: float) -> None:  # tests that move the clock by hand look often
        self.turns.clock_tick = seconds

    def _opened(self, table: Table) -> None:
        if table.over:  # its end may not have been passed on before a crash
            self.registry.in_background(self.changes.game_over(table))
        else:
            self.turns.wake(table)

    async def _lists_of_players(self, news: TableNews) -> None:
        if news.over:
            await asyncio.to_thread(self.players.table_over, news.table_id, True)

    # --- the tables --------------------------------------------------------------------------------------

    async def create(self, request: TableRequest) -> dict[str, Any]:
        return await self.seating.create(request)

    async def reach(self, table_id: str) -> Table:
        return await self.registry.reach(table_id)

    def wake(self, table: Table) -> None:
        """The table's driver looks again (a table made for others, whose first turn may be a computer's)."""
        self.turns.wake(table)

    def table(self, table_id: str) -> Table | None:
        return self.registry.table(table_id)

    def record(self, table_id: str, game: int | None = None) -> str | None:
        return self.registry.record(table_id, game)

    # --- connections -----------------------------------------------------------------------------------

    async def join(self, table: Table, watcher: Watcher, since: int | None) -> None:
        if await self.watching.join(table, watcher, since):  # a person came: the lobby lists the game again
            await self.changes.publish(table)
        self.turns.wake(table)

    async def leave(self, table: Table, watcher: Watcher) -> None:
        if await self.watching.leave(table, watcher):  # the lobby lists a game only while its people have it open
            await self.changes.publish(table)

    # --- what people do ----------------------------------------------------------------------------------

    async def act(self, table: Table, seat: int | None, version: Any, action: Any) -> None:
        await self.moves.act(table, seat, version, action)

    async def way(self, table: Table, seat: int | None, way: str) -> None:
        """Resign, leave, abort, offer to end, accept or decline, or "I'm back" (racko.web.table.ways)."""
        await self.ways.take(table, seat, way)

    async def hand_over(self, table: Table, seat: int | None, other: Any, bot_name: Any) -> None:
        await self.ways.hand_over(table, seat, other, bot_name)

    async def take_seat(self, table: Table, player: Player, address: str | None = None) -> int:
        return await self.seating.take_seat(table, player, address)

    async def forget_seats(self) -> None:
        await self.seating.forget_seats()

    # --- the server's life -----------------------------------------------------------------------------

    def resume_all(self) -> int:
        return self.registry.resume_all()

    async def keep(self) -> None:
        await self.registry.keep()

    async def close(self) -> None:
        await self.registry.close()
