"""What the tournaments' tests share: the tournaments room over a real store, its tables simulated (no game is played:
a result is drawn from the players' strengths when the test ends a game), on a clock the test moves by hand."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from racko.web.app import people, schema_parts
from racko.web.players import Player
from racko.web.store import SqliteTables, TableStore
from racko.web.table import match_places
from racko.web.tournaments import SCHEMA, Snapshot, Tournaments, TournamentSettings
from racko.web.tournaments.simulation import SimulatedTables


class HandClock:
    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


class Simulated:
    """A tournaments room whose tables are simulated."""

    def __init__(self, store: TableStore, seed: int = 0, **options: Any) -> None:
        store.prepare([*schema_parts(), SCHEMA])  # (the server's parts hold it: made twice, nothing changes)
        self.store = store
        self.players, _ = people(store)
        self.clock = HandClock()
        self.tables = SimulatedTables(seed=seed)
        options.setdefault("round_pause", 0.0)
        self.room = Tournaments(store, self.players, self.tables, match_places, now=self.clock, **options)

    @classmethod
    def on_sqlite(cls, folder: Path, **options: Any) -> Simulated:
        # synced at checkpoints only: a test of many small commits spends no time waiting for the disk
        return cls(SqliteTables(folder / "tables.sqlite3", "normal", grouped=True), **options)

    def person(self, name: str, strength: float = 0.5) -> Player:
        player, _ = self.players.create(name)
        self.tables.strength[name] = strength
        return player

    def run(self, work: Any) -> Any:
        return asyncio.run(work)

    async def make(self, starts_in: float = 60.0, **form: Any) -> str:
        kept = await self.room.create(TournamentSettings.of({"name": "Test", **form}), starts_in, None)
        return kept.id

    async def snapshot(self, tournament_id: str) -> Snapshot:
        found = await self.room.snapshot(tournament_id)
        assert found is not None
        return found

    async def finish_open(self, partners: bool = False) -> int:
        """Every open table's game ends now; how many."""
        ended = 0
        for table_id in sorted(self.tables.open):
            result = self.tables.result(table_id, partners)
            assert await self.room.table_result(table_id, lambda result=result: result)
            ended += 1
        return ended

    async def play_swiss(self, tournament_id: str, partners: bool = False, limit: int = 100) -> Snapshot:
        """Look, end every open game, move the clock on, until the tournament is finished."""
        for _ in range(limit):
            await self.room.look()
            snapshot = await self.snapshot(tournament_id)
            if snapshot.kept.status == "finished":
                return snapshot
            await self.finish_open(partners)
            self.clock.at += 60
        raise AssertionError("the tournament did not finish")
