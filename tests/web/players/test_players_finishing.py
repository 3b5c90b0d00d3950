"""A player's record of finishing (issue 39): the games that count (rated, or at a public table) finished and left
(gone at the end), shown on the player's page; a repeat leaver waits a short, growing time before quick play seats
them again; a wish for finishers only is refused to a player who is not one, and meets only such wishes; a friends'
casual table never counts; forgetting a player forgets their record."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from people import a_finished_game, get_as, lobby_until, person, quick, until
from racko.match import Match
from racko.play.session import PlaySession, SeatSpec
from racko.rules import variant
from racko.web.app import ServerSettings, create_app, people
from racko.web.players import FINISHERS_SHARE, Finishing, note_game
from racko.web.players.finishing import FIRST_WAIT_SECONDS, LONGEST_WAIT_SECONDS, RECENT_SECONDS, TRUSTED_UNTIL
from racko.web.store import SqliteTables, TableStore

WORDS = Path(__file__).parents[3] / "src" / "racko" / "web" / "lobby" / "words.json"


def test_one_game_left_in_a_day_costs_nothing_then_the_wait_doubles_from_the_last_up_to_an_hour() -> None:
    now = 10**6
    assert Finishing(3, 1, (now - 60.0,)).wait_seconds(now) == 0
    assert Finishing(3, 2, (now - 600.0, now - 60.0)).wait_seconds(now) == FIRST_WAIT_SECONDS - 60
    assert Finishing(3, 3, (now - 600.0, now - 300.0, now - 10.0)).wait_seconds(now) == 2 * FIRST_WAIT_SECONDS - 10
    many = tuple(now - 100.0 * k for k in range(20, 0, -1))
    assert Finishing(0, 20, many).wait_seconds(now) == LONGEST_WAIT_SECONDS - 100
    old = (now - RECENT_SECONDS - 1, now - RECENT_SECONDS - 2)
    assert Finishing(3, 2, old).wait_seconds(now) == 0  # yesterday's leaves are forgiven


@given(st.integers(0, 50), st.integers(0, 50))
def test_a_finisher_finishes_the_threshold_s_share_and_a_newcomer_is_one(finished: int, left: int) -> None:
    record = Finishing(finished, left)
    played = finished + left
    assert record.finisher == (played < TRUSTED_UNTIL or finished >= FINISHERS_SHARE * played)
    assert record.json()["share"] == (None if played == 0 else round(finished / played, 3))


def test_the_lobby_s_words_say_the_threshold_the_server_keeps() -> None:
    words = json.loads(WORDS.read_text(encoding="utf-8"))
    for language in ("en", "nl", "fr"):
        assert str(round(FINISHERS_SHARE * 100)) in words[language]["finishers_only"]


def _game(seed: int) -> Any:
    rules = variant("classic").rules(2, target=50, two_player_rule=False)  # two computer players always end
    session = PlaySession(Match(rules, seed=seed), [SeatSpec("Ann", "medium"), SeatSpec("Bob", "easy")])
    while not session.match.over:
        session.play_bot()
    return rules, session.record()


def test_a_seat_gone_at_the_end_is_a_game_left_only_where_games_count_and_forgetting_forgets_it(
    store: TableStore,
) -> None:
    players, ratings = people(store)
    ann, _ = players.create("Ann")
    bob, _ = players.create("Bob")
    seats = [{"name": "Ann", "bot": None, "player": ann.id}, {"name": "Bob", "bot": None, "player": bob.id}]
    for game, (public, rated, gone) in enumerate(
        [(True, False, [False, True]), (False, True, [False, False]), (False, False, [False, True])], start=1
    ):
        rules, record = _game(game)
        setup = {"rules": rules.to_dict(), "seed": game, "game": game, "seats": seats, "public": public}
        ratings.game_over(a_finished_game(f"t{game}", {**setup, "rated": rated, "gone": gone}, record))
        ratings.game_over(
            a_finished_game(f"t{game}", {**setup, "rated": rated, "gone": gone}, record)
        )  # passed on twice: once
    # The friends' casual table (the third) does not count; Bob left the public one.
    assert players.finishing(ann.id).json() == {"finished": 2, "left": 0, "share": 1.0, "finisher": True}
    assert players.finishing(bob.id).json() == {"finished": 1, "left": 1, "share": 0.5, "finisher": True}
    assert len(players.finishing(bob.id).recent_leaves) == 1
    assert players.forget(bob.id)
    assert players.finishing(bob.id).played == 0
    assert store.read(lambda rows: rows("SELECT count(*) FROM racko_finishing WHERE player_id = ?", (bob.id,))) == [
        (0,)
    ]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, TableStore]]:
    store = SqliteTables(tmp_path / "tables.sqlite3", grouped=True)
    app = create_app(
        store, ServerSettings(pace=0.0, frames_per_second=10000.0, new_tables_per_address=10**6, fill_seconds=0.3)
    )
    with TestClient(app) as client:
        yield client, store


def _left_games(store: TableStore, player_id: str, ages: list[float], finished: int = 0) -> None:
    now = time.time()

    def work(rows: Any) -> None:
        for index, age in enumerate(ages):
            note_game(rows, f"left-{index}", {player_id: True}, now - age)
        for index in range(finished):
            note_game(rows, f"done-{index}", {player_id: False}, now - 3 * RECENT_SECONDS)

    store.run(work)
    store.commit()


def test_a_repeat_leaver_is_told_how_long_quick_play_waits_and_the_page_shows_the_record(
    served: tuple[TestClient, TableStore],
) -> None:
    client, store = served
    dan = person(client, "Dan")
    dan_id = get_as(client, "/api/me", dan).json()["id"]
    _left_games(store, dan_id, [1800.0, 30.0], finished=6)
    with client.websocket_connect("/ws/lobby", headers=dan) as lobby:
        until(lobby, "lobby")
        quick(lobby)
        refused = until(lobby, "error")
        assert refused["code"] == "leaver-wait" and refused["left"] == 2 and refused["minutes"] == 2
        assert "2 min" in refused["message"]
    page = get_as(client, f"/api/players/{dan_id}").json()
    assert page["finishing"] == {"finished": 6, "left": 2, "share": 0.75, "finisher": False}


def test_a_wish_for_finishers_only_is_refused_to_a_leaver_and_meets_only_finishers(
    served: tuple[TestClient, TableStore],
) -> None:
    client, store = served
    eve, fay, gus = person(client, "Eve"), person(client, "Fay"), person(client, "Gus")
    eve_id = get_as(client, "/api/me", eve).json()["id"]
    _left_games(store, eve_id, [3 * RECENT_SECONDS, 3 * RECENT_SECONDS + 1, 3 * RECENT_SECONDS + 2], finished=3)
    with (
        client.websocket_connect("/ws/lobby", headers=eve) as eve_lobby,
        client.websocket_connect("/ws/lobby", headers=fay) as fay_lobby,
        client.websocket_connect("/ws/lobby", headers=gus) as gus_lobby,
    ):
        for lobby in (eve_lobby, fay_lobby, gus_lobby):
            until(lobby, "lobby")
        quick(eve_lobby, finishers=True)
        refused = until(eve_lobby, "error")
        assert refused["code"] == "not-a-finisher" and refused["share"] == 50 and refused["threshold"] == 80
        quick(eve_lobby)  # any player: she waits (three days ago is no reason to wait now)
        assert lobby_until(eve_lobby, "queued", lambda frame: frame["queues"])["queues"][0]["finishers"] is False
        quick(fay_lobby, finishers=True)  # a newcomer is a finisher; Eve's wish is not hers
        fay_queued = lobby_until(fay_lobby, "queued", lambda frame: frame["queues"])
        assert [queue["finishers"] for queue in fay_queued["queues"]] == [True]
        quick(gus_lobby, finishers=True)
        seated = [until(fay_lobby, "seated"), until(gus_lobby, "seated")]
        assert seated[0]["table"] == seated[1]["table"]  # the finishers met, though Eve had waited longer
