"""What the table's tests share: the server's clock moved by hand, and a table server in process that reads it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

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
