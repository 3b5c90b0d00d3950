"""Tournaments at a server in process, at real tables: a Swiss of two people (playing through their tables' sockets)
and two of racko's levels to its podium, read through ``GET /api/tournaments`` and ``GET /api/tournaments/{id}`` as
docs/TOURNAMENTS.md says; making one from the page within its limits and by ``racko admin tournament add``; every
refusal; Forget me in a tournament; bot accounts through the Bot API."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from typer.testing import CliRunner

from browsing import serving_app
from people import app_in_process, get_as, person, play_to_the_end
from racko.cli import app as cli_app
from racko.web.players import FORGOTTEN
from tables import table_app

SWISS = {"name": "Evening Swiss", "kind": "swiss", "variant": "classic", "seats": 2, "rounds": 3, "clock": "fast"}
QUICK = {"target": 25, "two_player_rule": False}
"""Games of a round or two: a Rack-O at 25 points, no run of three needed."""


def _poll(client: TestClient, tournament: str, wanted: Any, who: dict[str, str] | None = None) -> dict[str, Any]:
    """The tournament's page (as ``who`` sees it) once ``wanted(page)`` holds."""
    for _ in range(600):
        page: dict[str, Any] = get_as(client, f"/api/tournaments/{tournament}", who).json()
        if wanted(page):
            return page
        time.sleep(0.05)
    raise AssertionError(f"the tournament never got there: {page}")


def _all_made(tables: list[dict[str, Any]]) -> bool:
    """Every table of a round made (a bye and a game the server plays have none)."""
    return all(table["table"] is not None or table["kind"] != "table" for table in tables)


def _play_tables(client: TestClient, tournament: str, people: list[dict[str, str]]) -> list[str]:
    """The people who have a table now play it to its end through its socket (their cookies open their seats), two
    at one table together; the tables."""
    tables: dict[str, list[dict[str, str]]] = {}
    for who in people:
        page = get_as(client, f"/api/tournaments/{tournament}", who).json()
        if page["you"] and page["you"]["table"]:
            tables.setdefault(page["you"]["table"], []).append(who)
    for table, seated in tables.items():
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(client.websocket_connect(f"/ws/{table}", headers=who)) for who in seated]
            play_to_the_end(sockets)
    return list(tables)


def test_a_swiss_of_two_people_and_two_levels_at_real_tables(tmp_path: Path) -> None:
    """Ann makes a 3-round Swiss from the page (racko's easy and medium enter it), Bob joins; it starts at its time;
    each round's tables are real tables (the people's seats theirs without a link, their clocks started), and the
    levels' own game is played by the server; the round after starts once every game ended; the API says it all."""
    app = app_in_process(tmp_path / "tables.sqlite3", round_pause=0.2)
    with TestClient(app) as client:
        ann, bob = person(client, "Ann"), person(client, "Bob")
        form = {**SWISS, **QUICK, "levels": ["easy", "medium"], "starts_in": 1.5}
        made = client.post("/api/tournaments", json=form, headers=ann)
        assert made.status_code == 200, made.text
        tournament = made.json()["id"]
        assert made.json()["url"] == f"/tournaments/{tournament}"
        for who in (ann, bob):
            assert client.post(f"/api/tournaments/{tournament}/join", json={}, headers=who).json() == {
                "state": "active"
            }
        page = get_as(client, f"/api/tournaments/{tournament}", ann).json()
        assert page["status"] == "created" and page["entrants"] == 4
        assert page["you"]["state"] == "active" and page["you"]["table"] is None
        listed = get_as(client, "/api/tournaments").json()["tournaments"]
        assert [(line["id"], line["status"], line["entrants"]) for line in listed] == [(tournament, "created", 4)]

        played: list[str] = []
        for round_ in (1, 2, 3):
            # Every table of the round made, not only Ann's: under load Bob's came later, was never played, and
            # the round waited for his clock to give his seat away.
            page = _poll(
                client,
                tournament,
                lambda page, round_=round_: page["round"] == round_ and _all_made(page["rounds"][round_ - 1]),
                ann,
            )
            assert page["you"]["table"] is not None
            assert page["status"] == "started"
            tables = page["rounds"][round_ - 1]
            assert len(tables) == 2 and all(len(table["seats"]) == 2 for table in tables)
            played += _play_tables(client, tournament, [ann, bob])
            _poll(client, tournament, lambda page, r=round_: all(t["result"] for t in page["rounds"][r - 1]))
        page = _poll(client, tournament, lambda page: page["status"] == "finished", ann)

    assert 5 <= len(played) <= 6  # each person played each round (a table of both counts once)
    rounds = page["rounds"]
    assert len(rounds) == 3 and all(len(tables) == 2 for tables in rounds)
    for tables in rounds:
        for table in tables:
            assert set(table) >= {"table", "seats", "result"}
            assert sorted(table["result"]["places"]) == [1, 2] and sorted(table["result"]["points"]) == [0, 1]
            people_there = {"Ann", "Bob"} & set(table["seats"])
            assert (table["table"] is not None) == bool(people_there)  # the levels' own game has no table
    pairs = [frozenset(table["seats"]) for tables in rounds for table in tables]
    assert len(set(pairs)) == 6  # nobody met twice: with four players in three rounds, everybody met everybody
    standings = page["standings"]
    assert [line["rank"] for line in standings] == [1, 2, 3, 4]
    assert sorted(line["name"] for line in standings) == ["Ann", "Bob", "easy", "medium"]
    assert sum(line["points"] for line in standings) == 6 and all(line["games"] == 3 for line in standings)
    assert all(set(line["tie_breaks"]) == {"buchholz", "sonneborn_berger", "wins"} for line in standings)
    keys = [
        (-line["points"], -line["tie_breaks"]["buchholz"], -line["tie_breaks"]["sonneborn_berger"])
        for line in standings
    ]
    assert keys == sorted(keys)
    assert page["podium"] == [line["name"] for line in standings[:3]]
    assert page["you"]["rank"] == next(line["rank"] for line in standings if line["name"] == "Ann")


def test_making_joining_and_every_refusal_over_http(tmp_path: Path) -> None:
    app = app_in_process(tmp_path / "tables.sqlite3")
    with TestClient(app) as client:
        answer = client.post("/api/tournaments", json=SWISS)
        assert answer.status_code == 401 and answer.json()["error"] == "Pick a name first."
        ann = person(client, "Ann")
        answer = client.post("/api/tournaments", json={**SWISS, "seats": 6}, headers=ann)
        assert answer.status_code == 400
        assert answer.json() == {
            "code": "bad-settings",
            "error": "Classic Rack-O is played at tables of 2, 3, 4, not 6.",
        }
        answer = client.post("/api/tournaments", json={**SWISS, "starts_in": 10**9}, headers=ann)
        assert answer.status_code == 400 and answer.json()["code"] == "bad-settings"
        answer = client.post("/api/tournaments", content=b"[1]", headers={**ann, "Content-Type": "application/json"})
        assert answer.status_code == 400
        answer = client.post("/api/tournaments", json=SWISS, headers={**ann, "Origin": "https://elsewhere.example"})
        assert answer.status_code == 403
        made = [client.post("/api/tournaments", json={**SWISS, "starts_in": 600}, headers=ann) for _ in range(4)]
        assert [answer.status_code for answer in made] == [200, 200, 200, 429]
        assert made[3].json()["code"] == "too-many"
        tournament = made[0].json()["id"]
        bob = person(client, "Bob")
        for path, code, status in (
            ("pause", "not-in", 409),
            ("withdraw", "not-in", 409),
        ):
            answer = client.post(f"/api/tournaments/{tournament}/{path}", json={}, headers=bob)
            assert (answer.status_code, answer.json()["code"]) == (status, code)
        assert client.post(f"/api/tournaments/{tournament}/join", json={}, headers=bob).json()["state"] == "active"
        answer = client.post(f"/api/tournaments/{tournament}/pause", json={}, headers=bob)
        assert (answer.status_code, answer.json()["code"]) == (409, "not-started")
        assert client.post(f"/api/tournaments/{tournament}/withdraw", json={}, headers=bob).json() == {"state": "out"}
        answer = client.post("/api/tournaments/nothing-here/join", json={}, headers=bob)
        assert (answer.status_code, answer.json()["code"]) == (404, "no-tournament")
        assert get_as(client, "/api/tournaments/nothing-here").status_code == 404
        assert get_as(client, "/api/tournaments/" + "x" * 500).status_code == 404
        page = get_as(client, f"/api/tournaments/{tournament}").json()
        again = get_as(client, f"/api/tournaments/{tournament}?known={page['version']}").json()
        assert again["unchanged"] is True and again["version"] == page["version"]
        assert page["you"] is None and page["status"] == "created" and page["standings"] == []
        assert get_as(client, "/tournaments").status_code == 200
        assert get_as(client, f"/tournaments/{tournament}").status_code == 200

    # the operator's command, on the same store: its last word is the new tournament's id
    done = CliRunner().invoke(
        cli_app,
        [
            "admin", "tournament", "add", "Weekly bots", "--db", str(tmp_path / "tables.sqlite3"), "--kind", "arena",
            "--variant", "highlow", "--seats", "3", "--minutes", "30", "--clock", "fast", "--target", "150",
            "--levels", "easy,hard", "--starts-in", "3600", "--rated", "--entry", "bots",
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    added = done.output.split()[-1]
    refused = CliRunner().invoke(
        cli_app, ["admin", "tournament", "add", "Bad", "--db", str(tmp_path / "tables.sqlite3"), "--seats", "9"]
    )
    assert refused.exit_code == 2 and "tables of 2, 3, 4" in refused.output
    listed = CliRunner().invoke(cli_app, ["admin", "tournament", "list", "--db", str(tmp_path / "tables.sqlite3")])
    assert added in listed.output and "Weekly bots" in listed.output
    for unknown in ("nothing-here",):
        start = CliRunner().invoke(
            cli_app, ["admin", "tournament", "start", unknown, "--db", str(tmp_path / "tables.sqlite3")]
        )
        assert start.exit_code == 1 and "There is no such tournament." in start.output
    with TestClient(app_in_process(tmp_path / "tables.sqlite3")) as client:
        page = get_as(client, f"/api/tournaments/{added}").json()
        assert page["settings"] == {
            "name": "Weekly bots",
            "kind": "arena",
            "variant": "highlow",
            "seats": 3,
            "clock": "fast",
            "rounds": None,
            "minutes": 30,
            "target": 150,
            "rated": True,
            "entry": "bots",
            "finishers": False,
            "levels": ["easy", "hard"],
            "two_player_rule": True,
        }
        assert [line["name"] for line in page["standings"]] == ["easy", "hard"]
        cy = person(client, "Cy")
        answer = client.post(f"/api/tournaments/{added}/join", json={}, headers=cy)
        assert (answer.status_code, answer.json()["code"]) == (403, "bots-only")


def test_forget_me_takes_a_player_out_of_the_standings_and_keeps_their_results(tmp_path: Path) -> None:
    """Ann plays a round, then forgets herself: the standings keep her line and results as a forgotten player's,
    with nothing of her name or id left in the tournament's page; she is seated no more."""
    app = app_in_process(tmp_path / "tables.sqlite3", round_pause=0.2)
    with TestClient(app) as client:
        ann, bob = person(client, "Ann"), person(client, "Bob")
        ann_id = get_as(client, "/api/me", ann).json()["id"]
        form = {**SWISS, **QUICK, "rounds": 2, "levels": ["easy", "medium"], "starts_in": 1}
        tournament = client.post("/api/tournaments", json=form, headers=bob).json()["id"]
        for who in (ann, bob):
            client.post(f"/api/tournaments/{tournament}/join", json={}, headers=who)
        _poll(client, tournament, lambda page: page["round"] == 1 and page["you"]["table"] is not None, ann)
        _play_tables(client, tournament, [ann, bob])
        _poll(client, tournament, lambda page: all(table["result"] for table in page["rounds"][0]))
        before = get_as(client, f"/api/tournaments/{tournament}").json()
        ann_line = next(line for line in before["standings"] if line["name"] == "Ann")
        assert client.delete("/api/me", headers=ann).status_code == 200
        page = _poll(client, tournament, lambda page: page["round"] == 2 and _all_made(page["rounds"][1]), bob)
        _play_tables(client, tournament, [bob])  # (if it is not Bob's bye)
        page = _poll(client, tournament, lambda page: page["status"] == "finished")
    text = json.dumps(page)
    assert "Ann" not in text and ann_id not in text
    with sqlite3.connect(tmp_path / "tables.sqlite3") as connection:  # nor anywhere in the store
        names = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        kept = "\n".join(repr(row) for name in names for row in connection.execute(f'SELECT * FROM "{name}"'))
    assert "Ann" not in kept and ann_id not in kept and "Bob" in kept
    line = next(line for line in page["standings"] if line["entrant"] == ann_line["entrant"])
    assert line["name"] == FORGOTTEN and line["forgotten"] and line["player"] is None
    assert line["games"] >= ann_line["games"] and line["points"] >= ann_line["points"]
    assert all(ann_line["entrant"] not in table["entrants"] for table in page["rounds"][1])  # seated no more
    first = next(table for table in page["rounds"][0] if ann_line["entrant"] in table["entrants"])
    assert FORGOTTEN in first["seats"]


def _call(url: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    request = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode())
    if token is not None:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def _events(url: str, token: str, stop: Any) -> list[dict[str, Any]]:
    """The bot's event stream's lines until ``stop(lines)`` says enough."""
    got: list[dict[str, Any]] = []
    request = urllib.request.Request(url + "/api/bot/stream/event", headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as stream:
        for raw in stream:
            if raw.strip():
                got.append(json.loads(raw))
                if stop(got):
                    break
    return got


def test_bot_accounts_join_and_withdraw_through_the_bot_api_and_hear_their_tournament_start(tmp_path: Path) -> None:
    """A bot account joins by its token (and withdraws, and joins again), is refused a tournament for people with the
    Bot API's JSON, and its event stream says tournamentStart, then gameStart for its table."""
    path = tmp_path / "tables.sqlite3"
    app = table_app(path, bot_keep_alive=0.2, round_pause=0.2)
    with serving_app(app) as url:
        players = app.state.hub.players
        _, token = players.add_bot("Robo")

        def add(*options: str) -> str:
            done = CliRunner().invoke(
                cli_app,
                ["admin", "tournament", "add", "Bots", "--db", str(path), "--rounds", "1", "--clock", "fast", *options],
            )
            assert done.exit_code == 0, done.output
            return str(done.output.split()[-1])

        people_only = add("--entry", "people", "--starts-in", "600")
        assert _call(url, f"/api/bot/tournament/{people_only}/join", token, {}) == (
            403,
            {"code": "people-only", "error": "This tournament is for people: bots may not enter."},
        )
        status, refused = _call(url, f"/api/bot/tournament/{people_only}/join", None, {})
        assert status == 401 and refused["code"] == "no-token"
        assert _call(url, "/api/bot/tournament/nothing/join", token, {})[1]["code"] == "no-tournament"
        tournament = add("--entry", "bots", "--levels", "easy", "--starts-in", "4", "--target", "25", "--no-run-rule")
        assert _call(url, f"/api/bot/tournament/{tournament}/join", token, {}) == (200, {"state": "active"})
        assert _call(url, f"/api/bot/tournament/{tournament}/withdraw", token, {}) == (200, {"state": "out"})
        assert _call(url, f"/api/bot/tournament/{tournament}/join", token, {}) == (200, {"state": "active"})
        heard = _events(url, token, lambda lines: lines[-1]["type"] == "gameStart")
    kinds = [line["type"] for line in heard]
    assert kinds == ["hello", "tournamentStart", "gameStart"], heard
    assert heard[1]["tournament"] == tournament and heard[1]["kind"] == "swiss" and heard[1]["name"] == "Bots"
