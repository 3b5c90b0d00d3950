"""A turn-based game over three simulated days (issue 39), in Debian's Chromium with a browser context per person,
against a server in this process whose clock the test moves (`ServerSettings(now=)`): Bob's day-long turn is shown to
both in days and hours, his page reminds him six hours before its end (said, in the tab's title), then, his page
closed, the clock plays his turn at the deadline, a second day makes his seat gone (Ann sees it), on the third day
his computer player plays at once, and when Bob comes back his page offers "I'm back", which gives him his seat."""

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

from browsing import DESKTOP, PHONE, WAIT_MS, act_and_wait, link, new_table, serving_app, sit_down, situation
from racko.web.app import ServerSettings, create_app
from racko.web.clock import DAY
from racko.web.store import SqliteTables
from tables import HandClock


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any, HandClock]]:
    clock = HandClock()
    app = create_app(SqliteTables(tmp_path / "tables.sqlite3", grouped=True), ServerSettings(pace=0.0, now=clock))
    app.state.hub.clock_tick = 0.05  # a clock moved by hand is seen at once
    with serving_app(app) as address:
        yield address, app, clock


def _open(browser: Browser, url: str, **context: Any) -> Page:
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    return page


def _ann_acts_once(ann: Page) -> None:
    """One step of Ann's, if the page offers one: past a round's report, a draw, or the card to her first slot."""
    if ann.locator("#round-dialog").is_visible():  # a round ended
        with contextlib.suppress(PlaywrightTimeoutError):  # it may close itself first: its pause is over
            ann.locator("#round-ok").click(timeout=2000)
        return
    now = situation(ann)
    if now in ("waiting", "", "over"):
        time.sleep(0.03)
        return
    act_and_wait(ann, "#stock" if now == "pick" else "#rack .slot:enabled >> nth=0")


def _until_bob_to_act(ann: Page, app: Any, table_id: str, bob: int) -> None:
    """Ann plays her turns until it is Bob's turn (his clock runs: he is not gone)."""
    end = time.monotonic() + 60
    while app.state.hub.tables[table_id].session.to_act != bob:
        assert time.monotonic() < end, "it never became Bob's turn"
        _ann_acts_once(ann)


def test_three_days_of_a_one_day_table_reminded_played_for_gone_and_back(
    chromium: Browser, served: tuple[str, Any, HandClock]
) -> None:
    server, app, clock = served
    hub = app.state.hub
    table = new_table(server, variant="classic", players=2, seats=["me", "person"], names=["Ann"], clock="days-1")
    table_id = table["table"]
    ann = _open(chromium, link(server, table, 0), **DESKTOP)
    bob = _open(chromium, link(server, table, 1), **PHONE)
    sit_down(bob, "Bob")
    expect(ann.locator("#clock-mode")).to_have_text("Clock: 1 day a move (turn-based)")

    # Day one: Bob's turn has a whole day, shown to both (his seat's timer at Ann's, his own at his).
    _until_bob_to_act(ann, app, table_id, 1)
    since = hub.tables[table_id].clock.since
    expect(ann.locator(".other .timer .digits")).to_have_text("1 d 0 h")
    expect(bob.locator("#my-timer .digits")).to_have_text("1 d 0 h")
    clock.at = since + DAY - 6 * 3600  # six hours before its end: Bob's page reminds him
    expect(bob.locator("#status")).to_contain_text("6 h 0 min left")
    expect(bob).to_have_title(re.compile(r"^⏰"))
    bob.context.close()  # and Bob goes away for days
    version = hub.tables[table_id].version
    clock.at = since + DAY  # the deadline: the clock plays his turn, once
    expect(ann.locator("#log")).to_contain_text(re.compile(r"Bob (took|drew)"))
    assert hub.tables[table_id].version > version

    # Day two: Ann moves at once, Bob's day runs out again: his seat is gone, and Ann sees it.
    _until_bob_to_act(ann, app, table_id, 1)
    clock.at = hub.tables[table_id].clock.since + DAY
    # The keep loop finds the deadline passed on its next look: seconds on a loaded machine (5 s were once short).
    expect(ann.locator(".other .timer")).to_have_class(re.compile(r"\bgone\b"), timeout=15_000)

    # Day three, an hour into Ann's day (hers is not to run out): she plays, and Bob's computer player answers at
    # once, without waiting for any clock.
    clock.at += 3600
    end = time.monotonic() + 60
    while "gone" not in (hub.store.load(table_id).made_by or ()):
        assert time.monotonic() < end, "the gone seat's computer player did not play at once"
        _ann_acts_once(ann)
    stored = hub.store.load(table_id)
    assert stored is not None and "gone" in stored.made_by and stored.made_by.count("clock") >= 2

    # Bob comes back: his page offers his seat again, and "I'm back" gives it to him.
    back = _open(chromium, link(server, table, 1), **PHONE)
    expect(back.locator("#gone-box")).to_be_visible()
    back.locator("#back").click()
    expect(back.locator("#gone-box")).to_be_hidden()
    expect(ann.locator(".other .timer")).not_to_have_class(re.compile(r"\bgone\b"))
    for page in (ann, back):
        page.context.close()
