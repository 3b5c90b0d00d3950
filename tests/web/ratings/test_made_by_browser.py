"""Moves a computer player made for a person, in a real browser (Debian's Chromium against a real `racko serve`): the
review page says how many of a player's decisions were left out and why, and the replay page says at each such move
who played it, in English, Dutch and French; both pages stay axe-clean."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Route, expect

from browsing import DESKTOP, LOCALES, file_table, played_game, serious_problems, serving
from racko.record import GameRecord
from racko.web.table import replay_steps

REVIEW_WAIT_MS = 90000
LEFT_OUT = {
    "en": "Not graded, made by a computer player when the time ran out: 2",
    "nl": "Niet beoordeeld, gedaan door een computerspeler toen de tijd op was: 2",
    "fr": "Non évalués, joués par un ordinateur quand le temps était écoulé : 2",
}
PLAYED_FOR = {
    "en": "Played for Ann by a computer player: the time for the turn ran out",
    "nl": "Voor Ann gespeeld door een computerspeler: de tijd voor de beurt was op",
    "fr": "Joué pour Ann par un ordinateur : le temps du tour était écoulé",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("serve")
    with serving(folder, "--review-playouts", "2") as address:
        yield address, folder / "tables.sqlite3"


@pytest.fixture(scope="module")
def marked() -> tuple[object, list[dict[str, object]], GameRecord, list[int]]:
    """A one-round game of Ann and Bob whose first turn of Ann the clock played (two decisions)."""
    rules, actions, text = played_game("classic", ["Ann", "Bob"], ["hard", "easy"], seed=5, target=25)
    first = next(index for index, action in enumerate(actions) if action["seat"] == 0)
    clocked = [first + 1, first + 2]
    data = json.loads(text)
    record = GameRecord.from_json({**data, "made_by": {str(number): "clock" for number in clocked}})
    return rules, actions, record, clocked


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_review_page_says_how_many_decisions_were_left_out_and_why(
    served: tuple[str, Path], chromium: Browser, marked: tuple[object, list[dict[str, object]], GameRecord, list[int]],
    language: str,
) -> None:  # fmt: skip
    server, db = served
    rules, actions, record, clocked = marked
    table = file_table(db, rules, 5, ["Ann", "Bob"], [None, None], actions, finished=record.dumps())
    page = chromium.new_context(**DESKTOP, locale=LOCALES[language]).new_page()
    page.set_default_timeout(REVIEW_WAIT_MS)
    page.goto(f"{server}/t/{table['table']}/review?game=1")
    expect(page.locator("#moves .decision").first).to_be_visible(timeout=REVIEW_WAIT_MS)
    expect(page.locator("#summary .left-out")).to_have_count(1)  # Ann's; Bob's moves were all his own
    expect(page.locator("#summary .left-out")).to_have_text(LEFT_OUT[language])
    shown = {
        int(text) for text in re.findall(r"\d+", " ".join(page.locator("#moves .decision strong").all_text_contents()))
    }
    assert not shown & set(clocked)
    assert serious_problems(page, Axe()) == []


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_replay_says_which_moves_a_computer_player_made_and_for_whom(
    served: tuple[str, Path], chromium: Browser, marked: tuple[object, list[dict[str, object]], GameRecord, list[int]],
    language: str,
) -> None:  # fmt: skip
    server, _ = served
    _, _, record, clocked = marked
    steps = replay_steps(record)  # what /api/games/{game}/replay answers for this record

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(steps))

    page = chromium.new_context(**DESKTOP, locale=LOCALES[language]).new_page()
    page.route("**/api/games/*/replay", answer)
    page.goto(f"{server}/replay/some-game")
    expect(page.locator("#step")).to_have_attribute("max", str(len(steps["steps"]) - 1))
    expect(page.locator("#moves .made-by")).to_have_count(0)
    page.locator("#step").fill(str(clocked[1]))
    expect(page.locator("#moves .made-by")).to_have_count(2)  # both of the clock's moves, among the last few
    expect(page.locator("#moves .made-by").first).to_have_text(PLAYED_FOR[language])
    page.locator("#step").fill(str(clocked[1] + 6))
    expect(page.locator("#moves .made-by")).to_have_count(0)  # Ann's own moves and Bob's say nothing more
    assert serious_problems(page, Axe()) == []
