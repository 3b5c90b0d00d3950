"""Scoring a classic rack: pure functions on a rack's cards, slot 5 first."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from racko.rules import BONUS_FOR_RUN, POINTS_PER_CARD, RACKO_SCORE, Rules


def ordered_prefix(rack: Sequence[int]) -> int:
    """How many cards, from slot 5 on, rise before the first card not higher than the one before it.

    >>> ordered_prefix([3, 8, 12, 19, 26, 37, 22, 30, 33, 39])  # sheet 000, Figure 3
    6
    """
    count = 1
    previous = rack[0]
    for card in rack[1:]:
        if card <= previous:
            break
        count += 1
        previous = card
    return count


def is_ordered(rack: Sequence[int]) -> bool:
    """Whether all ten cards rise from slot 5 to slot 50."""
    previous = rack[0]
    for card in rack[1:]:
        if card <= previous:
            return False
        previous = card
    return True


def longest_run(rack: Sequence[int]) -> int:
    """The longest run of consecutive numbers in adjacent slots, rising (28, 29, 30 is 3).

    >>> longest_run([2, 9, 15, 20, 28, 29, 30, 33, 38, 40])
    3
    """
    best = current = 1
    for a, b in pairwise(rack):
        current = current + 1 if b == a + 1 else 1
        if current > best:
            best = current
    return best


def run_bonus(run_length: int) -> int:
    """Bonus Rack-O's extra points for a run of this length (0 below three, 400 for six or more)."""
    if run_length < 3:
        return 0
    return BONUS_FOR_RUN[min(run_length, 6)]


def qualifies_for_racko(rack: Sequence[int], rules: Rules) -> bool:
    """Whether this rack may go Rack-O: in order, and with a run of three under the 2-player rule."""
    if not is_ordered(rack):
        return False
    return not rules.two_player_rule or longest_run(rack) >= 3


def racko_score(rack: Sequence[int], rules: Rules) -> int:
    """The score of the player who goes Rack-O with this rack: 75, plus the run bonus in Bonus Rack-O."""
    return RACKO_SCORE + (run_bonus(longest_run(rack)) if rules.bonus else 0)


def prefix_score(rack: Sequence[int]) -> int:
    """The score of a player who did not go Rack-O: 5 per card up to the first break.

    >>> prefix_score([3, 8, 12, 19, 26, 37, 22, 30, 33, 39])  # sheet 000, Figure 3
    30
    """
    return POINTS_PER_CARD * ordered_prefix(rack)
