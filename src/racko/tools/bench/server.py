"""``racko bench server``: how many tables one ``racko serve`` process carries, measured from outside.

The server is a real, separate process (``racko serve`` on 127.0.0.1, a free port, a temporary database, computer
players at pace 0); this process is the load: every table has two person seats, each with its own WebSocket, both
connected with their tokens from ``POST /api/tables``, and the seat to act sends a legal move at a person's pace.
The latency of an action is the time from sending it to the moment the LAST seat of its table has the state frame
with the new version (what both people at the table wait for).

Two measurements:

* at a pace (default): ``tables`` tables, each acting every ``interval`` seconds (jittered ±50 %), measured for
  ``seconds`` after a warm-up;
* ``find_max``: the same tables, with the offered rate of actions raised step by step (then narrowed between the
  last rate that passed and the first that failed) until the p99 latency passes the limit or the rate offered is
  not reached; the highest rate that passed is the figure.

Everything is bounded in count and in time, and the server process is stopped (and waited for) whatever happens:
an error, Ctrl+C or SIGTERM.  On Linux the server is also told to die with this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import http.client
import json
import math
import os
import random
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from racko.rules import SLOT_LABELS
from racko.tools.bench.processes import HOST, Proxy, ServeProcess, TemporaryPostgres, port_is_free

ANSWER_SECONDS = 10.0
"""How long an action may wait for its broadcast before the table is given up (counted as an error)."""
CONNECTING = 64
"""Connections opened at once while the tables are set up."""
FORM = {
    "variant": "classic",
    "players": 2,
    "seats": ["me", "person"],
    "names": ["Ann", "Bob"],
    "two_player_rule": False,
}
"""Every table: 2-player classic with the 2-player rule off (as ``racko bench``), two people."""
PASSING_SHARE = 0.9
"""A rate passes only if at least this share of the actions offered was played (and p99 stayed under the limit)."""
IDLE_INTERVAL = 3600.0
SYNC_LEVELS = ("full", "normal")
"""``racko serve --sync``'s levels."""


@dataclass(frozen=True)
class BenchSettings:
    """What to start and how to load it: ``racko bench server``'s options (docs/BENCHMARKS.md says what each means)."""

    tables: int = 1000
    interval: float = 2.0
    seconds: float = 60.0
    warmup: float = 5.0
    find_max: bool = False
    start_rate: float = 100.0
    growth: float = 1.5
    step_seconds: float = 10.0
    max_steps: int = 14
    retries: int = 1
    limit_ms: float = 50.0
    sync: str = "full"
    players: str = "sorting"
    seed: int = 0
    db_dir: Path | None = None
    processes: int = 1
    proxy: bool = False
    """Through HAProxy even with one process (several processes always are)."""
    db: str = "sqlite"
    """``sqlite`` (a file in a temporary folder), ``postgres`` (a PostgreSQL server started for the run), or a
    ``postgresql://`` URL."""
    lobbies: int = 0
    """Lobby connections open during the measured stretch; with them, the tables are public (listed in the lobby)
    and a public table is made every second to time how soon every lobby connection shows it."""
    clock: str | None = None
    """The tables' clock (a real-time preset: ``fast``, ``normal``, ``slow``), started when the second person names
    themself; ``None``: no clock (the figures before issue 39)."""
    quick: int = 0
    """People who arrive at the lobby evenly spread over the measured stretch and press quick play (classic,
    2 players); how long each waits to be seated."""
    port: int = 0
    """The port of 127.0.0.1 the load reaches the server by (HAProxy's, in front of several processes; theirs are
    free ones); 0: a free one."""


# --- the server processes --------------------------------------------------------------------------------------


class Servers:
    """What is measured: ``processes`` ``racko serve`` processes on one database, behind HAProxy when there are
    several (or when ``proxy`` asks for it), all on 127.0.0.1, all stopped (and waited for) by :meth:`stop`."""

    def __init__(self, folder: Path, settings: BenchSettings) -> None:
        self.folder = folder
        self.settings = settings
        self.postgres: TemporaryPostgres | None = None
        self.processes: list[ServeProcess] = []
        self.proxy: Proxy | None = None
        self.location = ""
        """The database the servers share (``racko serve --db``), once started."""

    def start(self) -> None:
        settings = self.settings
        if settings.db == "sqlite":
            location = str(self.folder / "bench.sqlite3")
        elif settings.db == "postgres":
            self.postgres = TemporaryPostgres()
            location = self.postgres.start()
        else:
            location = settings.db
        self.location = location
        options = ["--pace", "0", "--sync", settings.sync, "--new-tables-per-minute", "1000000"]
        proxied = settings.processes > 1 or settings.proxy
        if settings.port and not port_is_free(settings.port):
            raise RuntimeError(f"port {settings.port} of {HOST} is in use: choose another, or leave --port out")
        for index in range(settings.processes):
            port = settings.port if not proxied else 0
            server = ServeProcess(self.folder, location, f"bench{index + 1}", *options, port=port)
            self.processes.append(server)
            server.start()
        if proxied:
            self.proxy = Proxy(self.folder, self.processes, port=settings.port)
            self.proxy.start()

    @property
    def port(self) -> int:
        return self.proxy.port if self.proxy is not None else self.processes[0].port

    def describe(self) -> str:
        pids = ", ".join(str(server.pid) for server in self.processes)
        where = f"behind HAProxy on {HOST}:{self.port}" if self.proxy is not None else f"on {HOST}:{self.port}"
        return f"server pid {pids} {where} (sync {self.settings.sync})"

    def rss_kb(self) -> int | None:
        sizes = [server.rss_kb() for server in self.processes]
        return None if None in sizes else sum(size for size in sizes if size is not None)

    def cpu_seconds(self) -> float | None:
        times = [server.cpu_seconds() for server in self.processes]
        return None if None in times else sum(time for time in times if time is not None)

    def proxy_cpu_seconds(self) -> float | None:
        return self.proxy.cpu_seconds() if self.proxy is not None else None

    def database_cpu_seconds(self) -> float | None:
        """A PostgreSQL server the benchmark started (SQLite works inside the server processes: None)."""
        return self.postgres.cpu_seconds() if self.postgres is not None else None

    def stop(self) -> None:
        try:
            if self.proxy is not None:
                self.proxy.stop()
            for server in self.processes:
                server.stop(5)
        finally:
            if self.postgres is not None:
                self.postgres.stop()


@contextlib.contextmanager
def running_servers(settings: BenchSettings) -> Iterator[Servers]:
    """The servers started, with fresh databases in a temporary folder; stopped and removed on the way out."""
    with tempfile.TemporaryDirectory(prefix="racko-bench-", dir=settings.db_dir) as folder:
        servers = Servers(Path(folder), settings)
        try:
            servers.start()
            yield servers
        finally:
            servers.stop()


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM unwinds like Ctrl+C, so that the ``finally`` clauses stop the server."""

    def stop(number: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_file_limit() -> None:
    with contextlib.suppress(Exception):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


# --- the simulated people --------------------------------------------------------------------------------------


def _bucket(card: int, deck: int) -> int:
    return min(9, (card - 1) * 10 // deck)


def sorting_move(view: dict[str, Any], legal: list[dict[str, Any]], deck: int, rng: random.Random) -> dict[str, Any]:
    """A plausible person at a classic table: puts each card in the slot its value belongs to (a tenth of the deck
    per slot), so that rounds end in Rack-O after about 20 turns each, as between the ``easy`` bots (random moves
    make rounds that never end, and a game's log that grows without end)."""
    kinds = {action["act"]: action for action in legal}
    if "racko" in kinds:
        return kinds["racko"]
    rack = view.get("rack")
    if not isinstance(rack, list) or not all(isinstance(card, int) for card in rack):
        return rng.choice(legal)

    def misplaced(slot: int) -> bool:
        return _bucket(rack[slot], deck) != slot

    if "draw" in kinds or "take" in kinds:
        discard = view.get("discard") or []
        top = discard[-1] if discard else None
        if "take" in kinds and isinstance(top, int) and misplaced(_bucket(top, deck)):
            return kinds["take"]
        return kinds.get("draw") or rng.choice(legal)
    held = view.get("held")
    if isinstance(held, int):
        slot = _bucket(held, deck)
        exchange = {"act": "exchange", "slot": SLOT_LABELS[slot]}
        exchanges = [action for action in legal if action["act"] == "exchange"]
        if (misplaced(slot) or "discard" not in kinds) and exchange in exchanges:
            return exchange
        if "discard" in kinds:
            return kinds["discard"]
        if exchanges:
            return rng.choice(exchanges)
    return rng.choice(legal)


def random_move(view: dict[str, Any], legal: list[dict[str, Any]], deck: int, rng: random.Random) -> dict[str, Any]:
    """Any legal move, Rack-O whenever it may be called."""
    racko = [action for action in legal if action["act"] == "racko"]
    return racko[0] if racko else rng.choice(legal)


PLAYERS: dict[str, Callable[[dict[str, Any], list[dict[str, Any]], int, random.Random], dict[str, Any]]] = {
    "sorting": sorting_move,
    "random": random_move,
}


@dataclass
class _Waiting:
    """A frame sent, waiting for every seat to get a state frame after it (with a version beyond ``after``)."""

    sent: float
    after: tuple[int, int]
    counts: tuple[int, ...]
    counted: bool
    done: asyncio.Event = field(default_factory=asyncio.Event)
    answered: float = 0.0
    error: str | None = None


class _Run:
    """What the tables share: the current interval, whether to stop, and the measurements."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.stopping = False
        self.samples: list[tuple[float, float]] = []
        """(sent, latency in seconds) of every action answered."""
        self.errors: Counter[str] = Counter()
        self.games = 0
        self.in_flight: dict[int, float] = {}
        """Per table (by index) the moment its unanswered action was sent."""

    def window(self, start: float, stop: float, now: float) -> tuple[int, list[float]]:
        """The actions sent in [start, stop): how many were answered, and every latency (an action still waiting
        counts with the time it has waited so far)."""
        latencies = [latency for sent, latency in self.samples if start <= sent < stop]
        answered = len(latencies)
        latencies += [now - sent for sent in self.in_flight.values() if start <= sent < stop]
        return answered, latencies


class _Table:
    def __init__(self, index: int, table_id: str, tokens: list[str], deck: int, rng: random.Random) -> None:
        self.index = index
        self.table_id = table_id
        self.tokens = tokens
        self.deck = deck
        self.rng = rng
        self.sockets: list[ClientConnection] = []
        self.keys = [(0, -1)] * len(tokens)
        """Per seat: (game number, version) of the last state frame."""
        self.counts = [0] * len(tokens)
        self.views: list[dict[str, Any]] = [{} for _ in tokens]
        self.waiting: _Waiting | None = None
        self.readers: list[asyncio.Task[None]] = []

    async def open(self, url: str, errors: Counter[str]) -> None:
        for seat, token in enumerate(self.tokens):
            socket = await connect(
                f"{url}/ws/{self.table_id}", open_timeout=30, ping_interval=None, proxy=None, max_size=2**22
            )
            self.sockets.append(socket)
            await socket.send(json.dumps({"type": "hello", "token": token}))
            self.readers.append(asyncio.create_task(self._read(seat, errors)))
        deadline = time.perf_counter() + ANSWER_SECONDS
        while min(self.counts) < 1:  # both seats welcomed
            if time.perf_counter() > deadline:
                raise RuntimeError("a seat got no welcome from the server")
            await asyncio.sleep(0.01)
        named = await self._send(1, {"type": "name", "name": "Bob"}, counted=False)  # the invited seat names itself
        if named.error is not None:
            raise RuntimeError(f"a seat could not take its name: {named.error}")

    async def _read(self, seat: int, errors: Counter[str]) -> None:
        with contextlib.suppress(Exception):
            async for message in self.sockets[seat]:
                now = time.perf_counter()
                frame = json.loads(message)
                kind = frame.get("type")
                if kind == "state":
                    self.keys[seat] = (self.keys[seat][0], frame["version"])
                    self.counts[seat] += 1
                    self.views[seat] = frame["view"]
                    self._check(now)
                elif kind == "new-game":
                    self.keys[seat] = (self.keys[seat][0] + 1, -1)
                elif kind == "error":
                    errors[str(frame.get("code"))] += 1
                    if self.waiting is not None:
                        self.waiting.error = str(frame.get("code"))
                        self.waiting.done.set()

    def _check(self, now: float) -> None:
        waiting = self.waiting
        if waiting is None or waiting.done.is_set():
            return
        if all(
            key > waiting.after and count > before
            for key, count, before in zip(self.keys, self.counts, waiting.counts, strict=True)
        ):
            waiting.answered = now
            waiting.done.set()

    async def _send(self, seat: int, frame: dict[str, Any], *, counted: bool) -> _Waiting:
        after = max(self.keys) if counted or frame["type"] == "again" else (-1, -1)
        waiting = _Waiting(time.perf_counter(), after, tuple(self.counts), counted)
        self.waiting = waiting
        await self.sockets[seat].send(json.dumps(frame))
        try:
            await asyncio.wait_for(waiting.done.wait(), ANSWER_SECONDS)
        except TimeoutError:
            waiting.error = "timeout"
        self.waiting = None
        return waiting

    async def play(self, run: _Run, start: float, choose: Callable[..., dict[str, Any]]) -> None:
        """Act at the run's pace until it stops; an action that gets no answer gives the table up."""
        base, share = start, self.rng.uniform(0.0, 1.0)  # the first moves spread over one interval
        failures = 0
        while not run.stopping:
            due = base + run.interval * share  # the interval may change between two looks
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(min(delay, 0.5))
                continue
            view = self.views[0]
            if view.get("over"):
                result = await self._send(0, {"type": "again"}, counted=False)
                run.games += 1
            else:
                seat = view.get("to_act")
                legal = self.views[seat].get("legal") if isinstance(seat, int) else None
                if not isinstance(seat, int) or not legal:  # not settled (cannot be, once both seats agree)
                    await asyncio.sleep(0.05)
                    continue
                actions = [{key: value for key, value in action.items() if key != "seat"} for action in legal]
                move = choose(self.views[seat], actions, self.deck, self.rng)
                version = self.keys[seat][1]
                run.in_flight[self.index] = time.perf_counter()
                result = await self._send(seat, {"type": "act", "version": version, "action": move}, counted=True)
                del run.in_flight[self.index]
            if result.error is not None:
                if result.error == "timeout":
                    run.errors["timeout"] += 1
                failures += 1
                if failures >= 5 or result.error == "timeout":
                    run.errors["table-given-up"] += 1
                    return
            elif result.counted:
                run.samples.append((result.sent, result.answered - result.sent))
            base, share = max(due, result.sent), self.rng.uniform(0.5, 1.5)

    async def close(self) -> None:
        for reader in self.readers:
            reader.cancel()
        for socket in self.sockets:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(socket.close(), 1.0)


def create_tables(port: int, count: int, public: bool = False, clock: str | None = None) -> list[dict[str, Any]]:
    """``count`` tables through the server's own form (one kept-alive HTTP connection), with ``clock`` if any."""
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    body = json.dumps({**FORM, "public": public, **({"clock": clock} if clock is not None else {})})
    links = []
    try:
        for _ in range(count):
            connection.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
            answer = connection.getresponse()
            text = answer.read()
            if answer.status != 200:
                raise RuntimeError(f"the server refused a table: {answer.status} {text[:200]!r}")
            links.append(json.loads(text))
    finally:
        connection.close()
    return links


# --- the lobby ---------------------------------------------------------------------------------------------------

LOBBY_PROBE_SECONDS = 1.0
"""A public table is made this often while lobby connections are open (its line's way to each is timed)."""


def _new_players(port: int, count: int) -> list[str]:
    """``count`` new players (a name each); their cookies' keys."""
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    keys = []
    try:
        for number in range(count):
            body = json.dumps({"name": f"Quick {number + 1}"})
            connection.request("POST", "/api/me", body, {"Content-Type": "application/json"})
            answer = connection.getresponse()
            answer.read()
            cookie = answer.getheader("Set-Cookie") or ""
            if answer.status != 200 or "racko_player=" not in cookie:
                raise RuntimeError(f"the server made no player: {answer.status}")
            keys.append(cookie.split("racko_player=", 1)[1].split(";", 1)[0])
    finally:
        connection.close()
    return keys


class _Lobbies:
    """Lobby connections that watch for probe tables, and people who press quick play; what each waited."""

    def __init__(self, url: str, port: int, settings: BenchSettings) -> None:
        self.url = url
        self.port = port
        self.settings = settings
        self.connections: list[ClientConnection] = []
        self.probes: dict[str, float] = {}
        """A probe table's id: when the server answered that it was made (perf_counter)."""
        self.arrived: list[dict[str, float]] = []
        """Per lobby connection: when each table's line first reached it."""
        self.quick_waits_ms: list[float] = []
        self.errors: dict[str, int] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.keys: list[str] = []

    async def open(self) -> None:
        gate = asyncio.Semaphore(CONNECTING)

        async def one() -> ClientConnection:
            async with gate:
                return await connect(f"{self.url}/ws/lobby", max_size=2**22, open_timeout=30)

        self.connections = list(await asyncio.gather(*(one() for _ in range(self.settings.lobbies))))
        self.arrived = [{} for _ in self.connections]
        self.keys = await asyncio.to_thread(_new_players, self.port, self.settings.quick)

    def start(self, seconds: float) -> None:
        self.tasks = [asyncio.create_task(self._read(index)) for index in range(len(self.connections))]
        if self.connections:
            self.tasks.append(asyncio.create_task(self._probe(seconds)))
        if self.keys:
            self.tasks.append(asyncio.create_task(self._arrivals(seconds)))

    async def _read(self, index: int) -> None:
        """When each table's line first reached this connection (the lobby sends what changed: small frames)."""
        connection, seen = self.connections[index], self.arrived[index]
        async for text in connection:
            now = time.perf_counter()
            frame = json.loads(text)
            lines = frame["open"]["put"] if frame.get("type") == "lobby-change" else frame.get("open", [])
            for line in lines:
                seen.setdefault(line["table"], now)

    async def _probe(self, seconds: float) -> None:
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            (link,) = await asyncio.to_thread(create_tables, self.port, 1, True)
            self.probes[link["table"]] = time.perf_counter()
            await asyncio.sleep(LOBBY_PROBE_SECONDS)

    async def _arrivals(self, seconds: float) -> None:
        start = time.perf_counter()
        rng = random.Random(self.settings.seed)
        times = sorted(rng.uniform(0, seconds) for _ in self.keys)
        people = []
        for key, at in zip(self.keys, times, strict=True):
            await asyncio.sleep(max(0.0, start + at - time.perf_counter()))
            people.append(asyncio.create_task(self._quick(key)))
        await asyncio.gather(*people, return_exceptions=True)

    async def _quick(self, key: str) -> None:
        wish = {"type": "quick", "variant": "classic", "players": 2, "rated": False, "two_player_rule": False}
        try:
            async with connect(
                f"{self.url}/ws/lobby", additional_headers={"Cookie": f"racko_player={key}"}, max_size=2**22
            ) as connection:
                asked = time.perf_counter()
                await connection.send(json.dumps(wish))
                async with asyncio.timeout(self.settings.seconds + 30):
                    async for text in connection:
                        if '"seated"' not in text and '"error"' not in text:
                            continue  # the lobby's lines, which this person does not read
                        frame = json.loads(text)
                        if frame.get("type") == "seated":
                            self.quick_waits_ms.append((time.perf_counter() - asked) * 1000)
                            return
                        if frame.get("type") == "error":
                            code = str(frame.get("code"))
                            self.errors[code] = self.errors.get(code, 0) + 1
                            return
        except TimeoutError:
            pass  # not seated: counted as such
        except (OSError, WebSocketException):
            self.errors["lobby-connection"] = self.errors.get("lobby-connection", 0) + 1

    async def stop(self) -> None:
        """Stop (the people still waiting leave: counted as not seated) and close every lobby connection."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []
        await asyncio.gather(*(connection.close() for connection in self.connections), return_exceptions=True)

    def figures(self) -> dict[str, Any]:
        # From the server's answer to the table's maker to its line at each connection; a line that arrived before
        # that answer counts 0.
        update_ms = [
            max(0.0, (arrived[table] - made) * 1000)
            for arrived in self.arrived
            for table, made in self.probes.items()
            if table in arrived
        ]
        wanted = len(self.probes) * len(self.connections)
        figures: dict[str, Any] = {
            "lobby_connections": len(self.connections),
            "lobby_probes": len(self.probes),
            "lobby_update_p50_ms": round(percentile(update_ms, 0.5), 2),
            "lobby_update_p99_ms": round(percentile(update_ms, 0.99), 2),
            "lobby_update_max_ms": round(max(update_ms, default=0.0), 2),
            "lobby_updates_missed": wanted - len(update_ms),
            "quick_people": len(self.keys),
            "quick_seated": len(self.quick_waits_ms),
            "quick_unseated": len(self.keys) - len(self.quick_waits_ms) - sum(self.errors.values()),
            "quick_wait_p50_ms": round(percentile(self.quick_waits_ms, 0.5), 2),
            "quick_wait_p99_ms": round(percentile(self.quick_waits_ms, 0.99), 2),
            "quick_wait_max_ms": round(max(self.quick_waits_ms, default=0.0), 2),
            "quick_errors": dict(self.errors),
        }
        return figures


# --- the measurement -------------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1) of unsorted ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def load_average() -> float | None:
    """The machine's load average over the last minute (how busy it was besides this benchmark)."""
    with contextlib.suppress(OSError, AttributeError):
        return round(os.getloadavg()[0], 2)
    return None


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


class _Clock:
    """CPU shares of the server and of this process (the load) over a stretch of time."""

    def __init__(self, server: Servers) -> None:
        self.server = server
        self.wall = time.perf_counter()
        self.server_cpu = server.cpu_seconds()
        self.proxy_cpu = server.proxy_cpu_seconds()
        self.database_cpu = server.database_cpu_seconds()
        self.client_cpu = time.process_time()

    def shares(self) -> tuple[float | None, float | None, float | None, float]:
        """The CPU used since the clock started, as shares of one core: the servers, the proxy, the database (one
        the benchmark started), the load."""
        wall = max(time.perf_counter() - self.wall, 1e-9)

        def share(before: float | None, now: float | None) -> float | None:
            return None if now is None or before is None else round((now - before) / wall, 3)

        return (
            share(self.server_cpu, self.server.cpu_seconds()),
            share(self.proxy_cpu, self.server.proxy_cpu_seconds()),
            share(self.database_cpu, self.server.database_cpu_seconds()),
            round((time.process_time() - self.client_cpu) / wall, 3),
        )


def _stretch(run: _Run, start: float, stop: float, clock: _Clock) -> dict[str, Any]:
    answered, latencies = run.window(start, stop, time.perf_counter())
    server_cpu, proxy_cpu, database_cpu, client_cpu = clock.shares()
    return {
        "actions": answered,
        "actions_per_second": round(answered / (stop - start), 1),
        "p50_ms": _ms(percentile(latencies, 0.50)),
        "p90_ms": _ms(percentile(latencies, 0.90)),
        "p99_ms": _ms(percentile(latencies, 0.99)),
        "max_ms": _ms(max(latencies, default=0.0)),
        "server_cpu": server_cpu,
        "proxy_cpu": proxy_cpu,
        "database_cpu": database_cpu,
        "client_cpu": client_cpu,
    }


async def measure_tables(server: Servers, settings: BenchSettings, say: Callable[[str], None]) -> dict[str, Any]:
    """The person seats' tables on ``server``, loaded as ``settings`` say (``racko bench server``'s measurement; the
    bots' benchmark measures the browser's CPU per move with it too); the figures."""
    rng = random.Random(settings.seed)
    url = f"ws://{HOST}:{server.port}"
    figures: dict[str, Any] = {
        "benchmark": "server-max" if settings.find_max else "server-pace",
        "tables": settings.tables,
        "seats_per_table": 2,
        "players": settings.players,
        "sync": settings.sync,
        "processes": settings.processes,
        "through_proxy": server.proxy is not None,
        "database": "sqlite" if settings.db == "sqlite" else "postgresql",
        "p99_limit_ms": settings.limit_ms,
        "clock": settings.clock,
        "cores": os.cpu_count(),
        "load_average_before": load_average(),
        "server_rss_before_kb": server.rss_kb(),
    }
    opened = time.perf_counter()
    lobbies = settings.lobbies > 0 or settings.quick > 0
    links = await asyncio.to_thread(create_tables, server.port, settings.tables, settings.lobbies > 0, settings.clock)
    deck = 40  # 2-player classic
    tables = [
        _Table(index, link["table"], [seat["token"] for seat in link["seats"]], deck, random.Random(rng.random()))
        for index, link in enumerate(links)
    ]
    run = _Run(settings.interval if not settings.find_max else settings.tables / settings.start_rate)
    gate = asyncio.Semaphore(CONNECTING)

    async def open_one(table: _Table) -> None:
        async with gate:
            await table.open(url, run.errors)

    lobby = _Lobbies(url, server.port, settings)
    try:
        await asyncio.gather(*(open_one(table) for table in tables))
        if lobbies:
            await lobby.open()
        figures["open_seconds"] = round(time.perf_counter() - opened, 2)
        await asyncio.sleep(0.5)
        rss_open = server.rss_kb()
        figures["server_rss_open_kb"] = rss_open
        before = figures["server_rss_before_kb"]
        figures["memory_per_table_kb"] = (
            round((rss_open - before) / settings.tables, 1) if rss_open is not None and before is not None else None
        )
        say(f"{settings.tables} tables open in {figures['open_seconds']} s; playing.")
        gc.collect()  # the load's own long-lived objects out of its collector's way: its pauses are not the server's
        gc.freeze()
        choose = PLAYERS[settings.players]
        start = time.perf_counter()
        players = [asyncio.create_task(table.play(run, start, choose)) for table in tables]
        try:
            if settings.find_max:
                await _find_max(run, settings, figures, server, say)
            else:
                await asyncio.sleep(settings.warmup)
                clock = _Clock(server)
                begin = time.perf_counter()
                if lobbies:  # its probes and arrivals end 2 s early, so that the last ones too meet the full load
                    lobby.start(max(1.0, settings.seconds - 2.0))
                await asyncio.sleep(settings.seconds)
                stop = time.perf_counter()
                await asyncio.sleep(min(0.2, settings.interval))  # the last ones' answers
                figures.update(interval=settings.interval, seconds=settings.seconds)
                figures["offered_per_second"] = round(settings.tables / settings.interval, 1)
                figures.update(_stretch(run, begin, stop, clock))
                figures["met"] = (
                    figures["p99_ms"] <= settings.limit_ms
                    and figures["actions_per_second"] >= PASSING_SHARE * figures["offered_per_second"]
                    and not run.errors
                )
        finally:
            run.stopping = True
            figures["server_rss_after_kb"] = server.rss_kb()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            if lobbies:
                await lobby.stop()
                figures.update(lobby.figures())
    finally:
        gc.unfreeze()
        await lobby.stop()
        await asyncio.gather(*(table.close() for table in tables), return_exceptions=True)
    figures["load_average_after"] = load_average()
    figures["games_finished"] = run.games
    figures["errors"] = sum(run.errors.values())
    figures["error_codes"] = dict(run.errors)
    return figures


async def _find_max(
    run: _Run, settings: BenchSettings, figures: dict[str, Any], server: Servers, say: Callable[[str], None]
) -> None:
    """Raise the offered rate until a step fails (lower it while none has passed), then narrow between the highest
    rate that passed and the lowest that failed."""
    steps: list[dict[str, Any]] = []
    passed: float | None = None
    failed: float | None = None
    best: dict[str, Any] | None = None
    rate = settings.start_rate
    settle = min(2.0, settings.step_seconds)
    await asyncio.sleep(settings.warmup)
    for _ in range(settings.max_steps):
        run.interval = settings.tables / rate
        for attempt in range(1 + settings.retries):  # a failed step is measured again: one stall is not a limit
            await asyncio.sleep(settle)
            errors_before = sum(run.errors.values())
            clock = _Clock(server)
            begin = time.perf_counter()
            await asyncio.sleep(settings.step_seconds)
            stop = time.perf_counter()
            step = {"offered_per_second": round(rate, 1), **_stretch(run, begin, stop, clock)}
            step["errors"] = sum(run.errors.values()) - errors_before
            step["passed"] = (
                step["p99_ms"] <= settings.limit_ms
                and step["actions_per_second"] >= PASSING_SHARE * rate
                and step["errors"] == 0
            )
            step["attempt"] = attempt + 1
            steps.append(step)
            say(
                f"offered {rate:,.0f}/s: played {step['actions_per_second']:,.0f}/s, p99 {step['p99_ms']} ms "
                f"({'passed' if step['passed'] else 'failed'})"
            )
            if step["passed"]:
                break
        if step["passed"]:
            passed = rate
            if best is None or step["actions_per_second"] > best["actions_per_second"]:
                best = step
        else:
            failed = rate if failed is None else min(failed, rate)
            run.interval = IDLE_INTERVAL  # let the server drain before the next step
            await asyncio.sleep(3.0)
        if failed is None:
            rate *= settings.growth
        elif passed is None:
            rate /= settings.growth  # even the first rate was too much: look below it
        elif failed / passed < 1.08:
            break
        else:
            rate = math.sqrt(passed * failed)
    figures["steps"] = steps
    figures["step_seconds"] = settings.step_seconds
    figures["max_actions_per_second"] = best["actions_per_second"] if best else None
    figures["p99_at_max_ms"] = best["p99_ms"] if best else None
    figures["server_cpu_at_max"] = best["server_cpu"] if best else None
    figures["client_cpu_at_max"] = best["client_cpu"] if best else None


def server_bench(settings: BenchSettings, say: Callable[[str], None]) -> dict[str, Any]:
    """Start a server, load it as ``settings`` say, stop it; the figures (JSON-ready)."""
    if settings.players not in PLAYERS:
        raise ValueError(f"players are {' or '.join(PLAYERS)}")
    if settings.processes > 1 and settings.db == "sqlite":
        raise ValueError("several server processes share a PostgreSQL database: add --db postgres")
    _raise_file_limit()
    with _sigterm_stops(), running_servers(settings) as servers:
        say(f"{servers.describe()}.")
        return asyncio.run(measure_tables(servers, settings, say))


def server_bench_lines(figures: dict[str, Any]) -> list[str]:
    """The figures in words."""

    def mb(kb: int | None) -> str:
        return "?" if kb is None else f"{kb / 1024:,.1f} MB"

    def share(value: float | None) -> str:
        return "?" if value is None else f"{value:.0%}"

    processes = figures["processes"]
    servers = "one server process" if processes == 1 else f"{processes} server processes"
    proxy = " behind HAProxy" if figures["through_proxy"] else ""
    clock = f", clock {figures['clock']}" if figures.get("clock") else ""
    lines = [
        f"{figures['tables']:,} tables{clock}, 2 person seats each, {servers}{proxy} on {figures['database']} (sync "
        f"{figures['sync']}; {figures['cores']} cores, shared with the load; load average "
        f"{figures['load_average_before']} before, {figures['load_average_after']} after)."
    ]
    limit = figures["p99_limit_ms"]
    if figures["benchmark"] == "server-pace":
        lines += [
            f"An action every {figures['interval']} s a table: {figures['actions']:,} actions in "
            f"{figures['seconds']:g} s, {figures['actions_per_second']:,.1f}/s "
            f"(offered {figures['offered_per_second']:,.1f}/s).",
            f"From an action to the last seat's state: p50 {figures['p50_ms']} ms, p90 {figures['p90_ms']} ms, "
            f"p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms "
            f"(p99 within {limit:g} ms: {'yes' if figures['met'] else 'no'}).",
            f"CPU: servers {share(figures['server_cpu'])} of a core, proxy {share(figures['proxy_cpu'])}, "
            f"database {share(figures['database_cpu'])}, load {share(figures['client_cpu'])}.",
        ]
    else:
        for step in figures["steps"]:
            lines.append(
                f"  offered {step['offered_per_second']:>8,.0f}/s  played {step['actions_per_second']:>8,.1f}/s  "
                f"p50 {step['p50_ms']:>7} ms  p99 {step['p99_ms']:>8} ms  servers' CPU {share(step['server_cpu'])}  "
                f"load CPU {share(step['client_cpu'])}  {'passed' if step['passed'] else 'failed'}"
            )
        best = figures["max_actions_per_second"]
        lines.append(
            f"Most actions a second with p99 within {limit:g} ms: "
            + (
                f"{best:,.1f} (p99 {figures['p99_at_max_ms']} ms)."
                if best is not None
                else "none (the first step failed)."
            )
        )
    lines.append(
        f"Server memory: {mb(figures['server_rss_before_kb'])} before the tables, "
        f"{mb(figures['server_rss_open_kb'])} with them open ({figures['memory_per_table_kb']} KB a table), "
        f"{mb(figures['server_rss_after_kb'])} at the end."
    )
    if figures.get("lobby_connections"):
        lines.append(
            f"The lobby in {figures['lobby_connections']:,} connections: a new public table reached each of them "
            f"in p50 {figures['lobby_update_p50_ms']} ms, p99 {figures['lobby_update_p99_ms']} ms, max "
            f"{figures['lobby_update_max_ms']} ms ({figures['lobby_probes']} tables; missed "
            f"{figures['lobby_updates_missed']})."
        )
    if figures.get("quick_people"):
        lines.append(
            f"Quick play: {figures['quick_people']:,} people arriving over the stretch, {figures['quick_seated']:,} "
            f"seated, waiting p50 {figures['quick_wait_p50_ms']} ms, p99 {figures['quick_wait_p99_ms']} ms, max "
            f"{figures['quick_wait_max_ms']} ms; not seated {figures['quick_unseated']}"
            + (f"; errors {figures['quick_errors']}" if figures["quick_errors"] else "")
            + "."
        )
    errors = figures["error_codes"]
    lines.append("Errors: " + (", ".join(f"{code} {count}" for code, count in errors.items()) if errors else "none."))
    return lines
