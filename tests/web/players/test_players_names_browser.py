"""Names that pose as others, in Chromium: a second person who types a name that looks like the name of someone
online (or a computer player's, or a forgotten player's) is told so in the page's language, on the lobby's name form
and on their own page, and nothing is saved."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from browsing import WAIT_MS, link, new_table, serving, sit_down


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("names")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    with serving(folder) as address:
        yield address


@pytest.fixture
def contexts(chromium: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def _person(chromium: Browser, contexts: list[BrowserContext], locale: str) -> Page:
    """A person with a browser of their own (cookies, storage) and a page in ``locale``."""
    context = chromium.new_context(locale=locale, reduced_motion="reduce")
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def _type_name(page: Page, name: str) -> None:
    page.locator("#name").fill(name)
    page.locator("#name").press("Enter")


def _names(folder: Path) -> list[str]:
    with sqlite3.connect(folder / "tables.sqlite3") as database:
        return sorted(str(name) for (name,) in database.execute("SELECT name FROM racko_players"))


def test_a_look_alike_name_is_refused_in_dutch_and_nothing_is_saved(
    server: str, folder: Path, chromium: Browser, contexts: list[BrowserContext], shots: Path
) -> None:
    ann, other = _person(chromium, contexts, "nl-NL"), _person(chromium, contexts, "nl-NL")
    for page in (ann, other):
        page.goto(server + "/")
    _type_name(ann, "Ann")
    expect(ann.locator("#you")).to_contain_text("Je speelt als Ann.")
    _type_name(other, "\u0391\u039d\u039d")  # Greek capitals: Alpha, Nu, Nu
    problem = other.locator("#who #name-problem")
    expect(problem).to_have_text(
        "“\u0391\u039d\u039d” lijkt te veel op “Ann”, die hier nu speelt: kies een andere naam."
    )
    expect(problem.locator("bdi")).to_have_text(["\u0391\u039d\u039d", "Ann"])  # the names as text, each isolated
    expect(other.locator("#name-form")).to_be_visible()
    expect(other.locator("#you")).to_be_hidden()
    other.screenshot(path=str(shots / "name-taken-nl.png"), full_page=True)
    _type_name(other, "\u0410nn")  # its first letter Cyrillic, the others Latin: refused for mixing scripts
    expect(problem).to_have_text(
        "“\u0410nn” mengt letters uit verschillende schriften, zoals namen die zich als een ander voordoen: schrijf "
        "hem in één schrift (Latijns schrift mag samen met Chinees, Japans of Koreaans)."
    )
    other.screenshot(path=str(shots / "name-unfit-nl.png"), full_page=True)
    _type_name(other, "Ann\U000e0041")  # a tag character, which shows nothing
    expect(problem).to_contain_text("bevat een teken dat niets laat zien")
    _type_name(other, "Zed [bot]")
    expect(problem).to_contain_text("draagt het teken van een bot")
    _type_name(other, "Een vergeten speler")
    expect(problem).to_have_text(
        "“Een vergeten speler” lijkt op “een vergeten speler”, zoals de pagina’s een vergeten speler noemen: kies "
        "een andere naam."
    )
    assert _names(folder) == ["Ann"]
    _type_name(other, "Anneke")  # another name is saved, and the refusal goes
    expect(other.locator("#you")).to_contain_text("Je speelt als Anneke.")
    expect(problem).to_have_text("")
    assert _names(folder) == ["Ann", "Anneke"]


def test_a_look_alike_name_is_refused_in_french_in_the_lobby_and_on_the_player_s_page(
    server: str, folder: Path, chromium: Browser, contexts: list[BrowserContext], shots: Path
) -> None:
    zoe, other = _person(chromium, contexts, "fr-FR"), _person(chromium, contexts, "fr-FR")
    for page in (zoe, other):
        page.goto(server + "/")
    _type_name(zoe, "Zoé")
    expect(zoe.locator("#you")).to_contain_text("Vous jouez sous le nom de Zoé.")
    _type_name(other, "ZOÉ")
    problem = other.locator("#who #name-problem")
    taken = "« ZOÉ » ressemble trop à « Zoé », qui joue ici en ce moment : choisissez un autre nom."
    expect(problem).to_have_text(taken)
    expect(other.locator("#name-form")).to_be_visible()
    other.screenshot(path=str(shots / "name-taken-fr.png"), full_page=True)
    assert "ZOÉ" not in _names(folder)

    # on their own page, a name that poses as a computer player: refused, in French, the name kept
    _type_name(other, "Zazie")
    expect(other.locator("#you")).to_contain_text("Zazie")
    other.goto(server + "/me")
    expect(other.locator("#name")).to_have_value("Zazie")
    other.locator("#name").fill("hard (computer)")
    other.locator("#save").click()
    expect(other.locator("#status")).to_have_text(
        "« hard (computer) » ressemble au joueur ordinateur hard : choisissez un autre nom."
    )
    other.locator("#name").fill("zoé")
    other.locator("#save").click()
    expect(other.locator("#status")).to_have_text(
        "« zoé » ressemble trop à « Zoé », qui joue ici en ce moment : choisissez un autre nom."
    )
    other.screenshot(path=str(shots / "name-reserved-fr.png"), full_page=True)
    assert "Zazie" in _names(folder) and "zoé" not in _names(folder) and "hard (computer)" not in _names(folder)


def test_a_seat_s_name_that_looks_like_another_seat_s_is_refused_at_the_table_and_asked_again(
    server: str, chromium: Browser, contexts: list[BrowserContext], folder: Path
) -> None:
    table = new_table(server, variant="classic", players=3, seats=["person", "person", "person"])
    first = _person(chromium, contexts, "en-GB")
    first.goto(link(server, table, 0))
    sit_down(first, "Bram")
    second = _person(chromium, contexts, "nl-NL")
    second.goto(link(server, table, 1))
    second.locator("#name-input").fill("BRAM")
    second.locator("#name-input").press("Enter")
    expect(second.locator("#name-problem")).to_have_text(
        "Iemand aan deze tafel heet al zo of bijna zo: kies een andere naam."
    )
    expect(second.locator("#name-dialog")).to_be_visible()  # asked again, nothing kept
    second.locator("#name-input").fill("hard (computer)")
    second.locator("#name-input").press("Enter")
    expect(second.locator("#name-problem")).to_contain_text("computerspeler")
    sit_down(second, "Bea")
    expect(first.locator("#people-panel")).to_contain_text("Bea")
    third = _person(chromium, contexts, "fr-FR")
    third.goto(link(server, table, 2))
    second.close()
    third.locator("#name-input").fill("Βеа")  # Greek B, Cyrillic e and a: mixed scripts
    third.locator("#name-input").press("Enter")
    expect(third.locator("#name-problem")).to_contain_text("dans une seule écriture")
    third.locator("#name-input").fill("Веа")  # all Cyrillic: one script, Bea's skeleton
    third.locator("#name-input").press("Enter")
    expect(third.locator("#name-problem")).to_contain_text("porte déjà ce nom")
