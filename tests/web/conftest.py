"""What the web rooms' tests share: a server in process on either store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from racko.web.app import ServerSettings, create_app, schema_parts
from racko.web.store import SqliteTables, TableStore
from racko.web.store.postgres import PostgresTables


@pytest.fixture(params=["sqlite", "postgres"])
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A server on a SQLite file or on PostgreSQL (a real server, started for the tests), at a machine's pace, its
    quick play filling empty seats after 0.3 s."""
    if request.param == "sqlite":
        store: Any = SqliteTables(tmp_path / "tables.sqlite3", grouped=True)
    else:
        store = PostgresTables(request.getfixturevalue("postgres_url"), node="one")
    app = create_app(
        store,
        ServerSettings(
            pace=0.0, frames_per_second=10000.0, new_tables_per_address=10**6, fill_seconds=0.3, quick_target=25
        ),
    )
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    """A grouping store of each kind, empty, with the rooms' tables made as the server makes them when it starts."""
    made: TableStore
    if request.param == "sqlite":
        made = SqliteTables(tmp_path / "tables.sqlite3", grouped=True, exclusive=True)
    else:
        made = PostgresTables(request.getfixturevalue("postgres_url"), node="one")
    made.prepare(schema_parts())
    try:
        yield made
    finally:
        made.close()
