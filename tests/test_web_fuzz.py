"""`racko serve` against frames no browser of ours sends: each is answered, no socket is closed, and a refused
frame changes no table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient

from racko.web.app import create_app
from racko.web.store import SqliteTables
from racko.web.tables import Hub

ANSWER_SECONDS = 20.0
"""How long a frame may wait for its answer before the test calls it unanswered (a real answer takes milliseconds)."""


def _app(**options: Any) -> Any:
    return create_app(SqliteTables(":memory:"), pace=0.0, frames_per_second=1e9, **options)


@pytest.fixture
def fuzz_client() -> Iterator[TestClient]:
    with TestClient(_app()) as client:
        yield client


def _receive(socket: Any) -> dict[str, Any]:
    """The next frame from the server, within ANSWER_SECONDS (the test client itself would wait forever)."""

    async def within() -> Any:
        with anyio.fail_after(ANSWER_SECONDS):
            return await socket._send_rx.receive()  # the test client's own queue: its receive() has no timeout

    try:
        message = socket.portal.call(within)
    except TimeoutError:
        raise AssertionError(f"no answer within {ANSWER_SECONDS} s") from None
    assert message["type"] == "websocket.send", f"the server closed the socket: {message}"
    text = message.get("text")
    assert isinstance(text, str), f"a frame that is not text: {message}"
    text.encode("utf-8")  # a real server sends UTF-8: a lone surrogate in a frame would fail there
    frame = json.loads(text)
    assert isinstance(frame, dict) and isinstance(frame.get("type"), str), text[:200]
    if frame["type"] == "error":
        assert isinstance(frame.get("code"), str) and frame["code"], frame
        assert isinstance(frame.get("message"), str) and frame["message"], frame
        assert "Traceback" not in frame["message"], frame
    return frame


# --- what the fuzz found ---------------------------------------------------------------------------------------


def test_a_sync_from_a_negative_version_is_brought_from_the_start(fuzz_client: TestClient) -> None:
    """A sync names the version the client last saw; one the game never had brings the whole game, ``since`` 0
    (it used to echo the negative number back as ``since``)."""
    links = fuzz_client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "person"]})
    with fuzz_client.websocket_connect(f"/ws/{links.json()['table']}") as socket:
        socket.send_json({"type": "hello", "token": links.json()["seats"][0]["token"]})
        assert [_receive(socket)["type"] for _ in range(3)] == ["welcome", "state", "presence"]
        socket.send_json({"type": "sync", "version": 0})
        whole = _receive(socket)
        for seen in (-1, -(10**60)):
            socket.send_json({"type": "sync", "version": seen})
            state = _receive(socket)
            assert state["type"] == "state" and state["since"] == 0 and state["lines"] == whole["lines"]


# --- clients that vanish ---------------------------------------------------------------------------------------


def _vanishing_client(app: Any, path: str, frames: list[str]) -> list[dict[str, Any]]:
    """Runs one WebSocket connection through the application as a server would, for a client that sends ``frames``
    and is gone by the time the server answers: every send fails as uvicorn's does then (an OSError).  Returns what
    the server tried to send; an exception the application lets out fails the test, as it is a traceback in the
    server's log."""
    incoming: list[dict[str, Any]] = [
        {"type": "websocket.connect"},
        *({"type": "websocket.receive", "text": frame} for frame in frames),
        {"type": "websocket.disconnect", "code": 1006},
    ]
    tried: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "websocket.disconnect", "code": 1006}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] != "websocket.accept":
            tried.append(message)
            raise OSError("the client is gone")

    scope = {
        "type": "websocket",
        "asgi": {"version": "3.0"},
        "scheme": "ws",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "subprotocols": [],
    }
    anyio.run(app, scope, receive, send)
    return tried


def test_a_client_gone_during_its_hello_leaves_no_watcher_behind_and_no_traceback() -> None:
    """A seat whose browser vanished right after its hello used to stay "connected" for good (its watcher was never
    removed, so nobody could hand the seat to a computer player), and the failed welcome escaped as a traceback."""
    app = _app()
    hub: Hub = app.state.hub
    table, links = hub.create({"variant": "classic", "players": 2, "seats": ["me", "person"]})
    for seat in links["seats"]:
        hello = json.dumps({"type": "hello", "token": seat["token"]})
        tried = _vanishing_client(app, f"/ws/{table.table_id}", [hello])
        assert tried and json.loads(tried[0]["text"])["type"] == "welcome"
        assert table.watchers == [] and not table.connected(seat["seat"])
        assert seat["seat"] in table.away_since  # away: after a while, the others may hand the seat over
    refused = [
        ("/ws/no-such-table", [], "no-table"),
        (f"/ws/{table.table_id}", [json.dumps({"type": "hello", "token": "not a seat"})], "bad-token"),
        (f"/ws/{table.table_id}", ["not json"], "no-hello"),
    ]
    for path, frames, code in refused:
        tried = _vanishing_client(app, path, frames)
        assert json.loads(tried[0]["text"])["code"] == code
