"""``medium``: keeps the cheapest sequence of cards to build on, and takes a card only when it lowers that cost.

It values a rack with :mod:`racko.bots.gaps` but looks no further than the card
in front of it: it takes the top discard when placing it makes the rack cheaper
to finish, otherwise draws, and keeps a drawn card only if it helps.  In High-Low
(:mod:`racko.bots.highlow_gaps`) it puts each card where the row is cheapest to
finish in either direction, and swaps two cards when that makes it cheaper.
"""

from __future__ import annotations

from typing import ClassVar

from racko.actions import CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.bots.base import Bot, register
from racko.bots.gaps import PLAIN, GapModel, RackValuer, cards_that_may_come, counts_below
from racko.bots.highlow_gaps import highlow_move
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowAction, HighLowObservation
from racko.observation import Observation, Phase


@register
class MediumBot(Bot):
    name = "medium"
    level = 2
    description = "Builds on its best ordered cards, taking a card only when it helps at once: beats easy 4 times in 5."
    gap_model: ClassVar[GapModel] = PLAIN

    def act(self, observation: AnyObservation) -> AnyAction:
        if isinstance(observation, HighLowObservation):
            return self.highlow_action(observation)
        seat = observation.seat
        public = observation.public
        if CallRacko(seat) in observation.legal_actions():
            return CallRacko(seat)
        if public.phase is Phase.DECLARE:
            return Wait(seat)  # the end of a Bonus turn with nothing to call
        may_come = cards_that_may_come(observation)
        valuer = self.valuer(observation, may_come)
        rack = observation.rack
        now = valuer.cost(rack)
        if public.phase is Phase.PLACE:
            held = observation.held
            assert held is not None
            cost, slot = valuer.best_placement(rack, held)
            if public.taken_discard is not None or cost < now:
                return Exchange(seat, slot)
            return Discard(seat)
        take_cost, _ = valuer.best_placement(rack, public.discard_pile[-1])
        if take_cost < now and self._take_beats_draw(valuer, rack, may_come, now, take_cost):
            return TakeDiscard(seat)
        return DrawFromStock(seat)

    def highlow_action(self, observation: HighLowObservation) -> HighLowAction:
        """High-Low: the placement (or swap) that leaves the row cheapest to finish now."""
        return highlow_move(observation, self.gap_model)

    def valuer(self, observation: Observation, may_come: list[int]) -> RackValuer:
        """This bot's way of costing racks for one decision."""
        counts = counts_below(may_come, observation.public.rules.deck_size)
        return RackValuer(counts, observation.public.rules.two_player_rule, self.gap_model)

    def _take_beats_draw(
        self, valuer: RackValuer, rack: tuple[int, ...], may_come: list[int], now: float, take_cost: float
    ) -> bool:
        """Whether to take a discard that would lower the cost: ``medium`` always does."""
        return True
