"""Turn-based tables (issue 39: days per move), with the server's clock moved by hand over three simulated days: a
person who does not move on a one-day table is reminded 6 hours before the deadline (a frame, and the turn hooks
for a page that is closed), their turn is played for them at the deadline, they are gone after the second, and a
waiting table keeps no task.  A player's list of tables puts "your move" first, with the time left."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from racko.web.clock import DAY, TURN_PRESETS
from racko.web.table import TableRoom, TurnNews
from tables import HandClock, frame_where, hub_of, join, journal, make_table, my_turn, wait_for

ONE_DAY = TURN_PRESETS["days-1"]


def hooked(hub: TableRoom) -> list[tuple[str, int, str, float | None]]:
    """The turns' news the table room published: table, seat, what, deadline."""
    calls: list[tuple[str, int, str, float | None]] = []

    async def hook(news: TurnNews) -> None:
        calls.append((news.table_id, news.seat, news.what, news.deadline))

    hub.turns_begun.subscribe(hook)
    return calls


def test_a_person_who_does_not_move_for_three_days_on_a_one_day_table_is_reminded_played_for_then_gone(
    client: TestClient, clock: HandClock
) -> None:
    hub = hub_of(client)
    calls = hooked(hub)
    links = make_table(client, seats=["me", "easy"], clock="days-1")
    table_id = links["table"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        state = my_turn(ws, join(ws, links["seats"][0]["token"]), 0)
        assert state["clock"]["preset"] == "days-1" and state["clock"]["days"] == 1
        assert state["clock"]["running"] == 0 and state["clock"]["left"][0] == DAY
        version = state["version"]
        table = hub.tables[table_id]
        assert table.clock is not None and table.clock.since is not None
        start = table.clock.since
        # Waiting days, the table keeps no task: the store's due (its reminder) wakes it.
        wait_for(lambda: table.driver is None or table.driver.done())
        stored = hub.store.load(table_id)
        assert stored is not None and stored.due == start + DAY - 6 * 3600
        clock.at = start + DAY - 6 * 3600 - 1
        time.sleep(1.5)  # the keep loop looked: nothing is due yet
        assert hub.tables[table_id].setup.reminded is None
        # 6 hours before the deadline: one reminder, to the seat's page and the hooks; the due moves to the deadline.
        clock.at = start + DAY - 6 * 3600
        reminder = frame_where(ws, "clock-reminder")
        assert reminder["seat"] == 0 and reminder["left"] == 6 * 3600
        wait_for(lambda: (table_id, 0, "reminder", start + DAY) in calls)
        assert hub.tables[table_id].setup.reminded == (0, start)
        wait_for(lambda: (stored := hub.store.load(table_id)) is not None and stored.due == start + DAY)
        assert hub.tables[table_id].session.version == version  # not a moment early
        # The deadline: a computer player plays the turn, marked as the clock's.
        clock.at = start + DAY
        played = frame_where(ws, "state", lambda frame: frame["version"] > version)
        state = my_turn(ws, played, 0)
        mine = [by for seat, by, _ in journal(hub, table_id) if seat == 0]
        assert mine and set(mine) == {"clock"}
        # The next turn has a day again (no bank), and the page says so; the hooks were told it began.
        second = hub.tables[table_id].clock
        assert second is not None and second.since is not None and second.since >= start + DAY
        assert state["clock"]["left"][0] == DAY and second.deadline() == second.since + DAY
        wait_for(lambda: (table_id, 0, "turn", second.since + DAY) in calls)  # type: ignore[operator]
        # Day two: reminded again, then played for again: gone.
        clock.at = second.since + DAY - 6 * 3600
        assert frame_where(ws, "clock-reminder")["seat"] == 0
        clock.at = second.since + DAY
        presence = frame_where(ws, "presence", lambda frame: frame["seats"][0]["gone"])
        assert presence["clock"]["gone"] == [True, False]
        # Day three: its computer player plays without waiting for the clock, and it is reminded of nothing.
        clock.at = second.since + 2 * DAY
        wait_for(lambda: [by for seat, by, _ in journal(hub, table_id) if seat == 0][-1] == "gone")
        assert [what for _, _, what, _ in calls].count("reminder") == 2
        stored = hub.store.load(table_id)
        assert stored is not None and (stored.due is None or hub.tables[table_id].session.to_act != 0)


def test_a_players_list_puts_their_move_first_with_the_time_left(client: TestClient, clock: HandClock) -> None:
    hub = hub_of(client)
    assert client.post("/api/me", json={"name": "Ann"}).status_code == 200
    mine = make_table(client, seats=["me", "easy"], clock="days-2")
    theirs = make_table(client, seats=["me", "person"], clock="days-1")  # the newer table
    with client.websocket_connect(f"/ws/{theirs['table']}") as ws:
        state = join(ws, theirs["seats"][0]["token"])
        if state["view"]["to_act"] == 0:  # Ann plays her turn: then it is the other person's move (the dealer's)
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
            state = frame_where(ws, "state", lambda frame: frame["view"]["held"] is not None)
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "discard"}})
            frame_where(ws, "state", lambda frame: frame["view"]["to_act"] == 1)
    with client.websocket_connect(f"/ws/{mine['table']}") as ws:
        my_turn(ws, join(ws, mine["seats"][0]["token"]), 0)

    def listed() -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = client.get("/api/me/tables").json()["seats"]
        return seats

    wait_for(lambda: [line["your_move"] for line in listed()] == [True, False])
    clock.at += 3600
    first, second = listed()
    assert first["table"] == mine["table"] and first["left"] == 2 * DAY - 3600
    assert second["table"] == theirs["table"] and second["left"] is None
    assert hub.tables[mine["table"]].clock is not None
