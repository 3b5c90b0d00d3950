"""The tournaments' pure functions (racko.play.tournaments): points, tie-breaks, a Swiss round's tables and an arena's,
measured against the best there is where every possibility can be tried."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from racko.play.tournaments import (
    ARENA,
    SWISS,
    Contender,
    Game,
    Waiter,
    arena_points,
    bye_points,
    game_points,
    meetings,
    pair_points,
    pair_swiss,
    repeats,
    seat_arena,
    standings,
    totals,
)
from racko.play.tournaments.swiss import Met, group_cost
from tournament_groupings import least_repeats


def test_points_count_the_sides_finished_ahead_of() -> None:
    assert pair_points((1, 2), 0) == 1.0 and pair_points((1, 2), 1) == 0.0
    assert [pair_points((2, 1, 4, 3), side) for side in range(4)] == [2.0, 3.0, 0.0, 1.0]
    assert [pair_points((1, 2, 2), side) for side in range(3)] == [2.0, 0.5, 0.5]  # a shared place: half each
    assert bye_points(2) == 0.5 and bye_points(4) == 1.5 and bye_points(5) == 2.0
    assert arena_points((1, 2), 0, fire=False) == 2 and arena_points((1, 2), 0, fire=True) == 4
    assert arena_points((1, 1), 0, fire=True) == 2  # lichess: a draw on fire is 2


def test_an_arena_doubles_after_two_wins_in_a_row_until_a_game_not_won() -> None:
    """lichess's example: two wins then a draw are 2 + 2 + 2 × 1 = 6; the draw ends the streak."""
    games = [Game(("a", "b"), (1, 2)), Game(("a", "c"), (1, 2)), Game(("a", "d"), (1, 1)), Game(("a", "b"), (1, 2))]
    assert [points[0] if points else None for points in game_points(ARENA, games, 2)] == [2, 2, 2, 2]
    lines = {line.entrant: line for line in standings(ARENA, ["a", "b", "c", "d"], games, 2)}
    assert lines["a"].points == 8 and lines["a"].streak == 1 and not lines["a"].fire
    more = [*games, Game(("a", "c"), (1, 2)), Game(("a", "d"), (1, 2))]
    assert [points[0] for points in game_points(ARENA, more, 2) if points] == [2, 2, 2, 2, 2, 4]
    assert standings(ARENA, ["a", "b", "c", "d"], more, 2)[0].fire
    four = [Game(("a", "b", "c", "d"), (1, 2, 3, 4))] * 3
    assert [points for points in game_points(ARENA, four, 4)] == [(6, 4, 2, 0), (6, 4, 2, 0), (12, 4, 2, 0)]


def test_swiss_tie_breaks_for_two_sides() -> None:
    """Buchholz, then Sonneborn-Berger: a, b and c have 2 points each; b met d and e (none), so b is third; a and c
    met sides of 2 points in all, and a beat c (2 points), c only d and e: a is first."""
    games = [
        Game(("a", "c"), (1, 2)),
        Game(("b", "d"), (1, 2)),
        Game(("c", "e"), (1, 2)),
        Game(("a", "d"), (1, 2)),
        Game(("b", "e"), (1, 2)),
        Game(("c", "d"), (1, 2)),
        Game(("f",), bye=True),
    ]
    lines = standings(SWISS, ["b", "a", "c", "d", "e", "f"], games, 2)
    assert [line.entrant for line in lines[:3]] == ["a", "c", "b"]  # b joined first
    assert [(line.points, line.opponents_points, line.sonneborn_berger) for line in lines[:3]] == [
        (2.0, 2.0, 2.0),
        (2.0, 2.0, 0.0),
        (2.0, 0.0, 0.0),
    ]
    bye = next(line for line in lines if line.entrant == "f")
    assert bye.points == 0.5 and bye.games == 0 and bye.byes == 1


def test_swiss_tie_breaks_for_more_sides_are_opponents_points_then_placings() -> None:
    games = [Game(("a", "b", "c"), (1, 2, 3)), Game(("d", "e", "f"), (2, 1, 3)), Game(("a", "e", "x"), (3, 1, 2))]
    lines = standings(SWISS, ["a", "b", "c", "d", "e", "f", "x"], games, 3)
    assert [(line.entrant, line.points) for line in lines[:2]] == [("e", 4), ("a", 2)]
    assert [(line.entrant, line.opponents_points) for line in lines[2:5]] == [("x", 6), ("d", 4), ("b", 2)]
    # g and h: 2 points each, and the same opponents (6 points in all); g was first once, h never
    games = [Game(("g", "h", "y"), (1, 2, 3)), Game(("h", "g", "z"), (2, 3, 1))]
    lines = standings(SWISS, ["h", "g", "y", "z"], games, 3)
    assert [(line.entrant, line.points, line.opponents_points, line.placings) for line in lines[:3]] == [
        ("g", 2, 6, (1, 0, 1)),
        ("h", 2, 6, (0, 2, 0)),
        ("z", 2, 4, (1, 0, 0)),
    ]


def _partitions(items: Sequence[str], size: int) -> Iterator[list[tuple[str, ...]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for others in itertools.combinations(rest, size - 1):
        remaining = [item for item in rest if item not in others]
        for more in _partitions(remaining, size):
            yield [(first, *others), *more]


def _random_history(rng: random.Random, ids: list[str], sides: int, rounds: int) -> list[Game]:
    games = []
    for _ in range(rounds):
        order = ids[:]
        rng.shuffle(order)
        for start in range(0, len(order), sides):
            table = tuple(order[start : start + sides])
            places = list(range(1, sides + 1))
            rng.shuffle(places)
            games.append(Game(table, tuple(places)))
    return games


def test_grouping_of_three_to_five_meets_again_no_more_than_the_least_possible() -> None:
    """The grouping method against every grouping there is (6 to 12 players at tables of 3, 4 or 5, after 1 to 4
    random rounds): its repeat meetings are the least possible in each of 120 cases (measured: 1,000 of 1,000)."""
    rng = random.Random(49)
    excess = Counter()
    for case in range(120):
        sides = (3, 4, 5, 3)[case % 4]
        count = {3: rng.choice((6, 9, 12)), 4: rng.choice((8, 12)), 5: 10}[sides]
        ids = [f"e{index}" for index in range(count)]
        games = _random_history(rng, ids, sides, rng.randint(1, 4))
        met = meetings(game.sides for game in games)
        order = [Contender(line.entrant, line.points) for line in standings(SWISS, ids, games, sides)]
        pairing = pair_swiss(order, sides, met, seed=case)
        least = least_repeats(ids, sides, met)
        excess[repeats(pairing.tables, met) - least] += 1
        assert sorted(entrant for table in pairing.tables for entrant in table) == sorted(ids)
    assert excess == Counter({0: 120}), excess


def test_two_sides_of_a_small_tournament_are_the_cheapest_matching() -> None:
    """At most a block of entrants: one matching over all of them, the least cost there is (every pairing tried)."""
    rng = random.Random(7)
    for case in range(60):
        ids = [f"e{index}" for index in range(rng.choice((4, 6, 8, 10)))]
        games = _random_history(rng, ids, 2, rng.randint(1, 5))
        met = meetings(game.sides for game in games)
        order = [Contender(line.entrant, line.points) for line in standings(SWISS, ids, games, 2)]
        points = {contender.id: contender for contender in order}
        pairing = pair_swiss(order, 2, met, seed=case)

        def cost(tables: Sequence[Sequence[str | None]], points: dict[str, Contender] = points, met: Met = met) -> int:
            return sum(group_cost([points[entrant] for entrant in table if entrant], met) for table in tables)

        assert cost(pairing.tables) == min(cost(grouping) for grouping in _partitions(ids, 2))


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 23),
    sides=st.integers(2, 5),
    had_bye=st.sets(st.integers(0, 22)),
    seed=st.integers(0, 2**16),
)
def test_every_contender_is_seated_once_or_has_a_bye_and_nobody_a_second_one(
    count: int, sides: int, had_bye: set[int], seed: int
) -> None:
    rng = random.Random(seed)
    order = [Contender(f"e{index}", rng.choice((0, 0.5, 1, 2)), int(index in had_bye)) for index in range(count)]
    order.sort(key=lambda contender: -contender.points)
    pairing = pair_swiss(order, sides, {}, seed)
    seated = [entrant for table in pairing.tables for entrant in table if entrant is not None]
    assert sorted(seated + list(pairing.byes)) == sorted(contender.id for contender in order)
    assert all(len(table) == sides for table in pairing.tables)
    assert len(pairing.byes) <= count % sides
    byes_before = {contender.id for contender in order if contender.byes}
    assert not set(pairing.byes) & byes_before
    filled = [table for table in pairing.tables if None in table]
    assert len(filled) <= 1  # one table at most has seats racko's computer player fills
    if filled:
        assert len(pairing.byes) + sides - filled[0].count(None) == count % sides or count < sides


def test_byes_go_to_the_lowest_placed_without_one() -> None:
    order = [Contender(f"e{index}", 9 - index, byes=int(index == 8)) for index in range(9)]
    assert pair_swiss(order, 2, {}, 1).byes == ("e7",)
    assert pair_swiss(order, 4, {}, 1).byes == ("e7",)


def test_a_table_of_levels_alone_is_avoided_when_it_costs_no_repeat() -> None:
    order = [
        Contender("ann", 1),
        Contender("bob", 1),
        Contender("easy", 1, level=True),
        Contender("hard", 1, level=True),
    ]
    for seed in range(20):
        for table in pair_swiss(order, 2, {}, seed).tables:
            assert {"easy", "hard"} != set(table)
    met = Counter({frozenset(("ann", "easy")): 1, frozenset(("bob", "hard")): 1, frozenset(("ann", "hard")): 1})
    met[frozenset(("bob", "easy"))] = 1  # every person met every level: the levels meet, and the people
    tables = {frozenset(table) for table in pair_swiss(order, 2, met, 3).tables}
    assert tables == {frozenset(("ann", "bob")), frozenset(("easy", "hard"))}


def test_an_arena_seats_the_longest_waiting_by_points_and_not_last_opponents_at_once() -> None:
    waiting = [
        Waiter("a", 10, since=0, last=frozenset({"b"})),
        Waiter("b", 10, since=0, last=frozenset({"a"})),
        Waiter("c", 9, since=1),
        Waiter("d", 0, since=2),
        Waiter("late", 10, since=50),
    ]
    tables = [set(table) for table in seat_arena(waiting, 2, now=55, seed=1)]
    assert len(tables) == 2 and set().union(*tables) == {"a", "b", "c", "d"}  # the last to come waits
    assert {"a", "b"} not in tables
    alone = seat_arena(waiting[:2], 2, now=10, seed=1)
    assert alone == []  # the two last opponents wait for somebody new …
    assert [set(table) for table in seat_arena(waiting[:2], 2, now=20, seed=1)] == [{"a", "b"}]  # … a while
    levels = [Waiter("easy", 0, 0, level=True), Waiter("hard", 0, 0, level=True)]
    assert seat_arena(levels, 2, now=100, seed=1) == []


def test_totals_are_the_standings_points() -> None:
    rng = random.Random(3)
    ids = [f"e{index}" for index in range(8)]
    for kind in (SWISS, ARENA):
        games = [*_random_history(rng, ids, 2, 5), Game(("e1",), bye=True)]
        lines = standings(kind, ids, games, 2)
        assert totals(kind, ids, games, 2) == {line.entrant: line.points for line in lines}
