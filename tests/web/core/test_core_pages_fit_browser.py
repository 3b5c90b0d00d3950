"""The pages with forms fit every screen in every language (issue 50, item 2), in Debian's Chromium against a real
`racko serve`, on a laptop (1366×768), a phone held upright (390×844, touch) and one held sideways (667×375, touch),
in English, Dutch and French: the start page (/new), a bot's challenge page and the lobby (its quick play's speeds) are
no wider than the screen, each list box shows every one of its choices whole (the speeds: "Sans pendule (tables non
classées seulement)" was 437 px on a 390 px phone), nothing is cut, no control is covered, and a tap on "Créer la
table" creates it (it landed on the speed list).  One person and one page a screen: each page is loaded once, and
the languages are chosen in it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Route, expect

from browsing import LAPTOP, LOCALES, PHONE_SIDEWAYS, PHONE_UPRIGHT, serious_problems, serving, what_does_not_fit
from racko.web.core import page_words

SCREENS = {"laptop": LAPTOP, "upright": PHONE_UPRIGHT, "sideways": PHONE_SIDEWAYS}
PAGES = {"new": "/new", "challenge": "/challenge/Robo", "lobby": "/"}
READY = {"new": "#clock option", "challenge": "#clock option", "lobby": "#quick-clock option"}
"""What each page shows once its script has filled it in (its lists come from the server)."""
MEDIUM = {"en": "computer: medium", "nl": "computer: medium", "fr": "ordinateur : medium"}
"""A seat's computer player as the start page offers it (French sets a space before its colon)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("pages")) as address:
        yield address


FIRST = {"laptop": "en", "upright": "nl", "sideways": "fr"}
"""The language each screen's pages open in (the browser's): each language is once a page's first, and the others are
chosen in the page (its words and lists said again), which costs no page load."""


def _languages(screen: str) -> list[str]:
    return [FIRST[screen]] + [language for language in LOCALES if language != FIRST[screen]]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_pages_with_forms_fit_in_every_language_and_create_the_table_takes_a_tap(
    server: str, chromium: Browser, shots: Path, screen: str
) -> None:
    context = chromium.new_context(**SCREENS[screen], locale=LOCALES[FIRST[screen]], reduced_motion="reduce")
    try:
        answer = context.request.post(server + "/api/me", data={"name": f"Fit {screen}"})
        assert answer.ok, answer.text()
        page = context.new_page()
        problems: dict[str, list[str]] = {}
        held: list[Route] = []
        holding = [False]
        page.route("**/api/options", lambda route: held.append(route) if holding[0] else route.continue_())
        for name, path in PAGES.items():
            # The page's lists held back at the server: a language chosen meanwhile is still the page's (it was lost:
            # the page's script listened to the box only once its lists had come).
            holding[0] = True
            page.goto(server + path)
            for language in _languages(screen):
                if language != FIRST[screen] or name != "new":  # the language chosen on one page is the next's
                    page.locator("#lang").select_option(language)
                expect(page.locator("html")).to_have_attribute("lang", language)
                if holding[0]:
                    holding[0] = False
                    while held:
                        held.pop().continue_()
                expect(page.locator(READY[name]).first).to_be_attached()
                if name == "challenge":
                    expect(page.locator("#send")).to_be_enabled()  # the person's name known: the form is whole
                if name == "new":
                    expect(page.locator("#seat-1 option[value=medium]")).to_have_text(MEDIUM[language])
                found = what_does_not_fit(page)
                if found:
                    problems[f"{name} in {language}"] = found
                if name != "lobby":
                    page.screenshot(path=str(shots / f"fit-{name}-{screen}-{language}.png"), full_page=True)
        assert problems == {}
        # In French, the widest: a tap on "Créer la table" creates it (it landed on the speed list).
        page.goto(server + "/new")
        page.locator("#lang").select_option("fr")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("#clock option").first).to_be_attached()
        page.locator("#name-0").fill("Ann")
        create = page.get_by_role("button", name=page_words(("core", "table"))["fr"]["create"])
        create.tap() if screen != "laptop" else create.click()
        expect(page.locator("#links")).to_be_visible()  # the tap reached the button: the table is made
        assert what_does_not_fit(page) == []
        if screen == "upright":
            assert serious_problems(page, Axe()) == []
    finally:
        context.close()
