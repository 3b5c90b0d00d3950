"""The least repeat meetings a round of a tournament can have: every grouping tried (for the tests that measure the
pairing against it)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence


def least_repeats(ids: Sequence[str], sides: int, met: Mapping[frozenset[str], int]) -> int:
    """The fewest repeat meetings of any grouping of ``ids`` into tables of ``sides`` (every grouping tried, those
    already worse than the best found cut short)."""
    best = [sum(met.values()) * len(ids)]

    def search(rest: list[str], so_far: int) -> None:
        if so_far >= best[0]:
            return
        if not rest:
            best[0] = so_far
            return
        first = rest[0]
        for others in itertools.combinations(rest[1:], sides - 1):
            table = (first, *others)
            cost = sum(met.get(frozenset(pair), 0) for pair in itertools.combinations(table, 2))
            search([entrant for entrant in rest[1:] if entrant not in others], so_far + cost)
            if best[0] == 0:
                return

    search(list(ids), 0)
    return best[0]
