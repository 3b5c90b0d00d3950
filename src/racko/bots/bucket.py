"""``easy``: the bucket policy.

Card ``c`` of an ``N``-card deck belongs in slot ``t(c) = (c - 1) * 10 // N``
(0 is slot 5).  Take the top discard if the card now in its slot does not
belong there, and put it there; otherwise draw, and put the drawn card in its
slot unless the card there belongs there, else discard it.  Call Rack-O as
soon as allowed.
"""

from __future__ import annotations

from racko.actions import Action, CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard
from racko.bots.base import Bot, register
from racko.errors import RackoError
from racko.families import AnyObservation
from racko.observation import Observation, Phase
from racko.rules import RACK_SIZE


def bucket_slot(card: int, deck_size: int) -> int:
    """The slot index a card belongs in under the bucket policy."""
    return (card - 1) * RACK_SIZE // deck_size


@register
class BucketBot(Bot):
    name = "easy"
    level = 1
    description = "Sorts cards into ten fixed buckets by number; never plans ahead."

    def act(self, observation: AnyObservation) -> Action:
        if not isinstance(observation, Observation):
            raise RackoError("The easy bot plays the classic variants only (not yet High-Low).")
        seat = observation.seat
        public = observation.public
        phase = public.phase
        rack = observation.rack
        size = public.rules.deck_size
        if phase is Phase.PLACE:
            held = observation.held
            assert held is not None
            slot = bucket_slot(held, size)
            if public.taken_discard is not None or bucket_slot(rack[slot], size) != slot:
                return Exchange(seat, slot)
            return Discard(seat)
        if phase is Phase.DECLARE:
            return CallRacko(seat)
        if not public.rules.auto_racko and CallRacko(seat) in observation.legal_actions():
            return CallRacko(seat)
        top = public.discard_pile[-1]
        slot = bucket_slot(top, size)
        if bucket_slot(rack[slot], size) != slot:
            return TakeDiscard(seat)
        return DrawFromStock(seat)
