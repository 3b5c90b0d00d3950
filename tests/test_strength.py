"""The strength tools: records of arena runs compared deal by deal, the headroom of a perfect guess, and the
commands around them (racko arena --record, racko compare, racko headroom)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import racko
from racko import bots
from racko.cli import app
from racko.errors import RackoError
from racko.tools import strength
from racko.tools.arena import run_arena


def _record(names: list[str], rounds: int = 20, seed: int = 3) -> dict[str, object]:
    options = {"two_player_rule": False}
    report = run_arena(names, "classic", 2, rounds=rounds, seed=seed, jobs=1, options=options)
    return strength.record_of(report, names, options)


def test_a_record_keeps_who_won_each_deal_and_two_records_compare_deal_by_deal() -> None:
    easy = _record(["easy", "random"])
    medium = _record(["medium", "random"])
    assert easy["deal_wins"]["easy"] == "1" * 20  # random never goes out
    same = strength.compare_records(easy, easy)
    assert (same.difference, same.only_first, same.only_second) == (0.0, 0, 0)
    versus = strength.compare_records(_record(["easy", "medium"]), _record(["medium", "easy"]))
    first, second = versus.first_wins, versus.second_wins
    assert versus.difference == pytest.approx((first - second) / 20)
    low, high = versus.interval
    assert low <= versus.difference <= high
    assert versus.to_json()["deals"] == 20 and medium["seed"] == 3


def test_records_of_other_deals_are_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(RackoError, match="seed"):
        strength.compare_records(_record(["easy", "random"]), _record(["easy", "random"], seed=4))
    with pytest.raises(RackoError, match="no row 3"):
        strength.compare_records(_record(["easy", "random"]), _record(["easy", "random"]), first_row=2)
    damaged = tmp_path / "damaged.json"
    document = _record(["easy", "random"])
    document["deal_wins"] = {"easy": "10"}
    damaged.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(RackoError, match="damaged"):
        strength.read_record(damaged)
    other = tmp_path / "other.json"
    other.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RackoError, match="not a record"):
        strength.read_record(other)
    with pytest.raises(RackoError, match="Cannot read"):
        strength.read_record(tmp_path / "missing.json")


def test_a_peeking_master_deals_the_opponent_its_true_cards() -> None:
    name = strength.peeking_bot("master")
    assert name in bots.arena_opponents() and name not in bots.available()
    round_ = racko.Round.deal(racko.variant("classic").rules(2, two_player_rule=False), seed=5)
    peeking = bots.create(name, seed=1)
    strength.give_round([peeking], round_)
    observation = round_.observation(round_.to_act or 0)
    weights = peeking.guess_weights(observation, strength.hidden_cards(observation))  # type: ignore[attr-defined]
    opponent = round_.rack(1 - observation.seat)
    for slot, card in enumerate(opponent):
        row = weights[slot * 41 : (slot + 1) * 41]
        assert row[card] == 1.0 and sum(row) == 1.0
    assert strength.guess_quality(observation, weights, opponent) == pytest.approx(0.0)
    with pytest.raises(RackoError, match="headroom"):
        bots.create(name).guess_weights(observation, [])  # type: ignore[attr-defined]


def test_the_commands_record_compare_and_measure_the_headroom(tmp_path: Path) -> None:
    runner = CliRunner()
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    for path, bot in ((first, "expert"), (second, "hard")):
        result = runner.invoke(
            app,
            [
                "arena",
                "--bots",
                f"{bot},easy",
                "--rounds",
                "2",
                "--seed",
                "2",
                "--no-two-player-rule",
                "--record",
                str(path),
            ],
        )
        assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["compare", str(first), str(second), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["first"] == "expert" and figures["second"] == "hard" and figures["deals"] == 2
    result = runner.invoke(app, ["headroom", str(first), "--jobs", "1", "--json", "--record", str(tmp_path / "p")])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["first"] == "peek:expert"
    result = runner.invoke(app, ["compare", str(first), str(tmp_path / "nowhere.json")])
    assert result.exit_code == 2 and "Cannot read" in result.output
