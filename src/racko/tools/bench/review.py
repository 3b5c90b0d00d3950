"""``racko bench review --browser``: how long the browser's review of a game takes, asked of a real server as the
page asks it (docs/BENCHMARKS.md).

A ``racko serve`` of its own on 127.0.0.1 (a temporary database, computer players at pace 0, the review's own
play-outs) and one table made through the server's form, as a person makes it: 2-player classic with the 2-player
rule, to 500, a person's seat and a ``hard`` computer seat.  The person's seat is played over the table's WebSocket
by the ``hard`` bot (racko.bots), deciding from what the seat's state frames show, at most a move every 0.07 s.
After the first round it times that player's review of the round (the first review after the server's start, so the
worker process's start is in it), after the game the whole game's review, every seat: each asked again every 0.2 s
until it is done, as the page does.

The deal is the server's own (it keeps a table's seed to itself), so each run reviews another game: the decisions
reviewed are counted with each time, to read the times by.
"""

from __future__ import annotations

import json
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from racko import bots
from racko.families import family_of
from racko.observation import Observation, Phase, PublicView
from racko.rules import RACK_SIZE, Rules, variant
from racko.tools.bench.processes import ServeProcess
from racko.tools.bench.server import load_average

LEVEL = "hard"
"""The computer level at the table, and the one that plays the person's seat."""
TARGET = 500
POLL_SECONDS = 0.2
FRAME_SECONDS = 30.0
"""A frame that has not come in this long never will: the benchmark stops instead of waiting for ever."""
GAME_SECONDS = 600.0
"""At most this long to play the game (about half a minute)."""
MOVE_SECONDS = 0.07
"""Seconds at least between two of the seat's moves: quicker than any person, and within the server's limit on one
connection's frames (15 a second, docs/PROTOCOL.md)."""


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        answered: dict[str, Any] = json.load(answer)
        return answered


def observation_of(view: dict[str, Any], rules: Rules) -> Observation:
    """A classic seat's observation from its state frame's ``view``.

    The view leaves out the cards seen leaving each slot and the discard pile last turned over, which ``hard``
    does not use; everything it decides by is there (the rack, the card held, the discard pile, the cards known in
    racks, the stock's size and whose turn it is)."""
    public = PublicView(
        rules=rules,
        round_number=view["round"],
        dealer=view["dealer"],
        to_act=view["to_act"],
        phase=Phase(view["phase"]),
        turns=view["turns"],
        stock_size=view["stock"],
        discard_pile=tuple(view["discard"]),
        taken_discard=view["taken"],
        known=tuple(tuple(slots) for slots in view["known"]),
        left=tuple(tuple(() for _ in range(RACK_SIZE)) for _ in range(rules.players)),
        turned_over_pile=None,
        totals=tuple(view["totals"]),
        result=None,
    )
    return Observation(view["you"], tuple(view["rack"]), view["held"], public)


class _Seat:
    """The person's seat, played by a bot over the table's WebSocket."""

    def __init__(self, socket: ClientConnection, token: str) -> None:
        self.socket = socket
        self.bot = bots.create(LEVEL, seed=0)
        self.rules: Rules | None = None
        self.view: dict[str, Any] = {}
        self.version = -1
        self.acted_at = -1
        """The version this seat last acted at: it acts again only once the server has moved on."""
        self.sent = 0.0
        socket.send(json.dumps({"type": "hello", "token": token, "version": 0}))

    def play_until(self, done: Callable[[dict[str, Any]], bool]) -> None:
        """Read the server's frames and act on the seat's turns until ``done(view)``."""
        deadline = time.monotonic() + GAME_SECONDS
        while not (self.view and done(self.view)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the game did not end within {GAME_SECONDS:g} seconds")
            if self.view.get("legal") and self.acted_at != self.version:
                self._act()
            self._read()

    def _read(self) -> None:
        frame = json.loads(self.socket.recv(timeout=FRAME_SECONDS))
        kind = frame.get("type")
        if kind == "welcome":
            setup = frame["setup"]
            rules = variant(setup["variant"]).rules(
                setup["players"],
                two_player_rule=setup["two_player_rule"],
                target=setup["target"],
                refill=setup["refill"],
            )
            if rules.deck_size != setup["deck_size"]:
                raise RuntimeError(f"the table's deck has {setup['deck_size']} cards, not {rules.deck_size}")
            self.rules = rules
        elif kind == "state":
            self.version = frame["version"]
            self.view = frame["view"]
        elif kind == "error":
            raise RuntimeError(f"the server refused the seat's frame: {frame.get('code')}: {frame.get('message')}")

    def _act(self) -> None:
        assert self.rules is not None  # the welcome comes before any state
        action = family_of(self.rules).action_to_json(self.bot.act(observation_of(self.view, self.rules)))
        if action not in self.view["legal"]:
            raise RuntimeError(f"the bot chose {action}, which the server does not offer")
        move = {key: value for key, value in action.items() if key != "seat"}
        time.sleep(max(0.0, self.sent + MOVE_SECONDS - time.monotonic()))
        self.sent = time.monotonic()
        self.socket.send(json.dumps({"type": "act", "version": self.version, "action": move}))
        self.acted_at = self.version


def _timed(address: str, table: str, body: dict[str, Any]) -> tuple[float, int]:
    """Seconds until the review is done, asked as the page asks, and the decisions it judged."""
    started = time.perf_counter()
    while True:
        state = _post(f"{address}/api/tables/{table}/review", body)
        if state["state"] == "done":
            decisions = sum(len(seat["decisions"]) for seat in state["review"]["seats"])
            return time.perf_counter() - started, decisions
        time.sleep(POLL_SECONDS)


def browser_review_bench(target: int = TARGET, review_playouts: int | None = None) -> dict[str, Any]:
    """Play a game at a server of its own and time its reviews (``target`` and ``review_playouts``, racko serve's
    option, make a quicker run for the tests); the figures (JSON-ready)."""
    with tempfile.TemporaryDirectory(prefix="racko-bench-") as name:
        folder = Path(name)
        options = ["--pace", "0"] + (["--review-playouts", str(review_playouts)] if review_playouts else [])
        server = ServeProcess(folder, str(folder / "tables.sqlite3"), "review", *options)
        server.start()
        try:
            load = load_average()
            form = {
                "variant": "classic",
                "players": 2,
                "seats": ["me", LEVEL],
                "names": ["Ann"],
                "two_player_rule": True,
                "target": target,
            }
            table = _post(server.url + "/api/tables", form)
            table_id, token = table["table"], table["seats"][0]["token"]
            socket_url = server.url.replace("http", "ws", 1) + f"/ws/{table_id}"
            with connect(socket_url, open_timeout=30, proxy=None, max_size=2**22) as socket:
                seat = _Seat(socket, token)
                seat.play_until(lambda view: bool(view["results"]))
                round_seconds, round_decisions = _timed(server.url, table_id, {"token": token, "round": 1})
                seat.play_until(lambda view: bool(view["over"]))
                rounds = len(seat.view["results"])
            game_seconds, game_decisions = _timed(server.url, table_id, {})
        finally:
            server.stop(10)
    return {
        "benchmark": "review-in-the-browser",
        "round_seconds": round(round_seconds, 2),
        "round_decisions": round_decisions,
        "game_seconds": round(game_seconds, 2),
        "game_rounds": rounds,
        "game_decisions": game_decisions,
        "load_average": load,
    }


def browser_review_lines(figures: dict[str, Any], as_json: bool) -> list[str]:
    """The figures in words (or as JSON)."""
    if as_json:
        return [json.dumps(figures)]
    load = figures["load_average"]
    return [
        f"Review in the browser: one player's first round {figures['round_seconds']:.1f} s "
        f"({figures['round_decisions']} decisions, the worker's start included); the whole game "
        f"{figures['game_seconds']:.1f} s ({figures['game_rounds']} rounds, {figures['game_decisions']} decisions); "
        f"load average {'?' if load is None else f'{load:.2f}'} at the start"
    ]
