"""Where a seat's life meets the clock, the hand-over, the results and the pages (issue 47), tried as strangers would
in Debian's Chromium, against a server in this process whose clock the test moves (``ServerSettings(now=)``):

1. at a table with a clock, a person whose connection drops is the clock's alone: the others are never offered "Hand
   to a computer", read that the clock runs, and the person comes back to a page that says what their seat is;
2. the seat whose computer player outscored the people who stayed is never called the winner, on any page nor in the
   statistics;
3. the round's report pauses the table: the computer does not move and no clock runs until its pause ends;
4. the texts and menus follow the seat's state: a gone seat's page, "Your time ran out" only while it did, no clock
   at a game aborted, a casual game's confirmation, no offer to end right after a decline, "Online (N)" counting the
   names it lists;
5. (the Bot API's ways out are tests/web/bots/test_bots_api.py's.)"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import DESKTOP, WAIT_MS, act_and_wait, link, new_table, open_page, serving_app, sit_down, situation
from racko.families import family_of
from racko.match import Match
from racko.play.session import PlaySession, SeatSpec
from racko.rules import variant
from racko.web.app import ServerSettings, create_app
from racko.web.clock import PRESETS, ROUND_PAUSE
from racko.web.store import SqliteTables
from racko.web.table import token_hash
from tables import HandClock

NORMAL = PRESETS["normal"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any, HandClock]]:
    """A server whose clock the test moves, whose people count as away after a second, and whose computer players
    take a second before each move (so that a page can be seen while one is about to play)."""
    clock = HandClock()
    app = create_app(
        SqliteTables(tmp_path / "tables.sqlite3", grouped=True),
        ServerSettings(pace=1.0, away_seconds=1.0, now=clock, rate_shared_addresses=True, new_tables_per_address=1000),
    )
    app.state.hub.clock_tick = 0.05  # a clock moved by hand is seen at once
    with serving_app(app) as address:
        yield address, app, clock


def person(browser: Browser, server: str, name: str) -> Page:
    """A person with a name (a player: the cookie), in a browser context of their own, on the lobby."""
    page = browser.new_context(**DESKTOP).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server + "/")
    page.locator("#name").fill(name)
    page.locator("#name").press("Enter")
    expect(page.locator("#you")).to_contain_text(name)
    return page


def post_as(page: Page, server: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = page.request.post(server + path, data=json.dumps(body), headers={"Content-Type": "application/json"})
    assert answer.ok, answer.text()
    found: dict[str, Any] = answer.json()
    return found


def turn_passes(app: Any, table_id: str, seat: int, clock: HandClock) -> None:
    """The clock plays ``seat``'s turn: the server's clock moved to its deadline, and the turn played."""
    table = app.state.hub.tables[table_id]
    assert table.session.to_act == seat and table.clock is not None
    clock.at = max(clock.at, table.clock.deadline())
    deadline = time.monotonic() + 15
    while app.state.hub.tables[table_id].session.to_act == seat:
        assert time.monotonic() < deadline, "the clock did not play the turn"
        time.sleep(0.02)


def plays_a_turn(page: Page) -> None:
    """Draw, then discard what was drawn (a turn that changes nothing of the rack)."""
    expect(page.locator('#prompt[data-situation="pick"]')).to_be_visible()
    if act_and_wait(page, "#stock") and situation(page) == "place-drawn":
        act_and_wait(page, "#btn-discard")


def test_at_a_table_with_a_clock_only_the_clock_takes_an_away_seat_and_its_person_reads_what_it_is(
    chromium: Browser, served: tuple[str, Any, HandClock], shots: Path
) -> None:
    server, app, clock = served
    hub = app.state.hub
    made = new_table(server, variant="classic", players=2, seats=["person", "person"], rated=True, clock="normal")
    xia, yan = open_page(chromium, link(server, made, 0), **DESKTOP), open_page(chromium, link(server, made, 1))
    sit_down(xia, "Xia")
    sit_down(yan, "Yan")
    table_id = made["table"]
    if hub.tables[table_id].session.to_act == 1:
        plays_a_turn(yan)
    expect(xia.locator('#prompt[data-situation="pick"]')).to_be_visible()
    xia.context.close()  # her connection drops on her turn
    time.sleep(2.5)  # away longer than the server's away time (1 s)
    away = yan.locator("#away")
    expect(away).to_contain_text("Xia is away")
    expect(away).to_contain_text("their clock runs")
    expect(yan.locator(".hand-over")).to_have_count(0)  # only the clock takes a seat at a table with one
    yan.screenshot(path=str(shots / "seat-away-with-a-clock.png"))
    turn_passes(app, table_id, 0, clock)  # once: timed out
    # She comes back: her page says her time ran out, while her seat is timed out.
    xia = open_page(chromium, link(server, made, 0), **DESKTOP)
    expect(xia.locator("#status")).to_contain_text("Your time ran out")
    plays_a_turn(yan)
    expect(xia.locator("#turn")).to_have_text("Your turn")
    turn_passes(app, table_id, 0, clock)  # twice: gone
    expect(xia.locator("#gone-box")).to_be_visible()
    expect(xia.locator("#status")).not_to_contain_text("Your time ran out")
    plays_a_turn(yan)
    # Her turn: her computer player plays it (after the table's pace); her page says so, and offers no move.
    expect(xia.locator("#turn")).to_have_text("A computer player plays your turn: you ran out of time twice.")
    expect(xia.locator("#prompt")).to_have_text("")
    expect(xia.locator("#stock")).to_be_disabled()
    xia.screenshot(path=str(shots / "seat-gone-own-page.png"))
    expect(yan.locator(".hand-over")).to_have_count(0)
    expect(yan.locator("#people")).to_contain_text("gone: a computer plays")
    xia.locator("#back").click()  # I'm back
    expect(xia.locator("#gone-box")).to_be_hidden()
    expect(xia.locator("#status")).not_to_contain_text("time ran out")
    while hub.tables[table_id].session.to_act != 0:
        plays_a_turn(yan)
    expect(xia.locator("#turn")).to_have_text("Your turn")
    # Hers again: she plays it herself.  Her computer may have taken the top discard in the moment before her click
    # came (a busy machine); then it stopped there, and she places the card it took.
    if situation(xia) == "place-taken":
        act_and_wait(xia, "#rack .slot >> nth=0")
    else:
        plays_a_turn(xia)
    for page in (xia, yan):
        page.context.close()


def test_a_seat_whose_person_left_is_never_called_the_winner(
    chromium: Browser, served: tuple[str, Any, HandClock], shots: Path
) -> None:
    server, app, clock = served
    hub = app.state.hub
    dan, finn = person(chromium, server, "Dan"), person(chromium, server, "Finn")
    form = {"variant": "classic", "players": 2, "seats": ["me", "person"], "rated": True, "clock": "normal"}
    made = post_as(dan, server, "/api/tables", {**form, "target": 25, "two_player_rule": False})
    table_id = made["table"]
    finn.goto(link(server, made, 1))
    sit_down(finn, "Finn")  # his player's seat from now on
    dan.goto(server + f"/t/{table_id}")  # his own seat opens without its link
    expect(dan.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    finn.context.close()  # Finn goes; the clock makes his seat gone and its computer plays on
    watcher = open_page(chromium, server + f"/t/{table_id}", **DESKTOP)
    timeouts = turns = 0
    # The computer player of Finn's seat goes out after a number of turns that the deal decides: one run of the
    # whole suite needed more than 120 s (each of Dan's turns a page's round trip on a loaded machine).
    deadline = time.monotonic() + 300
    while not hub.tables[table_id].over:
        assert time.monotonic() < deadline, f"the game did not end after {turns} turns of Dan's"
        table = hub.tables[table_id]
        if dan.locator("#round-dialog").is_visible():
            break
        if table.session.to_act == 1 and timeouts < 2:
            turn_passes(app, table_id, 1, clock)
            timeouts += 1
        elif table.session.to_act == 0 and situation(dan) == "pick":
            plays_a_turn(dan)  # Dan never improves his rack: Finn's computer player outscores him
            turns += 1
        else:
            time.sleep(0.05)
    table = hub.tables[table_id]
    totals = table.session.match.seat_totals
    assert table.seats.state(1).value == "gone" and totals[1] > totals[0], totals  # the leaver outscored him
    for page in (dan, watcher):
        expect(page.locator("#turn")).to_have_text("Game over: Dan won.")
    expect(dan.locator("#winner")).to_have_text("★ Winner: Dan")
    # The sheet's totals say Finn scored more: the report says why he is not the winner.
    expect(dan.locator("#leavers")).to_have_text(
        "Finn left the game: last place, whatever the computer player scored for the seat."
    )
    dan.screenshot(path=str(shots / "leaver-is-no-winner.png"))
    finn_id = table.setup.seats[1].player
    dan_id = table.setup.seats[0].player
    end = time.monotonic() + 20
    while not dan.request.get(f"{server}/api/players/{finn_id}").json()["games"]:
        assert time.monotonic() < end, "the game's end did not reach Finn's page"
        time.sleep(0.1)
    finn_page = dan.context.new_page()
    finn_page.goto(f"{server}/p/{finn_id}")
    expect(finn_page.locator("#stats")).to_contain_text("1 game, 0 won")
    stats = {who: dan.request.get(f"{server}/api/players/{who}").json()["stats"]["total"] for who in (dan_id, finn_id)}
    assert (stats[dan_id]["won"], stats[finn_id]["won"]) == (1, 0)
    for page in (dan, watcher):
        page.context.close()


def _round_ending_on_the_person_s_move() -> tuple[int, list[dict[str, Any]]]:
    """A seed and the actions of a 2-player game (a person in seat 0, ``easy`` in seat 1) up to the move of the
    person's that ends the first round (left to make), the computer to act first in the next round."""
    rules = variant("classic").rules(2, target=500, two_player_rule=False)
    family = family_of(rules)
    for seed in range(1, 200):
        session = PlaySession(Match(rules, seed=seed), [SeatSpec("Ann", "easy"), SeatSpec("easy", "easy")])
        actions: list[dict[str, Any]] = []
        while not session.match.results:
            actions.append(family.action_to_json(session.play_bot()))
        if session.match.actions[-1].seat == 0 and session.match.to_act == 1 and len(actions) >= 2:
            return seed, actions
    raise AssertionError("no such game")


def test_the_round_s_report_pauses_the_table_no_clock_runs_and_no_computer_moves(
    chromium: Browser, served: tuple[str, Any, HandClock], tmp_path: Path
) -> None:
    server, app, clock = served
    hub = app.state.hub
    seed, actions = _round_ending_on_the_person_s_move()
    last = actions.pop()  # Ann's move that ends the round: hers to make
    rules = variant("classic").rules(2, target=500, two_player_rule=False)
    token = secrets.token_urlsafe(24)
    table_id = "t" + secrets.token_urlsafe(8)
    setup = {
        "rules": rules.to_dict(),
        "seed": seed,
        "game": 1,
        "clock": "normal",
        "clock_from": clock.at,
        "seats": [
            {"name": "Ann", "bot": None, "token": token_hash(token), "joined": True},
            {"name": "easy", "bot": "easy", "token": None, "joined": True},
        ],
    }
    writer = SqliteTables(tmp_path / "tables.sqlite3")  # as a table is kept: the server opens it from there
    try:
        writer.create(table_id, setup)
        writer.append(table_id, 0, actions, at=clock.at)
    finally:
        writer.close()
    ann = open_page(chromium, f"{server}/t/{table_id}#seat={token}", **DESKTOP)
    if last["act"] == "exchange":
        ann.locator("#rack .slot", has=ann.locator(".label", has_text=re.compile(rf"^{last['slot']}$"))).click()
    else:
        ann.locator("#btn-discard").click()
    expect(ann.locator("#round-dialog")).to_be_visible()
    expect(ann.locator("#round-pause")).to_contain_text("The next round starts in")
    at_the_end = hub.tables[table_id].version
    time.sleep(3.0)  # three seconds of the pause (the computer's pace is one)
    assert hub.tables[table_id].version == at_the_end, "the computer moved while the round's report was open"
    frame = ann.evaluate("() => ({ running: document.querySelectorAll('.timer.running').length })")
    assert frame["running"] == 0, "a clock ran while the round's report was open"
    clock.at += ROUND_PAUSE  # the pause is over: the computer plays the next round's first turn
    end = time.monotonic() + 15
    while hub.tables[table_id].version == at_the_end:
        assert time.monotonic() < end, "the computer never moved after the pause"
        time.sleep(0.05)
    ann.context.close()


def test_the_menus_and_texts_follow_the_seat_s_state(chromium: Browser, served: tuple[str, Any, HandClock]) -> None:
    server, _app, _clock = served
    made = new_table(server, variant="classic", players=2, seats=["person", "person"], clock="fast")  # casual
    ann, bob = open_page(chromium, link(server, made, 0), **DESKTOP), open_page(chromium, link(server, made, 1))
    sit_down(ann, "Ann")
    sit_down(bob, "Bob")
    # A casual game: giving the seat up costs no rating, and the confirmation does not say it does.
    ann.locator("#menu-toggle").click()
    ann.locator("#way-resign").click()
    expect(ann.locator("#confirm-text")).to_contain_text("It plays on for the others")
    expect(ann.locator("#confirm-text")).not_to_contain_text("Rated")
    ann.locator("#confirm-no").click()
    # An offer declined: the menu does not offer it again until the table moves on (the server would refuse it).
    ann.locator("#menu-toggle").click()
    ann.locator("#way-offer").click()
    expect(bob.locator("#offer-box")).to_be_visible()
    bob.locator("#offer-no").click()
    expect(ann.locator("#offer-box")).to_be_hidden()
    ann.locator("#menu-toggle").click()
    expect(ann.locator("#way-menu")).to_be_visible()
    expect(ann.locator("#way-offer")).to_be_hidden()
    expect(ann.locator("#way-abort")).to_be_visible()
    # Aborted: the game is over, and no clock shows (none is frozen on its last second).
    ann.locator("#way-abort").click()
    ann.locator("#confirm-yes").click()
    for page in (ann, bob):
        expect(page.locator("#turn")).to_have_text("Game aborted")
        expect(page.locator(".timer:visible")).to_have_count(0)
        expect(page.locator("#menu-toggle")).to_be_hidden()
    for page in (ann, bob):
        page.context.close()


def test_the_lobby_counts_whom_it_lists_online(chromium: Browser, served: tuple[str, Any, HandClock]) -> None:
    server, app, _clock = served
    _, token = app.state.hub.players.add_bot("Robo")
    listening = threading.Event()

    def listen() -> None:  # the bot is online while its event stream is open
        request = urllib.request.Request(server + "/api/bot/stream/event", headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request, timeout=30) as stream:
            for _ in stream:
                listening.set()
                if done.is_set():
                    return

    done = threading.Event()
    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    assert listening.wait(20)
    ann, bob = person(chromium, server, "Ann"), person(chromium, server, "Bob")
    for page, other in ((ann, "Bob"), (bob, "Ann")):
        expect(page.locator("#online-list")).to_contain_text(other)
        expect(page.locator("#online-list")).to_contain_text("Robo (bot)")
        shown = page.locator("#online-list > li").count()
        expect(page.locator("#online-title")).to_have_text(f"Online ({shown})")
    done.set()
    for page in (ann, bob):
        page.context.close()
