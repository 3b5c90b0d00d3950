"""One refusal across the rooms: a route of the players, ratings, table, review and bots rooms and a table's socket
each answer a refusal as the same ``Refusal`` (a code for programs, a sentence for people, the code's HTTP status),
and a refusal says when to try again where that helps."""

from __future__ import annotations

from starlette.testclient import TestClient

from people import app_in_process, person
from racko.web.core import STATUS, Refusal


def test_a_refusal_has_a_code_a_sentence_and_its_code_s_status() -> None:
    refusal = Refusal("stale", "The table has moved on.")
    assert refusal.status == STATUS["stale"] == 409
    assert refusal.json() == {"code": "stale", "error": "The table has moved on."}
    assert refusal.frame() == {"type": "error", "code": "stale", "message": "The table has moved on."}
    assert Refusal("bad-form", "Wrong.").status == 400  # a code not listed: the request itself is wrong
    busy = Refusal("too-many-reviews", "Many reviews.", retry_after=60, left=3)
    answer = busy.response()
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "60"
    assert busy.json()["left"] == 3


def test_every_room_refuses_alike() -> None:
    with TestClient(app_in_process()) as client:
        ann = person(client, "Ann")
        answers = [
            (client.post("/api/me", json={"name": "  "}, headers=ann), 400, "bad-name"),
            (client.get("/api/players/nobody"), 404, "not-found"),
            (client.get("/api/tables/nothing/record"), 404, "not-found"),
            (client.post("/api/tables", json={"variant": "classic", "players": 9}), 400, "bad-form"),
            (client.post("/api/tables/nothing/review", json={}), 404, "no-table"),
            (client.get("/api/bot/account"), 401, "no-token"),
            (client.post("/api/tables/nothing/join", json={}, headers=ann), 404, "no-table"),
        ]
        client.cookies.clear()
        for answer, status, code in answers:
            assert answer.status_code == status, (code, answer.text)
            body = answer.json()
            assert body["code"] == code and isinstance(body["error"], str) and body["error"], body
        with client.websocket_connect("/ws/nothing") as socket:
            socket.send_json({"type": "hello", "token": None})
            frame = socket.receive_json()
        assert frame["type"] == "error" and frame["code"] == "no-table" and frame["message"]
