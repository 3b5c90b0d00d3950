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
from racko.scoring import is_ordered, longest_run

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


def counts_up_to(numbers: Iterable[int], top: int) -> list[int]:
    """``counts[v]``: how many of ``numbers`` are at most ``v`` (for v from 0 to ``top``)."""
    counts = [0] * (top + 1)
    for number in numbers:
        counts[number] += 1
    for value in range(1, top + 1):
        counts[value] += counts[value - 1]
    return counts


def counts_below(cards: Iterable[int], deck_size: int) -> list[int]:
    """``counts[v]``: how many of ``cards`` are at most ``v`` (for v from 0 to deck_size + 1)."""
    return counts_up_to(cards, deck_size + 1)


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


RUN_FIT = 5
"""How far from where its cards belong a run of three may be built, in half slots: the middle card ``m`` of an
``N``-card deck belongs near slot index ``(m - 0.5) * 10 / N - 0.5``; a run fits when its middle slot is within
2.5 slots of that (and the deck leaves room for the cards below and above it)."""
RUN_FROM_SCRATCH = 2.0
"""Pools of draws a run costs that no card in reach starts: the rate of that last way to one."""


def run_cost(rack: Sequence[int], counts: Sequence[int]) -> float:
    """Under the 2-player rule: the estimated draws still needed for a run of three (0 with one).

    The ways to a run are raced, their rates of success per draw added: each card that would complete a run
    (``c`` of them) succeeds with ``c / P`` (``P``: the pool of cards that may come); a card that would make a
    pair of neighbours (``q`` of them) starts a run needing another card, ``P / q + P / 2`` draws; and a run from
    scratch takes :data:`RUN_FROM_SCRATCH` pools.  The cost is one over the summed rate.  Only runs that fit count
    (:func:`run_fits`): a pair or a near run that the rack's order will take apart leads nowhere.  A run of three
    that does not fit only because one of its neighbours is out of order is a card away too: every card that would
    put that neighbour in order completes it (:func:`_neighbour_fixes`).

    Never cheaper for a rack further from a run: a card more in reach only adds a rate, and a rack one card away
    costs at most what the best placed rack two cards away could (the most pairs the pool allows).
    """
    size = len(rack)
    top = len(counts) - 1
    pool = counts[-1]
    if has_run(rack, top - 1):
        return 0.0

    def may_come(card: int) -> bool:
        return 1 <= card < top and counts[card] > counts[card - 1]

    completions: set[int] = set()
    pairs: set[int] = set()
    for i in range(size - 1):
        a, b = rack[i], rack[i + 1]
        if i + 2 < size:
            c = rack[i + 2]
            if b == a + 1 and may_come(a + 2) and run_fits(rack, i, a, top - 1):
                completions.add(a + 2)
            if c == b + 1 and may_come(b - 1) and run_fits(rack, i, b - 1, top - 1):
                completions.add(b - 1)
            if c == a + 2 and may_come(a + 1) and run_fits(rack, i, a, top - 1):
                completions.add(a + 1)
        # a + 1 beside a (in slot i + 1), or b - 1 beside b (in slot i): a pair, the run then below or above it
        if may_come(a + 1) and (run_fits(rack, i - 1, a - 1, top - 1) or run_fits(rack, i, a, top - 1)):
            pairs.add(a + 1)
        if may_come(b - 1) and (run_fits(rack, i - 1, b - 2, top - 1) or run_fits(rack, i, b - 1, top - 1)):
            pairs.add(b - 1)
    ways = len(completions) + sum(_neighbour_fixes(rack, i, counts) for i in range(size - 2))
    if not ways:
        return _two_away(pool, len(pairs))
    rate = min(ways, pool) / pool + 1 / _two_away(pool, len(pairs))
    return min(1 / rate, _two_away(pool, min(pool, 2 * (size - 1))))


def _neighbour_fixes(rack: Sequence[int], first: int, counts: Sequence[int]) -> int:
    """For a run of three in slots ``first`` to ``first + 2`` that does not fit: the cards that may come and would
    put the one neighbour out of order with it in order (0 without such a run, with room lacking, or with both
    neighbours out of order)."""
    low = rack[first]
    deck_size = len(counts) - 2
    if rack[first + 1] != low + 1 or rack[first + 2] != low + 2 or not _has_room(len(rack), first, low, deck_size):
        return 0
    below_in_order = first == 0 or rack[first - 1] < low
    above_in_order = first + 3 == len(rack) or rack[first + 3] > low + 2
    if below_in_order == above_in_order:
        return 0
    return counts[deck_size] - counts[low + 2] if below_in_order else counts[low - 1]


def has_run(rack: Sequence[int], deck_size: int) -> bool:
    """Whether the rack has a run of three that it can go out with: one that fits (:func:`run_fits`), or any in a
    rack already in order."""
    size = len(rack)
    for i in range(size - 2):
        if rack[i + 1] == rack[i] + 1 and rack[i + 2] == rack[i] + 2 and run_fits(rack, i, rack[i], deck_size):
            return True
    return longest_run(rack) >= 3 and is_ordered(rack)


def _two_away(pool: int, pairs: int) -> float:
    """The draws to a run with no card completing one and ``pairs`` cards that make a pair of neighbours."""
    scratch = RUN_FROM_SCRATCH * pool
    if not pairs:
        return scratch
    return 1 / (1 / (pool / pairs + pool / 2) + 1 / scratch)


def run_fits(rack: Sequence[int], first: int, low: int, deck_size: int) -> bool:
    """Whether a run ``low, low + 1, low + 2`` in slots ``first`` to ``first + 2`` of ``rack`` (whatever those slots
    hold now) can be part of the rack in order: the deck has room below and above it, and either the rack's cards
    beside it are in order with it or it lies within :data:`RUN_FIT` half slots of where its cards belong."""
    size = len(rack)
    if not _has_room(size, first, low, deck_size):
        return False
    if (first == 0 or rack[first - 1] < low) and (first + 3 == size or rack[first + 3] > low + 2):
        return True
    # |(2 (low + 1) - 1) * size / (2 N) - 1/2 - (first + 1)| <= RUN_FIT / 2, times 2 N: whole numbers only
    return abs((2 * low + 1) * size - deck_size - 2 * deck_size * (first + 1)) <= deck_size * RUN_FIT


def _has_room(size: int, first: int, low: int, deck_size: int) -> bool:
    """Whether a run ``low, low + 1, low + 2`` in slots ``first`` to ``first + 2`` leaves the deck room for a card
    below it in every slot below and above it in every slot above."""
    return first >= 0 and first + 2 < size and low >= first + 1 and low + 2 <= deck_size - (size - 3 - first)
