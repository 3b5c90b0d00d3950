"""The frames issue 25's table page relies on, in process (Starlette's test client): reactions from a fixed set, one a
seat every 2.5 seconds and none from spectators; one connection per seat (an older one is told and closed); and
whose turn it is, with for how long, in every presence frame."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tables import hello, make_table, table_app, until_frame


@pytest.fixture
def client() -> Any:
    with TestClient(table_app()) as test_client:
        yield test_client


def test_a_reaction_reaches_everyone_at_the_table_from_the_fixed_set_only(client: TestClient) -> None:
    links = make_table(client, names=["Ann", "Bob"])
    ann, bob = (seat["token"] for seat in links["seats"])
    path = f"/ws/{links['table']}"
    with client.websocket_connect(path) as first, client.websocket_connect(path) as second:
        hello(first, ann)
        hello(second, None)  # a spectator sees reactions, and cannot send one
        first.send_json({"type": "react", "reaction": "gg"})
        assert until_frame(first, "reaction") == {"type": "reaction", "seat": 0, "reaction": "gg"}
        assert until_frame(second, "reaction") == {"type": "reaction", "seat": 0, "reaction": "gg"}
        first.send_json({"type": "react", "reaction": "wp"})
        assert until_frame(first, "error")["code"] == "too-soon"
        for odd in ("Buy cheap cards", "", None, 7, ["gg"]):
            first.send_json({"type": "react", "reaction": odd})
            assert until_frame(first, "error")["code"] == "bad-reaction"
        second.send_json({"type": "react", "reaction": "gg"})
        assert until_frame(second, "error")["code"] == "spectator"
        with client.websocket_connect(path) as third:
            hello(third, bob)  # Bob has not chosen a name yet
            third.send_json({"type": "react", "reaction": "oops"})
            assert until_frame(third, "error")["code"] == "name-first"


def test_a_seat_opened_again_closes_its_older_connection_which_no_longer_acts(client: TestClient) -> None:
    links = make_table(client, seats=["me", "easy"], names=["Ann"])
    token = links["seats"][0]["token"]
    path = f"/ws/{links['table']}"
    with client.websocket_connect(path) as older:
        hello(older, token)
        with client.websocket_connect(path) as newer:
            hello(newer, token)
            assert until_frame(older, "replaced")["type"] == "replaced"
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    older.receive_json()
            assert closed.value.code == 4409
            newer.send_json({"type": "presence"})
            presence = until_frame(newer, "presence")
            assert presence["seats"][0]["connected"] is True and presence["spectators"] == 0


def _presence_now(client: TestClient, path: str) -> dict[str, Any]:
    """The presence frame as a connection opened now gets it (an open connection's queue may hold older ones)."""
    with client.websocket_connect(path) as spectator:
        hello(spectator, None)
        spectator.send_json({"type": "presence"})
        return until_frame(spectator, "presence")


def _state_after(ws: Any, version: int) -> dict[str, Any]:
    """The first state frame past ``version`` (older ones, from others joining or naming, are passed over)."""
    while (frame := until_frame(ws, "state"))["version"] <= version:
        pass
    return frame


def test_presence_says_whose_turn_it_is_and_for_how_long(client: TestClient) -> None:
    links = make_table(client, names=["Ann", "Bob"])
    tokens = [seat["token"] for seat in links["seats"]]
    path = f"/ws/{links['table']}"
    with client.websocket_connect(path) as ann, client.websocket_connect(path) as bob:
        _, state = hello(ann, tokens[0])
        hello(bob, tokens[1])
        bob.send_json({"type": "name", "name": "Bob"})
        until_frame(bob, "state")
        table = client.app.state.hub.tables[links["table"]]  # type: ignore[attr-defined]
        seat = state["view"]["to_act"]
        first = _presence_now(client, path)
        assert first["to_act"] == seat and 0 <= first["turn_for"] < 5
        table.turn_since -= 30  # as if the seat to act had been thinking for half a minute
        assert _presence_now(client, path)["turn_for"] >= 30
        acting = (ann, bob)[seat]
        acting.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
        drawn = _state_after(acting, state["version"])
        assert _presence_now(client, path)["turn_for"] >= 30  # a turn is a draw and a placement: the clock goes on
        acting.send_json({"type": "act", "version": drawn["version"], "action": {"act": "discard"}})
        _state_after(acting, drawn["version"])
        passed = _presence_now(client, path)
        assert passed["to_act"] == 1 - seat and passed["turn_for"] < 5  # the turn passed: the other's clock starts
