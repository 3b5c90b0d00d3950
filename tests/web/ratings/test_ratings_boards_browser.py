"""The ratings page in a real browser (Debian's Chromium against a real server): the Bots board beside the people's,
a bot account on it marked as a bot (in English, Dutch and French), never on the people's; racko's levels on both;
the page stays axe-clean."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, expect

from browsing import DESKTOP, LOCALES, serious_problems, serving_app
from people import a_finished_game
from racko.match import Match
from racko.play.session import PlaySession, SeatSpec
from racko.rules import variant
from tables import table_app

NOTES = {"en": "the bot ladder", "nl": "de botladder", "fr": "l’échelle des bots"}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server where the bot account Robo has played a rated game against the medium level."""
    app = table_app()
    players, ratings = app.state.hub.players, app.state.ratings
    robo, _ = players.add_bot("Robo")
    players.create("Ann")
    rules = variant("classic").rules(2, target=50)
    session = PlaySession(Match(rules, seed=3), [SeatSpec("medium", "medium"), SeatSpec("Robo", "easy")])
    while not session.match.over:
        session.play_bot()
    seats = [
        {"name": "medium", "bot": "medium"},
        {"name": "Robo (bot)", "bot": None, "player": robo.id, "account": "bot"},
    ]
    setup = {"rules": rules.to_dict(), "seed": 3, "game": 1, "rated": True, "seats": seats}
    assert ratings.game_over(a_finished_game("t-robo", setup, session.record()))
    with serving_app(app) as url:
        yield url


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_bots_board_stands_beside_the_people_s_with_the_bot_marked(
    server: str, chromium: Browser, language: str
) -> None:
    context = chromium.new_context(**DESKTOP, locale=LOCALES[language])
    page = context.new_page()
    page.goto(server + "/ratings")
    bots = page.locator("#bots-board")
    expect(page.locator("#bots-title")).to_have_text("Bots")
    expect(page.locator("#bots-title + p")).to_contain_text(NOTES[language])
    expect(bots.get_by_role("link", name="Robo")).to_be_visible()
    expect(bots.locator("tr", has_text="Robo")).to_contain_text("Robo (bot)")
    people = page.locator("#ratings-board")
    expect(people.locator("tr", has_text="medium")).to_have_count(1)  # the levels are on both boards
    expect(bots.locator("tr", has_text="medium")).to_have_count(1)
    expect(people).not_to_contain_text("Robo")
    assert serious_problems(page, Axe()) == []
    context.close()
