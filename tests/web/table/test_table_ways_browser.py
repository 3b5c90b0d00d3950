"""A way out (issue 39) on the pages, in Debian's Chromium against a real `racko serve`: two people in browser
contexts of their own, one on a desktop and one on a phone, use the table's menu as people would (by keyboard and by
pointer, each step asked once more): an offer to end the game said to the other and declined, a resign that the other
sees (a computer player in the seat), and an abort that ends the game for both; axe-clean with the menu, the
confirmation and the offer open."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browsing import DESKTOP, PHONE, link, new_table, open_page, serious_problems, serving, sit_down


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("ways")) as address:
        yield address


def choose(page: Page, way: str, *, keyboard: bool = False, confirm: bool = True) -> None:
    """Open the menu, choose ``way`` (its button's id), and say yes in the confirmation (if it asks one)."""
    if keyboard:
        page.locator("#menu-toggle").focus()
        page.keyboard.press("Enter")
        expect(page.locator("#way-menu")).to_be_visible()
        page.locator(f"#{way}").focus()
        page.keyboard.press("Enter")
    else:
        page.locator("#menu-toggle").click()
        page.locator(f"#{way}").click()
    if not confirm:  # an offer can be withdrawn: it is not asked again
        expect(page.locator("#confirm-dialog")).not_to_be_visible()
        return
    expect(page.locator("#confirm-dialog")).to_be_visible()
    expect(page.locator("#confirm-no")).to_be_focused()  # what cannot be undone starts on Cancel
    if keyboard:
        page.keyboard.press("Tab")
        expect(page.locator("#confirm-yes")).to_be_focused()
        page.keyboard.press("Enter")
    else:
        page.locator("#confirm-yes").click()
    expect(page.locator("#confirm-dialog")).not_to_be_visible()


def test_two_people_offer_decline_resign_and_abort_from_the_tables_menu(server: str, chromium: Browser) -> None:
    axe = Axe()
    table = new_table(server, variant="classic", players=3, seats=["person", "person", "medium"])
    ann = open_page(chromium, link(server, table, 0), **DESKTOP)
    sit_down(ann, "Ann")
    bob = open_page(chromium, link(server, table, 1), **PHONE)
    sit_down(bob, "Bob")
    try:
        # Ann offers to end the game, by keyboard; Bob is asked, and declines.
        expect(ann.locator("#menu-toggle")).to_be_visible()
        ann.locator("#menu-toggle").click()
        assert serious_problems(ann, axe) == []  # the menu open
        ann.keyboard.press("Escape")
        expect(ann.locator("#way-menu")).to_be_hidden()
        choose(ann, "way-offer", keyboard=True, confirm=False)
        expect(ann.locator("#offer-box")).to_contain_text("Waiting for the others.")
        expect(ann.locator("#offer-no")).to_have_text("Cancel")  # the one who offered may withdraw it
        expect(bob.locator("#offer-box")).to_contain_text("Ann offers to end the game.")
        assert serious_problems(bob, axe) == []  # the offer, on a phone
        box = bob.locator("#offer-box").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375  # the phone's width
        bob.locator("#offer-no").click()
        expect(ann.locator("#log")).to_contain_text("Bob declined: play on.")
        expect(ann.locator("#offer-box")).to_be_hidden()
        expect(bob.locator("#offer-box")).to_be_hidden()
        # Bob resigns: a computer player takes his seat, which Ann sees; Bob watches from then on.
        bob.locator("#menu-toggle").click()
        menu = bob.locator("#way-menu").bounding_box()
        assert menu is not None and menu["x"] >= 0 and menu["x"] + menu["width"] <= 375  # the menu fits the phone
        bob.locator("#way-resign").click()
        expect(bob.locator("#confirm-dialog")).to_be_visible()
        expect(bob.locator("#confirm-text")).to_have_text(
            "Resign? Give your seat to a computer player? It plays on for the others."  # a casual game: no rating
        )
        assert serious_problems(bob, axe) == []  # the confirmation
        bob.locator("#confirm-yes").click()
        expect(ann.locator("#log")).to_contain_text("Bob resigned.")
        expect(ann.locator("#people")).to_contain_text("resigned")
        expect(bob.locator("#menu-toggle")).to_be_hidden()
        expect(bob.locator("body")).to_have_class(re.compile(r"(^|\s)spectating(\s|$)"))
        # Ann aborts (nobody has had two turns yet): the game ends for both, counting for nothing.
        expect(ann.locator("#way-abort")).to_be_attached()
        choose(ann, "way-abort", keyboard=True)
        for page in (ann, bob):
            expect(page.locator("#turn")).to_have_text("Game aborted")
        expect(ann.locator("#menu-toggle")).to_be_hidden()
        assert serious_problems(ann, axe) == []
    finally:
        ann.context.close()
        bob.context.close()
