"""``hard``: weighs the top discard against the expected value of a blind draw (one-ply expectimax).

Like ``medium`` it values racks with :mod:`racko.bots.gaps`; before taking the
discard it averages, over every card that may come, the best it could do with
that card, and takes the discard only when that beats the draw.
"""

from __future__ import annotations

from racko.actions import Action, CallRacko, DrawFromStock, Exchange, TakeDiscard
from racko.bots.base import register
from racko.bots.gaps import best_placement, cards_that_may_come, cost_for, counts_below
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
        self,
        rack: tuple[int, ...],
        may_come: list[int],
        counts: list[int],
        needs_run: bool,
        now: float,
        take_cost: float,
    ) -> bool:
        """Take the discard only when it beats the average of a blind draw."""
        return take_cost < _draw_cost(rack, may_come, counts, needs_run, now)

    def evaluate(self, observation: AnyObservation) -> list[tuple[Action, float]]:
        """Every legal action with the draws the rack would still need after it (lower is better), best first.

        Computed from the observation alone; used by ``racko hint``.
        """
        if not isinstance(observation, Observation):
            raise RackoError("Hints are for the classic variants only (not yet High-Low).")
        public = observation.public
        needs_run = public.rules.two_player_rule
        may_come = cards_that_may_come(observation)
        counts = counts_below(may_come, public.rules.deck_size)
        rack = observation.rack
        now = cost_for(rack, counts, needs_run)
        rated: list[tuple[Action, float]] = []
        for action in observation.legal_actions():
            if isinstance(action, CallRacko):
                value = 0.0
            elif isinstance(action, Exchange):
                card = observation.held
                assert card is not None
                changed = list(rack)
                changed[action.slot] = card
                value = cost_for(changed, counts, needs_run)
            elif isinstance(action, TakeDiscard):
                value = best_placement(rack, public.discard_pile[-1], counts, needs_run)[0]
            elif isinstance(action, DrawFromStock):
                value = _draw_cost(rack, may_come, counts, needs_run, now)
            else:  # Discard, Wait: the rack stays as it is
                value = now
            rated.append((action, value))
        rated.sort(key=lambda pair: pair[1])
        return rated


def _draw_cost(rack: tuple[int, ...], may_come: list[int], counts: list[int], needs_run: bool, now: float) -> float:
    """The average cost after a blind draw, keeping the drawn card only where it helps."""
    if not may_come:
        return now
    return sum(min(now, best_placement(rack, card, counts, needs_run)[0]) for card in may_come) / len(may_come)
