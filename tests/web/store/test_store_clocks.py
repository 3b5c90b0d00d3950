"""The store's part of the clocks (issue 39): each action keeps when it was played and by whom, each table its
running clock's deadline (written with every append), the tables whose deadline passed are found, and a database of
the version before clocks is brought up with its rows kept (their actions without a time)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import psycopg

from racko.web.app import schema_parts
from racko.web.store import SqliteTables, TableStore
from racko.web.store.postgres import PostgresTables
from racko.web.store.schema import SCHEMA_VERSION

SETUP = {"rules": {"variant": "classic", "players": 2}, "seed": 7, "game": 1, "seats": [{"name": "Ann"}]}
DRAW = {"act": "draw", "seat": 0}
PLACE = {"act": "exchange", "seat": 0, "slot": 5}


def test_actions_keep_their_time_and_author_and_the_table_its_deadline(store: TableStore) -> None:
    store.create("t1", SETUP)
    store.commit()
    assert store.claim("t1") is None
    store.append("t1", 0, [DRAW], at=1000.5, due=1090.0)
    store.append("t2-none", 0, [])  # nothing to a table that is not there: changes nothing else
    store.commit()
    store.lost("t2-none")
    assert store.overdue(1089.0) == [] and store.overdue(1090.0) == ["t1"]
    store.append("t1", 1, [PLACE], at=1100.0, by="clock", due=None)
    store.commit()
    loaded = store.load("t1")
    assert loaded is not None and loaded.actions == (DRAW, PLACE)
    assert loaded.times == (1000.5, 1100.0) and loaded.made_by == (None, "clock") and loaded.due is None
    assert store.overdue(10**10) == []
    store.set_due("t1", 2000.0)
    store.commit()
    loaded = store.load("t1")
    assert loaded is not None and loaded.due == 2000.0 and store.overdue(2000.0) == ["t1"]


def test_a_table_another_live_process_holds_is_not_overdue_for_this_one(postgres_url: str) -> None:
    first = PostgresTables(postgres_url, node="first")
    second = PostgresTables(postgres_url, node="second")
    try:
        first.create("held", SETUP)
        first.commit()
        assert first.claim("held") is None
        first.append("held", 0, [DRAW], at=10.0, due=20.0)
        first.commit()
        assert second.overdue(30.0) == []  # its holder is alive: it applies the timeout itself
        first.release("held")
        assert second.overdue(30.0) == ["held"]
    finally:
        first.close()
        second.close()


def test_a_sqlite_database_of_version_4_is_brought_up_and_its_old_actions_have_no_time(tmp_path: Path) -> None:
    path = tmp_path / "v4.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, setup TEXT NOT NULL, created REAL NOT NULL, "
            "touched REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0);"
            "CREATE TABLE actions (table_id TEXT NOT NULL, number INTEGER NOT NULL, action TEXT NOT NULL, "
            "PRIMARY KEY (table_id, number)) WITHOUT ROWID;"
            "CREATE TABLE records (table_id TEXT NOT NULL, number INTEGER NOT NULL, record TEXT NOT NULL, "
            "PRIMARY KEY (table_id, number)) WITHOUT ROWID;"
            "CREATE TABLE racko_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO racko_meta VALUES ('schema', 'racko-tables'), ('version', '4');"
        )
        connection.execute("INSERT INTO tables VALUES ('old', ?, 1, 1, 0)", (json.dumps(SETUP),))
        connection.execute("INSERT INTO actions VALUES ('old', 0, ?)", (json.dumps(DRAW),))
    store = SqliteTables(path, grouped=True)
    try:
        store.prepare(schema_parts())
        loaded = store.load("old")
        assert loaded is not None and loaded.actions == (DRAW,) and loaded.times == (None,) and loaded.due is None
        store.append("old", 1, [PLACE], at=5.0, by="gone", due=9.0)
        store.commit()
        again = store.load("old")
        assert again is not None and again.times == (None, 5.0) and again.made_by == (None, "gone")
    finally:
        store.close()
    with sqlite3.connect(path) as connection:
        assert dict(connection.execute("SELECT key, value FROM racko_meta"))["version"] == str(SCHEMA_VERSION)


def test_a_postgres_database_of_version_4_is_brought_up(postgres_url: str) -> None:
    made = PostgresTables(postgres_url, node="maker")
    made.prepare(schema_parts())
    made.close()
    with psycopg.connect(postgres_url, autocommit=True) as connection:  # as version 4 left it
        connection.execute("ALTER TABLE racko_actions DROP COLUMN played_at, DROP COLUMN made_by")
        connection.execute("ALTER TABLE racko_tables DROP COLUMN due")
        connection.execute("UPDATE racko_meta SET value = '4' WHERE key = 'version'")
        connection.execute(
            "INSERT INTO racko_tables (id, setup, created, touched) VALUES ('old', %s, 1, 1)", (json.dumps(SETUP),)
        )
        connection.execute("INSERT INTO racko_actions VALUES ('old', 0, %s, 0)", (json.dumps(DRAW),))
    store = PostgresTables(postgres_url, node="upgrader")
    try:
        assert store.found_version == 4
        store.prepare(schema_parts())
        loaded = store.load("old")
        assert loaded is not None and loaded.actions == (DRAW,) and loaded.times == (None,) and loaded.due is None
    finally:
        store.close()
    with psycopg.connect(postgres_url) as connection:
        row = connection.execute("SELECT value FROM racko_meta WHERE key = 'version'").fetchone()
        assert row == (str(SCHEMA_VERSION),)
