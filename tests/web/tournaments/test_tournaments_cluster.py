"""The take-over, with two real `racko serve` processes on one PostgreSQL database: a 3-round Swiss of two bot accounts
(each played by `racko bot connect` at the second process, one joined by the Bot API's route, the other by `racko bot
connect --tournament`) and three of racko's levels.  The first process holds the
tournaments' lease; it starts the tournament and pairs the first round, and is killed with SIGKILL in the middle of
it (its tables made, their games under way).  The second takes the lease over, its bots' games come to it, it keeps
every result, pairs the later rounds and finishes: no round is paired twice, every entrant sits once a round, every
game has its result, no table is made twice."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from collections import Counter
from pathlib import Path

import psycopg

from racko.tools.bench.processes import ServeProcess, racko_command

BOTS = ("Alpha", "Beta")


def _query(url: str, sql: str, *parameters: object) -> list[tuple[object, ...]]:
    with psycopg.connect(url, autocommit=True) as connection:
        return list(connection.execute(sql.encode(), parameters).fetchall())


def _until(look: object, seconds: float, what: str) -> object:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = look()  # type: ignore[operator]
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what} did not come in {seconds:g} s")


def _join(server: str, tournament: str, token: str) -> dict[str, object]:
    request = urllib.request.Request(
        f"{server}/api/bot/tournament/{tournament}/join", data=b"{}", headers={"Authorization": "Bearer " + token}
    )
    with urllib.request.urlopen(request, timeout=20) as answer:
        return dict(json.load(answer))


def test_a_process_killed_mid_round_is_taken_over_and_no_result_or_round_is_lost_or_doubled(
    postgres_url: str, tmp_path: Path
) -> None:
    options = ("--pace", "0", "--round-pause", "1", "--new-tables-per-minute", "1000")
    first = ServeProcess(tmp_path, postgres_url, "first", *options)
    second = ServeProcess(tmp_path, postgres_url, "second", *options)
    clients: list[subprocess.Popen[bytes]] = []
    try:
        first.start()
        added = subprocess.run(
            racko_command("admin", "bot", "add", *BOTS, "--db", postgres_url),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert added.returncode == 0, added.stderr
        tokens = added.stdout.split()
        made = subprocess.run(
            racko_command(
                "admin", "tournament", "add", "Bots night", "--db", postgres_url, "--kind", "swiss", "--variant",
                "classic", "--seats", "2", "--rounds", "3", "--clock", "fast", "--target", "25", "--no-run-rule",
                "--levels", "easy,medium,hard", "--starts-in", "3600",
            ),
            capture_output=True,
            text=True,
            timeout=60,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        tournament = made.stdout.split()[-1]
        assert _join(first.url, tournament, tokens[0]) == {"state": "active"}  # one by the route, one by its client
        holder = _until(lambda: _query(postgres_url, "SELECT holder FROM racko_tournament_lease"), 20, "a lease")
        assert str(holder[0][0]).startswith("first-")  # type: ignore[index]
        second.start()
        for number, token in enumerate(tokens):
            with (tmp_path / f"bot-{number}.log").open("wb") as log:
                command = racko_command("bot", "connect", second.url, "--token", token, "--policy", "racko:easy")
                joining = ["--tournament", tournament] if number == 1 else []
                clients.append(subprocess.Popen([*command, "--seed", str(number), *joining], stdout=log, stderr=log))
        _until(
            lambda: _query(postgres_url, "SELECT COUNT(*) FROM racko_tournament_entrants")[0][0] == 5,
            30,
            "the second bot's joining",
        )
        started = subprocess.run(
            racko_command("admin", "tournament", "start", tournament, "--db", postgres_url),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert started.returncode == 0, started.stderr

        # round 1 paired by the first process (a bye, and two games: the bots' at tables), its tables made; it dies
        def round_one_made() -> bool:
            games = _query(postgres_url, "SELECT kind, made FROM racko_tournament_games WHERE round = 1")
            return len(games) == 3 and all(made for kind, made in games if kind == "table")

        _until(round_one_made, 60, "round 1's tables")
        under_way = _query(
            postgres_url,
            "SELECT COUNT(*) FROM racko_tournament_games WHERE round = 1 AND kind = 'table' AND finished IS NULL",
        )
        assert under_way[0][0] >= 1  # mid-round: the bye kept, the bots' games under way
        first.kill()
        killed_at = time.time()

        status = _until(
            lambda: _query(postgres_url, "SELECT status FROM racko_tournaments WHERE status = 'finished'"),
            240,
            f"the end of the tournament ({second.log_tail()})",
        )
        assert status
        games = _query(
            postgres_url,
            "SELECT round, kind, table_id, sides, finished, result FROM racko_tournament_games ORDER BY number",
        )
        entrants = {str(row[0]) for row in _query(postgres_url, "SELECT entrant FROM racko_tournament_entrants")}
        assert len(entrants) == 5
        assert Counter(int(round_) for round_, *_ in games) == {1: 3, 2: 3, 3: 3}  # each round paired once
        for round_ in (1, 2, 3):
            seated = [side for r, _, _, sides, _, _ in games if r == round_ for side in json.loads(str(sides))]
            assert sorted(seated) == sorted(entrants), round_  # every entrant once a round
        assert all(finished is not None and result is not None for *_, finished, result in games)
        tables = [table for _, kind, table, *_ in games if kind == "table"]
        assert len(tables) == len(set(tables))
        kept = _query(postgres_url, "SELECT id FROM racko_tables WHERE id = ANY(%s)", tables)
        assert len(kept) == len(tables)  # each made once, under the id it was given
        round_one = [finished for round_, kind, _, _, finished, _ in games if round_ == 1 and kind == "table"]
        assert all(float(str(finished)) > killed_at for finished in round_one)  # played to their ends after the kill
        said = second.log.read_text(errors="replace")
        assert "the tournaments are run by this process" in said
        assert f"tournament {tournament}: round 2 paired" in said and f"tournament {tournament}: round 3 paired" in said
        assert f"tournament {tournament}: round 1 paired" not in said
    finally:
        for client in clients:
            client.terminate()
            client.wait(timeout=30)
        first.kill()
        second.kill()
