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
