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

from racko.observation import Observation
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


def rack_cost(rack: Sequence[int], counts: Sequence[int]) -> float:
    """The estimated draws still needed to make ``rack`` read in order (0 when it does)."""
    top = len(counts) - 1  # deck_size + 1, above every card
    pool = counts[top]
    values = (0, *rack, top)
    size = len(values)
    best = [INFINITE] * size
    best[0] = 0.0
    for j in range(1, size):
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
                cost = before + pool * open_slots * (open_slots + 1) / (2 * fits)
            if cost < cheapest:
                cheapest = cost
        best[j] = cheapest
    return best[-1]


def run_cost(rack: Sequence[int], counts: Sequence[int]) -> float:
    """Under the 2-player rule: the estimated draws still needed for a run of three (0 with one).

    One card away (two of three adjacent slots already fit a run): the pool divided by the number of cards
    that would complete one.  Further away: as much as a whole pool of draws.
    """
    if longest_run(rack) >= 3:
        return 0.0
    pool = counts[-1]
    completions: set[int] = set()
    for i in range(len(rack) - 2):
        a, b, c = rack[i], rack[i + 1], rack[i + 2]
        for wanted in (a + 2 if b == a + 1 else None, b - 1 if c == b + 1 else None, a + 1 if c == a + 2 else None):
            if wanted is not None and 1 <= wanted < len(counts) - 1 and counts[wanted] > counts[wanted - 1]:
                completions.add(wanted)
    if completions:
        return pool / len(completions)
    return float(pool)


def cost_for(rack: Sequence[int], counts: Sequence[int], needs_run: bool) -> float:
    """The cost of a rack under the rules: its gaps, plus the run it still lacks under the 2-player rule."""
    cost = rack_cost(rack, counts)
    return cost + run_cost(rack, counts) if needs_run else cost


def best_placement(rack: Sequence[int], card: int, counts: Sequence[int], needs_run: bool = False) -> tuple[float, int]:
    """The cheapest rack after putting ``card`` in some slot: (cost, slot)."""
    trial = list(rack)
    best_cost, best_slot = INFINITE, 0
    for slot in range(len(rack)):
        previous = trial[slot]
        trial[slot] = card
        cost = cost_for(trial, counts, needs_run)
        trial[slot] = previous
        if cost < best_cost:
            best_cost, best_slot = cost, slot
    return best_cost, best_slot
