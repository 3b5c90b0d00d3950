"""The tables this process plays, and who plays each: opening a table from the store (replayed from its journal),
the leases that keep two processes from playing one table, the group commits that make an action durable before
anybody is told, a change of a table's set-up (one at a time), the tables handed on when nobody watches them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from typing import Any

from racko.errors import RackoError
from racko.play.session import PlaySession, SeatSpec
from racko.web.clock import ROUND_PAUSE, Played
from racko.web.core import Refusal
from racko.web.ops import Metrics
from racko.web.store import IDLE_DAYS, UNPLAYED_DAYS, DamagedTableError, TableStore
from racko.web.table.seats import Seats
from racko.web.table.setup import Setup, SetupError
from racko.web.table.table import (
    MOVED,
    Elsewhere,
    JournalStore,
    Table,
    not_saved_if_refused,
    noted_record,
    played_of,
    said,
)

KEEP_SECONDS = 1.0
"""How often the leases of the tables this process plays are renewed (and idle tables looked for)."""
IDLE_SECONDS = 600.0
"""A table nobody has watched for this long (and whose driver waits for nobody) leaves this process's memory; the
next connection opens it again from the database."""
LOOK_AHEAD_SECONDS = 2 * KEEP_SECONDS
"""The keep loop wakes the tables whose deadline comes within this, so that their clocks wait for it to the moment
(a look once a second alone would play a timeout up to a second late, and later when the loop's round is slow)."""
SWEEP_SECONDS = 3600.0
"""How often the tables nobody needs any more are forgotten (and once at start)."""
DAMAGED = "This table cannot be opened: its saved game is damaged. The server's operator has been told why."
log = logging.getLogger("racko.serve")


class Registry:
    """Every table this server process plays.

    With a store that several processes share, a table is played here only while this process holds its lease
    (:meth:`TableStore.claim`): :meth:`keep` renews the leases, drops a table whose lease was lost, and hands on the
    tables nobody watches any more, so that whichever process a proxy sends the next connection to can claim them.
    ``opened`` is told of every table opened here (its driver starts, a game over is passed on); ``each_second``
    runs at every turn of the keep loop (the seats of forgotten players)."""

    def __init__(
        self,
        store: TableStore,
        *,
        now: Callable[[], float],
        idle_seconds: float = IDLE_SECONDS,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.now = now
        self.idle_seconds = idle_seconds
        self.metrics = metrics
        self.tables: dict[str, Table] = {}
        self.set_aside: dict[str, str] = {}
        """Tables whose stored rows cannot be replayed, and why: refused with :data:`DAMAGED`, never played."""
        self.background: set[asyncio.Task[None]] = set()
        """Tasks a game's end set going (its lobby line, ratings, histories), kept until done."""
        self.opened: Callable[[Table], None] = lambda table: None
        self.each_second: Callable[[], Awaitable[None]] | None = None
        self._commit: asyncio.Task[None] | None = None
        """The group commit under way, in a worker thread (a store that groups its commits only)."""
        self._setup_locks: dict[str, asyncio.Lock] = {}

    # --- opening tables -------------------------------------------------------------------------------

    def open(
        self,
        table_id: str,
        setup: Setup,
        actions: list[dict[str, Any]],
        times: Sequence[float | None] = (),
        made_by: Sequence[str | None] = (),
        quiet_for: float = 0.0,
    ) -> Table:
        """The table replayed from its set-up and journal (when each action was played, and who played it for its
        seat), its people away for ``quiet_for`` seconds already; :class:`DamagedTableError` if they are no game."""
        from racko.web.table.table import replay_stored

        match = replay_stored(table_id, setup, actions)
        try:
            store = JournalStore(self.store, table_id, len(actions), self.now, made_by)
            seats = [SeatSpec(spec.name, spec.bot) for spec in setup.seats]
            session = PlaySession(match, seats, store, bot_seed=setup.seed)
        except (RackoError, KeyError, TypeError, ValueError) as error:
            raise DamagedTableError(table_id, f"its seats are not a game's ({said(error)})") from None
        now = self.now()
        table = Table(table_id, setup, session, Seats([]), quiet_since=time.monotonic(), opened_at=now)
        table.played = played_of(session.record(), times)
        table.made_by = store.made_by  # the same list: the store adds to it as actions are appended
        table.seats = Seats.replayed(setup, table.journal(), table.over, now - quiet_for)
        table.seats.pause_until = table.pause_until()
        table.refresh_clock()

        def noted(played: list[Played]) -> float | None:
            rounds = len(table.session.match.results)
            ended_one = bool(played) and played[-1].round < rounds
            table.played.extend(played)
            if ended_one and not table.session.match.over and played[-1].at is not None:
                table.seats.pause(played[-1].at + ROUND_PAUSE, played[-1].at)  # the round's report: nobody acts
            table.refresh_clock()
            return table.wake_at()

        store.noted = noted
        store.notes = lambda record: noted_record(table.setup, record, store.made_by)
        self.tables[table_id] = table
        return table

    def table(self, table_id: str) -> Table | None:
        """The table if this process plays it or may start to now (claimed and loaded from the store); ``None`` if
        there is no such table, it is set aside, or another process holds it."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 40:
            return None
        table = self.tables.get(table_id)
        if table is not None or table_id in self.set_aside:
            return table
        if self.store.claim(table_id) is not None:
            return None
        return self._load(table_id)

    def _load(self, table_id: str) -> Table | None:
        """Open a table this process has claimed; a damaged one is set aside (one line in the log, no traceback)."""
        try:
            stored = self.store.load(table_id)
            if stored is not None:
                try:
                    setup = Setup.of_json(stored.setup)
                except SetupError as error:
                    raise DamagedTableError(table_id, str(error)) from None
                # Nobody has moved since the table was last written: its people have been away that long at least
                # (a table opened again, after it was idle or its process stopped, does not start their time anew).
                quiet_for = max(0.0, self.now() - stored.touched)
                table = self.open(table_id, setup, list(stored.actions), stored.times, stored.made_by, quiet_for)
                log.info("table %s opened at version %d", table_id, table.version)
                with contextlib.suppress(RuntimeError):  # no running loop: nobody to tell
                    self.opened(table)
                return table
        except DamagedTableError as damage:
            self.set_aside[table_id] = damage.reason
            log.warning("table %s set aside: %s", table_id, damage.reason)
            if self.metrics is not None:
                self.metrics.tables_set_aside.inc()
        self.store.release(table_id)
        return None

    async def reach(self, table_id: str) -> Table:
        """The table for a new connection.  If another process holds it, wait for its lease to run out (a process
        that died) unless that process renews it meanwhile (alive: :class:`Elsewhere` says which one).  Refuses
        ``no-table`` or ``damaged`` too."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 40:
            raise Refusal("no-table", "There is no such table.")
        deadline: float | None = None
        seen: float | None = None
        while (table := self.tables.get(table_id)) is None:
            if table_id in self.set_aside:
                raise Refusal("damaged", DAMAGED)
            holder = await asyncio.to_thread(self.store.claim, table_id)
            if table_id in self.tables:
                continue  # another connection opened it meanwhile
            if holder is None:
                table = self._load(table_id)  # no await between the check above and the table's opening
                if table is None:
                    raise (
                        Refusal("damaged", DAMAGED)
                        if table_id in self.set_aside
                        else Refusal("no-table", "There is no such table.")
                    )
                return table
            now = time.monotonic()
            ends = now + holder.seconds_left
            if seen is not None and ends > seen + KEEP_SECONDS / 2:
                raise Elsewhere(holder.node)  # its lease was renewed while we waited: its process is alive
            seen = ends
            if deadline is None:
                deadline = ends + 2 * KEEP_SECONDS
            if now > deadline:
                raise Elsewhere(holder.node)
            await asyncio.sleep(min(KEEP_SECONDS / 4, holder.seconds_left + 0.05))
        return table

    def resume_all(self) -> int:
        """Open every table whose game is not over (at start-up), so that computer players go on; how many.  A
        shared store's tables wait for their first connection instead: the proxy decides which process plays them."""
        if self.store.shared:
            return 0
        return sum(self.table(table_id) is not None for table_id in list(self.store.open_tables()))

    async def drop(self, table: Table, why: str) -> None:
        """Stop playing the table here: forget it, stop its driver, and tell its connections to reconnect (to
        whichever process plays it next).  ``why``: ``lost``, ``idle``, ``released``."""
        if self.tables.get(table.table_id) is table:
            del self.tables[table.table_id]
        if table.driver is not None and table.driver is not asyncio.current_task():
            table.driver.cancel()
        if self.metrics is not None:
            self.metrics.tables_dropped.labels(why).inc()
        for watcher in list(table.watchers):
            with contextlib.suppress(Exception):  # a connection already gone
                await watcher.send({"type": "moved", "message": "The table moved to another server: reconnecting."})
                if watcher.close is not None:
                    await watcher.close(MOVED)

    def reloaded(self, table: Table) -> Table | None:
        """The table opened again from the store after a write of it was lost (``None``: another process plays it
        now); its connections carried over, each to be brought up to it from the start."""
        self.tables.pop(table.table_id, None)
        fresh = self.table(table.table_id)
        if fresh is not None:
            fresh.watchers = table.watchers
            fresh.quiet_since = None if fresh.watchers else fresh.quiet_since
            for watcher in fresh.watchers:
                watcher.version = 0
                if watcher.viewer is not None:
                    fresh.seats.connect(watcher.viewer, self.now())
        return fresh

    # --- a change of a table's set-up --------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def changing(self, table: Table) -> AsyncIterator[Table]:
        """Hold the table's set-up for one change (who sits where, their names, a seat handed over, a way out, the
        next game): changes of one table's set-up take turns, so that two people joining or naming themselves at
        once both keep theirs.  Yields the table as it is once it is this change's turn (it may have been opened
        again meanwhile).  Only the process holding a table's lease writes its set-up (racko.web.store), so this
        orders them in every process."""
        lock = self._setup_locks.setdefault(table.table_id, asyncio.Lock())
        async with lock:
            yield self.tables.get(table.table_id, table)

    async def keep_setup(self, table: Table, setup: Setup) -> None:
        """A changed set-up (made while :meth:`changing` holds the table): in the database first, then here; a
        database that refuses changes nothing."""
        with not_saved_if_refused():
            self.store.update_setup(table.table_id, setup.json())
            await self.commit_now(table.table_id)
        table.setup = setup
        await self.note_due(table)

    async def note_due(self, table: Table) -> None:
        """The table's clock derived again (a clock started, a seat back, a seat handed to a computer player), and
        when something is next due there kept in the store, for the other processes (and the keep loop)."""
        table.refresh_clock()
        self.store.set_due(table.table_id, table.wake_at())
        with contextlib.suppress(OSError):  # the deadline is for other processes: the next write brings it again
            await self.commit_now(table.table_id)

    async def settled(self, table: Table) -> Table:
        """The table once its last move is in the database (a change of set-up never overtakes a move)."""
        try:
            await self.saved(table)
        except OSError:
            raise Refusal("not-saved", "The last move could not be saved; look again.") from None
        return self.tables.get(table.table_id, table)

    # --- the server's life -----------------------------------------------------------------------------

    async def keep(self) -> None:
        """For the server's life: renew the leases, drop the tables whose lease was lost, hand on the idle ones, and
        now and then forget the tables nobody needs any more."""
        swept = -SWEEP_SECONDS
        while True:
            await asyncio.sleep(KEEP_SECONDS)
            try:
                lost = await asyncio.to_thread(self.store.renew)
            except Exception as error:  # the database is away: the writes' fences keep the tables safe meanwhile
                log.warning("could not renew the tables' leases: %s", said(error))
                lost = []
            for table_id in lost:
                table = self.tables.get(table_id)
                if table is not None:
                    log.warning("table %s lost: another process took it over", table_id)
                    await self.drop(table, "lost")
            await self._hand_on_idle()
            await self._claim_overdue()
            if self.each_second is not None:
                await self.each_second()
            if time.monotonic() - swept >= SWEEP_SECONDS:
                swept = time.monotonic()
                await self.sweep()

    async def _claim_overdue(self) -> None:
        """Play the timeouts nobody else will: a table whose clock runs out within :data:`LOOK_AHEAD_SECONDS` (or
        ran out) while no live process held it (its holder died, or nobody opened it) is claimed and opened, and its
        driver plays the turn at its time; a turn-based table held here has its driver started again (it has none
        while it waits).  Two processes may both find it; the claim lets one of them open it, and the fenced append
        keeps a turn from being played twice."""
        try:
            overdue = await asyncio.to_thread(self.store.overdue, self.now() + LOOK_AHEAD_SECONDS)
        except Exception as error:  # the database is away: the next turn looks again
            log.warning("could not look for tables whose clock ran out: %s", said(error))
            return
        for table_id in overdue:
            held = self.tables.get(table_id)
            if held is not None:
                self.opened(held)
                continue
            if table_id in self.set_aside:
                continue
            if await asyncio.to_thread(self.store.claim, table_id) is not None or table_id in self.tables:
                continue
            if self._load(table_id) is not None:
                log.info("table %s opened: its clock ran out", table_id)

    async def sweep(self) -> int:
        """Forget the tables nobody needs any more, in the database and here."""
        try:
            count = await asyncio.to_thread(self.store.sweep, IDLE_DAYS * 86400, UNPLAYED_DAYS * 86400)
        except Exception as error:
            log.warning("could not forget old tables: %s", said(error))
            return 0
        if count:
            log.info("%d tables nobody needed any more were forgotten", count)
        return count

    async def _hand_on_idle(self) -> None:
        now = time.monotonic()
        for table in list(self.tables.values()):
            quiet = table.quiet_since
            if quiet is None or now - quiet < self.idle_seconds or table.watchers:
                continue
            if table.driver is not None and not table.driver.done():
                continue  # a computer player or a clock works here: it finishes here
            if self.store.unsaved(table.table_id):
                continue
            await self.drop(table, "idle")
            await asyncio.to_thread(self.store.release, table.table_id)

    def in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in a task of its own, kept until it is done (and waited for at shutdown)."""
        task = asyncio.get_running_loop().create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def close(self) -> None:
        """At shutdown: what a game's end set going is done, the drivers stop, every write is committed, every
        table is handed on."""
        await asyncio.gather(*list(self.background), return_exceptions=True)
        for table in list(self.tables.values()):
            if table.driver is not None:
                table.driver.cancel()
        for table in list(self.tables.values()):
            await self.drop(table, "released")
        await asyncio.to_thread(self.store.close)

    # --- commits ------------------------------------------------------------------------------------

    async def saved(self, table: Table) -> None:
        """Wait until the table's writes are committed; :class:`OSError` if they were lost (and the table keeps
        saying so until it is reloaded)."""
        try:
            await self.commit_now(table.table_id)
        except OSError as error:
            table.lost = str(error)
        if table.lost is not None:
            raise OSError(f"the table's database refused the move ({table.lost})")

    async def commit_now(self, table_id: str) -> None:
        """Wait until the table's writes are committed: a store that groups its commits commits in a worker thread,
        once for every table written meanwhile, so the event loop never waits for the database.  :class:`OSError`
        with the reason if the table's writes were not kept."""
        while self.store.unsaved(table_id):
            if self._commit is None or self._commit.done():
                self._commit = asyncio.get_running_loop().create_task(self._commit_in_thread())
            await asyncio.shield(self._commit)
        problem = self.store.lost(table_id)
        if problem is not None:
            raise OSError(problem)

    async def _commit_in_thread(self) -> None:
        # The writes go into the transaction here (quick); the worker thread only waits for the disk's sync.
        # A failure is not raised: the tables whose writes were lost learn it from store.lost.
        started = time.perf_counter()
        with contextlib.suppress(Exception):
            self.store.stage()
        try:
            await asyncio.to_thread(self.store.commit)
        except Exception as error:
            log.warning("a commit of the database failed: %s", said(error))
        else:
            if self.metrics is not None:
                self.metrics.database_commit.observe(time.perf_counter() - started)

    def record(self, table_id: str, game: int | None = None) -> str | None:
        """A finished game's record (never one in progress: it holds every card)."""
        records = self.store.records(table_id)
        if not records:
            return None
        if game is None:
            return records[-1]
        return records[game - 1] if 1 <= game <= len(records) else None
