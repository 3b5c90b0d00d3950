"""The ``racko`` command: replay, bench, demo and variants, through typer's CliRunner and as a real process."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import racko
from helpers import CLASSIC_ONLY_BOT, register_classic_only_bot
from racko import bots
from racko.bots.runner import play_match, play_round
from racko.cli import app
from racko.match import Match
from racko.record import GameRecord
from racko.rules import VARIANTS, variant

ALL_BOTS = "random, easy, medium, hard, expert, expert-eager, master"

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
FIGURE_3 = EXAMPLES / "figure3.json"
ILLEGAL = EXAMPLES / "illegal-discard-after-take.json"
FROM_THE_DEAL = EXAMPLES / "racko-from-the-deal.json"

REPLAY_KEYS = {"rounds", "totals", "winner", "over", "teams", "actions"}
BENCH_KEYS = {"benchmark", "rounds", "seconds", "rounds_per_second", "batch_rates", "mean_turns", "capped"}

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def command(*args: str) -> subprocess.CompletedProcess[str]:
    """The command as a real process, in whichever environment runs the tests."""
    return subprocess.run(
        [sys.executable, "-c", "from racko.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_clean_failure(result: Result, code: int = 2) -> None:
    """Exited with ``code`` through typer (no exception escaped) and printed no traceback."""
    assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# --- replay ----------------------------------------------------------------------------------


def test_replay_prints_each_round_the_totals_and_the_state_of_the_game() -> None:
    result = run("replay", str(FIGURE_3))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 4
    assert lines[0] == "Classic Rack-O, 2 players, target 500."
    assert re.fullmatch(r"Round 1: Bob went Rack-O after 1 turns?; Ann 30, Bob 75\.", lines[1])
    assert lines[2] == "Totals: Ann 30, Bob 75."
    assert lines[3] == "The game is not finished."


def test_replay_names_the_winner_of_a_finished_game() -> None:
    result = run("replay", str(FROM_THE_DEAL))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Classic Rack-O, 3 players, target 75.",
        "Round 1: seat 1 went Rack-O after 0 turns; seat 1 75, seat 2 50, seat 3 5.",
        "Totals: seat 1 75, seat 2 50, seat 3 5.",
        "Winner: seat 1.",
    ]


def test_replay_json_has_exactly_the_documented_keys_and_values() -> None:
    result = run("replay", "--json", str(FIGURE_3))
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert set(summary) == REPLAY_KEYS
    assert summary == {
        "rounds": [{"scores": {"0": 30, "1": 75}, "winner": 1, "capped": False}],
        "totals": {"0": 30, "1": 75},
        "winner": None,
        "over": False,
        "teams": None,
        "actions": 2,
    }


def test_replay_json_of_a_finished_game() -> None:
    summary = json.loads(run("replay", str(FROM_THE_DEAL), "--json").stdout)
    assert summary == {
        "rounds": [{"scores": {"0": 75, "1": 50, "2": 5}, "winner": 0, "capped": False}],
        "totals": {"0": 75, "1": 50, "2": 5},
        "winner": 0,
        "over": True,
        "teams": None,
        "actions": 0,
    }


def test_replay_json_of_a_partners_game_with_capped_rounds(tmp_path: Path) -> None:
    rules = variant("partners").rules(4, turn_cap=40, target=150)
    match = Match(rules, seed=11)
    outcome = play_match(match, [bots.create(name, seed=seat) for seat, name in enumerate(["easy", "random"] * 2)])
    names = ("Ann", "Bob", "Cy", "Di")
    path = tmp_path / "partners.json"
    GameRecord.of(match, players=names).save(path)

    summary = json.loads(run("replay", "--json", str(path)).stdout)
    assert set(summary) == REPLAY_KEYS
    assert summary["rounds"] == [
        {"scores": {str(seat): score for seat, score in enumerate(r.scores)}, "winner": r.winner, "capped": r.capped}
        for r in match.results
    ]
    assert summary["totals"] == {"0": match.totals[0], "1": match.totals[1]}
    assert summary["winner"] == outcome.winner
    assert summary["over"] is True
    assert summary["teams"] == [[0, 2], [1, 3]]
    assert summary["actions"] == len(match.actions)

    lines = run("replay", str(path)).output.splitlines()
    assert lines[0] == "Partners Rack-O, 4 players, target 150."
    assert len(lines) == 1 + len(match.results) + 2
    teams = ["Ann & Cy", "Bob & Di"]
    assert lines[-2] == f"Totals: {teams[0]} {match.totals[0]}, {teams[1]} {match.totals[1]}."
    assert lines[-1] == f"Winner: {teams[outcome.winner]}."


def test_an_illegal_record_is_refused_with_the_action_number_and_the_reason() -> None:
    result = run("replay", str(ILLEGAL))
    assert_clean_failure(result, code=1)
    assert result.stdout == ""
    assert result.stderr == (
        f"racko: {ILLEGAL}: Action 2 (round 1, seat 1: discard the card in hand) is illegal: "
        "You took 29 from the discard pile, so you must place it in your rack.\n"
    )


def test_an_illegal_record_with_json_gives_the_error_as_json() -> None:
    result = run("replay", "--json", str(ILLEGAL))
    assert_clean_failure(result, code=1)
    assert json.loads(result.stdout) == {
        "error": "Action 2 (round 1, seat 1: discard the card in hand) is illegal: "
        "You took 29 from the discard pile, so you must place it in your rack.",
        "action_number": 2,
    }


def test_a_missing_file_gives_a_clear_message(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-game.json"
    result = run("replay", str(missing))
    assert_clean_failure(result, code=1)
    assert result.output == f"racko: {missing}: No such file.\n"


def test_a_directory_is_not_a_record(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path))
    assert_clean_failure(result, code=1)
    assert result.output == f"racko: {tmp_path}: This is a folder, not a record file.\n"


CORRUPT_FILES: dict[str, tuple[Any, str]] = {
    "not json": ("{this is not json", "Not valid JSON: "),
    "a list": ([1, 2, 3], "A racko record is a JSON object."),
    "wrong format": ({"format": "chess", "version": 1}, "This is not a racko record"),
    "wrong version": ({"format": "racko-record", "version": 7}, "Unsupported record version 7"),
}


@pytest.mark.parametrize("name", list(CORRUPT_FILES))
def test_a_corrupt_file_is_refused_without_a_traceback(name: str, tmp_path: Path) -> None:
    content, message = CORRUPT_FILES[name]
    path = tmp_path / "game.json"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        write(path, content)
    result = run("replay", str(path))
    assert_clean_failure(result, code=1)
    assert result.output.startswith(f"racko: {path}: {message}")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["rounds"][0]["deck"].pop(), "Round 1: The deck must hold each card from 1 to 40 exactly once"),
        (lambda d: d["rounds"][0]["actions"][1].update(slot=7), "Action 2 (round 1): An exchange needs a slot 5, 10"),
        (lambda d: d["rules"].update(jokers=2), "Bad rules: Unknown rule option(s): jokers."),
        (lambda d: d["rounds"][0].update(dealer=1), "Round 1: the record says seat 1 dealt"),
    ],
    ids=["deck missing a card", "slot 7", "unknown rule option", "wrong dealer"],
)
def test_a_broken_example_is_refused_with_the_reason(change: Any, message: str, tmp_path: Path) -> None:
    data = json.loads(FIGURE_3.read_text(encoding="utf-8"))
    change(data)
    path = write(tmp_path / "broken.json", data)
    result = run("replay", str(path))
    assert_clean_failure(result, code=1)
    assert message in result.output


def test_the_command_runs_as_a_real_process() -> None:
    done = command("replay", "--json", str(FIGURE_3))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == {"0": 30, "1": 75}

    refused = command("replay", str(ILLEGAL))
    assert refused.returncode == 1
    assert refused.stdout == ""
    assert "Action 2 (round 1, seat 1: discard the card in hand) is illegal" in refused.stderr
    assert "Traceback" not in refused.stderr

    missing = command("replay", str(ROOT / "no-such-file.json"))
    assert missing.returncode == 1
    assert "No such file" in missing.stderr and "Traceback" not in missing.stderr


def test_the_installed_console_script_runs() -> None:
    script = shutil.which("racko", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the racko console script is not installed beside this Python")
    done = subprocess.run([script, "replay", str(FIGURE_3)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "The game is not finished."


def test_an_action_kind_that_is_a_list_is_refused_without_a_traceback(tmp_path: Path) -> None:
    data = json.loads(FIGURE_3.read_text(encoding="utf-8"))
    data["rounds"][0]["actions"][0]["act"] = ["take"]
    path = write(tmp_path / "broken.json", data)
    done = command("replay", str(path))
    assert "Traceback" not in done.stderr
    assert done.returncode == 1
    assert "Action 1" in done.stderr


# --- bench -----------------------------------------------------------------------------------


def test_bench_json_prints_the_figures() -> None:
    result = run("bench", "engine", "--rounds", "200", "--batches", "2", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == BENCH_KEYS
    assert figures["benchmark"] == "classic-2p-bucket"
    assert figures["rounds"] == 200
    assert len(figures["batch_rates"]) == 2
    assert all(rate > 0 for rate in figures["batch_rates"])
    assert figures["rounds_per_second"] == pytest.approx(statistics.median(figures["batch_rates"]), abs=0.11)
    assert figures["seconds"] > 0
    assert figures["mean_turns"] > 1
    assert isinstance(figures["capped"], int) and 0 <= figures["capped"] <= 200


def test_bench_human_output() -> None:
    result = run("bench", "engine", "--rounds", "20", "--batches", "2")
    assert result.exit_code == 0, result.output
    assert "rounds/s" in result.output
    assert "median of 2 batches" in result.output


def test_bench_refuses_zero_rounds() -> None:
    assert_clean_failure(run("bench", "engine", "--rounds", "0"))


def test_bare_bench_lists_the_benchmarks_and_succeeds() -> None:
    result = run("bench")
    assert result.exit_code == 0, result.output
    for name in ("engine", "batch", "server", "page", "review"):
        assert re.search(rf"^. {name} ", result.output, re.MULTILINE), result.output


# --- demo ------------------------------------------------------------------------------------

SUMMARY_LINE = re.compile(r"^easy \(seat (\d)\): (.+)$")


def _scored(lines: list[str], players: int) -> list[str]:
    """The round report's last lines: how each seat's score was counted."""
    return [line for line in lines[-players:] if re.search(r"\(seat \d+\): .*(points|= -?\d+)$", line)]


def test_demo_ends_with_every_rack_shown_and_the_scores() -> None:
    result = run("demo", "--seed", "1", "--players", "3", "--fast")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Classic Rack-O, 3 players, cards 1-50."

    # The same round, played through the engine: the demo must show its result.
    rules = variant("classic").rules(3, turn_cap=500)
    expected = play_round(Match(rules, seed=1).round, [bots.create("easy", seed=1 + seat) for seat in range(3)])

    headline, header, *racks = lines[-9:-4]
    assert headline.startswith("Round 1 is over")
    assert header.split() == ["slot", *(str(label) for label in range(5, 55, 5)), "points"]
    for seat, row in enumerate(racks):
        name, cells = row[: len("easy (seat 0)")], row[len("easy (seat 0)") :]
        assert name == f"easy (seat {seat + 1})"
        assert cells.replace("|", " ").split() == [
            *(str(card) for card in expected.racks[seat]),
            str(expected.scores[seat]),
        ]
    assert lines[-4] == ""
    for seat, summary in enumerate(lines[-3:]):
        found = SUMMARY_LINE.match(summary)
        assert found is not None, summary
        assert int(found.group(1)) == seat + 1
        assert found.group(2) == expected.explain(seat)
    assert run("demo", "--seed", "1", "--players", "3", "--fast").output == result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "partners"],
        ["--variant", "bonus", "--players", "2", "--bots", "random,easy"],
        ["--players", "4", "--bots", "random", "--turn-cap", "30"],
        ["--variant", "highlow", "--players", "5", "--turn-cap", "40"],
    ],
    ids=["partners", "bonus", "capped", "highlow"],
)
def test_demo_plays_every_variant(args: list[str]) -> None:
    result = run("demo", "--seed", "3", "--fast", *args)
    assert result.exit_code == 0, result.output
    players = int(args[args.index("--players") + 1]) if "--players" in args else 4
    assert result.output.count("Round 1 is over") == 1
    assert len(_scored(result.output.splitlines(), players)) == players


def test_demo_without_a_seed_plays_a_round() -> None:
    result = run("demo", "--players", "2", "--fast")
    assert result.exit_code == 0, result.output
    assert len(_scored(result.output.splitlines(), 2)) == 2


def test_demo_shows_the_moves_one_at_a_time_at_the_table_s_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    from racko.play.loop import COMPUTER_PACE
    from racko.terminal import demo

    pauses: list[tuple[float, str]] = []

    def pause(seconds: float) -> None:  # what has been printed when each pause begins, instead of waiting
        sys.stdout.flush()
        pauses.append((seconds, sys.stdout.buffer.getvalue().decode()))  # type: ignore[attr-defined]

    monkeypatch.setattr(demo.time, "sleep", pause)
    paced = run("demo", "--players", "2", "--seed", "1")
    assert paced.exit_code == 0, paced.output
    assert {seconds for seconds, _ in pauses} == {COMPUTER_PACE}
    shown = [printed for _, printed in pauses]
    assert "is dealt:" in shown[0] and "took" not in shown[0] and "drew" not in shown[0]  # the deal, then moves
    # One move at a time: something new was printed before every pause, and the report only after the last one.
    assert all(len(before) < len(after) for before, after in itertools.pairwise(shown))
    assert "Round 1 is over" not in shown[-1] and "Round 1 is over" in paced.output
    moves = len(pauses)
    pauses.clear()
    assert run("demo", "--players", "2", "--seed", "1", "--pace", "0.01").output == paced.output
    assert [seconds for seconds, _ in pauses] == [0.01] * moves
    pauses.clear()
    assert run("demo", "--players", "2", "--seed", "1", "--fast").output == paced.output
    assert pauses == []
    for wrong in ("-1", "inf", "nan"):
        refused = run("demo", "--pace", wrong)
        assert_clean_failure(refused)
        assert "a pace is 0 to 60 seconds" in refused.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "poker"], "racko: Unknown variant 'poker'; known: classic, bonus, partners, highlow."),
        (
            ["--variant", "highlow", "--bots", CLASSIC_ONLY_BOT],
            f"racko: The {CLASSIC_ONLY_BOT} bot does not play High-Low Rack-O; choose from",
        ),
        (
            ["--bots", "easy,genius"],
            "racko: Unknown bot 'genius'; available: random, easy, medium, hard, expert, expert-eager, master.",
        ),
        (["--players", "7"], "racko: Classic Rack-O is played by 2, 3, 4 players, not 7."),
        (["--players", "1"], "racko: Classic Rack-O is played by 2, 3, 4 players, not 1."),
        (["--players", "3", "--bots", "easy,hard"], "racko: 2 bots were named for 3 seats: name one for all"),
        (["--variant", "partners", "--players", "2"], "racko: Partners Rack-O is played by 4 players, not 2."),
        (["--turn-cap", "0"], "racko: The turn cap must be a positive whole number, not 0."),
    ],
    ids=[
        "unknown variant",
        "a bot for another variant",
        "unknown bot",
        "seven players",
        "one player",
        "bots that do not fit the seats",
        "partners for two",
        "turn cap 0",
    ],
)
def test_demo_refuses_bad_options_with_exit_code_2(
    args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if CLASSIC_ONLY_BOT in args:
        register_classic_only_bot(monkeypatch)
    result = run("demo", *args)
    assert_clean_failure(result)
    assert result.stderr.strip().startswith(message)


def test_an_unknown_bot_as_a_real_process_exits_2() -> None:
    done = command("demo", "--bots", "genius")
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == "racko: Unknown bot 'genius'; available: random, easy, medium, hard, expert, expert-eager, master."
    )
    assert "Traceback" not in done.stderr


# --- variants and help -----------------------------------------------------------------------


def test_variants_lists_every_variant() -> None:
    result = run("variants")
    assert result.exit_code == 0, result.output
    names = [line.split()[0] for line in result.output.splitlines() if line and not line.startswith(" ")]
    assert names == ["classic", "bonus", "partners", "highlow"] == list(VARIANTS)
    for cls in VARIANTS.values():
        assert cls.title in result.output
        assert cls.description in result.output


def test_an_unknown_command_is_a_usage_error() -> None:
    result = run("shuffle")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_help_lists_the_commands() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for name in ("demo", "replay", "bench", "variants"):
        assert name in result.output


def test_bare_racko_prints_the_help_and_succeeds() -> None:
    result = run()
    assert result.exit_code == 0
    assert "Commands" in result.output and "play" in result.output


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.output.strip() == f"racko {racko.__version__}"


def test_bench_plays_exactly_the_rounds_asked_for() -> None:
    figures = json.loads(run("bench", "engine", "--rounds", "3", "--batches", "5", "--json").output)
    assert figures["rounds"] == 3 and len(figures["batch_rates"]) == 3
    figures = json.loads(run("bench", "engine", "--rounds", "7", "--batches", "2", "--json").output)
    assert figures["rounds"] == 7


def test_help_shows_no_type_beside_a_flag() -> None:
    result = run("play", "--help")
    assert result.exit_code == 0 and "<bool>" not in result.output and "<int>" in result.output


def test_hint_refuses_what_replay_refuses(tmp_path: Path) -> None:
    # A shuffle refill with no recorded order and no seed: nobody can know the new stock, so both refuse it.
    rules = variant("classic").rules(2, two_player_rule=False, refill="shuffle", turn_cap=200)
    match = Match(rules, seed=4)
    players = [bots.create("random", seed=seat) for seat in range(2)]
    while not match.round.reshuffles:
        seat = match.to_act
        assert seat is not None
        match.apply(players[seat].act(match.observation(seat)))
    data = GameRecord.of(match).to_json()
    data["seed"] = None
    for round_data in data["rounds"]:
        round_data["reshuffles"] = []
    path = tmp_path / "unknowable.json"
    path.write_text(json.dumps(data))
    replayed, hinted = run("replay", str(path)), run("hint", str(path), "--reveal")
    assert replayed.exit_code == hinted.exit_code == 1
    assert "reshuffle" in replayed.stderr and "reshuffle" in hinted.stderr
