"""People who stay, quick play, the lobby, ratings and history, through the server in process (Starlette's test
client): two strangers meet by quick play and play a rated game to its end; their ratings and histories move; a
transfer link moves a player once; forgetting a player takes their name and history; limits and bad frames are
refused with the reason and change nothing."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from people import (
    app_in_process,
    eventually,
    finished_games,
    get_as,
    lobby_until,
    person,
    play_to_the_end,
    quick,
    until,
)
from racko.web.lobby import lobby_change
from racko.web.players import COOKIE, key_hash
from racko.web.players import identity as players_identity
from racko.web.players import identity as players_module


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(app_in_process()) as test_client:
        yield test_client


# --- a player who stays ----------------------------------------------------------------------------------------


def test_a_player_key_is_a_long_random_cookie_kept_only_hashed(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    with TestClient(app_in_process(path), base_url="https://racko.test") as client:
        answer = client.post("/api/me", json={"name": "Ann <b>"})
        assert answer.status_code == 200
        cookie = answer.headers["set-cookie"]
        assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Secure" in cookie
        key = answer.cookies[COOKIE]
        assert len(key) >= 22  # at least 128 bits in URL-safe base64
        assert answer.json()["name"] == "Ann <b>"  # plain text: the page shows it as text
        client.cookies.clear()
        assert get_as(client, "/api/me", {"Cookie": f"{COOKIE}={key}"}).json()["name"] == "Ann <b>"
        assert get_as(client, "/api/me", {"Cookie": f"{COOKIE}=not-a-key"}).json() == {"id": None, "name": None}
    with sqlite3.connect(path) as database:
        stored = [row[0] for row in database.execute("SELECT key_hash FROM racko_player_keys")]
        dump = "\n".join(database.iterdump())
    assert stored == [key_hash(key)] and key not in dump


def test_a_name_must_be_some_text_and_a_refused_name_changes_nothing(client: TestClient) -> None:
    ann = person(client, "Ann")
    for bad in ("", "   ", 7, None, "\u202e\u202e"):
        answer = client.post("/api/me", json={"name": bad}, headers=ann)
        client.cookies.clear()
        assert answer.status_code == 400 and "name" in answer.json()["error"].lower()
    assert get_as(client, "/api/me", ann).json()["name"] == "Ann"
    assert client.post("/api/me", json={"name": "Annie"}, headers=ann).json()["name"] == "Annie"
    client.cookies.clear()
    assert get_as(client, "/api/me", ann).json()["name"] == "Annie"


def test_a_transfer_link_moves_the_player_once_and_not_after_ten_minutes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = person(client, "Ann")
    me = get_as(client, "/api/me", ann).json()
    code = client.post("/api/me/transfer", json={}, headers=ann).json()["code"]
    client.cookies.clear()
    claimed = client.post("/api/me/claim", json={"code": code})
    assert claimed.status_code == 200 and claimed.json() == me
    other_device = {"Cookie": f"{COOKIE}={claimed.cookies[COOKIE]}"}
    client.cookies.clear()
    assert get_as(client, "/api/me", other_device).json() == me
    again = client.post("/api/me/claim", json={"code": code})
    client.cookies.clear()
    assert again.status_code == 400 and "used already" in again.json()["error"]
    monkeypatch.setattr(players_module, "TRANSFER_SECONDS", -1.0)  # a code made more than its time ago
    late = client.post("/api/me/transfer", json={}, headers=ann).json()["code"]
    client.cookies.clear()
    assert client.post("/api/me/claim", json={"code": late}).status_code == 400
    client.cookies.clear()
    assert client.post("/api/me/transfer", json={}).status_code == 401  # nobody to move


# --- quick play, a rated game, ratings and history -------------------------------------------------------------


def test_two_strangers_meet_by_quick_play_play_a_rated_game_and_their_ratings_and_histories_move(
    any_client: TestClient,
) -> None:
    client = any_client
    ann, bob, cy = person(client, "Ann"), person(client, "Bob"), person(client, "Cy")
    ann_id = get_as(client, "/api/me", ann).json()["id"]
    bob_id = get_as(client, "/api/me", bob).json()["id"]
    with (
        client.websocket_connect("/ws/lobby", headers=ann) as ann_lobby,
        client.websocket_connect("/ws/lobby", headers=bob) as bob_lobby,
        client.websocket_connect("/ws/lobby", headers=cy) as cy_lobby,
    ):
        until(cy_lobby, "lobby")
        quick(ann_lobby)
        queued = lobby_until(ann_lobby, "queued", lambda frame: frame["queues"])
        assert queued["queues"][0]["waiting"] == 1 and queued["queues"][0]["players"] == 2
        quick(bob_lobby, players="any")  # any number of players: a 2-player game fits
        seated = [until(ann_lobby, "seated"), until(bob_lobby, "seated")]
        assert seated[0]["table"] == seated[1]["table"] and {s["seat"] for s in seated} == {0, 1}
        table = seated[0]["table"]

        def listed(frame: dict[str, Any]) -> bool:
            return any(line["table"] == table for line in frame["playing"])

        mine = get_as(client, "/api/me/tables", ann).json()["seats"]
        assert [(line["table"], line["seat"], line["variant"]) for line in mine] == [
            (table, seated[0]["seat"], "classic")
        ]
        assert sorted(mine[0]["names"]) == ["Ann", "Bob"]
        order = sorted([(seated[0]["seat"], ann), (seated[1]["seat"], bob)], key=lambda pair: pair[0])
        with (
            client.websocket_connect(f"/ws/{table}", headers=order[0][1]) as first,
            client.websocket_connect(f"/ws/{table}", headers=order[1][1]) as second,
        ):
            play_to_the_end([first, second], moves=4)
            watched = lobby_until(cy_lobby, "lobby", listed)
            line = next(line for line in watched["playing"] if line["table"] == table)
            assert line["rated"] and sorted(seat["name"] for seat in line["seats"]) == ["Ann", "Bob"]
            assert "rack" not in str(line) and "stock" not in str(line)
        # Both closed their pages: a game whose people have all left is no game to watch, until one is back.
        lobby_until(cy_lobby, "lobby", lambda frame: not listed(frame))
        with (
            client.websocket_connect(f"/ws/{table}", headers=order[0][1]) as first,
            client.websocket_connect(f"/ws/{table}", headers=order[1][1]) as second,
        ):
            states = []
            for ws in (first, second):
                ws.send_json({"type": "hello", "token": None, "version": 0})
                until(ws, "welcome")
                states.append(until(ws, "state"))
            lobby_until(cy_lobby, "lobby", listed)
            last = play_to_the_end([first, second], states)
        assert last["view"]["over"] and last["view"]["winners"]
        lobby_until(cy_lobby, "lobby", lambda frame: all(line["table"] != table for line in frame["playing"]))

    pages = {who: eventually(lambda who=who: finished_games(client, who)) for who in (ann_id, bob_id)}
    assert get_as(client, "/api/me/tables", ann).json()["seats"] == []  # a finished game leaves one's tables
    for page in pages.values():
        assert page["ratings"]["classic"]["games"] == 1
        assert len(page["history"]["classic"]) == 1
        assert [game["rated"] for game in page["games"]] == [True]
    assert pages[ann_id]["ratings"]["classic"]["rating"] != pages[bob_id]["ratings"]["classic"]["rating"]
    winner = next(seat for seat in pages[ann_id]["games"][0]["seats"] if seat["place"] == 1)
    loser = next(seat for seat in pages[ann_id]["games"][0]["seats"] if seat["place"] == 2)
    ratings = {who: pages[who]["ratings"]["classic"]["rating"] for who in pages}
    assert ratings[winner["subject"][2:]] > ratings[loser["subject"][2:]]
    board = get_as(client, "/api/ratings/classic").json()["lines"]
    assert {"Ann", "Bob"} <= {line["name"] for line in board}
    assert any(line["subject"].startswith("bot:") for line in board)  # the computer levels, calibrated

    game = pages[ann_id]["games"][0]["game"]
    record = get_as(client, f"/api/games/{game}/record")
    assert record.status_code == 200 and '"actions"' in record.text
    steps = get_as(client, f"/api/games/{game}/replay").json()["steps"]
    assert len(steps) > 10 and all(len(step["racks"]) == 2 for step in steps)
    for page_path in ("/", "/ratings", f"/p/{ann_id}", f"/replay/{game}", "/me"):
        assert get_as(client, page_path).status_code == 200
    stats = pages[ann_id]["stats"]
    assert stats["total"]["games"] == 1 and stats["by_opponent"] == {"people only": stats["total"]}
    assert stats["total"]["won"] == (winner["subject"] == f"p:{ann_id}") and stats["total"]["rounds"] >= 1

    # A rematch: the same people, their seats bound to them; the other is told in the lobby; asked twice, one table.
    with client.websocket_connect("/ws/lobby", headers=ann) as ann_lobby:
        until(ann_lobby, "lobby")
        again = client.post(f"/api/games/{game}/rematch", json={}, headers=bob)
        client.cookies.clear()
        assert again.status_code == 200 and again.json()["guests"] == []
        invited = until(ann_lobby, "invited")
        assert invited["by"] == "Bob" and invited["table"] == again.json()["table"]
    twice = client.post(f"/api/games/{game}/rematch", json={}, headers=ann)
    client.cookies.clear()
    assert twice.json()["table"] == again.json()["table"]
    assert [line["table"] for line in get_as(client, "/api/me/tables", ann).json()["seats"]] == [again.json()["table"]]
    stranger = client.post(f"/api/games/{game}/rematch", json={}, headers=cy)
    client.cookies.clear()
    assert stranger.status_code == 403 and "played" in stranger.json()["error"]
    assert client.post("/api/games/nothing-1/rematch", json={}, headers=cy).status_code == 404
    client.cookies.clear()


def test_a_casual_game_is_in_the_histories_but_moves_no_rating(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    ann_id = get_as(client, "/api/me", ann).json()["id"]
    with (
        client.websocket_connect("/ws/lobby", headers=ann) as ann_lobby,
        client.websocket_connect("/ws/lobby", headers=bob) as bob_lobby,
    ):
        quick(ann_lobby, rated=False)
        quick(bob_lobby, rated=True)  # a rated game is another wish: nobody is seated
        quick(bob_lobby, rated=False)
        table = until(ann_lobby, "seated")["table"]
        assert until(bob_lobby, "seated")["table"] == table
        with (
            client.websocket_connect(f"/ws/{table}", headers=ann) as one,
            client.websocket_connect(f"/ws/{table}", headers=bob) as other,
        ):
            play_to_the_end([one, other])
    page = eventually(lambda: finished_games(client, ann_id))
    assert page["ratings"] == {} and [game["rated"] for game in page["games"]] == [False]


def test_strangers_who_wish_for_the_same_turn_based_speed_meet_and_their_table_has_it(client: TestClient) -> None:
    ann, bob, cy = person(client, "Ann"), person(client, "Bob"), person(client, "Cy")
    with (
        client.websocket_connect("/ws/lobby", headers=ann) as ann_lobby,
        client.websocket_connect("/ws/lobby", headers=bob) as bob_lobby,
        client.websocket_connect("/ws/lobby", headers=cy) as cy_lobby,
    ):
        quick(ann_lobby, rated=False, clock="days-2")
        quick(bob_lobby, rated=False, clock="days-1")  # another speed: another wish, nobody is seated
        queued = lobby_until(bob_lobby, "queued", lambda frame: frame["queues"])
        assert [queue["clock"] for queue in queued["queues"]] == ["days-1"]
        quick(cy_lobby, rated=False, clock="days-2")
        table = until(ann_lobby, "seated")["table"]
        assert until(cy_lobby, "seated")["table"] == table
        quick(bob_lobby, rated=False, clock="days-9")
        assert until(bob_lobby, "error")["code"] == "bad-frame"
    with client.websocket_connect(f"/ws/{table}", headers=ann) as ws:
        ws.send_json({"type": "hello", "token": None, "version": 0})
        until(ws, "welcome")
        clock = until(ws, "state")["clock"]
        assert clock["preset"] == "days-2" and clock["days"] == 2 and clock["started"]


def test_after_the_wait_the_empty_seats_are_filled_with_computer_players(client: TestClient) -> None:
    ann = person(client, "Ann")
    with client.websocket_connect("/ws/lobby", headers=ann) as lobby:
        quick(lobby, players=3, rated=True)
        fill = {"type": "fill", "variant": "classic", "players": 3, "rated": True, "two_player_rule": False}
        lobby.send_json({**fill, "bot": "easy"})
        assert until(lobby, "error")["code"] == "too-soon"
        queued = until(lobby, "queued")
        while not (queued["queues"] and queued["queues"][0]["can_fill"]):
            queued = until(lobby, "queued")
        lobby.send_json({**fill, "bot": "grandmaster"})
        assert "Choose a computer player" in until(lobby, "error")["message"]
        lobby.send_json({**fill, "bot": "easy"})
        table = until(lobby, "seated")["table"]
    with client.websocket_connect(f"/ws/{table}", headers=ann) as ws:
        ws.send_json({"type": "hello", "token": None, "version": 0})
        welcome = until(ws, "welcome")
        assert welcome["you"] == 0
        state = until(ws, "state")
        assert state["view"]["bots"] == [None, "easy", "easy"]


def test_quick_play_limits_and_bad_wishes_are_refused_with_the_reason(client: TestClient) -> None:
    ann = person(client, "Ann")
    with client.websocket_connect("/ws/lobby") as nobody:
        until(nobody, "lobby")
        quick(nobody)
        assert until(nobody, "error")["code"] == "no-player"
    with client.websocket_connect("/ws/lobby", headers=ann) as lobby:
        for wish in ({"variant": "chess"}, {"players": 7}, {"players": True}):
            quick(lobby, **wish)
            error = until(lobby, "error")
            assert error["code"] == "bad-frame" and error["message"]
        for players in (2, 3, 4):
            quick(lobby, players=players)
        quick(lobby, players="any")
        assert until(lobby, "error")["code"] == "too-many"
        queued = lobby_until(lobby, "queued", lambda frame: len(frame["queues"]) == 3)
        assert sorted(queue["players"] for queue in queued["queues"]) == [2, 3, 4]
        lobby.send_json({"type": "cancel"})
        assert until(lobby, "queued")["queues"] == []


def test_leaving_the_lobby_stops_waiting(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    with client.websocket_connect("/ws/lobby", headers=ann) as lobby:
        quick(lobby)
        until(lobby, "queued")
    with client.websocket_connect("/ws/lobby", headers=bob) as lobby:
        quick(lobby)
        queued = lobby_until(lobby, "queued", lambda frame: frame["queues"])
        assert queued["queues"][0]["waiting"] == 1  # Bob alone: Ann left and is not seated in her absence


def test_a_change_of_the_lobby_carries_only_the_lines_that_changed() -> None:
    before = {
        "open": [{"table": "a", "open_seats": 1}, {"table": "b", "open_seats": 2}],
        "playing": [{"table": "c"}],
        "online": [{"id": "p1", "name": "Ann"}],
        "online_count": 1,
        "queues": [],
    }
    after = {
        "open": [{"table": "b", "open_seats": 1}, {"table": "d", "open_seats": 1}],
        "playing": [{"table": "c"}, {"table": "a"}],
        "online": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Bob"}],
        "online_count": 2,
        "queues": [{"variant": "classic", "waiting": 1}],
    }
    change = lobby_change(before, after)
    assert change["open"] == {"put": [{"table": "b", "open_seats": 1}, {"table": "d", "open_seats": 1}], "drop": ["a"]}
    assert change["playing"] == {"put": [{"table": "a"}], "drop": []}
    assert change["online"] == {"put": [{"id": "p2", "name": "Bob"}], "drop": []}
    assert (change["online_count"], change["queues"]) == (2, after["queues"])


# --- the lobby's tables ---------------------------------------------------------------------------------------


def test_a_public_table_is_listed_and_a_player_takes_its_seat_from_the_lobby(client: TestClient) -> None:
    ann, bob, cy = person(client, "Ann"), person(client, "Bob"), person(client, "Cy")
    made = client.post(
        "/api/tables",
        json={"variant": "classic", "players": 3, "seats": ["me", "person", "person"], "public": True},
        headers=ann,
    ).json()
    client.cookies.clear()
    private = client.post(
        "/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "person"]}, headers=ann
    ).json()
    client.cookies.clear()
    with client.websocket_connect("/ws/lobby", headers=cy) as lobby:
        listed = lobby_until(lobby, "lobby", lambda frame: frame["open"])
        tables = [line["table"] for line in listed["open"]]
        assert made["table"] in tables and private["table"] not in tables
        line = next(line for line in listed["open"] if line["table"] == made["table"])
        assert line["open_seats"] == 2 and line["seats"][0]["name"] == "Ann"
        taken = client.post(f"/api/tables/{made['table']}/join", json={}, headers=bob)
        client.cookies.clear()
        assert taken.status_code == 200 and taken.json()["seat"] == 1
        again = client.post(f"/api/tables/{made['table']}/join", json={}, headers=bob)
        client.cookies.clear()
        assert again.json()["seat"] == 1  # the same player, the same seat
        refused = client.post(f"/api/tables/{private['table']}/join", json={}, headers=bob)
        client.cookies.clear()
        assert refused.status_code == 409 and "invitation" in refused.json()["error"]
        lobby_until(
            lobby,
            "lobby",
            lambda frame: [line["open_seats"] for line in frame["open"] if line["table"] == made["table"]] == [1],
        )
        assert client.post(f"/api/tables/{made['table']}/join", json={}).status_code == 401
        client.cookies.clear()
        assert client.post("/api/tables/nosuchtable/join", json={}, headers=cy).status_code == 404
        client.cookies.clear()


def test_hiding_a_name_hides_it_in_ones_own_view_only(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    bob_id = get_as(client, "/api/me", bob).json()["id"]
    assert client.post("/api/me/hide", json={"player": bob_id}, headers=ann).json() == {"hidden": [bob_id]}
    client.cookies.clear()
    with (
        client.websocket_connect("/ws/lobby", headers=ann) as ann_lobby,
        client.websocket_connect("/ws/lobby", headers=bob) as bob_lobby,
    ):

        def bob_online(frame: dict[str, Any]) -> bool:
            return any(person["id"] == bob_id for person in frame["online"])

        ann_view = {person["id"]: person["name"] for person in lobby_until(ann_lobby, "lobby", bob_online)["online"]}
        bob_view = {person["id"]: person["name"] for person in lobby_until(bob_lobby, "lobby", bob_online)["online"]}
    assert ann_view[bob_id] is None and bob_view[bob_id] == "Bob"
    assert client.post("/api/me/hide", json={"player": ""}, headers=ann).status_code == 400
    client.cookies.clear()


def test_forgetting_a_player_takes_their_name_history_and_key(client: TestClient) -> None:
    ann = person(client, "Ann")
    ann_id = get_as(client, "/api/me", ann).json()["id"]
    forgotten = client.request("DELETE", "/api/me", json={}, headers=ann)
    client.cookies.clear()
    assert forgotten.status_code == 200 and COOKIE in forgotten.headers["set-cookie"]
    assert get_as(client, "/api/me", ann).json() == {"id": None, "name": None}
    assert get_as(client, f"/api/players/{ann_id}").status_code == 404


def test_a_player_opening_a_seat_link_is_bound_to_that_seat(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    made = client.post(
        "/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "person"], "rated": True}, headers=ann
    ).json()
    client.cookies.clear()
    token = next(seat["token"] for seat in made["seats"] if seat["seat"] == 1)
    with client.websocket_connect(f"/ws/{made['table']}", headers=bob) as ws:
        ws.send_json({"type": "hello", "token": token, "version": 0})
        assert until(ws, "welcome")["you"] == 1
        ws.send_json({"type": "name", "name": "Bobby"})
        # the state sent with the welcome may come first: wait for the one that has the name
        assert any(until(ws, "state")["view"]["names"][1] == "Bobby" for _ in range(5))
    assert [
        (line["table"], line["seat"], line["names"]) for line in get_as(client, "/api/me/tables", bob).json()["seats"]
    ] == [(made["table"], 1, ["Ann", "Bobby"])]
    assert [line["names"] for line in get_as(client, "/api/me/tables", ann).json()["seats"]] == [["Ann", "Bobby"]]
    with client.websocket_connect(f"/ws/{made['table']}", headers=bob) as ws:  # no link needed any more
        ws.send_json({"type": "hello", "token": None, "version": 0})
        assert until(ws, "welcome")["you"] == 1


# --- the operator ---------------------------------------------------------------------------------------------


def test_the_operator_lists_renames_and_removes_players_beside_a_running_server(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from racko.cli import app as cli

    path = tmp_path / "tables.sqlite3"
    runner = CliRunner()
    with TestClient(app_in_process(path)) as client:
        ann = person(client, "Ann")
        ann_id = get_as(client, "/api/me", ann).json()["id"]
        listed = runner.invoke(cli, ["admin", "list", "--db", str(path), "--json"])
        assert listed.exit_code == 0, listed.output
        assert [player["name"] for player in json.loads(listed.stdout)["players"]] == ["Ann"]
        renamed = runner.invoke(cli, ["admin", "rename", ann_id, "Annie", "--db", str(path)])
        assert renamed.exit_code == 0 and "Annie" in renamed.output
        assert get_as(client, "/api/me", ann).json()["name"] == "Annie"
        assert runner.invoke(cli, ["admin", "rename", ann_id, "   ", "--db", str(path)]).exit_code == 2
        assert runner.invoke(cli, ["admin", "rename", "nobody", "Bo", "--db", str(path)]).exit_code == 1
        removed = runner.invoke(cli, ["admin", "remove", ann_id, "--db", str(path)])
        assert removed.exit_code == 0, removed.output
        assert get_as(client, "/api/me", ann).json() == {"id": None, "name": None}
        assert runner.invoke(cli, ["admin", "remove", ann_id, "--db", str(path)]).exit_code == 1
    missing = runner.invoke(cli, ["admin", "list", "--db", "postgresql://nobody@127.0.0.1:1/none"])
    assert missing.exit_code == 2 and "Traceback" not in missing.output


def test_new_players_from_one_address_are_limited_as_new_tables_are() -> None:
    with TestClient(app_in_process(new_tables_per_address=2)) as client:
        codes = []
        for number in range(3):
            codes.append(client.post("/api/me", json={"name": f"P{number}"}).status_code)
            client.cookies.clear()  # each a new person, from one address
        assert codes == [200, 200, 429]
        assert "wait a minute" in client.post("/api/me", json={"name": "Q"}).json()["error"]


def test_a_damaged_lobby_line_is_left_out_and_the_lobby_goes_on(client: TestClient) -> None:
    ann = person(client, "Ann")
    form = {"variant": "classic", "players": 2, "seats": ["me", "person"], "public": True}
    damaged = client.post("/api/tables", json=form, headers=ann).json()["table"]
    client.cookies.clear()
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    store.run(lambda rows: rows("UPDATE racko_listings SET listing = '{not json' WHERE table_id = ?", (damaged,)))
    whole = client.post("/api/tables", json=form, headers=ann).json()["table"]
    client.cookies.clear()
    with client.websocket_connect("/ws/lobby", headers=ann) as lobby:
        listed = lobby_until(lobby, "lobby", lambda frame: frame["open"])
        assert [line["table"] for line in listed["open"]] == [whole]


def test_online_is_who_has_a_page_open_now_and_stays_so_while_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Online lists the people with a page of racko open (the lobby or a table): still there long after the time a
    note lasts, while their page stays open; gone as soon as they close their last page."""
    monkeypatch.setattr(players_identity, "PAGES_EVERY", 0.05)
    monkeypatch.setattr(players_identity, "ONLINE_SECONDS", 0.3)
    with TestClient(app_in_process()) as client:
        ann, bob = person(client, "Ann"), person(client, "Bob")
        ann_id = get_as(client, "/api/me", ann).json()["id"]

        def ann_online(frame: dict[str, Any]) -> bool:
            return any(person["id"] == ann_id for person in frame["online"])

        with client.websocket_connect("/ws/lobby", headers=bob) as bob_lobby:
            lobby_until(bob_lobby, "lobby", lambda frame: not ann_online(frame))  # her name was picked a moment ago
            with client.websocket_connect("/ws/lobby", headers=ann):
                lobby_until(bob_lobby, "lobby", ann_online)
                time.sleep(1.5)  # five times as long as a note lasts, and a look of the lobby's at the database
                with client.websocket_connect("/ws/lobby", headers=bob) as again:
                    assert ann_online(until(again, "lobby"))
            lobby_until(bob_lobby, "lobby", lambda frame: not ann_online(frame))
            table = client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "easy"]})
            client.cookies.clear()
            with client.websocket_connect(f"/ws/{table.json()['table']}", headers=ann) as ws:  # a table's page
                ws.send_json({"type": "hello", "token": table.json()["seats"][0]["token"], "version": 0})
                lobby_until(bob_lobby, "lobby", ann_online)
            lobby_until(bob_lobby, "lobby", lambda frame: not ann_online(frame))
