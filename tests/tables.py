"""What the tests of a table in process share (Starlette's test client): the application at a machine's speed, a
new table, a seat's hello, the next frame of a kind, and the hub that plays the tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

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
