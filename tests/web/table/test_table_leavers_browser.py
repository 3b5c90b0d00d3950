"""A rated quick-play game in real time where one person stops moving and another closes the tab (issue 39), in
Debian's Chromium with a browser context per person, against a server in this process whose clock the test moves
(`ServerSettings(now=)`, which `racko serve` has no option for): the clock plays the turns of those who do not move,
twice makes their seats gone (the one still looking is offered "I'm back"), the game goes on and ends for the one
who stayed, the two who left are rated last and their record of finishing says they left."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from browsing import DESKTOP, PHONE, WAIT_MS, act_and_wait, serving_app, situation
from racko.web.app import ServerSettings, create_app
from racko.web.clock import PRESETS
from racko.web.store import SqliteTables
from tables import HandClock

NORMAL = PRESETS["normal"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any, HandClock]]:
    clock = HandClock()
    # Three browsers on one machine are three people here (a school's network would be told the same way).
    app = create_app(
        SqliteTables(tmp_path / "tables.sqlite3", grouped=True),
        ServerSettings(pace=0.0, now=clock, rate_shared_addresses=True, quick_target=25, new_tables_per_address=1000),
    )
    app.state.hub.clock_tick = 0.05  # a clock moved by hand is seen at once
    with serving_app(app) as address:
        yield address, app, clock


def _person(browser: Browser, server: str, name: str, **context: Any) -> Page:
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server + "/")
    page.locator("#name").fill(name)
    page.locator("#name").press("Enter")
    expect(page.locator("#you")).to_contain_text(name)
    page.locator("#quick-players").select_option("3")
    expect(page.locator("#quick-rated")).to_be_checked()
    page.locator("#quick-go").click()
    return page


def test_those_who_stop_moving_or_close_the_tab_are_played_for_gone_and_rated_last(
    chromium: Browser, served: tuple[str, Any, HandClock]
) -> None:
    server, app, clock = served
    hub = app.state.hub
    ann = _person(chromium, server, "Ann", **DESKTOP)
    bob = _person(chromium, server, "Bob", **PHONE)
    cy = _person(chromium, server, "Cy", **DESKTOP)
    for page in (ann, bob, cy):
        expect(page).to_have_url(re.compile(r"/t/[\w-]+$"))
        expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    table_id = ann.url.rsplit("/", 1)[1]
    table = hub.tables[table_id]
    seats = {spec.name: seat for seat, spec in enumerate(table.setup.seats)}
    assert table.setup.rated and table.setup.clock == NORMAL.name
    cy.context.close()  # Cy closes the tab; Bob keeps his open and never moves again
    # Whether Bob's page ever showed him his seat gone, with its "I'm back" (it hides again when the game ends).
    bob.evaluate(
        """() => { const box = document.getElementById("gone-box");
        new MutationObserver(() => { if (!box.hidden && box.querySelector("#back")) window.sawGone = true; })
            .observe(box, { attributes: true }); }"""
    )

    timeouts = {seats["Bob"]: 0, seats["Cy"]: 0}
    deadline = time.monotonic() + 60
    while not ann.locator("#game-over").is_visible():
        table = hub.tables[table_id]
        assert time.monotonic() < deadline, (
            f"the game did not end: {table.session.to_act=} {table.clock=} {situation(ann)=} {table.over=} "
            f"{table.driver=} {table.setup.seats=}"
        )
        if ann.locator("#round-dialog").is_visible():
            if ann.locator("#game-over").is_visible():  # its dialog is filled before it opens
                break
            with contextlib.suppress(PlaywrightTimeoutError):  # a round's report (it may close itself first)
                ann.locator("#round-ok").click(timeout=2000)
            continue
        seat = table.session.to_act
        if seat in timeouts and table.clock is not None and table.seats.state(seat).value != "gone":
            clock.at += NORMAL.move + NORMAL.cap + 1  # past any turn's end: the clock plays the whole turn
            end = time.monotonic() + 10
            while hub.tables[table_id].session.to_act == seat and not hub.tables[table_id].over:
                assert time.monotonic() < end, "the clock did not play the turn"
                time.sleep(0.02)
            timeouts[seat] += 1
            continue
        now = situation(ann)
        if now in ("waiting", "", "over"):
            time.sleep(0.03)
            continue
        act_and_wait(ann, "#stock" if now == "pick" else "#rack .slot:enabled >> nth=0")
    # Two turns each that the clock played, then they were gone: their computer players played on without waiting.
    assert timeouts == {seats["Bob"]: 2, seats["Cy"]: 2}
    assert bob.evaluate("() => window.sawGone === true")  # Bob, still looking, was offered "I'm back"

    def page_of(name: str) -> dict[str, Any]:
        player = next(spec.player for spec in hub.tables[table_id].setup.seats if spec.name == name)
        found: dict[str, Any] = ann.request.get(f"{server}/api/players/{player}").json()
        return found

    end = time.monotonic() + 20
    while not all(page_of(name)["games"] for name in ("Ann", "Bob", "Cy")):
        assert time.monotonic() < end, "the game's end did not reach the players' pages"
        time.sleep(0.1)
    places = {seat["name"]: seat["place"] for seat in page_of("Ann")["games"][0]["seats"]}
    assert places == {"Ann": 1, "Bob": 2, "Cy": 2}  # last, together, whatever their computer players scored
    ratings = {name: page_of(name)["ratings"]["classic"]["rating"] for name in ("Ann", "Bob", "Cy")}
    assert ratings["Ann"] > ratings["Bob"] and ratings["Ann"] > ratings["Cy"]
    assert page_of("Bob")["finishing"]["left"] == 1 and page_of("Ann")["finishing"]["finished"] == 1
    for page in (ann, bob):
        page.context.close()
