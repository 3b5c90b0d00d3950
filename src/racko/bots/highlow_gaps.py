"""Valuing a High-Low row by its gaps: the shared knowledge of ``medium``, ``hard`` and ``expert`` in High-Low.

The gap idea of :mod:`racko.bots.gaps` for rows that may read up or down, with
Wilds and pairs.  A row is costed in both directions and judged by the cheaper:
kept numbers must not fall (Low) or rise (High) from left to right, a Wild is
always kept, and a gap between two kept numbers ``a`` and ``b`` can be filled by
any card that may come with a number from ``a`` to ``b`` (pairs are in order) or a
Wild.  Every row is public, so the cards that may come are those seen nowhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from racko.bots.gaps import INFINITE, PLAIN, GapModel, counts_up_to, gap_tables
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
"""The model ``hard`` and ``expert`` cost rows with (``medium`` uses the plain one): the solitaire-tuned credit
per open slot, which favours keeping more cards in order over fewer with easier gaps."""
DENIAL = 0.5
"""How much a card handed on is held against a placement (``hard``, ``expert``): this share of the draws it would
save the player it goes to."""


class RowValuer:
    """Costs High-Low rows for one decision, with the cards that may come fixed."""

    def __init__(self, unseen: Sequence[int], model: GapModel = PLAIN) -> None:
        numbers = [card for card in unseen if card > 0]
        self.wilds = sum(1 for card in unseen if card == WILD)
        self.rising = counts_up_to(numbers, HIGHEST)
        # A High row, read from the right.
        self.falling = counts_up_to([HIGHEST + 1 - card for card in numbers], HIGHEST)
        self.tables = gap_tables(model, max(1, len(numbers) + self.wilds))

    def cost(self, row: Sequence[int]) -> float:
        """Estimated draws to a Rack-O in the cheaper direction (0 for a Rack-O)."""
        numbers = [card for card in row if card != WILD]
        low = self._rising_cost(numbers, self.rising)
        if low == 0.0:
            return 0.0
        return min(low, self._rising_cost([HIGHEST + 1 - card for card in numbers], self.falling))

    def loose_cards(self, row: Sequence[int]) -> list[int]:
        """The numbers of ``row`` outside its cheapest kept sequence (in the cheaper direction): the cards its
        owner would give up first (a Swap waiting at the deal is no number)."""
        numbers = [card for card in row if card > 0]
        previous_low = [0] * (len(numbers) + 2)
        previous_high = [0] * (len(numbers) + 2)
        low = self._rising_cost(numbers, self.rising, previous_low)
        high = self._rising_cost([HIGHEST + 1 - card for card in numbers], self.falling, previous_high)
        previous = previous_low if low <= high else previous_high
        kept: set[int] = set()
        j = previous[len(numbers) + 1]
        while j > 0:
            kept.add(j - 1)
            j = previous[j]
        return [card for index, card in enumerate(numbers) if index not in kept]

    def _rising_cost(self, numbers: Sequence[int], counts: Sequence[int], previous: list[int] | None = None) -> float:
        """The cheapest gaps that make ``numbers`` (Wilds left out) never fall from left to right; with
        ``previous``, also where each kept value's predecessor is (indexes of ``(1, *numbers, HIGHEST)``)."""
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
                    if previous is not None:
                        previous[j] = i
            best[j] = cheapest
        return best[-1]

    def best_placement(self, row: Sequence[int], card: int) -> tuple[float, int]:
        """The cheapest row after putting ``card`` in some position: (cost, position)."""
        return best_replace(self, row, card)


def best_replace(
    valuer: RowValuer, row: Sequence[int], card: int, passing_cost: Mapping[int, float] | None = None
) -> tuple[float, int]:
    """Where ``card`` goes: the position whose row costs least, plus ``passing_cost`` of the card it removes
    (what handing that card on is held to cost; nothing by default).  Returns (score, position), the leftmost
    among equals."""
    trial = list(row)
    best_position, best_score = 0, INFINITE
    for position in range(RACK_SIZE):
        removed = trial[position]
        trial[position] = card
        score = valuer.cost(trial)
        if passing_cost and score > 0.0:  # going out hands on nothing: the removed card is discarded
            score += passing_cost.get(removed, 0.0)
        trial[position] = removed
        if score < best_score:
            best_position, best_score = position, score
    return best_score, best_position


def best_swap(valuer: RowValuer, observation: HighLowObservation) -> SwapCards | KeepOrder:
    """After a Swap card: the swap of two cards that lowers the row's cost most, or none when none lowers it."""
    seat = observation.seat
    row = observation.rack
    best: SwapCards | KeepOrder = KeepOrder(seat)
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


def card_in_hand(observation: HighLowObservation) -> int:
    """The card the seat must place: the one it drew, or the one passed to it."""
    card = observation.held if observation.held is not None else observation.public.passed_card
    assert card is not None
    return card


def unseen_cards(observation: HighLowObservation) -> list[int]:
    """Cards not seen anywhere this seat can see (numbers and Wilds; Swaps bring no card to a row)."""
    remaining = Counter(card for card in highlow_deck() if card != SWAP)
    public = observation.public
    seen = [card for row in public.rows for card in row]
    seen.extend(public.discard_pile)
    seen.extend(card for card in (observation.held, public.passed_card) if card is not None)
    remaining.subtract(seen)
    return [card for card, count in remaining.items() for _ in range(max(0, count))]


def highlow_move(
    observation: HighLowObservation,
    model: GapModel,
    denial: float = 0.0,
    gift: float = 0.0,
    circulating: bool = False,
) -> HighLowAction:
    """The move that leaves the cheapest row by ``model``: which swap after a Swap card, else where the card in
    hand goes, a card passed to an opponent counted at ``denial`` times the draws it saves that player, or
    ``gift`` draws when it would let that player go Rack-O at once.  With ``circulating``, the cards other rows
    would give up (:meth:`RowValuer.loose_cards`) count among those that may come."""
    unseen = unseen_cards(observation)
    valuer = RowValuer(unseen, model)
    if circulating:
        rows = observation.public.rows
        loose = [card for seat, row in enumerate(rows) if seat != observation.seat for card in valuer.loose_cards(row)]
        valuer = RowValuer(unseen + loose, model)
    if observation.phase is HighLowPhase.SWAP:
        return best_swap(valuer, observation)
    passing = passing_costs(valuer, observation, denial, gift) if denial or gift else None
    return Replace(observation.seat, best_replace(valuer, observation.rack, card_in_hand(observation), passing)[1])


def passing_costs(
    valuer: RowValuer, observation: HighLowObservation, weight: float, gift: float = 0.0
) -> dict[int, float]:
    """What handing on each card of the row costs: ``weight`` times the draws it would save the player it goes to,
    or ``gift`` (if more) when it would make that player's row a Rack-O; nothing when the card goes to the discard
    pile, at the end of a round of play."""
    public = observation.public
    seat = observation.seat
    players = public.rules.players
    if (public.drawer - seat) % players == players - 1:
        return {}  # the last to play in this round of play: the removed card is discarded
    their_row = public.rows[(seat - 1) % players]
    their_now = valuer.cost(their_row)
    costs: dict[int, float] = {}
    for removed in set(observation.rack):
        after = valuer.best_placement(their_row, removed)[0]
        costs[removed] = weight * max(0.0, their_now - after)
        if after == 0.0:
            costs[removed] = max(costs[removed], gift)
    return costs
