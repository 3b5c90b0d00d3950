"""What the tests of a table in process share (Starlette's test client): the application at a machine's speed, a
new table, a seat's hello, the next frame of a kind, the hub that plays the tables, the server's clock moved by hand
and the journal as the store keeps it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from people import receive_json
from racko.web.app import create_app
from racko.web.store import SqliteTables
from racko.web.table import Hub


def table_app(path: Path | str = ":memory:", **options: Any) -> Any:
    options.setdefault("frames_per_second", 10000.0)  # the tests play at a machine's speed, not a person's
    options.setdefault("new_tables_per_address", 10**6)  # the tests make tables at a machine's speed
    return create_app(SqliteTables(path), pace=options.pop("pace", 0.0), **options)


def make_table(client: TestClient, **form: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "person"], **form})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def hello(ws: Any, token: str | None, version: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    ws.send_json({"type": "hello", "token": token, "version": version})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    state = ws.receive_json()
    assert state["type"] == "state"
    frame = ws.receive_json()
    while frame["type"] == "state":  # a computer player woken by an earlier connection may move meanwhile
        state = frame
        frame = ws.receive_json()
    assert frame["type"] == "presence"
    return welcome, state


def until_frame(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        frame = ws.receive_json()
        if frame["type"] == kind:
            return dict(frame)
    raise AssertionError(f"no {kind} frame")


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


class HandClock:
    """The server's clock, moved by the test (seconds since the epoch)."""

    def __init__(self) -> None:
        self.at = 1_700_000_000.0

    def __call__(self) -> float:
        return self.at


def frame_where(ws: Any, kind: str, wanted: Any = lambda frame: True, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        frame = receive_json(ws)
        if frame["type"] == kind and wanted(frame):
            return frame
    raise AssertionError(f"no {kind} frame as wanted")


def join(ws: Any, token: str) -> dict[str, Any]:
    """Say hello; the newest state."""
    ws.send_json({"type": "hello", "token": token, "version": 0})
    assert frame_where(ws, "welcome")
    return frame_where(ws, "state")


def my_turn(ws: Any, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The state in which ``seat``'s turn begins (a computer player at the table moves first, at once)."""
    while state["view"]["to_act"] != seat or state["view"]["held"] is not None:
        state = frame_where(ws, "state")
    return state


def journal(hub: Hub, table_id: str) -> list[tuple[int, str | None, float | None]]:
    """Each action's seat, who played it, and when."""
    stored = hub.store.load(table_id)
    assert stored is not None
    return [
        (int(action["seat"]), by, at)
        for action, by, at in zip(stored.actions, stored.made_by, stored.times, strict=True)
    ]


def wait_for(look: Any, seconds: float = 10.0) -> Any:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        found = look()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError("never")
