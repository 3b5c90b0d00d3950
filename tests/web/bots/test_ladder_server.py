"""The bot ladder at a real server on 127.0.0.1 (uvicorn in this process, ``ServerSettings(bot_ladder=…)`` as `racko
serve --bot-ladder` makes it): two `racko bot connect --policy racko:medium` clients online are paired and play a
rated game to its end, their ratings move on the bots' board and the people's board never lists them (and a bot
forgotten leaves the ladder's tables); a bot meets
racko's level, whose bots' rating moves and people's rating does not; and, on PostgreSQL, one process pairs at a time
and sees the bots online at the others."""

from __future__ import annotations

import collections
import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from browsing import serving_app
from racko.web.app import ServerSettings, create_app
from racko.web.bots import LadderLimits
from racko.web.store.postgres import PostgresTables
from tables import table_app

ROOT = Path(__file__).resolve().parents[3]
NEWCOMER = 1000


def board(url: str, pool: str) -> dict[str, dict[str, Any]]:
    with urllib.request.urlopen(f"{url}/api/ratings/classic?pool={pool}", timeout=10) as answer:
        return {line["name"]: line for line in json.load(answer)["lines"]}


def connect(url: str, token: str) -> subprocess.Popen[str]:
    """`racko bot connect` playing one game and stopping, as `medium`: it went out in each of 2,000 arena rounds,
    where two `easy` under the 2-player rule got stuck in about one round in a hundred (and would play on to the turn
    limit at the bot's request rate: longer than a test waits)."""
    command = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url, "--token", token]
    command += ["--policy", "racko:medium", "--games", "1", "--seed", "1"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def finish(clients: list[subprocess.Popen[str]]) -> None:
    try:
        for client in clients:
            try:
                _, err = client.communicate(timeout=90)
            except subprocess.TimeoutExpired as late:
                said = late.stderr.decode(errors="replace") if isinstance(late.stderr, bytes) else str(late.stderr)
                lines = collections.Counter(re.sub(r"\d+", "N", line) for line in said.splitlines())
                raise AssertionError(
                    f"the client did not finish in 90 s; what it said, by line: {dict(lines)}"
                ) from None
            assert client.returncode == 0, err
            assert "1 games played." in err
    finally:
        for client in clients:
            if client.poll() is None:
                client.kill()
                client.communicate()


def ladder_app(path: Path, **limits: Any) -> Any:
    settings = LadderLimits(**{"every": 0.2, "games_per_day": 1, "target": 100, "seed": 5, **limits})
    return table_app(path, bot_keep_alive=0.2, bot_ladder=settings)


def test_two_bots_online_are_paired_and_their_ratings_move_on_the_bots_board(tmp_path: Path) -> None:
    app = ladder_app(tmp_path / "tables.sqlite3", levels=())
    hub = app.state.hub
    _, ada_token = hub.players.add_bot("Ada")
    _, bob_token = hub.players.add_bot("Bob")
    with serving_app(app) as url:
        assert "Ada" not in board(url, "bots")  # no game yet: no line
        finish([connect(url, ada_token), connect(url, bob_token)])
        bots, people = board(url, "bots"), board(url, "people")
        games = hub.store.read(lambda rows: rows("SELECT table_id, finished FROM racko_ladder_games"))
        ((table_id, finished),) = games  # one game a day each: one game
        assert finished is not None  # noted finished: room for the next game
        setup = hub.tables[table_id].setup
        assert setup.rated and not setup.public and setup.clock == "fast"
        assert sorted(setup.names) == ["Ada (bot)", "Bob (bot)"]
        found = app.state.ratings.game_seats(f"{table_id}-1")
        assert found is not None and found[1]  # the finished game, rated
        bob, ladder = hub.players.bot_named("Bob"), app.state.ladder
        ladder.note_online([bob.id], hub.now())
        _, entrants = ladder.standing(hub.now())
        (standing,) = [entrant for entrant in entrants if entrant.subject == "p:" + bob.id]
        assert standing.today == 1 and standing.playing == 0 and 0 <= standing.waiting < 60  # its game of the day
        ada = hub.players.bot_named("Ada")
        assert hub.players.forget(ada.id)  # forgotten: out of the ladder's meetings and its online list too
        kept = hub.store.read(lambda rows: rows("SELECT entrant_a, entrant_b FROM racko_ladder_games"))
        assert "forgotten" in kept[0] and "p:" + ada.id not in kept[0]
        assert not hub.store.read(lambda rows: rows("SELECT 1 FROM racko_ladder_online WHERE player_id = ?", (ada.id,)))
    assert bots["Ada"]["bot"] is True and bots["Bob"]["bot"] is True
    assert bots["Ada"]["games"] == bots["Bob"]["games"] == 1
    assert bots["Ada"]["rating"] != NEWCOMER and bots["Bob"]["rating"] != NEWCOMER
    assert "Ada" not in people and "Bob" not in people


def test_a_bot_meets_a_racko_level_whose_bots_rating_moves_and_people_s_does_not(tmp_path: Path) -> None:
    app = ladder_app(tmp_path / "tables.sqlite3", levels=("easy",))
    _, token = app.state.hub.players.add_bot("Solo")
    with serving_app(app) as url:
        bots_before, people_before = board(url, "bots"), board(url, "people")
        finish([connect(url, token)])
        bots, people = board(url, "bots"), board(url, "people")
    assert bots["Solo"]["games"] == 1 and bots["easy"]["games"] == 1
    assert bots["easy"]["rating"] != bots_before["easy"]["rating"]
    assert people["easy"] == people_before["easy"] and "Solo" not in people


def test_one_process_pairs_at_a_time_and_sees_the_bots_online_at_the_others(postgres_url: str) -> None:
    """Two server processes on one PostgreSQL database (each its own store and ladder, as `racko serve --node`
    makes them): one holds the pairing lease, renews it, and hands it on when it stops renewing; the bots online at
    the other process are entrants of the one that pairs."""
    stores = [PostgresTables(postgres_url, node=node) for node in ("one", "two")]
    try:
        apps = [
            create_app(store, ServerSettings(bot_ladder=LadderLimits(every=0.2, levels=("easy",)))) for store in stores
        ]
        first, second = (app.state.ladder for app in apps)
        far, _ = apps[1].state.hub.players.add_bot("Far")
        assert first.note_online([], 100.0)
        assert not second.note_online([far.id], 100.1)  # online at the second process, which does not pair
        assert first.note_online([], 100.3)  # renewed by its holder
        _, entrants = first.standing(100.4)
        assert {entrant.subject for entrant in entrants} == {"p:" + far.id, "bot:easy"}
        lease = 3 * first.limits.every
        assert not second.note_online([far.id], 100.3 + lease - 0.01)
        assert second.note_online([far.id], 100.3 + lease + 0.01)  # the holder stopped renewing: passed on
        assert not first.note_online([], 100.3 + lease + 0.02)
        _, entrants = second.standing(100.3 + lease + 0.03)
        assert "p:" + far.id in {entrant.subject for entrant in entrants}
        _, entrants = second.standing(100.3 + lease + 0.03 + 4 * first.limits.every)
        assert "p:" + far.id not in {entrant.subject for entrant in entrants}  # not seen lately: offline
    finally:
        for store in stores:
            store.close()
