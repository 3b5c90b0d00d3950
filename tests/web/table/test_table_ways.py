"""A way out for everyone (issue 39): resign, abort, offer to end a casual game, leave the table; each said to the
others, kept in the set-up (a reload and a restart show the same), in the record, and in the ratings (the resigner
rated last, an abort changes nothing); every request that is not allowed refused with a typed error, changing
nothing.  On SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from starlette.testclient import TestClient

from people import eventually, finished_games, get_as, person, play_to_the_end, until
from tables import hello, hub_of, make_table, table_app


def said_and_refused(ws: Any, frame: dict[str, Any], code: str) -> None:
    ws.send_json(frame)
    answer = until(ws, "error")
    assert answer["code"] == code, answer


def way_out(ws: Any) -> dict[str, Any]:
    return until(ws, "way-out")


def rated_pair(client: TestClient) -> tuple[str, Any, Any, str, str]:
    """A rated public table of Ann (who made it) and Bob (who joined): its id, their cookies' headers, their ids."""
    ann, bob = person(client, "Ann"), person(client, "Bob")
    made = client.post(
        "/api/tables",
        json={"variant": "classic", "players": 2, "seats": ["me", "person"], "public": True, "rated": True,
              "target": 25, "two_player_rule": False},
        headers=ann,
    )  # fmt: skip
    client.cookies.clear()
    assert made.status_code == 200, made.text
    table = made.json()["table"]
    joined = client.post(f"/api/tables/{table}/join", json={}, headers=bob)
    client.cookies.clear()
    assert joined.status_code == 200, joined.text
    return table, ann, bob, get_as(client, "/api/me", ann).json()["id"], get_as(client, "/api/me", bob).json()["id"]


@dataclass
class RatedPair:
    """Ann's and Bob's open seats at a rated table of theirs, with each one's first state and player id."""

    table: str
    ann_ws: Any
    bob_ws: Any
    ann_state: dict[str, Any]
    bob_state: dict[str, Any]
    ann_id: str
    bob_id: str


@contextlib.contextmanager
def rated_seats(client: TestClient) -> Iterator[RatedPair]:
    """Ann and Bob seated at a rated table of theirs, each with the table open; closed again however the test ends."""
    table, ann, bob, ann_id, bob_id = rated_pair(client)
    with contextlib.ExitStack() as sockets:
        opened = []
        for who in (ann, bob):
            ws = sockets.enter_context(client.websocket_connect(f"/ws/{table}", headers=who))
            ws.send_json({"type": "hello", "token": None, "version": 0})
            assert until(ws, "welcome")["you"] is not None
            opened.append((ws, until(ws, "state")))
        (ann_ws, ann_state), (bob_ws, bob_state) = opened
        yield RatedPair(table, ann_ws, bob_ws, ann_state, bob_state, ann_id, bob_id)


@contextlib.contextmanager
def casual_seats(client: TestClient, seats: list[str], players: int = 2) -> Iterator[tuple[str, list[str], Any, Any]]:
    """A casual table of Ann (seat 0) and Bob (seat 1, named), both with the table open: its id, the seats' tokens
    and Ann's and Bob's sockets."""
    made = make_table(client, seats=seats, players=players)
    tokens = [seat["token"] for seat in made["seats"]]
    with (
        client.websocket_connect(f"/ws/{made['table']}") as ann,
        client.websocket_connect(f"/ws/{made['table']}") as bob,
    ):
        hello(ann, tokens[0])
        hello(bob, tokens[1])
        bob.send_json({"type": "name", "name": "Bob"})
        until(bob, "presence")
        yield made["table"], tokens, ann, bob


def test_a_resign_in_a_rated_game_hands_the_seat_to_a_computer_player_and_rates_the_resigner_last(
    any_client: TestClient,
) -> None:
    client = any_client
    with rated_seats(client) as pair:
        table, ann_id, bob_id = pair.table, pair.ann_id, pair.bob_id
        pair.ann_ws.send_json({"type": "resign"})
        for ws in (pair.ann_ws, pair.bob_ws):
            said = way_out(ws)
            assert (said["what"], said["seat"], said["name"]) == ("resigned", 0, "Ann")
        bob_state = until(pair.bob_ws, "state")
        presence = until(pair.bob_ws, "presence")
        assert presence["seats"][0]["left"] == "resigned" and presence["seats"][0]["bot"]
        assert presence["ended"] is None  # Bob plays on, against the computer player in Ann's seat
        said_and_refused(pair.ann_ws, {"type": "resign"}, "spectator")  # Ann watches from now on
        said_and_refused(pair.ann_ws, {"type": "act", "version": 0, "action": {"act": "draw"}}, "spectator")
        last = play_to_the_end([pair.bob_ws], [bob_state])
        assert last["view"]["over"]
    page = eventually(lambda: finished_games(client, ann_id))
    places = {seat["seat"]: seat["place"] for seat in page["games"][0]["seats"]}
    assert places == {0: 2, 1: 1}  # the resigner is last, whatever the computer player in the seat scored
    ratings = {
        who: get_as(client, f"/api/players/{who}").json()["ratings"]["classic"]["rating"] for who in (ann_id, bob_id)
    }
    assert ratings[bob_id] > ratings[ann_id]
    record = json.loads(client.get(f"/api/tables/{table}/record").text)
    assert record["left"][0]["how"] == "resigned" and record["left"][1] is None
    assert "ended" not in record  # played to its end by the others


def test_an_abort_before_each_seat_moved_twice_ends_the_game_with_no_rating_and_no_history(
    any_client: TestClient,
) -> None:
    client = any_client
    with rated_seats(client) as pair:
        table, ann_id, ann_ws = pair.table, pair.ann_id, pair.ann_ws
        assert until(pair.bob_ws, "presence")["abortable"] is True
        pair.bob_ws.send_json({"type": "abort"})
        for ws in (ann_ws, pair.bob_ws):
            assert way_out(ws)["what"] == "aborted"
            state = until(ws, "state")
            assert state["view"]["over"] and state["view"]["ended"] == "aborted" and state["view"]["legal"] == []
        presence = until(ann_ws, "presence")
        assert presence["ended"]["how"] == "aborted" and presence["ended"]["by"] == 1
        said_and_refused(ann_ws, {"type": "act", "version": 0, "action": {"act": "draw"}}, "over")
        said_and_refused(ann_ws, {"type": "abort"}, "over")
        said_and_refused(ann_ws, {"type": "resign"}, "over")
    record = json.loads(client.get(f"/api/tables/{table}/record").text)
    assert record["ended"]["how"] == "aborted"
    page = get_as(client, f"/api/players/{ann_id}").json()
    assert page["games"] == [] and page["ratings"] == {}  # no history entry, no rating


def test_an_abort_comes_too_late_once_each_seat_moved_twice_and_a_spectator_cannot_leave(
    any_client: TestClient,
) -> None:
    client = any_client
    with rated_seats(client) as pair:
        with client.websocket_connect(f"/ws/{pair.table}") as watching:
            hello(watching, None)
            for frame in ({"type": "resign"}, {"type": "leave"}, {"type": "abort"}, {"type": "offer-end"}):
                said_and_refused(watching, frame, "spectator")
        said_and_refused(pair.ann_ws, {"type": "accept-end"}, "no-offer")  # nobody offered
        said_and_refused(pair.bob_ws, {"type": "decline-end"}, "no-offer")
        live = hub_of(client).tables[pair.table]
        states = [pair.ann_state, pair.bob_state]
        while min(live.turns_played()) < 2:  # people only: every state comes from a move the test makes
            play_to_the_end([pair.ann_ws, pair.bob_ws], states, moves=1)
        said_and_refused(pair.ann_ws, {"type": "abort"}, "too-late")
        assert live.setup.ended is None and not live.over


def test_an_offer_to_end_a_casual_game_is_said_to_all_declined_offered_again_and_accepted(
    any_client: TestClient,
) -> None:
    client = any_client
    with casual_seats(client, ["me", "person", "medium"], players=3) as (table, _, ann, bob):
        ann.send_json({"type": "offer-end"})
        for ws in (ann, bob):
            assert (way_out(ws)["what"], until(ws, "presence")["offer"]["by"]) == ("offered", 0)
        said_and_refused(ann, {"type": "offer-end"}, "offer-standing")
        said_and_refused(ann, {"type": "accept-end"}, "own-offer")
        bob.send_json({"type": "decline-end"})
        for ws in (ann, bob):
            assert way_out(ws)["what"] == "declined"
        said_and_refused(ann, {"type": "offer-end"}, "offer-declined")  # not again before the table moves on
        said_and_refused(bob, {"type": "accept-end"}, "no-offer")
        bob.send_json({"type": "offer-end"})
        assert (way_out(ann)["what"], way_out(bob)["what"]) == ("offered", "offered")
        ann.send_json({"type": "accept-end"})
        for ws in (ann, bob):
            assert way_out(ws)["what"] == "agreed"
            state = until(ws, "state")
            assert state["view"]["over"] and state["view"]["ended"] == "agreed"
        said_and_refused(ann, {"type": "offer-end"}, "over")
    record = json.loads(client.get(f"/api/tables/{table}/record").text)
    assert record["ended"]["how"] == "agreed" and record["ended"]["by"] == 1


def test_a_rated_game_is_not_ended_by_agreement(any_client: TestClient) -> None:
    client = any_client
    with rated_seats(client) as pair:
        said_and_refused(pair.ann_ws, {"type": "offer-end"}, "rated")
        assert hub_of(client).tables[pair.table].setup.offer is None


def test_leaving_the_table_is_kept_through_a_restart_and_the_last_person_leaving_ends_the_game(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite3"
    with TestClient(table_app(path)) as client, casual_seats(client, ["me", "person"]) as (table, tokens, ann, bob):
        bob.send_json({"type": "leave"})
        assert (way_out(ann)["what"], way_out(bob)["what"]) == ("left", "left")
    with TestClient(table_app(path)) as client:  # a restart: the set-up says who left
        with client.websocket_connect(f"/ws/{table}") as ann:
            hello(ann, tokens[0])
            ann.send_json({"type": "presence"})
            presence = until(ann, "presence")
            assert presence["seats"][1]["left"] == "left" and presence["seats"][1]["bot"]
            ann.send_json({"type": "leave"})  # the last person: nobody is left to play for
            assert way_out(ann)["what"] == "left"
            state = until(ann, "state")
            assert state["view"]["over"] and state["view"]["ended"] == "deserted"
        with client.websocket_connect(f"/ws/{table}") as again:  # the seat is no longer Bob's: he watches
            again.send_json({"type": "hello", "token": tokens[1], "version": 0})
            welcome = until(again, "welcome")
            assert welcome["you"] is None and welcome["former"] == {"seat": 1, "state": "left"}
    record = json.loads(TestClient(table_app(path)).get(f"/api/tables/{table}/record").text)
    assert [entry and entry["how"] for entry in record["left"]] == ["left", "left"]
    assert record["ended"]["how"] == "deserted"
    schema = json.loads((Path(__file__).parents[3] / "docs" / "record.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(record)  # the record's new keys are the documented ones


def test_one_left_alone_in_a_rated_game_ends_it_at_once_and_it_is_rated_by_the_rounds_played(
    any_client: TestClient,
) -> None:
    client = any_client
    with rated_seats(client) as pair:
        ann_id, bob_id, ann_ws = pair.ann_id, pair.bob_id, pair.ann_ws
        pair.bob_ws.send_json({"type": "resign"})
        assert way_out(ann_ws)["what"] == "resigned"
        ann_ws.send_json({"type": "offer-end"})  # nobody is left to ask: it ends at once
        said = way_out(ann_ws)
        assert (said["what"], said["seat"]) == ("agreed", 0)
        state = until(ann_ws, "state")
        assert state["view"]["over"] and state["view"]["ended"] == "agreed"
    page = eventually(lambda: finished_games(client, ann_id))
    game = page["games"][0]
    assert game["rated"] and {seat["seat"]: seat["place"] for seat in game["seats"]} == {0: 1, 1: 2}
    bob_page = get_as(client, f"/api/players/{bob_id}").json()
    assert page["ratings"]["classic"]["rating"] > bob_page["ratings"]["classic"]["rating"]
