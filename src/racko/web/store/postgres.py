"""PostgreSQL behind :class:`~racko.web.store.base.TableStore`: the store that several server processes share.

Writes are grouped as SQLite's are: the event loop queues them, a worker thread commits every queued write in one
transaction (one WAL flush for every table that moved meanwhile).  Each write is a single statement, fenced by the
claim this process made on the table: it changes the table only while ``owner`` and ``epoch`` are still the ones
this process set when it claimed it, so a process that lost a table (it was too slow to renew its lease and another
took the table over) writes nothing more to it: its write is reported lost and the table is dropped here.  The
journal's primary key ``(table_id, number)`` stays the last guard, and every action row keeps the epoch of the
claim it was written under, so that anybody can check that no table ever had two writers.

The database's clock decides whether a lease has expired (``now()``), so the processes' clocks need not agree.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from racko.web.store.base import SYNC_LEVELS, ForeignDatabaseError, Holder, StoredTable, StoreError, T
from racko.web.store.journal import WriteQueue, stored_table
from racko.web.store.rows import Rows
from racko.web.store.schema import JOURNAL_UPGRADES, SCHEMA_NAME, SCHEMA_VERSION, SchemaPart, schema_work

LEASE_SECONDS = 5.0
"""How long a claim on a table lasts unless renewed: a dead process's tables are taken over this long after its
last renewal.  The server renews every :data:`RENEW_SECONDS`."""
RENEW_SECONDS = 1.0
CONNECT_SECONDS = 10.0
NODE_PATTERN = re.compile(r"[A-Za-z0-9_.-]{1,40}")
_SCHEMA_LOCK = 0x7261636B6F  # "racko": the advisory lock held while the schema is looked at or made
_SWEEP_LOCK = _SCHEMA_LOCK + 1
log = logging.getLogger("racko.serve")

_SCHEMA = """
CREATE TABLE racko_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE racko_tables (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    touched DOUBLE PRECISION NOT NULL,
    finished BOOLEAN NOT NULL DEFAULT FALSE,
    owner TEXT,
    epoch BIGINT NOT NULL DEFAULT 0,
    due DOUBLE PRECISION
);
CREATE INDEX racko_tables_owner ON racko_tables (owner);
CREATE INDEX racko_tables_due ON racko_tables (due) WHERE due IS NOT NULL;
CREATE TABLE racko_nodes (
    owner TEXT PRIMARY KEY,
    lease_until TIMESTAMPTZ NOT NULL,
    started TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE racko_actions (
    table_id TEXT NOT NULL REFERENCES racko_tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    played_at DOUBLE PRECISION,
    made_by TEXT,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE racko_records (
    table_id TEXT NOT NULL REFERENCES racko_tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE racko_owners (
    table_id TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    owner TEXT NOT NULL,
    since TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, epoch)
);
"""
_NAMES = ("racko_meta", "racko_tables", "racko_actions", "racko_records", "racko_owners", "racko_nodes")
"""The tables of version 2: a database with any of them but no racko_meta is someone else's."""
_LIVE = "SELECT owner FROM racko_nodes WHERE lease_until > now()"
"""The owners whose process renewed its lease in time: only their claims on tables stand."""


def _filing(condition: str = "") -> str:
    """The CTE that files a finished game's record (``%(record)s``) after ``fence``, where ``condition`` holds."""
    return (
        ", filed AS (INSERT INTO racko_records (table_id, number, record) SELECT fence.id, "
        f"(SELECT count(*) FROM racko_records WHERE table_id = fence.id), %(record)s FROM fence{condition})"
    )


LOST_CLAIM = "another server process plays this table now"

Send = Callable[[psycopg.Connection[Any]], Callable[[], bool]]
"""One write as one statement: sends it (in a pipeline, its result comes later) and returns what reads its result:
True if it changed the table (its fence held)."""

_APPEND_ALL = (
    "WITH batch AS (SELECT * FROM unnest(%(tables)s::text[], %(epochs)s::bigint[], %(dues)s::float8[]) "
    "AS batch(id, epoch, due)), "
    "fence AS (UPDATE racko_tables AS fenced SET touched = %(now)s, due = batch.due FROM batch "
    "WHERE fenced.id = batch.id AND fenced.owner = %(owner)s AND fenced.epoch = batch.epoch RETURNING fenced.id), "
    "appended AS (INSERT INTO racko_actions (table_id, number, action, epoch, played_at, made_by) "
    "SELECT action.table_id, action.number, action.text, action.epoch, action.at, action.by "
    "FROM unnest(%(action_tables)s::text[], %(numbers)s::integer[], %(texts)s::text[], "
    "%(action_epochs)s::bigint[], %(ats)s::float8[], %(bys)s::text[]) "
    "AS action(table_id, number, text, epoch, at, by) "
    "WHERE action.table_id IN (SELECT id FROM fence)) "
    "SELECT id FROM fence"
)
"""Every table's new actions of a group commit in one statement, each table fenced by its claim."""


@dataclass(frozen=True)
class Appended:
    """An append's claim epoch, numbers, texts, time, author and the table's deadline after it."""

    epoch: int | None
    numbers: list[int]
    texts: list[str]
    at: float | None
    by: str | None
    due: float | None


@dataclass(frozen=True)
class Write:
    """One write: what sends it alone, and for an append (the common write) what it appends, so that a group of
    appends goes as one statement."""

    send: Send
    appended: Appended | None = None


def is_url(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def without_password(url: str) -> str:
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://…"
    parts.pop("password", None)
    host, port, name, user = (str(parts.get(key) or "") for key in ("host", "port", "dbname", "user"))
    return f"postgresql://{user + '@' if user else ''}{host}{':' + port if port else ''}/{name}"


class PostgresTables:
    """Tables in a PostgreSQL database, shared by every server process that names it."""

    shared = True

    def __init__(
        self, url: str, sync: str = "full", *, node: str, lease_seconds: float = LEASE_SECONDS, pool_size: int = 4
    ) -> None:
        if sync not in SYNC_LEVELS:
            raise ValueError(f"sync must be one of {', '.join(SYNC_LEVELS)}")
        if not NODE_PATTERN.fullmatch(node):
            raise StoreError(f"a node name is 1 to 40 letters, digits, '.', '_' or '-', not {node!r}.")
        self.url = url
        self.node = node
        self.owner = f"{node} {secrets.token_hex(6)}"
        """The owner this process writes into the tables it claims: its node name and this run's own mark, so that
        a restarted process never takes its predecessor's leases for its own."""
        self.lease_seconds = lease_seconds
        self.found_version = SCHEMA_VERSION
        """The schema version the database had when opened (what :meth:`prepare` brings up)."""
        self._kept_by_table: tuple[str, ...] = ()
        try:
            conninfo = make_conninfo(url, connect_timeout=int(CONNECT_SECONDS), application_name=f"racko {node}")
            with psycopg.connect(conninfo) as probe:  # says why it cannot connect, where a pool only times out
                probe.execute("SELECT 1")
        except psycopg.Error as error:
            raise StoreError(f"cannot reach the database {self.describe()}: {_first_line(error)}") from None
        commit_mode = "on" if sync == "full" else "off"

        def configure(connection: psycopg.Connection[Any]) -> None:
            connection.execute(f"SET synchronous_commit = {commit_mode}")

        self._pool = ConnectionPool(
            conninfo, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, configure=configure, open=False
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_SECONDS)
            self._check_schema()
        except PoolTimeout:
            self._pool.close()
            raise StoreError(f"cannot reach the database {self.describe()} (timed out).") from None
        except BaseException:
            self._pool.close()
            raise
        self._writes: WriteQueue[Write] = WriteQueue()
        self._committing = threading.Lock()
        self._claims = threading.Lock()
        self._held: dict[str, int] = {}
        """The tables this process holds, with the epoch of its claim (guarded by ``_claims``)."""
        self._claim_locks = tuple(threading.Lock() for _ in range(64))
        """Locks the claims and releases of one table take turns by (striped: a table's id picks one of them)."""
        self._lease_taken = False
        """Whether this process has taken its lease (its row in racko_nodes) yet."""

    def describe(self) -> str:
        return without_password(self.url)

    def _check_schema(self) -> None:
        with self._pool.connection() as connection, connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            present = {
                name
                for (name,) in connection.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                    "AND table_name = ANY(%s)",
                    (list(_NAMES),),
                )
            }
            if "racko_meta" in present:
                meta = dict(connection.execute("SELECT key, value FROM racko_meta").fetchall())
                if meta.get("schema") != SCHEMA_NAME:
                    raise ForeignDatabaseError(
                        f"{self.describe()} is not a racko database (its racko_meta names {meta.get('schema')!r})."
                    )
                if int(meta.get("version", "0")) > SCHEMA_VERSION:
                    raise ForeignDatabaseError(
                        f"{self.describe()} was written by a newer racko (schema version {meta.get('version')}; this "
                        f"one knows {SCHEMA_VERSION}): upgrade racko to serve it."
                    )
                self.found_version = int(meta.get("version", "2"))
                return
            if present:
                raise ForeignDatabaseError(
                    f"{self.describe()} holds tables named {', '.join(sorted(present))} that are not racko's: "
                    "give racko serve a database of its own."
                )
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement.encode())
            connection.execute(
                "INSERT INTO racko_meta (key, value) VALUES ('schema', %s), ('version', %s)",
                (SCHEMA_NAME, str(SCHEMA_VERSION)),
            )
            self.found_version = SCHEMA_VERSION

    # --- writes: queued on the event loop, committed together in a worker thread ---------------------------------

    def _fenced(
        self,
        table_id: str,
        sets: str,
        after: str,
        parameters: dict[str, Any],
        appended: dict[str, Any] | None = None,
    ) -> Write:
        """A write of a table this process holds, as one statement: the CTE ``fence`` updates the table's row (with
        ``sets``) only while this process's claim on it stands, and ``after`` (more CTEs, on other tables) acts only
        on the rows ``fence`` returned.  A row is updated once per statement, so every change of it is in ``sets``.
        ``appended``: the numbers and texts of an append's actions, so that it can go with others'."""
        with self._claims:
            epoch = self._held.get(table_id)
        values = {**parameters, "id": table_id, "owner": self.owner, "epoch": epoch, "now": time.time()}
        sql = (
            f"WITH fence AS (UPDATE racko_tables SET touched = %(now)s{sets} WHERE id = %(id)s "
            f"AND owner = %(owner)s AND epoch = %(epoch)s RETURNING id){after} SELECT count(*) FROM fence"
        )

        def send(connection: psycopg.Connection[Any]) -> Callable[[], bool]:
            cursor = connection.execute(sql.encode(), values)

            def changed() -> bool:
                row = cursor.fetchone()
                return row is not None and row[0] == 1

            return changed

        return Write(send, None if appended is None else Appended(epoch, **appended))

    def unsaved(self, table_id: str) -> bool:
        return self._writes.unsaved(table_id)

    def lost(self, table_id: str) -> str | None:
        return self._writes.lost(table_id)

    def stage(self) -> None:
        return None  # the worker thread sends the statements: the event loop never waits for the network

    def commit(self) -> None:
        with self._committing:
            batch = self._writes.take()
            if not batch:
                return
            failed: dict[str, str] = {}
            try:
                with self._pool.connection() as connection:
                    try:
                        failed = self._apply_together(connection, batch)
                    except psycopg.Error:
                        # One write broke the transaction (not a lost claim: that only changes nothing): each write
                        # on its own now, so that one table's bad write loses that table's writes only.
                        failed = self._apply_alone(connection, batch)
            except Exception as error:
                failed = {table_id: _first_line(error) for table_id, _ in batch}
                raise
            finally:
                self._writes.settled([table_id for table_id, _ in batch], failed)

    def _apply_together(self, connection: psycopg.Connection[Any], batch: list[tuple[str, Write]]) -> dict[str, str]:
        """Every write in one transaction and one WAL flush: a group of appends (nearly every group) as one
        statement, any other group sent in one pipeline.  A write whose fence did not hold changed nothing, and
        neither does a later write of its table (the same fence)."""
        epochs: dict[str, int | None] = {}
        appends = []
        for table_id, write in batch:
            if write.appended is None or epochs.setdefault(table_id, write.appended.epoch) != write.appended.epoch:
                break
            appends.append((table_id, write.appended))
        else:
            return self._append_all(connection, epochs, appends)
        failed: dict[str, str] = {}
        with connection.transaction():
            with connection.pipeline():
                results = [(table_id, write.send(connection)) for table_id, write in batch]
            for table_id, changed in results:
                if not changed():
                    failed.setdefault(table_id, LOST_CLAIM)
        return failed

    def _append_all(
        self,
        connection: psycopg.Connection[Any],
        epochs: dict[str, int | None],
        appends: list[tuple[str, Appended]],
    ) -> dict[str, str]:
        action_tables: list[str] = []
        numbers: list[int] = []
        texts: list[str] = []
        action_epochs: list[int | None] = []
        ats: list[float | None] = []
        bys: list[str | None] = []
        dues: dict[str, float | None] = {}
        for table_id, appended in appends:
            count = len(appended.numbers)
            action_tables += [table_id] * count
            numbers += appended.numbers
            texts += appended.texts
            action_epochs += [appended.epoch] * count
            ats += [appended.at] * count
            bys += [appended.by] * count
            dues[table_id] = appended.due  # a table's last append of the group says its deadline
        values = {
            "tables": list(epochs),
            "epochs": list(epochs.values()),
            "dues": [dues[table_id] for table_id in epochs],
            "ats": ats,
            "bys": bys,
            "now": time.time(),
            "owner": self.owner,
            "action_tables": action_tables,
            "numbers": numbers,
            "texts": texts,
            "action_epochs": action_epochs,
        }
        with connection.transaction():
            fenced = {table_id for (table_id,) in connection.execute(_APPEND_ALL.encode(), values)}
        return {table_id: LOST_CLAIM for table_id in epochs if table_id not in fenced}

    @staticmethod
    def _apply_alone(connection: psycopg.Connection[Any], batch: list[tuple[str, Write]]) -> dict[str, str]:
        failed: dict[str, str] = {}
        for table_id, write in batch:
            if table_id in failed:  # a table's later write does not go in without its earlier one
                continue
            try:
                with connection.transaction():
                    changed = write.send(connection)()
            except psycopg.Error as error:
                failed[table_id] = _first_line(error)
                continue
            if not changed:
                failed[table_id] = LOST_CLAIM
        return failed

    def create(self, table_id: str, setup: dict[str, Any], *, due: float | None = None) -> None:
        now = time.time()
        values = (table_id, json.dumps(setup), now, now, due)

        def send(connection: psycopg.Connection[Any]) -> Callable[[], bool]:
            connection.execute(
                "INSERT INTO racko_tables (id, setup, created, touched, due) VALUES (%s, %s, %s, %s, %s)", values
            )
            return lambda: True

        self._writes.put(table_id, Write(send))

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
        after = (
            ", appended AS (INSERT INTO racko_actions (table_id, number, action, epoch, played_at, made_by) "
            "SELECT fence.id, action.number, action.text, %(epoch)s, %(at)s, %(by)s FROM fence, "
            "unnest(%(numbers)s::integer[], %(texts)s::text[]) AS action(number, text))"
        )
        numbers = [first + index for index in range(len(actions))]
        texts = [json.dumps(action) for action in actions]
        values = {"numbers": numbers, "texts": texts, "at": at, "by": by, "due": due}
        self._writes.put(table_id, self._fenced(table_id, ", due = %(due)s", after, values, values))

    def set_due(self, table_id: str, due: float | None) -> None:
        self._writes.put(table_id, self._fenced(table_id, ", due = %(due)s", "", {"due": due}))

    def overdue(self, now: float) -> list[str]:
        with self._pool.connection() as connection:
            rows = connection.execute(
                f"SELECT id FROM racko_tables WHERE due <= %s AND NOT finished "
                f"AND (owner IS NULL OR owner = %s OR owner NOT IN ({_LIVE}))",
                (now, self.owner),
            ).fetchall()
        return [table_id for (table_id,) in rows]

    def update_setup(self, table_id: str, setup: dict[str, Any]) -> None:
        self._writes.put(table_id, self._fenced(table_id, ", setup = %(setup)s", "", {"setup": json.dumps(setup)}))

    def finish(self, table_id: str, record: str) -> None:
        self._writes.put(table_id, self._fenced(table_id, ", finished = TRUE", _filing(), {"record": record}))

    def restart(self, table_id: str, setup: dict[str, Any], record: str) -> None:
        # The finished game's record is filed unless it was when the game ended (the same text).
        after = ", cleared AS (DELETE FROM racko_actions WHERE table_id IN (SELECT id FROM fence))" + _filing(
            " WHERE NOT EXISTS (SELECT 1 FROM racko_records WHERE table_id = fence.id AND record = %(record)s)"
        )
        values = {"setup": json.dumps(setup), "record": record}
        self._writes.put(table_id, self._fenced(table_id, ", setup = %(setup)s, finished = FALSE", after, values))

    def rewrite_records(self, table_id: str, texts: dict[int, str]) -> None:
        after = (
            ", rewritten AS (UPDATE racko_records AS filed SET record = new.text FROM fence, "
            "unnest(%(numbers)s::integer[], %(texts)s::text[]) AS new(number, text) "
            "WHERE filed.table_id = fence.id AND filed.number = new.number)"
        )
        values = {"numbers": list(texts), "texts": list(texts.values())}
        self._writes.put(table_id, self._fenced(table_id, "", after, values))

    # --- reads ----------------------------------------------------------------------------------------------------

    def load(self, table_id: str) -> StoredTable | None:
        with self._pool.connection() as connection, connection.transaction():
            row = connection.execute(
                "SELECT setup, created, touched, finished, due FROM racko_tables WHERE id = %s", (table_id,)
            ).fetchone()
            if row is None:
                return None
            rows = connection.execute(
                "SELECT number, action, played_at, made_by FROM racko_actions WHERE table_id = %s ORDER BY number",
                (table_id,),
            ).fetchall()
        return stored_table(table_id, row, rows)

    def records(self, table_id: str) -> list[str]:
        with self._pool.connection() as connection:
            rows = connection.execute(
                "SELECT record FROM racko_records WHERE table_id = %s ORDER BY number", (table_id,)
            ).fetchall()
        return [text for (text,) in rows]

    def open_tables(self) -> Iterator[str]:
        with self._pool.connection() as connection:
            rows = connection.execute("SELECT id FROM racko_tables WHERE NOT finished").fetchall()
        for (table_id,) in rows:
            yield table_id

    def sweep(self, idle_seconds: float, unplayed_seconds: float) -> int:
        now = time.time()
        with self._pool.connection() as connection, connection.transaction():
            row = connection.execute("SELECT pg_try_advisory_xact_lock(%s)", (_SWEEP_LOCK,)).fetchone()
            if row is None or not row[0]:
                return 0  # another process sweeps right now
            connection.execute("DELETE FROM racko_nodes WHERE lease_until < now() - interval '1 day'")
            cursor = connection.execute(
                f"DELETE FROM racko_tables WHERE (owner IS NULL OR owner NOT IN ({_LIVE})) AND (touched < %s OR "
                "(touched < %s AND NOT EXISTS (SELECT 1 FROM racko_actions WHERE table_id = id) "
                "AND NOT EXISTS (SELECT 1 FROM racko_records WHERE table_id = id)))",
                (now - idle_seconds, now - unplayed_seconds),
            )
            for kept_by_table in self._kept_by_table:
                connection.execute(
                    f"DELETE FROM {kept_by_table} WHERE table_id NOT IN (SELECT id FROM racko_tables)".encode()
                )
            return cursor.rowcount

    # --- who plays a table --------------------------------------------------------------------------------------
    # A process holds one lease, its row in racko_nodes, renewed every second; its claims on tables stand while that
    # lease does.  So renewing costs one row a second whatever the number of tables, and a process that stopped
    # renewing loses all its tables at once, each taken over by whichever process its next connection reaches.

    def _renew_lease(self, connection: psycopg.Connection[Any]) -> bool:
        """Take or renew this process's lease; whether it had stood without a break since it was first taken (when
        it had not, the tables this process held may have been taken over meanwhile)."""
        row = connection.execute(
            "INSERT INTO racko_nodes (owner, lease_until) VALUES (%(owner)s, now() + make_interval(secs => %(lease)s)) "
            "ON CONFLICT (owner) DO UPDATE SET lease_until = EXCLUDED.lease_until "
            # The subquery sees the row as it was before this statement: was the lease still running?
            "RETURNING (SELECT lease_until > now() FROM racko_nodes WHERE owner = %(owner)s)",
            {"owner": self.owner, "lease": self.lease_seconds},
        ).fetchone()
        stood = row is not None and bool(row[0])
        first = not self._lease_taken
        self._lease_taken = True
        return stood or first

    def claim(self, table_id: str) -> Holder | None:
        # One claim or release of a table at a time in this process: a second request's claim waits for the first
        # one's commit, then finds the table held (a write fenced by a claim not committed yet would change nothing).
        with self._claim_lock(table_id):
            return self._claim(table_id)

    def _claim_lock(self, table_id: str) -> threading.Lock:
        return self._claim_locks[hash(table_id) % len(self._claim_locks)]

    def _claim(self, table_id: str) -> Holder | None:
        with self._claims:
            if table_id in self._held:
                return None
        with self._pool.connection() as connection, connection.transaction():
            if not self._lease_taken:
                self._renew_lease(connection)
            row = connection.execute(
                "WITH previous AS (SELECT id, owner FROM racko_tables WHERE id = %(id)s FOR UPDATE) "
                "UPDATE racko_tables AS claimed SET owner = %(owner)s, epoch = claimed.epoch + 1 FROM previous "
                f"WHERE claimed.id = previous.id AND (claimed.owner IS NULL OR claimed.owner NOT IN ({_LIVE})) "
                "RETURNING claimed.epoch, previous.owner",
                {"owner": self.owner, "id": table_id},
            ).fetchone()
            if row is None:
                holder = connection.execute(
                    "SELECT tables.owner, EXTRACT(EPOCH FROM nodes.lease_until - now()) FROM racko_tables AS tables "
                    "LEFT JOIN racko_nodes AS nodes ON nodes.owner = tables.owner WHERE tables.id = %s",
                    (table_id,),
                ).fetchone()
            else:
                connection.execute(
                    "INSERT INTO racko_owners (table_id, epoch, owner) VALUES (%s, %s, %s)",
                    (table_id, row[0], self.owner),
                )
        if row is not None:  # held from its commit on
            with self._claims:
                self._held[table_id] = row[0]
            if row[1] is not None and row[1] != self.owner:
                log.info("table %s taken over from %s (its lease had run out)", table_id, row[1].split(" ")[0])
            return None
        if holder is None or holder[0] is None:
            return None  # no such table (load says so), or released just now: the next claim takes it
        return Holder(str(holder[0]).split(" ")[0], max(0.0, float(holder[1] or 0.0)))

    def renew(self) -> list[str]:
        with self._pool.connection() as connection, connection.transaction():
            if self._renew_lease(connection):
                return []
            # The lease had run out (this process was stopped, or too slow): the tables another process took over
            # meanwhile are not this process's any more.
            with self._claims:
                held = dict(self._held)
            kept = {
                table_id
                for table_id, epoch in connection.execute(
                    "SELECT id, epoch FROM racko_tables WHERE owner = %s AND id = ANY(%s)", (self.owner, list(held))
                )
                if held[table_id] == epoch
            }
        lost = [table_id for table_id in held if table_id not in kept]
        with self._claims:
            for table_id in lost:
                if self._held.get(table_id) == held[table_id]:
                    del self._held[table_id]
        return lost

    def release(self, table_id: str) -> None:
        with self._claim_lock(table_id):
            with self._claims:
                epoch = self._held.pop(table_id, None)
            if epoch is None:
                return
            with self._pool.connection() as connection:
                connection.execute(
                    "UPDATE racko_tables SET owner = NULL WHERE id = %s AND owner = %s AND epoch = %s",
                    (table_id, self.owner, epoch),
                )

    def prepare(self, parts: Sequence[SchemaPart]) -> None:
        journal = SchemaPart("store", "", JOURNAL_UPGRADES["postgres"])
        made = schema_work([journal, *parts], "DOUBLE PRECISION", self.found_version)

        def work(rows: Rows) -> None:
            rows("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))  # one process at a time makes them
            made(rows)

        self.run(work)
        self.found_version = SCHEMA_VERSION
        self._kept_by_table = tuple(table for part in parts for table in part.kept_by_table)

    def run(self, work: Callable[[Rows], T], *, durable: bool = True) -> T:
        return self._transaction(work, snapshot=False, durable=durable)

    def read(self, work: Callable[[Rows], T]) -> T:
        # One snapshot for all its statements (PostgreSQL's default lets each see what was committed before it
        # began: a page read with two statements could see a game and not the ratings written with it), on a
        # pooled connection of its own: it holds up no write.
        return self._transaction(work, snapshot=True)

    def _transaction(self, work: Callable[[Rows], T], snapshot: bool, durable: bool = True) -> T:
        with self._pool.connection() as connection, connection.transaction():
            if snapshot:
                connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            if not durable:
                connection.execute("SET LOCAL synchronous_commit = off")

            def rows(sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
                # The shared SQL's "?" placeholders become psycopg's, and a literal "%" (LIKE 'bot:%') stays one.
                cursor = connection.execute(sql.replace("%", "%%").replace("?", "%s").encode(), parameters)
                return cursor.fetchall() if cursor.description is not None else []

            return work(rows)

    def close(self) -> None:
        try:
            self.commit()
            with self._pool.connection() as connection, connection.transaction():
                connection.execute("UPDATE racko_tables SET owner = NULL WHERE owner = %s", (self.owner,))
                connection.execute("DELETE FROM racko_nodes WHERE owner = %s", (self.owner,))
            with self._claims:
                self._held.clear()
        finally:
            self._pool.close()


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
