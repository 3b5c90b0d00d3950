"""What the table's tests share: the server's clock moved by hand, a table server in process that reads it, and a real
`racko serve` for a browser test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from browsing import serving
from tables import HandClock, hub_of, table_app


@pytest.fixture
def clock() -> HandClock:
    return HandClock()


@pytest.fixture
def client(clock: HandClock) -> Iterator[TestClient]:
    """A table server whose clock is ``clock`` (its clock task looks often: a clock moved by hand is seen at once)."""
    with TestClient(table_app(now=clock)) as test_client:
        hub_of(test_client).clock_tick = 0.02
        yield test_client


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One `racko serve` for the test module, and its database (where tables from real games are written, as the
    server keeps a table)."""
    folder = tmp_path_factory.mktemp("serve")
    with serving(folder) as address:
        yield address, folder / "tables.sqlite3"
