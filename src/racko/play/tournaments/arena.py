"""An arena's next tables, from the entrants waiting now (docs/TOURNAMENTS.md, "Arena").

An entrant who finishes a game waits to be seated again.  At each look (the tournaments room looks as soon as a game
ends, and every second), every waiting entrant is seated if the count allows: the longest waiting first, the
:math:`n \\bmod s` who arrived last wait for the next look.  Those seated are cut into tables in the order of their
points and improved by swaps (as a Swiss round of three to five sides is, :func:`.swiss.improved`), at a cost of
:data:`LAST_OPPONENTS` repeat meetings for two entrants who met at the last table of either, and the gap in points as
a Swiss round counts it.  A table that would seat last opponents together again is not made unless they have waited
:data:`REMATCH_WAIT` seconds (they wait for somebody new a little), and a table of racko's levels alone is never
made (an arena plays people and bots; its levels only fill their tables).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from racko.play.tournaments.swiss import Contender, cut, improved

REMATCH_WAIT = 20.0
"""Seconds an entrant waits rather than sit with one of its last opponents again."""
LAST_OPPONENTS = 1000
"""Last opponents seated together cost this many repeat meetings: more than any gap in points (an arena's points
grow without bound), so that they meet again only when nobody else waits."""


@dataclass(frozen=True)
class Waiter:
    """An entrant waiting for a table."""

    id: str
    points: float
    since: float
    """When it began to wait (the server's clock)."""
    last: frozenset[str] = frozenset()
    """Who sat at its last table."""
    level: bool = False


def seat_arena(waiting: Sequence[Waiter], sides: int, now: float, seed: int) -> list[tuple[str, ...]]:
    """The tables to make now, each side's entrant in seat order."""
    rng = random.Random(seed)
    order = sorted(waiting, key=lambda waiter: (waiter.since, waiter.id))
    order = order[: len(order) - len(order) % sides]
    if not order:
        return []
    by_id = {waiter.id: waiter for waiter in order}
    rng.shuffle(order)
    order.sort(key=lambda waiter: -waiter.points)
    last_met: dict[frozenset[str], int] = {}
    for waiter in order:
        for other in waiter.last:
            if other in by_id:
                last_met[frozenset((waiter.id, other))] = LAST_OPPONENTS
    contenders = [Contender(waiter.id, waiter.points, level=waiter.level) for waiter in order]
    tables: list[tuple[str, ...]] = []
    for group in improved(cut(contenders, sides), last_met):
        if all(contender.level for contender in group):
            continue
        again = [
            (first, second) for first, second in combinations(group, 2) if frozenset((first.id, second.id)) in last_met
        ]
        if any(
            min(now - by_id[first.id].since, now - by_id[second.id].since) < REMATCH_WAIT for first, second in again
        ):
            continue
        seats = [contender.id for contender in group]
        rng.shuffle(seats)
        tables.append(tuple(seats))
    return tables
