"""``racko bench server --bots N``: bot accounts playing through the Bot API (docs/BOTS.md) on one ``racko serve``
process, measured from outside; then the browser's sockets on the same server at the same rate of moves, for
comparison.

The server is started as ``racko bench server`` starts it (:class:`Servers`); the bot accounts are made in its
store by ``racko admin bot add`` (one command for every name); this process is the load.  The bots sit in pairs,
each pair at a table of 2-player classic Rack-O (the 2-player rule off, a low target so that a game is a round or
two), a new table for each game, until every bot has played ``games`` games: the first of the pair challenges the
second (``POST /api/bot/challenge/NAME``), which accepts when its event stream tells it (a bot is seated only by its
own consent).  Each bot is what a client of the Bot API is: its event stream open the whole time; on ``gameStart``
the game's stream; on each state where it is to act, a move POSTed on its own kept-alive connection, chosen from the
view by the simulated people's rule (:func:`sorting_move`).

Measured over the bots' run: move acknowledgement (from sending a move to its ``{"ok": true}``); events (the
non-empty lines of every stream) per second; the server's CPU per move (the tables' making included).  Then the
person seats of ``racko bench server`` (two WebSockets a table, as many seats as bots) at the rate of moves the bots
reached: the browser's CPU per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import subprocess
import time
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import h11

from racko.tools.bench.processes import HOST, racko_command
from racko.tools.bench.server import (
    BenchSettings,
    Servers,
    _raise_file_limit,
    _sigterm_stops,
    load_average,
    measure_tables,
    percentile,
    running_servers,
    sorting_move,
)

DECK = 40
"""2-player classic."""
GAME_SECONDS = 300.0
"""A game not over after this long is given up (counted as an error)."""
PROGRESS_SECONDS = 10.0
READ_BYTES = 65536


@dataclass(frozen=True)
class BotBenchSettings:
    """``racko bench server --bots``'s options (docs/BENCHMARKS.md)."""

    bots: int = 200
    games: int = 10
    target: int = 75
    think: float = 0.25
    """Seconds a bot thinks before each move, as a program that decides does (0: at once)."""
    seconds: float = 60.0
    """The browser's stretch, measured after ``warmup``."""
    warmup: float = 5.0
    sync: str = "full"
    seed: int = 0
    db_dir: Path | None = None
    port: int = 0
    """The server's port on 127.0.0.1 (0: a free one)."""


class _Connection:
    """One HTTP/1.1 connection to the server: asyncio's streams, h11 writing and reading the messages."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.http = h11.Connection(h11.CLIENT)

    async def _send(self, method: str, path: str, headers: list[tuple[str, str]], body: bytes | None) -> None:
        if self.writer is None or self.http.our_state is not h11.IDLE:  # new, or the last one may not be reused
            await self.close()
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            self.http = h11.Connection(h11.CLIENT)
        headers = [("Host", f"{HOST}:{self.port}"), *headers]
        if body is not None:
            headers += [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        data = self.http.send(h11.Request(method=method, target=path, headers=headers)) or b""
        if body is not None:
            data += self.http.send(h11.Data(data=body)) or b""
        data += self.http.send(h11.EndOfMessage()) or b""
        self.writer.write(data)
        await self.writer.drain()

    async def _next(self) -> Any:
        assert self.reader is not None
        while True:
            event = self.http.next_event()
            if event is h11.NEED_DATA:
                self.http.receive_data(await self.reader.read(READ_BYTES))
                continue
            if isinstance(event, h11.ConnectionClosed):
                raise ConnectionError("the server closed the connection")
            return event

    async def request(
        self, method: str, path: str, headers: list[tuple[str, str]], body: bytes | None = None
    ) -> tuple[int, bytes]:
        """A request and its whole answer: the status and the body; the connection is kept for the next one.  A
        kept connection the server has closed meanwhile (uvicorn closes idle ones after 5 s) is opened again and the
        request sent again (a move sent twice is refused as stale: it is played once)."""
        reused = self.writer is not None and self.http.our_state is h11.IDLE
        try:
            return await self._exchange(method, path, headers, body)
        except (ConnectionError, h11.ProtocolError):
            if not reused:
                raise
            await self.close()
            return await self._exchange(method, path, headers, body)

    async def _exchange(
        self, method: str, path: str, headers: list[tuple[str, str]], body: bytes | None
    ) -> tuple[int, bytes]:
        await self._send(method, path, headers, body)
        status, chunks = 0, []
        while not isinstance(event := await self._next(), h11.EndOfMessage):
            if isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
        with contextlib.suppress(h11.LocalProtocolError):
            self.http.start_next_cycle()  # else (the server said close) the next request opens a new connection
        return status, b"".join(chunks)

    async def lines(self, path: str, headers: list[tuple[str, str]]) -> AsyncIterator[bytes]:
        """A stream's lines (keep-alive lines included, as empty ones) until it ends; ``ConnectionError`` if it
        is refused or breaks."""
        await self._send("GET", path, headers, None)
        pending = b""
        while not isinstance(event := await self._next(), h11.EndOfMessage):
            if isinstance(event, h11.Response) and event.status_code != 200:
                raise ConnectionError(f"{path} answered {event.status_code}")
            if isinstance(event, h11.Data):
                pending += bytes(event.data)
                *complete, pending = pending.split(b"\n")
                for line in complete:
                    yield line

    async def close(self) -> None:
        writer, self.writer = self.writer, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


class _Run:
    """What the bots share: the measurements, and which tables' games both seats have seen finish."""

    def __init__(self) -> None:
        self.acks: list[float] = []
        self.events = 0
        self.errors: Counter[str] = Counter()
        self.finished = 0
        self.seen_over: Counter[str] = Counter()
        self.over: dict[str, asyncio.Event] = {}

    def game_over(self, table: str) -> asyncio.Event:
        return self.over.setdefault(table, asyncio.Event())

    def finish(self, table: str) -> None:
        self.seen_over[table] += 1
        if self.seen_over[table] == 2:
            self.finished += 1
            self.game_over(table).set()


class _Bot:
    """One bot account: its event stream, the games it is told of, and its moves on one kept-alive connection."""

    def __init__(self, name: str, token: str, port: int, run: _Run, rng: random.Random) -> None:
        self.name = name
        self.port = port
        self.run = run
        self.rng = rng
        self.auth = [("Authorization", f"Bearer {token}")]
        self.moves = _Connection(port)
        self.answers = _Connection(port)
        """Its challenges and answers (so that they never wait behind a move)."""
        self.games: dict[str, asyncio.Task[None]] = {}
        self.hello = asyncio.Event()
        self.settings = BotBenchSettings()
        self.accepting: set[asyncio.Task[None]] = set()
        self.answering = asyncio.Lock()
        """One request at a time on :attr:`answers`."""

    async def follow(self) -> None:
        """The account's event stream, for the whole run: each game that starts is played."""
        events = _Connection(self.port)
        try:
            async for line in events.lines("/api/bot/stream/event", self.auth):
                if not line.strip():
                    continue
                self.run.events += 1
                event = json.loads(line)
                if event["type"] == "hello":
                    self.hello.set()
                elif event["type"] == "gameStart" and event["table"] not in self.games:
                    self.games[event["table"]] = asyncio.create_task(self.play(event["table"]))
                elif event["type"] == "streamEnded":  # the server ended it (a bot's stream should never end here)
                    self.run.errors[f"stream-ended-{event.get('reason')}"] += 1
                elif event["type"] == "challenge":
                    accepting = asyncio.create_task(self._accept(event["id"]))
                    self.accepting.add(accepting)
                    accepting.add_done_callback(self.accepting.discard)
        except (OSError, ValueError, h11.ProtocolError):
            self.run.errors["event-stream"] += 1
        finally:
            await events.close()

    async def _accept(self, challenge: str) -> None:
        try:
            async with self.answering:
                path = f"/api/bot/challenge/{challenge}/accept"
                status, _ = await self.answers.request("POST", path, self.auth, b"{}")
        except (OSError, h11.ProtocolError):
            status = 0
        if status != 200:
            self.run.errors[f"accept-{status}"] += 1

    async def challenge(self, other: _Bot, settings: BotBenchSettings) -> bool:
        """Ask ``other`` for a game (it accepts on its event stream); whether the challenge was taken."""
        form = {"variant": "classic", "players": 2, "target": settings.target, "two_player_rule": False}
        try:
            async with self.answering:
                path = f"/api/bot/challenge/{urllib.parse.quote(other.name)}"
                status, _ = await self.answers.request("POST", path, self.auth, json.dumps(form).encode())
        except (OSError, h11.ProtocolError):
            self.run.errors["challenge-connection"] += 1
            return False
        if status != 200:
            self.run.errors[f"challenge-{status}"] += 1
        return status == 200

    async def play(self, table: str) -> None:
        stream = _Connection(self.port)
        try:
            async for line in stream.lines(f"/api/bot/game/stream/{table}?since=0", self.auth):
                if not line.strip():
                    continue
                self.run.events += 1
                frame = json.loads(line)
                if frame["type"] == "gameFinish":
                    self.run.finish(table)
                    return
                if frame["type"] == "state":
                    await self._move(table, frame)
            self.run.errors["game-stream-ended"] += 1
        except (OSError, ValueError, h11.ProtocolError):
            self.run.errors["game-stream"] += 1
        finally:
            await stream.close()

    async def _move(self, table: str, frame: dict[str, Any]) -> None:
        view = frame["view"]
        if not view["legal"] or view["to_act"] != view["you"]:
            return
        legal = [{key: value for key, value in action.items() if key != "seat"} for action in view["legal"]]
        body = json.dumps({"version": frame["version"], "action": sorting_move(view, legal, DECK, self.rng)})
        if self.settings.think:
            await asyncio.sleep(self.settings.think)
        sent = time.perf_counter()
        status, answer = await self.moves.request("POST", f"/api/bot/game/{table}/move", self.auth, body.encode())
        if status == 200:
            self.run.acks.append(time.perf_counter() - sent)
        else:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                self.run.errors[str(json.loads(answer)["code"])] += 1
                return
            self.run.errors[f"http-{status}"] += 1


def histogram(port: int, name: str) -> dict[float, float]:
    """A histogram of the server's ``/metrics`` (Prometheus' text): each bucket's upper bound (seconds) and how many
    fell at or under it so far."""
    with urllib.request.urlopen(f"http://{HOST}:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    found: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith(f"{name}_bucket{{"):
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            found[math.inf if bound == "+Inf" else float(bound)] = float(line.rsplit(" ", 1)[1])
    return found


def bucket_quantile(before: dict[float, float], after: dict[float, float], share: float) -> float | None:
    """The upper bound (ms) of the bucket holding the ``share`` quantile of what the histogram counted between
    ``before`` and ``after`` (None when it counted nothing, or it lies beyond the last bound)."""
    counted = {bound: after[bound] - before.get(bound, 0.0) for bound in sorted(after)}
    total = counted.get(math.inf, 0.0)
    if not total:
        return None
    for bound, count in counted.items():
        if count >= share * total:
            return None if bound == math.inf else round(bound * 1000, 1)
    return None


def add_bots(location: str, names: list[str]) -> list[str]:
    """The bot accounts made in the server's store, as an operator makes them (``racko admin bot add``); their
    tokens in the order of ``names``."""
    done = subprocess.run(
        racko_command("admin", "bot", "add", *names, "--db", location), capture_output=True, text=True, timeout=300
    )
    tokens = done.stdout.split()
    if done.returncode != 0 or len(tokens) != len(names):
        raise RuntimeError(f"racko admin bot add failed: {done.stderr.strip()[-500:]}")
    return tokens


async def _play_games(pair: tuple[_Bot, _Bot], games: int, run: _Run) -> None:
    """The pair's games, one table each, one after the other: the first challenges the second, which accepts."""
    challenger, challenged = pair
    for _ in range(games):
        before = set(challenger.games)
        if not await challenger.challenge(challenged, challenger.settings):
            return
        started = time.monotonic()
        while not set(challenger.games) - before:  # its gameStart: the accepted challenge's table
            if time.monotonic() - started > GAME_SECONDS:
                run.errors["no-game-start"] += 1
                return
            await asyncio.sleep(0.01)
        table = next(iter(set(challenger.games) - before))
        try:
            await asyncio.wait_for(run.game_over(table).wait(), GAME_SECONDS)
        except TimeoutError:
            run.errors["game-timeout"] += 1
            return


async def _measure_bots(servers: Servers, settings: BotBenchSettings, say: Callable[[str], None]) -> dict[str, Any]:
    rng = random.Random(settings.seed)
    port = servers.port
    names = [f"Bench {number + 1}" for number in range(settings.bots)]
    tokens = await asyncio.to_thread(add_bots, servers.location, names)
    run = _Run()
    bots = [
        _Bot(name, token, port, run, random.Random(rng.random())) for name, token in zip(names, tokens, strict=True)
    ]
    for bot in bots:
        bot.settings = settings
    figures: dict[str, Any] = {
        "benchmark": "server-bots",
        "bots": settings.bots,
        "games_per_bot": settings.games,
        "variant": "classic",
        "players_per_table": 2,
        "target": settings.target,
        "think_seconds": settings.think,
        "sync": settings.sync,
        "cores": os.cpu_count(),
        "load_average_before": load_average(),
        "server_rss_before_kb": servers.rss_kb(),
    }
    followers = [asyncio.create_task(bot.follow()) for bot in bots]
    try:
        await asyncio.wait_for(asyncio.gather(*(bot.hello.wait() for bot in bots)), 60)
        say(f"{settings.bots} bots connected; playing {settings.games} games each.")
        moves_before = await asyncio.to_thread(histogram, port, "racko_bot_move_seconds")
        server_cpu, client_cpu, start = servers.cpu_seconds(), time.process_time(), time.perf_counter()
        pairs = [(bots[index], bots[index + 1]) for index in range(0, len(bots) - 1, 2)]
        playing = [asyncio.create_task(_play_games(pair, settings.games, run)) for pair in pairs]
        expected = len(pairs) * settings.games
        while not all(task.done() for task in playing):
            await asyncio.wait(playing, timeout=PROGRESS_SECONDS)
            say(f"{run.finished} of {expected} games over, {len(run.acks):,} moves.")
        wall = max(time.perf_counter() - start, 1e-9)
        server_after, client_after = servers.cpu_seconds(), time.process_time()
        moves_after = await asyncio.to_thread(histogram, port, "racko_bot_move_seconds")
        figures["server_move_p50_ms"] = bucket_quantile(moves_before, moves_after, 0.50)
        figures["server_move_p99_ms"] = bucket_quantile(moves_before, moves_after, 0.99)
        figures["server_rss_after_kb"] = servers.rss_kb()
    finally:
        for task in followers + [task for bot in bots for task in bot.games.values()]:
            task.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
        for connection in [bot.moves for bot in bots] + [bot.answers for bot in bots]:
            await connection.close()
    moves = len(run.acks)
    server_seconds = None if server_cpu is None or server_after is None else server_after - server_cpu
    per_move = None if server_seconds is None or not moves else round(server_seconds / moves * 1000, 3)
    figures.update(
        {
            "tables": len(pairs),
            "games_expected": expected,
            "games_finished": run.finished,
            "seconds": round(wall, 2),
            "moves": moves,
            "moves_per_second": round(moves / wall, 1),
            "ack_p50_ms": round(percentile(run.acks, 0.50) * 1000, 2),
            "ack_p90_ms": round(percentile(run.acks, 0.90) * 1000, 2),
            "ack_p99_ms": round(percentile(run.acks, 0.99) * 1000, 2),
            "ack_max_ms": round(max(run.acks, default=0.0) * 1000, 2),
            "events": run.events,
            "events_per_second": round(run.events / wall, 1),
            "server_cpu": None if server_seconds is None else round(server_seconds / wall, 3),
            "server_cpu_per_move_ms": per_move,
            "client_cpu": round((client_after - client_cpu) / wall, 3),
            "errors": sum(run.errors.values()),
            "error_codes": dict(run.errors),
        }
    )
    return figures


async def _measure(servers: Servers, settings: BotBenchSettings, say: Callable[[str], None]) -> dict[str, Any]:
    figures = await _measure_bots(servers, settings, say)
    tables = max(1, settings.bots // 2)
    rate = figures["moves_per_second"] or 1.0
    people = BenchSettings(
        tables=tables,
        interval=max(0.05, round(tables / rate, 3)),
        seconds=settings.seconds,
        warmup=settings.warmup,
        sync=settings.sync,
        seed=settings.seed,
    )
    say(f"the browser's sockets: {tables} tables, a move every {people.interval} s each, on the same server.")
    before = await asyncio.to_thread(histogram, servers.port, "racko_move_broadcast_seconds")
    browser = await measure_tables(servers, people, say)
    after = await asyncio.to_thread(histogram, servers.port, "racko_move_broadcast_seconds")
    per_move = (
        None
        if browser["server_cpu"] is None or not browser["actions_per_second"]
        else round(browser["server_cpu"] / browser["actions_per_second"] * 1000, 3)
    )
    figures["browser"] = {
        "tables": tables,
        "interval": people.interval,
        "seconds": people.seconds,
        "moves": browser["actions"],
        "moves_per_second": browser["actions_per_second"],
        "p50_ms": browser["p50_ms"],
        "p99_ms": browser["p99_ms"],
        "server_cpu": browser["server_cpu"],
        "server_cpu_per_move_ms": per_move,
        "server_move_p50_ms": bucket_quantile(before, after, 0.50),
        "server_move_p99_ms": bucket_quantile(before, after, 0.99),
        "errors": browser["errors"],
    }
    figures["browser_cpu_per_move_ms"] = per_move
    bots_per_move = figures["server_cpu_per_move_ms"]
    figures["cpu_per_move_ratio"] = round(bots_per_move / per_move, 2) if bots_per_move and per_move else None
    figures["load_average_after"] = load_average()
    return figures


def bots_bench(settings: BotBenchSettings, say: Callable[[str], None]) -> dict[str, Any]:
    """Start a server, let ``settings.bots`` bots play there, then the browser's sockets; stop it; the figures."""
    if settings.bots < 2 or settings.bots % 2:
        raise ValueError("the bots play in pairs: --bots is an even number, 2 or more")
    _raise_file_limit()
    server_settings = BenchSettings(sync=settings.sync, seed=settings.seed, db_dir=settings.db_dir, port=settings.port)
    with _sigterm_stops(), running_servers(server_settings) as servers:
        say(f"{servers.describe()}.")
        return asyncio.run(_measure(servers, settings, say))


def bots_bench_lines(figures: dict[str, Any]) -> list[str]:
    """The figures in words."""

    def cpu(value: float | None) -> str:
        return "?" if value is None else f"{value:.0%} of a core"

    browser = figures["browser"]
    ratio = figures["cpu_per_move_ratio"]
    lines = [
        f"{figures['bots']} bots in pairs, {figures['games_per_bot']} games each (2-player classic to "
        f"{figures['target']}), each thinking {figures['think_seconds']:g} s before a move, through the Bot API on one "
        f"server process (sync {figures['sync']}; "
        f"{figures['cores']} cores, shared with the load; load average {figures['load_average_before']} before, "
        f"{figures['load_average_after']} after).",
        f"{figures['games_finished']:,} games over in {figures['seconds']:g} s: {figures['moves']:,} moves, "
        f"{figures['moves_per_second']:,.1f}/s; {figures['events']:,} events, {figures['events_per_second']:,.1f}/s.",
        f"Move acknowledged: p50 {figures['ack_p50_ms']} ms, p90 {figures['ack_p90_ms']} ms, p99 "
        f"{figures['ack_p99_ms']} ms, max {figures['ack_max_ms']} ms (the server's own time for a move, from its "
        f"request to its answer: p50 ≤ {figures['server_move_p50_ms']} ms, p99 ≤ {figures['server_move_p99_ms']} ms, "
        "by its histogram's buckets).",
        f"Server CPU: {cpu(figures['server_cpu'])}, {figures['server_cpu_per_move_ms']} ms a move; the load "
        f"{cpu(figures['client_cpu'])}.",
        f"The browser's sockets on the same server ({browser['tables']} tables, a move every {browser['interval']} s "
        f"each): {browser['moves_per_second']:,.1f} moves/s, p50 {browser['p50_ms']} ms, p99 {browser['p99_ms']} ms "
        f"to both seats (the server's own, from a move to its state sent: p50 ≤ {browser['server_move_p50_ms']} ms, "
        f"p99 ≤ {browser['server_move_p99_ms']} ms), {browser['server_cpu_per_move_ms']} ms of server CPU a move"
        + (f" (a bot's move costs {ratio}× a browser's)." if ratio is not None else "."),
    ]
    errors = figures["error_codes"]
    lines.append("Errors: " + (", ".join(f"{code} {count}" for code, count in errors.items()) if errors else "none."))
    return lines
