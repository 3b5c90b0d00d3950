"""``random``: picks uniformly among the legal actions."""

from __future__ import annotations

from racko.bots.base import Bot, register
from racko.families import AnyAction, AnyObservation


@register
class RandomBot(Bot):
    name = "random"
    level = 0
    description = "Plays any legal move at random, for learning the controls; it practically never goes Rack-O."

    def act(self, observation: AnyObservation) -> AnyAction:
        actions: list[AnyAction] = list(observation.legal_actions())
        return self.rng.choice(actions)
