"""What the tests of people at the server share: a server in process (Starlette's test client), a person with a
cookie of their own, the lobby's frames read as the page keeps them, and a game played to its end by every seat."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import anyio
from starlette.testclient import TestClient

from racko.record import GameRecord, replay
from racko.tools.bench.server import sorting_move
from racko.web.app import ServerSettings, create_app
from racko.web.lobby import LINE_KEYS
from racko.web.players import COOKIE
from racko.web.store import SqliteTables
from racko.web.table import FinishedGame, Setup, standing


def app_in_process(path: Path | str = ":memory:", **options: Any) -> Any:
    options.setdefault("frames_per_second", 10000.0)
    options.setdefault("new_tables_per_address", 10**6)
    options.setdefault("fill_seconds", 0.3)
    options.setdefault("quick_target", 25)  # a game of a round or two
    return create_app(SqliteTables(path), ServerSettings(pace=0.0, **options))


def person(client: TestClient, name: str) -> dict[str, str]:
    """A new person picks a name; the headers that carry their cookie (the client's own jar stays empty, so that
    each request is one person's)."""
    answer = client.post("/api/me", json={"name": name})
    assert answer.status_code == 200, answer.text
    key = answer.cookies.get(COOKIE)
    client.cookies.clear()
    assert key
    return {"Cookie": f"{COOKIE}={key}"}


def get_as(client: TestClient, path: str, who: dict[str, str] | None = None) -> Any:
    answer = client.get(path, headers=who or {})
    client.cookies.clear()
    return answer


LOBBIES: dict[int, dict[str, Any]] = {}
"""Each lobby socket's whole lobby, as its frames built it (a whole ``lobby`` first, then ``lobby-change`` frames)."""


FRAME_SECONDS = 30.0
"""A frame that has not come in this long never will: the test fails instead of waiting for ever."""


def receive_json(ws: Any) -> dict[str, Any]:
    """The socket's next frame, within :data:`FRAME_SECONDS` (the test client's own receive waits for ever)."""

    async def bounded() -> Any:
        with anyio.fail_after(FRAME_SECONDS):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(bounded)
    except TimeoutError:
        raise AssertionError(f"no frame came in {FRAME_SECONDS:g} seconds") from None
    if message["type"] == "websocket.close":
        raise AssertionError(f"the server closed the socket ({message.get('code')})")
    frame: dict[str, Any] = json.loads(message.get("text") or message["bytes"].decode())
    return frame


def read_frame(ws: Any) -> dict[str, Any]:
    """The next frame; a lobby's change comes back as the whole lobby it makes (as the page keeps it)."""
    frame = receive_json(ws)
    if frame["type"] == "lobby":
        LOBBIES[id(ws)] = frame
    elif frame["type"] == "lobby-change":
        view = LOBBIES[id(ws)]
        for name, key in LINE_KEYS.items():
            put = {line[key]: line for line in frame[name]["put"]}
            kept = [line for line in view[name] if line[key] not in frame[name]["drop"] and line[key] not in put]
            view[name] = kept + list(put.values())
        view.update(online_count=frame["online_count"], queues=frame["queues"])
        frame = dict(view)
    return frame


def until(ws: Any, kind: str, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        frame = read_frame(ws)
        if frame["type"] == kind:
            return dict(frame)
    raise AssertionError(f"no {kind} frame")


def lobby_until(ws: Any, kind: str, wanted: Any) -> dict[str, Any]:
    """The first ``kind`` frame (the lobby's lines, or one's queues) for which ``wanted(frame)`` holds: the lobby
    looks at the database again a moment after each change."""
    for _ in range(100):
        frame = until(ws, kind)
        if wanted(frame):
            return frame
    raise AssertionError(f"no {kind} frame as wanted")


def eventually(look: Any) -> Any:
    """What ``look()`` gives once it is something (a game's end is passed on a moment after its last state)."""
    for _ in range(100):
        found = look()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("never")


def quick(ws: Any, **wish: Any) -> None:
    ws.send_json({"type": "quick", "variant": "classic", "players": 2, "rated": True, "two_player_rule": False, **wish})


def finished_games(client: TestClient, player_id: str) -> dict[str, Any] | None:
    """A player's page once it lists a finished game."""
    page: dict[str, Any] = get_as(client, f"/api/players/{player_id}").json()
    return page if page.get("games") else None


def play_to_the_end(
    sockets: list[Any], states: list[dict[str, Any]] | None = None, moves: int | None = None
) -> dict[str, Any]:
    """Every person at the table plays (a card to the slot its value belongs to) until the game is over (or after
    ``moves`` moves); the last state.  A socket behind the others reads on; the seat to act acts on the newest
    state.  ``states``: each socket's last state, when the sockets said hello already (else each opens its seat by
    its cookie)."""
    rng = random.Random(3)
    if states is None:
        states = []
        for ws in sockets:
            ws.send_json({"type": "hello", "token": None, "version": 0})
            assert until(ws, "welcome")["you"] is not None  # the cookie opened the seat: no link needed
            states.append(until(ws, "state"))
    made = 0
    for _ in range(5000):
        if moves is not None and made >= moves:
            return states[0]
        newest = max(state["version"] for state in states)
        behind = [index for index, state in enumerate(states) if state["version"] < newest]
        if behind:
            states[behind[0]] = until(sockets[behind[0]], "state")
            continue
        view = states[0]["view"]
        if view["over"]:
            return states[0]
        acting = [index for index, state in enumerate(states) if state["view"]["legal"]]
        if not acting:
            states[0] = until(sockets[0], "state")
            continue
        mine = states[acting[0]]["view"]
        legal = [{key: value for key, value in action.items() if key != "seat"} for action in mine["legal"]]
        sockets[acting[0]].send_json({"type": "act", "version": newest, "action": sorting_move(mine, legal, 40, rng)})
        states[acting[0]] = until(sockets[acting[0]], "state")
        made += 1
    raise AssertionError("the game did not end")


def a_finished_game(table_id: str, setup: dict[str, Any], record: GameRecord) -> FinishedGame:
    """A game over as the table room passes it on: ``setup`` as the store keeps it (the rules and seed taken from
    the record where it leaves them out), the seats whose people left it in ``setup["gone"]``."""
    typed = Setup.of_json({"rules": record.rules.to_dict(), "seed": 0, **setup})
    gone = [bool(flag) for flag in setup.get("gone") or []]
    left = [seat < len(gone) and gone[seat] for seat in range(record.rules.players)]
    return FinishedGame(table_id, typed, record, standing(record.rules, replay(record).seat_totals, left))
