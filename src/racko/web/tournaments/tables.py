"""The one place where a tournament's game becomes a table of the table room (:class:`RoomTables`: a
:class:`~racko.web.table.TableRequest` like every table's), and what becomes of a table that ended without telling the
tournament (its result read from the table itself).

Everything the tournaments room needs of the table room passes through :class:`TableMaker`, so that the simulation
(:mod:`.simulation`: the benchmark and the tests of a thousand games) stands in for it, and so that a change in how
the table room makes tables is a change here alone."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from racko.match import Match
from racko.rules import Rules
from racko.web.core import Refusal
from racko.web.players import BOT_MARK, Players
from racko.web.store import TableStore
from racko.web.table import (
    Asker,
    BotAccountSeat,
    Consent,
    Elsewhere,
    LevelSeat,
    PersonSeat,
    SeatRequest,
    Standing,
    TableRequest,
    TableRoom,
    places_of,
    rules_of,
    sides_of,
)

log = logging.getLogger("racko.serve")


@dataclass(frozen=True)
class Seat:
    """Who sits in one seat of a tournament's table: a player (a person or a bot account) or racko's level."""

    name: str
    player_id: str | None = None
    bot_account: bool = False
    level: str | None = None


@dataclass(frozen=True)
class TableOrder:
    """A table to make for a tournament's game, under the id the tournament chose for it."""

    table_id: str
    variant: str
    seats: tuple[Seat, ...]
    clock: str
    rated: bool
    options: dict[str, Any]
    """The rules' options beyond the variant's (the target, the 2-player rule), as a table's form says them."""


PlacesOf = Callable[[Match, Sequence[bool]], dict[int, int]]
"""Each seat's place at a game's end, given who left (the table room's rule, racko.web.table.match_places): for a
game of racko's levels played outside a table."""


class TableMaker(Protocol):
    """What the tournaments room asks of the tables."""

    async def make(self, order: TableOrder) -> None:
        """Make the table (raises with the reason when it cannot); a table made already under that id is left as
        it is."""

    async def outcome(self, table_id: str) -> dict[str, Any] | None:
        """The result of a table that is no longer played here or anywhere (``{"places", "totals"}``, ``{"void":
        true}`` for an aborted or lost one), or ``None`` while it is still played (or another process holds it)."""

    def open_tables(self) -> set[str]:
        """The ids of every table whose game is not over (blocking: a worker thread's)."""


def result_of(standing: Standing, rules: Rules) -> dict[str, Any]:
    """A finished table's result as a tournament keeps it: each side's place (Partners' teams, else each seat) as the
    table room placed it (those who left last), and each seat's total."""
    return {"places": [standing.places[side[0]] for side in sides_of(rules)], "totals": list(standing.totals)}


class RoomTables:
    """Tournament tables at this server: made through the table room's one way of making tables
    (:meth:`TableRoom.create` with a :class:`TableRequest`, as quick play, challenges and the ladder make theirs),
    each player's seat bound to them (joined at once: the clock starts, and a person who never comes is played for by
    it), a bot account's by its consent (it joined the tournament); opened here and woken, so that a level whose turn
    comes first plays though nobody has opened the table yet."""

    def __init__(self, room: TableRoom, players: Players) -> None:
        self.room = room
        self.store: TableStore = room.store
        self.players = players

    async def make(self, order: TableOrder) -> None:
        if await asyncio.to_thread(self.store.load, order.table_id) is None:
            rules = rules_of({"variant": order.variant, "players": len(order.seats), **order.options})
            seats: list[SeatRequest] = []
            for seat in order.seats:
                player = None if seat.player_id is None else await asyncio.to_thread(self.players.find, seat.player_id)
                if seat.level is not None or player is None:
                    seats.append(LevelSeat(seat.level or "medium"))
                elif seat.bot_account:
                    seats.append(BotAccountSeat(player, Consent.TOURNAMENT))
                else:
                    seats.append(PersonSeat(player=player))
            request = TableRequest(
                rules,
                tuple(seats),
                Asker.of_room("tournaments"),
                rated=order.rated,
                clock=order.clock,
                table_id=order.table_id,
            )
            await self.room.create(request)
        with contextlib.suppress(Elsewhere):  # another process plays it (a connection reached it first): it wakes it
            table = await self.room.reach(order.table_id)
            self.room.wake(table)

    async def outcome(self, table_id: str) -> dict[str, Any] | None:
        table = self.room.tables.get(table_id)
        if table is None:
            try:
                table = await self.room.reach(table_id)
            except Elsewhere:
                return None  # its process passes its end on, or hands it over when idle
            except Refusal:
                return {"void": True}  # no such table (or a damaged one): the game is lost
        if not table.over:
            return None
        if table.aborted:
            return {"void": True}
        return result_of(places_of(table), table.setup.rules)

    def open_tables(self) -> set[str]:
        return set(self.store.open_tables())


def seat_name(name: str, bot_account: bool) -> str:
    return name + BOT_MARK if bot_account else name
