"""The Bot API (docs/BOTS.md) at a real server on 127.0.0.1 (uvicorn in this process): bot accounts and their
tokens, the example client and `racko bot connect` each playing a whole game at a table a person made, a stream
dropped mid-game resumed by sequence number, refused moves that change nothing, and every frame a bot is sent
checked against what its seat may know when it is sent."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from bot_api import ROOT, bot_server, call, clients, environment, frames, hub_of_app, new_table, seated_by_seeks
from browsing import serving_app
from people import person
from racko.cli import app as cli_app
from racko.rules import SLOT_LABELS
from racko.web.app import ServerSettings, create_app
from racko.web.bots import POLL_SECONDS
from racko.web.players import key_hash
from racko.web.store.postgres import PostgresTables
from tables import HandClock, hub_of, table_app, wait_for


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
    assert len((ROOT / "examples" / "bot_client.py").read_text().splitlines()) <= 90
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
    # A plain policy whose action the rules refuse (a discard before drawing): stopped too, not left waiting for a
    # stream that has nothing new to say.
    (tmp_path / "wrong_policy.py").write_text("def act(observation):\n    return {'act': 'discard'}\n")
    with bot_server(tmp_path / "again.sqlite3") as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Wrong")
        new_table(url, ["me", "easy"], token)
        command = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url]
        command += ["--token", token, "--policy", "wrong_policy:act", "--games", "1"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=environment(tmp_path))
        assert done.returncode == 1, done.stderr
        assert "the policy failed" in done.stderr and "which the server refused" in done.stderr, done.stderr
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
        with clients(commands, tmp_path) as running:
            codes = running.wait()
        said = running.said()
        assert codes == [0] * players, said
        assert all(("finished: " if seat % 2 == 0 else "1 games played.") in text for seat, text in enumerate(said))
        played = hub.tables[table["table"]]
        assert played.session.match.over
        assert {action.seat for action in played.session.match.actions} == set(range(players))  # every seat played


@pytest.mark.parametrize("client", ["example", "connect"])
def test_a_client_told_to_slow_down_waits_as_told_and_plays_on(tmp_path: Path, client: str) -> None:
    """Issue 52: a 429 changed nothing and says when to come back (``Retry-After``); the example client and `racko
    bot connect` wait that long and send the same request again, and play the game to its end (a client that only
    printed the refusal waited for a stream that had nothing new to say). The buckets fill by the server's clock,
    which stands still until the client has been refused, then runs at twenty times real time."""
    clock = HandClock()
    with bot_server(tmp_path / "tables.sqlite3", now=clock, bot_requests_per_minute=60) as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Hasty")
        table = new_table(url, ["me", "easy"], token, target=75, two_player_rule=False)
        while call(url, "/api/bot/account", token)[0] != 429:  # the bot's minute is spent
            pass
        if client == "example":
            command = [sys.executable, str(ROOT / "examples" / "bot_client.py"), url, token, "1"]
        else:
            command = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url, "--token"]
            command += [token, "--policy", "racko:easy", "--games", "1"]
        log = tmp_path / "client.log"
        with log.open("wb") as written:
            process = subprocess.Popen(command, stdout=written, stderr=subprocess.STDOUT, env=environment())
        try:
            wait_for(lambda: "again in 1" in log.read_text(), 60)  # refused, and waiting as told
            assert process.poll() is None, log.read_text()
            while process.poll() is None:  # the server's clock runs again: the bot's requests come back
                clock.at += 1
                time.sleep(0.05)
            assert process.wait(timeout=60) == 0, log.read_text()
        finally:
            process.kill()
            process.wait()
        said = log.read_text()
        assert ("finished: " if client == "example" else "1 games played.") in said, said
        assert hub_of_app(app).tables[table["table"]].session.match.over


def test_the_lichess_adapter_accepts_a_challenge_and_plays_the_game_to_its_end(tmp_path: Path) -> None:
    """examples/lichess_adapter.py (docs/BOTS.md, "From a lichess client"): a loop written as a berserk bot's, over
    racko's routes, hears another bot's challenge as lichess says it, accepts it, and plays the game to its end
    against that bot (`racko bot connect`). It runs with ``python -S``: the standard library only."""
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        hub = hub_of_app(app)
        _, token = hub.players.add_bot("Lichessy")
        _, other = hub.players.add_bot("Challenger")
        connect = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url, "--token", other]
        commands = [
            [sys.executable, "-S", str(ROOT / "examples" / "lichess_adapter.py"), url, token, "1"],
            [*connect, "--policy", "racko:easy", "--games", "1", "--challenges", "decline"],
        ]
        with clients(commands, tmp_path) as running:
            settings = {"variant": "classic", "players": 2, "target": 75, "two_player_rule": False}
            # Challenged as soon as it listens (before, the challenge is refused: bot-offline).
            made = wait_for(lambda: (answer := call(url, "/api/bot/challenge/Lichessy", other, settings))[0] == 200
                            and answer[1], 60)  # fmt: skip
            codes = running.wait()
        said = running.said()
        assert codes == [0, 0], said
        status, challenge = call(url, f"/api/bot/challenge/{made['id']}", other)
        assert status == 200 and challenge["state"] == "accepted", challenge
        assert f"finished: {challenge['table']}" in said[0] and "1 games played." in said[1], said
        played = hub.tables[challenge["table"]]
        assert played.session.match.over and {action.seat for action in played.session.match.actions} == {0, 1}


def test_a_stream_dropped_mid_game_resumes_with_no_event_lost_or_repeated(tmp_path: Path) -> None:
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Resumer")
        table_id = new_table(url, ["me", "easy"], token)["table"]
        path = f"/api/bot/game/stream/{table_id}"
        entries: list[dict[str, Any]] = []
        since = 0
        for _ in range(6):  # six connections, each dropped after the bot's move (the computer plays meanwhile)
            got = frames(url, f"{path}?since={since}", token, lambda frame: frame["type"] == "state")
            assert got[0]["type"] == "game" and got[0]["protocol"] == "v2" and got[0]["seat"] == 0
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


@pytest.mark.parametrize(
    ("variant", "seats", "field"), [("classic", ["easy"], "slot"), ("highlow", ["easy"] * 2, "position")]
)
def test_the_log_names_places_as_actions_do_and_protocol_v1_by_index(
    tmp_path: Path, variant: str, seats: list[str], field: str
) -> None:
    """Protocol v2 names a rack's place in the log as the bot's own moves name it; a stream opened with
    ``?protocol=v1`` gets the same log with each place by its index, as v1 sent it (docs/BOTS.md, Versions)."""
    with bot_server(tmp_path / "tables.sqlite3") as (url, app, _):
        _, token = hub_of_app(app).players.add_bot("Placer")
        table_id = new_table(url, ["me", *seats], token, variant=variant)["table"]
        path = f"/api/bot/game/stream/{table_id}"
        played: list[dict[str, Any]] = []
        for _ in range(40):  # the bot places a card at every turn it has: the place it chose, then the log's
            state = frames(url, f"{path}?since=0", token, lambda frame: frame["type"] == "state")[-1]
            view = state["view"]
            if view["legal"] and view["to_act"] == view["you"]:
                placing = [action for action in view["legal"] if field in action]
                action = (placing or view["legal"])[-1]
                status, _answer = call(
                    url, f"/api/bot/game/{table_id}/move", token, {"version": state["version"], "action": action}
                )
                assert status == 200
                played += [action] if placing else []
            if len(played) >= 3:
                break
        assert len(played) >= 3
        v2 = frames(url, f"{path}?since=0", token, lambda frame: frame["type"] == "state")
        v1 = frames(url, f"{path}?since=0&protocol=v1", token, lambda frame: frame["type"] == "state")
        assert (v2[0]["protocol"], v1[0]["protocol"]) == ("v2", "v1")
        mine = [
            entry[field]
            for entry in v2[-1]["log"]
            if entry.get("seat") == 0
            and entry["kind"] in ("exchanged", "placed")
            and entry.get("removed", 0) is not None
        ]
        assert mine[: len(played)] == [action[field] for action in played], (mine, played)
        common = min(len(v1[-1]["log"]), len(v2[-1]["log"]))  # the computer players may have moved in between
        for old, new in zip(v1[-1]["log"][:common], v2[-1]["log"][:common], strict=True):
            places = {key: value - 1 for key, value in new.items() if key in ("position", "first", "second")}
            places |= {"slot": SLOT_LABELS.index(new["slot"])} if "slot" in new else {}
            assert old == new | places, (old, new)
        assert call(url, f"/api/bot/game/stream/{table_id}?protocol=v3", token)[1]["code"] == "bad-protocol"


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
        assert status == 200 and account["name"] == "Robo" and account["bot"] and account["protocol"] == "v2"
        stored = sqlite3.connect(db).execute("SELECT token_hash FROM racko_bot_accounts").fetchall()
        assert stored == [(key_hash(token),)] and token not in db.read_bytes().decode("latin-1")
        # a page's cookie on the Bot API, a person's name posing as a bot, the bot's token on a page's socket
        assert call(url, "/api/bot/account", token, cookie="racko_player=abc")[1]["code"] == "cookie"
        assert call(url, "/api/bot/account", None, cookie="racko_player=abc")[0] == 403
        assert call(url, "/api/me", None, {"name": "Ann (bot)"})[0] == 409
        table = new_table(url, ["person", "me"], token, public=True)
        assert table["seats"][1]["name"] == "Robo (bot)"
        events = frames(url, "/api/bot/stream/event", token, lambda frame: frame["type"] == "gameStart")
        assert events[0] == {"type": "hello", "protocol": "v2", "bot": "Robo"}
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


def test_admin_bot_add_refuses_a_level_s_own_name_and_makes_all_the_bots_named_or_none(tmp_path: Path) -> None:
    """Issue 52: a bot's seat is marked as a bot, so "EasyBot" (which holds a level's name) is a bot's to take, while
    a level's own name, in any case or look-alike letters, is refused; several names are made together or not at all."""
    db = tmp_path / "tables.sqlite3"
    runner = CliRunner()
    hub_of(TestClient(table_app(db))).players.create("Ann")  # a person
    bots_made = lambda: sorted(  # noqa: E731
        line.split(None, 3)[3].removesuffix(" (bot)")
        for line in runner.invoke(cli_app, ["admin", "list", "--db", str(db)]).stdout.splitlines()
        if "(bot)" in line
    )
    for name in ("EasyBot", "Expert 2", "Mediumrare", "Hard Rock"):
        added = runner.invoke(cli_app, ["admin", "bot", "add", name, "--db", str(db)])
        assert added.exit_code == 0, added.output
        assert added.stdout.strip().splitlines()[-1].startswith("rb_")
    for name in ("Easy", "EXPERT", " medium ", "Ｅａｓｙ", "еasy", "Robo (bot)", "a forgotten player", "   "):
        refused = runner.invoke(cli_app, ["admin", "bot", "add", "Zed", name, "--db", str(db)])
        assert refused.exit_code == 2 and "nothing was made" in refused.stderr, (name, refused.output)
    before = bots_made()
    for names, code in [(["Bo", "Ann", "Cy"], 1), (["Bo", "Cy", "Bo"], 2)]:
        refused = runner.invoke(cli_app, ["admin", "bot", "add", *names, "--db", str(db)])
        assert refused.exit_code == code and "nothing was made" in refused.stderr, refused.output
        assert "rb_" not in refused.stdout
        assert bots_made() == before  # neither Bo nor Cy
    added = runner.invoke(cli_app, ["admin", "bot", "add", "Bo", "Cy", "--db", str(db)])
    assert added.exit_code == 0 and len(added.stdout.split()) == 2
    assert bots_made() == sorted([*before, "Bo", "Cy"])


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


@pytest.mark.parametrize("clock", [None, "fast"])
def test_a_table_with_a_bot_ends_at_its_limit_of_turns_clock_or_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: str | None
) -> None:
    """Every game ends: two programs that never go out stop at the limit (a short one here), the game ended
    ``limit``, placed by the rounds played, and the bot's games at once counted down again. A clock does not end
    it (the bot moves in time): the limit holds there too (two `racko bot connect --policy racko:easy` once played
    one round for ever at the bots' ladder's fast clock)."""
    from racko.web.table import turns

    monkeypatch.setattr(turns, "TURN_LIMIT", 9)
    with TestClient(table_app(tmp_path / "tables.sqlite3")) as client:
        hub = hub_of(client)
        robo, token = hub.players.add_bot("Robo")
        auth = {"Authorization": "Bearer " + token}
        form = {"variant": "classic", "players": 2, "seats": ["me", "easy"], "clock": clock or "none"}
        table_id = client.post("/api/bot/tables", json=form, headers=auth).json()["table"]
        assert hub.tables[table_id].clocked == (clock is not None)
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


def test_a_stream_that_keeps_ending_is_opened_again_after_a_growing_pause_and_one_that_lasted_at_once() -> None:
    """`racko bot connect` opens a stream that ended again; one that keeps ending soon after it opened is not asked
    for in a tight loop (each opening is a request against the bot's limit, and a loop like that once spent a bot's
    whole minute in CI): the pauses grow to a cap, and a stream that lasted resets them."""
    from racko.tools import botclient

    class Waits(threading.Event):
        def __init__(self) -> None:
            super().__init__()
            self.asked: list[float] = []

        def wait(self, timeout: float | None = None) -> bool:
            self.asked.append(0.0 if timeout is None else timeout)
            return False

    waits = Waits()
    pause = botclient.Backoff(waits)
    for _ in range(12):
        pause.opened()
        pause.ended()
    assert waits.asked[:3] == [botclient.STREAM_PAUSE, 2 * botclient.STREAM_PAUSE, 3 * botclient.STREAM_PAUSE]
    assert waits.asked[-1] == botclient.STREAM_PAUSE_MAX and sorted(waits.asked) == waits.asked
    pause.opened()
    pause.since -= botclient.STREAM_SHORT  # this one lasted
    pause.ended()
    assert waits.asked[-1] == 0.0
