"""An agent of the environments, playing from a seat's observation anywhere racko has one: at a server through the
Bot API (``racko bot connect --policy env:module:callable``, docs/BOTS.md), in the arena, in a game of bots.

An *agent* is what a learner trained on :mod:`racko.envs` ends up with: a function from the observation vector and
the action mask (as the environments give them to the seat to act: :func:`racko.envs.encode` and the legal actions
over the family's fixed action space) to an action index.  :func:`agent_policy` turns it into a function from a
racko observation to a racko action: the same encoder and the same action space, so that an agent plays a server's
table exactly as it played the environment.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import SupportsIndex

import numpy as np

from racko.envs.core import Mask
from racko.envs.encoding import Vector, encode
from racko.errors import UnknownActionError
from racko.families import AnyAction, AnyObservation, family_of

Agent = Callable[[Vector, Mask], SupportsIndex]
"""The observation vector and the action mask of the seat to act, to the index of the action it plays."""


def observation_mask(observation: AnyObservation) -> Mask:
    """The legal actions of the observing seat over its family's action space (all zero unless it is to act): the
    mask the environments give that seat, made from its own observation."""
    family = family_of(observation.rules)
    mask = np.zeros(family.action_space_size, dtype=np.int8)
    for action in observation.legal_actions():
        mask[family.action_index(action)] = 1
    return mask


def agent_policy(agent: Agent) -> Callable[[AnyObservation], AnyAction]:
    """A racko policy (a seat's observation to its action) that asks ``agent`` with the environments' encoding.  An
    index outside the mask is refused here, with the legal ones, rather than sent as a move the table refuses."""

    def act(observation: AnyObservation) -> AnyAction:
        mask = observation_mask(observation)
        chosen = agent(encode(observation), mask)
        try:
            index = operator.index(chosen)
        except TypeError:
            raise UnknownActionError(f"The agent chose {chosen!r}; an action is a whole number.") from None
        if not 0 <= index < len(mask) or not mask[index]:
            legal = np.flatnonzero(mask).tolist()
            raise UnknownActionError(f"The agent chose action {index}, which is not legal now (legal: {legal}).")
        action: AnyAction = family_of(observation.rules).action_from_index(observation.seat, index)
        return action

    return act
