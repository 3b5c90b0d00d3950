"""Where the server keeps its tables: one small interface, and SQLite behind it by default.

A table is kept as what it was set up with (rules, seed, seats) and a journal of its actions, appended one by one:
the game is its replay (same seed + same actions = same game).  An action is committed before anybody is told it
happened.  Another database (PostgreSQL for several server processes, docs/SCALING.md) replaces
:class:`SqliteTables` by implementing :class:`TableStore`; the game code never sees which one it is.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

SYNC_LEVELS = ("full", "normal")
"""SQLite's ``synchronous`` settings the server offers: ``full`` syncs the journal at every commit (a power cut
loses nothing committed), ``normal`` syncs at checkpoints (a power cut may lose the last commits; a crash of the
server process alone never does)."""


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


class TableStore(Protocol):
    """What the server needs from a database.  Every write is committed (durable at the store's sync level) when
    the call returns, or, in a store that groups its commits, when :meth:`commit` next returns: the server tells
    nobody about a table's change while :meth:`unsaved` says it is not committed yet."""

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

    def load(self, table_id: str) -> StoredTable | None: ...

    def records(self, table_id: str) -> list[str]:
        """The table's finished games, oldest first, as record JSON."""

    def open_tables(self) -> Iterator[str]:
        """The ids of tables whose game is not over."""

    def sweep(self, idle_seconds: float) -> int:
        """Forget the tables nobody touched for ``idle_seconds`` (their finished records too); how many."""

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    created REAL NOT NULL,
    touched REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
) WITHOUT ROWID;
"""


class SqliteTables:
    """The embedded default: one SQLite file in WAL mode.

    ``grouped``: writes are queued; :meth:`stage` writes them into one open transaction (on the event loop: no
    disk sync) and :meth:`commit` (in a worker thread, one at a time) commits it: one sync of the disk serves every
    table that moved meanwhile, and the event loop goes on while the disk syncs.  Each write stays all or nothing (a
    savepoint); a write that fails, or a commit that fails, is reported by :meth:`lost`.  Without ``grouped`` each
    write is its own transaction."""

    def __init__(self, path: str | Path, sync: str = "full", *, grouped: bool = False) -> None:
        if sync not in SYNC_LEVELS:
            raise ValueError(f"sync must be one of {', '.join(SYNC_LEVELS)}")
        self.grouped = grouped
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        self._using = threading.Lock()
        """Held while the connection is used (a commit in the worker thread, a read in the event loop)."""
        self._queue = threading.Lock()
        """Held while the queued writes, the unsaved counts and the lost writes are looked at or changed."""
        self._queued: list[tuple[str, list[tuple[str, tuple[Any, ...]]]]] = []
        self._unsaved: Counter[str] = Counter()
        self._lost: dict[str, str] = {}
        self._staged: list[str] = []
        """The tables with writes in the open transaction (one entry per write)."""
        self._failed: dict[str, str] = {}
        """The tables whose writes in the open transaction failed, and why."""

    def _write(self, table_id: str, *statements: tuple[str, tuple[Any, ...]]) -> None:
        if self.grouped:
            with self._queue:
                self._queued.append((table_id, list(statements)))
                self._unsaved[table_id] += 1
            return
        with self._using, self._db:  # one transaction: all or nothing
            self._db.execute("BEGIN IMMEDIATE")
            for sql, parameters in statements:
                self._db.execute(sql, parameters)

    def unsaved(self, table_id: str) -> bool:
        with self._queue:
            return self._unsaved[table_id] > 0

    def lost(self, table_id: str) -> str | None:
        with self._queue:
            return self._lost.pop(table_id, None)

    def stage(self) -> None:
        with self._using:
            try:
                self._stage()
            except BaseException as error:
                self._fail(error)
                raise

    def commit(self) -> None:
        with self._using:
            try:
                self._stage()
                if self._db.in_transaction:
                    self._db.execute("COMMIT")
            except BaseException as error:
                self._fail(error)
                raise
            finally:
                with self._queue:
                    self._lost.update(self._failed)
                    for table_id in self._staged:
                        self._unsaved[table_id] -= 1
                        if self._unsaved[table_id] <= 0:
                            del self._unsaved[table_id]
                self._staged, self._failed = [], {}

    def _stage(self) -> None:
        """Write the queued writes into the open transaction, each all or nothing (``_using`` is held)."""
        with self._queue:
            batch, self._queued = self._queued, []
        if not batch:
            return
        self._staged += [table_id for table_id, _ in batch]
        if not self._db.in_transaction:
            self._db.execute("BEGIN IMMEDIATE")
        for table_id, statements in batch:
            if table_id in self._failed:  # a table's later write does not go in without its earlier one
                continue
            self._db.execute("SAVEPOINT write")
            try:
                for sql, parameters in statements:
                    self._db.execute(sql, parameters)
            except sqlite3.Error as error:
                self._db.execute("ROLLBACK TO write")
                self._failed[table_id] = str(error)
            self._db.execute("RELEASE write")

    def _fail(self, error: BaseException) -> None:
        """The open transaction is lost: every staged write with it."""
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
        self._failed.update({table_id: str(error) or type(error).__name__ for table_id in self._staged})

    def create(self, table_id: str, setup: dict[str, Any]) -> None:
        now = time.time()
        self._write(
            table_id,
            (
                "INSERT INTO tables (id, setup, created, touched) VALUES (?, ?, ?, ?)",
                (table_id, json.dumps(setup), now, now),
            ),
        )

    def append(self, table_id: str, first: int, actions: list[dict[str, Any]]) -> None:
        rows = [
            (
                "INSERT INTO actions (table_id, number, action) VALUES (?, ?, ?)",
                (table_id, first + index, json.dumps(action)),
            )
            for index, action in enumerate(actions)
        ]
        self._write(table_id, *rows, ("UPDATE tables SET touched = ? WHERE id = ?", (time.time(), table_id)))

    def update_setup(self, table_id: str, setup: dict[str, Any]) -> None:
        self._write(
            table_id,
            ("UPDATE tables SET setup = ?, touched = ? WHERE id = ?", (json.dumps(setup), time.time(), table_id)),
        )

    def finish(self, table_id: str, record: str) -> None:
        self._write(
            table_id,
            (
                "INSERT INTO records (table_id, number, record) VALUES "
                "(?, (SELECT COUNT(*) FROM records WHERE table_id = ?), ?)",
                (table_id, table_id, record),
            ),
            ("UPDATE tables SET finished = 1, touched = ? WHERE id = ?", (time.time(), table_id)),
        )

    def restart(self, table_id: str, setup: dict[str, Any], record: str) -> None:
        self.commit()  # the finished game's record may still be queued
        with self._using:
            already = self._db.execute(
                "SELECT COUNT(*) FROM records WHERE table_id = ? AND record = ?", (table_id, record)
            ).fetchone()[0]
        statements: list[tuple[str, tuple[Any, ...]]] = []
        if not already:
            statements.append(
                (
                    "INSERT INTO records (table_id, number, record) VALUES "
                    "(?, (SELECT COUNT(*) FROM records WHERE table_id = ?), ?)",
                    (table_id, table_id, record),
                )
            )
        statements += [
            ("DELETE FROM actions WHERE table_id = ?", (table_id,)),
            (
                "UPDATE tables SET setup = ?, finished = 0, touched = ? WHERE id = ?",
                (json.dumps(setup), time.time(), table_id),
            ),
        ]
        self._write(table_id, *statements)

    def load(self, table_id: str) -> StoredTable | None:
        with self._using:
            row = self._db.execute(
                "SELECT setup, created, touched, finished FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                return None
            actions = tuple(
                json.loads(text)
                for (text,) in self._db.execute(
                    "SELECT action FROM actions WHERE table_id = ? ORDER BY number", (table_id,)
                ).fetchall()
            )
        return StoredTable(table_id, json.loads(row[0]), actions, row[1], row[2], bool(row[3]))

    def records(self, table_id: str) -> list[str]:
        with self._using:
            rows = self._db.execute(
                "SELECT record FROM records WHERE table_id = ? ORDER BY number", (table_id,)
            ).fetchall()
        return [text for (text,) in rows]

    def open_tables(self) -> Iterator[str]:
        with self._using:
            rows = self._db.execute("SELECT id FROM tables WHERE finished = 0").fetchall()
        for (table_id,) in rows:
            yield table_id

    def sweep(self, idle_seconds: float) -> int:
        self.commit()
        cutoff = time.time() - idle_seconds
        with self._using, self._db:
            cursor = self._db.execute("DELETE FROM tables WHERE touched < ?", (cutoff,))
        return cursor.rowcount

    def close(self) -> None:
        self.commit()
        with self._using:
            self._db.close()
