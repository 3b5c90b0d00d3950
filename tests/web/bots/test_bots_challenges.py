"""Where bots play (docs/BOTS.md), at a real server on 127.0.0.1: challenges from a person and from a bot, accepted
(the table made, both told) or declined (the reason told), expired by the server's clock, and accept, decline and
expiry racing each other with exactly one winner; quick play's seeks of bots, met only by people who welcome bots;
the limits per token refused with 429 and nothing changed; a listening bot online in the lobby, marked as a bot."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from typer.testing import CliRunner
from websockets.sync.client import connect

from botting import call, person
from browsing import serving_app
from racko.cli import app as cli_app
from tables import HandClock, table_app


class Events:
    """A bot's event stream, read in a thread of its own for as long as the test needs it."""

    def __init__(self, url: str, token: str) -> None:
        self.got: queue.Queue[dict[str, Any]] = queue.Queue()
        request = urllib.request.Request(url + "/api/bot/stream/event", headers={"Authorization": "Bearer " + token})
        self.stream = urllib.request.urlopen(request, timeout=30)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.next("hello")["protocol"] == "v2"

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for raw in self.stream:
                if raw.strip():
                    self.got.put(json.loads(raw))

    def next(self, kind: str) -> dict[str, Any]:
        """The next event of this kind (those before it, of other kinds, are passed over)."""
        while True:
            event = self.got.get(timeout=15)
            if event["type"] == kind:
                return event

    def close(self) -> None:
        self.stream.close()


@contextlib.contextmanager
def server(path: Path, **options: Any) -> Iterator[tuple[str, Any]]:
    app = table_app(path, bot_keep_alive=0.2, **options)
    with serving_app(app) as url:
        yield url, app


@contextlib.contextmanager
def listening(url: str, token: str) -> Iterator[Events]:
    events = Events(url, token)
    try:
        yield events
    finally:
        events.close()


def tables_of(app: Any, bot_id: str) -> int:
    return int(app.state.hub.players.unfinished(bot_id))


def test_a_person_challenges_a_bot_which_declines_then_accepts(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3") as (url, app):
        robo, token = app.state.hub.players.add_bot("Robo")
        ann = person(url, "Ann")
        with listening(url, token) as events:
            status, made = call(
                url,
                "/api/challenges",
                body={"bot": "Robo", "variant": "highlow", "players": 3, "seats": ["easy"], "clock": "none"},
                cookie=ann,
            )
            assert status == 200 and made["state"] == "open" and 59 <= made["expires_in"] <= 60, made
            told = events.next("challenge")
            assert told["id"] == made["id"] and told["from"]["name"] == "Ann" and told["from"]["bot"] is False
            assert (told["variant"], told["players"], told["seats"], told["rated"]) == ("highlow", 3, ["easy"], False)
            assert call(url, f"/api/bot/challenge/{told['id']}/decline", token, {"reason": "variant"})[0] == 200
            status, seen = call(url, f"/api/challenges/{made['id']}", cookie=ann)
            assert (status, seen["state"], seen["reason"], seen["table"]) == (200, "declined", "variant", None)
            assert call(url, f"/api/bot/challenge/{told['id']}/accept", token, {})[0] == 409  # over already
            assert tables_of(app, robo.id) == 0

            status, made = call(url, "/api/challenges", body={"bot": "Robo", "variant": "classic"}, cookie=ann)
            told = events.next("challenge")
            status, accepted = call(url, f"/api/bot/challenge/{told['id']}/accept", token, {})
            assert status == 200 and accepted["state"] == "accepted", accepted
            start = events.next("gameStart")
            assert (start["table"], start["seat"]) == (accepted["table"], 1)
            seen = call(url, f"/api/challenges/{made['id']}", cookie=ann)[1]
            assert (seen["state"], seen["table"]) == ("accepted", accepted["table"])
            table = app.state.hub.tables[accepted["table"]]
            assert table.setup.names == ["Ann", "Robo (bot)"]
            assert table.setup.seats[1].bot_account and table.setup.public is False
            # Ann's seat is hers without a link, as a seat the lobby made: her lobby lists the table.
            assert call(url, "/api/me/tables", cookie=ann)[1]["seats"][0]["table"] == accepted["table"]


def test_a_bot_challenges_a_bot_and_both_are_told(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3") as (url, app):
        _, first = app.state.hub.players.add_bot("Alpha")
        _, second = app.state.hub.players.add_bot("Beta")
        with listening(url, first) as alpha, listening(url, second) as beta:
            status, made = call(url, "/api/bot/challenge/Beta", first, {"variant": "classic", "rated": True})
            assert status == 200 and made["clock"] == "normal", made  # a rated game always has a clock
            told = beta.next("challenge")
            assert told["from"] == {"name": "Alpha", "id": made_by(app, "Alpha"), "bot": True}
            assert call(url, f"/api/bot/challenge/{told['id']}", first)[1]["state"] == "open"
            status, accepted = call(url, f"/api/bot/challenge/{told['id']}/accept", second, {})
            assert status == 200
            # The table is made (and each seat's gameStart told) before the challenger hears of the accept.
            assert alpha.next("gameStart")["table"] == beta.next("gameStart")["table"] == accepted["table"]
            assert alpha.next("challengeAccepted")["table"] == accepted["table"]
            # Declined and withdrawn: the challenger bot is told each.
            made = call(url, "/api/bot/challenge/Beta", first, {"variant": "bonus"})[1]
            call(url, f"/api/bot/challenge/{made['id']}/decline", second, {"reason": "later"})
            assert alpha.next("challengeDeclined")["reason"] == "later"
            made = call(url, "/api/bot/challenge/Beta", first, {})[1]
            assert call(url, f"/api/bot/challenge/{made['id']}/cancel", first, {})[1]["state"] == "withdrawn"
            assert beta.next("challengeCanceled")["state"] == "withdrawn"  # its own decline is not told back


def made_by(app: Any, name: str) -> str:
    return str(app.state.hub.players.bot_named(name).id)


def test_bad_challenges_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3") as (url, app):
        robo, token = app.state.hub.players.add_bot("Robo")
        _, other = app.state.hub.players.add_bot("Other")
        ann = person(url, "Ann")
        asked = {"bot": "Robo", "variant": "classic"}
        assert call(url, "/api/challenges", body=asked, cookie=ann)[1]["code"] == "bot-offline"  # not listening
        with listening(url, token):
            for wrong, code in [
                ({"bot": "Nobody"}, "no-bot"),
                ({**asked, "variant": "chess"}, "bad-challenge"),
                ({**asked, "players": 5}, "bad-challenge"),
                ({**asked, "players": 3, "seats": []}, "bad-challenge"),
                ({**asked, "rated": True, "clock": "none"}, "bad-challenge"),
                ({**asked, "target": 0}, "bad-challenge"),
            ]:
                status, answer = call(url, "/api/challenges", body=wrong, cookie=ann)
                assert (status // 100, answer["code"]) == (4, code), (wrong, answer)
            assert call(url, "/api/challenges", body=asked)[0] == 401  # no name, no challenge
            assert call(url, "/api/challenges", body=asked, cookie=ann, method="POST")[0] == 200
            status, answer = call(url, "/api/bot/challenge/Robo", token, {})
            assert (status, answer["code"]) == (400, "bad-challenge")  # itself
            made = call(url, "/api/challenges", body=asked, cookie=ann)[1]
            assert call(url, f"/api/bot/challenge/{made['id']}/accept", other, {})[1]["code"] == "not-yours"
            assert call(url, f"/api/bot/challenge/{made['id']}/decline", token, {"reason": "bored"})[0] == 400
            assert call(url, "/api/bot/challenge/nothing/accept", token, {})[0] == 404
            assert call(url, f"/api/challenges/{made['id']}")[0] == 401
            assert call(url, f"/api/challenges/{made['id']}", cookie=person(url, "Bob"))[0] == 403
            assert call(url, f"/api/challenges/{made['id']}", cookie=ann)[1]["state"] == "open"
            # Ann has three waiting now (the two above and this one): a fourth waits for one of them to end.
            assert call(url, "/api/challenges", body=asked, cookie=ann)[0] == 200
            status, answer = call(url, "/api/challenges", body=asked, cookie=ann)
            assert (status, answer["code"]) == (429, "too-many-challenges"), answer
            assert call(url, f"/api/challenges/{made['id']}/withdraw", body={}, cookie=ann)[1]["state"] == "withdrawn"
            assert call(url, "/api/challenges", body=asked, cookie=ann)[0] == 200
            assert tables_of(app, robo.id) == 0


def test_a_challenge_unanswered_for_a_minute_expires(tmp_path: Path) -> None:
    clock = HandClock()
    with server(tmp_path / "t.sqlite3", now=clock) as (url, app):
        robo, token = app.state.hub.players.add_bot("Robo")
        ann = person(url, "Ann")
        with listening(url, token) as events:
            made = call(url, "/api/challenges", body={"bot": "Robo"}, cookie=ann)[1]
            told = events.next("challenge")
            clock.at += 59
            assert call(url, f"/api/challenges/{made['id']}", cookie=ann)[1]["expires_in"] == 1
            clock.at += 1
            assert call(url, f"/api/challenges/{made['id']}", cookie=ann)[1]["state"] == "expired"
            assert events.next("challengeCanceled") == {
                "type": "challengeCanceled",
                "id": told["id"],
                "state": "expired",
                "reason": None,
                "table": None,
            }
            status, answer = call(url, f"/api/bot/challenge/{told['id']}/accept", token, {})
            assert (status, answer["code"]) == (409, "not-open") and "expired" in answer["error"]
            assert tables_of(app, robo.id) == 0
            # One told again when its bot's stream opens anew, and not once expired.
            made = call(url, "/api/challenges", body={"bot": "Robo"}, cookie=ann)[1]
        with listening(url, token) as events:
            assert events.next("challenge")["id"] == made["id"]


def test_accept_decline_and_withdraw_at_once_have_exactly_one_winner(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3", bot_games_at_once=100) as (url, app):
        robo, token = app.state.hub.players.add_bot("Robo")
        ann = person(url, "Ann")
        outcomes: list[str] = []
        with listening(url, token), ThreadPoolExecutor(max_workers=6) as pool:
            for _ in range(12):
                made = call(url, "/api/challenges", body={"bot": "Robo"}, cookie=ann)[1]
                base = f"/api/bot/challenge/{made['id']}/"
                asks = [
                    pool.submit(call, url, base + "accept", token, {}),
                    pool.submit(call, url, base + "accept", token, {}),
                    pool.submit(call, url, base + "decline", token, {"reason": "later"}),
                    pool.submit(call, url, f"/api/challenges/{made['id']}/withdraw", None, {}, ann),
                ]
                answers = [ask.result() for ask in asks]
                won = [answer for status, answer in answers if status == 200]
                assert len(won) == 1, answers
                assert all(answer["code"] == "not-open" for status, answer in answers if status != 200), answers
                state = call(url, f"/api/challenges/{made['id']}", cookie=ann)[1]["state"]
                assert won[0]["state"] == state
                outcomes.append(state)
        assert tables_of(app, robo.id) == outcomes.count("accepted")  # one table per accepted challenge, no more


def test_the_limits_per_token_refuse_with_429_and_change_nothing(tmp_path: Path) -> None:
    clock = HandClock()  # the buckets fill by the server's clock: still while the test runs
    with server(tmp_path / "t.sqlite3", now=clock, bot_requests_per_minute=6, bot_games_at_once=1) as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        _, other = app.state.hub.players.add_bot("Other")
        made = call(url, "/api/bot/tables", token, body={"variant": "classic", "players": 2, "seats": ["me", "easy"]})
        table = app.state.hub.tables[made[1]["table"]]  # one request
        with listening(url, token):  # two
            # Robo plays one game already, as many as it may: challenges to it and its seeks are refused.
            status, answer = call(url, "/api/bot/challenge/Robo", other, {})
            assert (status, answer["code"]) == (429, "too-many-games"), answer
            status, answer = call(url, "/api/challenges", body={"bot": "Robo"}, cookie=person(url, "Ann"))
            assert (status, answer["code"]) == (429, "too-many-games")
            status, answer = call(url, "/api/bot/seek", token, {"variant": "classic"})  # three
            assert (status, answer["code"]) == (429, "too-many-games")
            assert app.state.lobby.waiting == []
            for _ in range(3):  # six
                assert call(url, "/api/bot/account", token)[0] == 200
            before = table.version
            status, answer = call(
                url, f"/api/bot/game/{table.table_id}/move", token, {"version": before, "action": {"act": "draw"}}
            )
            assert (status, answer["code"]) == (429, "slow-down") and "6 requests a minute" in answer["error"]
            assert answer["retry_after"] == "10"
            assert table.version == before and app.state.hub.tables[table.table_id].version == before
            assert call(url, "/api/bot/account", other)[0] == 200  # another token has its own
            clock.at += 9.9
            assert call(url, "/api/bot/account", token)[0] == 429  # a request's worth comes back in 10 s
            clock.at += 0.1
            assert call(url, "/api/bot/account", token)[0] == 200
            assert call(url, "/api/bot/account", token)[0] == 429


def test_a_seeking_bot_meets_only_people_who_welcome_bots(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3") as (url, app):
        robo, token = app.state.hub.players.add_bot("Robo")
        assert call(url, "/api/bot/seek", token, {"variant": "classic"})[1]["code"] == "not-listening"
        with listening(url, token) as events:
            status, sought = call(url, "/api/bot/seek", token, {"variant": "classic", "players": 2, "clock": "fast"})
            assert (status, sought["seated"]) == (200, False), sought
            wish = {"type": "quick", "variant": "classic", "players": 2, "clock": "fast", "rated": False}
            ann, bea = person(url, "Ann"), person(url, "Bea")
            socket = url.replace("http", "ws") + "/ws/lobby"
            robot = {"id": robo.id, "name": "Robo", "bot": True}
            wait_until(lambda: robot in app.state.lobby.view["online"])
            with connect(socket, additional_headers={"Cookie": ann}) as ann_lobby:
                assert robot in frame(ann_lobby, "lobby", lambda f: True)["online"]  # listening: online, a bot
                ann_lobby.send(json.dumps(wish))  # no "bots welcome": Ann waits on, the bot's seek too
                queued = frame(ann_lobby, "queued", lambda f: f["queues"])
                assert queued["queues"][0]["bots_welcome"] is False and queued["queues"][0]["waiting"] == 1
                assert len(app.state.lobby.waiting) == 2
                with connect(socket, additional_headers={"Cookie": bea}) as bea_lobby:
                    bea_lobby.send(json.dumps({**wish, "bots_welcome": True}))  # Bea welcomes bots: she meets Robo
                    seated = frame(bea_lobby, "seated", lambda f: True)
                    start = events.next("gameStart")
                    assert start["table"] == seated["table"]
                    names = app.state.hub.tables[seated["table"]].setup.names
                    assert sorted(names) == ["Bea", "Robo (bot)"]
                    assert [w.player.name for w in app.state.lobby.waiting] == ["Ann"]
            # A bot's seeks end with its stream; DELETE ends them too.
            assert call(url, "/api/bot/seek", token, {"variant": "bonus"})[1]["seated"] is False
            assert call(url, "/api/bot/seek", token, method="DELETE")[1] == {"stopped": 1}
            call(url, "/api/bot/seek", token, {"variant": "bonus"})
        wait_until(lambda: not app.state.lobby.waiting)


def frame(ws: Any, kind: str, wanted: Any) -> dict[str, Any]:
    for _ in range(100):
        got = json.loads(ws.recv(timeout=15))
        if got["type"] == kind and wanted(got):
            return dict(got)
    raise AssertionError(f"no {kind} frame")


def wait_until(look: Any) -> None:
    for _ in range(500):
        if look():
            return
        threading.Event().wait(0.02)
    raise AssertionError("it never came")


def test_racko_bot_connect_refuses_an_unknown_answer_to_challenges() -> None:
    answer = CliRunner().invoke(
        cli_app, ["bot", "connect", "http://127.0.0.1:9", "--token", "rb_x", "--challenges", "maybe"]
    )
    assert answer.exit_code == 2 and "--challenges is accept or decline" in answer.output


def test_a_challenge_seats_friends_but_no_other_bot_without_its_consent(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3") as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        app.state.hub.players.add_bot("Other")
        ann = person(url, "Ann")
        asked = {"bot": "Robo", "variant": "classic", "players": 4}
        with listening(url, token) as events:
            for wrong in (["person", "me"], ["person"], ["person", "nobody"]):
                status, answer = call(url, "/api/challenges", body={**asked, "seats": wrong}, cookie=ann)
                assert (status, answer["code"]) == (400, "bad-challenge"), (wrong, answer)
            # another bot account is seated only by its own consent: it is challenged on its own, never seated here
            for wrong in (["person", "bot-account:Other"], ["person", "bot-account:Robo"]):
                status, answer = call(url, "/api/challenges", body={**asked, "seats": wrong}, cookie=ann)
                assert (status, answer["code"]) == (403, "no-consent"), (wrong, answer)
            seats = ["person", "easy"]
            made = call(url, "/api/challenges", body={**asked, "seats": seats}, cookie=ann)[1]
            assert events.next("challenge")["seats"] == seats
            accepted = call(url, f"/api/bot/challenge/{made['id']}/accept", token, {})[1]
            assert "guests" not in accepted  # a friend's link is never the bot's
            assert "guests" not in call(url, f"/api/bot/challenge/{made['id']}", token)[1]
            seen = call(url, f"/api/challenges/{made['id']}", cookie=ann)[1]
            assert [guest["seat"] for guest in seen["guests"]] == [2]
            table = app.state.hub.tables[seen["table"]]
            assert table.seat_of(seen["guests"][0]["token"]) == 2
            assert table.setup.names == ["Ann", "Robo (bot)", "Player 3", "easy"]


def test_forget_me_withdraws_a_person_s_open_challenge_and_keeps_no_challenge_naming_them(tmp_path: Path) -> None:
    with server(tmp_path / "t.sqlite3") as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        ann = person(url, "Ann")
        with listening(url, token) as events:
            status, made = call(url, "/api/challenges", body={"bot": "Robo", "variant": "classic"}, cookie=ann)
            assert status == 200 and events.next("challenge")["from"]["name"] == "Ann"
            assert call(url, "/api/me", cookie=ann, method="DELETE", body={})[0] == 200
            canceled = events.next("challengeCanceled")
            assert (canceled["id"], canceled["state"]) == (made["id"], "withdrawn")
            assert call(url, f"/api/bot/challenge/{made['id']}/accept", token, {})[0] == 404  # no such challenge now
        kept = app.state.hub.store.read(lambda rows: rows("SELECT challenger_id, bot_id FROM racko_challenges"))
        assert kept == []  # no challenge naming her is kept
