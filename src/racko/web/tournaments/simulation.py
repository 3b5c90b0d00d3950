"""Tournaments with simulated tables (:class:`SimulatedTables`): no game is played; each table's result is drawn from
its players' strengths (seeded), when the simulation says the game ends.  The benchmark (``racko bench tournament``)
and the tests of many games drive the real runner and store with them, on a clock they move by hand."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from racko.web.tournaments.tables import TableOrder


@dataclass
class SimulatedTables:
    """Tables that are only a result to draw: ``strength`` by seat name (racko's levels and unknown names 0.5)."""

    strength: dict[str, float] = field(default_factory=dict)
    seed: int = 0
    made: dict[str, TableOrder] = field(default_factory=dict)
    open: set[str] = field(default_factory=set)
    """Tables made and not finished."""
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Results the runner may read for a table that finished without telling it (:meth:`lose`)."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    async def make(self, order: TableOrder) -> None:
        if order.table_id not in self.made:
            self.made[order.table_id] = order
            self.open.add(order.table_id)

    async def outcome(self, table_id: str) -> dict[str, Any] | None:
        return self.outcomes.get(table_id)

    def open_tables(self) -> set[str]:
        return set(self.open)

    def result(self, table_id: str, partners: bool = False) -> dict[str, Any]:
        """The table's game ends now: each side's place, drawn from the players' strengths (the stronger more often
        ahead), and the table is no longer open."""
        order = self.made[table_id]
        self.open.discard(table_id)
        seats = list(order.seats)
        sides = [[0, 2], [1, 3]] if partners else [[seat] for seat in range(len(seats))]
        drawn = [
            sum(self.strength.get(seats[seat].name, 0.5) for seat in side) / len(side) + self.rng.gauss(0, 0.3)
            for side in sides
        ]
        ranking = sorted(range(len(sides)), key=lambda side: -drawn[side])
        places = [0] * len(sides)
        for place, side in enumerate(ranking, start=1):
            places[side] = place
        return {"places": places, "totals": [round(100 * drawn[seat % len(sides)]) for seat in range(len(seats))]}

    def lose(self, table_id: str, partners: bool = False) -> None:
        """The table's game ends, but its result never reaches the tournament (its process stopped): the runner
        finds it by reading the table."""
        self.outcomes[table_id] = self.result(table_id, partners)
