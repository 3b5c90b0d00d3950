"""Valuing a classic rack by its gaps: the shared knowledge of the ``medium`` and ``hard`` bots.

A rack is judged by the best set of cards to keep: an increasing sequence whose
gaps (the open slots between two kept cards) can still be filled by cards that
may come (cards this seat has not seen in a known place).  A gap of ``k`` open
slots whose value range holds ``m`` of the ``P`` cards that may come costs about
``P / m * k (k + 1) / 2`` draws: the first card that lands in the range fits
anywhere, later ones must fit between those already placed.  The cost of a rack
is the cheapest sum over its gaps; lower is better, 0 is a Rack-O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from racko.observation import Observation
from racko.rules import RACK_SIZE
from racko.scoring import longest_run

INFINITE = float("inf")


def cards_that_may_come(observation: Observation) -> list[int]:
    """Cards that may still be drawn: not in this rack, not in the hand, not face up, not known in a rack."""
    public = observation.public
    placed: set[int] = set(observation.rack)
    placed.update(public.discard_pile)
    if observation.held is not None:
        placed.add(observation.held)
    for slots in public.known:
        placed.update(card for card in slots if card is not None)
    return [card for card in range(1, public.rules.deck_size + 1) if card not in placed]


def counts_below(cards: Iterable[int], deck_size: int) -> list[int]:
    """``counts[v]``: how many of ``cards`` are at most ``v`` (for v from 0 to deck_size + 1)."""
    counts = [0] * (deck_size + 2)
    for card in cards:
        counts[card] += 1
    for value in range(1, deck_size + 2):
        counts[value] += counts[value - 1]
    return counts


@dataclass(frozen=True)
class GapModel:
    """The draws a gap costs: ``(P / m) ** power * k (k + 1) / 2``, times ``edge`` for a gap at an end of the rack,
    plus ``slack`` per open slot, and never below one draw per open slot.

    The default is the plain model of ``medium`` and ``hard``; ``expert`` uses one tuned on solitaire.
    """

    slack: float = 0.0
    edge: float = 1.0
    power: float = 1.0

    def draws(self, open_slots: int, fits: int, pool: int, at_edge: bool) -> float:
        if fits < open_slots:
            return INFINITE
        cost = float((pool / fits) ** self.power) * open_slots * (open_slots + 1) / 2
        if at_edge:
            cost *= self.edge
        return max(float(open_slots), cost + self.slack * open_slots)


PLAIN = GapModel()


@lru_cache(maxsize=512)
def gap_tables(model: GapModel, pool: int) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """``tables[at_edge][open_slots][fits]``: the model's costs for one size of the pool, looked up, not computed."""
    return tuple(
        tuple(
            tuple(model.draws(open_slots, fits, pool, at_edge) if open_slots else 0.0 for fits in range(pool + 1))
            for open_slots in range(RACK_SIZE + 1)
        )
        for at_edge in (False, True)
    )


class RackValuer:
    """Costs racks for one decision: the cards that may come are fixed, the rack and the card in hand vary."""

    def __init__(self, counts: Sequence[int], needs_run: bool = False, model: GapModel = PLAIN) -> None:
        self.counts = counts
        self.needs_run = needs_run
        self.tables = gap_tables(model, counts[-1])

    def cost(self, rack: Sequence[int]) -> float:
        """The estimated draws still needed to make ``rack`` a Rack-O under the rules (0 when it is one)."""
        cost = self.gap_cost(rack)
        return cost + run_cost(rack, self.counts) if self.needs_run else cost

    def gap_cost(self, rack: Sequence[int]) -> float:
        """The cheapest sum over the gaps of a kept increasing sequence (0 when the rack reads in order)."""
        counts = self.counts
        interior, edge = self.tables
        top = len(counts) - 1  # deck_size + 1, above every card
        values = (0, *rack, top)
        last = len(values) - 1
        best = [INFINITE] * (last + 1)
        best[0] = 0.0
        for j in range(1, last + 1):
            value = values[j]
            below = counts[value - 1]
            cheapest = INFINITE
            for i in range(j):
                before = best[i]
                if before == INFINITE or values[i] >= value:
                    continue
                open_slots = j - i - 1
                if open_slots == 0:
                    cost = before
                else:
                    fits = below - counts[values[i]]
                    if fits < open_slots:
                        continue
                    row = edge[open_slots] if i == 0 or j == last else interior[open_slots]
                    cost = before + row[fits]
                if cost < cheapest:
                    cheapest = cost
            best[j] = cheapest
        return best[-1]

    def best_placement(self, rack: Sequence[int], card: int) -> tuple[float, int]:
        """The cheapest rack after putting ``card`` in some slot: (cost, slot)."""
        trial = list(rack)
        best_cost, best_slot = INFINITE, 0
        for slot in range(len(rack)):
            previous = trial[slot]
            trial[slot] = card
            cost = self.cost(trial)
            trial[slot] = previous
            if cost < best_cost:
                best_cost, best_slot = cost, slot
        return best_cost, best_slot

    def draw_cost(self, rack: Sequence[int], may_come: Sequence[int], now: float) -> float:
        """The average cost after a blind draw, keeping the drawn card only where it helps."""
        if not may_come:
            return now
        return sum(min(now, self.best_placement(rack, card)[0]) for card in may_come) / len(may_come)


def run_cost(rack: Sequence[int], counts: Sequence[int]) -> float:
    """Under the 2-player rule: the estimated draws still needed for a run of three (0 with one).

    One card away (two of three adjacent slots already fit a run): the pool divided by the number of cards
    that would complete one.  Two cards away: the draws to make a pair of neighbours, then half a pool for
    the third card.  With no card in reach: two whole pools.
    """
    if longest_run(rack) >= 3:
        return 0.0
    pool = counts[-1]
    top = len(counts) - 1

    def may_come(card: int) -> bool:
        return 1 <= card < top and counts[card] > counts[card - 1]

    completions: set[int] = set()
    pairs: set[int] = set()
    for i in range(len(rack) - 1):
        a, b = rack[i], rack[i + 1]
        if i + 2 < len(rack):
            c = rack[i + 2]
            for wanted in (a + 2 if b == a + 1 else 0, b - 1 if c == b + 1 else 0, a + 1 if c == a + 2 else 0):
                if may_come(wanted):
                    completions.add(wanted)
        for wanted in (a + 1, b - 1):
            if may_come(wanted):
                pairs.add(wanted)
    if completions:
        return pool / len(completions)
    if pairs:
        return pool / len(pairs) + pool / 2
    return 2.0 * pool
