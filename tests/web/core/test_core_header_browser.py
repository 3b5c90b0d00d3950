"""The header the pages share (issue 40), in Chromium on a phone of today (390×844, touch) and on a desktop, in
English, Dutch and French: nothing in it is cut or overflows its box, every link's words show whole and within the
screen, the language box shows its whole language, and the page is no wider than the screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browsing import DESKTOP, LOCALES, PHONE, PHONE_UPRIGHT, serious_problems, serving
from racko.web.core import page_words

PAGES = {"lobby": "/", "new": "/new", "ratings": "/ratings", "learn": "/learn", "puzzles": "/puzzles", "me": "/me",
         "review": "/t/none/review", "tournaments": "/tournaments"}  # fmt: skip
"""Every page with the shared header (a review page's header is there before the page learns there is no game)."""
SCREENS = {"phone": PHONE_UPRIGHT, "small-phone": PHONE, "desktop": DESKTOP}
NAMES = {("phone", "en"): "Hal", ("phone", "nl"): "Ilse", ("phone", "fr"): "Joël",
         ("small-phone", "en"): "Nils", ("small-phone", "nl"): "Olga", ("small-phone", "fr"): "Pénélope",
         ("desktop", "en"): "Kim", ("desktop", "nl"): "Lieke", ("desktop", "fr"): "Maël"}  # fmt: skip
"""A returning player for each screen and language (their own link, "You", is in the header too)."""

WHAT_IS_CUT = """() => {
  const bar = document.querySelector("header.bar");
  const barBox = bar.getBoundingClientRect();
  const cut = [];
  const name = (element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") + " " +
    JSON.stringify((element.textContent || "").trim().slice(0, 30));
  for (const element of [bar, ...bar.querySelectorAll("*")]) {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (box.width <= 1 || element.closest("[hidden]")) continue; // not shown, or only to screen readers
    if (style.display !== "inline" && element.scrollWidth > element.clientWidth + 0.5)
      cut.push(name(element) + " overflows: " + element.scrollWidth + " > " + element.clientWidth);
    if (style.maskImage && style.maskImage !== "none") cut.push(name(element) + " fades its edge");
    const beyond = box.left < Math.max(0, barBox.left) - 0.5 || box.right > Math.min(innerWidth, barBox.right) + 0.5;
    if (beyond)
      cut.push(name(element) + " is beyond the screen or the header: " + box.left + ".." + box.right);
  }
  for (const link of bar.querySelectorAll("nav a:not([hidden])")) {
    const nav = link.parentElement.getBoundingClientRect(), box = link.getBoundingClientRect();
    if (box.left < nav.left - 0.5 || box.right > nav.right + 0.5) cut.push(name(link) + " is cut by its row");
  }
  // The language box shows its chosen language whole: the words' width and the box's padding and arrow fit in it.
  const select = document.getElementById("lang");
  const style = getComputedStyle(select);
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = style.font;
  const words = measure.measureText(select.selectedOptions[0].textContent).width;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
  if (words > room) cut.push("the language box shows " + Math.floor(room) + " px of its " + Math.ceil(words) + " px");
  const wide = document.documentElement.scrollWidth;
  if (wide > innerWidth) cut.push("the page is " + wide + " px wide");
  return cut;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("header")) as address:
        yield address


def _returning_player(chromium: Browser, server: str, screen: str, language: str) -> Any:
    """A browser of a player who picked a name before, in ``language``."""
    context = chromium.new_context(**SCREENS[screen], locale=LOCALES[language], reduced_motion="reduce")
    answer = context.request.post(server + "/api/me", data={"name": NAMES[screen, language]})
    assert answer.ok, answer.text()
    return context


def _header_in(page: Page, language: str) -> None:
    """Wait until the header speaks ``language`` and shows the player's own link."""
    words = page_words(("core",))[language]
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("header nav a[href='/ratings']")).to_have_text(words["nav_ratings"])
    expect(page.locator("#nav-me")).to_be_visible()
    expect(page.locator("#lang")).to_have_value(language)


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
@pytest.mark.parametrize("screen", ["phone", "small-phone", "desktop"])
def test_every_word_of_the_header_shows_whole_on_every_page(
    server: str, chromium: Browser, shots: Path, screen: str, language: str
) -> None:
    context = _returning_player(chromium, server, screen, language)
    try:
        page = context.new_page()
        cut: dict[str, list[str]] = {}
        for name, path in PAGES.items():
            page.goto(server + path)
            _header_in(page, language)
            found = page.evaluate(WHAT_IS_CUT)
            header = page.locator("header.bar").bounding_box()
            assert header is not None
            if header["height"] > 100:  # two rows at most (a link is 44 px high, to be touched)
                found.append(f"the header is {header['height']} px high")
            if found:
                cut[name] = found
            expect(page.get_by_label(page_words(("core",))[language]["language"])).to_have_value(language)
            if name in ("lobby", "learn"):
                page.screenshot(path=str(shots / f"header-{name}-{screen}-{language}.png"))
        assert cut == {}
        if screen != "desktop":  # the header as a phone shows it, with a player's page open: nothing serious for axe
            page.goto(server + "/")
            _header_in(page, language)
            assert serious_problems(page, Axe()) == []
    finally:
        context.close()


def test_the_language_box_changes_the_header_s_words_and_they_still_fit(server: str, chromium: Browser) -> None:
    context = _returning_player(chromium, server, "phone", "en")
    try:
        page = context.new_page()
        page.goto(server + "/learn")
        _header_in(page, "en")
        for language in ("fr", "nl"):  # the words come from the server when chosen: the header makes room for them
            page.locator("#lang").select_option(language)
            _header_in(page, language)
            assert page.evaluate(WHAT_IS_CUT) == []
        page.locator("header nav a[href='/puzzles']").tap()  # every link within reach of a finger
        page.wait_for_url(server + "/puzzles")
        current = page.locator("header nav a[aria-current='page']")
        expect(current).to_have_text(page_words(("core",))["nl"]["nav_puzzles"])
    finally:
        context.close()
