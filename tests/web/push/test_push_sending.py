""" "Your turn" pushes as the server sends them, to a push service of the test's own on 127.0.0.1 (tests/pushing.py):
the device's keys are made in the test, each push is read as the device reads it (its VAPID signature checked against
the server's public key, its aes128gcm payload decrypted); no push while the table is open in a page of that player;
a subscription the push service says is gone is dropped; "Forget me" forgets the devices, on SQLite and PostgreSQL.
The server runs in process (Starlette's test client); its pushes go out over real HTTP."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from people import eventually, get_as, person, until
from pushing import DeviceKeys, PushService
from racko.tools.bench.server import sorting_move
from racko.web.app import ServerSettings, create_app
from racko.web.push import PushKeys, PushReach, keys_at, keys_beside
from racko.web.store import SqliteTables
from racko.web.store.postgres import PostgresTables

CONTACT = "mailto:operator@example.org"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[PushService]:
    made = PushService(tmp_path)
    yield made
    made.close()


def _app(store: Any, service: PushService) -> Any:
    """The server, told (as ``racko serve --push-service 127.0.0.1:PORT --push-ca FILE`` tells it) that the test's
    own push service is one of its operator's."""
    return create_app(
        store,
        ServerSettings(
            pace=0.0,
            frames_per_second=10000.0,
            new_tables_per_address=10**6,
            push_keys=PushKeys.made(),
            push_contact=CONTACT,
            push_reach=PushReach.of((f"127.0.0.1:{service.port}",), service.certificate),
        ),
    )


@pytest.fixture
def client(tmp_path: Path, service: PushService) -> Iterator[TestClient]:
    with TestClient(_app(SqliteTables(tmp_path / "tables.sqlite3", grouped=True), service)) as made:
        yield made


def _post(client: TestClient, path: str, body: dict[str, Any], who: dict[str, str]) -> Any:
    answer = client.post(path, json=body, headers=who)
    client.cookies.clear()
    return answer


def _subscribe(client: TestClient, who: dict[str, str], device: DeviceKeys, lang: str = "en") -> None:
    answer = _post(client, "/api/push/devices", device.subscription(lang), who)
    assert answer.status_code == 200, answer.text
    assert answer.json()["on"] is True


def _table_of_two(client: TestClient, ann: dict[str, str], bob: dict[str, str]) -> tuple[str, int]:
    """Ann makes a table for two, Bob takes the other seat with his name (his seat is bound to him) and closes his
    page; the table, and Bob's seat."""
    made = _post(client, "/api/tables", {"variant": "classic", "players": 2, "seats": ["me", "person"]}, ann).json()
    seat = next(spec for spec in made["seats"] if spec["seat"] == 1)
    with client.websocket_connect(f"/ws/{made['table']}", headers=bob) as bob_ws:
        bob_ws.send_json({"type": "hello", "token": seat["token"], "version": 0})
        until(bob_ws, "welcome")
        bob_ws.send_json({"type": "name", "name": "Bob"})
        state = until(bob_ws, "state")
        while state["view"]["names"][1] != "Bob":
            state = until(bob_ws, "state")
        if state["view"]["to_act"] == 1:  # Bob was dealt the first turn: he plays it while his page is open
            _play_turn(bob_ws, state)
    return str(made["table"]), 1


def _play_turn(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The seat of ``ws`` plays its whole turn (a card to the slot its value belongs to); the state after it."""
    rng = random.Random(5)
    seat = state["view"]["you"]
    while state["view"]["to_act"] == seat and not state["view"]["over"]:
        view = state["view"]
        if not view["legal"]:
            state = until(ws, "state")
            continue
        legal = [{key: value for key, value in action.items() if key != "seat"} for action in view["legal"]]
        ws.send_json({"type": "act", "version": state["version"], "action": sorting_move(view, legal, 40, rng)})
        state = until(ws, "state")
    return state


def _ann_plays_until_bob_is_to_act(client: TestClient, table: str, ann: dict[str, str], bob_seat: int) -> None:
    with client.websocket_connect(f"/ws/{table}", headers=ann) as ann_ws:
        ann_ws.send_json({"type": "hello", "token": None, "version": 0})
        assert until(ann_ws, "welcome")["you"] == 0
        state = until(ann_ws, "state")
        assert state["view"]["to_act"] == 0
        state = _play_turn(ann_ws, state)
        assert state["view"]["to_act"] == bob_seat


def test_a_turn_reaches_the_device_of_a_person_whose_page_is_closed(client: TestClient, service: PushService) -> None:
    """Bob turned notifications on (in French) and closed his page; when Ann's turn ends, his device gets one push,
    signed with the server's VAPID key for that push service, that says in French whose table it is and links to it.
    Ann, whose page is open while she plays, gets none."""
    ann, bob = person(client, "Ann"), person(client, "Bob")
    key = get_as(client, "/api/push", bob).json()["key"]
    device, ann_device = DeviceKeys(service.origin + "/bob/1"), DeviceKeys(service.origin + "/ann/1")
    _subscribe(client, bob, device, "fr")
    assert get_as(client, "/api/push", bob).json() == {"key": key, "devices": 1}
    table, bob_seat = _table_of_two(client, ann, bob)
    _subscribe(client, ann, ann_device)  # now: the first turn may have been hers while no page of hers was open

    _ann_plays_until_bob_is_to_act(client, table, ann, bob_seat)

    push = service.next_push()
    assert push.path == "/bob/1"
    message = device.read(push, key, CONTACT)
    assert message == {
        "title": "Rack-O : à vous de jouer",
        "body": "À vous de jouer à la table avec Ann.",
        "url": f"/t/{table}",
        "tag": f"turn-{table}",
    }
    assert service.nothing_within(1.0), "one push a turn, to Bob's device only"


def test_no_push_while_the_table_is_open_in_a_page_of_that_player(client: TestClient, service: PushService) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    _subscribe(client, bob, DeviceKeys(service.origin + "/bob/1"))
    table, bob_seat = _table_of_two(client, ann, bob)
    with client.websocket_connect(f"/ws/{table}", headers=bob) as bob_ws:
        bob_ws.send_json({"type": "hello", "token": None, "version": 0})
        assert until(bob_ws, "welcome")["you"] == bob_seat
        _ann_plays_until_bob_is_to_act(client, table, ann, bob_seat)
        state = until(bob_ws, "state")
        while state["view"]["to_act"] != bob_seat:
            state = until(bob_ws, "state")
        assert service.nothing_within(1.5), "Bob's page shows his turn: no push"


def test_a_subscription_its_push_service_says_is_gone_is_dropped(client: TestClient, service: PushService) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    _subscribe(client, bob, DeviceKeys(service.origin + "/gone/bob"))
    _subscribe(client, bob, DeviceKeys(service.origin + "/bob/2"))
    assert get_as(client, "/api/push", bob).json()["devices"] == 2
    table, bob_seat = _table_of_two(client, ann, bob)

    _ann_plays_until_bob_is_to_act(client, table, ann, bob_seat)

    assert sorted(service.next_push().path for _ in range(2)) == ["/bob/2", "/gone/bob"]
    eventually(lambda: get_as(client, "/api/push", bob).json()["devices"] == 1)


def test_a_device_is_turned_off_and_what_is_refused(client: TestClient, service: PushService) -> None:
    bob = person(client, "Bob")
    device = DeviceKeys(service.origin + "/bob/1")
    _subscribe(client, bob, device)
    gone = client.request("DELETE", "/api/push/devices", json={"endpoint": device.endpoint}, headers=bob)
    client.cookies.clear()
    assert gone.json() == {"on": False, "devices": 0}
    nobody = client.post("/api/push/devices", json=device.subscription())
    assert nobody.status_code == 401
    for wrong in (
        {**device.subscription(), "endpoint": "file:///etc/passwd"},
        {**device.subscription(), "endpoint": "x" * 2000},
        {**device.subscription(), "keys": {"p256dh": "<script>", "auth": "a"}},
        {"endpoint": device.endpoint},
    ):
        assert _post(client, "/api/push/devices", wrong, bob).status_code == 400
    elsewhere = client.post(
        "/api/push/devices", json=device.subscription(), headers={**bob, "Origin": "https://evil.example"}
    )
    client.cookies.clear()
    assert elsewhere.status_code == 403
    assert get_as(client, "/api/push", bob).json()["devices"] == 0


def test_the_worker_is_served_at_the_root_so_that_its_scope_is_the_site(client: TestClient) -> None:
    worker = client.get("/push-worker.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    assert "showNotification" in worker.text and "fetch(" not in worker.text


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_forgetting_a_player_forgets_their_devices(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str, service: PushService
) -> None:
    if kind == "sqlite":
        store: Any = SqliteTables(tmp_path / "tables.sqlite3", grouped=True)
    else:
        store = PostgresTables(request.getfixturevalue("postgres_url"), node="one")
    with TestClient(_app(store, service)) as client:
        ann, bob = person(client, "Ann"), person(client, "Bob")
        _subscribe(client, ann, DeviceKeys(service.origin + "/ann"))
        _subscribe(client, bob, DeviceKeys(service.origin + "/bob"))
        ann_id = get_as(client, "/api/me", ann).json()["id"]
        assert client.request("DELETE", "/api/me", json={}, headers=ann).status_code == 200
        client.cookies.clear()
        kept = client.app.state.pushes.store.read(  # type: ignore[attr-defined]
            lambda rows: rows("SELECT endpoint, player_id FROM racko_push_devices")
        )
        assert [endpoint for endpoint, _ in kept] == [service.origin + "/bob"]
        assert ann_id not in repr(kept)


def test_the_keys_are_made_once_kept_0600_and_never_shown(tmp_path: Path) -> None:
    path = keys_beside(tmp_path / "tables.sqlite3")
    assert path.name == "tables.sqlite3.push-keys.pem"
    made = keys_at(path)
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert keys_at(path) == made
    assert "PRIVATE" not in repr(made) and made.public in repr(made)
    assert [entry.name for entry in tmp_path.iterdir()] == [path.name]  # no draft left behind


def test_a_turn_based_reminder_says_the_hours_left_in_the_device_s_language() -> None:
    from racko.web.push.pushes import turn_message

    assert turn_message("en", "t1", ["Bob"], 6)["body"] == "6 h left for your turn at the table with Bob."
    assert turn_message("nl", "t1", ["Bob"], 6)["body"] == "Nog 6 uur voor je beurt aan de tafel met Bob."
    assert turn_message("fr", "t1", ["Bob"], 6)["body"].startswith("Plus que 6 h")
    assert turn_message("xx", "t1", ["Bob", "Cy"])["body"] == "Your turn at the table with Bob, Cy."
    assert turn_message("en", "t1", ["Bob"])["url"] == "/t/t1"
