"""What the tests of a table in process share (Starlette's test client): the application at a machine's speed, a
new table, a seat's hello, the next frame of a kind, the hub that plays the tables, the server's clock moved by hand
and the journal as the store keeps it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from people import receive_json
from protocol_schemas import check_state
from racko.highlow import HighLowObservation
from racko.web.app import ServerSettings, create_app
from racko.web.store import SqliteTables
from racko.web.table import Table, TableRoom


def table_app(path: Path | str = ":memory:", **options: Any) -> Any:
    options.setdefault("frames_per_second", 10000.0)  # the tests play at a machine's speed, not a person's
    options.setdefault("new_tables_per_address", 10**6)  # the tests make tables at a machine's speed
    return create_app(SqliteTables(path), ServerSettings(pace=options.pop("pace", 0.0), **options))


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


def hub_of(client: TestClient) -> TableRoom:
    hub: TableRoom = client.app.state.hub  # type: ignore[attr-defined]
    return hub


class HandClock:
    """The server's clock, moved by the test (seconds since the epoch)."""

    def __init__(self) -> None:
        self.at = 1_700_000_000.0

    def __call__(self) -> float:
        return self.at


def frame_where(ws: Any, kind: str, wanted: Any = lambda frame: True, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        frame = receive_json(ws)
        if frame["type"] == kind and wanted(frame):
            return frame
    raise AssertionError(f"no {kind} frame as wanted")


def join(ws: Any, token: str) -> dict[str, Any]:
    """Say hello; the newest state."""
    ws.send_json({"type": "hello", "token": token, "version": 0})
    assert frame_where(ws, "welcome")
    return frame_where(ws, "state")


def my_turn(ws: Any, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The state in which ``seat``'s turn begins (a computer player at the table moves first, at once)."""
    while state["view"]["to_act"] != seat or state["view"]["held"] is not None:
        state = frame_where(ws, "state")
    return state


def journal(hub: TableRoom, table_id: str) -> list[tuple[int, str | None, float | None]]:
    """Each action's seat, who played it, and when."""
    stored = hub.store.load(table_id)
    assert stored is not None
    return [
        (int(action["seat"]), by, at)
        for action, by, at in zip(stored.actions, stored.made_by, stored.times, strict=True)
    ]


def wait_for(look: Any, seconds: float = 10.0) -> Any:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        found = look()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError("never")


def _ints(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, list):
        return set().union(*(_ints(part) for part in value)) if value else set()
    return set()


CARD_FIELDS = ("rack", "held", "discard", "known", "taken", "next_stock", "rows", "passed")


def check_frame(table: Table, viewer: int | None, frame: dict[str, Any]) -> None:
    """Everything in a frame to ``viewer`` is what that seat (or a spectator) may know at that moment, in the shapes
    the published schemas say."""
    text = json.dumps(frame)
    for secret in ("seed", "deck", "stock_order", "reshuffles", "random", "order"):
        assert f'"{secret}"' not in text
    if frame["type"] != "state":
        return
    check_state(frame)  # the published schemas of the view, the log and the Bot API's observation (issue 52)
    for entry in frame["log"]:  # a card drawn blind is its drawer's alone (a Swap drawn in High-Low is shown)
        assert {"racks", "rows", "order", "pile"}.isdisjoint(entry), entry
        if entry["kind"] == "drew" and entry["seat"] != viewer:
            assert entry["card"] in (None, "S"), (viewer, entry)
    view = frame["view"]
    session = table.session
    observation = session.observation(viewer if viewer is not None else 0)
    if viewer is None:
        assert view["rack"] is None and view["held"] is None and view["legal"] == []
    if isinstance(observation, HighLowObservation):
        assert view["rows"] == [
            [card if card > 0 else {0: "W", -1: "S"}[card] for card in row] for row in observation.public.rows
        ]
        if viewer is None or viewer != observation.public.to_act:
            assert view["held"] is None
        return
    may_know = (
        set(observation.seen_cards())
        if viewer is not None
        else set(observation.seen_cards())
        - set(observation.rack)
        - ({observation.held} if observation.held is not None else set())
    )
    if viewer is None:  # a spectator knows the public cards only
        public = observation.public
        may_know = set(public.discard_pile)
        may_know |= {card for slots in public.known for card in slots if card is not None}
        may_know |= {card for slots in public.left for cards in slots for card in cards}
        may_know |= set(public.turned_over_pile or ())
    if observation.public.taken_discard is not None:  # taken face up from the discard pile: everybody saw it
        may_know.add(observation.public.taken_discard)
    if session.match.over:  # the game's last round ended, and its end showed every rack to everybody
        may_know |= {card for rack in session.match.results[-1].racks for card in rack}
    shown = set().union(*(_ints(view[key]) for key in CARD_FIELDS if key in view))
    assert shown <= may_know, (viewer, shown - may_know)
    for line in (entry["text"] for entry in frame["log"]):
        if "drew from the stock (" in line or "You drew" in line:
            assert viewer is not None and line.startswith(session.names[viewer])
        assert "could go Rack-O" not in line or (viewer is not None and line.startswith(session.names[viewer]))
