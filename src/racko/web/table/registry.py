"""The tables this process plays, and who plays each: opening a table from the store (replayed from its journal),
the leases that keep two processes from playing one table, the group commits that make an action durable before
anybody is told, the tables handed on when nobody watches them, and a finished game passed on once."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from racko.errors import RackoError
from racko.play.session import PlaySession, SeatSpec
from racko.record import GameRecord
from racko.web.clock import Played
from racko.web.core import Refusal
from racko.web.ops import Metrics
from racko.web.players import AddressMarks, Players
from racko.web.store import IDLE_DAYS, UNPLAYED_DAYS, DamagedTableError, TableStore
from racko.web.table import timing
from racko.web.table.state import (
    ABORTED,
    MOVED,
    Elsewhere,
    JournalStore,
    Table,
    ended,
    journal_made_by,
    noted_record,
    replay_stored,
    said,
)

KEEP_SECONDS = 1.0
"""How often the leases of the tables this process plays are renewed (and idle tables looked for)."""
IDLE_SECONDS = 600.0
"""A table nobody has watched for this long (and no computer player is thinking at) leaves this process's memory;
the next connection opens it again from the database."""
LOOK_AHEAD_SECONDS = 2 * KEEP_SECONDS
"""The keep loop wakes the tables whose deadline comes within this, so that their clocks wait for it to the moment
(a look once a second alone would play a timeout up to a second late, and later when the loop's round is slow)."""
SWEEP_SECONDS = 3600.0
"""How often the tables nobody needs any more are forgotten (and once at start)."""
DAMAGED = "This table cannot be opened: its saved game is damaged. The server's operator has been told why."
log = logging.getLogger("racko.serve")


class Registry(abc.ABC):
    """Every table this server process plays, and the people watching them.

    With a store that several processes share, a table is played here only while this process holds its lease
    (:meth:`TableStore.claim`): :meth:`keep` renews the leases, drops a table whose lease was lost, and hands on the
    tables nobody watches any more, so that whichever process a proxy sends the next connection to can claim them.
    The concerns of a table live in the classes above this one: who watches it (:mod:`.watching`), moves
    (:mod:`.moves`), computer players (:mod:`.computer`), seats and set-up (:mod:`.seating`)."""

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
        self.now = now
        """The server's clock (seconds since the epoch): what the journal's times and the clocks are read on (tests
        pass one they move by hand)."""
        self.clock_tick = 1.0
        """The longest a table's clock waits before it looks at :attr:`now` again (a clock moved by hand in tests is
        seen within this)."""
        self.pace = pace
        """Seconds a computer player waits before its move, so that people can follow."""
        self.away_seconds = away_seconds
        self.idle_seconds = idle_seconds
        self.metrics = metrics
        self.tables: dict[str, Table] = {}
        self.set_aside: dict[str, str] = {}
        """Tables whose stored rows cannot be replayed, and why: refused with :data:`DAMAGED`, never played."""
        self._commit: asyncio.Task[None] | None = None
        """The group commit under way, in a worker thread (a store that groups its commits only)."""
        self.players = players
        """The players room: seats bound to players, their lists of tables, forgotten seats."""
        self.followers: list[Callable[[str, dict[str, Any], bool, bool], Awaitable[None]]] = []
        """Told when a table's seats, game or people changed, with its id, set-up, whether its game is over and
        whether a person has it open (the lobby, which keeps the public tables' lines)."""
        self.background: set[asyncio.Task[None]] = set()
        """Tasks a game's end set going (its lobby line, ratings, histories), kept until done."""
        self.game_over_hooks: list[Callable[[Table, GameRecord], Awaitable[None]]] = []
        """Called once when a table's game ends, with its record (ratings and the players' histories)."""
        self.turn_hooks: list[Callable[[Table, int, str, float | None], Awaitable[None]]] = []
        """Called with a table, a person's seat, what (``"turn"``: its turn began; ``"reminder"``: a turn-based turn
        is running out) and the turn's deadline (the server's time; ``None`` without a clock), for another room to
        tell the person whose page is closed (Web Push).  ``"turn"`` is called by the process that played the move
        before it (once per turn, at any table, but not for a gone seat, whose computer player plays at once),
        ``"reminder"`` once per turn by the process that sends it (kept in the set-up).  A hook's failure is logged,
        never the table's."""
        self.rate_shared_addresses = rate_shared_addresses
        """Whether a rated table stays rated when two of its seats play from one network address (a school's)."""
        self.marks = AddressMarks(store)
        self._setup_locks: dict[str, asyncio.Lock] = {}
        """Per table, held while its set-up changes (:meth:`_changing`)."""
        self._forgetting = asyncio.Lock()
        self.bot_games_at_once = bot_games_at_once
        """Games not over a bot account may sit at: a table that would seat it at one more is refused."""
        self._seating_bots = asyncio.Lock()

    # --- setting tables up ---------------------------------------------------------------------------

    def _open(
        self,
        table_id: str,
        setup: dict[str, Any],
        actions: list[dict[str, Any]],
        times: Sequence[float | None] = (),
        made_by: Sequence[str | None] = (),
        quiet_for: float = 0.0,
    ) -> Table:
        """The table replayed from its set-up and journal (and when each action was played, by whom: its clock), its
        people away for ``quiet_for`` seconds already; :class:`DamagedTableError` if they are not a game."""
        match = replay_stored(table_id, setup, actions)
        try:
            seats = [SeatSpec(spec["name"], spec["bot"]) for spec in setup["seats"]]
        except (RackoError, KeyError, TypeError, ValueError) as error:
            raise DamagedTableError(table_id, f"its set-up is not a game ({said(error)})") from None
        try:
            store = JournalStore(self.store, table_id, len(actions), self.now, made_by)
            session = PlaySession(match, seats, store, bot_seed=setup["seed"])
        except (RackoError, KeyError, TypeError, ValueError) as error:
            raise DamagedTableError(table_id, f"its seats are not a game's ({said(error)})") from None
        table = Table(table_id, setup, session, quiet_since=time.monotonic(), opened_at=self.now())
        table.played = timing.played_of(session.record(), times, made_by)
        table.made_by = store.made_by  # the same list: the store adds to it as actions are appended
        timing.refresh(table)

        def noted(played: list[Played]) -> float | None:
            table.played.extend(played)
            timing.refresh(table)
            return timing.wake_at(table)

        store.noted = noted
        store.notes = lambda record: noted_record(table.setup, record, store.made_by)
        self.tables[table_id] = table
        since = time.monotonic() - quiet_for
        for seat, spec in enumerate(setup["seats"]):
            if spec["bot"] is None:
                table.away_since[seat] = since
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
                # Nobody has moved since the table was last written: its people have been away that long at least
                # (a table opened again, after it was idle or its process stopped, does not start their time anew).
                quiet_for = max(0.0, time.time() - stored.touched)
                table = self._open(
                    table_id, stored.setup, list(stored.actions), stored.times, stored.made_by, quiet_for
                )
                log.info("table %s opened at version %d", table_id, table.version)
                if table.over:  # its end may not have been passed on before a crash
                    with contextlib.suppress(RuntimeError):  # no running loop: nobody to pass it to
                        self.in_background(self._report(table))
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
        that died) unless that process renews it meanwhile (alive: :class:`Elsewhere` says which one).  Raises
        :class:`Refusal` ``no-table`` or ``damaged`` too."""
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
        count = 0
        for table_id in list(self.store.open_tables()):
            table = self.table(table_id)
            if table is not None:
                count += 1
                self.wake_bots(table)
        return count

    async def drop(self, table: Table, why: str) -> None:
        """Stop playing the table here: forget it, stop its computer players, and tell its connections to reconnect
        (to whichever process plays it next).  ``why``: ``lost``, ``idle``, ``released``."""
        if self.tables.get(table.table_id) is table:
            del self.tables[table.table_id]
        for task in (table.thinking, table.timer):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if self.metrics is not None:
            self.metrics.tables_dropped.labels(why).inc()
        for watcher in list(table.watchers):
            with contextlib.suppress(Exception):  # a connection already gone
                await watcher.send({"type": "moved", "message": "The table moved to another server: reconnecting."})
                if watcher.close is not None:
                    await watcher.close(MOVED)

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
            await self.forget_seats()
            if time.monotonic() - swept >= SWEEP_SECONDS:
                swept = time.monotonic()
                await self.sweep()

    async def _claim_overdue(self) -> None:
        """Play the timeouts nobody else will: a table whose clock runs out within :data:`LOOK_AHEAD_SECONDS` (or
        ran out) while no live process held it (its holder died, or nobody opened it) is claimed, opened and its
        clock set going, which plays the turn at its time; a turn-based table held here has its clock task started
        again (it has none while it waits).
        Two processes may both find it; the claim lets one of them open it, and the fenced append keeps a turn
        from being played twice."""
        try:
            overdue = await asyncio.to_thread(self.store.overdue, self.now() + LOOK_AHEAD_SECONDS)
        except Exception as error:  # the database is away: the next turn looks again
            log.warning("could not look for tables whose clock ran out: %s", said(error))
            return
        for table_id in overdue:
            held = self.tables.get(table_id)
            if held is not None:  # held here: a turn-based table's clock has no task while it waits (re-armed now)
                self.arm(held)
                continue
            if table_id in self.set_aside:
                continue
            if await asyncio.to_thread(self.store.claim, table_id) is not None or table_id in self.tables:
                continue
            table = self._load(table_id)
            if table is not None:
                log.info("table %s opened: its clock ran out", table_id)
                self.wake_bots(table)

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
            if table.thinking is not None and not table.thinking.done():
                continue
            if table.timer is not None and not table.timer.done():
                continue  # a clock runs here: its turn runs out here (a table handed on would wait for a claim)
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
        """At shutdown: what a game's end set going is done, computer players stop, every write is committed, every
        table is handed on."""
        await asyncio.gather(*list(self.background), return_exceptions=True)
        for table in list(self.tables.values()):
            for task in (table.thinking, table.timer):
                if task is not None:
                    task.cancel()
        for table in list(self.tables.values()):
            await self.drop(table, "released")
        await asyncio.to_thread(self.store.close)

    async def saved(self, table: Table) -> None:
        """Wait until the table's writes are committed; raises :class:`OSError` if they were lost (and the table
        keeps saying so until it is reloaded)."""
        try:
            await self._commit_now(table.table_id)
        except OSError as error:
            table.lost = str(error)
        if table.lost is not None:
            raise OSError(f"the table's database refused the move ({table.lost})")

    async def _commit_now(self, table_id: str) -> None:
        """Wait until the table's writes are committed: a store that groups its commits commits in a worker thread,
        once for every table written meanwhile, so the event loop never waits for the database.  Raises
        :class:`OSError` with the reason if the table's writes were not kept."""
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

    async def _report(self, table: Table) -> None:
        """Pass a finished game on, once per process (the hooks themselves keep each game once, so a table opened
        again after a crash between its last move and this is passed on again safely)."""
        if table.reported:
            return
        table.reported = True
        early = ended(table.setup)
        if early is not None and early.get("how") == ABORTED:
            return  # an aborted game counts for nothing: no rating, no history
        record = noted_record(table.setup, table.session.record(), journal_made_by(table))
        for hook in self.game_over_hooks:
            try:
                await hook(table, record)
            except Exception as error:  # the game itself is kept whatever a hook does
                log.warning("table %s: the game's end could not be passed on: %s", table.table_id, said(error))

    def record(self, table_id: str, game: int | None = None) -> str | None:
        """A finished game's record (never one in progress: it holds every card)."""
        records = self.store.records(table_id)
        if not records:
            return None
        if game is None:
            return records[-1]
        return records[game - 1] if 1 <= game <= len(records) else None

    @abc.abstractmethod
    def wake_bots(self, table: Table, pause: float = 0.0) -> None:
        """Start the computer players' moves (:class:`~racko.web.table.computer.ComputerPlayers`)."""

    @abc.abstractmethod
    def arm(self, table: Table) -> None:
        """Start the table's clock task if its clock has something to do (:class:`~racko.web.table.clocks.Clocks`)."""

    @abc.abstractmethod
    async def back(self, table: Table, seat: int) -> None:
        """A gone seat's person takes it back (:class:`~racko.web.table.clocks.Clocks`)."""

    @abc.abstractmethod
    async def forget_seats(self) -> None:
        """Rewrite the seats of forgotten players (:class:`~racko.web.table.seating.Seating`)."""
