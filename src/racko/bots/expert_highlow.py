"""How ``expert`` plays High-Low: the gap model for rows that may read up or down, with Wilds and pairs.

A row is costed in both directions and judged by the cheaper: kept numbers must
not fall (Low) or rise (High) from left to right, a Wild is always kept, and a
gap between two kept numbers ``a`` and ``b`` can be filled by any card that may
come with a number from ``a`` to ``b`` (pairs are in order) or a Wild.  Every
row is public, so the card a placement passes on is weighed too: a card that
would help the next player is passed only if keeping it out costs more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from racko.bots.gaps import INFINITE, GapModel, gap_tables
from racko.highlow import (
    HIGHEST,
    SWAP,
    WILD,
    HighLowAction,
    HighLowObservation,
    HighLowPhase,
    KeepOrder,
    Replace,
    SwapCards,
    highlow_deck,
)
from racko.rules import RACK_SIZE

HIGHLOW_GAPS = GapModel(slack=-1.5)
DENIAL = 0.5
"""How much a card passed on is held against a placement: this share of the help it gives the next player."""


class RowValuer:
    """Costs High-Low rows for one decision, with the cards that may come fixed."""

    def __init__(self, unseen: Sequence[int], model: GapModel = HIGHLOW_GAPS) -> None:
        numbers = [card for card in unseen if card > 0]
        self.wilds = sum(1 for card in unseen if card == WILD)
        self.rising = _counts_up_to(numbers)
        self.falling = _counts_up_to([HIGHEST + 1 - card for card in numbers])  # a High row, read from the right
        self.tables = gap_tables(model, max(1, len(numbers) + self.wilds))

    def cost(self, row: Sequence[int]) -> float:
        """Estimated draws to a Rack-O in the cheaper direction (0 for a Rack-O)."""
        numbers = [card for card in row if card != WILD]
        low = self._rising_cost(numbers, self.rising)
        if low == 0.0:
            return 0.0
        return min(low, self._rising_cost([HIGHEST + 1 - card for card in numbers], self.falling))

    def _rising_cost(self, numbers: Sequence[int], counts: Sequence[int]) -> float:
        """The cheapest gaps that make ``numbers`` (Wilds left out) never fall from left to right."""
        wilds = self.wilds
        interior, edge = self.tables
        values = (1, *numbers, HIGHEST)
        last = len(values) - 1
        best = [INFINITE] * (last + 1)
        best[0] = 0.0
        for j in range(1, last + 1):
            value = values[j]
            cheapest = INFINITE
            for i in range(j):
                before = best[i]
                low = values[i]
                if before == INFINITE or low > value:
                    continue
                open_slots = j - i - 1
                if open_slots == 0:
                    cost = before
                else:
                    fits = counts[value] - counts[low - 1] + wilds
                    if fits < open_slots:
                        continue
                    row = edge[open_slots] if i == 0 or j == last else interior[open_slots]
                    cost = before + row[fits]
                if cost < cheapest:
                    cheapest = cost
            best[j] = cheapest
        return best[-1]

    def best_placement(self, row: Sequence[int], card: int) -> tuple[float, int]:
        """The cheapest row after putting ``card`` in some position: (cost, position)."""
        trial = list(row)
        best_cost, best_position = INFINITE, 0
        for position in range(len(row)):
            previous = trial[position]
            trial[position] = card
            cost = self.cost(trial)
            trial[position] = previous
            if cost < best_cost:
                best_cost, best_position = cost, position
        return best_cost, best_position


def _counts_up_to(numbers: Sequence[int]) -> list[int]:
    """``counts[v]``: how many of ``numbers`` are at most ``v`` (v from 0 to HIGHEST)."""
    counts = [0] * (HIGHEST + 1)
    for number in numbers:
        counts[number] += 1
    for value in range(1, HIGHEST + 1):
        counts[value] += counts[value - 1]
    return counts


def highlow_action(observation: HighLowObservation) -> HighLowAction:
    """The expert's move in High-Low."""
    public = observation.public
    seat = observation.seat
    row = observation.rack
    unseen = _unseen(observation)
    valuer = RowValuer(unseen)
    if public.phase is HighLowPhase.SWAP:
        best: HighLowAction = KeepOrder(seat)
        best_cost = valuer.cost(row)
        trial = list(row)
        for first in range(RACK_SIZE):
            for second in range(first + 1, RACK_SIZE):
                trial[first], trial[second] = trial[second], trial[first]
                cost = valuer.cost(trial)
                trial[first], trial[second] = trial[second], trial[first]
                if cost < best_cost:
                    best, best_cost = SwapCards(seat, first, second), cost
        return best
    card = observation.held if observation.held is not None else public.passed_card
    assert card is not None
    players = public.rules.players
    receiver = None if (public.drawer - seat) % players == players - 1 else (seat - 1) % players
    helps: dict[int, float] = {}
    if receiver is not None:
        their_row = public.rows[receiver]
        their_now = valuer.cost(their_row)
        for removed in set(row):
            helps[removed] = max(0.0, their_now - valuer.best_placement(their_row, removed)[0])
    trial = list(row)
    best_position, best_score = 0, INFINITE
    for position in range(RACK_SIZE):
        removed = trial[position]
        trial[position] = card
        score = valuer.cost(trial) + DENIAL * helps.get(removed, 0.0)
        trial[position] = removed
        if score < best_score:
            best_position, best_score = position, score
    return Replace(seat, best_position)


def _unseen(observation: HighLowObservation) -> list[int]:
    """Cards not seen anywhere this seat can see (numbers and Wilds; Swaps bring no card to a row)."""
    remaining = Counter(card for card in highlow_deck() if card != SWAP)
    public = observation.public
    seen = [card for row in public.rows for card in row]
    seen.extend(public.discard_pile)
    seen.extend(card for card in (observation.held, public.passed_card) if card is not None)
    remaining.subtract(seen)
    return [card for card, count in remaining.items() for _ in range(max(0, count))]
