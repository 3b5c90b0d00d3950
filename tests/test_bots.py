"""The computer players: legal play in every variant they support, and strength rising with the level."""

from __future__ import annotations

import pytest

import racko
from racko import bots
from racko.arena import run_arena
from racko.bots.gaps import cards_that_may_come, counts_below, rack_cost, run_cost
from racko.bots.runner import play_round

CLASSIC_BOTS = ["random", "easy", "medium", "hard"]
VARIANTS = [
    ("classic", 2, {}),
    ("classic", 2, {"two_player_rule": False}),
    ("classic", 3, {}),
    ("classic", 4, {}),
    ("bonus", 2, {}),
    ("bonus", 3, {}),
    ("partners", 4, {}),
    ("classic", 1, {"two_player_rule": False}),
]


def test_the_registry_knows_every_level_with_a_description() -> None:
    assert {"random", "easy", "medium", "hard"} <= set(bots.available())
    for name in bots.available():
        assert bots.describe(name)
        assert bots.create(name, seed=1).name == name
    with pytest.raises(racko.RackoError, match="Unknown bot"):
        bots.create("grandmaster")


@pytest.mark.parametrize("name", CLASSIC_BOTS)
@pytest.mark.parametrize(("variant", "players", "options"), VARIANTS, ids=lambda v: str(v))
def test_every_bot_plays_legal_moves_in_every_classic_variant(
    name: str, variant: str, players: int, options: dict[str, object]
) -> None:
    rules = racko.variant(variant).rules(players, turn_cap=150, **options)
    seats = [bots.create(name, seed=seat) for seat in range(players)]
    for index in range(25):
        round_ = racko.Round.deal(rules, seed=index, dealer=index % players)
        result = play_round(round_, seats)  # Round.apply raises on any illegal action
        assert sum(result.scores) > 0


@pytest.mark.parametrize("name", ["random", "easy"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_and_easy_play_high_low(name: str, players: int) -> None:
    rules = racko.variant("highlow").rules(players, turn_cap=80, bonus=players == 4)
    seats = [bots.create(name, seed=seat) for seat in range(players)]
    for index in range(20):
        play_round(racko.highlow.HighLowRound.deal(rules, seed=index, dealer=index % players), seats)


def test_easy_beats_random_at_high_low() -> None:
    report = run_arena(["easy", "random", "random"], "highlow", 3, rounds=150, seed=5, jobs=1, options={})
    easy = report.results[0]
    assert easy.bot == "easy" and easy.win_rate > 0.5


@pytest.mark.parametrize("name", ["medium", "hard"])
def test_classic_only_bots_refuse_high_low_with_a_clear_error(name: str) -> None:
    round_ = racko.highlow.HighLowRound.deal(racko.variant("highlow").rules(3), seed=1)
    seat = round_.to_act
    assert seat is not None
    with pytest.raises(racko.RackoError, match="classic variants only"):
        bots.create(name).act(round_.observation(seat))


def test_a_rack_in_order_costs_nothing_and_a_wider_gap_costs_less() -> None:
    counts = counts_below(range(1, 41), 40)
    assert rack_cost([2, 5, 9, 13, 17, 21, 25, 29, 33, 37], counts) == 0
    # One open slot between 10 and 20 (9 cards may come) is cheaper than between 10 and 13 (2 cards).
    wide = rack_cost([2, 5, 9, 10, 40, 20, 25, 29, 33, 37], counts)
    narrow = rack_cost([2, 5, 9, 10, 40, 13, 25, 29, 33, 37], counts)
    assert 0 < wide < narrow


def test_the_run_cost_is_zero_with_a_run_and_lower_one_card_away() -> None:
    counts = counts_below(range(1, 41), 40)
    assert run_cost([2, 5, 9, 13, 17, 28, 29, 30, 33, 37], counts) == 0
    one_away = run_cost([2, 5, 9, 13, 17, 28, 29, 35, 36, 38], counts)
    far = run_cost([2, 5, 9, 13, 17, 21, 25, 29, 33, 37], counts)
    assert 0 < one_away < far


def test_bots_count_only_cards_they_may_see() -> None:
    round_ = racko.Round.deal(racko.variant("classic").rules(2), seed=4)
    seat = round_.to_act
    assert seat is not None
    view = round_.observation(seat)
    may_come = set(cards_that_may_come(view))
    assert not may_come & set(view.rack)
    assert not may_come & set(view.public.discard_pile)
    other = round_.rack(1 - seat)
    assert set(other) <= may_come  # an unseen rack's cards may still come, as far as this seat knows


@pytest.mark.parametrize(("stronger", "weaker"), [("easy", "random"), ("medium", "easy"), ("hard", "easy")])
def test_each_level_beats_the_one_below(stronger: str, weaker: str) -> None:
    report = run_arena(
        [stronger, weaker], "classic", 2, rounds=300, seed=11, jobs=1, options={"two_player_rule": False}
    )
    first, second = report.results
    assert first.bot == stronger and first.win_rate > 0.6 and first.ci95[0] > second.ci95[1]


def test_hint_advises_from_the_seat_s_own_view() -> None:
    from pathlib import Path

    from racko.hint import hint_for

    record = racko.GameRecord.load(Path(__file__).parents[1] / "docs" / "examples" / "figure3.json")
    advice = hint_for(record, at=0)
    best = advice.choices[0]
    assert advice.seat == 1 and best.action == racko.TakeDiscard(1) and best.work == 0
    assert "put it in slot 45" in best.explanation and "Rack-O" in best.explanation
    works = [choice.work for choice in advice.choices]
    assert works == sorted(works)
    # The advice depends on what the seat may see, not on the other rack or the stock.
    assert {c.action for c in advice.choices} == set(advice.observation.legal_actions())
    with pytest.raises(racko.RackoError, match="holds no next round"):
        hint_for(record)
    with pytest.raises(racko.RackoError, match="choose --at from 0 to 2"):
        hint_for(record, at=7)
