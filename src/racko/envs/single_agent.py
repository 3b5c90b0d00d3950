"""A Gymnasium environment: one seat at the table, every other seat a racko bot.

The agent sees its seat's observation vector (:mod:`racko.envs.encoding`) and chooses an index of the family's
fixed action space; the legal ones are ``info["action_mask"]`` and :meth:`RackoGymEnv.action_masks` (the method
maskable learners call).  After the agent's action the bots play, on their own observations, until the agent is
to act again or the episode is over.  An illegal action changes nothing: the reward is ``illegal_reward`` and
``info["illegal_action"]`` is true.  An episode the agent would never act in (a Rack-O before its first turn in a
one-round episode) is passed over: ``reset`` deals the next one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from racko import bots
from racko.envs import encoding
from racko.envs.core import DEFAULT_TURN_CAP, Episode, Mask, check_reward, table_rules
from racko.errors import IllegalActionError, RackoError
from racko.families import family_of
from racko.rules import variant as find_variant


class RackoGymEnv(gymnasium.Env[encoding.Vector, np.int64]):
    """One seat (``seat``) against ``opponents`` (bot names, one per other seat in seat order; the player count is
    their number plus one).  ``reward``, ``turn_cap`` and rule ``options`` are as in the PettingZoo environments."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012  # as Env declares it

    def __init__(
        self,
        variant: str = "classic",
        opponents: Sequence[str] = ("easy",),
        *,
        seat: int = 0,
        reward: str = "game",
        illegal_reward: float = -1.0,
        turn_cap: int | None = DEFAULT_TURN_CAP,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if isinstance(opponents, str):
            raise RackoError("opponents is a list of bot names, one per other seat, such as ['expert'].")
        names = list(opponents)
        self.rules = table_rules(variant, len(names) + 1, turn_cap, options)
        playing = bots.playing(self.rules.variant)
        unknown = [name for name in names if name not in playing]
        if unknown:
            title = find_variant(self.rules.variant).title
            raise RackoError(f"{', '.join(unknown)} cannot play {title}; bots that do: {', '.join(playing)}.")
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise RackoError(f"The agent's seat must be 0 to {self.rules.players - 1}, not {seat!r}.")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"Unknown render mode {render_mode!r}; use 'ansi' or 'human'.")
        self.seat = seat
        self.opponents = names
        self.reward_kind = check_reward(reward)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, shape=(encoding.size(self.rules),), dtype=np.float32)
        self.action_space = spaces.Discrete(family_of(self.rules).action_space_size)
        self.episode: Episode | None = None
        self._bots: dict[int, bots.Bot] = {}

    # --- Gymnasium's API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[encoding.Vector, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed
        while True:
            if game_seed is None:
                game_seed = int(self.np_random.integers(0, 2**63 - 1))
            self._start(game_seed)
            self._let_bots_play()
            episode = self.episode
            assert episode is not None
            if not episode.over:
                return self._observation(), self._info()
            game_seed = None

    def step(self, action: Any) -> tuple[encoding.Vector, float, bool, bool, dict[str, Any]]:
        episode = self.episode
        if episode is None:
            raise RackoError("Call reset() before step().")
        if episode.over:
            raise RackoError("The episode is over: call reset().")
        try:
            rewards = episode.play(action)
        except IllegalActionError:
            return self._observation(), self.illegal_reward, False, False, self._info(illegal=True)
        reward = rewards[self.seat] + self._let_bots_play()
        return self._observation(), reward, episode.over, False, self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions now, as booleans over the action space."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.episode is None or self.render_mode is None:
            return None
        text = self.episode.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- Inside ------------------------------------------------------------------------------

    def _start(self, game_seed: int) -> None:
        self.episode = Episode(self.rules, self.reward_kind, game_seed)
        others = [seat for seat in range(self.rules.players) if seat != self.seat]
        # Each bot's generator comes from the game's seed, so that the same seed and actions give the same game.
        self._bots = {
            seat: bots.create(name, seed=random.Random(f"racko-envs:{game_seed}:bot:{seat}").randrange(2**63))
            for seat, name in zip(others, self.opponents, strict=True)
        }

    def _let_bots_play(self) -> float:
        """Let the bots act until the agent is to act or the episode is over; the agent's reward meanwhile."""
        episode = self.episode
        assert episode is not None
        reward = 0.0
        while (seat := episode.to_act) is not None and seat != self.seat:
            action = self._bots[seat].act(episode.observation(seat))
            reward += episode.play(episode.family.action_index(action))[self.seat]
        return reward

    def _mask(self) -> Mask:
        assert self.episode is not None, "call reset() first"
        return self.episode.mask(self.seat)

    def _observation(self) -> encoding.Vector:
        assert self.episode is not None
        return encoding.encode(self.episode.observation(self.seat))

    def _info(self, *, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        if illegal:
            info["illegal_action"] = True
        return info
