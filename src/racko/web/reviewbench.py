"""How long the browser's review takes: ``python -m racko.web.reviewbench [--json]``.

A real ``racko serve`` on 127.0.0.1 (its own temporary database, the review's own play-outs), the game ``racko bench
--review`` reviews (``hard`` against ``hard`` to 500, seed 41) at two tables: one in progress after its first round,
one finished.  It times, as the page does it (asking every 0.2 s until the answer is done): a player's review of
their moves of the first round (the first review after the server's start, so the worker process's start is in it),
then the whole game's review, every seat; and prints the load average at the start (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from racko import bots
from racko.bots.runner import play_match
from racko.families import family_of
from racko.match import Match
from racko.record import GameRecord
from racko.rules import variant
from racko.web.store import SqliteTables
from racko.web.tables import _hash

SEED = 41
"""``racko bench --review``'s game (racko.tools.review_commands.BENCH_SEED), played here as there."""
POLL_SECONDS = 0.2


def _table(store: SqliteTables, record: GameRecord, actions: list[dict[str, Any]], finished: bool) -> dict[str, Any]:
    table_id = "b" + secrets.token_urlsafe(8)
    token = secrets.token_urlsafe(24)
    setup = {
        "rules": record.rules.to_dict(),
        "seed": SEED,
        "game": 1,
        "seats": [
            {"name": "Ann", "bot": None, "token": _hash(token), "joined": True},
            {"name": "Bob", "bot": None, "token": None, "joined": True},
        ],
    }
    store.create(table_id, setup)
    store.append(table_id, 0, actions)
    if finished:
        store.finish(table_id, record.dumps())
    store.commit()
    return {"table": table_id, "token": token}


def _timed(address: str, table: str, body: dict[str, Any]) -> tuple[float, int]:
    """Seconds until the review is done, and its decisions."""
    started = time.perf_counter()
    while True:
        request = urllib.request.Request(
            f"{address}/api/tables/{table}/review",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            state = json.load(answer)
        if state["state"] == "done":
            decisions = sum(len(seat["decisions"]) for seat in state["review"]["seats"])
            return time.perf_counter() - started, decisions
        time.sleep(POLL_SECONDS)


def measure() -> dict[str, Any]:
    match = Match(variant("classic").rules(2), seed=SEED)
    play_match(match, [bots.create("hard", seed=SEED), bots.create("hard", seed=SEED + 1)])
    record = GameRecord.of(match, players=("Ann", "Bob"))
    family = family_of(record.rules)
    actions = [family.action_to_json(action) for round_ in record.rounds for action in round_.actions]
    first_round = len(record.rounds[0].actions)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tables.sqlite3"
        store = SqliteTables(path)
        try:
            live = _table(store, record, actions[: first_round + 2], finished=False)
            done = _table(store, record, actions, finished=True)
        finally:
            store.close()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        racko = Path(sys.executable).with_name("racko")
        command = [str(racko), "serve", "--port", str(port), "--db", str(path)]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        address = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(address + "/healthz", timeout=2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            load = os.getloadavg()[0]
            round_seconds, round_decisions = _timed(address, live["table"], {"token": live["token"], "round": 1})
            game_seconds, game_decisions = _timed(address, done["table"], {})
        finally:
            server.terminate()
            server.wait(timeout=10)
    return {
        "benchmark": "review-in-the-browser",
        "round_seconds": round(round_seconds, 2),
        "round_decisions": round_decisions,
        "game_seconds": round(game_seconds, 2),
        "game_rounds": len(record.rounds),
        "game_decisions": game_decisions,
        "load_average": round(load, 2),
    }


def main(argv: list[str]) -> None:
    figures = measure()
    if "--json" in argv:
        print(json.dumps(figures))
        return
    print(
        f"Review in the browser: one player's first round {figures['round_seconds']:.1f} s "
        f"({figures['round_decisions']} decisions, the worker's start included); the whole game "
        f"{figures['game_seconds']:.1f} s ({figures['game_rounds']} rounds, {figures['game_decisions']} decisions); "
        f"load average {figures['load_average']:.2f} at the start"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
