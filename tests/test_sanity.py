"""The checks of the bots' judgement against play-outs (``racko sanity``, ``racko ranking``) and bots of another
build (``NAME@DIR``), with this source tree standing in for the other build: the same code, the same figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from helpers import arena_app
from racko.actions import Discard
from racko.bots import base
from racko.bots.bucket import BucketBot
from racko.families import AnyAction, AnyObservation
from racko.observation import Observation, Phase
from racko.tools.sanity import KINDS, kendall_tau

runner = CliRunner()
THIS_TREE = str(Path(__file__).resolve().parents[1])
DISCARDER = "discarder"


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots registered by a test (``NAME@DIR``, the discarder) are forgotten after it."""
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))


def _invoke(*args: str) -> Result:
    return runner.invoke(arena_app(), list(args))


def _json(*args: str) -> Any:
    result = _invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_kendall_tau_reads_agreement_ties_and_reversal() -> None:
    assert kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1
    assert kendall_tau([1, 2, 3, 4], [40, 30, 20, 10]) == -1
    assert kendall_tau([1, 1, 1], [1, 2, 3]) == 0
    assert 0 < kendall_tau([1, 2, 2, 4], [1, 2, 3, 4]) < 1


def test_the_ranking_is_seeded_and_another_build_of_the_same_code_ranks_the_same() -> None:
    args = ("ranking", "--positions", "15", "--play-outs", "4", "--seed", "3", "--against", THIS_TREE)
    report = _json(*args)
    assert report["play_outs"] == 4
    this, other = report["builds"]
    assert this["build"] == "this build" and other["build"] == THIS_TREE
    assert {key: value for key, value in this.items() if key != "build"} == {
        key: value for key, value in other.items() if key != "build"
    }
    assert this["positions"] == 15 and -1 <= this["tau"] <= 1 and 0 <= this["same_choice"] <= 1
    assert this["turns_lost"] >= 0
    assert _json(*args) == report
    judged = _json(*args, "--judged-by", THIS_TREE)
    assert judged["judged_by"] == THIS_TREE and judged["builds"] == report["builds"]
    text = _invoke("ranking", "--positions", "3", "--play-outs", "2")
    assert text.exit_code == 0 and "Kendall tau" in text.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("ranking", "--positions", "0"), "--positions must be at least 1"),
        (("ranking", "--play-outs", "1"), "--play-outs must be at least 2"),
        (("ranking", "--positions", "1", "--against", "/nonexistent/racko"), "is not a racko source tree"),
        (("ranking", "--positions", "1", "--judged-by", "/nonexistent/racko"), "is not a racko source tree"),
        (("sanity", "--bots", "hard,nobody"), "nobody"),
        (("sanity", "--bots", "hard@/nonexistent/racko"), "is not a racko source tree"),
        (("sanity", "--bots", f"nobody@{THIS_TREE}"), "has no bot 'nobody'"),
        (("sanity", "--positions", "0"), "--positions must be at least 1"),
        (("arena", "--bots", f"hard,hard@{THIS_TREE}", "--backend", "ray"), "--backend local only"),
    ],
)
def test_bad_input_is_one_clear_line(args: tuple[str, ...], message: str) -> None:
    result = _invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.startswith("racko: ") and result.stderr.count("\n") == 1


class DiscarderBot(BucketBot):
    """Discards every card it draws: the one blunder of a ``discard-completion`` position, every time."""

    name = DISCARDER

    def act(self, observation: AnyObservation) -> AnyAction:
        if isinstance(observation, Observation) and observation.public.phase is Phase.PLACE:
            return Discard(observation.seat)
        return super().act(observation)


def test_the_sanity_suite_counts_each_bot_s_blunders_on_the_same_positions() -> None:
    base.register(DiscarderBot)
    report = _json("sanity", "--positions", "2", "--bots", f"{DISCARDER},medium,hard@{THIS_TREE}")
    assert [report["kinds"][kind]["positions"] for kind in KINDS] == [2] * len(KINDS)
    discarder, medium, other = report["bots"]
    assert (discarder["bot"], medium["bot"], other["bot"]) == (DISCARDER, "medium", f"hard@{THIS_TREE}")
    assert discarder["blunders"]["discard-completion"] == 2
    assert all(example["move"] == "discard" for example in discarder["examples"])
    assert medium["total"] == other["total"] == 0
    text = _invoke("sanity", "--positions", "1", "--bots", DISCARDER)
    assert text.exit_code == 0 and "discard-completion: rack" in text.stdout


def test_a_bot_of_another_build_plays_in_the_arena_beside_this_build_s() -> None:
    report = _json("arena", "--bots", f"medium,medium@{THIS_TREE}", "--rounds", "20", "--jobs", "1", "--seed", "2")
    assert [row["bot"] for row in report["results"]] == ["medium", f"medium@{THIS_TREE}"]
    assert sum(row["wins"] for row in report["results"]) > 0
