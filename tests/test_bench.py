"""``racko bench server`` as a real process (a few seconds, a handful of tables), the browser review's timing of a
short game, and the group commit the server benchmark measures: a move is told only once committed, and a move the
database refuses is forgotten."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from typer.testing import CliRunner

from racko.cli import app
from racko.families import family_of
from racko.match import Match
from racko.rules import Rules
from racko.tools.bench.review import browser_review_bench
from racko.web.app import create_app
from racko.web.store import SqliteTables
from test_web import _until

PACE_KEYS = {
    "benchmark",
    "tables",
    "seats_per_table",
    "players",
    "sync",
    "processes",
    "through_proxy",
    "database",
    "p99_limit_ms",
    "cores",
    "load_average_before",
    "load_average_after",
    "interval",
    "seconds",
    "open_seconds",
    "actions",
    "actions_per_second",
    "offered_per_second",
    "p50_ms",
    "p90_ms",
    "p99_ms",
    "max_ms",
    "met",
    "server_cpu",
    "proxy_cpu",
    "database_cpu",
    "client_cpu",
    "server_rss_before_kb",
    "server_rss_open_kb",
    "server_rss_after_kb",
    "memory_per_table_kb",
    "games_finished",
    "errors",
    "error_codes",
}
MAX_KEYS = (PACE_KEYS - {"interval", "seconds", "actions", "actions_per_second", "offered_per_second"}) - {
    "p50_ms",
    "p90_ms",
    "p99_ms",
    "max_ms",
    "met",
    "server_cpu",
    "proxy_cpu",
    "database_cpu",
    "client_cpu",
} | {"steps", "step_seconds", "max_actions_per_second", "p99_at_max_ms", "server_cpu_at_max", "client_cpu_at_max"}


def _bench(*args: str) -> tuple[dict[str, Any], int]:
    """Run the command in its own process; its figures and the server's process id."""
    code = "import sys; sys.argv[0] = 'racko'; from racko.cli import main; main()"
    run = subprocess.run(
        [sys.executable, "-c", code, "bench", "server", "--json", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    found = re.search(r"server pid ([\d, ]+)", run.stderr)
    assert found, run.stderr
    return json.loads(run.stdout), int(found.group(1).split(",")[0])


def _gone(pid: int) -> bool:
    path = Path(f"/proc/{pid}/status")
    if not Path("/proc").exists():
        return True
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if not path.exists() or "zombie" in path.read_text():
            return True
        time.sleep(0.1)
    return False


def test_the_server_benchmark_measures_actions_and_stops_its_server() -> None:
    figures, pid = _bench("--tables", "4", "--interval", "0.2", "--seconds", "3", "--warmup", "0.5")
    assert set(figures) == PACE_KEYS
    assert figures["benchmark"] == "server-pace" and figures["tables"] == 4
    assert figures["actions"] >= 20 and figures["actions_per_second"] > 5
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["errors"] == 0, figures["error_codes"]
    assert _gone(pid)


def test_finding_the_most_actions_a_second_is_bounded_in_steps() -> None:
    figures, pid = _bench(
        "--find-max", "--tables", "4", "--start-rate", "8", "--step-seconds", "1", "--max-steps", "2", "--warmup", "0.5"
    )
    assert set(figures) == MAX_KEYS
    assert figures["benchmark"] == "server-max" and 1 <= len(figures["steps"]) <= 4  # a failed step is tried twice
    assert figures["steps"][0]["actions"] > 0
    assert _gone(pid)


def test_several_processes_on_postgresql_are_measured_through_the_proxy() -> None:
    figures, pid = _bench(
        "--tables",
        "4",
        "--interval",
        "0.2",
        "--seconds",
        "2",
        "--warmup",
        "0.5",
        "--processes",
        "2",
        "--db",
        "postgres",
    )
    assert (figures["processes"], figures["through_proxy"], figures["database"]) == (2, True, "postgresql")
    assert figures["actions"] >= 10 and figures["errors"] == 0, figures["error_codes"]
    # HAProxy relaying some twenty actions a second may use less than one clock tick (10 ms) in two seconds: the
    # figure is measured (not None) but may read 0.0; the database always does work enough to show.
    assert figures["proxy_cpu"] is not None and figures["proxy_cpu"] >= 0
    assert figures["database_cpu"] is not None and figures["database_cpu"] > 0
    assert _gone(pid)


LOBBY_KEYS = {
    "lobby_connections",
    "lobby_probes",
    "lobby_update_p50_ms",
    "lobby_update_p99_ms",
    "lobby_update_max_ms",
    "lobby_updates_missed",
    "quick_people",
    "quick_seated",
    "quick_unseated",
    "quick_wait_p50_ms",
    "quick_wait_p99_ms",
    "quick_wait_max_ms",
    "quick_errors",
}


def test_the_lobby_is_measured_in_its_connections_and_quick_play_in_its_waits() -> None:
    figures, pid = _bench(
        "--tables", "4", "--interval", "0.5", "--seconds", "4", "--warmup", "0.5", "--lobbies", "5", "--quick", "8"
    )
    assert set(figures) == PACE_KEYS | LOBBY_KEYS
    assert figures["lobby_connections"] == 5 and figures["lobby_probes"] >= 1
    assert figures["lobby_updates_missed"] == 0
    assert 0 < figures["lobby_update_p50_ms"] <= figures["lobby_update_p99_ms"] <= figures["lobby_update_max_ms"]
    assert figures["quick_people"] == 8 and figures["quick_seated"] >= 6 and figures["quick_errors"] == {}
    assert 0 < figures["quick_wait_p50_ms"] <= figures["quick_wait_max_ms"]
    assert _gone(pid)


def test_server_options_and_engine_options_do_not_mix() -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["bench", "engine", "--tables", "5"]).exit_code == 2
    assert runner.invoke(app, ["bench", "server", "--rounds", "5"]).exit_code == 2
    assert runner.invoke(app, ["bench", "server", "--sync", "sometimes"]).exit_code == 2
    several = runner.invoke(app, ["bench", "server", "--processes", "3"])
    assert several.exit_code == 2 and "--db postgres" in several.output
    assert runner.invoke(app, ["bench", "server", "--db", "mysql://x"]).exit_code == 2
    assert runner.invoke(app, ["bench", "engine", "--lobbies", "5"]).exit_code == 2
    assert runner.invoke(app, ["bench", "server", "--find-max", "--quick", "5"]).exit_code == 2


def test_the_browser_review_is_timed_on_a_game_played_at_a_real_server() -> None:
    figures = browser_review_bench(target=100, review_playouts=2)  # two rounds or so, each move judged roughly
    assert set(figures) == {
        "benchmark", "round_seconds", "round_decisions", "game_seconds", "game_rounds", "game_decisions",
        "load_average",
    }  # fmt: skip
    assert figures["benchmark"] == "review-in-the-browser" and figures["game_rounds"] >= 2
    assert 0 < figures["round_decisions"] < figures["game_decisions"]  # one seat's first round; every seat's game
    assert figures["round_seconds"] > 0 and figures["game_seconds"] > 0


# --- the group commit ------------------------------------------------------------------------------------------


def _committed_version(store: SqliteTables, table_id: str) -> int:
    """The version of the game as the journal keeps it (what a restarted server would resume)."""
    stored = store.load(table_id)
    assert stored is not None
    rules = Rules.from_dict(stored.setup["rules"])
    match = Match(rules, seed=stored.setup["seed"])
    family = family_of(rules)
    for raw in stored.actions:
        match.apply(family.action_from_json(raw))
    return sum(len(round_.log) for round_ in match.rounds)


def test_grouped_moves_reach_the_journal_before_anybody_sees_them(tmp_path: Path) -> None:
    store = SqliteTables(tmp_path / "t.sqlite3", grouped=True)
    with TestClient(create_app(store, pace=0.0, frames_per_second=10000.0)) as client:
        links = client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "easy"]}).json()
        with client.websocket_connect(f"/ws/{links['table']}") as ws:
            ws.send_json({"type": "hello", "token": links["seats"][0]["token"]})
            state = _until(ws, "state")
            rng = random.Random(3)
            seen = 0
            for _ in range(80):
                assert state["version"] <= _committed_version(store, links["table"])
                seen += 1
                legal = state["view"]["legal"]
                if legal:
                    action = {key: value for key, value in rng.choice(legal).items() if key != "seat"}
                    ws.send_json({"type": "act", "version": state["version"], "action": action})
                state = _until(ws, "state")
            assert seen == 80 and state["version"] > 40


def _until_error(ws: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    states = []
    for _ in range(50):
        frame = ws.receive_json()
        if frame["type"] == "error":
            return dict(frame), states
        if frame["type"] == "state":
            states.append(frame)
    raise AssertionError("no error frame")


def test_a_move_the_database_refuses_is_forgotten_and_said(tmp_path: Path) -> None:
    store = SqliteTables(tmp_path / "t.sqlite3", grouped=True)
    with TestClient(create_app(store, pace=0.0, frames_per_second=10000.0)) as client:
        links = client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "person"]}).json()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[links["table"]]
        actor = table.session.to_act
        with client.websocket_connect(f"/ws/{links['table']}") as ws:
            ws.send_json({"type": "hello", "token": links["seats"][actor]["token"]})
            state = _until(ws, "state")
            if actor == 1:
                ws.send_json({"type": "name", "name": "Bob"})
                state = _until(ws, "state")
            with store._using:  # the disk is full, as far as the journal knows
                store._db.execute(
                    "CREATE TRIGGER full BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'disk is full'); END"
                )
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
            error, states = _until_error(ws)
            assert error["code"] == "not-saved" and "disk is full" in error["message"]
            assert states and states[-1]["version"] == state["version"]  # the table as the journal keeps it
            fresh = hub.tables[links["table"]]
            assert fresh is not table and fresh.version == state["version"]
            assert _committed_version(store, links["table"]) == state["version"]
            with store._using:
                store._db.execute("DROP TRIGGER full")
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
            assert _until(ws, "state")["version"] > state["version"]
            assert _committed_version(store, links["table"]) > state["version"]
