"""The ratings page and a player's page in Chromium (issue 40), on a phone of today (390×844, touch) and a desktop, in
English, Dutch and French: the ratings page shows the number it ranks by, in rank order, and says what it is; a
player's page says its counts in the singular or the plural as its language does; and its rating chart fits a laptop
and a phone either way round, its words whole and legible (issue 50)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, expect

from browsing import (
    DESKTOP,
    LAPTOP,
    LOCALES,
    PHONE_SIDEWAYS,
    PHONE_UPRIGHT,
    played_game,
    serious_problems,
    serving,
    what_does_not_fit,
)
from people import a_finished_game
from racko.record import GameRecord
from racko.web.app import people, schema_parts
from racko.web.core import page_words
from racko.web.store import SqliteTables

SCREENS = {"phone": PHONE_UPRIGHT, "desktop": DESKTOP}
WORDS = page_words(("core", "ratings"))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A server whose players Ann (one rated game against a computer player) and Bea (two) have pages; the
    computer levels' calibrated ratings are on the board too (their order by rating is not their rank's)."""
    folder = tmp_path_factory.mktemp("ratings")
    store = SqliteTables(folder / "tables.sqlite3")
    try:
        store.prepare(schema_parts())
        players, ratings = people(store)
        ids = {}
        for name, games in (("Ann", 1), ("Bea", 2)):
            player, _ = players.create(name)
            ids[name] = player.id
            for game in range(games):
                seed = 3 + game
                _, _, text = played_game("classic", [name, "easy"], ["hard", "easy"], seed=seed, target=25)
                setup: dict[str, Any] = {
                    "seats": [{"name": name, "player": player.id, "bot": None}, {"name": "easy", "bot": "easy"}],
                    "rated": True,
                    "game": 1,
                }
                finished = a_finished_game(f"t{name}{game}", setup, GameRecord.from_json(json.loads(text)))
                assert ratings.game_over(finished)
    finally:
        store.close()
    with serving(folder) as address:
        yield address, ids


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_ratings_page_shows_the_number_it_ranks_by_in_rank_order_and_says_what_it_is(
    served: tuple[str, dict[str, str]], chromium: Browser, shots: Path, screen: str, language: str
) -> None:
    server, _ = served
    words = WORDS[language]
    context = chromium.new_context(**SCREENS[screen], locale=LOCALES[language])
    try:
        page = context.new_page()
        page.goto(server + "/ratings")
        board = page.locator("#ratings-board")
        expect(board).to_contain_text("Bea")
        expect(board).to_contain_text("master")
        expect(page.locator("#ranked-help")).to_have_text(words["ranked_help"])
        heads = board.locator("th").all_inner_texts()
        assert words["ranked"] in heads, heads
        rows = [row.locator("td").all_inner_texts() for row in board.locator("tr").all()[1:]]
        shown = [int(row[heads.index(words["ranked"])]) for row in rows]
        assert [int(row[heads.index(words["rank"])]) for row in rows] == list(range(1, len(rows) + 1))
        assert shown == sorted(shown, reverse=True), shown  # the number shown orders the ranks
        answer = context.request.get(server + "/api/ratings/classic").json()
        assert shown == [line["ranked"] for line in answer["lines"]]
        for row, line in zip(rows, answer["lines"], strict=True):  # the rating beside it, with its uncertainty
            assert row[heads.index(words["rating"])].replace("\xa0", " ") == f"{line['rating']} ± {line['uncertainty']}"
            # rating − 1.5 × uncertainty, as the page says (each of the three is rounded on its own: ±1.25)
            assert abs(line["ranked"] - (line["rating"] - 1.5 * line["uncertainty"])) <= 1.25
        page.screenshot(path=str(shots / f"ratings-{screen}-{language}.png"), full_page=True)
        if screen == "phone":
            # every column on the screen: the board needs no sideways scrolling
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert page.evaluate("(box => box.scrollWidth <= box.clientWidth)(document.querySelector('.sheet-box'))")
            assert serious_problems(page, Axe()) == []
    finally:
        context.close()


COUNTS = {
    "en": ("(1 rated game)", "(2 rated games)", "1 game, ", "2 games, "),
    "nl": ("(1 spel met rating)", "(2 spellen met rating)", "1 spel, ", "2 spellen, "),
    "fr": ("(1 partie classée)", "(2 parties classées)", "1 partie, ", "2 parties, "),
}
ALL_GAMES = {"en": "All games: ", "nl": "Alle spellen: ", "fr": "Toutes les parties : "}
"""How the statistics' first line starts (French sets a space before its colon)."""


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_a_player_s_page_says_one_game_and_two_games_as_its_language_does(
    served: tuple[str, dict[str, str]], chromium: Browser, shots: Path, language: str
) -> None:
    server, ids = served
    one_rated, two_rated, one_game, two_games = COUNTS[language]
    context = chromium.new_context(**PHONE_UPRIGHT, locale=LOCALES[language])
    try:
        page = context.new_page()
        for name, rated, games in (("Ann", one_rated, one_game), ("Bea", two_rated, two_games)):
            page.goto(f"{server}/p/{ids[name]}")
            expect(page.locator("#player-ratings")).to_contain_text(rated)
            expect(page.locator("#stats li").first).to_contain_text(ALL_GAMES[language] + games)
            expect(page.locator("#finishing")).to_contain_text(re.compile(r"\d"))
            page.screenshot(path=str(shots / f"player-{name}-phone-{language}.png"), full_page=True)
        assert serious_problems(page, Axe()) == []
    finally:
        context.close()


FIT_SCREENS = {"laptop": LAPTOP, "upright": PHONE_UPRIGHT, "sideways": PHONE_SIDEWAYS}

CHART = """() => [...document.querySelectorAll(".chart svg")].map((drawing) => {
  const frame = drawing.getBoundingClientRect();
  return { frame: [frame.left, frame.right], words: [...drawing.querySelectorAll("text")].map((text) => {
    const box = text.getBoundingClientRect();
    return { text: text.textContent, left: box.left, right: box.right, top: box.top, bottom: box.bottom,
             inside: box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5 && box.top >= frame.top - 0.5 &&
                     box.bottom <= frame.bottom + 0.5,
             size: parseFloat(getComputedStyle(text).fontSize) * frame.width / drawing.viewBox.baseVal.width };
  }) };
})"""
"""Each rating chart's edges on the screen, and each of its words: where, whether inside the drawing, and how large it
is drawn on the screen (its font size times the drawing's scale)."""


FIRST = {"laptop": "en", "upright": "nl", "sideways": "fr"}
"""The language each screen's page opens in (the browser's); the other two are chosen in the page, which draws its
chart again (no page load)."""


@pytest.mark.parametrize("screen", list(FIT_SCREENS))
def test_a_player_s_rating_chart_fits_the_screen_its_ratings_whole_and_legible(
    served: tuple[str, dict[str, str]], chromium: Browser, shots: Path, screen: str
) -> None:
    """Issue 50, item 7: the chart cut its right axis at 390 px, and drew its words at 7 px on a phone."""
    server, ids = served
    context = chromium.new_context(**FIT_SCREENS[screen], locale=LOCALES[FIRST[screen]])
    try:
        page = context.new_page()
        page.goto(f"{server}/p/{ids['Bea']}")
        width = FIT_SCREENS[screen]["viewport"]["width"]
        for language in [FIRST[screen]] + [other for other in LOCALES if other != FIRST[screen]]:
            page.locator("#lang").select_option(language)
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator(".chart figcaption")).to_contain_text(WORDS[language]["chart"].split("{")[0])
            charts = page.evaluate(CHART)
            assert len(charts) == 1
            for chart in charts:
                assert chart["frame"][0] >= 0 and chart["frame"][1] <= width, chart
                assert [word["text"] for word in chart["words"]], chart
                assert all(word["inside"] for word in chart["words"]), chart
                assert all(word["size"] >= 11.5 for word in chart["words"]), chart
            assert what_does_not_fit(page) == [], language
            page.screenshot(path=str(shots / f"player-chart-{screen}-{language}.png"), full_page=True)
        page.set_viewport_size({"width": 320, "height": 640})  # drawn again at a narrower width: it still fits
        narrower = re.compile(r"^(?:\d{1,2}|[12]\d\d|3[01]\d)$")  # under 320 px
        expect(page.locator(".chart svg")).to_have_attribute("width", narrower)
        assert all(word["inside"] for chart in page.evaluate(CHART) for word in chart["words"])
    finally:
        context.close()
