"""The one place where a tournament's game becomes a table of the table room (:class:`HubTables`), and what becomes of
a table that ended without telling the tournament (its result read from the table itself).

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
from racko.web.core import WebError
from racko.web.players import BOT_MARK, Player, Players
from racko.web.store import TableStore
from racko.web.table import Elsewhere, Hub, Table

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


GoneOf = Callable[[Table], list[bool]]
"""Per seat of a finished table, whether its person left the game (the table room's and the ratings' rule, which the
server passes in): a side with such a seat is placed last."""
PlacesOf = Callable[[Match, Sequence[bool]], dict[int, int]]
"""Each seat's place at a game's end, given who left (the ratings room's rule)."""


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


def result_of(table: Table, gone: Sequence[bool], places_of: PlacesOf) -> dict[str, Any]:
    """A finished table's result as a tournament keeps it: each side's place (Partners' teams, else each seat) and
    each seat's total."""
    match = table.session.match
    places = places_of(match, gone)
    teams = match.rules.teams
    sides = [list(team) for team in teams] if teams is not None else [[seat] for seat in range(match.rules.players)]
    return {"places": [places[side[0]] for side in sides], "totals": list(match.seat_totals)}


class HubTables:
    """Tournament tables at this server: made through the table room's :meth:`Hub.create`, as quick play and the
    ladder make theirs, with each player's seat bound to them (joined at once: the clock starts, and a person who
    never comes is played for by it); opened here and its computer players woken, so that a level whose turn comes
    first plays though nobody has opened the table yet."""

    def __init__(self, hub: Hub, players: Players, gone_of: GoneOf, places_of: PlacesOf) -> None:
        self.hub = hub
        self.store: TableStore = hub.store
        self.players = players
        self.gone_of = gone_of
        self.places_of = places_of

    async def make(self, order: TableOrder) -> None:
        if await asyncio.to_thread(self.store.load, order.table_id) is None:
            form: dict[str, Any] = {
                "variant": order.variant,
                "players": len(order.seats),
                "seats": [],
                "rated": order.rated,
                "public": False,
                "clock": order.clock,
            }
            form.update(order.options)
            bound: list[Player | None] = []
            for seat in order.seats:
                player = None if seat.player_id is None else await asyncio.to_thread(self.players.find, seat.player_id)
                if seat.level is not None or player is None:
                    form["seats"].append(seat.level or "medium")
                    bound.append(None)
                elif seat.bot_account:
                    form["seats"].append("bot-account:" + player.name)
                    bound.append(None)
                else:
                    form["seats"].append("person")
                    bound.append(player)
            await self.hub.create(form, bound, table_id=order.table_id)
        with contextlib.suppress(Elsewhere):  # another process plays it (a connection reached it first): it wakes it
            table = await self.hub.reach(order.table_id)
            self.hub.wake_bots(table)

    async def outcome(self, table_id: str) -> dict[str, Any] | None:
        table = self.hub.tables.get(table_id)
        if table is None:
            try:
                table = await self.hub.reach(table_id)
            except Elsewhere:
                return None  # its process passes its end on, or hands it over when idle
            except WebError:
                return {"void": True}  # no such table (or a damaged one): the game is lost
        if not table.over:
            return None
        ended = table.setup.get("ended")
        if isinstance(ended, dict) and ended.get("how") == "aborted":
            return {"void": True}
        return result_of(table, self.gone_of(table), self.places_of)

    def open_tables(self) -> set[str]:
        return set(self.store.open_tables())


def seat_name(name: str, bot_account: bool) -> str:
    return name + BOT_MARK if bot_account else name
