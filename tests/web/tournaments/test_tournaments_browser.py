"""A tournament in Chromium, as people live it: the operator adds a 3-round Swiss with `racko admin tournament add`
(racko's easy and medium enter it) and starts it with `racko admin tournament start` once everybody is in; Ann
(English, desktop) finds it on the Tournaments page and joins, Bob (French, phone) finds it in the lobby and joins; a
spectator (Dutch) follows its page. At its start each person's page opens their table by itself; they play every
game by clicks and taps to its end and come back to the tournament's page, which opens their next table when the next
round starts; the spectator watches a table of the round from the tournament's page; the podium shows on every page
at the end. axe-core finds nothing serious on its pages, on a phone too; the form that makes a tournament works from
the page."""

from __future__ import annotations

import re
import time
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from typer.testing import CliRunner

from browsing import DESKTOP, LOCALES, PHONE, WAIT_MS, play_a_turn, serious_problems, serving_app, situation
from racko.cli import app as cli_app
from racko.web.core import page_words
from tables import table_app

TABLE = re.compile(r"/t/[\w-]+$")
DECISIONS = ("pick", "place-drawn", "place-taken")


def _person(chromium: Browser, server: str, name: str, screen: dict[str, object], language: str) -> Page:
    context = chromium.new_context(**screen, locale=LOCALES[language], reduced_motion="reduce")
    answer = context.request.post(server + "/api/me", data={"name": name})
    assert answer.ok, answer.text()
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def _play_to_the_end(pages: dict[Page, str]) -> None:
    """Each page plays its table's game to its end (two pages at one table take their turns), by clicks or taps."""
    deadline = time.monotonic() + 240
    while not all(page.locator("body.game-over").count() for page in pages):
        assert time.monotonic() < deadline, "the games did not end"
        moved = False
        for page, press in pages.items():
            if page.locator("body.game-over").count():
                continue
            if page.locator("#round-dialog").is_visible():
                page.locator("#round-ok").click()
                continue
            if situation(page) in DECISIONS and not page.locator("#round-dialog").is_visible():
                play_a_turn(page, deck=40, press=press)
                moved = True
        if not moved:
            time.sleep(0.05)


def test_two_people_and_two_levels_play_a_swiss_to_its_podium_watched_by_a_spectator(
    chromium: Browser, shots: Path, tmp_path: Path
) -> None:
    path = tmp_path / "tables.sqlite3"
    app = table_app(path, pace=0.05, round_pause=2.0)
    with serving_app(app) as server:
        added = CliRunner().invoke(
            cli_app,
            [
                "admin", "tournament", "add", "Friday Swiss", "--db", str(path), "--kind", "swiss", "--variant",
                "classic", "--seats", "2", "--rounds", "3", "--clock", "slow", "--target", "25", "--levels",
                "easy,medium", "--starts-in", "3600", "--no-run-rule",
            ],
        )  # fmt: skip
        assert added.exit_code == 0, added.output
        tournament = added.output.split()[-1]
        ann = _person(chromium, server, "Ann", DESKTOP, "en")
        bob = _person(chromium, server, "Bob", PHONE, "fr")
        spectator = _person(chromium, server, "Cy", DESKTOP, "nl")

        # Ann finds it on the Tournaments page (the header's link), Bob in the lobby; each joins
        ann.goto(server + "/")
        ann.locator("header nav a[href='/tournaments']").click()
        ann.locator("#soon-list a", has_text="Friday Swiss").click()
        expect(ann.locator("#t-name")).to_have_text("Friday Swiss")
        expect(ann.locator("#standings tr")).to_have_count(3)  # the heading, easy and medium
        ann.locator("#join").click()
        expect(ann.locator("#you-line")).to_contain_text("You are in")
        bob.goto(server + "/")
        bob.locator("#lobby-tournaments a", has_text="Friday Swiss").tap()
        bob.locator("#join").tap()
        french = page_words(("core", "tournaments"))["fr"]
        expect(bob.locator("#you-line")).to_have_text(french["tn_you_in_soon"])
        expect(bob.locator("#t-when")).to_contain_text("commence dans 59:")
        spectator.goto(f"{server}/tournaments/{tournament}")
        expect(spectator.locator("#standings tr")).to_have_count(5)
        expect(spectator.locator("#join")).to_be_visible()  # Cy may join too, but only watches
        bob.screenshot(path=str(shots / "tournament-phone-fr-before.png"), full_page=True)
        for page in (ann, bob):  # (the spectator's page is Ann's, in Dutch)
            assert serious_problems(page, Axe()) == [], page.url
        started = CliRunner().invoke(cli_app, ["admin", "tournament", "start", tournament, "--db", str(path)])
        assert started.exit_code == 0, started.output  # everybody is in: the operator starts it now

        watched = False
        for round_ in (1, 2, 3):
            # the next round opens each person's table by itself
            for page in (ann, bob):
                page.wait_for_url(TABLE, timeout=60_000)
            expect(ann.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
            if not watched:  # the spectator watches a table of the round from the tournament's page
                spectator.reload()
                expect(spectator.locator("#current-title")).to_have_text(f"Ronde {round_}")
                spectator.locator("#current-list a.button").first.click()
                spectator.wait_for_url(TABLE)
                expect(spectator.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
                expect(spectator.locator("#stock")).to_be_disabled()  # a spectator has no move
                spectator.screenshot(path=str(shots / "tournament-spectator-table.png"))
                spectator.go_back()
                watched = True
            if ann.url == bob.url:
                ann.screenshot(path=str(shots / f"tournament-round-{round_}-ann-against-bob.png"))
            _play_to_the_end({ann: "click", bob: "tap"})
            for page in (ann, bob):
                page.goto(f"{server}/tournaments/{tournament}")

        for page in (ann, bob, spectator):
            expect(page.locator("#podium li")).to_have_count(3, timeout=60_000)
        expect(ann.locator("#t-when")).to_have_text("finished")
        expect(ann.locator("#standings tr")).to_have_count(5)
        expect(ann.locator("#you-line")).to_contain_text("You finished")
        expect(bob.locator("#podium-title")).to_have_text(french["tn_podium"])
        ann.screenshot(path=str(shots / "tournament-desktop-podium.png"), full_page=True)
        bob.screenshot(path=str(shots / "tournament-phone-fr-podium.png"), full_page=True)
        spectator.screenshot(path=str(shots / "tournament-spectator-nl-podium.png"), full_page=True)
        # each player's games: Ann's three, one a round
        ann.locator("#standings button.player", has_text="Ann").click()
        expect(ann.locator("#games-list li")).to_have_count(3)
        expect(ann.locator("#games-title")).to_be_focused()
        for page in (ann, bob):
            assert serious_problems(page, Axe()) == [], page.url
            wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert wide <= 0, f"the page is {wide} px wider than the screen"
        page = ann.context.new_page()  # the form makes another from the page
        page.goto(server + "/tournaments")
        expect(page.locator("#finished-list a", has_text="Friday Swiss")).to_be_visible()
        assert serious_problems(page, Axe()) == [], page.url
        page.locator("#make-name").fill("Sunday arena")
        page.locator("#make-kind").select_option("arena")
        page.locator("#make-minutes").fill("30")
        page.locator("#make-go").click()
        page.wait_for_url(re.compile(r"/tournaments/[\w-]+$"))
        expect(page.locator("#t-name")).to_have_text("Sunday arena")
        expect(page.locator("#t-tags")).to_contain_text("Arena · 30 min")
