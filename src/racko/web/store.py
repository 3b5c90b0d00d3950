"""Where the server keeps its tables: one small interface, and SQLite behind it by default.

A table is kept as what it was set up with (rules, seed, seats) and a journal of its actions, appended one by one:
the game is its replay (same seed + same actions = same game).  An action is committed before anybody is told it
happened.  Another database (PostgreSQL for several server processes, docs/SCALING.md) replaces
:class:`SqliteTables` by implementing :class:`TableStore`; the game code never sees which one it is.
"""

from __future__ import annotations

import json
import sqlite3
import time
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
    the call returns."""

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
    """The embedded default: one SQLite file in WAL mode, used from the server's event loop only."""

    def __init__(self, path: str | Path, sync: str = "full") -> None:
        if sync not in SYNC_LEVELS:
            raise ValueError(f"sync must be one of {', '.join(SYNC_LEVELS)}")
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        with self._db:  # one transaction: all or nothing
            self._db.execute("BEGIN IMMEDIATE")
            for sql, parameters in statements:
                self._db.execute(sql, parameters)

    def create(self, table_id: str, setup: dict[str, Any]) -> None:
        now = time.time()
        self._write(
            (
                "INSERT INTO tables (id, setup, created, touched) VALUES (?, ?, ?, ?)",
                (table_id, json.dumps(setup), now, now),
            )
        )

    def append(self, table_id: str, first: int, actions: list[dict[str, Any]]) -> None:
        rows = [
            (
                "INSERT INTO actions (table_id, number, action) VALUES (?, ?, ?)",
                (table_id, first + index, json.dumps(action)),
            )
            for index, action in enumerate(actions)
        ]
        self._write(*rows, ("UPDATE tables SET touched = ? WHERE id = ?", (time.time(), table_id)))

    def update_setup(self, table_id: str, setup: dict[str, Any]) -> None:
        self._write(
            ("UPDATE tables SET setup = ?, touched = ? WHERE id = ?", (json.dumps(setup), time.time(), table_id))
        )

    def finish(self, table_id: str, record: str) -> None:
        self._write(
            (
                "INSERT INTO records (table_id, number, record) VALUES "
                "(?, (SELECT COUNT(*) FROM records WHERE table_id = ?), ?)",
                (table_id, table_id, record),
            ),
            ("UPDATE tables SET finished = 1, touched = ? WHERE id = ?", (time.time(), table_id)),
        )

    def restart(self, table_id: str, setup: dict[str, Any], record: str) -> None:
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
        self._write(*statements)

    def load(self, table_id: str) -> StoredTable | None:
        row = self._db.execute(
            "SELECT setup, created, touched, finished FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            return None
        actions = tuple(
            json.loads(text)
            for (text,) in self._db.execute(
                "SELECT action FROM actions WHERE table_id = ? ORDER BY number", (table_id,)
            )
        )
        return StoredTable(table_id, json.loads(row[0]), actions, row[1], row[2], bool(row[3]))

    def records(self, table_id: str) -> list[str]:
        return [
            text
            for (text,) in self._db.execute(
                "SELECT record FROM records WHERE table_id = ? ORDER BY number", (table_id,)
            )
        ]

    def open_tables(self) -> Iterator[str]:
        for (table_id,) in self._db.execute("SELECT id FROM tables WHERE finished = 0").fetchall():
            yield table_id

    def sweep(self, idle_seconds: float) -> int:
        cutoff = time.time() - idle_seconds
        with self._db:
            cursor = self._db.execute("DELETE FROM tables WHERE touched < ?", (cutoff,))
        return cursor.rowcount

    def close(self) -> None:
        self._db.close()
