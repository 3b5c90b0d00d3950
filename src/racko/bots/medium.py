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
            raise RackoError("The medium bot plays the classic variants only (not yet High-Low).")
        seat = observation.seat
        public = observation.public
        legal = observation.legal_actions()
        if CallRacko(seat) in legal:
            return CallRacko(seat)
        needs_run = public.rules.two_player_rule
        counts = counts_below(cards_that_may_come(observation), public.rules.deck_size)
        now = cost_for(observation.rack, counts, needs_run)
        if public.phase is Phase.PLACE:
            held = observation.held
            assert held is not None
            cost, slot = best_placement(observation.rack, held, counts, needs_run)
            if public.taken_discard is not None or cost < now:
                return Exchange(seat, slot)
            return Discard(seat)
        if public.phase is Phase.DECLARE:
            return CallRacko(seat)
        top = public.discard_pile[-1]
        cost, _ = best_placement(observation.rack, top, counts, needs_run)
        return TakeDiscard(seat) if cost < now else DrawFromStock(seat)
