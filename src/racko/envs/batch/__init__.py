"""The batch simulator (issue 16): thousands of classic rounds at once, compiled with numba.

- :func:`simulate` shuffles, deals and plays N rounds under table policies (``easy``'s bucket policy, ``medium``'s
  gap model), for speed (``racko bench batch``) and statistics.
- :func:`play_decks` plays given deck orders: round for round the same outcome as the engine with the real bots.
- :class:`BatchEnv` is the stepwise form for training: the caller acts for one seat (or every seat) of all N
  rounds at once, table policies play the others, and the caller sees only its seat's knowledge.

docs/ENVS.md ("Batch simulator") describes them and how they are tested.
"""

from __future__ import annotations

from racko.envs.batch.simulator import DEFAULT_TURN_CAP, POLICIES, Outcomes, Table, play_decks, simulate
from racko.envs.batch.vector import REWARDS, BatchEnv, BatchVectorEnv, BatchView, Finished

__all__ = [
    "DEFAULT_TURN_CAP",
    "POLICIES",
    "REWARDS",
    "BatchEnv",
    "BatchVectorEnv",
    "BatchView",
    "Finished",
    "Outcomes",
    "Table",
    "play_decks",
    "simulate",
]
