"""Real-time clocks at the table (issue 39), with the server's clock moved by hand: a person who stops moving has
their turn played by a computer player once their time runs out (once), two such turns in a row make the seat gone,
the person takes it back, a clock never runs for a seat not to act, every frame says the same time left (after a
reconnect too), and a move arriving as the timeout fires is played or the clock's is, never both."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from racko.web.app import ServerSettings, create_app
from racko.web.clock import PRESETS, WARN_SECONDS
from racko.web.store.postgres import PostgresTables
from tables import HandClock, frame_where, hub_of, join, journal, make_table, my_turn, table_app, wait_for

FAST = PRESETS["fast"]


def test_a_person_who_stops_moving_has_a_turn_played_within_move_and_bank_once_then_is_gone_and_comes_back(
    client: TestClient, clock: HandClock
) -> None:
    links = make_table(client, seats=["me", "easy"], clock="fast")
    hub = hub_of(client)
    table_id = links["table"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        state = my_turn(ws, join(ws, links["seats"][0]["token"]), 0)
        assert state["clock"]["running"] == 0 and state["clock"]["preset"] == "fast"
        assert state["clock"]["left"][0] == FAST.move + FAST.bank
        version = state["version"]
        start = hub.tables[table_id].clock.since  # type: ignore[union-attr]
        assert start is not None
        clock.at = start + FAST.move + FAST.bank - WARN_SECONDS
        warning = frame_where(ws, "clock-warning")
        assert warning["seat"] == 0 and warning["left"] == WARN_SECONDS
        clock.at = start + FAST.move + FAST.bank - 0.01
        time.sleep(0.2)
        assert hub.tables[table_id].session.version == version  # not a moment early
        clock.at = start + FAST.move + FAST.bank
        played = frame_where(ws, "state", lambda frame: frame["view"]["to_act"] != 0 or frame["version"] > version)
        assert played["version"] > version
        mine = [(by, at) for seat, by, at in journal(hub, table_id) if seat == 0]
        assert [by for by, _ in mine] == ["clock"] * len(mine) and 1 <= len(mine) <= 2  # one turn: draw, place
        assert all(at == clock.at for _, at in mine)
        # Its bank is spent: the next turn has the move's seconds only, and runs out again: gone.
        state = my_turn(ws, played, 0)
        second = hub.tables[table_id].clock
        assert second is not None and second.banks[0] == 0.0 and state["clock"]["left"][0] == FAST.move
        assert second.since is not None
        clock.at = second.since + FAST.move
        presence = frame_where(ws, "presence", lambda frame: frame["seats"][0]["gone"])
        assert presence["clock"]["gone"] == [True, False]
        # Gone: its turns are played without waiting for the clock, marked as a gone seat's.
        wait_for(lambda: [by for seat, by, _ in journal(hub, table_id) if seat == 0][-1] == "gone")
        assert hub.tables[table_id].seats.state(0).value == "gone"
        # Back: the seat is the person's again, and a clock runs for it.
        ws.send_json({"type": "back"})
        back = frame_where(ws, "presence", lambda frame: not frame["seats"][0]["gone"])
        assert back["clock"]["gone"] == [False, False]
        ws.send_json({"type": "back"})
        assert frame_where(ws, "error")["code"] == "not-gone"
        gone_turns = len([by for seat, by, _ in journal(hub, table_id) if seat == 0 and by == "gone"])
        time.sleep(0.3)
        assert len([by for seat, by, _ in journal(hub, table_id) if seat == 0 and by == "gone"]) == gone_turns


def test_the_clock_never_runs_for_a_seat_not_to_act_and_a_reconnect_shows_the_same_time_left(
    client: TestClient, clock: HandClock
) -> None:
    links = make_table(client, names=["Ann", "Bob"], clock="normal")
    normal = PRESETS["normal"]
    table_id = links["table"]
    hub = hub_of(client)
    to_act = hub.tables[table_id].session.to_act
    assert to_act is not None
    other = 1 - to_act
    with (
        client.websocket_connect(f"/ws/{table_id}") as first,
        client.websocket_connect(f"/ws/{table_id}") as second,
    ):
        join(first, links["seats"][0]["token"])
        state = join(second, links["seats"][1]["token"])
        assert state["clock"]["running"] is None and state["clock"]["started"] is False  # Bob has not sat down
        second.send_json({"type": "name", "name": "Bob"})
        started = frame_where(second, "state", lambda frame: frame["clock"]["started"])
        assert started["clock"]["running"] == to_act
        clock.at += 25.0
        first.send_json({"type": "presence"})
        seen = frame_where(first, "presence", lambda frame: frame["clock"]["left"][to_act] < 90.0)
        assert seen["clock"]["left"][to_act] == normal.move + normal.bank - 25.0
        assert seen["clock"]["left"][other] == normal.move + normal.bank  # not its turn: not charged
    clock.at += 7.0
    with client.websocket_connect(f"/ws/{table_id}") as again:
        reopened = join(again, links["seats"][other]["token"])
        assert reopened["clock"]["left"][to_act] == normal.move + normal.bank - 32.0
        assert reopened["clock"]["left"][other] == normal.move + normal.bank


def test_a_rated_table_always_has_a_clock_and_bad_clocks_are_refused(client: TestClient) -> None:
    assert hub_of(client).tables[make_table(client, rated=True)["table"]].setup.clock == "normal"
    assert hub_of(client).tables[make_table(client)["table"]].setup.clock is None  # friends' casual default
    forms: list[tuple[dict[str, Any], str]] = [
        ({"clock": "blitz"}, "A clock is one of"),
        ({"clock": "none", "rated": True}, "a rated game always has a clock"),
        ({"clock": 3}, "A clock is one of"),
    ]
    for form, words in forms:
        answer = client.post(
            "/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "person"], **form}
        )
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text


def test_a_move_and_the_timeout_at_once_play_exactly_one_of_them(
    client: TestClient, clock: HandClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = make_table(client, seats=["me", "easy"], clock="fast")
    hub = hub_of(client)
    table_id = links["table"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        state = my_turn(ws, join(ws, links["seats"][0]["token"]), 0)
        table = hub.tables[table_id]
        assert table.clock is not None and table.clock.since is not None
        deadline = table.clock.since + FAST.move + FAST.bank
        # The clock's computer player thinks slowly: the person's move arrives while it does.
        thinking, moved = threading.Event(), threading.Event()
        stand_in = hub.turns._stand_in(table, 0)
        real_act = stand_in.act

        def slow_act(observation: Any) -> Any:
            thinking.set()
            moved.wait(5.0)
            return real_act(observation)

        monkeypatch.setattr(stand_in, "act", slow_act)
        clock.at = deadline
        assert thinking.wait(5.0)
        # Past the deadline the clock decides: the move is refused and changes nothing.
        ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
        assert frame_where(ws, "error")["code"] == "out-of-time"
        # A move stamped before the deadline (the clock read just before it) wins over the stand-in's thought.
        clock.at = deadline - 0.5
        ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
        drawn = frame_where(ws, "state")
        assert drawn["version"] == state["version"] + 1
        moved.set()
        time.sleep(0.3)
        assert [(seat, by) for seat, by, _ in journal(hub, table_id)][-1] == (0, None)  # the person's draw only
        assert hub.tables[table_id].session.version == drawn["version"]
        # The turn goes on with the person's own move; at the deadline the clock finishes it, once.
        monkeypatch.setattr(stand_in, "act", real_act)
        clock.at = deadline
        frame_where(ws, "state", lambda frame: frame["version"] > drawn["version"])
        mine = [by for seat, by, _ in journal(hub, table_id) if seat == 0]
        assert mine == [None, "clock"]


def test_the_clock_s_moves_and_deadline_survive_a_restart(tmp_path: Any, clock: HandClock) -> None:
    path = tmp_path / "tables.sqlite3"
    with TestClient(table_app(path, now=clock)) as client:
        hub_of(client).clock_tick = 0.02
        links = make_table(client, seats=["me", "easy"], clock="fast")
        table_id = links["table"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            my_turn(ws, join(ws, links["seats"][0]["token"]), 0)
            clock.at += 5.0
            ws.send_json({"type": "presence"})
            left = frame_where(ws, "presence", lambda frame: frame["clock"]["left"][0] < 45.0)["clock"]["left"]
        stored = hub_of(client).store.load(table_id)
        assert stored is not None and stored.due == clock.at - 5.0 + FAST.move + FAST.bank
    with TestClient(table_app(path, now=clock)) as client, client.websocket_connect(f"/ws/{table_id}") as ws:
        assert join(ws, links["seats"][0]["token"])["clock"]["left"] == left


def test_a_table_whose_clock_ran_out_where_no_process_holds_it_is_claimed_and_played_once(
    postgres_url: str, clock: HandClock
) -> None:
    """On a shared store a new table waits for its first connection; if nobody comes (or its process died), the
    keep loop of a process finds its deadline passed in the store, claims it and the clock plays the turn."""
    store = PostgresTables(postgres_url, node="keeper")
    app = create_app(store, ServerSettings(pace=0.0, now=clock, new_tables_per_address=10**6))
    with TestClient(app) as client:
        hub_of(client).clock_tick = 0.02
        for _ in range(20):  # a table whose person acts first (the deal decides; a computer player has no clock)
            table_id = make_table(client, seats=["me", "easy"], clock="fast")["table"]
            loaded = store.load(table_id)
            assert loaded is not None
            if loaded.due is not None:
                break
        assert table_id not in hub_of(client).tables  # a shared store leaves it to its first connection
        assert loaded is not None and loaded.due is not None
        clock.at = loaded.due
        wait_for(lambda: "clock" in [by for seat, by, _ in journal(hub_of(client), table_id) if seat == 0])
        mine = [by for seat, by, _ in journal(hub_of(client), table_id) if seat == 0]
        assert 1 <= len(mine) <= 2 and set(mine) == {"clock"}
