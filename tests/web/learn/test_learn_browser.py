"""The first lesson in Chromium, once per language and screen: played through by key presses and clicks as a person
would, one wrong move explained on the way, a reload that resumes, no serious accessibility problem, nothing wider
than the screen, and no request to another origin."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browsing import DESKTOP, LOCALES, PHONE, PHONE_SIDEWAYS, WAIT_MS, serious_problems, serving
from racko.analysis.lesson import STEPS
from racko.analysis.words import say


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("lesson")) as address:
        yield address


def _at_step(page: Page, number: int, lang: str, screen: dict[str, Any]) -> None:
    """Wait until the page shows step ``number`` (from 1), and check that nothing is wider than the screen."""
    expect(page.locator("#step-of")).to_have_text(say("lesson:step-of", {"n": number, "total": len(STEPS)}, lang))
    title = say(f"lesson:{STEPS[number - 1].name}:title", lang=lang)
    expect(page.locator("#lesson-title")).to_have_text(title)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= screen["viewport"]["width"], (number, wide)


@pytest.mark.parametrize(
    ("lang", "screen"),
    [("en", DESKTOP), ("nl", PHONE), ("fr", PHONE_SIDEWAYS)],
    ids=["en-desktop", "nl-phone", "fr-sideways"],
)
def test_the_lesson_is_played_through_by_keys_and_clicks(
    server: str, chromium: Browser, lang: str, screen: dict[str, Any]
) -> None:
    context = chromium.new_context(locale=LOCALES[lang], reduced_motion="reduce", **screen)
    elsewhere: list[str] = []
    context.on("request", lambda request: None if request.url.startswith(server) else elsewhere.append(request.url))
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    axe = Axe()
    problems: dict[str, list[str]] = {}
    try:
        page.goto(server + "/learn")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        _at_step(page, 1, lang, screen)
        problems["start"] = serious_problems(page, axe)
        page.keyboard.press("Enter")  # the rack: read on
        _at_step(page, 2, lang, screen)
        # The wrong move: drawing when the discard fits.  It is explained, and the step stays.
        page.keyboard.press("d")
        wrong = say("lesson:take:draw", {"card": 12, "low": 9, "high": 14}, lang)
        expect(page.locator("#feedback.wrong")).to_contain_text(wrong)
        _at_step(page, 2, lang, screen)
        problems["wrong move"] = serious_problems(page, axe)
        page.keyboard.press("t")
        _at_step(page, 3, lang, screen)
        expect(page.locator("#feedback.right")).to_contain_text("12")
        page.locator("#rack .slot").nth(2).click()  # 12 into slot 15
        _at_step(page, 4, lang, screen)
        expect(page.locator("#happened li")).to_have_count(2)
        page.reload()  # the address keeps the answers: a reload resumes
        _at_step(page, 4, lang, screen)
        page.locator("#stock").click()
        _at_step(page, 5, lang, screen)
        page.locator("#rack .slot").nth(5).click()  # 19 into slot 30: slot 35 then takes 20 to 26
        _at_step(page, 6, lang, screen)
        page.keyboard.press("d")
        _at_step(page, 7, lang, screen)
        page.keyboard.press("7")  # 24 into slot 35
        _at_step(page, 8, lang, screen)
        expect(page.locator("#rack .slot.out")).to_have_count(0)
        page.locator("#actions [data-answer=wait]").click()  # no run of three yet
        _at_step(page, 9, lang, screen)
        page.locator("#discard").click()  # take 29
        _at_step(page, 10, lang, screen)
        page.keyboard.press("0")  # into slot 50
        _at_step(page, 11, lang, screen)
        page.keyboard.press("r")
        _at_step(page, 12, lang, screen)
        expect(page.locator("#their-rack .slot")).to_have_count(10)
        problems["scoring"] = serious_problems(page, axe)
        page.locator("#choices button").filter(has_text="20").click()
        _at_step(page, 13, lang, screen)
        page.keyboard.press("2")  # 125 points
        _at_step(page, 14, lang, screen)
        expect(page.locator("#end-links")).to_be_visible()
        problems["end"] = serious_problems(page, axe)
        page.goto(server + "/learn#a=next,draw")  # answers that are not the lesson's: it starts again
        _at_step(page, 1, lang, screen)
    finally:
        context.close()
    assert {where: found for where, found in problems.items() if found} == {}
    assert elsewhere == []


def test_the_lesson_api_refuses_answers_that_are_not_the_lessons_and_keeps_nothing(server: str) -> None:
    def get(query: str) -> tuple[int, dict[str, Any]]:
        try:
            with urllib.request.urlopen(server + "/api/learn?" + query, timeout=10) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as refusal:
            return refusal.code, json.load(refusal)

    status, body = get("answers=next,take&try=slot:0")
    assert status == 200 and body["feedback"]["accepted"] is False and body["view"]["step"] == 2
    assert body["feedback"]["why"][0]["key"] == "lesson:why-too-high"
    assert get("answers=next,take")[1]["view"]["rack"][2] == 31  # the wrong try changed nothing
    for bad in ("answers=next,draw", "answers=" + ",".join(["next"] * 500), "answers=%00", "try=" + "x" * 99):
        status, body = get(bad)
        assert status == 400 and body["error"], bad
