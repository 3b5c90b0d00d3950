"""Who plays the turn nobody's frame plays, and when: one task per table (its driver) that a change wakes, which
decides from the seat to act's state (:mod:`.seats`) and the clock (the table's, :meth:`.Table.due`) what comes next:

- the round's report pauses the table: nobody acts and no clock runs until the pause ends, at any table;
- a computer player's seat (a level's, or one whose person left) plays after the table's pace;
- a gone seat's computer player stands in at once (after the pace), marked in the journal as ``gone``;
- a person's seat with a clock: warned shortly before the deadline (a turn-based one reminded hours before), and at
  the deadline its stand-in plays the whole turn, marked ``clock`` (the seat's ``deadline`` event: two in a row and
  it is gone);
- a person's seat without a clock waits for its person; a table with a bot account ends at its limit
  (:data:`TURN_LIMIT`), clock or not.

Every computer player thinks in a worker thread; whatever happened meanwhile (a person's move just before the
deadline, the seat back, the table handed on) wins, and it plays only if the turn is still one it may play, through
the same step after a change as any move (:mod:`.changes`)."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from racko import bots
from racko.errors import RackoError
from racko.play.session import default_opponent
from racko.web.clock import WARN_SECONDS
from racko.web.core import Refusal
from racko.web.ops import Metrics
from racko.web.table.registry import LOOK_AHEAD_SECONDS, Registry
from racko.web.table.seats import Acting, SeatEvent
from racko.web.table.setup import LIMIT
from racko.web.table.table import CLOCK, GONE, JournalStore, Table, said

if TYPE_CHECKING:
    from racko.web.table.changes import Changes

log = logging.getLogger("racko.serve")

SOON_SECONDS = LOOK_AHEAD_SECONDS + 1.0
"""A turn-based clock whose next step (its reminder or deadline) is this near waits for it in the driver; a later
one has no task meanwhile (the keep loop's ``overdue`` wakes the table :data:`LOOK_AHEAD_SECONDS` before)."""
RETRY_SECONDS = 1.0
"""The pause before a computer player tries again a move the database refused."""
STAND_IN_SEED = 7919
"""Mixed into a table's seed for the computer players that stand in for its people (seeded, as every bot here)."""
TURN_LIMIT = 2000
"""A game at a table with a bot account ends after this many turns (docs/PLAYING.md "Every game ends"): about five
times the longest game measured between racko's levels at the default targets."""


class Kind(enum.Enum):
    COMPUTER = "computer"
    STAND_IN = "stand-in"
    CLOCK = "clock"


class Turns:
    """The drivers of every table: computer players, stand-ins, the clock's warnings, reminders and deadlines."""

    def __init__(
        self,
        registry: Registry,
        changes: Changes,
        end_game: Callable[[Table, str], Awaitable[None]],
        list_turn: Callable[[str, int | None, float | None], Awaitable[None]],
        *,
        now: Callable[[], float],
        pace: float,
        metrics: Metrics | None = None,
    ) -> None:
        self.registry = registry
        self.changes = changes
        self.end_game = end_game
        """Ends a game where it stands (the ways out's own ending, racko.web.table.ways)."""
        self.list_turn = list_turn
        """Notes whose move it is at a table and until when for its players' lists of tables (written soon after)."""
        self.now = now
        self.pace = pace
        """Seconds a computer player waits before its move, so that people can follow."""
        self.metrics = metrics
        self.clock_tick = 1.0
        """The longest a driver waits before it looks at :attr:`now` again (a clock moved by hand in tests is seen
        within this)."""

    def wake(self, table: Table) -> None:
        """After a change: the table's driver looks again (started if it has none running)."""
        if self.registry.tables.get(table.table_id) is not table or table.over:
            return
        self._note_turn(table)
        if table.driver is not None and not table.driver.done():
            table.nudge.set()
            return
        with contextlib.suppress(RuntimeError):  # no running loop (a table opened outside the server)
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        while self.registry.tables.get(table.table_id) is table and not table.over:
            table.nudge.clear()
            try:
                wait = await self.step(table)
            except Exception as error:  # never a traceback: said once, tried again after a while
                log.warning("table %s: its driver failed: %s", table.table_id, said(error))
                wait = RETRY_SECONDS
            if wait is None:
                return  # nothing to do until a change wakes it (a person's turn without a running clock)
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.nudge.wait(), min(wait, self.clock_tick))

    async def step(self, table: Table) -> float | None:
        """Do what is due at the table now, if anything; how long to wait before looking again (``None``: until a
        change; 0: at once)."""
        session = table.session
        seat = session.to_act
        now = self.now()
        if table.over or seat is None:
            return None
        if table.seats.paused(now):  # the round's report: nobody acts, no clock runs
            assert table.seats.pause_until is not None
            return table.seats.pause_until - now
        if self._at_limit(table):
            await self.end_game(table, LIMIT)
            return None
        acting = table.seats.acting(seat)
        if acting is Acting.COMPUTER:
            return await self._play(table, seat, Kind.COMPUTER)
        if acting is Acting.STAND_IN:
            return await self._play(table, seat, Kind.STAND_IN)
        if acting is not Acting.PERSON:
            return None
        deadline = table.due()
        clock = table.clock
        if deadline is None or clock is None or clock.since is None:
            return None
        if clock.preset.turn_based:
            remind = table.remind_at()
            if now >= deadline:
                return await self._play(table, seat, Kind.CLOCK)
            if remind is not None and now >= remind:
                await self._remind(table, seat, deadline)
                return 0.0
            wake = remind if remind is not None else deadline
            return wake - now if wake - now <= SOON_SECONDS else None  # days to wait: the keep loop wakes it
        turn = (seat, clock.since)
        if now >= deadline - WARN_SECONDS and table.warned != turn:
            table.warned = turn
            frame = {"type": "clock-warning", "seat": seat, "left": round(max(0.0, deadline - now), 1)}
            await self.changes.watching.tell(table, frame, seat, every=False)
        if now >= deadline:
            return await self._play(table, seat, Kind.CLOCK)
        return (deadline - WARN_SECONDS if now < deadline - WARN_SECONDS else deadline) - now

    def _at_limit(self, table: Table) -> bool:
        """A table with a bot account whose game has lasted :data:`TURN_LIMIT` turns.  A clock does not end such a
        game: a program moves in time, and two that cannot go out (two ``easy`` under the 2-player rule, about one
        round in a hundred) would play on for ever."""
        if not any(seat.bot_account for seat in table.setup.seats):
            return False
        return sum(table.turns_played()) >= TURN_LIMIT

    def _stand_in(self, table: Table, seat: int) -> bots.Bot:
        bot = table.stand_ins.get(seat)
        if bot is None:
            name = default_opponent(table.session.rules.variant)
            bot = bots.create(name, seed=table.setup.seed + STAND_IN_SEED * (seat + 1))
            table.stand_ins[seat] = bot
        return bot

    async def _play(self, table: Table, seat: int, kind: Kind) -> float | None:
        """One action for ``seat``: by its computer player, its stand-in (gone), or its stand-in at the deadline
        (the clock).  How long to wait before looking again."""
        session = table.session
        if self.registry.store.unsaved(table.table_id) or table.lost is not None:
            with contextlib.suppress(OSError):
                await self.registry.saved(table)
            return 0.0 if table.lost is None else RETRY_SECONDS
        if kind is not Kind.CLOCK:
            await asyncio.sleep(self.pace)  # as any computer player: people can follow
        version = session.version
        if self._changed(table, seat, version, kind):
            return 0.0
        bot = session.bot_to_act() if kind is Kind.COMPUTER else self._stand_in(table, seat)
        if bot is None:
            return 0.0
        started = time.perf_counter()
        action = await asyncio.to_thread(bot.act, session.observation(seat))  # a slow bot holds up no other table
        if self.metrics is not None:
            self.metrics.thinking.observe(time.perf_counter() - started)
        if self._changed(table, seat, version, kind) or self.registry.store.unsaved(table.table_id):
            return 0.0  # the table moved on meanwhile: look again
        if kind is Kind.CLOCK and self._first_of_turn(table, seat):
            table.seats.apply(seat, SeatEvent.DEADLINE, self.now())  # the clock plays this turn
        journal = session.store
        try:
            if kind is Kind.COMPUTER:
                session.play_bot(action)
            else:
                if isinstance(journal, JournalStore):
                    journal.by = CLOCK if kind is Kind.CLOCK else GONE
                session.play(action)
        except RackoError as error:  # a computer player's move the engine refuses: said, and tried again later
            log.warning("table %s: the computer's move for seat %d was refused: %s", table.table_id, seat, error)
            return RETRY_SECONDS
        finally:
            if isinstance(journal, JournalStore):
                journal.by = None
        try:
            await self.changes.after(table, seats_changed=kind is not Kind.COMPUTER, moved=time.perf_counter())
        except Refusal:  # the database refused it and the table was opened again without it: tried again later
            return RETRY_SECONDS
        return 0.0

    def _changed(self, table: Table, seat: int, version: int, kind: Kind) -> bool:
        """Whether the turn is no longer one this kind of player may play (a move, the seat back or left, the table
        handed on, the game over, a pause, the deadline not reached after all)."""
        if self.registry.tables.get(table.table_id) is not table or table.over:
            return True
        if table.session.version != version or table.session.to_act != seat or table.seats.paused(self.now()):
            return True
        acting = table.seats.acting(seat)
        if kind is Kind.COMPUTER:
            return acting is not Acting.COMPUTER or table.session.bot_to_act() is None
        if kind is Kind.STAND_IN:
            return acting is not Acting.STAND_IN
        deadline = table.due()
        return acting is not Acting.PERSON or deadline is None or self.now() < deadline

    def _first_of_turn(self, table: Table, seat: int) -> bool:
        """Whether the clock's stand-in is about to play the first action of this turn for ``seat`` (the turn ran
        out once, however many actions it plays)."""
        played, marks = table.played, table.made_by
        if not played:
            return True
        last = played[-1]
        rounds = len(table.session.match.results)
        return not (last.seat == seat and last.round == rounds and marks and marks[-1] == CLOCK)

    async def _remind(self, table: Table, seat: int, deadline: float) -> None:
        """A turn-based turn is running out: its seat is reminded once (kept in the set-up, so that every process
        agrees and the store's due moves on to the deadline): a frame to its pages, and the turn's news for a person
        whose page is closed."""
        try:
            async with self.registry.changing(table) as table:
                key = table.turn_key()
                if key is None or key[0] != seat or table.setup.reminded == key:
                    return
                await self.registry.keep_setup(table, table.setup.changed(reminded=key))
        except Refusal:  # the database refused: tried again
            return
        frame = {"type": "clock-reminder", "seat": seat, "left": round(max(0.0, deadline - self.now()), 1)}
        await self.changes.watching.tell(table, frame, seat, every=False)
        await self._tell_turn(table, seat, "reminder", deadline)

    def _note_turn(self, table: Table) -> None:
        """After every change: the listeners told of a person's turn that began here, and the players' lists of
        tables told whose move it is and until when (written once per turn, and only at a table with a player's
        seat)."""
        seat = None if table.over else table.session.to_act
        if seat is not None and table.seats.acting(seat) is not Acting.PERSON:
            seat = None  # a computer plays it (a gone seat's at once): nobody to tell
        turn = _turn_of(table, seat)
        if turn is not None and table.announced != turn:
            # A turn that began before this process opened the table was announced by the one that held it: a
            # clock's turn began before the opening; a turn without a clock is the first one seen here.
            began_here = turn[1] >= table.opened_at if turn[1] >= 0 else table.announced is not None
            table.announced = turn
            if began_here:
                self.registry.in_background(self._tell_turn(table, turn[0], "turn", table.due()))
        elif turn is None and table.announced is None:
            table.announced = NO_TURN
        listed = (seat, table.due() if seat is not None else None)
        if table.listed != listed and any(spec.player for spec in table.setup.seats):
            table.listed = listed
            self.registry.in_background(self._list_turn(table.table_id, *listed))

    async def _tell_turn(self, table: Table, seat: int, what: str, deadline: float | None) -> None:
        player = table.setup.seats[seat].player
        if table.setup.seats[seat].bot is not None:
            return
        others = tuple(name for index, name in enumerate(table.setup.names) if index != seat)
        await self.changes.turn(table.table_id, seat, player, others, what, deadline, table.seats.connected(seat))

    async def _list_turn(self, table_id: str, seat: int | None, deadline: float | None) -> None:
        try:
            await self.list_turn(table_id, seat, deadline)
        except Exception as error:  # the lists are a convenience: the game goes on
            log.warning("table %s: whose move it is could not be listed: %s", table_id, said(error))


NO_TURN = (-1, -1.0)
"""What a table announced when no person's turn ran as this process first looked at it."""


def _turn_of(table: Table, seat: int | None) -> tuple[int, float] | None:
    """The person's turn running at the table, named once per turn: its seat and when it began (a clock's turn), or
    where it began in the journal (a turn without a running clock: a negative number, never a time)."""
    key = table.turn_key()
    if key is not None:
        return key
    if seat is None:
        return None
    round_now = len(table.session.match.results)
    start = len(table.played)
    while start > 0 and table.played[start - 1].seat == seat and table.played[start - 1].round == round_now:
        start -= 1
    return seat, -1.0 - (round_now * 1_000_000 + start)
