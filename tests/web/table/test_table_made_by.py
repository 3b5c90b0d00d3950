"""Moves a computer player made for a person (issue 39): a turn the clock played is marked in the game's filed record
(``made_by``, from the journal), in the ratings room's record and replay, and the review leaves it out of the
person's decisions and accuracy; a seat whose person left has its later moves marked ``left``; a seat's review of a
game in progress leaves out the clock's moves too."""

from __future__ import annotations

import json
import secrets
import statistics
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from starlette.testclient import TestClient

from browsing import played_game
from people import eventually, finished_games, get_as, person, play_to_the_end, until
from racko.analysis.review import class_bounds
from racko.play.session import renamed
from racko.record import GameRecord, replay
from racko.web.clock import PRESETS
from racko.web.table import Left, SeatSetup, Setup, made_by_of, noted_record, token_hash
from tables import hub_of, table_app

FAST = PRESETS["fast"]
SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "docs" / "record.schema.json").read_text())


class HandClock:
    """The server's clock, moved by the test (seconds since the epoch)."""

    def __init__(self) -> None:
        self.at = 1_700_000_000.0

    def __call__(self) -> float:
        return self.at


def reviewed(client: TestClient, table: str, **body: Any) -> dict[str, Any]:
    for _ in range(900):
        answer = client.post(f"/api/tables/{table}/review", json=body)
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        if state["state"] == "done":
            return state
        time.sleep(0.1)
    raise AssertionError("the review did not end")


def decisions_among(record: GameRecord, numbers: list[int]) -> int:
    """How many of these actions were decisions (more than one legal move)."""
    found = 0
    for number in numbers:
        match = replay(record, stop_after=number - 1)
        seat = match.to_act
        assert seat is not None
        found += len(match.observation(seat).legal_actions()) > 1
    return found


def test_a_turn_the_clock_played_is_marked_in_the_record_the_replay_and_left_out_of_the_review() -> None:
    clock = HandClock()
    with TestClient(table_app(now=clock, review_playouts=2)) as client:
        hub = hub_of(client)
        hub.clock_tick = 0.02
        ann = person(client, "Ann")
        made = client.post(
            "/api/tables",
            json={"variant": "classic", "players": 2, "seats": ["me", "easy"], "clock": "fast", "target": 25,
                  "two_player_rule": False},
            headers=ann,
        )  # fmt: skip
        client.cookies.clear()
        assert made.status_code == 200, made.text
        table_id = made.json()["table"]
        ann_id = get_as(client, "/api/me", ann).json()["id"]
        with client.websocket_connect(f"/ws/{table_id}", headers=ann) as ws:
            ws.send_json({"type": "hello", "token": None, "version": 0})
            assert until(ws, "welcome")["you"] == 0
            state = until(ws, "state")
            while state["view"]["to_act"] != 0 or state["view"]["held"] is not None:
                state = until(ws, "state")
            table = hub.tables[table_id]
            assert table.clock is not None and table.clock.since is not None
            clock.at = table.clock.since + FAST.move + FAST.bank  # Ann's time runs out: the clock plays her turn
            while state["view"]["to_act"] == 0:
                state = until(ws, "state")
            stored = hub.store.load(table_id)
            assert stored is not None
            clocked = [number for number, by in enumerate(stored.made_by, start=1) if by == "clock"]
            assert clocked and all(stored.actions[number - 1]["seat"] == 0 for number in clocked)
            last = play_to_the_end([ws], [state])  # Ann plays the rest herself, in time
            assert last["view"]["over"]

        # The record filed at the table, and the ratings room's copy, mark the clock's moves.
        text = client.get(f"/api/tables/{table_id}/record").text
        data = json.loads(text)
        assert data["made_by"] == {str(number): "clock" for number in clocked}
        jsonschema.Draft202012Validator(SCHEMA).validate(data)
        record = GameRecord.loads(text)
        assert record.made_by == dict.fromkeys(clocked, "clock")
        game = eventually(lambda: finished_games(client, ann_id))["games"][0]["game"]
        assert json.loads(get_as(client, f"/api/games/{game}/record").text)["made_by"] == data["made_by"]

        # The replay says which moves the clock made, and for whom.
        steps = get_as(client, f"/api/games/{game}/replay").json()["steps"]
        assert [number for number, step in enumerate(steps) if step.get("made_by")] == clocked
        assert all(steps[number]["made_by"] == "clock" and steps[number]["seat"] == 0 for number in clocked)
        assert steps[0].get("made_by") is None

        # The review leaves them out of Ann's decisions and accuracy, and says how many and why.
        review = reviewed(client, table_id)["review"]
        ann_review = next(seat for seat in review["seats"] if seat["seat"] == 0)
        graded = [decision["action"] for decision in ann_review["decisions"]]
        assert graded and not set(graded) & set(clocked)
        assert ann_review["left_out"] == {"clock": decisions_among(record, clocked)}
        assert sum(ann_review["counts"].values()) == len(graded)
        bound = class_bounds(review["measure"]).mistake
        own = statistics.fmean(100 * 0.5 ** (decision["loss"] / bound) for decision in ann_review["decisions"])
        assert ann_review["accuracy"] == pytest.approx(own, abs=0.11)  # over Ann's own moves only
        bot_review = next(seat for seat in review["seats"] if seat["seat"] == 1)
        assert "left_out" not in bot_review


def test_a_seat_that_left_has_its_later_moves_marked_left_and_the_journal_s_marks_come_first() -> None:
    _, actions, text = played_game("classic", ["Ann", "Bob"], ["easy", "easy"], seed=3, target=25)
    record = GameRecord.loads(text)
    seats = [action["seat"] for action in actions]
    after = 10
    ann = SeatSetup("Ann", bot="medium", left=Left("resigned", after, 1.0))
    setup = Setup(record.rules, 3, (ann, SeatSetup("Bob")))
    journal: list[str | None] = [None] * len(actions)
    first_of_ann = seats.index(0)
    journal[first_of_ann] = "clock"
    later_of_ann = next(index for index, seat in enumerate(seats) if seat == 0 and index >= after)
    journal[later_of_ann] = "gone"
    marks = made_by_of(setup, record, journal)
    expected = {first_of_ann + 1: "clock", later_of_ann + 1: "gone"} | {
        index + 1: "left" for index, seat in enumerate(seats) if seat == 0 and index >= after and index != later_of_ann
    }
    assert marks == expected
    noted = noted_record(setup, record, journal)
    assert noted.made_by == expected and noted.extra["left"][0]["how"] == "resigned"
    assert GameRecord.loads(noted.dumps()).made_by == expected
    assert GameRecord.loads(renamed(noted.dumps(), 0, "forgotten")).made_by == expected  # a forgotten player's name
    assert noted_record(Setup(record.rules, 3, (SeatSetup("Ann"), SeatSetup("Bob"))), record) is record


def test_a_seat_s_review_of_a_game_in_progress_leaves_out_the_clock_s_moves() -> None:
    rules, actions, text = played_game("classic", ["Ann", "Bob"], ["hard", "easy"], seed=5, target=150)
    record = GameRecord.loads(text)
    with TestClient(table_app(review_playouts=2)) as client:
        store = hub_of(client).store
        first_round = len(record.rounds[0].actions)
        assert len(record.rounds) >= 2
        token = secrets.token_urlsafe(24)
        setup = {
            "rules": rules.to_dict(),
            "seed": 5,
            "game": 1,
            "seats": [
                {"name": "Ann", "bot": None, "token": token_hash(token), "joined": True},
                {"name": "Bob", "bot": None, "token": token_hash(secrets.token_urlsafe(24)), "joined": True},
            ],
        }
        ann_first = next(index for index, action in enumerate(actions) if action["seat"] == 0)
        table_id = "m" + secrets.token_urlsafe(8)
        store.create(table_id, setup)
        store.append(table_id, 0, actions[:ann_first])
        store.append(table_id, ann_first, actions[ann_first : ann_first + 2], by="clock")  # the clock's turn
        store.append(table_id, ann_first + 2, actions[ann_first + 2 : first_round + 3])  # into round 2
        store.commit()
        review = reviewed(client, table_id, token=token)["review"]
        (seat,) = review["seats"]
        clocked = [ann_first + 1, ann_first + 2]
        assert seat["seat"] == 0 and not {decision["action"] for decision in seat["decisions"]} & set(clocked)
        assert seat["left_out"] == {"clock": decisions_among(record, clocked)}
