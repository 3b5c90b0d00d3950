"""A Swiss round's tables (docs/TOURNAMENTS.md, "Pairing a Swiss round").

Each round seats entrants of similar points who have not met.  What a table costs is a sum over the pairs of
entrants at it: :data:`REPEAT_COST` for every earlier game they sat at together, and :data:`POINTS_COST` for every
half point between them, squared; a table of racko's levels alone costs :data:`LEVELS_ONLY_COST` more (the server
plays it by itself, nobody watches it).  A repeat costs more than any gap in points, so the fewest repeat meetings
come first and similar points second.

- **Byes**: when the entrants do not fill the last table, the lowest placed who have had no bye sit out (at most one
  bye each, :func:`~racko.play.tournaments.scoring.bye_points`); when too few of them have none left, the lowest
  placed of the others sit at one table whose empty seats racko's computer player fills (nobody's in the standings).
- **Two sides** (two seats, or Partners' two teams): a maximum-weight matching (networkx's, Edmonds' blossom
  algorithm), over blocks of :data:`BLOCK` entrants in the order of their points: an entrant whose only partners in
  its block are ones it met floats down to the next block; the last block may repeat a meeting, at its cost.  A
  tournament of at most :data:`BLOCK` entrants is one matching over all of them, the least total cost there is.
- **Three to five sides**: the entrants in the order of their points are cut into consecutive tables, then improved
  by moving one entrant from a table to a nearby one and another back, whenever that lowers the two tables' cost,
  until no swap does (:func:`improved`).  Every pair of tables is tried when there are at most
  :data:`ALL_PAIRS_UP_TO` of them, and such a small round that still repeats a meeting is tried again from
  :data:`RESTARTS` random cuts.  tests/web/tournaments/test_pairing.py measures its repeat meetings against the
  least possible, found by trying every grouping of small cases.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

REPEAT_COST = 10_000
"""What each earlier meeting of two entrants seated together again costs."""
POINTS_COST = 10
"""What two entrants at one table cost per half point between them, squared."""
LEVELS_ONLY_COST = 2_000
"""What a table of racko's levels alone costs (less than a repeat meeting: such a table is played all the same)."""
BLOCK = 24
"""Two sides: the entrants matched at once (a matching's time grows with the cube of its size)."""
ALL_PAIRS_UP_TO = 12
"""Three to five sides: with at most this many tables, every pair of tables is tried; with more, each table and the
:data:`WINDOW` tables after it (in the order of points)."""
WINDOW = 4
MAX_PASSES = 50
RESTARTS = 24
"""Three to five sides, at most :data:`ALL_PAIRS_UP_TO` tables: further tries when the first still repeats a
meeting."""
_NOISE = 3
"""Up to this much is added to a pair's cost at random (seeded), so that equals are seated in no fixed order."""


@dataclass(frozen=True)
class Contender:
    """An entrant to be seated this round."""

    id: str
    points: float
    byes: int = 0
    level: bool = False
    """One of racko's own levels (a computer player entered as a player)."""


@dataclass(frozen=True)
class Pairing:
    """A round: its tables (each side's entrant in seat order; ``None``: a seat racko's computer player fills) and the
    entrants who sit it out with a bye."""

    tables: tuple[tuple[str | None, ...], ...]
    byes: tuple[str, ...]


Met = Mapping[frozenset[str], int]


def meetings(tables: Iterable[Sequence[str | None]]) -> Counter[frozenset[str]]:
    """How often each pair of entrants sat at one table, over these tables."""
    met: Counter[frozenset[str]] = Counter()
    for table in tables:
        seated = sorted({entrant for entrant in table if entrant is not None})
        for first, second in combinations(seated, 2):
            met[frozenset((first, second))] += 1
    return met


def pair_cost(first: Contender, second: Contender, met: Met) -> int:
    gap = round(2 * (first.points - second.points))
    return REPEAT_COST * met.get(frozenset((first.id, second.id)), 0) + POINTS_COST * gap * gap


def group_cost(group: Sequence[Contender], met: Met) -> int:
    """What seating these entrants at one table costs."""
    cost = sum(pair_cost(first, second, met) for first, second in combinations(group, 2))
    if len(group) > 1 and all(contender.level for contender in group):
        cost += LEVELS_ONLY_COST
    return cost


def repeats(tables: Iterable[Sequence[str | None]], met: Met) -> int:
    """The earlier meetings these tables seat together again (a pair that met twice counts twice)."""
    return sum(met.get(pair, 0) * count for pair, count in meetings(tables).items())


def pair_swiss(contenders: Sequence[Contender], sides: int, met: Met, seed: int) -> Pairing:
    """The round's tables of ``sides`` sides for ``contenders``, given how often each pair met before; ``seed`` draws
    equals (of the same points) in a random order and the seats at each table."""
    if sides < 2:
        raise ValueError("a table has two sides at least")
    rng = random.Random(seed)
    order = list(contenders)
    rng.shuffle(order)
    order.sort(key=lambda contender: -contender.points)
    byes, short, playing = _sitting_out(order, sides)
    if sides == 2:
        tables = _matched(playing, met, rng)
    else:
        tables = [[contender.id for contender in group] for group in _grouped(playing, sides, met, rng)]
    seated: list[list[str | None]] = [list(table) for table in tables]
    if short:
        seated.append([contender.id for contender in short] + [None] * (sides - len(short)))
    for table in seated:
        rng.shuffle(table)
    return Pairing(tuple(tuple(table) for table in seated), tuple(contender.id for contender in byes))


def _sitting_out(order: list[Contender], sides: int) -> tuple[list[Contender], list[Contender], list[Contender]]:
    """Who has a bye, who sits at the table racko's computer player fills, and who is seated as usual."""
    over = len(order) % sides
    if not over:
        return [], [], order
    byes = [contender for contender in reversed(order) if contender.byes == 0][:over]
    rest = [contender for contender in order if contender not in byes]
    short = rest[len(rest) - (over - len(byes)) :] if over > len(byes) else []
    return byes, short, rest[: len(rest) - len(short)]


def _matched(order: list[Contender], met: Met, rng: random.Random) -> list[list[str]]:
    """Two sides: a maximum-weight matching block by block (the module's docstring)."""
    import networkx  # loaded by the first Swiss round of two sides, not by every server start

    tables: list[list[str]] = []
    floating: list[Contender] = []
    start = 0
    while start < len(order) or floating:
        block = floating + order[start : start + BLOCK]
        start += BLOCK
        last = start >= len(order)
        graph = networkx.Graph()
        graph.add_nodes_from(range(len(block)))
        for (i, first), (j, second) in combinations(enumerate(block), 2):
            if not last and met.get(frozenset((first.id, second.id)), 0):
                continue  # not here: it floats down to a block where it meets somebody new
            cost = group_cost((first, second), met) + rng.randrange(_NOISE)
            graph.add_edge(i, j, weight=_CEILING - cost)
        matched: set[int] = set()
        for i, j in networkx.max_weight_matching(graph, maxcardinality=True):
            tables.append([block[i].id, block[j].id])
            matched |= {i, j}
        floating = [contender for index, contender in enumerate(block) if index not in matched]
        if last:
            break
    if floating:  # cannot happen: the last block has an even count and every edge
        raise AssertionError(f"{len(floating)} entrants left unpaired")
    return tables


_CEILING = 10**12
"""Above any pair's cost: every edge's weight is positive."""


def _grouped(order: list[Contender], sides: int, met: Met, rng: random.Random) -> list[list[Contender]]:
    """Three to five sides: the cut in the order of points, improved; a small round that still repeats a meeting
    is tried again from :data:`RESTARTS` random cuts, and the cheapest kept."""
    groups = improved(cut(order, sides), met)
    cost = sum(group_cost(group, met) for group in groups)
    if len(groups) > ALL_PAIRS_UP_TO or cost < REPEAT_COST:
        return groups
    for _ in range(RESTARTS):
        shuffled = list(order)
        rng.shuffle(shuffled)
        other = improved(cut(shuffled, sides), met)
        other_cost = sum(group_cost(group, met) for group in other)
        if other_cost < cost:
            groups, cost = other, other_cost
    return groups


def cut(order: list[Contender], sides: int) -> list[list[Contender]]:
    return [order[start : start + sides] for start in range(0, len(order), sides)]


def improved(groups: list[list[Contender]], met: Met) -> list[list[Contender]]:
    """Swap one entrant of a table with one of a nearby table while that lowers their cost, until no swap does (each
    swap's gain counted from the pairs it changes, the pairs' costs worked out once)."""
    known: dict[tuple[str, str], int] = {}

    def cost(first: Contender, second: Contender) -> int:
        key = (first.id, second.id) if first.id < second.id else (second.id, first.id)
        found = known.get(key)
        if found is None:
            found = known[key] = pair_cost(first, second, met)
        return found

    def levels_only(count: int, size: int) -> int:
        return LEVELS_ONLY_COST if size > 1 and count == size else 0

    pairs = [sum(cost(first, second) for first, second in combinations(group, 2)) for group in groups]
    levels = [sum(contender.level for contender in group) for group in groups]
    window = len(groups) if len(groups) <= ALL_PAIRS_UP_TO else WINDOW
    for _ in range(MAX_PASSES):
        changed = False
        for i in range(len(groups)):
            for j in range(i + 1, min(len(groups), i + 1 + window)):
                first_group, second_group = groups[i], groups[j]
                size_i, size_j = len(first_group), len(second_group)
                now = pairs[i] + pairs[j] + levels_only(levels[i], size_i) + levels_only(levels[j], size_j)
                best = 0
                chosen: tuple[int, int, int, int, int, int] | None = None
                # what each entrant costs with the table it is at, and with the other table (itself left out)
                in_i = [sum(cost(one, other) for other in first_group if other is not one) for one in first_group]
                in_j = [sum(cost(one, other) for other in second_group if other is not one) for one in second_group]
                to_j = [sum(cost(one, other) for other in second_group) for one in first_group]
                to_i = [sum(cost(one, other) for other in first_group) for one in second_group]
                for x, leaving in enumerate(first_group):
                    for y, coming in enumerate(second_group):
                        between = cost(leaving, coming)
                        pair_i = pairs[i] - in_i[x] + to_i[y] - between
                        pair_j = pairs[j] - in_j[y] + to_j[x] - between
                        level_i = levels[i] - leaving.level + coming.level
                        level_j = levels[j] - coming.level + leaving.level
                        gain = now - pair_i - pair_j - levels_only(level_i, size_i) - levels_only(level_j, size_j)
                        if gain > best:
                            best, chosen = gain, (x, y, pair_i, pair_j, level_i, level_j)
                if chosen is not None:
                    x, y, pairs[i], pairs[j], levels[i], levels[j] = chosen
                    first_group[x], second_group[y] = second_group[y], first_group[x]
                    changed = True
        if not changed:
            break
    return groups
