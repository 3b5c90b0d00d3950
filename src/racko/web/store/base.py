"""What the server needs from a database, whichever it is: the :class:`TableStore` interface and what its stores share.

A table is kept as what it was set up with (rules, seed, seats) and a journal of its actions, appended one by one:
the game is its replay (same seed + same actions = same game).  An action is committed before anybody is told it
happened.  A store that several server processes share (PostgreSQL) also keeps who plays each table: a lease that
its owner renews, taken over only once it has expired, and every write of a table is fenced by the owner's claim,
so that two processes never both write one table's journal (docs/SCALING.md).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

Write = TypeVar("Write")
T = TypeVar("T")

SYNC_LEVELS = ("full", "normal")
"""SQLite's ``synchronous`` settings the server offers: ``full`` syncs the journal at every commit (a power cut
loses nothing committed), ``normal`` syncs at checkpoints (a power cut may lose the last commits; a crash of the
server process alone never does).  PostgreSQL: ``full`` waits for the server's WAL flush at every commit
(``synchronous_commit = on``), ``normal`` does not (``off``: a crash of the database server may lose the last
commits, never corrupt them)."""

SCHEMA_NAME = "racko-tables"
SCHEMA_VERSION = 4
"""Kept in the database's own meta table: a database of another schema (or a newer version) is refused.  Version 2
added the meta table (SQLite; PostgreSQL began at 2), version 3 the rooms' tables (players, their games and
ratings, the lobby's listings), version 4 the seats to forget.  A database of an older version is brought up by
:meth:`TableStore.prepare` (the rooms' :class:`SchemaPart` upgrades), which then writes this version."""


@dataclass(frozen=True)
class SchemaPart:
    """A room's own tables in the store: made where missing (SQL both databases speak; ``{REAL}`` is a double), what
    becomes of their rows when an older database is brought up, and which of them keep rows per table."""

    room: str
    tables: str
    upgrades: tuple[tuple[int, str], ...] = ()
    """``(version, statement)``: run once, when a database older than that version is brought up."""
    kept_by_table: tuple[str, ...] = ()
    """Its tables whose rows belong to one table (by a ``table_id`` column): forgotten with their table."""


def schema_work(parts: Sequence[SchemaPart], real: str, found: int) -> Callable[[Rows], None]:
    """The transaction that makes the rooms' tables, runs the upgrades a database of version ``found`` needs, and
    writes this version (each store runs it its own way)."""

    def work(rows: Rows) -> None:
        for part in parts:
            for statement in part.tables.format(REAL=real).split(";"):
                if statement.strip():
                    rows(statement)
        for part in parts:
            for version, statement in part.upgrades:
                if found < version:
                    rows(statement)
        rows("UPDATE racko_meta SET value = ? WHERE key = 'version'", (str(SCHEMA_VERSION),))

    return work


class Rows(Protocol):
    """One transaction of the store's database, for the players, their games and the lobby (rare writes, never
    on a move's path): statements with ``?`` placeholders, answering their rows."""

    def __call__(self, sql: str, parameters: tuple[Any, ...] = ...) -> list[tuple[Any, ...]]: ...


IDLE_DAYS = 30.0
"""Tables nobody touched for this many days are forgotten (their finished records with them)."""
UNPLAYED_DAYS = 1.0
"""Tables on which no move was ever made, and nobody did anything for this long, are forgotten."""


class StoreError(Exception):
    """A database the server cannot use, said for the person who runs it (never with a traceback)."""


class ForeignDatabaseError(StoreError):
    """The database holds something other than racko's tables (or a schema this version does not know)."""


class DamagedTableError(StoreError):
    """One table's stored rows cannot be read back as a game: the table is set aside, every other one is served."""

    def __init__(self, table_id: str, reason: str) -> None:
        super().__init__(f"table {table_id}: {reason}")
        self.table_id = table_id
        self.reason = reason


@dataclass(frozen=True)
class StoredTable:
    """A table as kept: its set-up and its game so far."""

    table_id: str
    setup: dict[str, Any]
    """The rules, seed and seats (names, bots, the hashes of the seat tokens): JSON-ready."""
    actions: tuple[dict[str, Any], ...]
    """The game's actions so far, as records write them."""
    created: float
    touched: float
    finished: bool


@dataclass(frozen=True)
class Holder:
    """Another process that plays a table now: its node name, and how long its lease still runs."""

    node: str
    seconds_left: float


class TableStore(Protocol):
    """What the server needs from a database.  Every write is committed (durable at the store's sync level) when
    the call returns, or, in a store that groups its commits, when :meth:`commit` next returns: the server tells
    nobody about a table's change while :meth:`unsaved` says it is not committed yet."""

    shared: bool
    """Whether several server processes may use this database at once (then :meth:`claim` decides who plays)."""

    node: str
    """This process's name among the processes sharing the database (the proxy routes ``?node=`` by it)."""

    def describe(self) -> str:
        """Where the tables are kept, for the operator (a path, or a URL without its password)."""

    def unsaved(self, table_id: str) -> bool:
        """Whether the table has writes not committed yet (always False for a store that commits every write)."""

    def stage(self) -> None:
        """Write what is queued into the open transaction without syncing the disk (quick: the server calls it on its
        event loop, then :meth:`commit` in a worker thread, so that the worker only waits for the disk)."""

    def commit(self) -> None:
        """Commit every write not committed yet, as one transaction (raises, and keeps none of them, when it
        cannot); writes made meanwhile (from another thread) wait for the next commit."""

    def lost(self, table_id: str) -> str | None:
        """Why the table's last writes were not kept, if a commit lost them (asking forgets it)."""

    def create(self, table_id: str, setup: dict[str, Any]) -> None: ...

    def append(self, table_id: str, first: int, actions: list[dict[str, Any]]) -> None:
        """Add actions ``first``, ``first + 1`` … to the table's journal."""

    def update_setup(self, table_id: str, setup: dict[str, Any]) -> None:
        """A changed set-up (a seat's name, a seat handed to a computer player)."""

    def restart(self, table_id: str, setup: dict[str, Any], record: str) -> None:
        """File the finished game's record and start the table's next game from ``setup`` (an empty journal)."""

    def finish(self, table_id: str, record: str) -> None:
        """File the finished game's record; the table stays, to be shown and played again."""

    def rewrite_records(self, table_id: str, texts: dict[int, str]) -> None:
        """Replace finished games' records filed at the table, by their number (from 0, in the order
        :meth:`records` lists them): a forgotten player's name taken out of them."""

    def load(self, table_id: str) -> StoredTable | None:
        """The table, or ``None`` if there is none; raises :class:`DamagedTableError` for rows it cannot read."""

    def records(self, table_id: str) -> list[str]:
        """The table's finished games, oldest first, as record JSON."""

    def open_tables(self) -> Iterator[str]:
        """The ids of tables whose game is not over."""

    def sweep(self, idle_seconds: float, unplayed_seconds: float) -> int:
        """Forget the tables nobody touched for ``idle_seconds`` (their finished records too), and those on which no
        move was ever made and nothing happened for ``unplayed_seconds``; how many (a table another process plays
        now is never forgotten)."""

    def claim(self, table_id: str) -> Holder | None:
        """Become the table's only player: ``None`` when this process now holds its lease (or did already), else who
        holds it.  Every later write of the table is fenced by this claim."""

    def renew(self) -> list[str]:
        """Renew the lease of every table this process holds; the ids of those it no longer holds (taken over after
        this process was too slow to renew: they must be dropped at once)."""

    def release(self, table_id: str) -> None:
        """Stop playing the table (its writes are committed first): any process may claim it now."""

    def prepare(self, parts: Sequence[SchemaPart]) -> None:
        """Make the rooms' tables where missing and bring an older database's rows up to this version (blocking:
        once, before the server serves); the sweep then forgets the rows they keep per table with their table."""

    def run(self, work: Callable[[Rows], T]) -> T:
        """Run ``work`` in one transaction (blocking: call it in a worker thread); all of it is kept or none."""

    def read(self, work: Callable[[Rows], T]) -> T:
        """Run ``work``, which only reads, on a consistent snapshot of what is committed (blocking: call it in a
        worker thread); it waits for no write and makes none commit sooner."""

    def close(self) -> None: ...


class WriteQueue(Generic[Write]):
    """The writes a grouping store has been given and not yet committed, per table, and those a commit lost.

    Thread-safe: the event loop queues writes while a worker thread commits the ones taken before."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queued: list[tuple[str, Write]] = []
        self._unsaved: Counter[str] = Counter()
        self._lost: dict[str, str] = {}

    def put(self, table_id: str, write: Write) -> None:
        with self._lock:
            self._queued.append((table_id, write))
            self._unsaved[table_id] += 1

    def take(self) -> list[tuple[str, Write]]:
        """The writes queued so far (they stay unsaved until :meth:`settled`)."""
        with self._lock:
            batch, self._queued = self._queued, []
        return batch

    def settled(self, table_ids: list[str], failed: dict[str, str]) -> None:
        """The writes of ``table_ids`` (one entry per write) were committed, but for the tables in ``failed``."""
        with self._lock:
            self._lost.update(failed)
            for table_id in table_ids:
                self._unsaved[table_id] -= 1
                if self._unsaved[table_id] <= 0:
                    del self._unsaved[table_id]

    def unsaved(self, table_id: str) -> bool:
        with self._lock:
            return self._unsaved[table_id] > 0

    def lost(self, table_id: str) -> str | None:
        with self._lock:
            return self._lost.pop(table_id, None)


def setup_from_text(table_id: str, text: Any) -> dict[str, Any]:
    """A stored set-up, or :class:`DamagedTableError` saying why it is not one."""
    try:
        setup = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise DamagedTableError(table_id, "its set-up is not JSON") from None
    if not isinstance(setup, dict) or not isinstance(setup.get("seats"), list) or "rules" not in setup:
        raise DamagedTableError(table_id, "its set-up has no rules or seats")
    return setup


def actions_from_texts(table_id: str, rows: list[tuple[int, Any]]) -> tuple[dict[str, Any], ...]:
    """A stored journal (``(number, text)`` rows in order), or :class:`DamagedTableError` naming the first bad row."""
    actions = []
    for expected, (number, text) in enumerate(rows):
        if number != expected:
            raise DamagedTableError(table_id, f"its journal has no action {expected + 1}")
        try:
            action = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise DamagedTableError(table_id, f"action {expected + 1} of its journal is not JSON") from None
        if not isinstance(action, dict):
            raise DamagedTableError(table_id, f"action {expected + 1} of its journal is not an action")
        actions.append(action)
    return tuple(actions)
