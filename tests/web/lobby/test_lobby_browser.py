"""The lobby in Chromium, several browser contexts as separate people: two strangers pick names, meet by quick play
and play a rated game to its end by clicks; their ratings and histories change; a third person watches from the
lobby.  The people's pages in every language, by keyboard, without a serious accessibility problem."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browsing import LOCALES, PHONE, PHONE_UPRIGHT, WAIT_MS, in_first_screen, serious_problems, serving

DECK = 40
"""Two players' classic deck."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("lobby")
    with serving(folder, "--quick-wait", "1", "--quick-target", "25") as address:
        yield address


class Person:
    """A person with a browser of their own (cookies, storage): their page, and the frames it received."""

    def __init__(self, browser: Browser, address: str | None = None, **context: Any) -> None:
        """``address``: the network address the person comes from, as a proxy in front of the server would say it
        (the server, on 127.0.0.1, believes its own machine); each stranger has one of their own."""
        headers = {"X-Forwarded-For": address} if address else {}
        self.context = browser.new_context(reduced_motion="reduce", extra_http_headers=headers, **context)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.states: list[dict[str, Any]] = []

        def watch(socket: Any) -> None:
            def received(payload: Any) -> None:
                frame = json.loads(payload)
                if frame.get("type") == "state":
                    self.states.append(frame)

            socket.on("framereceived", received)

        self.page.on("websocket", watch)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def people(chromium: Browser) -> Iterator[list[Person]]:
    made: list[Person] = []
    yield made
    for person in made:
        person.close()


def _pick_name(page: Page, name: str) -> None:
    page.locator("#name").fill(name)
    page.locator("#name").press("Enter")
    expect(page.locator("#you")).to_contain_text(name)


def _bucket(card: int) -> int:
    return min(9, (card - 1) * 10 // DECK)


def _play_a_turn(person: Person) -> None:
    """One turn by clicks, as a person sorting their rack would: a card goes to the slot its value belongs to."""
    page = person.page
    situation = page.locator("#prompt").get_attribute("data-situation")
    view = person.states[-1]["view"]
    rack = view["rack"]
    if situation == "pick-or-call":
        page.locator("#btn-racko").click()
        return
    top = view["discard"][-1] if view["discard"] else None
    taking = isinstance(top, int) and rack[_bucket(top)] is not None and _bucket(rack[_bucket(top)]) != _bucket(top)
    page.locator("#discard" if taking else "#stock").click()
    expect(page.locator("#prompt")).to_have_attribute("data-situation", re.compile("^place-"))
    held = _held(person)
    slot = _bucket(held)
    if taking or _bucket(rack[slot]) != slot:
        page.locator("#rack .slot").nth(slot).click()
    else:
        page.locator("#btn-discard").click()
    expect(page.locator("#prompt")).not_to_have_attribute("data-situation", re.compile("^place-"))


def _held(person: Person) -> int:
    for _ in range(100):
        held = person.states[-1]["view"].get("held")
        if isinstance(held, int):
            return held
        person.page.wait_for_timeout(20)
    raise AssertionError("no card in hand")


def _play_to_the_end(players: list[Person]) -> None:
    for _ in range(400):
        if any(person.page.locator("#winner").is_visible() for person in players):
            return
        for person in players:
            situation = person.page.locator("#prompt").get_attribute("data-situation") or ""
            if situation.startswith("pick") and person.states and person.states[-1]["view"]["legal"]:
                _play_a_turn(person)
                break
        else:
            players[0].page.wait_for_timeout(50)
    raise AssertionError("the game did not end")


def test_two_strangers_meet_by_quick_play_play_a_rated_game_and_a_third_watches(
    server: str, chromium: Browser, people: list[Person], shots: Path
) -> None:
    ann = Person(chromium, "203.0.113.10")
    bob = Person(chromium, "198.51.100.20", **PHONE)
    cy = Person(chromium, "192.0.2.30", locale="nl-NL")
    people += [ann, bob, cy]
    for person in people:
        person.page.goto(server + "/")
    _pick_name(bob.page, "Bob")
    expect(cy.page.locator("#who-title")).to_have_text("Kies een naam om met anderen te spelen")

    # Ann asks for her game before she has a name: she is asked for one, and the game she asked for is wanted then.
    ann.page.locator("#quick-variant").select_option("classic")
    ann.page.locator("#quick-players").select_option("2")
    ann.page.locator("#quick-run-rule").uncheck()
    ann.page.locator("#quick-go").click()
    expect(ann.page.locator("#problem")).to_have_text("Pick a name first: quick play starts as soon as you have one.")
    expect(ann.page.locator("#name")).to_be_focused()
    _pick_name(ann.page, "Ann")
    expect(ann.page.locator("#queues")).to_contain_text("1 waiting")
    expect(ann.page.locator("#problem")).to_have_text("")
    ann.page.screenshot(path=str(shots / "lobby-waiting.png"), full_page=True)
    expect(cy.page.locator("#others-list")).to_contain_text("1 wacht")  # no name: a wish is not public
    expect(cy.page.locator("#others-list")).not_to_contain_text("Ann")

    # Bob by keyboard alone: the same game, any number of players.
    bob.page.locator("#quick-variant").focus()
    bob.page.keyboard.press("Tab")
    bob.page.locator("#quick-players").select_option("any")
    bob.page.locator("#quick-run-rule").focus()
    bob.page.keyboard.press("Space")  # unticked: no run needed, as Ann asked
    bob.page.locator("#quick-go").focus()
    bob.page.keyboard.press("Enter")
    for person in (ann, bob):
        expect(person.page).to_have_url(re.compile(r"/t/[\w-]+$"))
        expect(person.page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    table = ann.page.url.rsplit("/", 1)[1]
    assert bob.page.url.endswith("/t/" + table)
    expect(ann.page.locator("#name-dialog")).not_to_be_visible()  # the lobby's name: no question at the table
    expect(ann.page.locator("#game-mode")).to_have_text("Rated game: hints are off.")
    expect(ann.page.locator("#btn-hint")).to_be_hidden()  # fair play: a game that counts gives no hints
    ann.page.locator("body").press("?")
    expect(ann.page.locator("#status")).to_have_text("Hints are off in rated games.")

    watch = cy.page.locator("#playing-list li", has_text="Ann").get_by_role("link")
    expect(watch).to_be_visible()
    watch.click()
    expect(cy.page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(cy.page.locator("#actions")).to_be_hidden()

    _play_to_the_end([ann, bob])
    for person in (ann, bob, cy):
        expect(person.page.locator("#winner")).to_be_visible()

    ann_page = _own_page(ann.page)
    expect(ann_page.locator("#player-ratings")).to_contain_text("(1 rated game)")
    expect(ann_page.locator("#charts svg")).to_have_count(1)
    expect(ann_page.locator("#games li")).to_have_count(1)
    expect(ann_page.locator("#games")).to_contain_text("Bob")
    bob_page = _own_page(bob.page)
    expect(bob_page.locator("#player-ratings")).to_contain_text("(1 rated game)")
    ratings = {
        name: int(re.sub(r"\D", "", re.search(r": ([\d,]+) ±", text).group(1)))  # type: ignore[union-attr]
        for name, text in (("Ann", ann_page.locator("#player-ratings").inner_text()),
                           ("Bob", bob_page.locator("#player-ratings").inner_text()))
    }  # fmt: skip
    assert ratings["Ann"] != ratings["Bob"]

    ann_page.screenshot(path=str(shots / "player-page.png"), full_page=True)
    assert serious_problems(ann_page, Axe()) == []  # with a chart, statistics and a finished game
    bob_page.screenshot(path=str(shots / "player-page-phone.png"), full_page=True)
    ann_page.locator("#games a", has_text="Replay").click()
    expect(ann_page.locator("#racks .replay-seat")).to_have_count(2)
    start = ann_page.locator("#step-label").inner_text()
    ann_page.keyboard.press("ArrowRight")
    expect(ann_page.locator("#step-label")).not_to_have_text(start)
    expect(ann_page.locator("#moves li")).not_to_have_count(0)
    expect(ann_page.locator("#moves")).not_to_contain_text("object")  # each move in words, its name isolated
    expect(ann_page.locator("#moves bdi").first).to_be_visible()
    ann_page.screenshot(path=str(shots / "replay.png"), full_page=True)
    assert serious_problems(ann_page, Axe()) == []

    cy.page.goto(server + "/ratings")
    expect(cy.page.locator("#ratings-board")).to_contain_text("Ann")
    expect(cy.page.locator("#ratings-board")).to_contain_text("Bob")
    expect(cy.page.locator("#ratings-board")).to_contain_text("master")
    cy.page.screenshot(path=str(shots / "ratings-nl.png"), full_page=True)

    ann.page.goto(server + "/")  # Bob asks for a rematch from his page; Ann, in the lobby, is told
    bob_page = _own_page(bob.page)
    bob_page.locator("#games button", has_text="Rematch").click()
    expect(bob_page).to_have_url(re.compile(r"/t/[\w-]+$"))
    expect(ann.page.locator("#problem")).to_contain_text("Bob asks for a rematch")
    ann.page.locator("#mine-list a").first.click()
    expect(ann.page).to_have_url(bob_page.url)
    expect(ann.page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))


def _own_page(page: Page) -> Page:
    parts = urlsplit(page.url)
    page.goto(f"{parts.scheme}://{parts.netloc}/")
    page.locator("#you a", has_text="Your page").click()
    expect(page).to_have_url(re.compile(r"/p/[\w-]+$"))
    return page


def test_a_player_moves_to_another_device_and_can_be_forgotten(
    server: str, chromium: Browser, people: list[Person]
) -> None:
    laptop, phone = Person(chromium), Person(chromium, **PHONE)
    people += [laptop, phone]
    laptop.page.goto(server + "/")
    _pick_name(laptop.page, "Dee")
    laptop.page.goto(server + "/me")
    laptop.page.locator("#transfer").click()
    link = laptop.page.locator("#transfer-link")
    expect(link).to_have_value(re.compile(r"/me/claim#code="))
    phone.page.goto(link.input_value())
    expect(phone.page.locator("#claim-status")).to_contain_text("Dee")
    phone.page.goto(server + "/")
    expect(phone.page.locator("#you")).to_contain_text("Dee")
    phone.page.goto(server + "/me")
    phone.page.once("dialog", lambda dialog: dialog.accept())
    phone.page.locator("#forget").click()
    expect(phone.page).to_have_url(server + "/")
    expect(phone.page.locator("#name-form")).to_be_visible()
    laptop.page.goto(server + "/")  # the laptop's key went with the player
    expect(laptop.page.locator("#name-form")).to_be_visible()


def test_one_person_in_two_browsers_plays_a_casual_game_and_the_table_says_why(
    server: str, chromium: Browser, people: list[Person], shots: Path
) -> None:
    first, second = Person(chromium, "203.0.113.40"), Person(chromium, "203.0.113.40", locale="fr-FR")
    people += [first, second]
    for person, name in ((first, "Ivo"), (second, "Jorinde")):
        person.page.goto(server + "/")
        _pick_name(person.page, name)
    form = {"variant": "classic", "players": 2, "seats": ["me", "person"], "public": True, "rated": True}
    made = first.context.request.post(server + "/api/tables", data=form).json()
    first.page.goto(server + "/t/" + made["table"])
    expect(first.page.locator("#game-mode")).to_have_text("Rated game: hints are off.")
    expect(first.page.locator("#btn-hint")).to_be_hidden()
    second.page.goto(server + "/")
    second.page.locator("#open-list li", has_text="Ivo").get_by_role("button").click()
    expect(second.page).to_have_url(re.compile(r"/t/[\w-]+$"))
    expect(second.page.locator("#game-mode")).to_contain_text("deux places jouent depuis une même adresse réseau")
    expect(first.page.locator("#game-mode")).to_have_text(
        "Casual game: two seats play from one network address, and such games are not rated."
    )
    expect(first.page.locator("#btn-hint")).to_be_visible()  # a casual game gives hints again
    first.page.screenshot(path=str(shots / "casual-one-address.png"))


def test_a_forgotten_player_s_seat_is_named_in_each_page_s_language(
    server: str, chromium: Browser, people: list[Person]
) -> None:
    leaving, staying = Person(chromium, "203.0.113.50"), Person(chromium, "198.51.100.50", locale="nl-NL")
    people += [leaving, staying]
    for person, name in ((leaving, "Kees"), (staying, "Lotte")):
        person.page.goto(server + "/")
        _pick_name(person.page, name)
    form = {"variant": "classic", "players": 2, "seats": ["me", "person"], "public": True}
    made = leaving.context.request.post(server + "/api/tables", data=form).json()
    staying.page.goto(server + "/")
    staying.page.locator("#open-list li", has_text="Kees").get_by_role("button").click()
    expect(staying.page.locator("#people-panel")).to_contain_text("Kees")
    leaving.page.goto(server + "/me")
    leaving.page.once("dialog", lambda dialog: dialog.accept())
    leaving.page.locator("#forget").click()
    expect(leaving.page).to_have_url(server + "/")
    expect(staying.page.locator("#people-panel")).to_contain_text("een vergeten speler")
    expect(staying.page.locator("#people-panel")).not_to_contain_text("Kees")
    staying.page.goto(server + "/t/" + made["table"])  # and after a reload, from the stored table
    expect(staying.page.locator("#people-panel")).to_contain_text("een vergeten speler")


def test_the_players_page_takes_no_press_before_it_knows_the_player_and_every_press_after(
    server: str, chromium: Browser, people: list[Person]
) -> None:
    person = Person(chromium)
    people.append(person)
    page = person.page
    page.goto(server + "/")
    _pick_name(page, "Gus")
    held: list[Any] = []  # the page's questions "who am I?", answered only when the test says so
    page.route("**/api/me", lambda route: held.append(route) if route.request.method == "GET" else route.continue_())
    page.goto(server + "/me", wait_until="domcontentloaded")
    for button in ("#transfer", "#forget", "#save", "#name"):  # a press now would be lost: nothing listens yet
        expect(page.locator(button)).to_be_disabled()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked who the player is"
    for route in held:
        route.continue_()
    page.unroute("**/api/me")
    page.locator("#transfer").click()  # waits until the page listens, then works
    expect(page.locator("#transfer-link")).to_have_value(re.compile(r"/me/claim#code="))
    expect(page.locator("#name")).to_have_value("Gus")


def test_online_lists_who_has_a_page_open_and_tells_two_people_of_one_name_apart(
    server: str, chromium: Browser, people: list[Person]
) -> None:
    first, second, watcher = (Person(chromium, f"198.51.100.{n}") for n in (71, 72, 73))
    people += [first, second, watcher]
    watcher.page.goto(server + "/")
    _pick_name(watcher.page, "Wim")
    first.page.goto(server + "/")
    _pick_name(first.page, "Zoë")
    online = watcher.page.locator("#online-list")
    expect(online).to_contain_text("Zoë")
    first.page.goto("about:blank")  # her last page closed: not online, and her name is free for another
    expect(online).not_to_contain_text("Zoë")
    second.page.goto(server + "/")
    _pick_name(second.page, "Zoë")
    first.page.goto(server + "/")  # she is back: two people of one name, each with the start of their id
    expect(online.locator("li", has_text="Zoë")).to_have_count(2)
    tags = online.locator(".id-tag").all_text_contents()
    assert len(tags) == 2 and tags[0] != tags[1] and all(tag.startswith("#") for tag in tags)


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_people_s_pages_have_no_serious_accessibility_problem_in_any_language(
    server: str, chromium: Browser, people: list[Person], language: str
) -> None:
    person = Person(chromium, locale={"en": "en-GB", "nl": "nl-NL", "fr": "fr-FR"}[language])
    people.append(person)
    page = person.page
    axe = Axe()
    problems: dict[str, list[str]] = {}
    page.goto(server + "/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    problems["lobby, no name"] = serious_problems(page, axe)
    name = {"en": "Eve", "nl": "Femke", "fr": "Gaëlle"}[language]  # all at once online: three names
    _pick_name(page, name)
    page.locator("#quick-go").click()
    expect(page.locator("#queues li")).to_have_count(1)
    problems["lobby, waiting"] = serious_problems(page, axe)
    for path in ("/new", "/ratings", "/me"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        problems[path] = serious_problems(page, axe)
    page.goto(server + "/")
    page.locator("#you a").first.click()
    expect(page.locator("#player-title")).to_have_text(name)
    problems["player"] = serious_problems(page, axe)
    assert {name: found for name, found in problems.items() if found} == {}


def test_the_lobby_on_a_phone_fits_the_screen(
    server: str, chromium: Browser, people: list[Person], shots: Path
) -> None:
    person = Person(chromium, **PHONE)
    people.append(person)
    page = person.page
    page.goto(server + "/")
    _pick_name(page, "Flo")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["viewport"]["width"], wide
    page.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_on_a_phone_a_new_person_is_asked_for_a_name_first_and_a_returning_player_sees_quick_play_first(
    server: str, chromium: Browser, people: list[Person], shots: Path, language: str
) -> None:
    person = Person(chromium, **PHONE_UPRIGHT, locale=LOCALES[language])
    people.append(person)
    page = person.page
    page.goto(server + "/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    first_panel = page.locator("#lobby > .panel").first
    expect(first_panel).to_have_id("who")  # no name yet: that comes first, its box and button in the first screen
    expect(page.locator("#name")).to_be_visible()
    assert in_first_screen(page, "#name") and in_first_screen(page, "#name-form button")
    page.screenshot(path=str(shots / f"lobby-new-phone-{language}.png"))
    _pick_name(page, {"en": "Nell", "nl": "Otto", "fr": "Paulette"}[language])
    expect(first_panel).to_have_id("quick")  # named: the way to play moves up at once

    page.goto(server + "/")  # a returning player: the way to play is the first thing on the screen
    expect(page.locator("#you")).to_be_visible()
    expect(first_panel).to_have_id("quick")
    assert in_first_screen(page, "#quick-go"), page.locator("#quick-go").bounding_box()
    page.screenshot(path=str(shots / f"lobby-returning-phone-{language}.png"))
    page.locator("#quick-go").tap()
    expect(page.locator("#queues li")).to_have_count(1)
    page.locator("#queues button").first.tap()  # cancelled: the next test's people find nobody waiting
    expect(page.locator("#queues li")).to_have_count(0)
