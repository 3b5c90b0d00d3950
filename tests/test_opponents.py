"""The playing styles ``band`` and ``sequence``: arena opponents (not levels) that play as people describe playing."""

from __future__ import annotations

import pytest

import racko
from racko import bots
from racko.bots.runner import play_round
from racko.bots.styles import band_slot, frontier, place_of, sequence_range, sequence_slot
from racko.errors import RackoError


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
