"""``racko bench clocks``: the server's clocks at scale, measured from outside (docs/BENCHMARKS.md).

A real ``racko serve`` process (127.0.0.1, a free port, a temporary SQLite database) is started three times over one
database:

1. **empty**: its memory and its CPU at rest with no table; a turn-based table is made through ``POST /api/tables``,
   whose stored set-up is the template of the tables filed below;
2. **idle turn-based tables**: ``turn_based`` tables (2 person seats, ``days-1``, the clock running, nobody to act
   for a day or more) are filed straight into the database, as the server keeps a table (its set-up and its
   ``due``), and the server started again: it opens every table whose game is not over (as after any restart), so
   its memory with them, less the empty server's, is the memory of an idle turn-based table; then its CPU at rest;
3. **deadlines**: ``real_time`` tables are made and both seats connected over WebSockets as by ``racko bench
   server`` (their clock ``preset`` starts when the second person names themself), and their people never move: the
   server's clocks play their turns.  After ``rest`` seconds (the CPU with those clocks running, nothing due yet),
   ``due`` more turn-based tables are filed while the server runs, their deadlines spread over ``window`` seconds:
   the server knows nothing of them until its keep loop's ``overdue`` query finds them (as a table that left memory
   after idle minutes), then opens them and plays the timeout.

The server is then stopped and its journal read: for every turn the clock played, how late (``played_at`` minus the
turn's deadline, derived from the set-up's ``clock_from`` and the journal's times as the clock room does); every
deadline that passed before the end was met once, never twice (a turn played twice would be a turn played early).

The tools may not import the web server: the rows are written with SQL of the store's schema (``tables`` and
``actions``), the presets' numbers come from ``GET /api/options``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import http.client
import json
import os
import random
import secrets
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racko.match import Match
from racko.rules import Rules
from racko.tools.bench.processes import HOST, ServeProcess
from racko.tools.bench.server import (
    CONNECTING,
    _raise_file_limit,
    _sigterm_stops,
    _Table,
    create_tables,
    load_average,
    percentile,
)

TURN_PRESET = "days-1"
"""The turn-based tables' speed: one day a move."""
LATE_SECONDS = 1.0
"""A deadline is met if its timeout was played within this (the issue's promise, at p99)."""
GRACE_SECONDS = 10.0
"""After the last deadline filed, the run waits this long before it stops the server."""
ROUND_PAUSE = 10.0
"""A new round's first turn starts this long after the last round ended (racko.web.clock's ``ROUND_PAUSE``)."""
GONE_AFTER = 2
"""A seat whose turns the clock played this many times in a row is gone (racko.web.clock's ``GONE_AFTER``)."""
START_SECONDS = 600.0
"""The server opens every table at its start: it may take minutes with many tables."""


@dataclass(frozen=True)
class ClockSettings:
    """``racko bench clocks``'s options (docs/BENCHMARKS.md)."""

    turn_based: int = 10_000
    real_time: int = 1_000
    due: int = 1_000
    preset: str = "fast"
    window: float = 60.0
    rest: float = 10.0
    db_dir: Path | None = None
    seed: int = 0


# --- talking to the server -------------------------------------------------------------------------------------


def _get_json(port: int, path: str) -> Any:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return json.loads(answer.read())
    finally:
        connection.close()


def _rest_cpu(server: ServeProcess, seconds: float) -> float | None:
    """The server's CPU over ``seconds`` of rest, as a share of one core."""
    before, wall = server.cpu_seconds(), time.perf_counter()
    time.sleep(seconds)
    after = server.cpu_seconds()
    if before is None or after is None:
        return None
    return round((after - before) / (time.perf_counter() - wall), 4)


def _settle(server: ServeProcess, seconds: float = 1.0, limit: float = 120.0) -> None:
    """Wait until the server used less than a tenth of a core over ``seconds`` (done opening its tables)."""
    stop = time.monotonic() + limit
    while time.monotonic() < stop:
        share = _rest_cpu(server, seconds)
        if share is None or share < 0.1:
            return


# --- filing tables ---------------------------------------------------------------------------------------------


def _connect(db: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(str(db), timeout=60, isolation_level=None)
    connection.execute("PRAGMA busy_timeout = 60000")
    return connection


def _template(db: Path, table_id: str) -> dict[str, Any]:
    with contextlib.closing(_connect(db)) as connection:
        row = connection.execute("SELECT setup FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise RuntimeError("the table made through the form is not in the database")
    setup: dict[str, Any] = json.loads(row[0])
    return setup


def _file_turn_based(
    db: Path, template: dict[str, Any], deadlines: list[float], move: float, rng: random.Random
) -> list[str]:
    """Turn-based tables whose running turn runs out at ``deadlines`` (each its own table, its reminder already
    sent: ``due`` is the deadline), written in one transaction the way the server keeps a table; their ids."""
    rules = Rules.from_dict(template["rules"])
    rows = []
    now = time.time()
    for deadline in deadlines:
        seed = rng.getrandbits(32)
        to_act = Match(rules, seed=seed).to_act
        start = deadline - move
        seats = [
            {**spec, "joined": True, "token": hashlib.sha256(secrets.token_urlsafe(24).encode()).hexdigest()}
            for spec in template["seats"]
        ]
        setup = {**template, "seed": seed, "seats": seats, "clock_from": start, "reminded": [to_act, start]}
        rows.append((secrets.token_urlsafe(9), json.dumps(setup), now, now, deadline))
    with contextlib.closing(_connect(db)) as connection:
        connection.execute("BEGIN IMMEDIATE")
        connection.executemany("INSERT INTO tables (id, setup, created, touched, due) VALUES (?, ?, ?, ?, ?)", rows)
        connection.execute("COMMIT")
    return [row[0] for row in rows]


# --- reading the journal ---------------------------------------------------------------------------------------


@dataclass
class _Turns:
    """What the journal says of the clocks' deadlines."""

    late: list[float]
    """Per turn the clock played: seconds from its deadline to its first action."""
    missed: int = 0
    """Deadlines that passed (before the end, less a second) with no move played."""
    early: int = 0
    """Turns the clock played before their deadline (a turn played twice shows as one played early)."""
    tables_timed_out: int = 0


def _deadlines(
    setup: dict[str, Any],
    rows: list[tuple[str, float | None, str | None]],
    presets: dict[str, dict[str, Any]],
    end: float,
) -> tuple[list[float], int, int]:
    """The late seconds of each clock turn at one table, the deadlines missed before ``end`` and the clock turns
    played early: the clock replayed from ``clock_from`` and the journal's times (its first round only, until a seat
    is gone: enough for the minutes of a run)."""
    preset = presets[setup["clock"]]
    move, cap = float(preset["move"]), float(preset["cap"])
    seats = len(setup["seats"])
    banks = [float(preset["bank"])] * seats
    timed_out = [0] * seats
    since = float(setup["clock_from"])
    late: list[float] = []
    early = 0
    turns: list[tuple[int, list[tuple[float, str | None, str]]]] = []
    for text, at, by in rows:
        action = json.loads(text)
        seat = int(action["seat"])
        if at is None:
            break
        if turns and turns[-1][0] == seat:
            turns[-1][1].append((at, by, str(action.get("act"))))
        else:
            turns.append((seat, [(at, by, str(action.get("act")))]))
    for seat, actions in turns:
        deadline = since + move + banks[seat]
        kinds = {by for _, by, _ in actions}
        if "gone" in kinds:
            return late, 0, early  # a gone seat's computer player plays without a deadline: the replay stops here
        if "clock" in kinds:
            first = actions[0][0]
            late.append(first - deadline)
            if first < deadline:
                early += 1
        last = actions[-1][0]
        banks[seat] = min(cap, max(0.0, banks[seat] + move - max(0.0, last - since)))
        timed_out[seat] = timed_out[seat] + 1 if "clock" in kinds else 0
        since = last
        if any(act == "racko" for _, _, act in actions):
            return late, 0, early  # the round ended: the next starts after its pause (not replayed here)
    seat_now = _next_seat(turns, seats)
    missed = 0
    if seat_now is not None and not timed_out[seat_now] >= GONE_AFTER:
        missed = int(since + move + banks[seat_now] < end - LATE_SECONDS)
    return late, missed, early


def _next_seat(turns: list[tuple[int, list[tuple[float, str | None, str]]]], seats: int) -> int | None:
    """The seat to act after the journal's turns (two seats take turns), or ``None`` if nobody has played yet and the
    first seat is not known from the journal alone."""
    if not turns:
        return None
    return (turns[-1][0] + 1) % seats


def _read_journal(db: Path, presets: dict[str, dict[str, Any]], end: float) -> dict[str, _Turns]:
    """Per kind of clock (``turn_based``, ``real_time``), what the clocks did, from the stopped server's database."""
    found = {"turn_based": _Turns([]), "real_time": _Turns([])}
    with contextlib.closing(_connect(db)) as connection:
        tables = connection.execute("SELECT id, setup FROM tables").fetchall()
        journal: dict[str, list[tuple[str, float | None, str | None]]] = {}
        for table_id, text, at, by in connection.execute(
            "SELECT table_id, action, played_at, made_by FROM actions ORDER BY table_id, number"
        ):
            journal.setdefault(table_id, []).append((text, at, by))
    for table_id, text in tables:
        setup = json.loads(text)
        if setup.get("clock") not in presets or setup.get("clock_from") is None:
            continue
        kind = "turn_based" if presets[setup["clock"]]["days"] else "real_time"
        rows = journal.get(table_id, [])
        late, missed, early = _deadlines(setup, rows, presets, end)
        if not rows:  # nothing played: was its first deadline due?
            preset = presets[setup["clock"]]
            deadline = float(setup["clock_from"]) + float(preset["move"]) + float(preset["bank"])
            missed = int(deadline < end - LATE_SECONDS)
        turns = found[kind]
        turns.late.extend(late)
        turns.missed += missed
        turns.early += early
        turns.tables_timed_out += bool(late)
    return found


def _late_figures(prefix: str, turns: _Turns) -> dict[str, Any]:
    late = turns.late
    return {
        f"{prefix}_timeouts": len(late),
        f"{prefix}_tables_timed_out": turns.tables_timed_out,
        f"{prefix}_late_p50_ms": round(percentile(late, 0.5) * 1000, 1),
        f"{prefix}_late_p99_ms": round(percentile(late, 0.99) * 1000, 1),
        f"{prefix}_late_max_ms": round(max(late, default=0.0) * 1000, 1),
        f"{prefix}_missed": turns.missed,
        f"{prefix}_early": turns.early,
    }


# --- the run ---------------------------------------------------------------------------------------------------


def _start(folder: Path, db: Path) -> tuple[ServeProcess, float]:
    server = ServeProcess(folder, str(db), "clocks", "--new-tables-per-minute", "1000000")
    started = time.perf_counter()
    server.start(START_SECONDS)
    return server, round(time.perf_counter() - started, 2)


async def _open_real_time(port: int, count: int, preset: str, seed: int) -> list[_Table]:
    """``count`` tables with the real-time clock ``preset`` through the form, both seats connected (the second
    names itself, which starts the clock); their people never move."""
    connection_links = await asyncio.to_thread(create_tables, port, count, False, preset)
    rng = random.Random(seed)
    tables = [
        _Table(index, link["table"], [seat["token"] for seat in link["seats"]], 40, random.Random(rng.random()))
        for index, link in enumerate(connection_links)
    ]
    gate = asyncio.Semaphore(CONNECTING)
    errors: Counter[str] = Counter()

    async def open_one(table: _Table) -> None:
        async with gate:
            await table.open(f"ws://{HOST}:{port}", errors)

    await asyncio.gather(*(open_one(table) for table in tables))
    return tables


async def _deadlines_run(
    server: ServeProcess,
    db: Path,
    template: dict[str, Any],
    move: float,
    settings: ClockSettings,
    figures: dict[str, Any],
    say: Callable[[str], None],
) -> float:
    """Phase 3: the real-time tables opened and left to their clocks, the due turn-based tables filed; when the run
    ended (the server's clock)."""
    opened = time.perf_counter()
    tables = await _open_real_time(server.port, settings.real_time, settings.preset, settings.seed)
    figures["real_time_open_seconds"] = round(time.perf_counter() - opened, 2)
    figures["server_rss_real_time_kb"] = server.rss_kb()
    say(f"{settings.real_time} real-time tables open ({settings.preset}), nobody moving; {settings.rest:g} s at rest.")
    try:
        figures["server_cpu_real_time_waiting"] = await asyncio.to_thread(_rest_cpu, server, settings.rest)
        rng = random.Random(settings.seed + 1)
        first = time.time() + 3.0
        deadlines = sorted(first + rng.uniform(0, settings.window) for _ in range(settings.due))
        await asyncio.to_thread(_file_turn_based, db, template, deadlines, move, rng)
        say(f"{settings.due} turn-based tables filed, due over the next {settings.window:g} s.")
        cpu, wall = server.cpu_seconds(), time.perf_counter()
        await asyncio.sleep(max(deadlines, default=first) - time.time() + GRACE_SECONDS)
        after = server.cpu_seconds()
        figures["server_cpu_deadlines"] = (
            None if cpu is None or after is None else round((after - cpu) / (time.perf_counter() - wall), 3)
        )
        figures["server_rss_end_kb"] = server.rss_kb()
        return time.time()
    finally:
        await asyncio.gather(*(table.close() for table in tables), return_exceptions=True)


def clocks_bench(settings: ClockSettings, say: Callable[[str], None]) -> dict[str, Any]:
    """Start the server three times over one database, as the module says; the figures (JSON-ready)."""
    _raise_file_limit()
    figures: dict[str, Any] = {
        "benchmark": "server-clocks",
        "turn_based_tables": settings.turn_based,
        "real_time_tables": settings.real_time,
        "due_tables": settings.due,
        "real_time_preset": settings.preset,
        "turn_based_preset": TURN_PRESET,
        "window_seconds": settings.window,
        "rest_seconds": settings.rest,
        "database": "sqlite",
        "cores": os.cpu_count(),
        "load_average_before": load_average(),
    }
    rng = random.Random(settings.seed)
    with _sigterm_stops(), tempfile.TemporaryDirectory(prefix="racko-bench-clocks-", dir=settings.db_dir) as name:
        folder = Path(name)
        db = folder / "bench.sqlite3"
        server, _ = _start(folder, db)
        try:
            say(f"server pid {server.pid} on {HOST}:{server.port}, empty.")
            options = _get_json(server.port, "/api/options")
            presets = {preset["name"]: preset for preset in [*options["clocks"], *options["turn_clocks"]]}
            if settings.preset not in presets or presets[settings.preset]["days"]:
                raise ValueError(f"--preset is a real-time speed: {', '.join(p['name'] for p in options['clocks'])}")
            (link,) = create_tables(server.port, 1, False, TURN_PRESET)
            made = str(link["table"])
            _settle(server)
            figures["server_rss_empty_kb"] = server.rss_kb()
            figures["server_cpu_empty"] = _rest_cpu(server, settings.rest)
        finally:
            server.stop()
        template = _template(db, made)
        move = float(presets[TURN_PRESET]["move"])
        later = time.time() + 3600.0  # nothing of these is due for an hour at least
        idle = [later + rng.uniform(0, move) for _ in range(settings.turn_based)]
        _file_turn_based(db, template, idle, move, rng)
        say(f"{settings.turn_based} idle turn-based tables filed; starting the server again.")
        server, figures["start_seconds"] = _start(folder, db)
        end = time.time()
        try:
            say(f"server pid {server.pid} on {HOST}:{server.port}, started in {figures['start_seconds']} s.")
            _settle(server)
            rss = server.rss_kb()
            figures["server_rss_turn_based_kb"] = rss
            empty = figures["server_rss_empty_kb"]
            figures["memory_per_turn_based_table_kb"] = (
                round((rss - empty) / max(1, settings.turn_based), 2) if rss is not None and empty is not None else None
            )
            figures["server_cpu_at_rest"] = _rest_cpu(server, settings.rest)
            end = asyncio.run(_deadlines_run(server, db, template, move, settings, figures, say))
        finally:
            server.stop()
        found = _read_journal(db, presets, end)
    figures.update(_late_figures("turn_based", found["turn_based"]))
    figures.update(_late_figures("real_time", found["real_time"]))
    every = found["turn_based"].late + found["real_time"].late
    figures.update(
        timeouts=len(every),
        late_p50_ms=round(percentile(every, 0.5) * 1000, 1),
        late_p99_ms=round(percentile(every, 0.99) * 1000, 1),
        late_max_ms=round(max(every, default=0.0) * 1000, 1),
    )
    figures["met"] = (
        figures["late_p99_ms"] <= LATE_SECONDS * 1000
        and found["turn_based"].missed + found["real_time"].missed == 0
        and found["turn_based"].early + found["real_time"].early == 0
        and found["turn_based"].tables_timed_out == settings.due
    )
    figures["load_average_after"] = load_average()
    return figures


def clocks_bench_lines(figures: dict[str, Any]) -> list[str]:
    """The figures in words."""

    def mb(kb: int | None) -> str:
        return "?" if kb is None else f"{kb / 1024:,.1f} MB"

    def share(value: float | None) -> str:
        return "?" if value is None else f"{value:.1%}"

    f = figures
    return [
        f"One server process on SQLite ({f['cores']} cores, shared with the load; load average "
        f"{f['load_average_before']} before, {f['load_average_after']} after).",
        f"Memory: {mb(f['server_rss_empty_kb'])} empty, {mb(f['server_rss_turn_based_kb'])} with "
        f"{f['turn_based_tables']:,} idle turn-based tables open ({f['memory_per_turn_based_table_kb']} KB a table; "
        f"started in {f['start_seconds']} s), {mb(f['server_rss_real_time_kb'])} with {f['real_time_tables']:,} "
        f"real-time tables besides, {mb(f['server_rss_end_kb'])} at the end.",
        f"CPU at rest: {share(f['server_cpu_empty'])} of a core empty, {share(f['server_cpu_at_rest'])} with the "
        f"turn-based tables, {share(f['server_cpu_real_time_waiting'])} with the real-time clocks running too; "
        f"{share(f['server_cpu_deadlines'])} while the deadlines fell due.",
        f"Turn-based timeouts: {f['turn_based_timeouts']:,} of {f['due_tables']:,} due over {f['window_seconds']:g} s, "
        f"late p50 {f['turn_based_late_p50_ms']} ms, p99 {f['turn_based_late_p99_ms']} ms, max "
        f"{f['turn_based_late_max_ms']} ms; missed {f['turn_based_missed']}, early {f['turn_based_early']}.",
        f"Real-time timeouts ({f['real_time_preset']}): {f['real_time_timeouts']:,} at "
        f"{f['real_time_tables_timed_out']:,} tables, late p50 {f['real_time_late_p50_ms']} ms, p99 "
        f"{f['real_time_late_p99_ms']} ms, max {f['real_time_late_max_ms']} ms; missed {f['real_time_missed']}, "
        f"early {f['real_time_early']}.",
        f"Every deadline: p99 {f['late_p99_ms']} ms late (within {LATE_SECONDS:g} s, each met once: "
        f"{'yes' if f['met'] else 'no'}).",
    ]
