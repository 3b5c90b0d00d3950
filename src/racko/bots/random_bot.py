"""``random``: picks uniformly among the legal actions."""

from __future__ import annotations

from racko.actions import Action
from racko.bots.base import Bot, register
from racko.observation import Observation


@register
class RandomBot(Bot):
    name = "random"
    description = "Plays any legal move at random: for learning the controls."

    def act(self, observation: Observation) -> Action:
        return self.rng.choice(observation.legal_actions())
