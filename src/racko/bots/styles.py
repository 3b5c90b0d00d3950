"""Playing styles other than the gap valuation: ``band`` and ``sequence``, opponents for the arena and types of
player for ``master``'s model of the opponent it meets (:mod:`racko.bots.opponents`).

Both are what people describe doing at the table, written down as rules:

- **band** (:class:`BandBot`): every card has a place, ``(c - 0.5) * 10 / N - 0.5`` slots from slot 5 (card 1 of 40
  near the first slot, card 40 near the last), and may only go into a fixed band of slots around it
  (:data:`BAND_WIDTH` each side).  A card goes into the slot of its band where it gains most: the card it replaces
  sits further from its own place than the new one would, and the slot's neighbours end up in order more often
  (:func:`band_gain`).  It takes the top discard, or keeps a drawn card, only when that gains.
- **sequence** (:class:`SequenceBot`): builds the rack from the low end.  Slot 5 wants a low card; every slot after
  a built one wants a card above it, no further above than :data:`SEQUENCE_TOLERANCE` times an even share of the
  numbers left (:func:`frontier`, :func:`sequence_range`).  A card that fits the first slot not yet built goes
  there; one that does not is put where the bucket rule of ``easy`` says, if that slot lies above the built part
  and holds a card that does not belong there (:func:`sequence_slot`).

Under the 2-player rule both, once their rack is in order without a run of three, take or keep the card that
lengthens their longest run, as ``easy`` does.  Neither is part of the ladder of levels
(:func:`racko.bots.arena_opponents` lists them apart): they are there to be met and modelled, not chosen as a level.
The C kernel (``racko.bots._rollout``) makes the same choices for the opponent model's likelihoods and races (the
tests compare).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from racko.actions import CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.bots.base import Bot, register
from racko.bots.bucket import bucket_slot, run_slot
from racko.errors import RackoError
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowObservation
from racko.observation import Phase
from racko.rules import RACK_SIZE

BAND_WIDTH = 1.0
"""``band``: how far from its place, in slots, a card may go."""
BAND_ORDER = 1.0
"""``band``: what one more neighbour in order is worth, in slots of distance from the place."""
SEQUENCE_TOLERANCE = 1.5
"""``sequence``: how far above the last built card the next may be, in even shares of the numbers left above it."""

GAINS = 1e-9
"""The least gain that counts (against rounding)."""


def place_of(card: int, deck_size: int) -> float:
    """Where ``card`` belongs in a rack, in slots from the first (0) to the last (9), spread evenly."""
    return (card - 0.5) * RACK_SIZE / deck_size - 0.5


def _in_order_around(rack: Sequence[int], slot: int, card: int) -> int:
    """How many of the slot's neighbours are in order with ``card`` in the slot (an end counts as in order)."""
    below = slot == 0 or rack[slot - 1] < card
    above = slot == RACK_SIZE - 1 or card < rack[slot + 1]
    return int(below) + int(above)


def band_gain(rack: Sequence[int], slot: int, card: int, deck_size: int, width: float = BAND_WIDTH) -> float | None:
    """What putting ``card`` into ``slot`` gains a ``band`` player, or ``None`` when the slot is outside the card's
    band: the distance of the card there from its place less the new card's, plus :data:`BAND_ORDER` per neighbour
    more in order."""
    if abs(slot - place_of(card, deck_size)) > width + GAINS:
        return None
    closer = abs(slot - place_of(rack[slot], deck_size)) - abs(slot - place_of(card, deck_size))
    order = _in_order_around(rack, slot, card) - _in_order_around(rack, slot, rack[slot])
    return closer + BAND_ORDER * order


def band_slot(rack: Sequence[int], card: int, deck_size: int, width: float = BAND_WIDTH) -> tuple[float, int]:
    """The ``band`` player's best slot for ``card`` and its gain (the lowest slot among equals; ``(-inf, -1)`` when
    no slot is in the card's band)."""
    best, best_slot = float("-inf"), -1
    for slot in range(RACK_SIZE):
        gain = band_gain(rack, slot, card, deck_size, width)
        if gain is not None and gain > best + GAINS:
            best, best_slot = gain, slot
    return best, best_slot


def sequence_range(below: int, slot: int, deck_size: int, tolerance: float = SEQUENCE_TOLERANCE) -> tuple[int, int]:
    """The cards a ``sequence`` player wants in ``slot`` when the slot before holds ``below`` (0 for the first
    slot): above it, at most ``tolerance`` even shares of the numbers left above it, and room left for the slots
    after."""
    share = (deck_size - below) / (RACK_SIZE - slot)
    high = min(deck_size - (RACK_SIZE - 1 - slot), below + max(1, int(tolerance * share)))
    return below + 1, high


def frontier(rack: Sequence[int], deck_size: int, tolerance: float = SEQUENCE_TOLERANCE) -> int:
    """How many slots, from the first, a ``sequence`` player has built: each holds a card of
    :func:`sequence_range` after the one before."""
    below = 0
    for slot in range(RACK_SIZE):
        low, high = sequence_range(below, slot, deck_size, tolerance)
        if not low <= rack[slot] <= high:
            return slot
        below = rack[slot]
    return RACK_SIZE


def sequence_slot(
    rack: Sequence[int], card: int, deck_size: int, tolerance: float = SEQUENCE_TOLERANCE
) -> tuple[int, int]:
    """The ``sequence`` player's slot for ``card`` and how much it wants it there: 2 for the first slot not yet
    built, 1 for its bucket slot above the built part when the card there does not belong, ``(0, -1)`` for
    nowhere."""
    built = frontier(rack, deck_size, tolerance)
    if built == RACK_SIZE:
        return 0, -1
    low, high = sequence_range(rack[built - 1] if built else 0, built, deck_size, tolerance)
    if low <= card <= high:
        return 2, built
    bucket = bucket_slot(card, deck_size)
    if bucket > built and bucket_slot(rack[bucket], deck_size) != bucket:
        return 1, bucket
    return 0, -1


class _StyleBot(Bot):
    """A style: one rule says where a card goes and whether that is worth a turn (:meth:`slot_for`)."""

    listed: ClassVar[bool] = False
    variants: ClassVar[frozenset[str]] = frozenset({"classic", "bonus"})

    def slot_for(self, rack: tuple[int, ...], card: int, deck_size: int) -> int | None:
        """Where the style puts ``card``, or ``None`` when it would rather not have it."""
        raise NotImplementedError

    def act(self, observation: AnyObservation) -> AnyAction:
        if isinstance(observation, HighLowObservation):
            raise RackoError(f"{self.name} plays the classic variants only, not High-Low.")
        seat = observation.seat
        public = observation.public
        rules = public.rules
        if CallRacko(seat) in observation.legal_actions():
            return CallRacko(seat)
        if public.phase is Phase.DECLARE:
            return Wait(seat)
        rack = observation.rack
        size = rules.deck_size
        needs_run = rules.two_player_rule
        if public.phase is Phase.PLACE:
            held = observation.held
            assert held is not None
            slot = run_slot(rack, held) if needs_run else None
            if slot is None:
                slot = self.slot_for(rack, held, size)
            if slot is not None:
                return Exchange(seat, slot)
            if public.taken_discard is not None:  # not reached: a discard is taken only with a slot for it
                return Exchange(seat, 0)
            return Discard(seat)
        top = public.discard_pile[-1]
        if (needs_run and run_slot(rack, top) is not None) or self.slot_for(rack, top, size) is not None:
            return TakeDiscard(seat)
        return DrawFromStock(seat)


@register
class BandBot(_StyleBot):
    name = "band"
    level = 1
    description = "A style for the arena: aims each card at a fixed band of slots around its place in the rack."

    def slot_for(self, rack: tuple[int, ...], card: int, deck_size: int) -> int | None:
        gain, slot = band_slot(rack, card, deck_size)
        return slot if gain > GAINS else None


@register
class SequenceBot(_StyleBot):
    name = "sequence"
    level = 1
    description = "A style for the arena: builds its rack from the low end, each card a little above the last."

    def slot_for(self, rack: tuple[int, ...], card: int, deck_size: int) -> int | None:
        want, slot = sequence_slot(rack, card, deck_size)
        return slot if want > 0 else None
