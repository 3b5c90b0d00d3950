"""The research arena: reproducible runs for any number of jobs, rotating seats, statistics, and the commands."""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner, Result

from helpers import CLASSIC_ONLY_BOT, arena_app, register_classic_only_bot
from racko.bots import base
from racko.bots.bucket import BucketBot
from racko.errors import RackoError
from racko.families import AnyObservation
from racko.observation import Observation
from racko.tools import arena
from racko.tools.arena import ArenaReport, run_arena, run_solo, wilson_interval
from racko.tools.arena_commands import logged_progress, time_left

ARENA_KEYS = {"results", "variant", "players", "mode", "deals", "capped", "seed", "seconds", "backend"}
RESULT_KEYS = {"bot", "wins", "played", "win_rate", "ci95", "mean_score", "mean_turns", "decision_ms"}
SOLO_KEYS = {"bot", "rounds", "mean_turns", "ci95", "median_turns", "p90_turns", "capped", "decision_ms", "backend"}
NO_RULE = {"two_player_rule": False}
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


@pytest.fixture(autouse=True)
def no_processes_left_behind() -> Iterator[None]:
    yield
    assert multiprocessing.active_children() == []


def comparable(report: ArenaReport) -> dict[str, Any]:
    """Everything a run found except how long it took."""
    data = report.to_json()
    del data["seconds"]
    for row in data["results"]:
        del row["decision_ms"]  # how long the bots took to decide, like the seconds, differs between runs
    data["seat_counts"] = [row.seat_counts for row in report.results]
    data["score_counts"] = [row.score_counts for row in report.results]
    data["totals"] = [(row.score_total, row.rounds, row.turns_total) for row in report.results]
    return data


# --- Reproducibility and jobs ------------------------------------------------------------------


def test_a_seed_reproduces_the_run_and_the_number_of_jobs_changes_nothing() -> None:
    kwargs: dict[str, Any] = {"rounds": 120, "seed": 7, "options": NO_RULE}
    one = run_arena(["easy", "random", "easy"], "classic", 3, jobs=1, **kwargs)
    again = run_arena(["easy", "random", "easy"], "classic", 3, jobs=1, **kwargs)
    two = run_arena(["easy", "random", "easy"], "classic", 3, jobs=2, **kwargs)
    assert comparable(one) == comparable(again) == comparable(two)
    other_seed = run_arena(["easy", "random", "easy"], "classic", 3, jobs=2, rounds=120, seed=8, options=NO_RULE)
    assert comparable(other_seed) != comparable(one)


def test_games_are_reproducible_for_any_number_of_jobs() -> None:
    one = run_arena(["easy", "easy"], "classic", 2, games=6, seed=3, jobs=1, options=NO_RULE)
    two = run_arena(["easy", "easy"], "classic", 2, games=6, seed=3, jobs=2, options=NO_RULE)
    assert comparable(one) == comparable(two)
    assert one.mode == "games" and one.deals == 6
    assert sum(row.wins for row in one.results) == 6  # somebody wins every game
    assert all(row.mean_score >= 0 for row in one.results)
    assert one.results[0].rounds >= 6 * 2  # a game to 500 takes several rounds


def test_solo_is_reproducible_for_any_number_of_jobs() -> None:
    one = run_solo("easy", rounds=300, seed=2, jobs=1)
    two = run_solo("easy", rounds=300, seed=2, jobs=2)
    first, second = one.to_json(), two.to_json()
    speed = first.pop("decision_ms"), second.pop("decision_ms")  # times differ between runs
    assert first == second
    assert one.turn_counts == two.turn_counts
    assert all(0 < times["median"] <= times["p99"] for times in speed)
    decisions = sum(one.decision_times.values())  # at least one a turn
    assert decisions == sum(two.decision_times.values()) >= sum(turns * n for turns, n in one.turn_counts)


# --- Seats ----------------------------------------------------------------------------------------


class _Recorder(BucketBot):
    """Plays the bucket policy and notes (its name, its seat, the dealer) on its first move."""

    seen: ClassVar[list[tuple[str, int, int]]] = []

    def act(self, observation: AnyObservation) -> Any:
        assert isinstance(observation, Observation)
        if not getattr(self, "noted", False):
            self.noted = True
            _Recorder.seen.append((self.name, observation.seat, observation.public.dealer))
        return super().act(observation)


@pytest.fixture
def recorders() -> Iterator[list[str]]:
    saved = dict(base._REGISTRY)
    names = []
    for letter in "abc":
        cls = type(f"Recorder{letter.upper()}", (_Recorder,), {"name": f"recorder-{letter}", "description": "test"})
        base.register(cls)
        names.append(f"recorder-{letter}")
    _Recorder.seen.clear()
    yield names
    base._REGISTRY.clear()
    base._REGISTRY.update(saved)


def test_every_bot_sits_in_every_seat_and_at_every_distance_from_the_dealer_equally(recorders: list[str]) -> None:
    report = run_arena(recorders, "classic", 3, rounds=9 * 4, seed=1, jobs=1, options=NO_RULE)
    seen = _Recorder.seen
    assert len(seen) == 9 * 4 * 3  # every bot of every deal moved
    for name in recorders:
        mine = [(seat, dealer) for bot, seat, dealer in seen if bot == name]
        assert Counter(seat for seat, _ in mine) == {0: 12, 1: 12, 2: 12}
        assert Counter((seat - dealer) % 3 for seat, dealer in mine) == {0: 12, 1: 12, 2: 12}
        assert set(Counter(mine).values()) == {4}  # each (seat, dealer) pair equally often
    assert [row.seat_counts for row in report.results] == [(12, 12, 12)] * 3
    assert report.balanced


def test_seat_counts_are_reported_and_an_imbalance_is_flagged() -> None:
    report = run_arena(["easy", "random"], "classic", 2, rounds=41, seed=0, jobs=2, options=NO_RULE)
    assert not report.balanced
    assert [row.seat_counts for row in report.results] == [(21, 20), (20, 21)]
    assert all(row.played == 41 for row in report.results)


def test_partners_are_reported_per_team_and_stay_together() -> None:
    report = run_arena(["easy", "random", "easy", "random"], "partners", 4, rounds=40, seed=0, jobs=2)
    assert [row.bot for row in report.results] == ["easy+easy", "random+random"]
    assert [row.entries for row in report.results] == [(0, 2), (1, 3)]
    assert [row.seat_counts for row in report.results] == [(20, 20, 20, 20)] * 2  # two members, 40 deals
    easy, rand = report.results
    assert easy.wins + rand.wins + report.capped == 40
    assert easy.win_rate > 0.9


def test_duplicate_bots_are_told_apart() -> None:
    report = run_arena(["easy", "easy", "random"], "classic", 3, rounds=3, jobs=1)
    assert [row.bot for row in report.results] == ["easy", "easy#2", "random"]


# --- Figures --------------------------------------------------------------------------------------


def test_easy_clearly_beats_random() -> None:
    report = run_arena(["easy", "random"], "classic", 2, rounds=300, seed=0, jobs=2, options=NO_RULE)
    easy, rand = report.results
    assert easy.win_rate > 0.9
    assert easy.ci95[0] > rand.ci95[1]
    assert easy.mean_score > rand.mean_score
    assert report.capped == 0
    assert 10 < easy.mean_turns < 60


def test_wilson_interval_known_values() -> None:
    def rounded(wins: int, played: int) -> tuple[float, float]:
        lo, hi = wilson_interval(wins, played)
        return round(lo, 4), round(hi, 4)

    assert rounded(50, 100) == (0.4038, 0.5962)
    assert rounded(81, 263) == (0.2553, 0.3662)  # Newcombe (1998), table I
    assert rounded(1, 10) == (0.0179, 0.4042)
    assert rounded(0, 10) == (0.0, 0.2775)
    assert rounded(10, 10) == (0.7225, 1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_solo_figures_for_the_bucket_policy() -> None:
    report = run_solo("easy", cards=40, rounds=2000, seed=0, jobs=2)
    data = report.to_json()
    assert set(data) == SOLO_KEYS
    assert data["bot"] == "easy" and data["rounds"] == 2000 and data["capped"] == 0
    # Measured over 10,000 rounds (seed 0): mean 14.69 turns, median 14, 90th percentile 21.
    assert 13 < data["mean_turns"] < 16.5
    lo, hi = data["ci95"]
    assert lo < data["mean_turns"] < hi and hi - lo < 0.5
    assert data["median_turns"] <= data["p90_turns"]
    assert sum(count for _, count in report.turn_counts) == 2000


def test_solo_counts_capped_rounds() -> None:
    report = run_solo("random", rounds=20, seed=0, jobs=1, turn_cap=30)
    assert report.capped > 0
    assert report.p90_turns == 30


def test_bad_requests_raise_racko_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RackoError, match="one bot per seat"):
        run_arena(["easy", "easy"], "classic", 3, rounds=3)
    with pytest.raises(RackoError, match="Unknown bot"):
        run_arena(["easy", "nobody"], "classic", 2, rounds=3)
    with pytest.raises(RackoError, match="played by"):
        run_arena(["easy", "easy"], "partners", 2, rounds=3)
    with pytest.raises(RackoError, match="not both"):
        run_arena(["easy", "easy"], "classic", 2, rounds=3, games=3)
    with pytest.raises(RackoError, match="solo"):
        run_arena(["easy"], "classic", 1, rounds=3)
    classic_only = register_classic_only_bot(monkeypatch)
    for jobs in (1, 2):  # a bot that refuses High-Low does so from its first move, in a worker too
        with pytest.raises(RackoError, match="High-Low"):
            run_arena([classic_only, "random", "random"], "highlow", 3, rounds=30, jobs=jobs)


def test_progress_is_reported_up_to_the_total() -> None:
    calls: list[tuple[int, int]] = []
    run_arena(
        ["easy", "random"], "classic", 2, rounds=100, jobs=2, options=NO_RULE, progress=lambda *a: calls.append(a)
    )
    assert calls[0] == (0, 100) and calls[-1] == (100, 100)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_the_time_left_is_the_average_pace_so_far() -> None:
    assert time_left(0.0, 0, 100) == "ETA: estimating"  # nothing done yet: no figure pretends to know
    assert time_left(30.0, 25, 100) == "ETA: 1:30"  # 25 parts in 30 s: 75 more take 90 s
    assert time_left(3600.0, 1, 3) == "ETA: 2:00:00"
    assert time_left(12.0, 100, 100) == "ETA: 0:00"


def test_a_run_into_a_log_says_now_and_then_how_far_it_is_and_a_short_run_says_nothing() -> None:
    lines: list[str] = []
    update = logged_progress("Rounds", lines.append, every=0.0)
    for done in (0, 1, 4):
        update(done, 4)
    assert lines[0] == "racko: rounds 0 of 4 done in 0:00, ETA: estimating"
    assert lines[1].startswith("racko: rounds 1 of 4 done in 0:00, ETA: ")
    assert len(lines) == 2  # not at the end: the result follows
    quiet: list[str] = []
    update = logged_progress("Rounds", quiet.append)  # a line a minute at most
    for done in range(5):
        update(done, 4)
    assert quiet == []


# --- The commands ---------------------------------------------------------------------------------


runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(arena_app(), list(args))


def assert_clean_failure(result: Result, text: str) -> None:
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("racko: "), result.stderr
    assert text in lines[0]


def test_arena_json_has_exactly_the_documented_keys() -> None:
    result = run("arena", "--bots", "easy,random", "--rounds", "60", "--no-two-player-rule", "--jobs", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == ARENA_KEYS
    assert data["mode"] == "rounds" and data["deals"] == 60 and data["variant"] == "classic" and data["players"] == 2
    assert [row["bot"] for row in data["results"]] == ["easy", "random"]
    for row in data["results"]:
        assert set(row) == RESULT_KEYS
        assert row["played"] == 60 and len(row["ci95"]) == 2
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
        assert set(row["decision_ms"]) == {"median", "p99"}
        assert 0 < row["decision_ms"]["median"] <= row["decision_ms"]["p99"]


def test_arena_json_for_games() -> None:
    result = run("arena", "--bots", "easy,easy,random", "--games", "3", "--target", "150", "--turn-cap", "0", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "games" and data["deals"] == 3
    assert sum(row["wins"] for row in data["results"]) == 3
    assert result.stderr == ""  # 3 games for 3 players: balanced, no note


def test_arena_prints_a_table() -> None:
    result = run("arena", "--bots", "easy,random", "--rounds", "40", "--no-two-player-rule", "--seed", "4")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Classic Rack-O, 2 players: 40 rounds, seed 4" in out
    for header in ("Bot", "Rounds won", "Win %", "95 % CI", "Mean score", "Mean turns"):
        assert header in out
    assert "easy" in out and "random" in out and "/ 40" in out
    assert "Decision time in ms (median/99th percentile): easy " in out


def test_arena_notes_an_imbalance_on_stderr() -> None:
    result = run("arena", "--bots", "easy,random", "--rounds", "5", "--no-two-player-rule", "--json")
    assert result.exit_code == 0, result.output
    assert "not a multiple of 2 players" in result.stderr
    json.loads(result.stdout)


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (("--bots", "easy,nobody"), "Unknown bot 'nobody'"),
        (("--bots", "easy,easy", "--variant", "partners"), "Partners Rack-O is played by 4 players"),
        (("--bots", "easy,easy", "--variant", "nope"), "Unknown variant"),
        (("--bots", "easy,easy", "--players", "3"), "2 bots named for 3 players"),
        (("--bots", f"{CLASSIC_ONLY_BOT},random,random", "--variant", "highlow", "--jobs", "2"), "High-Low"),
        (("--rounds", "3", "--games", "3"), "not both"),
        (("--rounds", "0"), "positive"),
        (("--jobs", "0"), "--jobs"),
        (("--turn-cap", "-1"), "--turn-cap"),
        (("--games", "2", "--target", "0"), "target"),
    ],
)
def test_arena_errors_are_one_line_and_exit_2(
    args: tuple[str, ...], text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_classic_only_bot(monkeypatch)
    assert_clean_failure(run("arena", *args), text)


@pytest.mark.skipif(not HAS_MATPLOTLIB, reason="matplotlib is not installed")
def test_arena_plot_writes_a_png(tmp_path: Path) -> None:
    target = tmp_path / "arena.png"
    result = run("arena", "--bots", "easy,random,random", "--rounds", "30", "--plot", str(target), "--json")
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(json.loads(result.stdout)) == ARENA_KEYS


def test_arena_plot_without_matplotlib_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    assert_clean_failure(run("arena", "--rounds", "2", "--plot", str(tmp_path / "x.png")), "racko[plot]")


def test_solo_json_and_text() -> None:
    result = run("solo", "--bot", "easy", "--rounds", "200", "--jobs", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == SOLO_KEYS and data["rounds"] == 200
    text = run("solo", "--rounds", "50", "--cards", "60")
    assert text.exit_code == 0, text.output
    assert text.stdout.startswith("easy alone with 60 cards: 50 rounds, seed 0.")
    assert "Mean turns to Rack-O" in text.stdout and "Decision time: median" in text.stdout


@pytest.mark.parametrize(
    ("args", "text"),
    [(("--bot", "nobody"), "Unknown bot"), (("--cards", "5"), "too small"), (("--rounds", "0"), "positive")],
)
def test_solo_errors_are_one_line_and_exit_2(args: tuple[str, ...], text: str) -> None:
    assert_clean_failure(run("solo", *args), text)


def test_plot_report_needs_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    report = run_arena(["easy", "random"], "classic", 2, rounds=2, jobs=1, options=NO_RULE)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails as if it were missing
    with pytest.raises(RackoError, match=r"racko\[plot\]"):
        arena.plot_report(report, tmp_path / "x.png")


def test_the_interval_of_a_mean_never_goes_below_what_a_value_can_be() -> None:
    from racko.tools.arena import mean_interval

    low, high = mean_interval([0, 0, 0, 30])
    assert low == 0.0 and high > 7.5
