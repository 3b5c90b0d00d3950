"""The Bot API (docs/BOTS.md) at a real server on 127.0.0.1 (uvicorn in this process): bot accounts and their
tokens, the example client and `racko bot connect` each playing a whole game at a table a person made, a stream
dropped mid-game resumed by sequence number, refused moves that change nothing, and every frame a bot is sent
checked against what its seat may know when it is sent."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from browsing import serving_app
from people import person
from racko.cli import app as cli_app
from racko.observation_json import observation_from_json
from racko.web.app import ServerSettings, create_app
from racko.web.bots import POLL_SECONDS
from racko.web.players import key_hash
from racko.web.store.postgres import PostgresTables
from racko.web.table import Table, Watcher
from tables import check_frame, hub_of, table_app, wait_for

ROOT = Path(__file__).resolve().parents[3]


@contextlib.contextmanager
def bot_server(path: Path) -> Iterator[tuple[str, Any, list[str]]]:
    """A server on ``path`` whose every frame to a seat bound to a bot is checked at the moment it is sent (the
    failures are listed, the server swallowing a failing send); the address, the app and the failures."""
    app = table_app(path, bot_keep_alive=0.2, quick_target=75)  # a bot seated by quick play: a short game
    failures: list[str] = []
    hub = app.state.hub  # built with the app: its join is wrapped before anything is served
    joining = hub.join

    async def checking_join(table: Table, watcher: Watcher, since: int | None) -> None:
        send = watcher.send
        seat = watcher.viewer
        if seat is not None and table.setup.seats[seat].bot_account:

            async def checked_send(frame: dict[str, Any]) -> None:
                now = hub.tables.get(table.table_id, table)
                await send(frame)  # the Bot API adds the seat's observation to a state frame: checked too
                try:
                    check_frame(now, seat, frame)
                    if frame["type"] == "state":
                        assert observation_from_json(frame["observation"]) == now.session.observation(seat)
                except Exception as error:  # kept for the end: the server swallows a failing send
                    failures.append(repr(error)[:500])

            watcher.send = checked_send
        await joining(table, watcher, since)

    hub.join = checking_join
    with serving_app(app) as url:
        yield url, app, failures
    assert not failures, failures[:3]


def call(url: str, path: str, token: str | None, body: Any = None, cookie: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method="GET" if body is None else "POST")
    if token is not None:
        request.add_header("Authorization", "Bearer " + token)
    if cookie is not None:
        request.add_header("Cookie", cookie)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def new_table(url: str, seats: list[str], token: str, **form: Any) -> dict[str, Any]:
    """A table a bot makes for itself through the Bot API (its own seat ``me``, seated by its token)."""
    status, made = call(
        url, "/api/bot/tables", token, {"variant": "classic", "players": len(seats), "seats": seats, **form}
    )
    assert status == 200, made
    return dict(made)


def seated_by_seeks(url: str, tokens: list[str], wish: dict[str, Any]) -> str:
    """The table quick play makes for these bots, each seeking ``wish`` with its event stream open (the consent of
    its seek): the table's id, once every bot's stream said ``gameStart``."""
    opened = threading.Barrier(len(tokens) + 1)
    started: list[str] = []

    def listen(token: str) -> None:
        request = urllib.request.Request(url + "/api/bot/stream/event", headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request, timeout=20) as stream:
            for raw in stream:
                event = json.loads(raw) if raw.strip() else {}
                if event.get("type") == "hello":
                    opened.wait(timeout=20)
                elif event.get("type") == "gameStart":
                    started.append(str(event["table"]))
                    return

    threads = [threading.Thread(target=listen, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    opened.wait(timeout=20)
    for token in tokens:
        status, answer = call(url, "/api/bot/seek", token, wish)
        assert status == 200, answer
    for thread in threads:
        thread.join(timeout=30)
    assert len(started) == len(tokens) and len(set(started)) == 1, started
    return started[0]


def frames(url: str, path: str, token: str, stop: Any) -> list[dict[str, Any]]:
    """A stream's lines until ``stop(frame)`` says enough (then the connection is dropped)."""
    got: list[dict[str, Any]] = []
    request = urllib.request.Request(url + path, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=20) as stream:
        for raw in stream:
            if raw.strip():
                got.append(json.loads(raw))
                if stop(got[-1]):
                    break
    return got


def environment(*folders: Path) -> dict[str, str]:
    """This environment, with racko's source (and ``folders``) first on the path of a process started from it."""
    path = [str(ROOT / "src"), *map(str, folders), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def test_the_example_client_plays_a_whole_game(tmp_path: Path) -> None:
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Plain")
        table = new_table(url, ["me", "medium"], token, target=150)
        assert [seat["token"] for seat in table["seats"]] == [None, None]  # no link opens a bot's seat
        done = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "bot_client.py"), url, token, "1"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert "finished: " + table["table"] in done.stdout
        assert hub_of_app(app).tables[table["table"]].session.match.over
    assert len((ROOT / "examples" / "bot_client.py").read_text().splitlines()) <= 80
    assert "import racko" not in (ROOT / "examples" / "bot_client.py").read_text()


@pytest.mark.parametrize(("variant", "seats"), [("classic", ["expert"]), ("highlow", ["easy", "medium"])])
def test_racko_bot_connect_plays_a_whole_game(tmp_path: Path, variant: str, seats: list[str]) -> None:
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Connected")
        table = new_table(url, [*seats, "me"], token, variant=variant, target=100)
        command = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url]
        command += ["--token", token, "--policy", "racko:expert", "--games", "1", "--seed", "1"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=environment())
        assert done.returncode == 0, done.stderr
        assert "1 games played." in done.stderr
        played = hub_of_app(app).tables[table["table"]]
        assert played.session.match.over and played.setup.seats[len(seats)].name == "Connected (bot)"


@pytest.mark.parametrize(
    ("variant", "seats", "agent"),
    [("classic", ["medium"], "env_agent:sorting"), ("highlow", ["easy", "easy"], "env_agent:masked_random")],
)
def test_racko_bot_connect_plays_a_whole_game_with_an_agent_of_the_environments(
    tmp_path: Path, variant: str, seats: list[str], agent: str
) -> None:
    """``--policy env:module:callable``: examples/env_agent.py's agents, which take the environments' observation
    vector and action mask, play a whole game through the adapter."""
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Learner")
        form = {"variant": variant, "target": 75} | ({"two_player_rule": False} if variant == "classic" else {})
        table = new_table(url, ["me", *seats], token, **form)
        command = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url]
        command += ["--token", token, "--policy", f"env:{agent}", "--games", "1"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=90, env=environment(ROOT / "examples"))
        assert done.returncode == 0, done.stderr
        assert "1 games played." in done.stderr
        played = hub_of_app(app).tables[table["table"]]
        assert played.session.match.over
        assert any(action.seat == 0 for action in played.session.match.actions), "the agent's seat moved"


def test_an_agent_that_chooses_an_illegal_index_stops_the_client_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "wrong_agent.py").write_text("def act(observation, action_mask):\n    return 55\n")
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Wrong")
        table = new_table(url, ["me", "easy"], token)
        command = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url]
        command += ["--token", token, "--policy", "env:wrong_agent:act", "--games", "1"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=environment(tmp_path))
        assert done.returncode == 1, done.stderr
        assert "the policy failed" in done.stderr and "action 55, which is not legal now" in done.stderr
        played = hub_of_app(app).tables[table["table"]]
        assert not any(action.seat == 0 for action in played.session.match.actions)  # nothing was played for it
    unknown = ["--token", "rb_x", "--policy", "env:no_such_module_here:act"]
    bad = subprocess.run(
        [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", "http://127.0.0.1:9", *unknown],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment(),
    )
    assert bad.returncode == 2 and "no_such_module_here" in bad.stderr


EVERY_VARIANT = [("classic", 2), ("classic", 3), ("bonus", 2), ("partners", 4), ("highlow", 3)]
"""Every variant, and classic for 2 and 3 (Partners is classic for 4): the tables a bot may be invited to."""


def bot_form(variant: str, players: int) -> dict[str, Any]:
    """A short game: to 75 (a Rack-O ends it), the 2-player rule off so that a Rack-O comes soon."""
    return {"variant": variant, "target": 75} | ({"two_player_rule": False} if players == 2 else {})


@pytest.mark.parametrize(("variant", "players"), EVERY_VARIANT)
def test_the_example_client_and_racko_bot_connect_play_each_other_to_the_end(
    tmp_path: Path, variant: str, players: int
) -> None:
    """Seats taken in turn by examples/bot_client.py and `racko bot connect`, each its own process, seated together
    by quick play (each bot's seek is its consent)."""
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        hub = hub_of_app(app)
        names = [f"Seat {seat + 1}" for seat in range(players)]
        tokens = [hub.players.add_bot(name)[1] for name in names]
        wish = {"variant": variant, "players": players, "clock": "normal"} | (
            {"two_player_rule": False} if players == 2 else {}
        )
        table = {"table": seated_by_seeks(url, tokens, wish)}
        connect = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url, "--games", "1"]
        commands = [
            [sys.executable, str(ROOT / "examples" / "bot_client.py"), url, token, "1"]
            if seat % 2 == 0
            else [*connect, "--token", token, "--policy", "racko:expert", "--seed", str(seat)]
            for seat, token in enumerate(tokens)
        ]
        logs = [tmp_path / f"seat-{seat}.log" for seat in range(players)]
        clients = []
        try:
            for command, log in zip(commands, logs, strict=True):
                with log.open("wb") as written:
                    client = subprocess.Popen(command, stdout=written, stderr=subprocess.STDOUT, env=environment())
                clients.append(client)
            codes = [client.wait(timeout=120) for client in clients]
        finally:
            for client in clients:
                client.kill()
                client.wait()
        said = [log.read_text() for log in logs]
        assert codes == [0] * players, said
        assert all(("finished: " if seat % 2 == 0 else "1 games played.") in text for seat, text in enumerate(said))
        played = hub.tables[table["table"]]
        assert played.session.match.over
        assert {action.seat for action in played.session.match.actions} == set(range(players))  # every seat played


def hub_of_app(app: Any) -> Any:
    return app.state.hub


def test_a_stream_dropped_mid_game_resumes_with_no_event_lost_or_repeated(tmp_path: Path) -> None:
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Resumer")
        table_id = new_table(url, ["me", "easy"], token)["table"]
        path = f"/api/bot/game/stream/{table_id}"
        entries: list[dict[str, Any]] = []
        since = 0
        for _ in range(6):  # six connections, each dropped after the bot's move (the computer plays meanwhile)
            got = frames(url, f"{path}?since={since}", token, lambda frame: frame["type"] == "state")
            assert got[0]["type"] == "game" and got[0]["protocol"] == "v1" and got[0]["seat"] == 0
            state = got[-1]
            assert state["since"] == since, (state["since"], since)
            entries += state["log"]
            since = state["version"]
            view = state["view"]
            if view["legal"] and view["to_act"] == 0:
                status, answer = call(
                    url, f"/api/bot/game/{table_id}/move", token, {"version": since, "action": view["legal"][0]}
                )
                assert status == 200 and answer["version"] > since, answer
        whole = frames(url, f"{path}?since=0", token, lambda frame: frame["type"] == "state")[-1]
        assert entries == whole["log"][: len(entries)] and len(entries) >= 6
        assert [entry["text"] for entry in entries] == [entry["text"] for entry in whole["log"][: len(entries)]]


def test_illegal_stale_and_out_of_turn_moves_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        hub = hub_of_app(app)
        _, token = hub.players.add_bot("Careful")
        _, other = hub.players.add_bot("Elsewhere")
        table_id = new_table(url, ["me", "person"], token)["table"]
        table = hub.tables[table_id]
        version, seat = table.version, table.session.to_act
        move = f"/api/bot/game/{table_id}/move"
        for named in (1, "0", None):  # another seat's move, whoever's turn it is, changes nothing
            status, answer = call(url, move, token, {"version": version, "action": {"act": "draw", "seat": named}})
            assert (status, answer["code"]) == (400, "wrong-seat"), answer
            assert hub.tables[table_id].version == version
        if seat != 0:
            assert call(url, move, token, {"version": version, "action": {"act": "draw"}})[1]["code"] == "not-your-turn"
            return
        refusals = [
            ({"version": version, "action": {"act": "exchange", "slot": 99}}, 400, "illegal"),
            ({"version": version, "action": {"act": "discard"}}, 400, "illegal"),
            ({"version": version + 5, "action": {"act": "draw"}}, 409, "stale"),
            ({"version": "x", "action": {"act": "draw"}}, 400, "bad-frame"),
            ({"version": version, "action": "draw"}, 400, "bad-frame"),
        ]
        for body, status, code in refusals:
            got_status, answer = call(url, move, token, body)
            assert (got_status, answer["code"]) == (status, code), answer
            assert isinstance(answer["error"], str) and answer["error"]
            assert hub.tables[table_id].version == version and hub.tables[table_id].session.to_act == 0
        assert call(url, move, other, {"version": version, "action": {"act": "draw"}})[1]["code"] == "not-your-seat"
        assert call(url, move, None, {"version": version, "action": {"act": "draw"}})[0] == 401
        assert call(url, move, "rb_nothing", {"version": version, "action": {"act": "draw"}})[0] == 401
        status, answer = call(url, move, token, {"version": version, "action": {"act": "draw", "seat": 0}})
        assert status == 200 and answer["version"] > version  # its own seat named: played
        assert call(url, move, token, {"version": answer["version"], "action": {"act": "draw"}})[1]["code"] == "illegal"


def test_bot_accounts_tokens_hashed_revoked_marked_and_forgotten(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    runner = CliRunner()
    with bot_server(db) as (url, _app, _):
        added = runner.invoke(cli_app, ["admin", "bot", "add", "Robo", "--db", str(db)])
        assert added.exit_code == 0, added.output
        token = added.stdout.strip().splitlines()[-1]
        assert token.startswith("rb_") and len(token) >= 3 + 22  # at least 128 random bits (192 here)
        status, account = call(url, "/api/bot/account", token)
        assert status == 200 and account["name"] == "Robo" and account["bot"] and account["protocol"] == "v1"
        stored = sqlite3.connect(db).execute("SELECT token_hash FROM racko_bot_accounts").fetchall()
        assert stored == [(key_hash(token),)] and token not in db.read_bytes().decode("latin-1")
        # a page's cookie on the Bot API, a person's name posing as a bot, the bot's token on a page's socket
        assert call(url, "/api/bot/account", token, cookie="racko_player=abc")[1]["code"] == "cookie"
        assert call(url, "/api/bot/account", None, cookie="racko_player=abc")[0] == 403
        assert call(url, "/api/me", None, {"name": "Ann (bot)"})[0] == 409
        table = new_table(url, ["person", "me"], token, public=True)
        assert table["seats"][1]["name"] == "Robo (bot)"
        events = frames(url, "/api/bot/stream/event", token, lambda frame: frame["type"] == "gameStart")
        assert events[0] == {"type": "hello", "protocol": "v1", "bot": "Robo"}
        assert events[-1]["table"] == table["table"] and events[-1]["seat"] == 1
        player = call(url, f"/api/players/{account['id']}", None)[1]["player"]
        assert player["bot"] is True
        listed = runner.invoke(cli_app, ["admin", "list", "--db", str(db)])
        assert "Robo (bot)" in listed.stdout
        # revoked (by the operator's command, another process): the token stops working within a look of the
        # server's keeper at the store; added again: a new token, the old one still refused
        assert runner.invoke(cli_app, ["admin", "bot", "revoke", "Robo", "--db", str(db)]).exit_code == 0
        deadline = time.monotonic() + 3 * POLL_SECONDS + 1
        while call(url, "/api/bot/account", token)[0] == 200:
            assert time.monotonic() < deadline, "the revoked token still works"
            time.sleep(0.05)
        assert call(url, "/api/bot/account", token)[1]["code"] == "bad-token"
        again = runner.invoke(cli_app, ["admin", "bot", "add", "Robo", "--db", str(db)]).stdout.strip().splitlines()[-1]
        assert call(url, "/api/bot/account", again)[1]["id"] == account["id"]
        assert runner.invoke(cli_app, ["admin", "bot", "revoke", "Nobody", "--db", str(db)]).exit_code == 1
        # forgotten like any player: its token goes with it
        assert runner.invoke(cli_app, ["admin", "remove", account["id"], "--db", str(db)]).exit_code == 0
        deadline = time.monotonic() + 3 * POLL_SECONDS + 1
        while call(url, "/api/bot/account", again)[0] == 200:
            assert time.monotonic() < deadline, "the forgotten bot's token still works"
            time.sleep(0.05)
        assert sqlite3.connect(db).execute("SELECT count(*) FROM racko_bot_accounts").fetchone() == (0,)


def test_a_seat_for_no_bot_account_is_refused(tmp_path: Path) -> None:
    with TestClient(table_app(tmp_path / "tables.sqlite3")) as client:
        answer = client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "bot-account:X"]})
        assert answer.status_code == 400 and "no bot account" in answer.json()["error"]
        _, token = hub_of(client).players.add_bot("Y")
        answer = client.post(
            "/api/bot/tables",
            json={"variant": "classic", "players": 3, "seats": ["me", "bot-account:Y", "easy"]},
            headers={"Authorization": "Bearer " + token},
        )
        assert answer.status_code == 400 and "one seat" in answer.json()["error"]


def test_a_bot_account_is_seated_only_by_its_own_consent(tmp_path: Path) -> None:
    """The start page's form (no cookie, a person's cookie, another bot's token) never seats a bot account: refused
    with the reason, and no table is made; its own token does, and so a table counts against its games at once on
    that path too."""
    with TestClient(table_app(tmp_path / "tables.sqlite3", bot_games_at_once=1)) as client:
        hub = hub_of(client)
        robo, token = hub.players.add_bot("Robo")
        _, other = hub.players.add_bot("Other")
        form = {"variant": "classic", "players": 2, "seats": ["person", "bot-account:Robo"]}
        ann = person(client, "Ann")
        for headers in ({}, ann, {"Authorization": "Bearer " + other}):
            answer = client.post("/api/tables", json={**form, "seats": ["me", "bot-account:Robo"]}, headers=headers)
            client.cookies.clear()
            assert answer.status_code == 403 and answer.json()["code"] == "no-consent", answer.text
            assert "only by its own consent" in answer.json()["error"]
        answer = client.post("/api/bot/tables", json=form, headers={"Authorization": "Bearer " + other})
        assert answer.status_code == 403 and answer.json()["code"] == "no-consent"
        assert hub.tables == {} and hub.players.unfinished(robo.id) == 0
        mine = {"Authorization": "Bearer " + token}
        answer = client.post("/api/bot/tables", json={**form, "seats": ["person", "me"]}, headers=mine)
        assert answer.status_code == 200 and answer.json()["seats"][1]["who"] == "bot-account:Robo"
        assert hub.players.unfinished(robo.id) == 1
        again = client.post("/api/bot/tables", json={**form, "seats": ["me", "easy"]}, headers=mine)
        assert again.status_code == 429 and again.json()["code"] == "too-many-games", again.text
        assert len(hub.tables) == 1


def test_a_bot_token_opens_no_page_socket_and_its_seat_is_marked(tmp_path: Path) -> None:
    with TestClient(table_app(tmp_path / "tables.sqlite3")) as client:
        _, token = hub_of(client).players.add_bot("Robo")
        made = client.post(
            "/api/bot/tables",
            json={"variant": "classic", "players": 2, "seats": ["person", "me"]},
            headers={"Authorization": "Bearer " + token},
        )
        table = made.json()
        with client.websocket_connect(f"/ws/{table['table']}") as socket:
            socket.send_json({"type": "hello", "token": token, "version": 0})
            assert socket.receive_json()["code"] == "bad-token"
        with client.websocket_connect(f"/ws/{table['table']}") as socket:
            socket.send_json({"type": "hello", "token": table["seats"][0]["token"], "version": 0})
            presence = next(frame for frame in iter(socket.receive_json, None) if frame["type"] == "presence")
            assert presence["seats"][1]["account"] == "bot" and presence["seats"][0]["account"] is None


def test_a_game_made_at_another_server_process_is_told_on_the_bots_event_stream(postgres_url: str) -> None:
    """Two server processes on one PostgreSQL database: the bot's event stream is at the first; a person makes a
    table with the bot's seat at the second, which has no stream of the bot to tell. The first reads the store's list
    of the bot's seats again every keep-alive, and says ``gameStart`` for it, once."""
    stores = [PostgresTables(postgres_url, node=node) for node in ("one", "two")]
    apps = [
        create_app(
            store, ServerSettings(pace=0.0, frames_per_second=10000.0, new_tables_per_address=10**6, bot_keep_alive=0.2)
        )
        for store in stores
    ]
    _, token = apps[0].state.hub.players.add_bot("Far")
    # each app's lifespan closes its store when its server stops
    with serving_app(apps[0]) as first, serving_app(apps[1]) as second:
        starts: list[str] = []
        made: list[str] = []
        quiet_after_start = quiet = 0
        request = urllib.request.Request(first + "/api/bot/stream/event", headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request, timeout=20) as stream:
            for raw in stream:
                if not raw.strip():  # a keep-alive: 10 of them (2 s) after the start, and no second start
                    quiet, quiet_after_start = quiet + 1, quiet_after_start + bool(starts)
                    if quiet_after_start >= 10 or quiet >= 50:  # 10 s without a start: none will come
                        break
                    continue
                event = json.loads(raw)
                if event["type"] == "hello":  # listening: the table is made at the other process now
                    made.append(new_table(second, ["person", "me"], token)["table"])
                elif event["type"] == "gameStart":
                    starts.append(event["table"])
        assert starts == made
        assert made[0] not in apps[0].state.hub.tables  # made at the second process, never opened at the first


def test_a_bot_has_every_way_out_a_person_has_and_every_refusal_of_the_api_is_json(tmp_path: Path) -> None:
    """Issue 47: a bot resigns, aborts, offers to end and takes a gone seat back through the Bot API, refused as a
    person is; a route the Bot API does not have, or a method it does not take, is a JSON refusal too."""
    with TestClient(table_app(tmp_path / "tables.sqlite3")) as client:
        hub = hub_of(client)
        _, token = hub.players.add_bot("Robo")
        auth = {"Authorization": "Bearer " + token}

        def made(seats: list[str]) -> str:
            form = {"variant": "classic", "players": len(seats), "seats": seats}
            return str(client.post("/api/bot/tables", json=form, headers=auth).json()["table"])

        aborted = made(["me", "person"])
        assert client.post(f"/api/bot/game/{aborted}/back", headers=auth).json()["code"] == "not-gone"
        answer = client.post(f"/api/bot/game/{aborted}/abort", headers=auth)
        assert answer.status_code == 200 and answer.json()["ok"] is True
        assert hub.tables[aborted].setup.ended.how == "aborted" and hub.tables[aborted].over
        again = client.post(f"/api/bot/game/{aborted}/resign", headers=auth)
        assert (again.status_code, again.json()["code"]) == (409, "over")
        alone = made(["me", "easy"])  # nobody else to ask: an offer to end ends the game at once
        assert client.post(f"/api/bot/game/{alone}/offer-end", headers=auth).status_code == 200
        assert hub.tables[alone].setup.ended.how == "agreed"
        resigned = made(["person", "me"])
        assert client.post(f"/api/bot/game/{resigned}/resign", headers=auth).status_code == 200
        assert hub.tables[resigned].seats.state(1).value == "resigned" and not hub.tables[resigned].over
        gone = client.post(f"/api/bot/game/{resigned}/move", headers=auth, json={"version": 0, "action": {}})
        assert gone.json()["code"] == "not-your-seat"  # its seat is a computer's now
        assert hub.players.unfinished(hub.tables[resigned].setup.seats[1].player) == 1  # until the game ends
        for method, path, status, code in [
            ("post", f"/api/bot/game/{resigned}/dance", 404, "no-route"),
            ("get", "/api/bot/nothing/here", 404, "no-route"),
            ("delete", "/api/bot/account", 405, "wrong-method"),
            ("get", f"/api/bot/game/{resigned}/resign", 405, "wrong-method"),
        ]:
            answer = getattr(client, method)(path, headers=auth)
            assert answer.status_code == status and answer.headers["content-type"] == "application/json", path
            assert answer.json()["code"] == code and answer.json()["error"], path


def test_a_table_with_a_bot_and_no_clock_ends_at_its_limit_of_turns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game ends: two programs that never go out at a table without a clock stop at the limit (a short one
    here), the game ended ``limit``, placed by the rounds played, and the bot's games at once counted down again."""
    from racko.web.table import turns

    monkeypatch.setattr(turns, "TURN_LIMIT", 9)
    with TestClient(table_app(tmp_path / "tables.sqlite3")) as client:
        hub = hub_of(client)
        robo, token = hub.players.add_bot("Robo")
        auth = {"Authorization": "Bearer " + token}
        form = {"variant": "classic", "players": 2, "seats": ["me", "easy"]}
        table_id = client.post("/api/bot/tables", json=form, headers=auth).json()["table"]
        deadline = time.monotonic() + 30
        while not hub.tables[table_id].over:
            assert time.monotonic() < deadline, "the game did not end at its limit"
            table = hub.tables[table_id]
            if table.session.to_act == 0:  # the bot draws and discards: it never goes out
                legal = table.session.observation(0).legal_actions()
                act = "draw" if any(action.__class__.__name__ == "DrawFromStock" for action in legal) else "discard"
                client.post(
                    f"/api/bot/game/{table_id}/move",
                    headers=auth,
                    json={"version": table.version, "action": {"act": act}},
                )
            time.sleep(0.01)
        table = hub.tables[table_id]
        assert table.setup.ended is not None and table.setup.ended.how == "limit"
        assert sum(table.turns_played()) == 9
        wait_for(lambda: hub.players.unfinished(robo.id) == 0)
