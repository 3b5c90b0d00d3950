"""The embedded default store: one SQLite file in WAL mode, used by one server process at a time.

The file and its ``-wal`` and ``-shm`` companions are readable by their owner only (a live table's seed would
otherwise tell any local user every hidden card), and a lock file beside it keeps a second ``racko serve`` away:
several processes need PostgreSQL (:mod:`racko.web.store.postgres`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from racko.play.locks import lock_exclusively
from racko.web.store.base import SYNC_LEVELS, ForeignDatabaseError, Holder, StoredTable, StoreError, T
from racko.web.store.journal import WriteQueue, stored_table
from racko.web.store.rows import Rows
from racko.web.store.schema import JOURNAL_UPGRADES, SCHEMA_NAME, SCHEMA_VERSION, SchemaPart, schema_work

_TABLES = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    created REAL NOT NULL,
    touched REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    due REAL
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    played_at REAL,
    made_by TEXT,
    PRIMARY KEY (table_id, number)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
) WITHOUT ROWID;
"""
_DUE_INDEX = "CREATE INDEX IF NOT EXISTS tables_due ON tables (due) WHERE due IS NOT NULL"
"""The keep loop asks every second which tables are due (:meth:`SqliteTables.overdue`): without it, a scan of every
table's row (20 ms with 12,000 tables on a busy machine, 0.5 ms with it).  Made at every start where missing (an
index changes nothing an older racko reads: no new schema version)."""
_META = "CREATE TABLE IF NOT EXISTS racko_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
_FIRST_VERSION_TABLES = {"tables": "id", "actions": "table_id", "records": "table_id"}
"""Version 1 (before the meta table): these tables, each with this column, and nothing else."""

Statement = tuple[str, tuple[Any, ...]]


def owner_only(path: Path) -> None:
    """Create ``path`` (if missing) readable and writable by its owner only, and tighten it if it was wider (by its
    name: see :func:`tighten_without_opening`)."""
    if os.path.islink(path):  # as O_NOFOLLOW refuses it
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
    if os.path.lexists(path):
        tighten_without_opening(path)
        return
    os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600))


def tighten_without_opening(path: Path) -> None:
    """Make an existing regular file at ``path`` its owner's only, by its name: never by opening it, since closing any
    descriptor of a file drops every POSIX lock this process holds on it, and SQLite's lock on the ``-shm`` file is what
    keeps another process from taking it for its first user and truncating it under this one's mapping (SIGBUS)."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISREG(found.st_mode) and found.st_mode & 0o077:
        os.chmod(path, 0o600)


class SqliteTables:
    """The embedded default: one SQLite file in WAL mode.

    ``grouped``: writes are queued; :meth:`stage` writes them into one open transaction (on the event loop: no
    disk sync) and :meth:`commit` (in a worker thread, one at a time) commits it: one sync of the disk serves every
    table that moved meanwhile, and the event loop goes on while the disk syncs.  Each write stays all or nothing (a
    savepoint); a write that fails, or a commit that fails, is reported by :meth:`lost`.  Without ``grouped`` each
    write is its own transaction.  ``exclusive``: hold a lock file beside the database, so that no second server
    process opens it (the server asks for it; tests that open a file twice on purpose do not)."""

    shared = False

    def __init__(
        self, path: str | Path, sync: str = "full", *, grouped: bool = False, exclusive: bool = False, node: str = ""
    ) -> None:
        if sync not in SYNC_LEVELS:
            raise ValueError(f"sync must be one of {', '.join(SYNC_LEVELS)}")
        self.grouped = grouped
        self._sync = sync
        self.path = Path(path)
        self.node = node
        self._lock_descriptor: int | None = None
        self.found_version = SCHEMA_VERSION
        """The schema version the database had when opened (what :meth:`prepare` brings up)."""
        self._kept_by_table: tuple[str, ...] = ()
        in_memory = str(path) == ":memory:"
        if not in_memory:
            self._prepare_file(exclusive)
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={sync.upper()}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._check_schema()
        except sqlite3.DatabaseError as error:
            self._unlock()
            raise StoreError(f"{self.path} is not a database racko can use ({error}).") from None
        except StoreError:
            self._unlock()
            raise
        if not in_memory:
            for companion in ("-wal", "-shm"):  # SQLite gives them the database's own mode; an older file may be wider
                tighten_without_opening(self.path.with_name(self.path.name + companion))
        self._using = threading.Lock()
        """Held while the connection is used (a commit in the worker thread, a read in the event loop)."""
        self._reader: sqlite3.Connection | None = None
        """A second connection for :meth:`read` (WAL: it reads what is committed while the first writes); a
        database in memory has none (it cannot be shared), and reads there take turns with the writes."""
        if not in_memory:
            self._reader = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._reader.execute("PRAGMA query_only=ON")
        self._reading = threading.Lock()
        self._writes: WriteQueue[list[Statement]] = WriteQueue()
        self._staged: list[str] = []
        """The tables with writes in the open transaction (one entry per write)."""
        self._failed: dict[str, str] = {}
        """The tables whose writes in the open transaction failed, and why."""

    def _prepare_file(self, exclusive: bool) -> None:
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder: give --db the path of a file (it is created if missing).")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            if exclusive:
                self._lock(self.path.with_name(self.path.name + ".lock"))
            owner_only(self.path)
        except OSError as error:
            self._unlock()
            raise StoreError(f"cannot use {self.path}: {error.strerror or error}.") from None

    def _lock(self, lock_path: Path) -> None:
        descriptor = lock_exclusively(lock_path)
        if descriptor is None:
            raise StoreError(
                f"another racko serve is using {self.path}: one process per SQLite file "
                "(several processes share a PostgreSQL database, docs/DEPLOY.md)."
            ) from None
        self._lock_descriptor = descriptor

    def _unlock(self) -> None:
        if self._lock_descriptor is not None:
            os.close(self._lock_descriptor)  # closing the file drops the lock
            self._lock_descriptor = None

    def _check_schema(self) -> None:
        """Create the tables in a new database, bring a version-1 one up to date, refuse anything else."""
        names = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "racko_meta" in names:
            meta = dict(self._db.execute("SELECT key, value FROM racko_meta").fetchall())
            if meta.get("schema") != SCHEMA_NAME:
                raise ForeignDatabaseError(
                    f"{self.path} is not a racko database (its schema is {meta.get('schema')!r})."
                )
            version = int(meta.get("version", "0"))
            if version > SCHEMA_VERSION:
                raise ForeignDatabaseError(
                    f"{self.path} was written by a newer racko (schema version {version}; this one knows "
                    f"{SCHEMA_VERSION}): upgrade racko to serve it."
                )
            self.found_version = version
            if version < SCHEMA_VERSION:
                self._make_schema(version)
            return
        if names and not self._is_first_version(names):
            listed = ", ".join(sorted(names)[:8])
            raise ForeignDatabaseError(
                f"{self.path} holds other tables ({listed}), not racko's: give racko serve a file of its own."
            )
        self.found_version = 1 if names else SCHEMA_VERSION  # version 1 had no meta table
        self._make_schema(self.found_version)

    def _make_schema(self, version: int) -> None:
        """The journal's tables where missing, and the meta table saying ``version`` (the rooms' tables, and this
        version, come with :meth:`prepare`)."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            for statement in (_TABLES + _META).split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.executemany(
                "INSERT OR IGNORE INTO racko_meta (key, value) VALUES (?, ?)",
                [("schema", SCHEMA_NAME), ("version", str(version))],
            )

    def _is_first_version(self, names: set[str]) -> bool:
        if names != set(_FIRST_VERSION_TABLES):
            return False
        for table, column in _FIRST_VERSION_TABLES.items():
            columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in columns:
                return False
        return True

    def describe(self) -> str:
        return str(self.path)

    def _write(self, table_id: str, *statements: Statement) -> None:
        if self.grouped:
            self._writes.put(table_id, list(statements))
            return
        with self._using, self._db:  # one transaction: all or nothing
            self._db.execute("BEGIN IMMEDIATE")
            for sql, parameters in statements:
                self._db.execute(sql, parameters)

    def unsaved(self, table_id: str) -> bool:
        return self._writes.unsaved(table_id)

    def lost(self, table_id: str) -> str | None:
        return self._writes.lost(table_id)

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
                self._writes.settled(self._staged, self._failed)
                self._staged, self._failed = [], {}

    def _stage(self) -> None:
        """Write the queued writes into the open transaction, each all or nothing (``_using`` is held)."""
        batch = self._writes.take()
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

    def create(self, table_id: str, setup: dict[str, Any], *, due: float | None = None) -> None:
        now = time.time()
        self._write(
            table_id,
            (
                "INSERT INTO tables (id, setup, created, touched, due) VALUES (?, ?, ?, ?, ?)",
                (table_id, json.dumps(setup), now, now, due),
            ),
        )

    def append(
        self,
        table_id: str,
        first: int,
        actions: list[dict[str, Any]],
        *,
        at: float | None = None,
        by: str | None = None,
        due: float | None = None,
    ) -> None:
        rows = [
            (
                "INSERT INTO actions (table_id, number, action, played_at, made_by) VALUES (?, ?, ?, ?, ?)",
                (table_id, first + index, json.dumps(action), at, by),
            )
            for index, action in enumerate(actions)
        ]
        self._write(
            table_id, *rows, ("UPDATE tables SET touched = ?, due = ? WHERE id = ?", (time.time(), due, table_id))
        )

    def set_due(self, table_id: str, due: float | None) -> None:
        self._write(table_id, ("UPDATE tables SET due = ? WHERE id = ?", (due, table_id)))

    def overdue(self, now: float) -> list[str]:
        # One process per file: nobody else holds a table, and this process's own clocks run in memory.
        with self._using:
            rows = self._db.execute("SELECT id FROM tables WHERE due <= ? AND finished = 0", (now,)).fetchall()
        return [table_id for (table_id,) in rows]

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
        # The finished game's record is filed unless it was when the game ended (the same text, maybe still queued
        # before this write: the writes of a table go in in order).
        self._write(
            table_id,
            (
                "INSERT INTO records (table_id, number, record) SELECT ?, "
                "(SELECT COUNT(*) FROM records WHERE table_id = ?), ? "
                "WHERE NOT EXISTS (SELECT 1 FROM records WHERE table_id = ? AND record = ?)",
                (table_id, table_id, record, table_id, record),
            ),
            ("DELETE FROM actions WHERE table_id = ?", (table_id,)),
            (
                "UPDATE tables SET setup = ?, finished = 0, touched = ? WHERE id = ?",
                (json.dumps(setup), time.time(), table_id),
            ),
        )

    def rewrite_records(self, table_id: str, texts: dict[int, str]) -> None:
        self._write(
            table_id,
            *(
                ("UPDATE records SET record = ? WHERE table_id = ? AND number = ?", (text, table_id, number))
                for number, text in texts.items()
            ),
        )

    def load(self, table_id: str) -> StoredTable | None:
        with self._using:
            row = self._db.execute(
                "SELECT setup, created, touched, finished, due FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                return None
            rows = self._db.execute(
                "SELECT number, action, played_at, made_by FROM actions WHERE table_id = ? ORDER BY number",
                (table_id,),
            ).fetchall()
        return stored_table(table_id, row, rows)

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

    def sweep(self, idle_seconds: float, unplayed_seconds: float) -> int:
        self.commit()
        now = time.time()
        with self._using, self._db:
            cursor = self._db.execute(
                "DELETE FROM tables WHERE touched < ? OR (touched < ? "
                "AND NOT EXISTS (SELECT 1 FROM actions WHERE table_id = id) "
                "AND NOT EXISTS (SELECT 1 FROM records WHERE table_id = id))",
                (now - idle_seconds, now - unplayed_seconds),
            )
            for kept_by_table in self._kept_by_table:
                self._db.execute(f"DELETE FROM {kept_by_table} WHERE table_id NOT IN (SELECT id FROM tables)")
        return cursor.rowcount

    # One process per file (the lock): every table is this process's to play.
    def claim(self, table_id: str) -> Holder | None:
        return None

    def renew(self) -> list[str]:
        return []

    def release(self, table_id: str) -> None:
        return None

    def prepare(self, parts: Sequence[SchemaPart]) -> None:
        # SQLite has no ADD COLUMN IF NOT EXISTS: a column there already (a version number set back by hand) is kept.
        present = {
            (table, row[1])
            for table in ("tables", "actions")
            for row in self._db.execute(f"PRAGMA table_info({table})")
        }
        missing = tuple(
            (version, sql)
            for version, sql in JOURNAL_UPGRADES["sqlite"]
            if (sql.split()[2], sql.split()[5]) not in present
        )
        journal = SchemaPart("store", "", missing)
        self.run(schema_work([journal, *parts], "REAL", self.found_version))
        self.run(lambda rows: rows(_DUE_INDEX))
        self.found_version = SCHEMA_VERSION
        self._kept_by_table = tuple(table for part in parts for table in part.kept_by_table)

    def run(self, work: Callable[[Rows], T], *, durable: bool = True) -> T:
        rows: Rows = lambda sql, parameters=(): self._db.execute(sql, parameters).fetchall()  # noqa: E731
        with self._using:  # one transaction, after the group commit's (the connection is shared)
            if not durable and self._db.in_transaction:
                # The group's writes are staged in an open transaction, its commit on its way: this joins it (a
                # savepoint, all or nothing), rather than commit it early with a sync of its own while the group's
                # commit waits for the connection (a bot's every twentieth request did, and each challenge).
                self._db.execute("SAVEPOINT quick")
                try:
                    result = work(rows)
                except BaseException:
                    self._db.execute("ROLLBACK TO quick")
                    self._db.execute("RELEASE quick")
                    raise
                self._db.execute("RELEASE quick")
                return result
            if self._db.in_transaction:
                self._db.execute("COMMIT")  # the group's writes: at the store's own sync level
            quick = not durable and self._sync != "normal"
            if quick:  # WAL: this commit is not synced; the next synced one syncs it too
                self._db.execute("PRAGMA synchronous=NORMAL")
            try:
                with self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    return work(rows)
            finally:
                if quick:
                    self._db.execute(f"PRAGMA synchronous={self._sync.upper()}")

    def read(self, work: Callable[[Rows], T]) -> T:
        if self._reader is None:
            return self.run(work)
        reader = self._reader
        with self._reading:
            reader.execute("BEGIN")  # one snapshot for the whole of ``work``
            try:
                return work(lambda sql, parameters=(): reader.execute(sql, parameters).fetchall())
            finally:
                reader.execute("COMMIT")

    def close(self) -> None:
        try:
            self.commit()
            if self._reader is not None:
                with self._reading:
                    self._reader.close()
            with self._using:
                self._db.close()
        finally:
            self._unlock()
