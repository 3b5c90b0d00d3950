"""Scoring a High-Low Rack-O row (sheet 003): pure functions on a row's cards, left end first.

Cards are numbers 1-50, :data:`~racko.highlow.cards.WILD` and :data:`~racko.highlow.cards.SWAP`.  A Wild stands for any
number its owner wants, chosen at the end of the hand; the engine chooses the
value that scores best.  Equal neighbours count as in order (see docs/RULES.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from racko.highlow.cards import HIGHEST, SWAP, WILD

RUN_BONUS: dict[int, int] = {3: 25, 4: 35, 5: 40, 6: 50}
"""Optional bonus for the winner's longest run (sheet 003, Optional Bonus Scoring); 7 or more counts as 6."""

LOW = 1
HIGH = -1


def in_order_prefix(row: Sequence[int], direction: int) -> int:
    """How many cards from the left end are in order (rising for LOW, falling for HIGH; Wilds fit anywhere).

    >>> in_order_prefix([7, 10, 12, 5, 20, 30, 31, 40, 41, 49], LOW)  # sheet 003: 15 points
    3
    >>> in_order_prefix([48, 42, 36, 28, 30, 20, 10, 5, 3, 1], HIGH)  # sheet 003: 20 points
    4
    """
    count = 0
    previous: int | None = None
    for card in row:
        if card == SWAP:  # not a number: only left in a row when a Rack-O ended the hand at the deal
            break
        if card != WILD:
            if previous is not None and (card - previous) * direction < 0:
                break
            previous = card
        count += 1
    return count


def best_prefix(row: Sequence[int]) -> int:
    """The in-order count in the better direction (a player who did not go out is scored that way)."""
    return max(in_order_prefix(row, LOW), in_order_prefix(row, HIGH))


def is_racko(row: Sequence[int]) -> bool:
    """Whether the whole row reads in order, Low or High."""
    return best_prefix(row) == len(row)


def doubles(row: Sequence[int], wilds_in_run: frozenset[int] = frozenset()) -> int:
    """Pairs of neighbours that are identical numbers, or a number followed by a Wild (a Wild is not a number
    here: Wild-Wild and Wild-23 are no doubles; see docs/RULES.md).

    A Wild whose position is in ``wilds_in_run`` fills a run instead and makes no double.

    >>> doubles([23, 23, 23, 15, WILD, 8, 3, 2, 1, 1])
    4
    >>> doubles([5, WILD, WILD, 9, 1, 2, 3, 4, 6, 7])
    1
    """
    count = 0
    for position, (left, right) in enumerate(pairwise(row), start=1):
        if left == SWAP:
            continue
        if right == WILD:
            if left != WILD and position not in wilds_in_run:
                count += 1
        elif left == right and right != SWAP:
            count += 1
    return count


def _runs(row: Sequence[int], direction: int) -> list[tuple[int, frozenset[int]]]:
    """Every run the row can show in ``direction``: (length, positions of the Wilds it uses).

    A run is consecutive numbers in adjacent positions following the row's
    direction; Wilds may fill it, at values that keep the whole row in order
    and within 1-50.
    """
    size = len(row)
    found: list[tuple[int, frozenset[int]]] = []
    for start in range(size):
        for end in range(start + 2, size):
            base: int | None = None  # the value the run would have at ``start``
            consistent = True
            for position in range(start, end + 1):
                card = row[position]
                if card == WILD:
                    continue
                value = card - direction * (position - start)
                if base is None:
                    base = value
                elif base != value:
                    consistent = False
                    break
            if not consistent:
                continue
            # Values must stay between the nearest numbers outside the run (the row stays in order) and in 1-50.
            before = next((row[p] for p in range(start - 1, -1, -1) if row[p] != WILD), None)
            after = next((row[p] for p in range(end + 1, size) if row[p] != WILD), None)
            length = end - start + 1
            candidates = [base] if base is not None else list(range(1, HIGHEST + 1))
            for first in candidates:
                last = first + direction * (length - 1)
                if not (min(first, last) >= 1 and max(first, last) <= HIGHEST):
                    continue
                if before is not None and (first - before) * direction < 0:
                    continue
                if after is not None and (after - last) * direction < 0:
                    continue
                wilds = frozenset(p for p in range(start, end + 1) if row[p] == WILD)
                found.append((length, wilds))
                break
    return found


def run_bonus(length: int) -> int:
    """The optional run bonus for a run of this length (0 below three; 7 or more counts as 6)."""
    return 0 if length < 3 else RUN_BONUS[min(length, 6)]


def winner_extras(row: Sequence[int], with_run_bonus: bool) -> tuple[int, int, int]:
    """The winner's best (doubles, run length, run bonus), Wilds counted where they score most."""
    best = (doubles(row), 0, 0)
    if not with_run_bonus:
        return best
    for direction in (LOW, HIGH):
        if in_order_prefix(row, direction) != len(row):
            continue
        for length, wilds in _runs(row, direction):
            bonus = run_bonus(length)
            pairs = doubles(row, wilds)
            # The most points; among equals, report the longest run.
            if (5 * pairs + bonus, length) > (5 * best[0] + best[2], best[1]):
                best = (pairs, length, bonus)
    return best


@dataclass(frozen=True, slots=True)
class RowScore:
    """Everything a row scores at the end of a hand, and why."""

    points: int
    ordered: int
    """Cards in order from the left end, in the better direction (10 for the winner)."""
    doubles: int
    """Doubles counted (for the winner, after the Wilds its run uses)."""
    run: int
    """The winner's longest run, when the run bonus is played (else 0)."""
    bonus: int
    direction: int
    """The winner's direction, ``LOW`` or ``HIGH``; 0 for the others."""


def score_row(row: Sequence[int], *, winner: bool, with_run_bonus: bool = False) -> RowScore:
    """A row's score for the hand: 75 (+ run bonus) for the winner, else 5 per in-order card; 5 per double."""
    if winner:
        pairs, run, bonus = winner_extras(row, with_run_bonus)
        direction = LOW if in_order_prefix(row, LOW) == len(row) else HIGH
        return RowScore(75 + 5 * pairs + bonus, len(row), pairs, run, bonus, direction)
    pairs = doubles(row)
    count = best_prefix(row)
    return RowScore(5 * count + 5 * pairs, count, pairs, 0, 0, 0)


def row_score(row: Sequence[int], *, winner: bool, with_run_bonus: bool = False) -> int:
    """A row's points for the hand (see :func:`score_row`).

    >>> row_score([7, 10, 12, 5, 20, 30, 31, 40, 41, 49], winner=False)
    15
    >>> row_score([1, 2, 3, 3, 9, 10, 20, 30, 40, 50], winner=True, with_run_bonus=True)
    105
    """
    return score_row(row, winner=winner, with_run_bonus=with_run_bonus).points
