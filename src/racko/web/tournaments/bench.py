"""``racko bench tournament`` (docs/BENCHMARKS.md): how long a Swiss round of many players takes to pair, and how soon
an arena's players are seated again, measured on the tournaments room's own code.

- **Swiss**: ``players`` entrants at tables of 2 and of 4; rounds are paired and their results drawn from the players'
  strengths (the pairing's own function, :func:`racko.play.tournaments.pair_swiss`) until the round measured; the
  median seconds of three pairings of that round (and their CPU time: on a shared machine the seconds include
  waiting for a core), its repeat meetings and the mean gap in points at a table.
- **Arena**: the runner itself (its store, its lease, its looks) with ``arena_players`` people joined to an arena of
  ``minutes`` minutes at tables of 2; each game lasts between :data:`GAME_MINUTES` at random (simulated: no game is
  played, its result is drawn from the players' strengths), on a clock moved a second at a time.  The seconds from a
  game's end to its players' next seat (on that clock: the wait for a partner, the runner looking as soon as a result
  comes, as a server does), and the milliseconds each look and each result take (this machine's time; a look's CPU
  milliseconds too).
"""

from __future__ import annotations

import asyncio
import functools
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from racko.play.tournaments import SWISS, Contender, Game, meetings, pair_swiss, repeats, standings
from racko.web.players import SCHEMA as PLAYERS
from racko.web.players import Players
from racko.web.store import SqliteTables
from racko.web.tournaments.kept import SCHEMA
from racko.web.tournaments.runner import Tournaments
from racko.web.tournaments.settings import TournamentSettings
from racko.web.tournaments.simulation import SimulatedTables
from racko.web.tournaments.tables import PlacesOf

SWISS_PLAYERS = 2000
SWISS_ROUND = 5
"""The round measured: the fifth, when points have spread and pairs have met."""
MEASURED = 3
"""The measured round is paired this many times (each time drawing equals in another order): the median."""
ARENA_PLAYERS = 500
ARENA_MINUTES = 60
GAME_MINUTES = (4.0, 12.0)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def swiss_bench(players: int, sides: int, measured_round: int, seed: int) -> dict[str, Any]:
    """Pair rounds 1 … ``measured_round`` of a Swiss of ``players`` at tables of ``sides``; the measured round's
    figures."""
    rng = random.Random(seed)
    ids = [f"p{index}" for index in range(players)]
    strength = {entrant: rng.random() for entrant in ids}
    games: list[Game] = []
    seconds: list[float] = []
    figures: dict[str, Any] = {}
    for round_ in range(1, measured_round + 1):
        lines = standings(SWISS, ids, games, sides)
        points = {line.entrant: line.points for line in lines}
        contenders = [Contender(line.entrant, line.points, line.byes) for line in lines]
        met = meetings(game.sides for game in games if not game.bye)
        timed: list[tuple[float, float]] = []
        for attempt in range(MEASURED if round_ == measured_round else 1):
            started, used = time.perf_counter(), time.process_time()
            pairing = pair_swiss(contenders, sides, met, seed * 1000 + round_ + 7919 * attempt)
            timed.append((time.perf_counter() - started, time.process_time() - used))
        seconds.append(statistics.median(wall for wall, _ in timed))
        cpu = statistics.median(used for _, used in timed)
        if round_ == measured_round:
            gaps = [
                max(points[entrant] for entrant in table if entrant)
                - min(points[entrant] for entrant in table if entrant)
                for table in pairing.tables
            ]
            figures = {
                "players": players,
                "seats": sides,
                "round": round_,
                "seconds": round(seconds[-1], 3),
                "cpu_seconds": round(cpu, 3),
                "seconds_each": [round(wall, 3) for wall, _ in timed],
                "tables": len(pairing.tables),
                "byes": len(pairing.byes),
                "repeats": repeats(pairing.tables, met),
                "mean_points_gap": round(statistics.fmean(gaps), 3),
            }
        for table in pairing.tables:
            drawn = {entrant: strength[entrant] + rng.gauss(0, 0.3) for entrant in table if entrant}
            order = sorted(drawn, key=lambda entrant: -drawn[entrant])
            games.append(Game(tuple(table), tuple(order.index(entrant) + 1 for entrant in table if entrant)))
        games.extend(Game((entrant,), bye=True) for entrant in pairing.byes)
    figures["earlier_rounds_seconds"] = [round(value, 3) for value in seconds[:-1]]
    return figures


class _Clock:
    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


async def arena_bench(players: int, minutes: int, seed: int, places_of: PlacesOf, folder: Path) -> dict[str, Any]:
    """An arena of ``players`` over ``minutes`` simulated minutes, run by the tournaments room on a SQLite store in
    ``folder``."""
    store = SqliteTables(folder / "bench.sqlite3", "normal", grouped=True)
    try:
        store.prepare([PLAYERS, SCHEMA])
        people = Players(store)
        rng = random.Random(seed)
        clock = _Clock()
        tables = SimulatedTables(seed=seed)
        room = Tournaments(store, people, tables, places_of, now=clock)
        settings = TournamentSettings.of(
            {
                "name": "Bench arena",
                "kind": "arena",
                "variant": "classic",
                "seats": 2,
                "minutes": minutes,
                "clock": "fast",
            }
        )
        kept = await room.create(settings, 0.0, None)
        for index in range(players):
            player, _ = people.create(f"Bench {index}")
            tables.strength[player.name] = rng.random()
            await room.join(kept.id, player, bot=False)
        ends_at: dict[str, float] = {}
        free_since: dict[str, float] = {}
        waits: list[float] = []
        looks: list[float] = []
        look_cpu: list[float] = []
        results: list[float] = []
        seen: set[str] = set()
        stop = clock.at + 60 * minutes + 60 * GAME_MINUTES[1] + 60
        while clock.at < stop:
            for table_id, ends in list(ends_at.items()):
                if ends > clock.at:
                    continue
                del ends_at[table_id]
                result: dict[str, Any] = tables.result(table_id)
                started = time.perf_counter()
                await room.table_result(table_id, functools.partial(dict, result))
                results.append(time.perf_counter() - started)
                for seat in tables.made[table_id].seats:
                    free_since[seat.name] = clock.at
            started, used = time.perf_counter(), time.process_time()
            await room.look()
            looks.append(time.perf_counter() - started)
            look_cpu.append(time.process_time() - used)
            for table_id, order in tables.made.items():
                if table_id in seen:
                    continue
                seen.add(table_id)
                ends_at[table_id] = clock.at + 60 * rng.uniform(*GAME_MINUTES)
                for seat in order.seats:
                    if seat.name in free_since:
                        waits.append(clock.at - free_since.pop(seat.name))
            snapshot = await room.snapshot(kept.id)
            if snapshot is not None and snapshot.kept.status == "finished":
                break
            clock.at += 1.0
        snapshot = await room.snapshot(kept.id)
        assert snapshot is not None
        games = len(snapshot.games)
        return {
            "players": players,
            "minutes": minutes,
            "games": games,
            "games_per_player": round(2 * games / players, 2),
            "next_seat_seconds_p50": percentile(waits, 0.5),
            "next_seat_seconds_p99": percentile(waits, 0.99),
            "next_seat_seconds_max": max(waits, default=0.0),
            "seated_again": len(waits),
            "look_ms_p50": round(1000 * percentile(looks, 0.5), 2),
            "look_ms_p99": round(1000 * percentile(looks, 0.99), 2),
            "look_cpu_ms_p50": round(1000 * percentile(look_cpu, 0.5), 2),
            "look_cpu_ms_p99": round(1000 * percentile(look_cpu, 0.99), 2),
            "result_ms_p50": round(1000 * percentile(results, 0.5), 2),
            "result_ms_p99": round(1000 * percentile(results, 0.99), 2),
            "status": snapshot.kept.status,
        }
    finally:
        store.close()


def tournament_bench(
    swiss_players: int, arena_players: int, minutes: int, seed: int, say: Callable[[str], None]
) -> dict[str, Any]:
    """Every figure of ``racko bench tournament``."""
    from racko.web.table import match_places

    figures: dict[str, Any] = {"swiss": {}}
    for sides in (2, 4):
        say(f"pairing a Swiss of {swiss_players} players at tables of {sides}, rounds 1 to {SWISS_ROUND}")
        figures["swiss"][str(sides)] = swiss_bench(swiss_players, sides, SWISS_ROUND, seed)
    say(f"an arena of {arena_players} players over {minutes} simulated minutes")
    with tempfile.TemporaryDirectory(prefix="racko-bench-") as folder:
        figures["arena"] = asyncio.run(arena_bench(arena_players, minutes, seed, match_places, Path(folder)))
    return figures


def tournament_bench_lines(figures: dict[str, Any]) -> list[str]:
    lines = []
    for sides, swiss in figures["swiss"].items():
        lines.append(
            f"Swiss, {swiss['players']} players at tables of {sides}: round {swiss['round']} paired in "
            f"{swiss['seconds']:.2f} s ({swiss['cpu_seconds']:.2f} s of CPU; {swiss['tables']} tables, "
            f"{swiss['byes']} byes, {swiss['repeats']} repeat meetings, a mean gap of {swiss['mean_points_gap']} "
            "points at a table)"
        )
    arena = figures["arena"]
    lines.append(
        f"Arena, {arena['players']} players over {arena['minutes']} simulated minutes: {arena['games']} games "
        f"({arena['games_per_player']} a player); from a game's end to the next seat p50 "
        f"{arena['next_seat_seconds_p50']:.0f} s, p99 {arena['next_seat_seconds_p99']:.0f} s; a look "
        f"{arena['look_ms_p50']} ms (p99 {arena['look_ms_p99']} ms), a result kept {arena['result_ms_p50']} ms "
        f"(p99 {arena['result_ms_p99']} ms)"
    )
    return lines
