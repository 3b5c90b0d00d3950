"""Crash safety of `racko serve`: a real server process on 127.0.0.1, killed with SIGKILL in the middle of a game and
started again on the same database.  The game resumes at the same version with the same racks, play goes on, and
no move a player was told about is lost."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from racko.web.players import Players
from racko.web.store import SqliteTables
from racko.web.table import TableRoom, card_json, log_entries

HOST = "127.0.0.1"
START_SECONDS = 60.0
ANSWER_SECONDS = 30.0
RACKO = [sys.executable, "-c", "from racko.cli import main; main()"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """One `racko serve` process listening on 127.0.0.1, over a database file."""

    def __init__(self, db: Path, folder: Path, pace: float) -> None:
        self.port = _free_port()
        self.log = folder / f"serve-{self.port}.log"
        with self.log.open("wb") as log:  # a file, not a pipe: a pipe nobody reads could stall the server
            self.process = subprocess.Popen(
                [*RACKO, "serve", "--host", HOST, "--port", str(self.port), "--db", str(db), "--pace", str(pace)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "RACKO_DATA_DIR": str(folder)},
            )
        self.url = f"http://{HOST}:{self.port}"
        self.http = httpx.Client(base_url=self.url, trust_env=False, timeout=ANSWER_SECONDS)
        try:
            self._wait_until_it_answers()
        except BaseException:
            self.kill()  # a server that never answered is not left behind either
            raise

    def _wait_until_it_answers(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"racko serve exited: {self.output()}"
            try:
                if self.http.get("/api/options").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        raise AssertionError(f"racko serve did not answer within {START_SECONDS} s: {self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def socket(self, table_id: str) -> ClientConnection:
        return connect(f"ws://{HOST}:{self.port}/ws/{table_id}", proxy=None, open_timeout=ANSWER_SECONDS)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write; then wait for the process to be gone."""
        self.http.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[[float], Server]]:
    """Starts servers over one database (tmp_path/tables.sqlite3); every one still running is killed at the end."""
    started: list[Server] = []

    def start_server(pace: float = 0.0) -> Server:
        server = Server(tmp_path / "tables.sqlite3", tmp_path, pace)
        started.append(server)
        return server

    try:
        yield start_server
    finally:
        for server in started:
            server.kill()


def _receive(ws: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=ANSWER_SECONDS))
    return frame


def _join(ws: ClientConnection, token: str, version: int = 0) -> dict[str, Any]:
    """Says hello with a seat's token; returns the first state frame."""
    ws.send(json.dumps({"type": "hello", "token": token, "version": version}))
    assert _receive(ws)["type"] == "welcome"
    state = _receive(ws)
    assert state["type"] == "state"
    return state


def _until_my_turn(ws: ClientConnection, state: dict[str, Any], told: list[dict[str, Any]]) -> dict[str, Any]:
    """Reads state frames (keeping their lines in ``told``) until this seat has a move to make."""
    while not state["view"]["legal"]:
        assert not state["view"]["over"], "the game ended before the test was done with it"
        frame = _receive(ws)
        if frame["type"] == "state":
            assert frame["since"] == state["version"]
            told.extend(frame["log"])
            state = frame
    return state


def _move(ws: ClientConnection, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Makes a legal move (a draw when there is one: the seat then holds a card); returns the state frame that
    acknowledges it, the first that shows it."""
    legal = [{key: value for key, value in action.items() if key != "seat"} for action in state["view"]["legal"]]
    action = {"act": "draw"} if {"act": "draw"} in legal else rng.choice(legal)
    ws.send(json.dumps({"type": "act", "version": state["version"], "action": action}))
    while True:
        frame = _receive(ws)
        assert frame["type"] != "error", frame
        if frame["type"] == "state":
            if frame["version"] == state["version"]:  # the table shown again as it was (a join's catch-up): nothing new
                assert frame["log"] == [] and frame["view"] == state["view"], frame
                continue
            assert frame["version"] > state["version"]
            return frame


def _stored(db: Path, table_id: str) -> tuple[int, list[list[int | str]], list[int | str | None]]:
    """The table as its database holds it, read in this process: the version, every seat's rack and card in hand
    (as frames write cards)."""
    store = SqliteTables(db)
    try:
        table = TableRoom(store, Players(store)).table(table_id)
        assert table is not None
        session = table.session
        seen = [session.observation(seat) for seat in range(session.rules.players)]
        racks = [[card_json(card) for card in view.rack] for view in seen]
        return session.version, racks, [None if view.held is None else card_json(view.held) for view in seen]
    finally:
        store.close()


def _listening_addresses(port: int) -> set[str]:
    """The local addresses a socket listens on at ``port`` (Linux's /proc/net/tcp, in its hex notation)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if int(hex_port, 16) == port and state == "0A":  # 0A: LISTEN
                found.add(address)
    return found


CASES = [
    ("classic", 2, ["me", "easy"]),
    ("highlow", 3, ["me", "easy", "expert"]),
    ("partners", 4, ["me", "easy", "medium", "easy"]),
]


@pytest.mark.parametrize(("variant", "players", "seats"), CASES, ids=[case[0] for case in CASES])
def test_a_killed_server_resumes_the_game_at_the_same_version_with_the_same_racks(
    start: Callable[[float], Server], tmp_path: Path, variant: str, players: int, seats: list[str]
) -> None:
    server = start(0.0)
    if os.path.exists("/proc/net/tcp"):
        assert _listening_addresses(server.port) == {"0100007F"}  # 127.0.0.1, and nothing else
    form = {"variant": variant, "players": players, "seats": seats, "names": ["Ann"]}
    links = server.http.post("/api/tables", json=form).json()
    table_id, token = links["table"], links["seats"][0]["token"]
    rng = random.Random(3)
    told: list[dict[str, Any]] = []
    with server.socket(table_id) as ws:
        state = _join(ws, token)
        told.extend(state["log"])
        for count in range(100):
            state = _until_my_turn(ws, state, told)
            if count >= 7 and (state["view"]["held"] is not None or variant == "highlow"):
                break  # killed in the middle of Ann's turn, holding the card she drew (High-Low: any turn of hers)
            state = _move(ws, state, rng)
            told.extend(state["log"])
        assert state["view"]["legal"] and (state["view"]["held"] is not None or variant == "highlow")
    seen = state
    stored = _stored(tmp_path / "tables.sqlite3", table_id)
    assert stored[0] == seen["version"] and stored[1][0] == seen["view"]["rack"]  # what Ann sees is committed
    server.kill()
    assert server.process.returncode == -signal.SIGKILL
    assert _stored(tmp_path / "tables.sqlite3", table_id) == stored  # every seat's rack, and the card in hand

    again = start(0.0)
    with again.socket(table_id) as ws:
        resumed = _join(ws, token, version=seen["version"])
        assert resumed["version"] == seen["version"] and resumed["since"] == seen["version"]
        assert resumed["log"] == []
        assert resumed["view"] == seen["view"]  # the racks, the card held, the discard pile, the scores, whose turn
        assert resumed["view"]["rack"] and resumed["view"]["discard"] == seen["view"]["discard"]
        ws.send(json.dumps({"type": "sync", "version": 0}))
        whole = _receive(ws)
        while whole["type"] != "state":  # the presence frames of joining come first
            whole = _receive(ws)
        assert whole["log"] == told  # the game's log as Ann was told it, line for line
        after = _move(ws, resumed, rng)  # and play goes on
        assert after["version"] > seen["version"]


def test_a_move_acknowledged_before_a_kill_is_never_lost(start: Callable[[float], Server], tmp_path: Path) -> None:
    """Killed the moment a move's state frame arrives (and the computer player may be in the middle of its own):
    the database holds that move and everything Ann was told before it, each of five times."""
    db = tmp_path / "tables.sqlite3"
    table_id = token = ""
    told: list[dict[str, Any]] = []
    rng = random.Random(5)
    for kill in range(5):
        server = start(0.0)
        if kill == 0:
            form = {"variant": "bonus", "players": 2, "seats": ["me", "hard"]}
            links = server.http.post("/api/tables", json=form).json()
            table_id, token = links["table"], links["seats"][0]["token"]
        with server.socket(table_id) as ws:
            state = _join(ws, token)
            assert state["log"][: len(told)] == told  # what Ann was told before the last kill is still the log
            told = list(state["log"])
            state = _until_my_turn(ws, state, told)
            acknowledged = _move(ws, state, rng)
            told.extend(acknowledged["log"])
            server.kill()
        version, racks, _ = _stored(db, table_id)
        assert version >= acknowledged["version"], f"kill {kill}: an acknowledged move was lost"
        assert racks[0] == acknowledged["view"]["rack"]
        store = SqliteTables(db)
        try:
            table = TableRoom(store, Players(store)).table(table_id)
            assert table is not None
            entries = log_entries(table.session.events_between(0, acknowledged["version"], 0), table.session.names)
            assert entries == told, f"kill {kill}"
        finally:
            store.close()
