"""The server's stores: the same behaviour from SQLite and from a real PostgreSQL server, what each refuses, and the
leases that let several processes share PostgreSQL without two of them ever writing one table."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from racko.web.app import schema_parts
from racko.web.store import (
    DamagedTableError,
    ForeignDatabaseError,
    Rows,
    SqliteTables,
    StoreError,
    TableStore,
    open_store,
)
from racko.web.store.postgres import PostgresTables
from racko.web.store.schema import SCHEMA_VERSION

SETUP = {"rules": {"variant": "classic", "players": 2}, "seed": 7, "game": 1, "seats": [{"name": "Ann"}]}


def _action(number: int) -> dict[str, Any]:
    return {"act": "draw", "seat": number % 2}


def test_a_table_is_kept_as_its_setup_and_journal_and_nothing_is_unsaved_after_a_commit(store: TableStore) -> None:
    store.create("t1", SETUP)
    store.commit()
    assert store.claim("t1") is None  # this process plays it now
    store.append("t1", 0, [_action(0), _action(1)])
    assert store.unsaved("t1")
    store.commit()
    assert not store.unsaved("t1") and store.lost("t1") is None
    store.append("t1", 2, [_action(2)])
    store.update_setup("t1", {**SETUP, "seats": [{"name": "Bob"}]})
    store.commit()
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.setup["seats"] == [{"name": "Bob"}] and loaded.actions == (_action(0), _action(1), _action(2))
    assert not loaded.finished and list(store.open_tables()) == ["t1"]
    store.finish("t1", '{"game": 1}')
    store.commit()
    assert store.records("t1") == ['{"game": 1}'] and list(store.open_tables()) == []
    store.restart("t1", {**SETUP, "game": 2}, '{"game": 1}')  # the record filed at the end is not filed twice
    store.commit()
    again = store.load("t1")
    assert again is not None and again.actions == () and again.setup["game"] == 2 and not again.finished
    assert store.records("t1") == ['{"game": 1}']
    assert store.load("nothing") is None


def test_a_read_sees_what_is_committed_and_makes_no_pending_move_commit(store: TableStore) -> None:
    """The lobby's and the pages' reads never hurry the group commit (nor wait for it)."""
    store.create("t1", SETUP)
    store.commit()
    assert store.claim("t1") is None
    store.run(lambda rows: rows("INSERT INTO racko_players (id, name, created, seen) VALUES ('p1', 'Ann', 0, 0)"))
    store.append("t1", 0, [_action(0)])

    def look(rows: Rows) -> list[tuple[Any, ...]]:
        return rows("SELECT name FROM racko_players")

    assert store.read(look) == [("Ann",)]
    assert store.unsaved("t1")  # reading did not commit the pending move
    store.run(lambda rows: rows("UPDATE racko_players SET name = 'Annie'"))
    assert store.read(look) == [("Annie",)]
    store.commit()
    loaded = store.load("t1")
    assert loaded is not None and loaded.actions == (_action(0),)


def test_a_read_of_several_statements_sees_one_moment_of_the_database(store: TableStore) -> None:
    """A page read in two statements (a player's games, then their ratings) sees either both rows a transaction
    wrote or neither: a write committed between its statements is not half seen."""
    store.run(lambda rows: rows("INSERT INTO racko_players (id, name, created, seen) VALUES ('p1', 'Ann', 0, 0)"))

    def twice(rows: Rows) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        first = rows("SELECT name FROM racko_players ORDER BY id")
        writer = threading.Thread(
            target=store.run,
            args=(
                lambda other: other("INSERT INTO racko_players (id, name, created, seen) VALUES ('p2', 'Bob', 0, 0)"),
            ),
        )
        writer.start()
        writer.join()
        return first, rows("SELECT name FROM racko_players ORDER BY id")

    assert store.read(twice) == ([("Ann",)], [("Ann",)])
    assert store.read(lambda rows: rows("SELECT name FROM racko_players ORDER BY id")) == [("Ann",), ("Bob",)]


def test_a_journal_with_a_gap_or_a_broken_row_is_a_damaged_table_named_with_the_reason(store: TableStore) -> None:
    store.create("t1", SETUP)
    store.commit()
    store.claim("t1")
    store.append("t1", 0, [_action(0)])
    store.append("t1", 2, [_action(2)])  # action 2 (the second) was never written
    store.commit()
    with pytest.raises(DamagedTableError, match="no action 2") as caught:
        store.load("t1")
    assert caught.value.table_id == "t1"


def test_tables_nobody_needs_are_forgotten_and_only_those(store: TableStore) -> None:
    for table_id in ("played", "unplayed", "fresh"):
        store.create(table_id, SETUP)
    store.commit()
    store.claim("played")
    store.append("played", 0, [_action(0)])
    store.commit()
    # The first three were touched an hour ago: set back in the row, not waited for, so a slow commit under load
    # cannot make "new" old too (it did in CI, with 0.05 s of sleep against a 0.03 s limit).
    table = "tables" if isinstance(store, SqliteTables) else "racko_tables"
    store.run(lambda rows: rows(f"UPDATE {table} SET touched = touched - 3600, created = created - 3600"))
    store.create("new", SETUP)
    store.commit()
    # Nothing idle for a day: only the tables never played and older than the unplayed limit go.
    assert store.sweep(86400, 600) == 3 - 1  # "unplayed" and "fresh"; "played" has a move, "new" is too new
    assert store.load("played") is not None and store.load("new") is not None
    assert store.load("unplayed") is None and store.load("fresh") is None
    store.release("played")
    assert store.sweep(0.0, 86400) == 2  # everything idle is forgotten at once
    assert list(store.open_tables()) == []


def test_open_store_tells_a_file_from_a_url_and_refuses_anything_else(tmp_path: Path) -> None:
    opened = open_store(tmp_path / "a.sqlite3")
    try:
        assert isinstance(opened, SqliteTables) and opened.describe() == str(tmp_path / "a.sqlite3")
    finally:
        opened.close()
    with pytest.raises(StoreError, match="not a mysql:// URL"):
        open_store("mysql://me@db/racko")
    with pytest.raises(StoreError, match="is a folder"):
        open_store(tmp_path)
    with pytest.raises(StoreError, match=re.escape("cannot reach the database postgresql://me@127.0.0.1:1/racko:")):
        open_store("postgresql://me:secret@127.0.0.1:1/racko", node="n")  # the password is never repeated


# --- SQLite: one process, owner-only files, schemas it knows -------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_sqlite_file_and_its_companions_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    os.umask(0o022)  # as a careless shell would have it: the store must not rely on the umask
    path = tmp_path / "tables.sqlite3"
    store = SqliteTables(path, grouped=True, exclusive=True)
    store.create("t1", SETUP)
    store.commit()
    wal, shm, lock = (path.with_name(path.name + extra) for extra in ("-wal", "-shm", ".lock"))
    assert wal.exists() and shm.exists()
    assert {_mode(file) for file in (path, wal, shm, lock)} == {0o600}
    store.close()
    os.chmod(path, 0o644)  # a file an older racko made wider is tightened when it is opened
    SqliteTables(path).close()
    assert _mode(path) == 0o600


def test_another_process_opening_the_file_never_pulls_the_shared_memory_from_under_a_server(tmp_path: Path) -> None:
    """A server's store keeps its lock on the ``-shm`` file: a test (or a tool) that opens the same database from
    another process must not take it for the first user and truncate the memory the server has mapped (which
    killed the server with SIGBUS while its own set-up dropped that lock)."""
    path = tmp_path / "tables.sqlite3"
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER_HOLDING_THE_FILE, str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None and server.stdin is not None
        assert server.stdout.readline().strip() == "ready"
        for _ in range(40):  # another process opens the database, reads and goes, as the browser tests' do
            other = SqliteTables(path)
            assert other.load("nobody") is None
            other.close()
        server.stdin.write("go on\n")
        server.stdin.flush()
        assert server.stdout.readline().strip() == "alive"
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
        server.wait()


SERVER_HOLDING_THE_FILE = """
import sys, threading
from racko.web.store.sqlite import SqliteTables
store = SqliteTables(sys.argv[1], grouped=True, exclusive=True)
assert store.load("nobody") is None
told = threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), told.set()), daemon=True).start()
print("ready", flush=True)
while not told.is_set():  # busy as a server is, while the other process comes and goes
    assert store.load("nobody") is None
print("alive", flush=True)
store.close()
"""


def test_a_second_server_on_one_sqlite_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    first = SqliteTables(path, exclusive=True)
    try:
        with pytest.raises(StoreError, match=r"another racko serve is using .* PostgreSQL"):
            SqliteTables(path, exclusive=True)
    finally:
        first.close()
    SqliteTables(path, exclusive=True).close()  # free again once the first has closed


def test_a_database_of_another_program_or_a_newer_racko_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    with pytest.raises(ForeignDatabaseError, match="holds other tables \\(invoices\\)"):
        SqliteTables(other)
    with sqlite3.connect(other) as connection:
        assert [row[0] for row in connection.execute("SELECT name FROM sqlite_master")] == ["invoices"]
    newer = tmp_path / "newer.sqlite3"
    SqliteTables(newer).close()
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE racko_meta SET value = '99' WHERE key = 'version'")
    with pytest.raises(ForeignDatabaseError, match="newer racko"):
        SqliteTables(newer)
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="not a database racko can use"):
        SqliteTables(garbage)


def test_a_database_of_the_first_version_is_brought_up_to_date_with_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as connection:  # what racko serve wrote before the schema had a version
        connection.executescript(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, setup TEXT NOT NULL, created REAL NOT NULL, "
            "touched REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0);"
            "CREATE TABLE actions (table_id TEXT NOT NULL, number INTEGER NOT NULL, action TEXT NOT NULL, "
            "PRIMARY KEY (table_id, number)) WITHOUT ROWID;"
            "CREATE TABLE records (table_id TEXT NOT NULL, number INTEGER NOT NULL, record TEXT NOT NULL, "
            "PRIMARY KEY (table_id, number)) WITHOUT ROWID;"
        )
        connection.execute("INSERT INTO tables VALUES ('old', ?, 1, 1, 0)", (json.dumps(SETUP),))
        connection.execute("INSERT INTO actions VALUES ('old', 0, ?)", (json.dumps(_action(0)),))
    store = SqliteTables(path)
    try:
        store.prepare(schema_parts())
        loaded = store.load("old")
        assert loaded is not None and loaded.actions == (_action(0),)
    finally:
        store.close()
    with sqlite3.connect(path) as connection:
        assert dict(connection.execute("SELECT key, value FROM racko_meta")) == {
            "schema": "racko-tables",
            "version": str(SCHEMA_VERSION),
        }
        names = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"racko_players", "racko_listings", "racko_ratings"} <= names  # the rooms' tables, made on the way


# --- PostgreSQL: several processes, one owner per table -------------------------------------------------------------


def test_a_table_has_one_owner_and_a_lease_that_runs_out_lets_another_take_it_over(postgres_url: str) -> None:
    first = PostgresTables(postgres_url, node="first", lease_seconds=1.0)
    second = PostgresTables(postgres_url, node="second", lease_seconds=1.0)
    try:
        first.create("t1", SETUP)
        first.commit()
        assert first.claim("t1") is None
        held = second.claim("t1")
        assert held is not None and held.node == "first" and 0 < held.seconds_left <= 1.0
        first.append("t1", 0, [_action(0)])
        first.commit()
        assert first.renew() == []  # renewed: still its own
        time.sleep(1.3)  # first stops renewing (as a process that stopped dead would)
        assert second.claim("t1") is None  # taken over
        first.append("t1", 1, [_action(1)])  # too late: fenced out, not written
        first.commit()
        assert first.lost("t1") == "another server process plays this table now"
        assert first.renew() == ["t1"]
        second.append("t1", 1, [_action(1)])
        second.commit()
        assert second.lost("t1") is None
        loaded = second.load("t1")
        assert loaded is not None and loaded.actions == (_action(0), _action(1))
        with psycopg.connect(postgres_url) as connection:
            epochs = connection.execute("SELECT number, epoch FROM racko_actions ORDER BY number").fetchall()
            owners = connection.execute("SELECT epoch, owner FROM racko_owners ORDER BY epoch").fetchall()
        assert [epoch for _, epoch in epochs] == [1, 2]  # each move written under the claim of its one writer
        assert [owner.split(" ")[0] for _, owner in owners] == ["first", "second"]
        second.release("t1")
        assert first.claim("t1") is None  # released: free at once
    finally:
        first.close()
        second.close()


def test_in_one_group_of_moves_a_table_taken_over_loses_its_move_and_the_others_keep_theirs(postgres_url: str) -> None:
    first = PostgresTables(postgres_url, node="first", lease_seconds=1.0)
    second = PostgresTables(postgres_url, node="second")
    try:
        for table_id in ("kept", "taken"):
            first.create(table_id, SETUP)
        first.commit()
        first.claim("kept")
        first.claim("taken")
        time.sleep(1.3)  # first's lease runs out; second takes one of its tables
        assert second.claim("taken") is None
        first.renew()  # first is back: its lease again, and "kept", which nobody took, is still its own
        first.append("kept", 0, [_action(0)])
        first.append("taken", 0, [_action(0)])
        first.commit()  # one statement for both appends
        assert first.lost("kept") is None and first.lost("taken") == "another server process plays this table now"
        kept, taken = first.load("kept"), first.load("taken")
        assert kept is not None and kept.actions == (_action(0),)
        assert taken is not None and taken.actions == ()
    finally:
        first.close()
        second.close()


def test_a_failed_write_of_one_table_loses_only_that_tables_writes(postgres_url: str) -> None:
    store = PostgresTables(postgres_url, node="one")
    try:
        for table_id in ("good", "bad"):
            store.create(table_id, SETUP)
        store.commit()
        store.claim("good")
        store.claim("bad")
        store.append("bad", 0, [_action(0)])
        store.commit()
        store.append("good", 0, [_action(0)])
        store.append("bad", 0, [_action(0)])  # number 0 again: the journal's key refuses it
        store.append("bad", 1, [_action(1)])  # and a table's later write never goes in without its earlier one
        store.commit()
        assert store.lost("good") is None and store.lost("bad") is not None
        good, bad = store.load("good"), store.load("bad")
        assert good is not None and good.actions == (_action(0),)
        assert bad is not None and bad.actions == (_action(0),)
    finally:
        store.close()


def test_a_postgres_database_of_another_schema_is_refused(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("CREATE TABLE racko_tables (id INTEGER)")
    with pytest.raises(ForeignDatabaseError, match="not racko's"):
        PostgresTables(postgres_url, node="one")


def test_several_processes_starting_at_once_make_the_schema_once(postgres_url: str) -> None:
    import threading

    made: list[PostgresTables] = []
    problems: list[BaseException] = []

    def start(index: int) -> None:
        try:
            made.append(PostgresTables(postgres_url, node=f"n{index}"))
        except BaseException as error:
            problems.append(error)

    threads = [threading.Thread(target=start, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in made:
        store.close()
    assert not problems and len(made) == 4


def _claimed_at_once(store: PostgresTables, look: psycopg.Connection[Any], table_id: str, requests: int) -> list[Any]:
    """``requests`` threads claim the table at the same moment; the owner the database shows to each told it holds
    the table, just after it was told."""
    start = threading.Barrier(requests)
    found: list[Any] = []

    def claim() -> None:
        start.wait()
        if store.claim(table_id) is None:  # held: it may write now
            row = look.execute("SELECT owner FROM racko_tables WHERE id = %s", (table_id,)).fetchone()
            found.append(row[0] if row else None)

    threads = [threading.Thread(target=claim) for _ in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return found


def test_a_claim_made_by_several_requests_at_once_is_committed_before_any_of_them_writes(postgres_url: str) -> None:
    """Several requests of one process claim a table at once (three people joining it): each told it holds the table
    must find the claim in the database, or its first write is fenced out (CI saw a join refused so)."""
    store = PostgresTables(postgres_url, node="one")
    tables = [f"t{number}" for number in range(60)]
    try:
        for table_id in tables:
            store.create(table_id, SETUP)
        store.commit()
        with psycopg.connect(postgres_url, autocommit=True) as look:
            for table_id in tables:
                found = _claimed_at_once(store, look, table_id, 4)
                assert found and all(owner == store.owner for owner in found), (table_id, found)
                store.update_setup(table_id, {**SETUP, "seed": 8})
                store.commit()
                assert store.lost(table_id) is None
    finally:
        store.close()
