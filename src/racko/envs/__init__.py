"""Reinforcement-learning environments for Rack-O (the ``rl`` extra: ``pip install 'racko[rl]'``).

- :mod:`racko.envs.racko_v0` — PettingZoo: every seat an agent (``racko_v0.env``, ``racko_v0.parallel_env``).
- :class:`RackoGymEnv` — Gymnasium: one seat against racko bots, as ``gymnasium.make("racko/Classic-v0",
  opponents=["expert"])`` (also ``racko/Bonus-v0``, ``racko/Partners-v0``, ``racko/HighLow-v0``), batched with
  ``gymnasium.make_vec``.
- :func:`encode` and :func:`layout` — one seat's observation as a vector, and what each index means.

Importing this package registers the environments with Gymnasium and with PettingZoo's registry
(``pettingzoo.make("aec", "racko/Classic-v0")``).  docs/ENVS.md describes the observations, actions and rewards.
"""

from __future__ import annotations

import gymnasium
import pettingzoo

from racko.envs import racko_v0
from racko.envs.core import REWARDS
from racko.envs.encoding import Block, encode, layout
from racko.envs.multi_agent import RackoAECEnv, RackoParallelEnv
from racko.envs.single_agent import RackoGymEnv

ENVIRONMENT_IDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "racko/Classic-v0": ("classic", ("easy",)),
    "racko/Bonus-v0": ("bonus", ("easy",)),
    "racko/Partners-v0": ("partners", ("easy", "easy", "easy")),
    "racko/HighLow-v0": ("highlow", ("easy", "easy")),
}
"""The registered ids: the variant, and the Gymnasium environment's default opponents."""


def register() -> None:
    """Register every id with Gymnasium and with PettingZoo's AEC and parallel registries (once)."""
    for environment_id, (variant_name, opponents) in ENVIRONMENT_IDS.items():
        if environment_id not in gymnasium.registry:
            gymnasium.register(
                environment_id,
                entry_point="racko.envs.single_agent:RackoGymEnv",
                kwargs={"variant": variant_name, "opponents": list(opponents)},
            )
        if environment_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", environment_id, "racko.envs.racko_v0:env", kwargs={"variant": variant_name})
        if environment_id not in pettingzoo.parallel_registry:
            pettingzoo.register(
                "parallel", environment_id, "racko.envs.racko_v0:parallel_env", kwargs={"variant": variant_name}
            )


register()

__all__ = [
    "ENVIRONMENT_IDS",
    "REWARDS",
    "Block",
    "RackoAECEnv",
    "RackoGymEnv",
    "RackoParallelEnv",
    "encode",
    "layout",
    "racko_v0",
    "register",
]
