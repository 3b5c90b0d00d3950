"""``medium``: keeps the cheapest sequence of cards to build on, and takes a card only when it lowers that cost.

It values a rack with :mod:`racko.bots.gaps` but looks no further than the card
in front of it: it takes the top discard when placing it makes the rack cheaper
to finish, otherwise draws, and keeps a drawn card only if it helps.
"""

from __future__ import annotations

from racko.actions import Action, CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard
from racko.bots.base import Bot, register
from racko.bots.gaps import best_placement, cards_that_may_come, cost_for, counts_below
from racko.errors import RackoError
from racko.families import AnyObservation
from racko.observation import Observation, Phase


@register
class MediumBot(Bot):
    name = "medium"
    level = 2
    description = "Builds on its best ordered cards and takes a card only when it helps right away."

    def act(self, observation: AnyObservation) -> Action:
        if not isinstance(observation, Observation):
            raise RackoError(f"The {self.name} bot plays the classic variants only (not yet High-Low).")
        seat = observation.seat
        public = observation.public
        if public.phase is Phase.DECLARE or CallRacko(seat) in observation.legal_actions():
            return CallRacko(seat)
        needs_run = public.rules.two_player_rule
        may_come = cards_that_may_come(observation)
        counts = counts_below(may_come, public.rules.deck_size)
        rack = observation.rack
        now = cost_for(rack, counts, needs_run)
        if public.phase is Phase.PLACE:
            held = observation.held
            assert held is not None
            cost, slot = best_placement(rack, held, counts, needs_run)
            if public.taken_discard is not None or cost < now:
                return Exchange(seat, slot)
            return Discard(seat)
        take_cost, _ = best_placement(rack, public.discard_pile[-1], counts, needs_run)
        if take_cost >= now:
            return DrawFromStock(seat)
        return (
            TakeDiscard(seat)
            if self._take_beats_draw(rack, may_come, counts, needs_run, now, take_cost)
            else (DrawFromStock(seat))
        )

    def _take_beats_draw(
        self,
        rack: tuple[int, ...],
        may_come: list[int],
        counts: list[int],
        needs_run: bool,
        now: float,
        take_cost: float,
    ) -> bool:
        """Whether to take a discard that would lower the cost: ``medium`` always does."""
        return True
