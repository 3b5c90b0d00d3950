"""People's trust at the server: "Forget me" reaches every copy of a person, in SQLite and PostgreSQL alike, and
nothing is written for them again; ratings nobody can farm with two browsers from one address.  Through the
server in process (Starlette's test client); what two people do at the same moment is in
tests/web/table/test_table_concurrency.py."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from people import eventually, finished_games, get_as, lobby_until, person, play_to_the_end, quick, until
from racko.web.app import ServerSettings, create_app, schema_parts
from racko.web.players import FORGOTTEN
from racko.web.store import SqliteTables
from racko.web.store.postgres import PostgresTables

ANN = "Zephyrine"
"""A name found nowhere but where this person put it."""


@pytest.fixture(params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """A server in process on a SQLite file or on PostgreSQL (a real server), and where its database is."""
    if request.param == "sqlite":
        location = str(tmp_path / "tables.sqlite3")
        store: Any = SqliteTables(location, grouped=True)
    else:
        location = request.getfixturevalue("postgres_url")
        store = PostgresTables(location, node="one")
    app = create_app(
        store,
        ServerSettings(
            pace=0.0, frames_per_second=10000.0, new_tables_per_address=10**6, fill_seconds=0.3, quick_target=25
        ),
    )
    with TestClient(app) as client:
        yield client, location


def everything_kept(location: str) -> str:
    """Every value of every column of every table of the database, as one text (SQLite file or PostgreSQL URL)."""
    lines: list[str] = []
    if location.startswith("postgresql://"):
        with psycopg.connect(location) as connection:
            names = [
                name
                for (name,) in connection.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                )
            ]
            for name in names:
                lines += [f"{name}: {row!r}" for row in connection.execute(f'SELECT * FROM "{name}"'.encode())]
        return "\n".join(lines)
    with sqlite3.connect(location) as connection:
        names = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for name in names:
            lines += [f"{name}: {row!r}" for row in connection.execute(f'SELECT * FROM "{name}"')]
    return "\n".join(lines)


def _post(client: TestClient, path: str, body: dict[str, Any], who: dict[str, str] | None = None) -> Any:
    answer = client.post(path, json=body, headers=who or {})
    client.cookies.clear()
    return answer


def _state_where(ws: Any, wanted: Any) -> dict[str, Any]:
    """The first state frame whose view is as ``wanted`` says."""
    for _ in range(50):
        state = until(ws, "state")
        if wanted(state["view"]):
            return state
    raise AssertionError("no such state")


def _quick_game(client: TestClient, first: dict[str, str], second: dict[str, str]) -> tuple[str, dict[str, int]]:
    """Two players meet by rated quick play: the table, and each one's seat by their cookie header's text."""
    with (
        client.websocket_connect("/ws/lobby", headers=first) as one,
        client.websocket_connect("/ws/lobby", headers=second) as other,
    ):
        quick(one)
        quick(other)
        seated = [until(one, "seated"), until(other, "seated")]
    assert seated[0]["table"] == seated[1]["table"]
    return seated[0]["table"], {first["Cookie"]: seated[0]["seat"], second["Cookie"]: seated[1]["seat"]}


def test_forgetting_a_player_reaches_every_copy_of_them(served: tuple[TestClient, str]) -> None:
    """Ann played a rated game with Bob, sits at a public table Bob joined and at Bob's private table (where both
    are playing now), Bob hid her name and she made a transfer code; after "Forget me" neither her name nor her id
    is in any table or column of the database, the table under way shows her seat as a forgotten player's to Bob at
    once, and the finished games keep their moves and scores under that name."""
    client, location = served
    ann, bob, cy = person(client, ANN), person(client, "Bob"), person(client, "Cy")
    ann_id = get_as(client, "/api/me", ann).json()["id"]
    bob_id = get_as(client, "/api/me", bob).json()["id"]

    finished, seats = _quick_game(client, ann, bob)
    order = sorted([ann, bob], key=lambda who: seats[who["Cookie"]])
    with (
        client.websocket_connect(f"/ws/{finished}", headers=order[0]) as first,
        client.websocket_connect(f"/ws/{finished}", headers=order[1]) as second,
    ):
        play_to_the_end([first, second])
    game = eventually(lambda: finished_games(client, bob_id))["games"][0]["game"]

    public = _post(
        client,
        "/api/tables",
        {"variant": "classic", "players": 3, "seats": ["me", "person", "person"], "public": True},
        ann,
    ).json()["table"]
    assert _post(client, f"/api/tables/{public}/join", {}, bob).json()["seat"] == 1
    private = _post(client, "/api/tables", {"variant": "classic", "players": 2, "seats": ["me", "person"]}, bob).json()
    token = next(seat["token"] for seat in private["seats"] if seat["seat"] == 1)
    _post(client, "/api/me/hide", {"player": ann_id}, bob)
    assert _post(client, "/api/me/transfer", {}, ann).status_code == 200
    assert ANN in everything_kept(location) and ann_id in everything_kept(location)

    with (
        client.websocket_connect(f"/ws/{private['table']}", headers=bob) as bob_ws,
        client.websocket_connect(f"/ws/{private['table']}", headers=ann) as ann_ws,
    ):
        bob_ws.send_json({"type": "hello", "token": None, "version": 0})
        until(bob_ws, "welcome")
        ann_ws.send_json({"type": "hello", "token": token, "version": 0})
        until(ann_ws, "welcome")
        ann_ws.send_json({"type": "name", "name": ANN})
        states = [_state_where(ws, lambda view: view["names"] == ["Bob", ANN]) for ws in (bob_ws, ann_ws)]
        play_to_the_end([bob_ws, ann_ws], states, moves=4)

        assert client.request("DELETE", "/api/me", json={}, headers=ann).status_code == 200
        client.cookies.clear()
        # Bob, at the table with her, sees her seat renamed while the game goes on.
        _state_where(bob_ws, lambda view: view["names"] == ["Bob", FORGOTTEN])

    def nothing_left() -> bool:
        kept = everything_kept(location)
        return ANN not in kept and ann_id not in kept

    eventually(nothing_left)
    assert "forgotten_seats: " not in everything_kept(location)  # every table has been rewritten

    record = json.loads(get_as(client, f"/api/games/{game}/record").text)
    assert FORGOTTEN in record["players"] and "Bob" in record["players"] and record["rounds"]
    replay = get_as(client, f"/api/games/{game}/replay").json()
    assert FORGOTTEN in replay["names"]
    assert json.loads(get_as(client, f"/api/tables/{finished}/record").text)["players"].count(FORGOTTEN) == 1
    page = get_as(client, f"/api/players/{bob_id}").json()
    assert {seat["name"] for seat in page["games"][0]["seats"]} == {"Bob", FORGOTTEN}
    assert page["ratings"]["classic"]["games"] == 1  # Bob's game still counts
    assert get_as(client, f"/api/players/{ann_id}").status_code == 404
    lines = {line["table"]: line["names"] for line in get_as(client, "/api/me/tables", bob).json()["seats"]}
    assert lines[public] == [FORGOTTEN, "Bob", "Player 3"] and lines[private["table"]] == ["Bob", FORGOTTEN]
    assert get_as(client, "/api/me/hidden", bob).json()["hidden"] == []
    board = get_as(client, "/api/ratings/classic").json()["lines"]
    assert all(line["subject"].startswith(("bot:", f"p:{bob_id}")) for line in board)
    with client.websocket_connect("/ws/lobby", headers=cy) as lobby:
        listed = lobby_until(lobby, "lobby", lambda frame: any(line["table"] == public for line in frame["open"]))
    line = next(line for line in listed["open"] if line["table"] == public)
    assert [seat["name"] for seat in line["seats"]] == [FORGOTTEN, "Bob", None]
    assert all(person["id"] != ann_id for person in listed["online"])


def test_a_player_forgotten_during_a_rated_game_is_not_written_again_at_its_end(served: tuple[TestClient, str]) -> None:
    client, location = served
    ann, bob = person(client, ANN), person(client, "Bob")
    ann_id = get_as(client, "/api/me", ann).json()["id"]
    bob_id = get_as(client, "/api/me", bob).json()["id"]
    table, seats = _quick_game(client, ann, bob)
    order = sorted([ann, bob], key=lambda who: seats[who["Cookie"]])
    with (
        client.websocket_connect(f"/ws/{table}", headers=order[0]) as first,
        client.websocket_connect(f"/ws/{table}", headers=order[1]) as second,
    ):
        states: list[dict[str, Any]] = []
        for ws in (first, second):
            ws.send_json({"type": "hello", "token": None, "version": 0})
            until(ws, "welcome")
            states.append(until(ws, "state"))
        play_to_the_end([first, second], states, moves=6)
        assert client.request("DELETE", "/api/me", json={}, headers=ann).status_code == 200
        client.cookies.clear()
        play_to_the_end([first, second], states)  # her open page plays her seat to the end

    page = eventually(lambda: finished_games(client, bob_id))
    assert page["ratings"]["classic"]["games"] == 1 and [game["rated"] for game in page["games"]] == [True]
    assert {seat["name"] for seat in page["games"][0]["seats"]} == {"Bob", FORGOTTEN}
    eventually(lambda: ann_id not in everything_kept(location) and ANN not in everything_kept(location))
    board = get_as(client, "/api/ratings/classic").json()["lines"]
    assert [line["name"] for line in board if line["subject"].startswith("p:")] == ["Bob"]
    assert all(len(line["name"]) > 0 and line["name"] != ann_id[2:] for line in board)


def test_ratings_kept_for_a_player_forgotten_before_are_dropped_and_never_shown(tmp_path: Path) -> None:
    """A database written before: a forgotten player's rating was written again at their game's end (the board then
    showed a cut id as a player).  Opened now, those rows are gone; the board never shows a player it cannot name."""
    path = tmp_path / "tables.sqlite3"
    made = SqliteTables(path)
    made.prepare(schema_parts())  # the rooms' tables, as the server made them
    made.close()
    with sqlite3.connect(path) as database:
        database.execute("UPDATE racko_meta SET value = '3' WHERE key = 'version'")
        database.execute("INSERT INTO racko_ratings VALUES ('p:gone-player1', 'classic', 30.0, 5.0, 3)")
        database.execute("INSERT INTO racko_rating_history VALUES ('p:gone-player1', 'classic', 't-1', 30, 5, 1.0)")
    store = SqliteTables(path, grouped=True)
    with TestClient(create_app(store, ServerSettings(pace=0.0))) as client:
        board = get_as(client, "/api/ratings/classic").json()["lines"]
        assert all(line["subject"].startswith("bot:") for line in board)
    assert "gone-player1" not in everything_kept(str(path))
    store = SqliteTables(path, grouped=True)
    store.run(lambda rows: rows("INSERT INTO racko_ratings VALUES ('p:gone-player2', 'classic', 30.0, 5.0, 3)"))
    with TestClient(create_app(store, ServerSettings(pace=0.0))) as client:
        board = get_as(client, "/api/ratings/classic").json()["lines"]
        assert all(line["subject"].startswith("bot:") for line in board)  # no "ne-player2"


# --- ratings nobody can farm -----------------------------------------------------------------------------------


def _from(address: str, who: dict[str, str]) -> dict[str, str]:
    """A person's headers as they reach the server from ``address`` (through a proxy, which says so)."""
    return {**who, "X-Forwarded-For": address}


@pytest.fixture
def addressed(tmp_path: Path) -> Iterator[TestClient]:
    """A server in process whose clients come from the addresses their requests name (as behind a proxy)."""
    app = create_app(
        SqliteTables(tmp_path / "tables.sqlite3", grouped=True),
        ServerSettings(
            pace=0.0, frames_per_second=10000.0, new_tables_per_address=10**6, fill_seconds=0.3, quick_target=25
        ),
    )
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as client:  # type: ignore[arg-type]
        yield client


def _rated_table(client: TestClient, maker: dict[str, str], joiner: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """A public rated table ``maker`` makes and ``joiner`` takes a seat at; the table and what its page shows."""
    table = _post(
        client,
        "/api/tables",
        {
            "variant": "classic",
            "players": 2,
            "seats": ["me", "person"],
            "public": True,
            "rated": True,
            "target": 25,
            "two_player_rule": False,
        },
        maker,
    ).json()["table"]
    assert _post(client, f"/api/tables/{table}/join", {}, joiner).json()["seat"] == 1
    with client.websocket_connect(f"/ws/{table}", headers=joiner) as ws:
        ws.send_json({"type": "hello", "token": None, "version": 0})
        presence = until(ws, "presence")
    return table, presence


def test_a_rated_game_between_two_players_of_one_address_is_casual_and_said_so(addressed: TestClient) -> None:
    client = addressed
    ann, bob, cy = person(client, "Ann"), person(client, "Bob"), person(client, "Cy")
    bob_id = get_as(client, "/api/me", bob).json()["id"]
    # One person, two browsers: both from one address.
    table, presence = _rated_table(client, _from("203.0.113.7", ann), _from("203.0.113.7", bob))
    assert presence["rated"] is False and presence["casual_because"] == "shared-address"
    with (
        client.websocket_connect(f"/ws/{table}", headers=ann) as first,
        client.websocket_connect(f"/ws/{table}", headers=bob) as second,
    ):
        play_to_the_end([first, second])
    page = eventually(lambda: finished_games(client, bob_id))
    assert page["ratings"] == {} and [game["rated"] for game in page["games"]] == [False]
    # Two people from two addresses: rated.
    _, presence = _rated_table(client, _from("203.0.113.7", ann), _from("198.51.100.2", cy))
    assert presence["rated"] is True and presence["casual_because"] is None
    # A seat first taken from another address, then opened from the maker's: casual from then on.
    table, presence = _rated_table(client, _from("203.0.113.7", cy), _from("198.51.100.9", bob))
    assert presence["rated"] is True
    with client.websocket_connect(f"/ws/{table}", headers=_from("203.0.113.7", bob)) as ws:
        ws.send_json({"type": "hello", "token": None, "version": 0})
        assert any(until(ws, "presence")["casual_because"] == "shared-address" for _ in range(5))
    # IPv6: one household's /64 is one address.
    _, presence = _rated_table(client, _from("2001:db8:1:2::10", ann), _from("2001:db8:1:2:aaaa::77", cy))
    assert presence["casual_because"] == "shared-address"
    kept = everything_kept(str(client.app.app.state.hub.store.path))  # type: ignore[attr-defined]
    assert "203.0.113.7" not in kept and "2001:db8" not in kept  # only keyed marks, never an address


def test_an_operator_may_rate_players_who_share_an_address(tmp_path: Path) -> None:
    app = create_app(SqliteTables(tmp_path / "t.sqlite3"), ServerSettings(pace=0.0, rate_shared_addresses=True))
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as client:  # type: ignore[arg-type]
        ann, bob = person(client, "Ann"), person(client, "Bob")
        _, presence = _rated_table(client, _from("203.0.113.7", ann), _from("203.0.113.7", bob))
    assert presence["rated"] is True and presence["casual_because"] is None


def test_quick_play_never_seats_two_people_of_one_address_in_a_rated_game(addressed: TestClient) -> None:
    client = addressed
    ann, bob, cy = person(client, "Ann"), person(client, "Bob"), person(client, "Cy")
    with (
        client.websocket_connect("/ws/lobby", headers=_from("203.0.113.7", ann)) as ann_lobby,
        client.websocket_connect("/ws/lobby", headers=_from("203.0.113.7", bob)) as bob_lobby,
        client.websocket_connect("/ws/lobby", headers=_from("198.51.100.2", cy)) as cy_lobby,
    ):
        quick(ann_lobby)
        quick(bob_lobby)
        queued = lobby_until(bob_lobby, "queued", lambda frame: frame["queues"])
        assert queued["queues"][0]["waiting"] == 2  # both wait: no game of one address with itself
        quick(cy_lobby)
        seated = until(cy_lobby, "seated")
        assert until(ann_lobby, "seated")["table"] == seated["table"]  # the first who waited, from elsewhere
        # A casual game: one address is no reason to keep friends apart.
        quick(bob_lobby, rated=False)
        quick(ann_lobby, rated=False)
        assert until(bob_lobby, "seated")["table"] == until(ann_lobby, "seated")["table"]
