"""``racko bench server`` as a real process (a few seconds, a handful of tables) and the browser review's timing of a
short game.  The group commit the server benchmark measures is tested in tests/web/store/test_store_group_commit.py."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from racko.cli import app
from racko.tools.bench.processes import free_port
from racko.tools.bench.review import browser_review_bench
from racko.web.tournaments.bench import tournament_bench_lines

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
    "clock",
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
    if "--port" in args:  # the port asked for is the one listened on (HAProxy's, in front of several processes)
        assert f"on 127.0.0.1:{args[args.index('--port') + 1]} " in run.stderr, run.stderr
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
    port = str(free_port())  # --port: the one a shared machine's operator chose
    figures, pid = _bench("--tables", "4", "--interval", "0.2", "--seconds", "3", "--warmup", "0.5", "--port", port)
    assert set(figures) == PACE_KEYS
    assert figures["benchmark"] == "server-pace" and figures["tables"] == 4
    assert figures["actions"] >= 20 and figures["actions_per_second"] > 5
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["errors"] == 0, figures["error_codes"]
    assert _gone(pid)


BOTS_KEYS = {
    "benchmark",
    "bots",
    "games_per_bot",
    "variant",
    "players_per_table",
    "target",
    "think_seconds",
    "sync",
    "cores",
    "load_average_before",
    "load_average_after",
    "server_rss_before_kb",
    "server_rss_after_kb",
    "tables",
    "games_expected",
    "games_finished",
    "seconds",
    "moves",
    "moves_per_second",
    "ack_p50_ms",
    "ack_p90_ms",
    "ack_p99_ms",
    "ack_max_ms",
    "server_move_p50_ms",
    "server_move_p99_ms",
    "events",
    "events_per_second",
    "server_cpu",
    "server_cpu_per_move_ms",
    "client_cpu",
    "errors",
    "error_codes",
    "browser",
    "browser_cpu_per_move_ms",
    "cpu_per_move_ratio",
}
BROWSER_KEYS = {
    "tables",
    "interval",
    "seconds",
    "moves",
    "moves_per_second",
    "p50_ms",
    "p99_ms",
    "server_cpu",
    "server_cpu_per_move_ms",
    "server_move_p50_ms",
    "server_move_p99_ms",
    "errors",
}


def test_bots_play_their_games_through_the_bot_api_and_are_measured_beside_the_browser() -> None:
    figures, pid = _bench("--bots", "4", "--games", "2", "--seconds", "1", "--warmup", "0")
    assert set(figures) == BOTS_KEYS and set(figures["browser"]) == BROWSER_KEYS
    assert figures["benchmark"] == "server-bots" and figures["tables"] == 2
    assert figures["games_expected"] == figures["games_finished"] == 4
    assert figures["errors"] == 0, figures["error_codes"]
    assert figures["moves"] >= 4 * 10  # four whole games: every turn is two moves, and a round is many turns
    assert 0 < figures["ack_p50_ms"] <= figures["ack_p99_ms"] <= figures["ack_max_ms"]
    assert 0 < figures["server_move_p50_ms"] <= figures["server_move_p99_ms"]  # the server's own, from /metrics
    assert figures["events"] > figures["moves"]  # every move is a state on both seats' streams
    assert figures["server_cpu_per_move_ms"] > 0 and figures["browser_cpu_per_move_ms"] > 0
    assert figures["browser"]["moves"] > 0 and figures["browser"]["errors"] == 0
    assert _gone(pid)


def test_a_port_in_use_is_refused_before_anything_starts() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        for more in ([], ["--bots", "2"]):
            refused = CliRunner().invoke(app, ["bench", "server", "--port", port, *more])
            assert refused.exit_code == 1 and f"port {port} of 127.0.0.1 is in use" in refused.stderr, refused.output


def test_bots_come_in_pairs_on_one_process() -> None:
    runner = CliRunner()
    odd = runner.invoke(app, ["bench", "server", "--bots", "3"])
    assert odd.exit_code == 2 and "even number" in odd.stderr
    several = runner.invoke(app, ["bench", "server", "--bots", "4", "--processes", "2", "--db", "postgres"])
    assert several.exit_code == 2 and "one process" in several.stderr


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
        "--port",
        str(free_port()),
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


CLOCK_KEYS = {
    "benchmark", "turn_based_tables", "real_time_tables", "due_tables", "real_time_preset", "turn_based_preset",
    "window_seconds", "rest_seconds", "database", "cores", "load_average_before", "load_average_after",
    "server_rss_empty_kb", "server_cpu_empty", "start_seconds", "server_rss_turn_based_kb",
    "memory_per_turn_based_table_kb", "server_cpu_at_rest", "real_time_open_seconds", "server_rss_real_time_kb",
    "server_cpu_real_time_waiting", "server_cpu_deadlines", "server_rss_end_kb", "timeouts", "late_p50_ms",
    "late_p99_ms", "late_max_ms", "met",
} | {
    f"{kind}_{key}"
    for kind in ("turn_based", "real_time")
    for key in ("timeouts", "tables_timed_out", "late_p50_ms", "late_p99_ms", "late_max_ms", "missed", "early")
}  # fmt: skip


def test_the_clocks_benchmark_plays_every_deadline_once() -> None:
    code = "import sys; sys.argv[0] = 'racko'; from racko.cli import main; main()"
    arguments = ["--turn-based", "20", "--real-time", "2", "--due", "6", "--window", "2", "--rest", "1", "--json"]
    run = subprocess.run(
        [sys.executable, "-c", code, "bench", "clocks", *arguments], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout)
    assert set(figures) == CLOCK_KEYS
    assert figures["benchmark"] == "server-clocks" and figures["turn_based_tables"] == 20
    # Each due table's turn was played by the clock once (a second would be a second clock turn there), none early,
    # none missed; the idle tables and the real-time ones (their first deadline 45 s away) had none.
    assert figures["turn_based_timeouts"] == figures["turn_based_tables_timed_out"] == 6
    assert figures["turn_based_missed"] == figures["turn_based_early"] == 0
    assert figures["real_time_timeouts"] == figures["real_time_missed"] == 0
    assert 0 <= figures["turn_based_late_p50_ms"] <= figures["turn_based_late_max_ms"] < 10_000
    assert figures["server_rss_turn_based_kb"] > 0 and figures["server_cpu_at_rest"] is not None
    pids = [int(pid) for pid in re.findall(r"server pid (\d+)", run.stderr)]
    assert len(pids) == 2 and all(_gone(pid) for pid in pids)


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
    assert runner.invoke(app, ["bench", "server", "--clock", "days-1"]).exit_code == 2
    assert runner.invoke(app, ["bench", "clocks", "--preset", "days-1"]).exit_code == 2


def test_the_browser_review_is_timed_on_a_game_played_at_a_real_server() -> None:
    figures = browser_review_bench(target=100, review_playouts=2)  # two rounds or so, each move judged roughly
    assert set(figures) == {
        "benchmark", "round_seconds", "round_decisions", "game_seconds", "game_rounds", "game_decisions",
        "load_average",
    }  # fmt: skip
    assert figures["benchmark"] == "review-in-the-browser" and figures["game_rounds"] >= 2
    assert 0 < figures["round_decisions"] < figures["game_decisions"]  # one seat's first round; every seat's game
    assert figures["round_seconds"] > 0 and figures["game_seconds"] > 0


def test_the_tournaments_benchmark_pairs_a_swiss_and_runs_an_arena() -> None:
    """A small run of ``racko bench tournament``: its stable keys, a Swiss round with no repeat meeting, an arena whose
    players were seated again and which finished."""
    done = CliRunner().invoke(
        app, ["bench", "tournament", "--players", "60", "--arena-players", "12", "--minutes", "20", "--json"]
    )
    assert done.exit_code == 0, done.output
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    for sides in ("2", "4"):
        swiss = figures["swiss"][sides]
        assert set(swiss) == {
            "players", "seats", "round", "seconds", "cpu_seconds", "seconds_each", "tables", "byes", "repeats",
            "mean_points_gap", "earlier_rounds_seconds",
        }  # fmt: skip
        assert swiss["players"] == 60 and swiss["round"] == 5 and swiss["repeats"] == 0
        assert swiss["tables"] * int(sides) + swiss["byes"] == 60
    arena = figures["arena"]
    assert arena["status"] == "finished" and arena["games"] > 12 and arena["seated_again"] > 6
    assert 0 <= arena["next_seat_seconds_p50"] <= arena["next_seat_seconds_p99"] <= arena["next_seat_seconds_max"]
    assert {
        "look_ms_p50",
        "look_ms_p99",
        "look_cpu_ms_p50",
        "look_cpu_ms_p99",
        "result_ms_p50",
        "result_ms_p99",
    } <= set(arena)
    assert len(tournament_bench_lines(figures)) == 3
