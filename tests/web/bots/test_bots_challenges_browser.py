"""People meet bot accounts in a real browser (Debian's Chromium against a real server, the bot run by `racko bot
connect` in a process of its own): a person challenges a listening bot from the lobby's online list, the bot
accepts, the person is taken to the table and they play the game to its end; a bot's decline is said in English,
Dutch and French; quick play seats a seeking bot with a person who welcomes bots, never with one who does not."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from test_bots_challenges import listening

from browsing import DESKTOP, LOCALES, WAIT_MS, play_a_turn, serious_problems, serving_app, wait_for_turn_or_round_end
from tables import HandClock, table_app, wait_for

ROOT = Path(__file__).resolve().parents[3]
CHALLENGE = {"en": "Challenge", "nl": "Uitdagen", "fr": "Défier"}
TITLE = {"en": "Challenge Robo (bot)", "nl": "Robo (bot) uitdagen", "fr": "Défier Robo (bot)"}
DECLINED = {
    "en": "Robo declined: no reason given.",
    "nl": "Robo weigert: geen reden opgegeven.",
    "fr": "Robo refuse : sans raison donnée.",
}


@contextlib.contextmanager
def bot_running(url: str, token: str, *options: str) -> Iterator[subprocess.Popen[str]]:
    """`racko bot connect` for the bot of ``token``, stopped (by its own id) at the end."""
    command = [sys.executable, "-c", "from racko.cli import main; main()", "bot", "connect", url, "--token", token]
    path = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    client = subprocess.Popen(
        [*command, *options], env={**os.environ, "PYTHONPATH": path}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        yield client
    finally:
        if client.poll() is None:
            client.terminate()
        client.communicate(timeout=30)


@contextlib.contextmanager
def served(path: Path, **options: Any) -> Iterator[tuple[str, Any]]:
    app = table_app(path, bot_keep_alive=0.5, **options)
    with serving_app(app) as url:
        yield url, app


def person_page(chromium: Browser, url: str, name: str, language: str = "en") -> Page:
    page = chromium.new_context(**DESKTOP, locale=LOCALES[language]).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(url + "/")
    page.locator("#name").fill(name)
    page.locator("#name").press("Enter")
    expect(page.locator("#you")).to_contain_text(name)
    return page


def online(app: Any, name: str) -> None:
    """Wait until the bot's event stream is open (the lobby lists it online)."""
    wait_for(lambda: any(line["name"] == name and line.get("bot") for line in app.state.lobby.view["online"]), 30)


def test_a_person_challenges_a_bot_from_the_lobby_and_they_play_to_the_end(tmp_path: Path, chromium: Browser) -> None:
    with served(tmp_path / "t.sqlite3") as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        with bot_running(url, token, "--policy", "racko:medium", "--games", "1", "--seed", "3") as client:
            online(app, "Robo")
            page = person_page(chromium, url, "Ann")
            listed = page.locator("#online-list li", has_text="Robo")
            expect(listed).to_contain_text("Robo (bot)")
            listed.get_by_role("link", name="Challenge").click()
            expect(page.locator("#challenge-title")).to_have_text("Challenge Robo (bot)")
            expect(page.locator("#seat-you")).to_contain_text("Ann")
            assert serious_problems(page, Axe()) == []
            page.locator("#variant").select_option("classic")
            page.locator("#players").select_option("2")
            page.locator("#target").fill("25")
            page.locator("#send").click()
            expect(page).to_have_url(re.compile(r"/t/"))  # accepted: to the table
            expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
            expect(page.locator("#others")).to_contain_text("Robo (bot)")
            rounds = turns = 0
            while True:
                turn = wait_for_turn_or_round_end([page])
                if turn is None:
                    rounds += 1
                    if page.locator("#game-over").is_visible():
                        break
                    page.locator("#round-ok").click()
                    expect(page.locator("#round-dialog")).not_to_be_visible()
                    continue
                play_a_turn(turn, deck=40)
                turns += 1
                assert turns < 800
            expect(page.locator("#round-title")).to_contain_text("the game is over")
            client.wait(timeout=60)  # the bot's own count: one game, played to its end
            assert client.returncode == 0
        table = next(iter(app.state.hub.tables.values()))
        assert table.session.match.over and table.setup.names == ["Ann", "Robo (bot)"]
        assert rounds >= 1 and turns > 0


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_a_bot_s_decline_is_said_in_the_person_s_language(tmp_path: Path, chromium: Browser, language: str) -> None:
    with served(tmp_path / "t.sqlite3") as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        with bot_running(url, token, "--challenges", "decline"):
            online(app, "Robo")
            page = person_page(chromium, url, "Ann", language)
            page.goto(url + "/p/" + app_bot(app))  # the bot's player page links to its challenge page
            expect(page.locator("#player-title")).to_contain_text("Robo (bot)")
            page.get_by_role("link", name=CHALLENGE[language]).click()
            expect(page.locator("#challenge-title")).to_have_text(TITLE[language])
            page.locator("#send").click()
            expect(page.locator("#answer")).to_have_text(DECLINED[language])
            expect(page.locator("#withdraw")).to_be_hidden()
            assert page.url.endswith("/challenge/Robo") and app.state.hub.players.unfinished(app_bot(app)) == 0


def app_bot(app: Any) -> str:
    return str(app.state.hub.players.bot_named("Robo").id)


def test_quick_play_seats_a_seeking_bot_only_with_a_person_who_welcomes_bots(tmp_path: Path, chromium: Browser) -> None:
    with served(tmp_path / "t.sqlite3") as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        with bot_running(url, token, "--seek", "classic", "--seek-clock", "fast"):
            wait_for(lambda: any(w.bot for w in app.state.lobby.waiting), 30)
            cat = person_page(chromium, url, "Cat")
            expect(cat.locator("#quick-bots")).not_to_be_checked()  # bots are welcome only when a person says so
            ask(cat, bots_welcome=False)
            expect(cat.locator("#queues")).to_contain_text("waiting")
            ann = person_page(chromium, url, "Ann")
            ask(ann, bots_welcome=True)
            expect(ann).to_have_url(re.compile(r"/t/"))
            expect(ann.locator("#others")).to_contain_text("Robo (bot)")
            assert "/t/" not in cat.url and [w.player.name for w in app.state.lobby.waiting] == ["Cat"]
            expect(cat.locator("#queues")).to_contain_text("waiting")


def ask(page: Page, *, bots_welcome: bool) -> None:
    page.locator("#quick-variant").select_option("classic")
    page.locator("#quick-players").select_option("2")
    page.locator("#quick-clock").select_option("fast")
    page.locator("#quick-rated").set_checked(False)
    page.locator("#quick-bots").set_checked(bots_welcome)
    page.locator("#quick-go").click()


def test_an_accepted_challenge_with_a_friend_s_seat_gives_its_link_first(tmp_path: Path, chromium: Browser) -> None:
    with served(tmp_path / "t.sqlite3") as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        with bot_running(url, token, "--policy", "racko:easy"):
            online(app, "Robo")
            page = person_page(chromium, url, "Ann")
            page.goto(url + "/challenge/Robo")
            page.locator("#players").select_option("3")
            page.locator("#seat-2").select_option("person")
            page.locator("#send").click()
            expect(page.locator("#answer")).to_contain_text("Robo accepted. Send each friend their seat's link")
            friend = page.locator("#answer input.link").input_value()
            assert "#seat=" in friend and page.url.endswith("/challenge/Robo")
            assert serious_problems(page, Axe()) == []
            page.locator("#to-table").click()
            expect(page.locator("#others")).to_contain_text("Robo (bot)")
            guest = chromium.new_context(**DESKTOP).new_page()  # the friend opens the link sent to them
            guest.goto(friend)
            expect(guest.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
            expect(guest.locator("#others")).to_contain_text("Ann")
            guest.context.close()


def test_an_unanswered_challenge_expires_and_the_page_says_so(tmp_path: Path, chromium: Browser) -> None:
    clock = HandClock()
    with served(tmp_path / "t.sqlite3", now=clock) as (url, app):
        _, token = app.state.hub.players.add_bot("Robo")
        with listening(url, token) as events:  # listening, and never answering
            page = person_page(chromium, url, "Ann", "nl")
            page.goto(url + "/challenge/Robo")
            page.locator("#send").click()
            events.next("challenge")
            expect(page.locator("#answer")).to_have_text("Wachten op het antwoord van Robo (nog 60 s).")
            expect(page.locator("#withdraw")).to_be_visible()
            clock.at += 60
            expect(page.locator("#answer")).to_have_text(
                "Robo antwoordde niet binnen een minuut: de uitdaging is verlopen."
            )
            expect(page.locator("#withdraw")).to_be_hidden()
            assert events.next("challengeCanceled")["state"] == "expired"
