"""The RL environments (:mod:`racko.envs`): PettingZoo's and Gymnasium's own checks for every variant and player
count, the rewards, illegal actions, seeds, and that a seat's observation vector holds only what that seat knows;
the OpenSpiel game with its chance nodes, OpenSpiel's own test and its IS-MCTS bot.
"""

from __future__ import annotations

import doctest
import itertools
import random
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.utils import parallel_to_aec

import racko
import racko.envs.core
from racko import bots
from racko.envs import ENVIRONMENT_IDS, REWARDS, RackoGymEnv, encode, layout, racko_v0
from racko.envs.openspiel_game import GAME_NAME
from racko.errors import RackoError, RulesError
from racko.rules import RACK_SIZE
from test_properties import Knowledge

ROOT = Path(__file__).resolve().parents[1]

TABLES = [
    ("classic", 2),
    ("classic", 3),
    ("classic", 4),
    ("bonus", 2),
    ("bonus", 3),
    ("bonus", 4),
    ("partners", 4),
    ("highlow", 3),
    ("highlow", 4),
    ("highlow", 5),
]
"""Every variant and player count."""

TABLE_IDS = [f"{name}-{players}p" for name, players in TABLES]


@pytest.fixture(autouse=True)
def _quiet_checkers() -> Iterator[None]:
    # PettingZoo's checker advises against dict observations, which its own classic games use.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


# --- PettingZoo's own tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), TABLES, ids=TABLE_IDS)
def test_pettingzoo_api_and_seed_tests(variant: str, players: int) -> None:
    api_test(racko_v0.env(variant=variant, players=players), num_cycles=60)
    seed_test(lambda: racko_v0.env(variant=variant, players=players), num_cycles=60)


@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("partners", 4), ("highlow", 3)])
def test_the_api_test_through_whole_episodes(variant: str, players: int, reward: str) -> None:
    # Short rounds and a low target, so that the test plays episodes to their end.
    api_test(racko_v0.env(variant=variant, players=players, reward=reward, turn_cap=12, target=30), num_cycles=300)


@pytest.mark.parametrize(("variant", "players"), TABLES, ids=TABLE_IDS)
def test_max_cycles_test_on_the_parallel_environment_and_its_aec_form(variant: str, players: int) -> None:
    # max_cycles_test counts that every agent is asked once per cycle, which a turn-based AEC environment (only the
    # agent to act is selected) cannot do; the parallel environment asks every agent, and so does its AEC form.
    def parallel(**kwargs: Any) -> Any:
        return racko_v0.parallel_env(variant=variant, players=players, **kwargs)

    max_cycles_test(
        types.SimpleNamespace(parallel_env=parallel, env=lambda **kwargs: parallel_to_aec(parallel(**kwargs)))
    )
    parallel_api_test(parallel(), num_cycles=40)


def test_max_cycles_truncates_the_turn_based_environment_after_that_many_steps() -> None:
    env = racko_v0.env(variant="bonus", players=3, max_cycles=7)
    env.reset(seed=4)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and steps == 7
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert not env.agents


def test_environments_are_registered_with_pettingzoo_and_gymnasium() -> None:
    for environment_id, (variant_name, _) in ENVIRONMENT_IDS.items():
        aec = pettingzoo.make("aec", environment_id)
        assert aec.unwrapped.rules.variant == variant_name
        assert pettingzoo.make("parallel", environment_id).rules.variant == variant_name
        assert gymnasium.make(environment_id).unwrapped.rules.variant == variant_name
    assert pettingzoo.make("aec", "racko/Classic-v0", players=3).unwrapped.rules.players == 3


# --- Observations, masks and actions -----------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), TABLES, ids=TABLE_IDS)
def test_the_layout_covers_the_vector_and_the_mask_is_the_engines(variant: str, players: int) -> None:
    env = racko_v0.raw_env(variant=variant, players=players)
    env.reset(seed=11)
    blocks = layout(env.rules)
    assert blocks[0].start == 0 and all(a.stop == b.start for a, b in itertools.pairwise(blocks))
    rng = random.Random(3)
    for _ in range(40):
        episode = env.episode
        assert episode is not None
        for seat, agent in enumerate(env.possible_agents):
            observed = env.observe(agent)
            vector = observed["observation"]
            assert env.observation_space(agent).contains(observed)
            assert vector.shape == (blocks[-1].stop,) and vector.dtype == np.float32
            assert np.array_equal(vector, encode(episode.round.observation(seat)))
            mask = observed["action_mask"]
            if seat == episode.to_act:
                assert mask.tolist() == [int(legal) for legal in episode.round.legal_mask()]
            else:
                assert not mask.any(), "an agent not to act has an all-zero mask"
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(rng.choice(legal)))


def test_docs_envs_md_names_every_block() -> None:
    text = (ROOT / "docs" / "ENVS.md").read_text(encoding="utf-8")
    for variant, players in [("classic", 2), ("highlow", 3)]:
        for block in layout(racko.variant(variant).rules(players)):
            assert f"`{block.name}`" in text, block.name


def test_the_examples_in_docs_envs_md() -> None:
    failures, tried = doctest.testfile(str(ROOT / "docs" / "ENVS.md"), module_relative=False)
    assert tried and not failures


def test_an_illegal_action_changes_nothing_and_costs_the_illegal_reward() -> None:
    env = racko_v0.env(variant="classic", players=2, illegal_reward=-0.5)
    env.reset(seed=5)
    agent = env.agent_selection
    before = env.observe(agent)
    env.step(racko.actions.DISCARD_INDEX)  # discarding before drawing
    observation, reward, terminated, truncated, info = env.last()
    assert env.agent_selection == agent and reward == -0.5 and info == {"illegal_action": True}
    assert not terminated and not truncated
    assert np.array_equal(observation["observation"], before["observation"])
    env.step(99)  # not an action at all
    assert env.last()[4] == {"illegal_action": True}
    env.step(racko.actions.DRAW_INDEX)
    assert env.infos[agent] == {} and env.agent_selection == agent


# --- Seeds -----------------------------------------------------------------------------------------------------


def test_a_seeded_episode_is_the_engines_game_of_that_seed() -> None:
    env = racko_v0.raw_env(variant="highlow", players=4)
    env.reset(seed=2024)
    game = racko.Match(env.rules, seed=2024)
    rng = random.Random(1)
    for _ in range(30):
        seat = game.to_act
        assert seat is not None and env.agent_selection == f"player_{seat}"
        assert np.array_equal(env.observe(env.agent_selection)["observation"], encode(game.observation(seat)))
        index = rng.choice([i for i, legal in enumerate(game.legal_mask()) if legal])
        env.step(index)
        game.apply(game.family.action_from_index(seat, index))


def test_unseeded_resets_after_a_seeded_one_repeat() -> None:
    def episodes() -> list[int]:
        env = racko_v0.raw_env(variant="classic", players=3)
        env.reset(seed=9)
        seeds = []
        for _ in range(3):
            env.reset()
            assert env.episode is not None
            seeds.append(env.episode.match.seed)
        return seeds

    assert episodes() == episodes()


# --- Rewards ---------------------------------------------------------------------------------------------------


def play_aec_with_bots(env: Any, name: str = "easy", seed: int = 0) -> dict[str, float]:
    """Play an AEC episode to its end, every seat the named bot on its own observation; the rewards summed."""
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    players = {agent: bots.create(name, seed=seed + number) for number, agent in enumerate(env.possible_agents)}
    for agent in env.agent_iter(100_000):
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        episode = env.unwrapped.episode
        seat = env.possible_agents.index(agent)
        action = players[agent].act(episode.observation(seat))
        env.step(episode.family.action_index(action))
        for name_, reward in env.rewards.items():
            totals[name_] += reward
    return totals


@pytest.mark.parametrize(("variant", "players"), [("classic", 3), ("bonus", 2), ("partners", 4), ("highlow", 3)])
def test_round_rewards_are_the_round_win_and_the_round_score(variant: str, players: int) -> None:
    for reward in ("round_win", "round_score"):
        env = racko_v0.env(variant=variant, players=players, reward=reward)
        env.reset(seed=31)
        totals = play_aec_with_bots(env)
        episode = env.unwrapped.episode
        result = episode.first_round.result
        rules = episode.rules
        assert result is not None and episode.match.rounds[0] is episode.first_round
        for seat, agent in enumerate(env.possible_agents):
            if reward == "round_score":
                assert totals[agent] == rules.side_totals(result.scores)[rules.side_of(seat)]
            elif result.winner is None:
                assert totals[agent] == 0
            else:
                assert totals[agent] == (1 if rules.side_of(seat) == rules.side_of(result.winner) else -1)


def test_a_capped_round_gives_no_round_win_reward() -> None:
    env = racko_v0.env(variant="classic", players=2, reward="round_win", turn_cap=4)
    env.reset(seed=1)
    assert play_aec_with_bots(env, "random") == {"player_0": 0.0, "player_1": 0.0}
    assert env.unwrapped.episode.first_round.result.capped


def test_the_game_reward_is_the_game_outcome() -> None:
    env = racko_v0.env(variant="partners", players=4, reward="game", target=150)
    env.reset(seed=8)
    totals = play_aec_with_bots(env)
    outcome = env.unwrapped.episode.match.outcome
    assert outcome is not None
    assert totals == {f"player_{seat}": 1.0 if seat in outcome.seats else -1.0 for seat in range(4)}


def test_an_unknown_reward_is_refused() -> None:
    with pytest.raises(RulesError, match="round_score"):
        racko_v0.env(reward="points")


# --- Gymnasium -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("environment_id", list(ENVIRONMENT_IDS))
def test_gymnasium_check_env(environment_id: str) -> None:
    env = gymnasium.make(environment_id, render_mode="ansi")
    check_env(env.unwrapped)
    _, info = env.reset(seed=3)
    assert np.array_equal(info["action_mask"], env.unwrapped.action_masks())
    assert env.unwrapped.action_masks().dtype == bool
    assert "player_0" in env.render()


def test_gymnasium_against_the_expert_with_every_reward() -> None:
    for reward in REWARDS:
        env = gymnasium.make("racko/Classic-v0", opponents=["expert"], reward=reward, target=100)
        _, info = env.reset(seed=12)
        agent = bots.create("easy", seed=2)
        total, done = 0.0, False
        while not done:
            episode = env.unwrapped.episode
            action = episode.family.action_index(agent.act(episode.observation(0)))
            assert info["action_mask"][action]
            _, step_reward, terminated, truncated, info = env.step(action)
            total += float(step_reward)
            done = terminated or truncated
        episode = env.unwrapped.episode
        result = episode.first_round.result
        assert result is not None
        if reward == "round_score":
            assert total == result.scores[0]
        elif reward == "round_win":
            assert total == (0 if result.winner is None else 1 if result.winner == 0 else -1)
        else:
            assert episode.match.outcome is not None
            assert total == (1 if 0 in episode.match.outcome.seats else -1)


def test_gymnasium_illegal_action_and_seat() -> None:
    env = RackoGymEnv("highlow", ["random", "expert"], seat=2)
    observation, info = env.reset(seed=6)
    assert env.episode is not None and env.episode.to_act == 2
    assert np.array_equal(observation, encode(env.episode.observation(2)))
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and info["illegal_action"] and not terminated and not truncated
    assert np.array_equal(again, observation)


def test_gymnasium_opponents_must_play_the_variant() -> None:
    with pytest.raises(RackoError, match="medium cannot play High-Low"):
        RackoGymEnv("highlow", ["medium", "easy"])
    with pytest.raises(RulesError):
        RackoGymEnv("partners", ["easy"])


def test_a_vector_environment_steps_a_batch() -> None:
    envs = gymnasium.make_vec("racko/Bonus-v0", num_envs=3, vectorization_mode="sync", reward="round_win")
    observations, infos = envs.reset(seed=21)
    assert observations.shape == (3, envs.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    for _ in range(30):
        masks = np.stack(envs.call("action_masks"))
        assert np.array_equal(masks, infos["action_mask"].astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        assert rewards.shape == terminations.shape == truncations.shape == (3,)
        assert observations.shape[0] == 3
    envs.close()


# --- Hidden information ---------------------------------------------------------------------------------------


def replaying_deck(monkeypatch: pytest.MonkeyPatch, deck: list[int]) -> None:
    """Make the environments deal ``deck`` in the first round (the rest of the game from the seed as usual)."""
    real = racko.Match

    def match(rules: racko.Rules, *, seed: int) -> racko.Match:
        return real(rules, seed=seed, decks=[deck])

    monkeypatch.setattr(racko.envs.core, "Match", match)


def play_recording(env: Any, seed: int, steps: int) -> tuple[list[int], list[list[Any]]]:
    """Play ``steps`` random legal actions; the actions, and every agent's observation vector before each."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    actions: list[int] = []
    vectors: list[list[Any]] = []
    for _ in range(steps):
        vectors.append([env.observe(agent)["observation"] for agent in env.possible_agents])
        index = int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        env.step(index)
        actions.append(index)
    vectors.append([env.observe(agent)["observation"] for agent in env.possible_agents])
    return actions, vectors


def replay(env: Any, seed: int, actions: list[int]) -> list[list[Any]]:
    env.reset(seed=seed)
    vectors = []
    for index in actions:
        vectors.append([env.observe(agent)["observation"] for agent in env.possible_agents])
        env.step(index)
        assert not env.infos[env.agent_selection].get("illegal_action")
    vectors.append([env.observe(agent)["observation"] for agent in env.possible_agents])
    return vectors


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("variant", "players"), [("classic", 3), ("bonus", 2), ("partners", 4)])
def test_a_seats_vector_is_the_same_in_deals_that_differ_only_in_cards_it_never_saw(
    monkeypatch: pytest.MonkeyPatch, variant: str, players: int, seed: int
) -> None:
    # Play a game, with the property tests' independent account of what each seat was shown; then deal again with
    # the cards one seat never saw moved round among their places, replay the same actions, and compare.
    env = racko_v0.raw_env(variant=variant, players=players, reward="round_win", turn_cap=500)
    env.reset(seed=seed)
    assert env.episode is not None
    first = env.episode.first_round
    knowledge = Knowledge(first)

    actions: list[int] = []
    vectors: list[list[Any]] = []
    rng = random.Random(seed)
    for _ in range(40):
        vectors.append([env.observe(agent)["observation"] for agent in env.possible_agents])
        seat = env.episode.to_act
        index = int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        action = env.episode.family.action_from_index(seat, index)
        knowledge.before(first, action)
        env.step(index)
        knowledge.after(first, action)
        actions.append(index)
    vectors.append([env.observe(agent)["observation"] for agent in env.possible_agents])
    assert not first.over

    deck = list(first.deck)
    for seat in range(players):
        never_seen = sorted(set(deck) - knowledge.seat[seat])
        assert len(never_seen) >= 2
        moved = dict(zip(never_seen, never_seen[1:] + never_seen[:1], strict=True))
        replaying_deck(monkeypatch, [moved.get(card, card) for card in deck])
        other = racko_v0.raw_env(variant=variant, players=players, reward="round_win", turn_cap=500)
        replayed = replay(other, seed, actions)
        assert other.episode is not None and other.episode.first_round.deck != first.deck
        for step, (seen, again) in enumerate(zip(vectors, replayed, strict=True)):
            assert np.array_equal(seen[seat], again[seat]), f"seat {seat}'s vector changed at step {step}"
        assert any(
            not np.array_equal(replayed[-1][agent], vectors[-1][agent]) for agent in range(players) if agent != seat
        ), "the moved cards were seen by nobody else either: the test would prove nothing"


@pytest.mark.parametrize("seed", [1, 2])
def test_in_high_low_a_seats_vector_does_not_show_the_stocks_order(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    env = racko_v0.raw_env(variant="highlow", players=4, reward="round_win")
    actions, vectors = play_recording(env, seed, 30)
    assert env.episode is not None
    first = env.episode.first_round
    deck = list(first.deck)
    top = len(deck) - first.stock_size  # the next card to draw, and one deeper in the stock that differs from it
    deeper = next(index for index in range(top + 1, len(deck)) if deck[index] != deck[top])
    deck[top], deck[deeper] = deck[deeper], deck[top]
    replaying_deck(monkeypatch, deck)
    other = racko_v0.raw_env(variant="highlow", players=4, reward="round_win")
    assert np.array_equal(np.array(replay(other, seed, actions)), np.array(vectors))
    assert other.episode is not None and other.episode.first_round.stock() != first.stock()


def test_the_rack_blocks_hold_the_seats_own_rack() -> None:
    rules = racko.variant("classic").rules(3)
    game = racko.Match(rules, seed=77)
    blocks = {block.name: block for block in layout(rules)}
    for seat in range(3):
        vector = encode(game.observation(seat))
        rack = vector[blocks["rack"].start : blocks["rack"].stop].reshape(RACK_SIZE, rules.deck_size)
        assert [int(np.argmax(row)) + 1 for row in rack] == list(game.round.rack(seat))


# --- OpenSpiel --------------------------------------------------------------------------------------------------


def play_spiel(state: Any, rng: np.random.RandomState, choose: Callable[[Any], int] | None = None) -> Any:
    """Play an OpenSpiel state to its end: chance by its outcomes, players by ``choose`` or at random."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(choose(state) if choose is not None else int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2, "turn_cap": 60},
        {"variant": "bonus", "players": 3, "refill": "shuffle", "turn_cap": 40},
        {"variant": "partners", "players": 4, "reward": "round_score", "refill": "shuffle", "turn_cap": 40},
    ],
    ids=["classic-2p", "bonus-3p-shuffle", "partners-shuffle"],
)
def test_openspiel_random_sim_test(params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(GAME_NAME, params), num_sims=3, serialize=False, verbose=False)


def test_openspiel_deal_blind_draws_and_shuffle_refills_are_chance_nodes() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "refill": "shuffle", "turn_cap": 80})
    state = game.new_initial_state()
    for _ in range(racko.RACK_SIZE * 2 + 1):  # the deal and the turned-up card
        assert state.is_chance_node() and len(state.chance_outcomes()) == 40 - len(state.dealt)
        state.apply_action(state.chance_outcomes()[0][0])
    rng = np.random.RandomState(5)
    draws = refills = 0
    while not state.is_terminal():
        assert not state.is_chance_node()
        round_ = state.round
        action = int(rng.choice(state.legal_actions()))
        refilling = round_.stock_size == 0 and action != racko.actions.DRAW_INDEX
        state.apply_action(action)
        if action == racko.actions.DRAW_INDEX or refilling:  # a blind draw, or the move that empties the stock
            assert state.is_chance_node()
            outcomes = state.chance_outcomes()
            assert abs(sum(probability for _, probability in outcomes) - 1) < 1e-9
            if refilling:
                assert sorted(card - 1 for card in state._pile_after(state.pending)) == [a for a, _ in outcomes]
            draws += not refilling
            refills += refilling
            state.apply_action(int(rng.choice([a for a, _ in outcomes])))
    assert draws > 10 and refills >= 1


def test_openspiel_game_is_the_engines_round() -> None:
    state = play_spiel(
        pyspiel.load_game(GAME_NAME, {"variant": "bonus", "players": 2}).new_initial_state(), np.random.RandomState(2)
    )
    round_ = state.round
    assert round_.over and round_.deck[: racko.RACK_SIZE * 2 + 1] == tuple(state.dealt)
    assert round_.dealer == 0 and len(state.actions) == len(round_.actions)
    result = round_.result
    expected = [0.0, 0.0] if result.winner is None else [1.0 if seat == result.winner else -1.0 for seat in range(2)]
    assert state.returns() == expected


def test_openspiel_resampling_keeps_the_players_information_and_changes_the_rest() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3, "refill": "shuffle", "turn_cap": 80})
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.actions) < 120:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for _ in range(10):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(other.information_state_tensor(player), state.information_state_tensor(player))
        assert other.legal_actions() == state.legal_actions()
        changed += other.round.rack((player + 1) % 3) != state.round.rack((player + 1) % 3)
    assert changed


def test_openspiels_is_mcts_bot_plays_a_round() -> None:
    game = pyspiel.load_game(GAME_NAME, {"variant": "bonus", "players": 2, "turn_cap": 30})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=2.0,
        max_simulations=8,
        random_state=rng,
    )
    state = play_spiel(
        game.new_initial_state(),
        rng,
        lambda state: bot.step(state) if state.current_player() == 0 else int(rng.choice(state.legal_actions())),
    )
    assert state.round.over and len(state.returns()) == 2


def test_openspiel_refuses_high_low() -> None:
    with pytest.raises(pyspiel.SpielError, match="not offered"):
        pyspiel.load_game(GAME_NAME, {"variant": "highlow", "players": 3})
