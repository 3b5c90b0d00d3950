"""``easy``: the bucket policy.

Card ``c`` of an ``N``-card deck belongs in slot ``t(c) = (c - 1) * 10 // N``
(0 is slot 5).  Take the top discard if the card now in its slot does not
belong there, and put it there; otherwise draw, and put the drawn card in its
slot unless the card there belongs there, else discard it.  Call Rack-O as
soon as allowed.  Under the 2-player rule, a sorted rack without a run of three
takes or keeps a card that keeps it sorted and lengthens its longest run (so
that even a beginner's bot can finish the round).

High-Low, the same idea: number ``c`` belongs at position ``(c - 1) * 10 // 50``
from the left for a Low row (from the right for a High row, whichever has more
cards in their buckets; a Wild belongs anywhere).  The card in hand goes to its
position unless the card there belongs there, else in place of the first card
that does not belong; after a Swap, swap two cards if that puts a card in its
bucket without taking another out of its own.
"""

from __future__ import annotations

from racko.actions import CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.bots.base import Bot, register
from racko.families import AnyAction, AnyObservation
from racko.highlow import HIGHEST, WILD, HighLowObservation, HighLowPhase, KeepOrder, Replace, SwapCards
from racko.observation import Phase
from racko.rules import RACK_SIZE
from racko.scoring import is_ordered, longest_run


def bucket_slot(card: int, deck_size: int) -> int:
    """The slot index a card belongs in under the bucket policy."""
    return (card - 1) * RACK_SIZE // deck_size


@register
class BucketBot(Bot):
    name = "easy"
    level = 1
    description = "Sorts cards into ten fixed buckets by number, never planning ahead: for beginners; beats random."

    def act(self, observation: AnyObservation) -> AnyAction:
        if isinstance(observation, HighLowObservation):
            return _highlow_bucket(observation)
        seat = observation.seat
        public = observation.public
        phase = public.phase
        rack = observation.rack
        size = public.rules.deck_size
        needs_run = public.rules.two_player_rule
        if phase is Phase.PLACE:
            held = observation.held
            assert held is not None
            lengthening = run_slot(rack, held) if needs_run else None
            if lengthening is not None:
                return Exchange(seat, lengthening)
            slot = bucket_slot(held, size)
            if public.taken_discard is not None or bucket_slot(rack[slot], size) != slot:
                return Exchange(seat, slot)
            return Discard(seat)
        if phase is Phase.DECLARE:
            return CallRacko(seat) if CallRacko(seat) in observation.legal_actions() else Wait(seat)
        if not public.rules.auto_racko and CallRacko(seat) in observation.legal_actions():
            return CallRacko(seat)
        top = public.discard_pile[-1]
        slot = bucket_slot(top, size)
        if bucket_slot(rack[slot], size) != slot or (needs_run and run_slot(rack, top) is not None):
            return TakeDiscard(seat)
        return DrawFromStock(seat)


def run_slot(rack: tuple[int, ...], card: int) -> int | None:
    """Under the 2-player rule, a sorted rack still needs a run of three: the slot where ``card`` keeps the rack
    in order and makes its longest run longer, if any (the longest such run; the lowest slot among equals)."""
    if not is_ordered(rack) or longest_run(rack) >= 3:
        return None
    best, best_run = None, longest_run(rack)
    for slot in range(RACK_SIZE):
        placed = (*rack[:slot], card, *rack[slot + 1 :])
        if is_ordered(placed) and longest_run(placed) > best_run:
            best, best_run = slot, longest_run(placed)
    return best


def _highlow_bucket(observation: HighLowObservation) -> AnyAction:
    seat = observation.seat
    row = observation.rack
    low = sum(_belongs(card, position, low=True) for position, card in enumerate(row))
    high = sum(_belongs(card, position, low=False) for position, card in enumerate(row))
    aim_low = low >= high
    if observation.phase is HighLowPhase.SWAP:
        for first in range(RACK_SIZE):
            for second in range(first + 1, RACK_SIZE):
                a, b = row[first], row[second]
                before = _belongs(a, first, aim_low) + _belongs(b, second, aim_low)
                after = _belongs(b, first, aim_low) + _belongs(a, second, aim_low)
                if after > before:
                    return SwapCards(seat, first, second)
        return KeepOrder(seat)
    card = observation.held if observation.held is not None else observation.public.passed_card
    assert card is not None
    if card != WILD:
        position = _bucket(card, aim_low)
        if not _belongs(row[position], position, aim_low):
            return Replace(seat, position)
    for position, current in enumerate(row):
        if not _belongs(current, position, aim_low):
            return Replace(seat, position)
    return Replace(seat, _bucket(card, aim_low) if card != WILD else 0)


def _bucket(card: int, low: bool) -> int:
    position = (card - 1) * RACK_SIZE // HIGHEST
    return position if low else RACK_SIZE - 1 - position


def _belongs(card: int, position: int, low: bool) -> bool:
    return card == WILD or (card > 0 and _bucket(card, low) == position)
