"""The batch simulator (racko.envs.batch): round for round the same outcomes as the engine with the real ``easy`` and
``medium`` bots from the same deck orders (and refill orders); the same seed, the same rounds, for any number of
threads; the stepwise env's views, masks and results against an engine round mirrored beside it."""

from __future__ import annotations

import json
import random

import numba
import numpy as np
import pytest
from typer.testing import CliRunner

from racko import bots
from racko.actions import action_from_index
from racko.bots.gaps import cards_that_may_come
from racko.bots.runner import play_round
from racko.cli import app
from racko.envs.batch import BatchEnv, BatchVectorEnv, Table, play_decks, simulate
from racko.errors import IllegalActionError, RulesError, UnknownActionError
from racko.round import Round
from racko.rules import Rules, variant

runner = CliRunner()


def _rules(table: Table) -> Rules:
    table = table.resolved()
    return variant("classic").rules(
        table.players,
        deck_size=table.deck_size,
        two_player_rule=table.two_player_rule,
        turn_cap=table.turn_cap,
        refill=table.refill,
    )


def _decks(count: int, size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    decks = []
    for _ in range(count):
        deck = list(range(1, size + 1))
        rng.shuffle(deck)
        decks.append(deck)
    return decks


def _engine_agrees(policy: str, table: Table, count: int, seed: int) -> int:
    """Play ``count`` sampled deals in the simulator and in the engine; returns how many refilled the stock."""
    rules = _rules(table)
    players = rules.players
    decks = _decks(count, rules.deck_size, seed)
    dealers = [index % players for index in range(count)]
    outcomes = play_decks(decks, dealers, [policy] * players, table, seed=seed, keep_refills=100)
    assert outcomes.scores is not None and outcomes.racks is not None and outcomes.refills is not None
    refilled = 0
    for index, deck in enumerate(decks):
        reshuffles = [tuple(int(card) for card in order if card) for order in outcomes.refills[index] if order.any()]
        round_ = Round(rules, deck, dealers[index], reshuffles=reshuffles)
        result = play_round(round_, [bots.create(policy, seed=seat) for seat in range(players)])
        winner = -1 if result.winner is None else result.winner
        assert (winner, result.turns) == (outcomes.winners[index], outcomes.turns[index]), f"deal {index}"
        assert list(result.scores) == outcomes.scores[index].tolist(), f"deal {index}"
        assert [list(rack) for rack in result.racks] == outcomes.racks[index].tolist(), f"deal {index}"
        assert result.capped == bool(outcomes.capped[index])
        refilled += any(type(event).__name__ == "Refilled" for event in round_.log)
    return refilled


@pytest.mark.parametrize(("two_player_rule", "refills"), [(False, 5), (True, 300)])
def test_bucket_policy_agrees_with_easy_round_for_round(two_player_rule: bool, refills: int) -> None:
    assert _engine_agrees("easy", Table(2, two_player_rule=two_player_rule), 1500, seed=1) > refills


@pytest.mark.parametrize(("two_player_rule", "refills"), [(False, -1), (True, -1)])
def test_gap_policy_agrees_with_medium_round_for_round(two_player_rule: bool, refills: int) -> None:
    # medium rarely empties the stock, with the 2-player rule or without it (the bucket policy's test above
    # refills hundreds of times).
    assert _engine_agrees("medium", Table(2, two_player_rule=two_player_rule), 300, seed=2) > refills


@pytest.mark.parametrize(("policy", "deck_size"), [("easy", 40), ("medium", 26)])
def test_shuffle_refills_replayed_by_the_engine_agree(policy: str, deck_size: int) -> None:
    # The engine replays recorded orders by copying the round before every action: a low cap keeps it quick.
    # medium goes out before a 40-card stock runs out: 26 cards leave a stock of 5.
    table = Table(2, deck_size=deck_size, refill="shuffle", turn_cap=100)
    assert _engine_agrees(policy, table, 120, seed=3) > 2


@pytest.mark.parametrize(("players", "policy"), [(3, "easy"), (4, "easy"), (3, "medium"), (4, "medium")])
def test_three_and_four_players_agree(players: int, policy: str) -> None:
    _engine_agrees(policy, Table(players), 120, seed=players)


def test_capped_rounds_agree() -> None:
    _engine_agrees("easy", Table(2, two_player_rule=True, turn_cap=12), 300, seed=4)


def test_same_seed_same_rounds_for_any_thread_count() -> None:
    first = simulate(5000, seed=11)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        alone = simulate(5000, seed=11)
    finally:
        numba.set_num_threads(threads)
    other = simulate(5000, seed=12)
    assert np.array_equal(first.winners, alone.winners) and np.array_equal(first.turns, alone.turns)
    assert not np.array_equal(first.turns, other.turns)
    # Both seats start in turn and both win: a fair table.
    wins = np.bincount(first.winners[first.winners >= 0], minlength=2)
    assert wins.min() > 1500


def test_simulated_deals_are_uniform_enough() -> None:
    # The first card dealt (seat 1's slot 50 with dealer 0) is any card equally often.
    table = Table(2, two_player_rule=False)
    outcomes = simulate(20_000, seed=5, table=table)
    assert outcomes.turns.min() >= 1 and not outcomes.capped.any()
    gap = simulate(2000, seed=5, policies=("medium", "medium"), table=table)
    assert gap.turns.mean() < outcomes.turns.mean()  # medium finishes faster than easy


def test_bad_tables_and_decks_are_refused() -> None:
    with pytest.raises(RulesError):
        simulate(10, policies=("easy", "expert"))
    with pytest.raises(RulesError):
        simulate(10, table=Table(5))
    with pytest.raises(RulesError):
        play_decks([[1, 2, 3]], [0])
    with pytest.raises(RulesError):
        play_decks([list(range(1, 41))], [2])


# --- The stepwise env, mirrored by engine rounds ------------------------------------------------------------------


def _mirror(env: BatchEnv, index: int, rules: Rules) -> Round:
    return Round(rules, [int(card) for card in env.deal_orders()[index]], int(env.dealers[index]))


def _play_opponents(round_: Round, env: BatchEnv, opponents: list[bots.Bot | None]) -> None:
    while round_.to_act is not None and opponents[round_.to_act] is not None:
        bot = opponents[round_.to_act]
        assert bot is not None
        round_.apply(bot.act(round_.observation(round_.to_act)))


def _check_view(env: BatchEnv, view: object, index: int, round_: Round) -> None:
    from racko.envs.batch import BatchView

    assert isinstance(view, BatchView)
    seat = round_.to_act
    assert seat is not None and view.seat[index] == seat
    observation = round_.observation(seat)
    public = observation.public
    assert view.rack[index].tolist() == list(observation.rack)
    assert view.phase[index] == (0 if public.phase.value == "pick" else 1)
    assert view.held[index] == (observation.held or 0)
    assert bool(view.taken[index]) == (public.taken_discard is not None)
    assert view.top[index] == (public.discard_top or 0)
    size = int(view.discard_size[index])
    assert view.discard_pile[index, :size].tolist() == list(public.discard_pile)
    assert not view.discard_pile[index, size:].any()
    assert np.flatnonzero(view.unseen[index]).tolist() == cards_that_may_come(observation)
    assert view.known[index].tolist() == [[card or 0 for card in slots] for slots in public.known]
    assert view.stock_size[index] == public.stock_size
    assert view.turns[index] == public.turns
    assert view.mask[index].tolist() == round_.legal_mask()


@pytest.mark.parametrize(
    ("opponent", "players", "count", "steps"),
    [("easy", 2, 24, 300), ("medium", 2, 6, 200), (None, 2, 12, 200), ("easy", 3, 12, 200)],
)
def test_env_views_masks_and_results_match_a_mirrored_engine_round(
    opponent: str | None, players: int, count: int, steps: int
) -> None:
    env = BatchEnv(count, opponent=opponent, players=players, seed=9, turn_cap=60)
    rules = _rules(env.table)
    names = [None if seat == env.seat or opponent is None else opponent for seat in range(players)]
    rng = random.Random(0)
    view = env.reset()
    mirrors = []
    for index in range(count):
        round_ = _mirror(env, index, rules)
        _play_opponents(round_, env, [bots.create(name) if name else None for name in names])
        mirrors.append(round_)
    ended = 0
    for _ in range(steps):
        actions = np.zeros(count, np.int64)
        acting = view.seat.copy()
        for index, round_ in enumerate(mirrors):
            _check_view(env, view, index, round_)
            actions[index] = rng.choice(np.flatnonzero(view.mask[index]).tolist())
            round_.apply(action_from_index(int(view.seat[index]), int(actions[index])))
            _play_opponents(round_, env, [bots.create(name) if name else None for name in names])
        view, rewards, finished = env.step(actions)
        for index, round_ in enumerate(mirrors):
            if round_.result is None:
                assert not finished.done[index]
                continue
            ended += 1
            assert finished.done[index] and finished.unplayed[index] == 0
            result = round_.result
            assert finished.winner[index] == (-1 if result.winner is None else result.winner)
            assert finished.turns[index] == result.turns
            assert finished.scores[index].tolist() == list(result.scores)
            assert finished.racks[index].tolist() == [list(rack) for rack in result.racks]
            seat = acting[index]
            expected = 0.0 if result.winner is None else (1.0 if result.winner == seat else -1.0)
            assert rewards[index] == expected
            mirrors[index] = _mirror(env, index, rules)
            _play_opponents(mirrors[index], env, [bots.create(name) if name else None for name in names])
    assert ended >= count


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    env = BatchEnv(8, seed=3)
    view = env.reset()
    before = env.view()
    actions = np.zeros(8, np.int64)
    actions[5] = 12  # discard while picking
    with pytest.raises(IllegalActionError, match="round 5"):
        env.step(actions)
    with pytest.raises(UnknownActionError):
        env.step(np.zeros(7, np.int64))
    with pytest.raises(UnknownActionError):
        env.step(np.zeros(8, np.float64))
    after = env.view()
    assert np.array_equal(before.rack, after.rack) and np.array_equal(before.mask, after.mask)
    assert np.array_equal(before.discard_pile, after.discard_pile)
    view, _, _ = env.step(np.ones(8, np.int64))  # everyone takes the top discard: it must then be placed
    assert view.taken.all() and not view.mask[:, 12].any()
    with pytest.raises(IllegalActionError):
        env.step(np.full(8, 12, np.int64))
    with pytest.raises(RulesError):
        BatchEnv(0)


def test_a_view_holds_only_the_seats_own_knowledge() -> None:
    # The view's fields are the seat's own (each is checked against the engine's observation above); the cards it
    # has not seen appear only as a set.
    env = BatchEnv(1, seed=21)
    view = env.reset()
    assert set(vars(view)) == {
        "seat", "rack", "phase", "held", "taken", "top", "discard_pile", "discard_size", "unseen", "known",
        "stock_size", "turns", "mask",
    }  # fmt: skip
    seen = {*view.rack[0].tolist(), *view.discard_pile[0].tolist(), *view.known[0].ravel().tolist()}
    hidden = set(env.deal_orders()[0].tolist()) - seen
    assert set(np.flatnonzero(view.unseen[0]).tolist()) == hidden  # unseen: a set, not an order


def test_random_against_bucket_runs_to_the_end_of_rounds() -> None:
    env = BatchEnv(256, opponent="easy", seed=4, two_player_rule=False, reward="round_score")
    rng = np.random.default_rng(0)
    view = env.reset()
    ended = won = 0
    for _ in range(400):
        choices = rng.random(view.mask.shape) * view.mask
        view, rewards, finished = env.step(choices.argmax(axis=1))
        ended += int(finished.done.sum())
        won += int((finished.done & (finished.winner == 0)).sum())
        assert (rewards[finished.done] == finished.scores[finished.done, 0]).all()
    assert ended > 256 and won < ended / 4  # the bucket policy beats random play


def test_self_play_acts_for_every_seat() -> None:
    env = BatchEnv(16, opponent=None, seed=2)
    view = env.reset()
    seats = set()
    for _ in range(40):
        seats.update(view.seat.tolist())
        view, _, _ = env.step(view.mask.argmax(axis=1))
    assert seats == {0, 1}


def test_the_gymnasium_vector_env_steps_within_its_spaces() -> None:
    env = BatchVectorEnv(8, opponent="medium", seed=1, reward="round_score")
    observations, infos = env.reset(seed=3)
    assert env.observation_space.contains(observations)
    assert env.single_action_space.n == 15 and env.metadata["autoreset_mode"].value == "SameStep"
    ended = 0
    for _ in range(150):
        mask = env.action_masks()
        assert np.array_equal(mask, infos["action_mask"]) and np.array_equal(mask, observations["action_mask"])
        observations, rewards, terminated, truncated, infos = env.step(mask.argmax(axis=1))
        assert env.observation_space.contains(observations)
        done = terminated | truncated
        ended += int(done.sum())
        assert (rewards[~done] == 0).all() and (infos["_scores"] == done).all()
    assert ended > 8


def test_bench_batch_prints_its_figures_and_refuses_other_benchmarks_options() -> None:
    result = runner.invoke(app, ["bench", "batch", "--rounds", "20000", "--batches", "2", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert set(figures) == {
        "benchmark", "rounds", "threads", "seconds", "turns_per_second", "turns_per_cpu_second", "rounds_per_second",
        "batch_rates", "mean_turns", "capped", "compile_seconds", "gap_rounds", "gap_turns_per_second",
        "gap_mean_turns",
    }  # fmt: skip
    assert figures["benchmark"] == "classic-2p-batch" and figures["rounds"] == 20000 and figures["gap_rounds"] == 200
    assert 15 < figures["mean_turns"] < 30 and figures["capped"] == 0 and figures["turns_per_second"] > 0
    human = runner.invoke(app, ["bench", "batch", "--rounds", "2000", "--threads", "1"])
    assert human.exit_code == 0 and "turns/s" in human.output and "1 thread" in human.output
    for arguments in (
        ["batch", "server"],
        ["batch", "--tables", "3"],
        ["engine", "--threads", "1"],
        ["server", "--threads", "1"],
    ):
        refused = runner.invoke(app, ["bench", *arguments])
        assert refused.exit_code == 2 and refused.output.startswith("Usage: racko bench ")
    assert runner.invoke(app, ["bench", "batch", "--threads", "99"]).exit_code == 2
