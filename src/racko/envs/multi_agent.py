"""PettingZoo environments: every seat an agent (``player_0`` … in seat order), in both of PettingZoo's APIs.

:class:`RackoAECEnv` follows PettingZoo's classic games: the agent selected is the one to act, its observation is
``{"observation": vector, "action_mask": mask}`` over a fixed ``Discrete`` action space, and every other agent's
mask is all zero.  :class:`RackoParallelEnv` asks every agent for an action at each step and applies only the
action of the agent to act (for libraries that speak the parallel API).  In both, an illegal action changes
nothing: its agent is given ``illegal_reward`` and ``infos[agent]["illegal_action"]`` is true, and it decides
again.  ``max_cycles`` truncates the episode after that many steps of the agent to act (illegal ones included).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from racko.envs import encoding
from racko.envs.core import (
    DEFAULT_TURN_CAP,
    Episode,
    SeedSource,
    agent_name,
    check_reward,
    render_table,
    table_rules,
)
from racko.errors import IllegalActionError
from racko.families import family_of

Observed = dict[str, Any]
"""``{"observation": float32 vector, "action_mask": int8 mask}``."""


class _Table:
    """The part both APIs share: the constructor, rules, spaces, the episode and its step counter."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "racko_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        players: int | None = None,
        *,
        reward: str = "game",
        max_cycles: int | None = None,
        illegal_reward: float = -1.0,
        turn_cap: int | None = DEFAULT_TURN_CAP,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()  # the PettingZoo base that follows in the environment's MRO
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"Unknown render mode {render_mode!r}; use 'ansi' or 'human'.")
        self.rules = table_rules(variant, players, turn_cap, options)
        self.reward_kind = check_reward(reward)
        self.max_cycles = max_cycles
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(seat) for seat in range(self.rules.players)]
        self._seats = {name: seat for seat, name in enumerate(self.possible_agents)}
        actions = family_of(self.rules).action_space_size
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(encoding.size(self.rules),), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {name: observation_space for name in self.possible_agents}
        self.action_spaces = {name: spaces.Discrete(actions) for name in self.possible_agents}
        self._seed_source = SeedSource()
        self.agents: list[str] = []  # nobody is in play until reset()
        self.episode: Episode | None = None
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _start(self, seed: int | None) -> Episode:
        self.episode = Episode(self.rules, self.reward_kind, self._seed_source.next(seed))
        self.steps = 0
        return self.episode

    def _observed(self, agent: str) -> Observed:
        assert self.episode is not None, "call reset() first"
        seat = self._seats[agent]
        return {
            "observation": encoding.encode(self.episode.observation(seat)),
            "action_mask": self.episode.mask(seat),
        }

    def _play(self, action: object) -> tuple[tuple[float, ...], bool]:
        """One step of the agent to act: the rewards per seat, and whether the action was legal."""
        episode = self.episode
        assert episode is not None and episode.to_act is not None
        self.steps += 1
        try:
            return episode.play(action), True
        except IllegalActionError:
            rewards = [0.0] * self.rules.players
            rewards[episode.to_act] = self.illegal_reward
            return tuple(rewards), False

    @property
    def _truncated(self) -> bool:
        return self.max_cycles is not None and self.steps >= self.max_cycles

    def _text(self) -> str | None:
        return render_table(self.episode, self.render_mode)


class RackoAECEnv(_Table, AECEnv[str, Observed, int | None]):  # type: ignore[misc]
    """Rack-O for every seat, one agent acting at a time (see the module's docstring and docs/ENVS.md)."""

    def observe(self, agent: str) -> Observed:
        return self._observed(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        episode = self._start(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        to_act = episode.to_act
        self.agent_selection = agent_name(to_act if to_act is not None else episode.round.dealer)
        if episode.over:  # a Rack-O straight from the deal ends a one-round episode before anybody acts
            self._end(episode.rewards())

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self.episode
        assert episode is not None
        self._cumulative_rewards[agent] = 0.0
        rewards, legal = self._play(action)
        self.infos = {name: {} for name in self.agents}
        if not legal:
            self.infos[agent]["illegal_action"] = True
        if episode.over:
            self._end(rewards)
        else:
            self.rewards = {name: rewards[self._seats[name]] for name in self.agents}
            to_act = episode.to_act
            assert to_act is not None
            self.agent_selection = agent_name(to_act)
            if self._truncated:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def _end(self, rewards: tuple[float, ...]) -> None:
        self.rewards = {name: rewards[self._seats[name]] for name in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        return self._text()

    def close(self) -> None:
        self.episode = None


class RackoParallelEnv(_Table, ParallelEnv[str, Observed, int | None]):  # type: ignore[misc]
    """Rack-O for every seat in PettingZoo's parallel API: each step, only the agent to act's action counts."""

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observed], dict[str, dict[str, Any]]]:
        episode = self._start(seed)
        self.agents = [] if episode.over else self.possible_agents[:]
        return {agent: self._observed(agent) for agent in self.agents}, {agent: {} for agent in self.agents}

    def step(
        self, actions: dict[str, int | None]
    ) -> tuple[
        dict[str, Observed],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        episode = self.episode
        if episode is None or not self.agents:
            return {}, {}, {}, {}, {}
        assert episode.to_act is not None
        acting = agent_name(episode.to_act)
        rewards, legal = self._play(actions.get(acting))
        agents = self.agents
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        if not legal:
            infos[acting]["illegal_action"] = True
        over, truncated = episode.over, not episode.over and self._truncated
        observations = {agent: self._observed(agent) for agent in agents}
        if over or truncated:
            self.agents = []
        return (
            observations,
            {agent: rewards[self._seats[agent]] for agent in agents},
            dict.fromkeys(agents, over),
            dict.fromkeys(agents, truncated),
            infos,
        )

    def render(self) -> str | None:
        return self._text()

    def close(self) -> None:
        self.episode = None
