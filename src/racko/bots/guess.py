"""The opponent's hidden rack guessed from what this seat saw (2 players), for ``expert``'s sampled denial and
``master``'s races.

- **The slot weights** (:func:`slot_weights`): a slot filled from the discard pile holds a card everyone saw; the
  other slots hold cards this seat has not seen, each weighted by where the card should sit: a card drawn blind and
  kept sits where it fits between its known neighbours; a dealt card that was never replaced may be anything at
  first, and more and more probably fits as turns go by without it being replaced.
- **What the opponent did** (:class:`Watch`, :func:`watched`, :func:`read_turn`): between its own turns a seat reads
  the opponent's last turn from the public view (the discard it was offered, whether it took it, which slot changed
  and what left it, the card it threw away); the C kernel's ``posterior`` weighs each guess of the whole hidden rack
  by how likely a ``hard``-like player was to play those turns from the racks the guess implies.

The bots' use of it is in :class:`racko.bots.expert.ExpertBot` (``guess_weights``, ``denial``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from racko.bots.gaps import cards_that_may_come
from racko.families import AnyObservation
from racko.observation import Observation, Phase
from racko.rules import RACK_SIZE

try:  # the compiled kernel; absent when the package was installed without a C compiler
    from racko.bots import _rollout as kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    kernel = None

MASK = (1 << 64) - 1
"""Seeds handed to the kernel are unsigned 64-bit."""

__all__ = [
    "MASK",
    "Turn",
    "Watch",
    "guess_applies",
    "hidden_cards",
    "kernel",
    "read_turn",
    "slot_weights",
    "turns_taken",
    "watched",
]


def guess_applies(observation: AnyObservation) -> bool:
    """Whether the guess, the sampled denial and ``master``'s races model the round: classic 2-player play, with or
    without the 2-player rule (the kernels then ask for a run of three as well), and Bonus Rack-O, where the first
    rack to qualify usually calls at once (the races count it as out; whether to call or wait is ``expert``'s
    decision).

    Not with 3 or 4 players: the sampled denial of the next player was measured level with the fixed one there
    (docs/STRENGTH.md), and the races play out two seats only.
    """
    if not isinstance(observation, Observation):
        return False
    rules = observation.public.rules
    return rules.players == 2 and not rules.partners


def hidden_cards(observation: Observation) -> list[int]:
    """The cards whose place this seat does not know: those that may come, less a turned-over stock's known order."""
    known_order = set(observation.public.known_stock_order)
    return [card for card in cards_that_may_come(observation) if card not in known_order]


Turn = tuple[int, int, int, int, int, list[int]]
"""One turn of the opponent as the kernel reads it: (the discard it was offered or 0, whether it took it, the slot
that changed or -1, the card that left it or 0, the card it held when that is public or 0, the cards it saw face
up)."""


@dataclass
class Watch:
    """What this seat saw the opponent do in the current round, read between its own turns."""

    round_number: int
    turns_seen: int = -1
    """The round's turn count at this seat's last pick (-1: none yet)."""
    lefts: tuple[int, ...] = (0,) * RACK_SIZE
    """How many cards had left each of the opponent's slots then."""
    turns: list[Turn] = field(default_factory=list)
    """The opponent's turns read since the last gap in what this seat could follow, oldest first."""
    guess: list[int] | None = None
    """The sampler's rack after the last decision (the opponent's known cards and a guess for each hidden slot)."""


def watched(watch: Watch | None, observation: Observation) -> Watch:
    """``watch`` brought up to ``observation`` (2 players): at each of this seat's picks, the opponent's turn since
    the last one is read and added.  A new round starts a new watch; a turn that cannot be read (the discard pile
    was turned over, or this seat did not see the turn before) starts the list of turns again."""
    public = observation.public
    opponent_seat = 1 - observation.seat
    if watch is None or watch.round_number != public.round_number or public.turns < watch.turns_seen:
        watch = Watch(public.round_number)
    if public.phase is not Phase.PICK or watch.turns_seen == public.turns:
        return watch
    lefts = tuple(len(cards) for cards in public.left[opponent_seat])
    follows = watch.turns_seen < 0 or public.turns == watch.turns_seen + 2
    turn = read_turn(observation, watch.lefts) if follows and public.turns > 0 else None
    if turn is None:
        watch.turns = []
    else:
        watch.turns.append(turn)
    watch.lefts = lefts
    watch.turns_seen = public.turns
    return watch


def read_turn(observation: Observation, lefts_before: tuple[int, ...]) -> Turn | None:
    """The opponent's turn just played, from this seat's view at its pick and how many cards had left each of the
    opponent's slots before it; ``None`` when the view does not tell (a turned-over pile, or more than one change).

    The opponent took the top discard when the slot that changed now holds a known card; otherwise it drew, and the
    card it was offered lies under its discard.  When no slot changed, it threw away the card it drew.
    """
    public = observation.public
    if public.turned_over_pile is not None:
        return None
    opponent_seat = 1 - observation.seat
    pile = public.discard_pile
    mine = {card for card in public.known[observation.seat] if card is not None}
    lefts = [len(cards) for cards in public.left[opponent_seat]]
    changed = [slot for slot in range(RACK_SIZE) if lefts[slot] != lefts_before[slot]]
    if not changed:
        if len(pile) < 2:
            return None
        return (pile[-2], 0, -1, 0, pile[-1], sorted({*pile[:-1], *mine}))
    if len(changed) != 1 or lefts[changed[0]] != lefts_before[changed[0]] + 1:
        return None
    slot = changed[0]
    left = public.left[opponent_seat][slot][-1]
    taken = public.known[opponent_seat][slot]
    if taken is not None:
        return (taken, 1, slot, left, taken, sorted({*pile[:-1], taken, *mine}))
    if len(pile) < 2:
        return None
    return (pile[-2], 0, slot, left, 0, sorted({*pile[:-1], *mine}))


def turns_taken(observation: Observation, seat: int) -> int:
    """The turns ``seat`` has played in this round (the player after the dealer plays first)."""
    public = observation.public
    players = public.rules.players
    position = (seat - public.dealer - 1) % players
    return max(0, (public.turns - position + players - 1) // players)


DRAWN_SPREAD = 1.0
"""The spread of a card drawn blind and kept, in slot widths around where it fits between its known neighbours."""
DEALT_SETTLING = 0.12
"""Per opponent turn, how much more a dealt card that was never replaced is taken to fit where it sits."""
DEALT_SETTLED = 0.8
"""At most that much."""


def slot_weights(observation: Observation, hidden: list[int], opponent_seat: int) -> list[float]:
    """Per slot of ``opponent_seat``'s rack, per card (``deck_size + 1`` each, card 0 unused): how likely the card is
    to be in that slot, up to a factor.  Only the hidden slots' rows are read."""
    public = observation.public
    size = public.rules.deck_size
    known = public.known[opponent_seat]
    left = public.left[opponent_seat]
    settled = min(DEALT_SETTLED, DEALT_SETTLING * turns_taken(observation, opponent_seat))
    weights = [0.0] * (RACK_SIZE * (size + 1))
    for slot in range(RACK_SIZE):
        if known[slot] is not None:
            continue
        below_slot, below = -1, 0
        for other in range(slot - 1, -1, -1):
            card = known[other]
            if card is not None:
                below_slot, below = other, card
                break
        above_slot, above = RACK_SIZE, size + 1
        for other in range(slot + 1, RACK_SIZE):
            card = known[other]
            if card is not None:
                above_slot, above = other, card
                break
        width = (above - below) / (above_slot - below_slot)
        if width <= 0:  # known neighbours out of order: no guidance from them
            below_slot, below, above_slot, above = -1, 0, RACK_SIZE, size + 1
            width = (size + 1) / (RACK_SIZE + 1)
        centre = below + width * (slot - below_slot)
        spread = max(1.0, DRAWN_SPREAD * width)
        fits = 1.0 if left[slot] else settled
        row = slot * (size + 1)
        for card in hidden:
            fit = math.exp(-0.5 * ((card - centre) / spread) ** 2)
            weights[row + card] = (1 - fits) + fits * fit
    return weights
