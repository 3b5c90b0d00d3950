"""``master``: races of both seats from sampled hidden racks; alone, raced play-outs; elsewhere ``expert``'s play."""

from __future__ import annotations

import math

import pytest

import racko
from racko import bots
from racko.actions import Action, Exchange, TakeDiscard
from racko.bots import _rollout as kernel  # type: ignore[attr-defined]
from racko.bots import master as master_module
from racko.bots import rollout
from racko.bots.expert import SOLITAIRE_GAPS
from racko.bots.guess import Turn, slot_weights
from racko.bots.master import MasterBot
from racko.bots.rollout import Candidate, World, estimate
from racko.families import AnyAction, AnyObservation
from racko.observation import Observation, Phase, RoundResult
from racko.scoring import qualifies_for_racko

ORDERED = (2, 5, 9, 13, 17, 21, 25, 29, 33, 37)
NOTHING_HIDDEN = [0.0] * (10 * 41)


def _race(
    candidates: list[tuple[tuple[int, ...], int, bool]], opponent: list[int], hidden: list[int]
) -> list[tuple[int, ...]]:
    return list(kernel.race(40, False, hidden, NOTHING_HIDDEN, opponent, (), (), candidates, 50, 7, 40))


def test_a_rack_in_order_wins_every_race() -> None:
    opponent = [1, 3, 6, 10, 14, 18, 22, 26, 30, 4]
    hidden = [card for card in range(1, 41) if card not in ORDERED and card not in opponent and card != 40]
    assert _race([(ORDERED, 40, False)], opponent, hidden) == [(50, 0, 0, 0)]


def test_handing_the_opponent_its_last_card_loses_every_race() -> None:
    rack = (2, 5, 9, 13, 17, 21, 25, 29, 38, 33)  # one card from Rack-O
    opponent = [1, 3, 6, 10, 14, 18, 22, 26, 30, 4]  # 35 or more in its last slot goes out
    seen = {*rack, *opponent, 35, 12}
    hidden = [card for card in range(1, 41) if card not in seen]
    handing_on, keeping = _race([(rack, 35, False), (rack, 12, False)], opponent, hidden)
    assert handing_on[0] == 0  # the opponent takes 35 and goes out first every time
    wins, _, better, worse = keeping
    assert wins == better > 0 and worse == 0  # same races: it wins some where handing 35 on lost them all


def test_a_seed_fixes_the_races() -> None:
    opponent = [0, 0, 6, 0, 14, 0, 0, 26, 0, 0]
    hidden = [card for card in range(1, 41) if card not in {*ORDERED[:5], 6, 14, 26, 40}]
    rack = (*ORDERED[:5], 38, 39, 3, 1, 4)
    weights = [1.0] * (10 * 41)
    candidates = [(rack, 40, False), (rack, 40, True)]
    first = kernel.race(40, False, hidden, weights, opponent, (), (), candidates, 40, 3, 40)
    assert first == kernel.race(40, False, hidden, weights, opponent, (), (), candidates, 40, 3, 40)
    assert first != kernel.race(40, False, hidden, weights, opponent, (), (), candidates, 40, 4, 40)


def test_a_card_drawn_blind_is_guessed_between_its_known_neighbours() -> None:
    round_ = racko.Round.deal(racko.variant("classic").rules(2, two_player_rule=False), seed=3)
    bots_ = [bots.create("hard", seed=0), bots.create("hard", seed=1)]
    while round_.to_act is not None and round_.turns < 8:
        seat = round_.to_act
        round_.apply(bots_[seat].act(round_.observation(seat)))
    seat = round_.to_act
    assert seat is not None
    view = round_.observation(seat)
    public = view.public
    hidden = list(range(1, 41))
    other = 1 - seat
    weights = slot_weights(view, hidden, other)
    for slot in range(10):
        row = weights[slot * 41 : (slot + 1) * 41]
        if public.known[other][slot] is None and public.left[other][slot]:
            likeliest = max(hidden, key=lambda card: row[card])
            assert abs(likeliest - (slot + 0.5) * 4) < 16  # near where a card of that slot belongs, not anywhere


def _beside_expert(rules: racko.Rules) -> tuple[list[tuple[AnyObservation, AnyAction, AnyAction]], list[RoundResult]]:
    """Three rounds played by ``master`` in every seat: each position with ``master``'s move and ``expert``'s, and
    how each round ended."""
    positions: list[tuple[AnyObservation, AnyAction, AnyAction]] = []
    results: list[RoundResult] = []
    for deal in range(3):
        round_ = racko.Round.deal(rules, seed=deal)
        master, expert = bots.create("master", seed=5), bots.create("expert", seed=5)
        while round_.to_act is not None:
            view = round_.observation(round_.to_act)
            move = master.act(view)
            positions.append((view, move, expert.act(view)))
            round_.apply(move)
        assert round_.result is not None
        results.append(round_.result)
    return positions, results


def test_master_plays_as_expert_where_the_races_do_not_apply() -> None:
    for players in (3, 4):
        positions, _ = _beside_expert(racko.variant("classic").rules(players, turn_cap=200))
        for _view, move, expert_move in positions:
            assert move == expert_move


def test_under_the_two_player_rule_a_rack_in_order_without_a_run_of_three_has_not_won() -> None:
    opponent = [1, 2, 3, 10, 14, 18, 22, 26, 30, 4]  # a run of three: 31 or more in its last slot goes out
    hidden = [card for card in range(1, 41) if card not in opponent and card not in ORDERED and card != 40]
    candidates = [(ORDERED, 40, False)]  # in order, no run of three; 40 handed on
    without_rule = kernel.race(40, False, hidden, NOTHING_HIDDEN, opponent, (), (), candidates, 50, 7, 40)
    with_rule = kernel.race(40, True, hidden, NOTHING_HIDDEN, opponent, (), (), candidates, 50, 7, 40)
    assert without_rule == [(50, 0, 0, 0)]
    assert with_rule[0][0] == 0  # not out yet: the opponent takes 40 and goes out first, every time
    takes, _, outs = kernel.wants(40, True, hidden, NOTHING_HIDDEN, opponent, [40], [], 16, 5)[0]
    assert takes == outs == 16


def test_master_makes_its_own_moves_under_the_two_player_rule_and_in_bonus_racko() -> None:
    for variant_name in ("classic", "bonus"):
        rules = racko.variant(variant_name).rules(2, turn_cap=200)
        positions, results = _beside_expert(rules)
        differing = 0
        for view, move, expert_move in positions:
            assert move in view.legal_actions()
            if qualifies_for_racko(view.rack, rules):
                assert move == expert_move  # Bonus Rack-O: calling or waiting is expert's decision
            else:
                differing += move != expert_move
        assert all(result.winner is not None and not result.capped for result in results)
        assert differing > 0  # the races are used here too


def test_a_sampled_opponent_takes_the_card_that_takes_it_out_and_not_one_it_cannot_use() -> None:
    opponent = [1, 3, 6, 10, 14, 18, 22, 26, 30, 4]  # 31 or more in its last slot goes out
    hidden = [card for card in range(1, 41) if card not in opponent and card not in ORDERED]
    tallies = kernel.wants(40, False, hidden, NOTHING_HIDDEN, opponent, [35, 2], [], 16, 5)
    (takes_out, saved_out, outs), (takes_low, _, _) = tallies
    assert takes_out == outs == 16 and saved_out > 0  # every sample goes out with 35
    assert takes_low == 0  # 2 fits nowhere better than what it has


def _solo_moves(seed: int) -> list[Action]:
    round_ = racko.Round.deal(racko.variant("classic").rules(1, two_player_rule=False, turn_cap=60), seed=3)
    master = bots.create("master", seed=seed)
    moves: list[Action] = []
    while round_.to_act is not None:
        move = master.act(round_.observation(round_.to_act))
        assert move in round_.observation(round_.to_act).legal_actions()
        round_.apply(move)
        moves.append(move)
    assert round_.result is not None and round_.result.winner == 0  # a capped round would have no winner
    return moves


def test_alone_master_plays_legal_moves_to_a_rack_o_and_a_seed_fixes_them() -> None:
    assert _solo_moves(seed=1) == _solo_moves(seed=1)


def test_alone_master_races_the_candidates_and_drops_the_clearly_worse() -> None:
    master = bots.create("master", seed=2)
    assert isinstance(master, MasterBot)
    may_come = tuple(card for card in range(1, 41) if card not in ORDERED and card != 40)
    world = World(40, may_come, model=SOLITAIRE_GAPS)
    spoilt = (*ORDERED[:5], 1, *ORDERED[6:])
    calls: list[int] = []

    def counted(*args: object, **kwargs: object) -> list[float]:
        calls.append(len(args[1]))  # type: ignore[arg-type]
        return estimate(*args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(master_module, "estimate", counted)
        turns = master.play_out(world, [Candidate(spoilt, 40), Candidate(ORDERED, 40)], every_move=False)
    assert turns[1] == 1.0 < turns[0]  # the rack in order is out this turn
    assert calls == [2] * master.first_batches  # dropped at the first look, which ends the race


def test_hints_alone_rate_every_move_with_experts_fixed_play_outs() -> None:
    round_ = racko.Round.deal(racko.variant("classic").rules(1, two_player_rule=False), seed=4)
    view = round_.observation(0)
    assert bots.create("master", seed=1).rate(view, every_move=True) == bots.create("expert", seed=1).rate(
        view, every_move=True
    )


def test_alone_without_the_kernel_master_makes_experts_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rollout, "_kernel", None)
    round_ = racko.Round.deal(racko.variant("classic").rules(1, two_player_rule=False), seed=6)
    master, expert = bots.create("master", seed=3), bots.create("expert", seed=3)
    for _ in range(4):  # the Python reference is slow: the first two turns
        view = round_.observation(0)
        move = master.act(view)
        assert move == expert.act(view)
        round_.apply(move)


def _master_against_hard(deals: int) -> list[tuple[Observation, list[Turn], list[float], tuple[int, ...], list[Turn]]]:
    """Rounds of ``master`` against ``hard`` (2-player rule off): at each of master's picks, its view, the turns of
    the opponent it had read and the weights it dealt samples by (both as they were then), the opponent's true
    rack, and the opponent's turns as they were played."""
    rules = racko.variant("classic").rules(2, two_player_rule=False, turn_cap=200)
    picks = []
    for deal in range(deals):
        round_ = racko.Round.deal(rules, seed=300 + deal)
        me = deal % 2
        master = bots.create("master", seed=deal)
        assert isinstance(master, MasterBot)
        players = {me: master, 1 - me: bots.create("hard", seed=deal)}
        played: list[Turn] = []
        offered, took = 0, 0
        while round_.to_act is not None:
            seat = round_.to_act
            view = round_.observation(seat)
            move = players[seat].act(view)
            public = view.public
            if seat != me and public.phase is Phase.PICK:
                offered = public.discard_pile[-1] if public.discard_pile else 0
                took = int(isinstance(move, TakeDiscard))
            elif seat != me:
                assert view.held is not None
                slot = move.slot if isinstance(move, Exchange) else -1
                held = view.held if took or slot < 0 else 0
                played.append((offered, took, slot, view.rack[slot] if slot >= 0 else 0, held, []))
            elif public.phase is Phase.PICK:
                assert master.watch is not None
                weights = master.guess_weights(view, master_module.hidden_cards(view))  # the move's own, remembered
                picks.append((view, list(master.watch.turns), weights, tuple(round_._racks[1 - me]), list(played)))
            round_.apply(move)
    return picks


def test_the_opponents_turns_are_read_from_this_seats_view() -> None:
    read = 0
    for view, turns, _, _, played in _master_against_hard(6):
        seen = [turn[:5] for turn in turns]
        assert seen == [turn[:5] for turn in played[len(played) - len(seen) :]]
        if view.public.turned_over_pile is None and view.public.turns > 1:
            assert len(seen) == len(played)  # every turn read while the pile was not turned over
        read += len(seen)
    assert read > 100


def test_what_the_opponent_did_sharpens_the_guess_of_its_hidden_rack() -> None:
    """The log-probability of the opponent's true hidden cards, under the weights master deals samples by, beats
    the slot weights alone (which know only where cards went)."""
    gained, slots = 0.0, 0
    for view, _, guessed, true_rack, _ in _master_against_hard(12):
        opponent = 1 - view.seat
        hidden = master_module.hidden_cards(view)
        prior = slot_weights(view, hidden, opponent)
        for slot in range(10):
            if view.public.known[opponent][slot] is None:
                row = slot * 41
                share = guessed[row + true_rack[slot]] / sum(guessed[row + card] for card in hidden)
                base = prior[row + true_rack[slot]] / sum(prior[row + card] for card in hidden)
                gained += math.log(share) - math.log(base)
                slots += 1
    assert slots > 500
    assert gained / slots > 0.03  # nats a slot; about 0.08 over many rounds (docs/STRENGTH.md)


def _posterior(**changes: object) -> tuple[list[int], list[float], list[float], list[float]]:
    arguments: dict[str, object] = {
        "deck_size": 40,
        "needs_run": False,
        "hidden": [5, 20, 33, 38],
        "weights": [1.0] * (10 * 41),
        "rack": [1, 3, 20, 7, 12, 16, 22, 26, 30, 5],
        "slots": [2, 9],
        "turns": [(40, 0, 9, 39, 0, [40]), (7, 1, 3, 35, 7, [7, 39])],
        "sweeps": 6,
        "burn": 1,
        "styles": [(0, 1.0, 2.0, 1.0, 0.5, 0.0, 0.0)],
        "seed": 3,
    }
    arguments.update(changes)
    guess, shares, chances, oldest = kernel.posterior(*arguments.values())
    return list(guess), list(shares), list(chances), list(oldest)


def test_the_sweeps_keep_known_cards_give_each_hidden_slot_a_hidden_card_and_a_seed_fixes_them() -> None:
    guess, shares, chances, _ = _posterior()
    assert chances == [1.0]  # one style: certain
    assert [guess[slot] for slot in range(10) if slot not in (2, 9)] == [1, 3, 7, 12, 16, 22, 26, 30]
    assert {guess[2], guess[9]} <= {5, 20, 33, 38} and guess[2] != guess[9]
    for slot in (2, 9):
        assert sum(shares[slot * 41 : (slot + 1) * 41]) == pytest.approx(1.0)
    assert (guess, shares) == _posterior()[:2]
    assert _posterior(seed=4)[:2] != (guess, shares)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"sweeps": 0}, "sweeps"),
        ({"styles": [(0, 1.0, 0.0, 1.0, 0.5, 0.0, 0.0)]}, "style"),
        ({"styles": [(3, 1.0, 1.0, 1.0, 0.5, 0.0, 0.0)]}, "style"),
        ({"styles": [(0, 1.0, 1.0, 1.0, 0.5, 1.0, 0.0)]}, "style"),
        ({"styles": []}, "styles"),
        ({"rack": [1, 2, 3]}, "ten cards"),
        ({"slots": [2, 9, 4, 5, 6]}, "hidden card"),
        ({"turns": [(40, 1, -1, 0, 0, [])]}, "turn"),
        ({"turns": [(40, 0, 9, 0, 0, [])]}, "turn"),
        ({"turns": [(40, 0, 9, 39, 0, [41])]}, "seen"),
        ({"weights": [1.0] * 5}, "weights"),
    ],
)
def test_the_sweeps_refuse_bad_input_with_the_reason(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _posterior(**changes)


GAP_ROW = [(0, 1.0, 1.0, 0.05, 3.7, 0.001, 0.0)]
CHANCE = (0.2, -0.7, -1.8, 2.4)


def test_going_out_wins_and_handing_the_opponent_its_last_card_loses_by_the_chance_to_win() -> None:
    rack = (2, 5, 9, 13, 17, 21, 25, 29, 38, 33)  # one card from Rack-O
    opponent = [1, 3, 6, 10, 14, 18, 22, 26, 30, 4]  # 35 or more in its last slot goes out
    seen = {*rack, *opponent, 35, 12}
    hidden = [card for card in range(1, 41) if card not in seen]
    positions = [(ORDERED, 40, 0), (rack, 35, 0), (rack, 12, 0)]
    (out, n_out), (handing, n_handing), (keeping, n_keeping) = kernel.rate(
        40, False, hidden, NOTHING_HIDDEN, opponent, GAP_ROW, [], hidden, positions, 16, 5, CHANCE
    )
    assert out == n_out == 16  # a rack in order has won
    assert handing / n_handing < 0.01  # the opponent takes 35 and goes out
    assert keeping / n_keeping > 0.05  # both are a card from going out: it moves first


def test_a_card_drawn_is_rated_only_with_the_samples_that_leave_it_in_the_stock() -> None:
    opponent = [0, 0, 6, 0, 14, 0, 0, 26, 0, 0]
    hidden = [card for card in range(1, 41) if card not in {*ORDERED[:5], 6, 14, 26, 38, 39, 3, 1, 4}]
    rack = (*ORDERED[:5], 38, 39, 3, 1, 4)
    weights = [1.0] * (10 * 41)
    positions = [(rack, 40, 0), (rack, 40, hidden[0])]
    first = kernel.rate(40, False, hidden, weights, opponent, GAP_ROW, [], hidden, positions, 64, 3, CHANCE)
    assert first == kernel.rate(40, False, hidden, weights, opponent, GAP_ROW, [], hidden, positions, 64, 3, CHANCE)
    (_, everyone), (_, counted) = first
    assert everyone == 64 and 0 < counted < 64  # some samples deal the drawn card into the opponent's rack


def test_races_cut_at_a_horizon_are_scored_by_the_chance_to_win() -> None:
    opponent = [1, 3, 6, 10, 14, 18, 22, 26, 30, 4]
    hidden = [card for card in range(1, 41) if card not in ORDERED and card not in opponent and card not in (12, 40)]
    messy = (9, 2, 5, 13, 17, 21, 25, 29, 33, 37)  # the same cards, out of order; 12 handed on helps nobody
    tallies = kernel.race(
        40, False, hidden, NOTHING_HIDDEN, opponent, (), (40,), [(ORDERED, 12, 0), (messy, 12, 0)], 50, 7, 40, None,
        GAP_ROW, CHANCE, 2,
    )  # fmt: skip
    (wins, *_, total, own_difference, _), (_, *_, messy_total, messy_difference, _) = tallies
    assert wins == 50 and total == 50.0 and own_difference == 0.0  # in order: won before any horizon
    assert 0 < messy_total < 50 and messy_difference == pytest.approx(messy_total - 50)
    with pytest.raises(ValueError, match="horizon"):
        kernel.race(
            40, False, hidden, NOTHING_HIDDEN, opponent, (), (), [(ORDERED, 40, 0)], 5, 7, 40, None, None, CHANCE
        )


def test_against_a_band_player_master_deals_its_samples_the_band_rule() -> None:
    """A gap player goes out with 31 in its last slot; a band player keeps 31 near its place, slots 7 and 8, and
    does not: handing 31 on costs less against a band player."""
    rack = (2, 5, 9, 13, 17, 21, 25, 29, 37, 33)
    opponent = [1, 3, 7, 10, 14, 18, 22, 26, 30, 12]
    seen = {*rack, *opponent, 31}
    hidden = [card for card in range(1, 41) if card not in seen]
    band = [(1, 1.0, 0.05, 0.05, 0.1, 0.001, 1.0)]
    positions = [(rack, 31, 0)]
    ((by_band, _),) = kernel.rate(
        40, False, hidden, NOTHING_HIDDEN, opponent, band, [], hidden, positions, 8, 1, CHANCE
    )
    ((by_gap, _),) = kernel.rate(
        40, False, hidden, NOTHING_HIDDEN, opponent, GAP_ROW, [], hidden, positions, 8, 1, CHANCE
    )
    assert by_gap == 0.0 and by_band > 0.5
