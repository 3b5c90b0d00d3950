"""Several `racko serve` processes on one PostgreSQL database behind HAProxy, as an operator runs them
(docs/DEPLOY.md): real processes, a real PostgreSQL server and the proxy configuration `racko proxy-config` prints.

People play through the proxy with WebSocket clients that behave as the page does (they say which version they saw
when they reconnect).  In the middle of the games the process that plays the most tables is killed with SIGKILL:
its tables are served again by the others within 10 seconds, every client gets back to its table on its own, no move
anybody was shown is lost (what each seat was shown stays the beginning of the game's history), and no table ever
had two writers (each journal is numbered without a gap, and the claims it was written under only ever grow)."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from racko.web.cluster import Proxy, ServeProcess
from racko.web.loadtest import sorting_move
from racko.web.proxy import Backend

NODES = ("r1", "r2", "r3")
TABLES = 9
MOVES_BEFORE = 6
MOVES_AFTER = 6
SERVED_AGAIN_SECONDS = 10.0
FORM = {"variant": "classic", "players": 2, "seats": ["me", "person"], "names": ["Ann", "Bob"]}


@pytest.fixture
def cluster(postgres_url: str, tmp_path: Path) -> Iterator[tuple[list[ServeProcess], Proxy]]:
    servers = [
        ServeProcess(tmp_path, postgres_url, node, "--pace", "0", "--new-tables-per-minute", "1000") for node in NODES
    ]
    proxy: Proxy | None = None
    try:
        for server in servers:
            server.start()
        proxy = Proxy(tmp_path, [Backend(s.node, f"127.0.0.1:{s.port}") for s in servers], check_seconds=0.5)
        proxy.start()
        yield servers, proxy
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.kill()


@dataclass
class Seat:
    """One person at one table, through the proxy: what they were shown, and their own moves that were shown back."""

    table_id: str
    token: str
    log: list[dict[str, Any]] = field(default_factory=list)
    version: int = 0
    acknowledged: int = 0
    last_state: float = 0.0
    connected_at: float = 0.0
    problems: list[str] = field(default_factory=list)
    reconnects: int = 0


async def _play(proxy: Proxy, seat: Seat, stop: asyncio.Event, rng: random.Random) -> None:
    """Plays the seat until ``stop``, reconnecting as the page does (with the version it saw) whenever the
    connection ends; a ``?node=`` hint from an ``elsewhere`` answer is followed."""
    node = ""
    while not stop.is_set():
        url = proxy.url.replace("http", "ws") + f"/ws/{seat.table_id}" + (f"?node={node}" if node else "")
        try:
            async with connect(url, open_timeout=5, proxy=None) as ws:
                seat.connected_at = time.monotonic()
                await ws.send(json.dumps({"type": "hello", "token": seat.token, "version": seat.version}))
                node = await _until_closed(ws, seat, stop, rng)
        except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
            pass
        if not stop.is_set():
            seat.reconnects += 1
            await asyncio.sleep(0.2)


async def _until_closed(ws: ClientConnection, seat: Seat, stop: asyncio.Event, rng: random.Random) -> str:
    acted_at: int | None = None
    while not stop.is_set():
        try:
            text = await asyncio.wait_for(ws.recv(), 0.5)
        except TimeoutError:
            continue
        frame = json.loads(text)
        if frame["type"] == "error" and frame.get("code") == "elsewhere":
            return str(frame["node"])
        if frame["type"] == "welcome" and not frame["joined"]:
            await ws.send(json.dumps({"type": "name", "name": "Bob"}))  # the invited person sits down
        if frame["type"] != "state":
            continue
        if frame["since"] == seat.version:
            seat.log += frame["log"]
        elif frame["since"] == 0:  # the whole game again: what this seat was shown must be its beginning
            if frame["log"][: len(seat.log)] != seat.log:
                seat.problems.append(f"history changed at version {seat.version}")
            seat.log = frame["log"]
        else:
            seat.problems.append(f"a state from {frame['since']} when {seat.version} was shown")
        seat.version = frame["version"]
        seat.last_state = time.monotonic()
        if acted_at is not None and seat.version > acted_at:
            seat.acknowledged += 1
            acted_at = None
        view = frame["view"]
        if view["legal"] and acted_at is None:
            action = sorting_move(view, view["legal"], 40, rng)
            acted_at = seat.version
            await ws.send(json.dumps({"type": "act", "version": seat.version, "action": action}))
    return ""


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        made: dict[str, Any] = json.loads(answer.read())
        return made


def _owners(url: str) -> dict[str, str]:
    with psycopg.connect(url) as connection:
        rows = connection.execute("SELECT id, owner FROM racko_tables WHERE owner IS NOT NULL").fetchall()
    return {table_id: owner.split(" ")[0] for table_id, owner in rows}


async def _wait(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


def test_a_killed_process_s_tables_are_served_again_by_the_others_with_nothing_lost(
    cluster: tuple[list[ServeProcess], Proxy], postgres_url: str
) -> None:
    servers, proxy = cluster
    links = [_post(proxy.url + "/api/tables", FORM) for _ in range(TABLES)]
    seats = [Seat(link["table"], seat["token"]) for link in links for seat in link["seats"]]

    async def scenario() -> tuple[str, dict[str, float]]:
        stop = asyncio.Event()
        rng = random.Random(5)
        players = [asyncio.create_task(_play(proxy, seat, stop, random.Random(rng.random()))) for seat in seats]
        try:
            await _wait(lambda: all(s.acknowledged >= MOVES_BEFORE for s in seats), 60, "the games did not start")
            owners = _owners(postgres_url)
            victim = Counter(owners.values()).most_common(1)[0][0]
            moved = [table_id for table_id, node in owners.items() if node == victim]
            before = {seat.table_id: seat.acknowledged for seat in seats}
            next(server for server in servers if server.node == victim).kill()
            killed = time.monotonic()
            served_again: dict[str, float] = {}

            def all_served() -> bool:
                # A table is served again once one of its seats, on a connection opened since the kill, is shown
                # its state.
                for seat in seats:
                    back = seat.connected_at > killed and seat.last_state > seat.connected_at
                    if seat.table_id in moved and back and seat.table_id not in served_again:
                        served_again[seat.table_id] = seat.last_state - killed
                return len(served_again) == len(moved)

            await _wait(all_served, 30, f"tables of {victim} not served again: {set(moved) - set(served_again)}")
            await _wait(
                lambda: all(s.acknowledged >= before[s.table_id] + MOVES_AFTER for s in seats),
                60,
                "play did not go on at every table",
            )
            return victim, served_again
        finally:
            stop.set()
            await asyncio.gather(*players)

    victim, served_again = asyncio.run(scenario())
    print("served again after", {k: round(v, 2) for k, v in served_again.items()}, victim)
    assert served_again, "the killed process played no table"
    assert max(served_again.values()) <= SERVED_AGAIN_SECONDS, served_again
    assert all(not seat.problems for seat in seats), [seat.problems for seat in seats if seat.problems]
    assert sum(seat.reconnects for seat in seats if seat.table_id in served_again) >= 2 * len(served_again)

    # Every seat's history, as shown during the game, is the beginning of what the database now replays.
    for seat in seats:
        state = _final_state(proxy, seat)
        assert state["log"][: len(seat.log)] == seat.log, seat.table_id
    # One writer at a time: no gap in any journal, and the claims the moves were written under never go back.
    with psycopg.connect(postgres_url) as connection:
        rows = connection.execute(
            "SELECT table_id, number, epoch FROM racko_actions ORDER BY table_id, number"
        ).fetchall()
        claims = connection.execute("SELECT table_id, epoch, owner FROM racko_owners").fetchall()
    journals: dict[str, list[tuple[int, int]]] = {}
    for table_id, number, epoch in rows:
        journals.setdefault(table_id, []).append((number, epoch))
    owner_of = {(table_id, epoch): owner.split(" ")[0] for table_id, epoch, owner in claims}
    for table_id, journal in journals.items():
        assert [number for number, _ in journal] == list(range(len(journal))), table_id
        epochs = [epoch for _, epoch in journal]
        assert epochs == sorted(epochs), table_id
        writers = [owner_of[(table_id, epoch)] for epoch in dict.fromkeys(epochs)]
        if table_id in served_again:
            assert writers[0] == victim and victim not in writers[1:], (table_id, writers)


def _final_state(proxy: Proxy, seat: Seat) -> dict[str, Any]:
    async def fetch() -> dict[str, Any]:
        url = proxy.url.replace("http", "ws") + f"/ws/{seat.table_id}"
        async with connect(url, open_timeout=10, proxy=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": seat.token, "version": 0}))
            while True:
                frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 15))
                if frame["type"] == "state":
                    return frame

    return asyncio.run(fetch())
