"""The Bot API's limits as an attacker meets them (issue 46), at real servers on 127.0.0.1 (uvicorn in this process):
a revoked token's open streams end within seconds and its challenges are withdrawn; a token holds two event streams
at most (a newer one ends the oldest); wrong tokens from one address are slowed before any look-up; at most 20
challenges wait for one bot and 3 for one challenger; and all of it across two server processes on one PostgreSQL
database: the request bucket, the streams, a challenge made at one process and answered at the other, a seek posted
at one process and met by a person in the other's lobby."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from typer.testing import CliRunner
from websockets.sync.client import connect

from botting import Stream, call, events, eventually, person
from browsing import serving_app
from racko.cli import app as cli_app
from racko.web.app import ServerSettings, create_app
from racko.web.bots import POLL_SECONDS
from racko.web.core import Refusal
from racko.web.store.postgres import PostgresTables
from tables import HandClock, table_app

SOON = 3 * POLL_SECONDS + 2.0
"""Within a few looks of the keeper at the store (and a margin for a busy machine)."""


@contextlib.contextmanager
def server(path: Path, **options: Any) -> Iterator[tuple[str, Any]]:
    app = table_app(path, bot_keep_alive=0.2, **options)
    with serving_app(app) as url:
        yield url, app


def _rows(app: Any, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    result: list[tuple[Any, ...]] = app.state.hub.store.read(lambda rows: rows(sql, parameters))
    return result


def _accepted_table(url: str, token: str, stream: Stream, cookie: str) -> str:
    """A person challenges the bot, the bot accepts: their table."""
    made = call(url, "/api/challenges", body={"bot": "Robo", "variant": "classic"}, cookie=cookie)[1]
    assert stream.next("challenge")["id"] == made["id"]
    status, accepted = call(url, f"/api/bot/challenge/{made['id']}/accept", token, {})
    assert status == 200, accepted
    return str(accepted["table"])


def test_revoking_a_token_ends_its_open_streams_within_seconds_and_withdraws_its_challenges(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with server(db) as (url, app):
        robo, token = app.state.hub.players.add_bot("Robo")
        _, other = app.state.hub.players.add_bot("Other")
        ann = person(url, "Ann")
        robo_events, other_events = events(url, token), events(url, other)
        table = _accepted_table(url, token, robo_events, ann)
        game = Stream(url, f"/api/bot/game/stream/{table}", token)
        assert game.next("game")["seat"] == 1
        waiting = call(url, "/api/challenges", body={"bot": "Robo"}, cookie=ann)[1]  # Ann's, to Robo
        made = call(url, "/api/bot/challenge/Other", token, {})[1]  # Robo's, to Other
        assert other_events.next("challenge")["id"] == made["id"]

        # The operator revokes the token from another process, as racko admin does it.
        revoked = time.monotonic()
        assert CliRunner().invoke(cli_app, ["admin", "bot", "revoke", "Robo", "--db", str(db)]).exit_code == 0
        for stream in (robo_events, game):
            assert stream.ended.wait(SOON), "a revoked token's stream is still open"
            assert stream.seen[-1] == {"type": "streamEnded", "reason": "revoked"}
        assert time.monotonic() - revoked < SOON
        assert call(url, f"/api/challenges/{waiting['id']}", cookie=ann)[1]["state"] == "withdrawn"
        canceled = other_events.next("challengeCanceled")
        assert (canceled["id"], canceled["state"]) == (made["id"], "withdrawn")
        assert call(url, "/api/bot/account", token)[1]["code"] == "bad-token"
        assert call(url, "/api/challenges", body={"bot": "Robo"}, cookie=ann)[1]["code"] == "bot-offline"
        assert _rows(app, "SELECT COUNT(*) FROM racko_bot_streams WHERE player_id = ?", (robo.id,)) == [(0,)]
        other_events.close()


def test_a_token_holds_two_event_streams_and_a_new_one_ends_the_oldest(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3") as (url, app):
        robo, token = app.state.hub.players.add_bot("Robo")
        opened = [events(url, token) for _ in range(12)]
        for stream in opened[:-2]:
            assert stream.ended.wait(SOON), "an old event stream is still open"
            assert stream.seen[-1] == {"type": "streamEnded", "reason": "replaced"}
        assert not any(stream.ended.is_set() for stream in opened[-2:])
        assert _rows(app, "SELECT COUNT(*) FROM racko_bot_streams WHERE player_id = ?", (robo.id,)) == [(2,)]
        assert len(app.state.hub.tables) == 0 and sum(map(len, app.state.challenges.events.streams.values())) == 2
        for stream in opened:
            stream.close()
        eventually(lambda: _rows(app, "SELECT COUNT(*) FROM racko_bot_streams")[0][0] == 0)


def test_wrong_tokens_from_one_address_are_slowed_before_any_look_up(tmp_path: Path) -> None:
    clock = HandClock()
    with server(tmp_path / "t.sqlite3", now=clock) as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        _, fresh = app.state.hub.players.add_bot("Fresh")
        assert call(url, "/api/bot/account", token)[0] == 200  # known to the server before the attack
        for number in range(20):
            assert call(url, "/api/bot/account", f"rb_wrong{number}")[1]["code"] == "bad-token"
        status, answer = call(url, "/api/bot/account", "rb_wrong20")
        assert (status, answer["code"], answer["retry_after"]) == (429, "too-many-bad-tokens", "3"), answer
        assert "20 tokens a minute" in answer["error"]
        assert call(url, "/api/bot/account", fresh)[0] == 429  # nothing is looked up for this address now
        assert call(url, "/api/bot/account", token)[0] == 200  # a token it knows is no look-up
        elsewhere = {"X-Forwarded-For": "198.51.100.7"}  # the proxy's word, believed from 127.0.0.1 only
        assert call(url, "/api/bot/account", "rb_wrong", headers=elsewhere)[1]["code"] == "bad-token"
        clock.at += 3.0  # one check's worth comes back in 3 s
        assert call(url, "/api/bot/account", fresh)[0] == 200
        assert call(url, "/api/bot/account", "rb_wrong21")[0] == 401
        assert call(url, "/api/bot/account", "rb_wrong22")[0] == 429
        kept = _rows(app, "SELECT address FROM racko_bot_failures ORDER BY address")
        assert [address for (address,) in kept] == ["127.0.0.1", "198.51.100.7"]


def test_at_most_twenty_challenges_wait_for_one_bot_and_three_for_one_challenger(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3") as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        robo = events(url, token)
        people = [person(url, f"Fan {number}") for number in range(8)]
        answers = [
            call(url, "/api/challenges", body={"bot": "Robo"}, cookie=fan) for fan in people[:7] for _ in range(3)
        ]
        assert [status for status, _ in answers] == [200] * 20 + [429]
        assert answers[-1][1]["code"] == "too-many-challenges" and "20 challenges waiting" in answers[-1][1]["error"]
        assert answers[-1][1]["retry_after"] == "60"
        assert len([robo.next("challenge") for _ in range(20)]) == 20
        call(url, f"/api/challenges/{answers[0][1]['id']}/withdraw", body={}, cookie=people[0])
        assert call(url, "/api/challenges", body={"bot": "Robo"}, cookie=people[7])[0] == 200  # room for one
        _, kim_token = app.state.hub.players.add_bot("Kim")
        kim = events(url, kim_token)
        asked = [call(url, "/api/challenges", body={"bot": "Kim"}, cookie=people[7]) for _ in range(3)]
        assert [status for status, _ in asked] == [200, 200, 429]  # its fourth waiting challenge, to any bot
        assert asked[-1][1]["code"] == "too-many-challenges" and "At most 3" in asked[-1][1]["error"]
        kim.close()
        assert _rows(
            app, "SELECT COUNT(*) FROM racko_challenges WHERE state = 'open' AND bot_id <> ?", (kim_id(app),)
        ) == [(20,)]
        robo.close()


def kim_id(app: Any) -> str:
    return str(app.state.hub.players.bot_named("Kim").id)


def _two_processes(postgres_url: str, **options: Any) -> tuple[Any, Any]:
    return tuple(  # type: ignore[return-value]
        create_app(
            PostgresTables(postgres_url, node=node),
            ServerSettings(
                pace=0.0,
                frames_per_second=10000.0,
                new_tables_per_address=10**6,
                bot_keep_alive=0.2,
                fill_seconds=0.3,
                **options,
            ),
        )
        for node in ("one", "two")
    )


def test_the_limits_challenges_and_seeks_hold_across_two_processes(postgres_url: str) -> None:
    first_app, second_app = _two_processes(postgres_url, bot_requests_per_minute=30)
    _, quick = first_app.state.hub.players.add_bot("Quick")
    with serving_app(first_app) as first, serving_app(second_app) as second:
        # One bucket for the token, whichever process a request reaches.
        answers = [call(server, "/api/bot/account", quick)[0] for _ in range(20) for server in (first, second)]
        assert 30 <= answers.count(200) <= 31 and answers.count(429) == 40 - answers.count(200), answers

    first_app, second_app = _two_processes(postgres_url)
    _, token = first_app.state.hub.players.add_bot("Robo")
    with serving_app(first_app) as first, serving_app(second_app) as second:
        # The event streams: two at the first process, a third at the second ends the oldest, over there.
        oldest, newer = events(first, token), events(first, token)
        newest = events(second, token)
        assert oldest.ended.wait(SOON) and oldest.seen[-1]["reason"] == "replaced"
        assert not newer.ended.is_set() and not newest.ended.is_set()
        newer.close()

        # A challenge made at the second process reaches the bot's stream at the other; answered at the first,
        # its challenger's page at the second sees the table.
        ann = person(second, "Ann")
        made = call(second, "/api/challenges", body={"bot": "Robo", "variant": "classic"}, cookie=ann)
        assert made[0] == 200, made
        told = newest.next("challenge")
        assert told["id"] == made[1]["id"] and told["from"]["name"] == "Ann"
        status, accepted = call(first, f"/api/bot/challenge/{told['id']}/accept", token, {})
        assert status == 200 and accepted["state"] == "accepted", accepted
        assert newest.next("gameStart")["table"] == accepted["table"]
        seen = call(second, f"/api/challenges/{told['id']}", cookie=ann)[1]
        assert (seen["state"], seen["table"]) == ("accepted", accepted["table"])

        # A seek posted at the first process (the bot's stream is at the second) meets a person who welcomes bots
        # in the second's lobby.
        status, sought = call(first, "/api/bot/seek", token, {"variant": "bonus", "players": 2, "clock": "fast"})
        assert (status, sought["seated"]) == (200, False), sought
        bea = person(second, "Bea")
        wish = {"type": "quick", "variant": "bonus", "players": 2, "clock": "fast", "bots_welcome": True}
        with connect(second.replace("http", "ws") + "/ws/lobby", additional_headers={"Cookie": bea}) as lobby:
            lobby.send(json.dumps(wish))
            seated = _frame(lobby, "seated")
        assert newest.next("gameStart")["table"] == seated["table"]
        eventually(lambda: not any(w.bot for w in first_app.state.lobby.waiting))  # out of every lobby
        assert _rows(first_app, "SELECT COUNT(*) FROM racko_bot_seeks") == [(0,)]
        newest.close()


def _frame(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        got = json.loads(ws.recv(timeout=15))
        if got["type"] == kind:
            return dict(got)
    raise AssertionError(f"no {kind} frame")


def test_a_clock_set_back_does_not_starve_a_bot_of_its_requests(tmp_path: Path) -> None:
    """The buckets fill by the server's wall clock: when an operator (or NTP) sets it back an hour, a bot that had
    spent its bucket waits a second for its next request, as it would have, and not the hour (nor does an address
    wait that hour for its next token check)."""
    clock = HandClock()
    app = table_app(tmp_path / "t.sqlite3", now=clock, bot_requests_per_minute=60)
    limits = app.state.challenges.limits
    robo, _ = app.state.hub.players.add_bot("Robo")

    def take() -> bool:
        try:
            asyncio.run(limits.take(robo))
        except Refusal as refusal:
            assert refusal.code == "slow-down" and refusal.retry_after == 1
            return False
        return True

    assert sum(take() for _ in range(80)) == 60  # a full bucket: a minute's worth, then refused
    clock.at -= 3600.0
    assert not take()
    clock.at += 1.0
    assert take(), "a second later, one request more (the bucket refills at one a second)"
    assert limits._look_up("no-such-token", "10.0.0.1")[0] is None
    for _ in range(40):
        limits._look_up("no-such-token", "10.0.0.1")
    assert not limits._look_up("no-such-token", "10.0.0.1")[2]  # none left: not even looked up
    clock.at -= 3600.0
    assert not limits._look_up("no-such-token", "10.0.0.1")[2]
    clock.at += 4.0
    assert limits._look_up("no-such-token", "10.0.0.1")[2], "4 s later the address may try again (20 a minute)"
