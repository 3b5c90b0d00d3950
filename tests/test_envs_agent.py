"""The adapter from the environments' encoding (racko.envs.agent): an agent trained on racko.envs sees, from a
seat's observation as the Bot API sends it (JSON), exactly the vector and mask the environments give that seat,
and its index becomes that seat's action."""

from __future__ import annotations

import numpy as np
import pytest

from racko.envs import racko_v0
from racko.envs.agent import agent_policy, observation_mask
from racko.errors import UnknownActionError
from racko.families import family_of
from racko.observation_json import observation_from_json, observation_to_json


@pytest.mark.parametrize(
    ("variant", "players"), [("classic", 2), ("classic", 3), ("bonus", 2), ("partners", 4), ("highlow", 3)]
)
def test_an_agent_sees_through_the_bot_api_what_the_environment_shows_it(variant: str, players: int) -> None:
    rng = np.random.default_rng(players)
    asked: list[tuple[np.ndarray, np.ndarray]] = []

    def agent(observation: np.ndarray, action_mask: np.ndarray) -> int:
        asked.append((observation, action_mask))
        return int(rng.choice(np.flatnonzero(action_mask)))

    policy = agent_policy(agent)
    env = racko_v0.raw_env(variant=variant, players=players, reward="round_win")
    env.reset(seed=7)
    steps = 0
    for _ in env.agent_iter(max_iter=3000):
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        episode = env.episode
        assert episode is not None
        for seat in range(players):  # every seat, to act or not: what the server would send it, read back
            sent = observation_from_json(observation_to_json(episode.observation(seat)))
            shown = env.observe(f"player_{seat}")
            assert np.array_equal(observation_mask(sent), shown["action_mask"])
            assert observation_mask(sent).dtype == shown["action_mask"].dtype
            if seat == episode.to_act:
                action = policy(sent)
                index = family_of(episode.rules).action_index(action)
                vector, mask = asked[-1]
                assert np.array_equal(vector, shown["observation"]) and np.array_equal(mask, shown["action_mask"])
                assert action.seat == seat and mask[index] == 1
        env.step(index)
        steps += 1
    assert steps > 10 and not env.agents  # the round was played to its end by the adapted agent's choices


def test_an_index_the_mask_does_not_allow_is_refused_with_the_legal_ones() -> None:
    env = racko_v0.raw_env(variant="classic", players=2)
    env.reset(seed=1)
    episode = env.episode
    assert episode is not None and episode.to_act is not None
    seen = episode.observation(episode.to_act)
    with pytest.raises(UnknownActionError, match=r"action 12, which is not legal now \(legal: \[0, 1\]\)"):
        agent_policy(lambda observation, mask: 12)(seen)
    with pytest.raises(UnknownActionError, match="whole number"):
        agent_policy(lambda observation, mask: 0.5)(seen)  # type: ignore[arg-type, return-value]
    assert agent_policy(lambda observation, mask: np.int64(1))(seen).kind == "take"
