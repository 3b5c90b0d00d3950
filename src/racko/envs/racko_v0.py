"""The PettingZoo module of Rack-O, named as PettingZoo names its games::

    from racko.envs import racko_v0
    env = racko_v0.env(variant="classic", players=2)

``env`` is the AEC environment wrapped as PettingZoo's classic games are (its calls checked for order),
``raw_env`` the same unwrapped, ``parallel_env`` the parallel API.  Arguments: ``variant`` (``classic``, ``bonus``,
``partners``, ``highlow``, or as people write them), ``players``, ``reward`` (``game``, ``round_win``,
``round_score``), ``max_cycles``, ``illegal_reward``, ``turn_cap``, ``render_mode`` (``ansi`` or ``human``) and
any rule option (``refill="shuffle"``, ``target=300`` …).
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from racko.envs.multi_agent import RackoAECEnv, RackoParallelEnv


def raw_env(**kwargs: Any) -> RackoAECEnv:
    """The AEC environment without wrappers."""
    return RackoAECEnv(**kwargs)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """The AEC environment, its calls checked for order (``reset`` first, no ``step`` after the end)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> RackoParallelEnv:
    """The parallel environment: every live agent gives an action each step; only the agent to act's counts."""
    return RackoParallelEnv(**kwargs)
