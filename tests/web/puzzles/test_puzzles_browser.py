"""The puzzles page in Chromium: a person solves one by keyboard, misses the next by a click, sees the streak kept
across a reload, and the page has no serious accessibility problem in English, Dutch and French, on a phone too."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browsing import PHONE, WAIT_MS, serious_problems, serving
from racko.analysis.puzzles import Puzzle, load

SLOT_LABELS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("puzzles")) as address:
        yield address


def served(server: str, number: int) -> Puzzle:
    with urllib.request.urlopen(f"{server}/api/puzzles?number={number}") as answer:
        public = json.load(answer)["puzzle"]
    found = load().by_id(public["id"])
    assert found is not None
    return found


def key_for(action: dict[str, Any]) -> str:
    """The key that plays ``action`` on the page."""
    if action["act"] == "exchange":
        return str((SLOT_LABELS.index(action["slot"]) + 1) % 10)
    if action["act"] == "replace":
        return str(action["position"] % 10)
    return {"draw": "d", "take": "t", "discard": "x", "racko": "r", "wait": "w", "keep": "k"}[action["act"]]


def click(page: Page, action: dict[str, Any]) -> None:
    """Play ``action`` with the mouse, as a person would."""
    act = action["act"]
    if act == "exchange":
        page.locator("#rack .slot").nth(SLOT_LABELS.index(action["slot"])).click()
    elif act == "replace":
        page.locator("#rack .slot").nth(action["position"] - 1).click()
    elif act == "swap":
        for position in action["positions"]:
            page.locator("#rack .slot").nth(position - 1).click()
    elif act in ("draw", "take"):
        page.locator("#stock" if act == "draw" else "#discard").click()
    else:
        page.locator(f"#actions [data-verb={act}]").click()


def test_a_person_solves_one_misses_one_and_keeps_the_streak(server: str, chromium: Browser, shots: Path) -> None:
    context = chromium.new_context(reduced_motion="reduce", locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    with page.expect_response(lambda response: "/api/puzzles?" in response.url) as posed:
        page.goto(server + "/puzzles")
    frame = posed.value.json()
    assert set(frame["puzzle"]) == {
        "id",
        "kind",
        "variant",
        "players",
        "two_player_rule",
        "first_steps",
        "view",
        "moves",
    }
    assert "answer" not in json.dumps(frame)  # the page cannot know the answer before the person answers
    expect(page.locator("#number")).to_contain_text(f"Puzzle 1 of {len(load().puzzles)} · ")
    first = served(server, 1)
    page.screenshot(path=str(shots / "puzzles-desktop.png"), full_page=True)
    if first.answer["act"] == "swap":  # a swap is two clicks; every other move has its key
        click(page, first.answer)
    else:
        page.keyboard.press(key_for(first.answer))
    expect(page.locator("#verdict-title")).to_have_text("Right!")
    expect(page.locator("#reasons li").first).to_contain_text(first.move_words(first.answer))
    expect(page.locator("#streak")).to_have_text("Streak: 1 · best 1")
    page.screenshot(path=str(shots / "puzzles-right.png"), full_page=True)
    page.keyboard.press("n")
    expect(page.locator("#number")).to_contain_text("Puzzle 2 of")
    second = served(server, 2)
    wrong = next(move.action for move in second.moves if move.action != second.answer)
    click(page, wrong)
    expect(page.locator("#verdict-title")).to_have_text("Not the best move")
    expect(page.locator("#reasons li").nth(1)).to_contain_text("From what you could see")
    expect(page.locator("#streak")).to_have_text("Streak: 0 · best 1")
    page.screenshot(path=str(shots / "puzzles-wrong.png"), full_page=True)
    page.reload()
    expect(page.locator("#number")).to_contain_text("Puzzle 3 of")  # on from where the person was, the streak kept
    expect(page.locator("#streak")).to_have_text("Streak: 0 · best 1")
    assert all(url.startswith(server) for url in requests), [url for url in requests if not url.startswith(server)]
    # a puzzle whose answer goes out at once says it is one for first steps; the others do not
    expect(page.locator("#number")).not_to_contain_text("First steps")
    steps = next(number for number, puzzle in enumerate(load().puzzles, start=1) if puzzle.first_steps)
    page.evaluate(f"localStorage.setItem('racko-puzzles', JSON.stringify({{numbers: {{all: {steps}}}}}))")
    page.reload()
    expect(page.locator("#number")).to_have_text(re.compile(rf"Puzzle {steps} of \d+ · .+ · First steps"))
    context.close()


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_puzzles_page_has_no_serious_accessibility_problem(
    server: str, chromium: Browser, shots: Path, language: str
) -> None:
    context = chromium.new_context(
        reduced_motion="reduce", locale={"en": "en-GB", "nl": "nl-NL", "fr": "fr-FR"}[language], **PHONE
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server + "/puzzles")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#rack .slot")).to_have_count(10)
    axe = Axe()
    problems = {"posed": serious_problems(page, axe)}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    puzzle = served(server, 1)
    click(page, next(move.action for move in puzzle.moves if move.action != puzzle.answer))
    expect(page.locator("#verdict")).to_be_visible()
    problems["answered"] = serious_problems(page, axe)
    page.screenshot(path=str(shots / f"puzzles-phone-{language}.png"), full_page=True)
    assert {name: found for name, found in problems.items() if found} == {}
    context.close()
