"""The one step after a change at a table, in this order: save (the change is in the database before anybody is
told), tell the seats (every connection gets the state built for its viewer, and who is here), tell the listeners
(the lobby, the players' lists, push, the bots' event streams, the ladder, ratings and histories) through a small
publish/subscribe, then let the table's driver look again (a computer player's move, a deadline).  Every part that
changes a table ends with :meth:`Changes.after`; none tells anybody itself."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from racko.record import GameRecord
from racko.web.core import Refusal
from racko.web.ops import Metrics
from racko.web.table.registry import Registry
from racko.web.table.results import Standing, places_of
from racko.web.table.seats import SeatEvent
from racko.web.table.setup import Setup
from racko.web.table.table import Table, noted_record, said
from racko.web.table.watching import Watching

log = logging.getLogger("racko.serve")
News = TypeVar("News")


class Topic(Generic[News]):
    """Listeners of one kind of news, told in the order they subscribed; one that fails is logged, never the
    table's."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.listeners: list[Callable[[News], Awaitable[None]]] = []

    def subscribe(self, listener: Callable[[News], Awaitable[None]]) -> None:
        self.listeners.append(listener)

    async def publish(self, news: News) -> None:
        for listener in list(self.listeners):
            try:
                await listener(news)
            except Exception as error:  # a listener that failed never stops the table
                log.warning("a listener of %s failed: %s", self.name, said(error))


@dataclass(frozen=True)
class TableNews:
    """A table's seats, game or people changed: its set-up, whether its game is over, whether a person playing it
    has it open (the lobby lists a game to watch only then)."""

    table_id: str
    setup: Setup
    over: bool
    people_here: bool


@dataclass(frozen=True)
class TurnNews:
    """A person's turn began (``what``: ``turn``) or a turn-based one is running out (``reminder``): the seat, its
    player (``None``: a guest's seat, with no player to tell), the other seats' names, the turn's deadline (the
    server's time; ``None`` without a clock) and whether the person has the table open now."""

    table_id: str
    seat: int
    player_id: str | None
    others: tuple[str, ...]
    what: str
    deadline: float | None
    connected: bool


@dataclass(frozen=True)
class FinishedGame:
    """A game over at a table (not an aborted one): its set-up, its record, and the places (:mod:`.results`) that
    the result line, the histories, the ratings and the statistics all read."""

    table_id: str
    setup: Setup
    record: GameRecord
    standing: Standing


class Changes:
    """The step after every change of a table (:meth:`after`), and the topics its listeners subscribe to."""

    def __init__(
        self,
        watching: Watching,
        registry: Registry,
        now: Callable[[], float],
        metrics: Metrics | None = None,
    ) -> None:
        self.watching = watching
        self.registry = registry
        self.now = now
        self.metrics = metrics
        self.tables = Topic[TableNews]("the tables")
        self.turns = Topic[TurnNews]("the turns")
        self.games = Topic[FinishedGame]("the games over")
        self.wake: Callable[[Table], None] = lambda table: None
        """Lets the table's driver look again (the table room's :class:`~racko.web.table.turns.Turns`)."""

    async def after(
        self, table: Table, *, seats_changed: bool = True, listed: bool = False, moved: float | None = None
    ) -> None:
        """After a change of ``table`` (a move, a seat taken, a way out …): saved, told to every seat, then to the
        listeners; ``seats_changed``: who sits where or a seat's state changed (everyone is told who is here);
        ``listed``: the table's line may have changed (its seats, its people); ``moved``: when a move was applied
        (perf_counter seconds: its commit and broadcast are measured).  A move the database did not keep is
        forgotten: the table is opened again from the store, everyone told, and a ``not-saved`` refusal raised."""
        problem = table.session.save_problem
        if not problem:
            try:
                await self.registry.saved(table)
            except OSError as error:
                problem = f"The game could not be saved: {error}."
        if problem:
            fresh = self.registry.reloaded(table)
            if fresh is None:  # another process took the table over: its connections go there
                await self.registry.drop(table, "lost")
            else:
                await self.watching.broadcast(fresh)
                self.wake(fresh)
            raise Refusal("not-saved", f"{problem} Nothing was changed; try again.")
        if moved is not None and self.metrics is not None:
            self.metrics.actions.inc()
            self.metrics.commit_after_move.observe(time.perf_counter() - moved)
        await self.watching.broadcast(table)
        if moved is not None and self.metrics is not None:
            self.metrics.broadcast_after_move.observe(time.perf_counter() - moved)
        if seats_changed:
            await self.watching.tell_presence(table)
        if table.over and not table.reported:
            table.seats.every(SeatEvent.ABORT if table.aborted else SeatEvent.GAME_END, self.now())
            # Not in the asker's own task: a person who closes the page right after must not cancel the game's end
            # on its way to the lobby, the players' lists, the ratings and the histories.
            self.registry.in_background(self.game_over(table))
        elif listed:
            await self.publish(table)
        self.wake(table)

    async def turn(
        self,
        table_id: str,
        seat: int,
        player_id: str | None,
        others: tuple[str, ...],
        what: str,
        deadline: float | None,
        connected: bool,
    ) -> None:
        await self.turns.publish(TurnNews(table_id, seat, player_id, others, what, deadline, connected))

    async def publish(self, table: Table) -> None:
        await self.tables.publish(TableNews(table.table_id, table.setup, table.over, table.seats.people_here()))

    async def game_over(self, table: Table) -> None:
        """A game's end passed on, once per process (the listeners themselves keep each game once, so a table opened
        again after a crash between its last move and this is passed on again safely): its line, and the places to
        those who keep ratings and histories (an aborted game counts for nothing)."""
        if table.reported:
            return
        table.reported = True
        await self.publish(table)
        if table.aborted:
            return
        record = noted_record(table.setup, table.session.record(), table.made_by)
        await self.games.publish(FinishedGame(table.table_id, table.setup, record, places_of(table)))
