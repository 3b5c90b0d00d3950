"""The tables' clocks at work: each table whose clock runs has a task that waits for the running turn's deadline,
warns the seat shortly before it, and when it passes has a computer player of the table's level play that seat's
whole turn through the same commit as any move (marked in the journal as the clock's).  A turn-based table's clock
has no task while it waits (days): the store keeps when it is next due (its reminder, then its deadline), and the
keep loop's ``overdue`` query sets it going then (racko.web.table.registry).  A seat whose turns the clock
played twice in a row is gone: its computer player plays without waiting, until its person says they are back (or
acts at their turn).  The rules and numbers are the clock room's (racko.web.clock, docs/PLAYING.md)."""

from __future__ import annotations

import asyncio
import contextlib
import time

from racko import bots
from racko.errors import RackoError
from racko.play.session import default_opponent
from racko.web.clock import WARN_SECONDS
from racko.web.core import Refusal
from racko.web.table import timing
from racko.web.table.registry import LOOK_AHEAD_SECONDS, log
from racko.web.table.seating import Seating
from racko.web.table.state import JournalStore, Table, said

SOON_SECONDS = LOOK_AHEAD_SECONDS + 1.0
"""A turn-based clock whose next step (its reminder or deadline) is this near waits for it in its task; a later one
has no task meanwhile (the keep loop's ``overdue`` wakes the table :data:`LOOK_AHEAD_SECONDS` before)."""
RETRY_SECONDS = 1.0
"""The pause before the clock tries again a move the database refused."""
STAND_IN_SEED = 7919
"""Mixed into a table's seed for the computer players that stand in for its people (seeded, as every bot here)."""


NO_TURN = (-1, -1.0)
"""What a table announced when no person's turn ran as this process first looked at it."""


def _turn_of(table: Table, seat: int | None) -> tuple[int, float] | None:
    """The person's turn running at the table, named once per turn: its seat and when it began (a clock's turn), or
    where it began in the journal (a turn without a running clock: a negative number, never a time).  ``None``: no
    person's turn, or a gone seat's (its computer player plays it at once)."""
    key = timing.turn_key(table)
    if key is not None:
        return int(key[0]), float(key[1])
    if seat is None or (table.clock is not None and table.clock.gone(seat)):
        return None
    round_now = len(table.session.match.results)
    start = len(table.played)
    while start > 0 and table.played[start - 1].seat == seat and table.played[start - 1].round == round_now:
        start -= 1
    return seat, -1.0 - (round_now * 1_000_000 + start)


class Clocks(Seating):
    """The clocks of every table (:class:`Seating` and the classes below it play the game)."""

    def wake_bots(self, table: Table, pause: float = 0.0) -> None:
        super().wake_bots(table, pause)
        self.arm(table)
        self._note_turn(table)

    def _note_turn(self, table: Table) -> None:
        """After every change: the turn hooks told of a turn that began here, and the players' lists of tables told
        whose move it is and until when (written once per turn, and only at a table with a player's seat)."""
        seat = None if table.over else table.session.to_act
        if seat is not None and table.session.seats[seat].bot is not None:
            seat = None
        turn = _turn_of(table, seat)
        with contextlib.suppress(RuntimeError):  # no running loop (a table opened outside the server)
            if turn is not None and table.announced != turn:
                # A turn that began before this process opened the table was announced by the one that held it: a
                # clock's turn began before the opening; a turn without a clock is the first one seen here.
                began_here = turn[1] >= table.opened_at if turn[1] >= 0 else table.announced is not None
                table.announced = turn
                if began_here and self.turn_hooks:
                    self.in_background(self._tell_hooks(table, turn[0], "turn", timing.due(table)))
            elif turn is None and table.announced is None:
                table.announced = NO_TURN
            listed = (seat, timing.due(table) if seat is not None else None)
            if table.listed != listed and any(spec.get("player") for spec in table.setup["seats"]):
                table.listed = listed
                self.in_background(self._list_turn(table.table_id, *listed))

    async def _list_turn(self, table_id: str, seat: int | None, deadline: float | None) -> None:
        try:
            await asyncio.to_thread(self.players.turn_at, table_id, seat, deadline)
        except Exception as error:  # the lists are a convenience: the game goes on
            log.warning("table %s: whose move it is could not be listed: %s", table_id, said(error))

    async def _tell_hooks(self, table: Table, seat: int, what: str, deadline: float | None) -> None:
        for hook in self.turn_hooks:
            try:
                await hook(table, seat, what, deadline)
            except Exception as error:  # a notification that failed never stops the table
                log.warning("table %s: a %s hook failed: %s", table.table_id, what, said(error))

    def arm(self, table: Table) -> None:
        """Start the table's clock task if its clock runs (or a gone seat is to act) and none is running yet."""
        if table.clock is None or (table.timer is not None and not table.timer.done()):
            return
        if timing.due(table) is None and timing.gone_to_act(table) is None:
            return
        with contextlib.suppress(RuntimeError):  # no running loop (a table opened outside the server)
            table.timer = asyncio.get_running_loop().create_task(self._run_clock(table))

    async def _run_clock(self, table: Table) -> None:
        while self.tables.get(table.table_id) is table and not table.over:
            gone = timing.gone_to_act(table)
            if gone is not None:
                await asyncio.sleep(self.pace)  # as any computer player: people can follow
                if timing.gone_to_act(table) == gone and not await self._play_for(table, gone, timing.GONE):
                    await asyncio.sleep(self.clock_tick)
                continue
            deadline = timing.due(table)
            seat = table.session.to_act
            if deadline is None or seat is None or table.clock is None or table.clock.since is None:
                return
            now = self.now()
            if table.clock.preset.turn_based:
                remind = timing.remind_at(table)
                if now >= deadline:
                    if not await self._play_for(table, seat, timing.CLOCK):
                        await asyncio.sleep(min(self.clock_tick, 0.1))
                    continue
                if remind is not None and now >= remind:
                    if not await self._remind(table, seat, deadline):
                        await asyncio.sleep(self.clock_tick)
                    continue
                wake = remind if remind is not None else deadline
                if wake - now > SOON_SECONDS:
                    return  # days to wait: no task meanwhile; the store's due wakes the table (the keep loop)
                await asyncio.sleep(max(0.0, min(wake - now, self.clock_tick)))
                continue
            turn = (seat, table.clock.since)
            if now >= deadline - WARN_SECONDS and table.warned != turn:
                table.warned = turn
                await self._warn(table, seat, deadline - now)
            if now >= deadline:
                if not await self._play_for(table, seat, timing.CLOCK):
                    await asyncio.sleep(min(self.clock_tick, 0.1))
                continue
            wake = deadline - WARN_SECONDS if now < deadline - WARN_SECONDS else deadline
            await asyncio.sleep(max(0.0, min(wake - now, self.clock_tick)))

    async def _warn(self, table: Table, seat: int, left: float) -> None:
        frame = {"type": "clock-warning", "seat": seat, "left": round(max(0.0, left), 1)}
        for watcher in [watcher for watcher in table.watchers if watcher.viewer == seat]:
            with contextlib.suppress(Exception):
                await watcher.send(frame)

    async def _remind(self, table: Table, seat: int, deadline: float) -> bool:
        """A turn-based turn is running out: its seat is reminded once (kept in the set-up, so that every process
        agrees and the store's due moves on to the deadline): a frame to its pages, and the turn hooks for a person
        whose page is closed.  Whether it was (or had been) kept."""
        try:
            async with self._changing(table) as table:
                key = timing.turn_key(table)
                if key is None or key[0] != seat or table.setup.get("reminded") == key:
                    return True
                await self._keep_setup(table, {**table.setup, "reminded": key})
        except Refusal:  # the database refused: tried again
            return False
        frame = {"type": "clock-reminder", "seat": seat, "left": round(max(0.0, deadline - self.now()), 1)}
        for watcher in [watcher for watcher in table.watchers if watcher.viewer == seat]:
            with contextlib.suppress(Exception):
                await watcher.send(frame)
        await self._tell_hooks(table, seat, "reminder", deadline)
        return True

    def _stand_in(self, table: Table, seat: int) -> bots.Bot:
        bot = table.stand_ins.get(seat)
        if bot is None:
            name = default_opponent(table.session.rules.variant)
            bot = bots.create(name, seed=int(table.setup["seed"]) + STAND_IN_SEED * (seat + 1))
            table.stand_ins[seat] = bot
        return bot

    async def _play_for(self, table: Table, seat: int, by: str) -> bool:
        """The stand-in plays one action for ``seat`` (``by``: the clock, or the seat is gone); whether it did.  It
        thinks in a worker thread; whatever happened meanwhile (a person's move just before the deadline, the seat
        back) wins, and it plays only if the turn is still one it may play."""
        session = table.session
        if self.store.unsaved(table.table_id) or table.lost is not None:
            try:
                await self.saved(table)
            except OSError:
                return False
            return False  # look again: the table may have moved on
        version = session.version
        action = await asyncio.to_thread(self._stand_in(table, seat).act, session.observation(seat))
        if self.tables.get(table.table_id) is not table or session.version != version or session.to_act != seat:
            return False
        if table.over or session.seats[seat].bot is not None:  # ended, or its person resigned meanwhile
            return False
        if self.store.unsaved(table.table_id):
            return False
        if by == timing.CLOCK:
            deadline = timing.due(table)
            if deadline is None or self.now() < deadline:
                return False
        elif timing.gone_to_act(table) != seat:
            return False
        journal = session.store
        if isinstance(journal, JournalStore):
            journal.by = by
        try:
            session.play(action)
        except RackoError as error:  # a stand-in's move the engine refuses: said, and tried again later
            log.warning("table %s: the clock's move for seat %d was refused: %s", table.table_id, seat, error)
            return False
        finally:
            if isinstance(journal, JournalStore):
                journal.by = None
        try:
            await self._committed(table, time.perf_counter())
        except Refusal:
            fresh = self.tables.get(table.table_id)
            if fresh is not None:
                await asyncio.sleep(RETRY_SECONDS)
                self.wake_bots(fresh)
            return False
        await self._tell_presence(table)  # the seat may be gone now
        return True

    async def back(self, table: Table, seat: int) -> None:
        """A gone seat's person takes it back (the "I'm back" frame, or acting at their turn): kept in the set-up,
        so that every process derives the same clocks; a turn under way starts again for them."""
        if table.clock is None or table.session.seats[seat].bot is not None or not table.clock.gone(seat):
            raise Refusal("not-gone", "Your seat is yours: play on.")
        async with self._changing(table) as table:
            if table.clock is None or not table.clock.gone(seat):
                return
            seats = list(table.setup["seats"])
            seats[seat] = {**seats[seat], "back": [len(table.played), self.now()]}
            await self._keep_setup(table, {**table.setup, "seats": seats})
        await self.broadcast(table)
        await self._tell_presence(table)
        self.wake_bots(table)
