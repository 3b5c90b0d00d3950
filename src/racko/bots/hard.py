"""``hard``: weighs the top discard against the expected value of a blind draw (one-ply expectimax).

Like ``medium`` it values racks with :mod:`racko.bots.gaps`; before taking the
discard it averages, over every card that may come, the best it could do with
that card, and takes the discard only when that beats the draw.
"""

from __future__ import annotations

from racko.actions import Action, CallRacko, DrawFromStock, Exchange, TakeDiscard
from racko.bots.base import register
from racko.bots.gaps import RackValuer, cards_that_may_come
from racko.bots.medium import MediumBot
from racko.errors import RackoError
from racko.families import AnyObservation
from racko.observation import Observation


@register
class HardBot(MediumBot):
    name = "hard"
    level = 3
    description = "Weighs the top discard against what a blind draw is worth on average."

    def _take_beats_draw(
        self, valuer: RackValuer, rack: tuple[int, ...], may_come: list[int], now: float, take_cost: float
    ) -> bool:
        """Take the discard only when it beats the average of a blind draw."""
        return take_cost < self.draw_value(valuer, rack, may_come, now)

    def draw_value(self, valuer: RackValuer, rack: tuple[int, ...], may_come: list[int], now: float) -> float:
        """The cost expected after drawing from the stock: the average over the cards that may come."""
        return valuer.draw_cost(rack, may_come, now)

    def evaluate(self, observation: AnyObservation) -> list[tuple[Action, float]]:
        """Every legal action with the draws the rack would still need after it (lower is better), best first.

        Computed from the observation alone; used by ``racko hint``.
        """
        if not isinstance(observation, Observation):
            raise RackoError("Hints are for the classic variants only (not yet High-Low).")
        public = observation.public
        may_come = cards_that_may_come(observation)
        valuer = self.valuer(observation, may_come)
        rack = observation.rack
        now = valuer.cost(rack)
        rated: list[tuple[Action, float]] = []
        for action in observation.legal_actions():
            if isinstance(action, CallRacko):
                value = 0.0
            elif isinstance(action, Exchange):
                card = observation.held
                assert card is not None
                changed = list(rack)
                changed[action.slot] = card
                value = valuer.cost(changed)
            elif isinstance(action, TakeDiscard):
                value = valuer.best_placement(rack, public.discard_pile[-1])[0]
            elif isinstance(action, DrawFromStock):
                value = self.draw_value(valuer, rack, may_come, now)
            else:  # Discard, Wait: the rack stays as it is
                value = now
            rated.append((action, value))
        rated.sort(key=lambda pair: pair[1])
        return rated
