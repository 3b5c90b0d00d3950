"""The playing styles (``band``, ``sequence``) and ``master``'s model of the opponent it meets: a mixture of styles,
each read by the C kernel as its bot plays, the mixture's chances learnt from the turns watched."""

from __future__ import annotations

import json
import math

import pytest

import racko
from racko import bots
from racko.bots import _rollout as kernel  # type: ignore[attr-defined]
from racko.bots.master import MasterBot
from racko.bots.opponents import BAND, GAP, SEQUENCE, Style, StyleBelief, fitted_styles, load_styles
from racko.bots.runner import play_round
from racko.bots.styles import band_slot, frontier, place_of, sequence_range, sequence_slot
from racko.bots.win_chance import WinChance, fitted_chance, load_chances
from racko.errors import RackoError
from racko.tools.strength import LoggedTurn, collect_turns, fit_style, style_loglik


def test_the_styles_are_arena_opponents_not_levels() -> None:
    assert bots.arena_opponents() == ["band", "sequence"]
    assert "band" not in bots.available() and "sequence" not in bots.playing("classic")
    assert bots.create("band", seed=1).name == "band"
    with pytest.raises(racko.RackoError, match="band, sequence"):
        bots.create("octopus")


@pytest.mark.parametrize("name", ["band", "sequence"])
@pytest.mark.parametrize("rule", [False, True])
def test_each_style_goes_rack_o_with_and_without_the_two_player_rule(name: str, rule: bool) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=rule, turn_cap=600)
    seats = [bots.create(name, seed=1), bots.create("medium", seed=2)]
    wins = 0
    for deal in range(12):
        result = play_round(racko.Round.deal(rules, seed=deal, dealer=deal % 2), seats)  # refuses illegal moves
        assert result.winner is not None
        wins += result.winner == 0
    assert wins >= 1
    with pytest.raises(RackoError, match="High-Low"):
        high_low = racko.highlow.HighLowRound.deal(racko.variant("highlow").rules(3), seed=1)
        bots.create(name).act(high_low.observation(high_low.to_act or 0))


def test_a_band_player_aims_a_card_at_the_slots_around_its_place() -> None:
    assert place_of(1, 40) == pytest.approx(-0.375) and place_of(40, 40) == pytest.approx(9.375)
    rack = (3, 9, 12, 30, 18, 22, 25, 28, 33, 39)  # 30 sits in slot 3, far from its place
    gain, slot = band_slot(rack, 14, 40)
    assert slot == 3 and gain > 0  # 14 belongs about slot 3: it replaces 30
    gain, slot = band_slot(rack, 38, 40)
    assert slot == 9 or gain <= 0  # never outside its band: the last slots only


def test_a_sequence_player_builds_from_the_low_end() -> None:
    rack = (2, 6, 30, 1, 20, 24, 5, 31, 35, 40)
    assert frontier(rack, 40) == 2  # 2 and 6 built, 30 too far above 6
    low, high = sequence_range(6, 2, 40)
    assert low == 7 and high == 6 + int(1.5 * 34 / 8)
    assert sequence_slot(rack, 9, 40) == (2, 2)  # fits the first slot not yet built
    assert sequence_slot(rack, 27, 40) == (1, 6)  # its bucket slot above the built part holds 5, which is out
    assert sequence_slot(rack, 3, 40) == (0, -1)


@pytest.mark.parametrize(("player", "kind"), [("band", BAND), ("sequence", SEQUENCE)])
@pytest.mark.parametrize("rule", [False, True])
def test_the_kernel_reads_each_style_as_its_bot_plays(player: str, kind: int, rule: bool) -> None:
    """Under its own style (nearly no spread, no random choices) every turn of the bot is near certain (ties apart),
    and under the other styles it is unlikely: the kernel's rules are the bots'."""
    logged = collect_turns(player, "easy", 6, seed=2, two_player_rule=rule)
    assert len(logged) > 40
    exact = [(GAP, 1.0, 0.01, 0.01, 0.0, 1e-9, 0.0), (BAND, 1.0, 0.01, 0.01, 0.05, 1e-9, 1.0)]
    exact.append((SEQUENCE, 1.0, 0.01, 0.01, 0.5, 1e-9, 1.5))  # margins: a band player takes what gains at all
    own = [kernel.loglik(40, rule, turn.rack, [turn.turn], exact)[kind] for turn in logged]
    assert min(own) > math.log(0.3)  # certain, or a tie between slots that gain as much (the bot takes the first)
    assert sum(own) / len(own) > -0.1
    others = [k for k in (GAP, BAND, SEQUENCE) if k != kind]
    for other in others:
        mean = sum(kernel.loglik(40, rule, turn.rack, [turn.turn], exact)[other] for turn in logged) / len(logged)
        assert mean < -1.0


def test_fitting_a_style_makes_its_turns_likelier() -> None:
    logged = collect_turns("band", "easy", 4, seed=5, two_player_rule=False)
    loose = Style("band", take_spread=2.0, place_spread=2.0, take_margin=1.0, floor=0.2, shape=1.0)
    fitted = fit_style(loose, logged, False)
    assert style_loglik(fitted, logged, False) > style_loglik(loose, logged, False) + len(logged) * 0.5
    assert fitted.floor < 0.05 and fitted.place_spread < 0.5


def test_the_belief_learns_the_style_of_the_opponent_from_its_turns() -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False, turn_cap=300)
    for opponent, style in (("band", "band"), ("sequence", "sequence"), ("hard", "gap")):
        master = bots.create("master", seed=1)
        assert isinstance(master, MasterBot)
        play_round(racko.Round.deal(rules, seed=4), [master, bots.create(opponent, seed=2)])
        assert master._belief is not None
        assert master._belief.named()[style] > 0.95, (opponent, master._belief.named())


def test_a_belief_folds_a_turn_that_left_the_window_and_starts_a_round_from_the_last() -> None:
    styles = fitted_styles(False)
    belief = StyleBelief(styles)
    assert belief.current() == pytest.approx([style.share for style in styles], abs=1e-3)
    belief.new_round(0)
    belief.fold([0.5, 0.1, 0.1])
    assert belief.chances[0] == pytest.approx(0.5 / 0.7, abs=0.01)
    belief.seen([0.2, 0.7, 0.1])
    assert belief.current() == [0.2, 0.7, 0.1]
    belief.new_round(1)  # what the last decision knew becomes the belief
    assert belief.chances == pytest.approx([0.2, 0.7, 0.1]) and belief.last is None
    assert belief.kernel_rows()[1][:2] == (BAND, pytest.approx(0.7))


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "object"),
        ({"no_two_player_rule": []}, "no list"),
        ({"no_two_player_rule": [{"name": "gap"}], "two_player_rule": [{"name": "gap"}]}, "incomplete"),
        (
            {
                "no_two_player_rule": [{"name": "octopus", "take_spread": 1, "place_spread": 1, "take_margin": 0,
                                        "floor": 0}],
                "two_player_rule": [],
            },
            "Unknown style",
        ),
        (
            {
                "no_two_player_rule": [{"name": "gap", "take_spread": 0, "place_spread": 1, "take_margin": 0,
                                        "floor": 0}],
                "two_player_rule": [],
            },
            "out of range",
        ),
    ],
)  # fmt: skip
def test_a_bad_styles_file_is_refused_with_the_reason(document: object, message: str) -> None:
    with pytest.raises(RackoError, match=message):
        load_styles(document)


def test_the_shipped_styles_and_chance_to_win_load() -> None:
    for rule in (False, True):
        assert [style.name for style in fitted_styles(rule)] == ["gap", "band", "sequence"]
        chance = fitted_chance(rule)
        assert chance.mover < 0 and chance.taking < 0 and chance.other > 0  # own cost hurts, the other's helps


def test_the_chance_to_win_falls_with_the_movers_cost_and_is_certain_when_taking_goes_out() -> None:
    chance = fitted_chance(False)
    assert chance.chance(10, 10, 10) > chance.chance(20, 20, 10) > chance.chance(20, 20, 5)
    assert chance.chance(10, 0, 1) == 1.0 and chance.chance(10, 5, 0) == 0.0
    with pytest.raises(RackoError, match="log1p"):
        load_chances({"features": "squares"})
    with pytest.raises(RackoError, match="complete fit"):
        load_chances({"features": "log1p", "no_two_player_rule": {"bias": 1}})
    document = json.loads(json.dumps({"features": "log1p", **{key: vars(fitted_chance(False)) for key in (
        "no_two_player_rule", "two_player_rule")}}))  # fmt: skip
    assert load_chances(document)[True] == WinChance(**vars(fitted_chance(False)))


def test_logged_turns_carry_the_rack_the_turn_left() -> None:
    logged = collect_turns("sequence", "easy", 2, seed=1, two_player_rule=False)
    for entry in logged:
        assert isinstance(entry, LoggedTurn) and len(entry.rack) == 10
        offered, took, slot, left, held, _ = entry.turn
        if slot >= 0:
            assert left not in entry.rack  # the card that left the slot is gone from the rack
            if took:
                assert entry.rack[slot] == offered == held


def test_the_chance_to_win_s_regression_recovers_known_coefficients_and_refuses_too_few_rounds() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("numba")
    from racko.envs.batch.win_chances import design, fit, log_loss, logistic_fit

    rng = np.random.default_rng(3)
    costs = rng.uniform(0, 40, size=(20_000, 3))
    truth = np.array([0.2, -0.7, -1.8, 2.4])
    inputs = design(np.column_stack([costs, np.zeros(len(costs)), np.zeros(len(costs))]))
    outcomes = (rng.uniform(size=len(costs)) < 1 / (1 + np.exp(-inputs @ truth))).astype(np.float64)
    fitted = logistic_fit(inputs, outcomes)
    assert fitted[1:] == pytest.approx(truth[1:], abs=0.3)
    fitted_chances, true_chances = (1 / (1 + np.exp(-inputs @ coefficients)) for coefficients in (fitted, truth))
    assert np.abs(fitted_chances - true_chances).mean() < 0.02
    assert log_loss(inputs, outcomes, fitted) < log_loss(inputs, outcomes, np.zeros(4))
    with pytest.raises(RackoError, match="10 rounds"):
        fit(5, False)
