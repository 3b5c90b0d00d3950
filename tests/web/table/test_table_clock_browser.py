"""Real-time clocks on the pages (issue 39), in Debian's Chromium against a real `racko serve`: every person's time
left at a table with a clock (counting down for the seat to act only, on a desktop and a phone), the warning before a
turn runs out and the move a computer player then makes, a gone seat as everybody sees it and its person's "I'm
back", the speed chosen on the start page and in quick play reaching the table, and no clock where a table has none.

The server's clock is the real one.  A table whose turn is about to run out is written to the server's database as
the server keeps a table (its set-up with a clock started some seconds ago, its journal with the times its actions
were played and by whom), so that the page meets a turn with a few seconds left without a test waiting for the
fast speed's 45 seconds or the server having a way to shorten time.  Screenshots go to ``$RACKO_SCREENSHOTS``.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browsing import DESKTOP, PHONE, WAIT_MS, link, new_table, played_game, serious_problems, serving, sit_down
from racko.web.clock import PRESETS, WARN_SECONDS
from racko.web.store import SqliteTables
from racko.web.table import token_hash

FAST = PRESETS["fast"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("clocks")
    with serving(folder, "--quick-wait", "1") as address:
        yield address, folder / "tables.sqlite3"


class Person:
    """A page in a browser context of its own, with the frames it received."""

    def __init__(self, browser: Browser, **context: Any) -> None:
        self.context = browser.new_context(**context)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []

        def watch(socket: Any) -> None:
            socket.on("framereceived", lambda payload: self.received.append(json.loads(payload)))
            socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

        self.page.on("websocket", watch)

    def open(self, url: str, *, table: bool = True) -> Page:
        self.page.goto(url)
        if table:
            expect(self.page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
        return self.page

    def clocks(self) -> list[dict[str, Any]]:
        """The clock of every state and presence frame received so far."""
        return [frame["clock"] for frame in self.received if frame.get("type") in ("state", "presence")]


@pytest.fixture
def person(chromium: Browser) -> Iterator[Any]:
    made: list[Person] = []

    def make(**context: Any) -> Person:
        made.append(Person(chromium, **context))
        return made[-1]

    yield make
    for one in made:
        one.context.close()


def _left(page: Page, selector: str) -> int:
    return int(page.locator(selector).get_attribute("data-left") or -1)


def _timer(seat: int) -> str:
    return f'.other[data-seat="{seat}"] .timer'


# --- a table with a clock ---------------------------------------------------------------------------------------------


def test_every_person_s_time_shows_and_only_the_seat_to_act_counts_down_on_a_desktop_and_a_phone(
    served: tuple[str, Path], person: Any, shots: Path
) -> None:
    server, _ = served
    table = new_table(
        server, variant="classic", players=2, seats=["me", "person"], names=["Ann", "Bob"], two_player_rule=False,
        clock="fast",
    )  # fmt: skip
    ann, bob = person(**DESKTOP), person(**PHONE)
    ann_page = ann.open(link(server, table, 0))
    waits = "Clock: fast, 15 s a move (it starts once everybody has sat down)"
    expect(ann_page.locator("#clock-mode")).to_have_text(waits)
    bob_page = bob.open(link(server, table, 1))
    sit_down(bob_page, "Bob")
    expect(ann_page.locator("#clock-mode")).to_have_text("Clock: fast, 15 s a move")
    whole = int(FAST.move + FAST.bank)
    acting, waiting = (ann_page, bob_page) if ann.received and _to_act(ann) == 0 else (bob_page, ann_page)
    seat = 0 if acting is ann_page else 1
    # The seat to act: its own clock runs (highlighted), the other's stands still at its whole time.
    mine = acting.locator("#my-timer")
    expect(mine).to_have_class(re.compile(r"\brunning\b"))
    expect(mine.locator(".sr")).to_have_text("Time left, running:")
    expect(acting.locator(_timer(1 - seat))).not_to_have_class(re.compile(r"\brunning\b"))
    expect(acting.locator(_timer(1 - seat) + " .digits")).to_have_text(f"0:{whole}")
    first = _left(acting, "#my-timer")
    assert 0 < first <= whole
    # Everybody sees it: the other page shows the same seat's clock running, its own standing.
    expect(waiting.locator(_timer(seat))).to_have_class(re.compile(r"\brunning\b"))
    expect(waiting.locator("#my-timer .digits")).to_have_text(f"0:{whole}")
    expect(waiting.locator("#my-timer")).not_to_have_class(re.compile(r"\brunning\b"))
    acting.wait_for_timeout(2200)
    assert _left(acting, "#my-timer") <= first - 2
    assert abs(_left(waiting, _timer(seat)) - _left(acting, "#my-timer")) <= 1
    expect(acting.locator(_timer(1 - seat) + " .digits")).to_have_text(f"0:{whole}")
    expect(waiting.locator("#my-timer .digits")).to_have_text(f"0:{whole}")
    # The frames say the same: the fast speed, the seat to act's clock running.
    running = [clock["running"] for clock in (ann.clocks() + bob.clocks()) if clock and clock["started"]]
    assert running and set(running) == {seat}
    assert {clock["preset"] for clock in ann.clocks() + bob.clocks()} == {"fast"}
    # The bank shows on a desktop (and is hidden on a phone, where the seat's line is short).
    if acting is ann_page:
        expect(ann_page.locator("#my-timer .bank")).to_have_text(re.compile(r"^bank 0:\d\d$"))
    else:
        expect(ann_page.locator(_timer(1) + " .bank")).to_have_text(re.compile(r"^bank 0:\d\d$"))
    expect(bob_page.locator("#my-timer .bank")).to_be_hidden()
    ann_page.screenshot(path=str(shots / "clock-desktop.png"))
    bob_page.screenshot(path=str(shots / "clock-phone.png"))
    _fits(bob_page)
    for page in (ann_page, bob_page):
        assert serious_problems(page, Axe()) == []

    # A turn played: the other seat's clock runs now, the first one's stands with what its bank kept.
    acting.locator("#stock").click()
    expect(acting.locator("#prompt")).to_have_attribute("data-situation", "place-drawn")
    acting.locator("#btn-discard").click()
    expect(acting.locator("#my-timer")).not_to_have_class(re.compile(r"\brunning\b"))
    expect(acting.locator(_timer(1 - seat))).to_have_class(re.compile(r"\brunning\b"))
    expect(waiting.locator("#my-timer")).to_have_class(re.compile(r"\brunning\b"))
    # In the page's language.
    ann_page.locator("#lang").select_option("nl")
    expect(ann_page.locator("#clock-mode")).to_have_text("Klok: snel, 15 s per zet")
    expect(ann_page.locator("#my-timer .sr")).to_have_text(re.compile("^Tijd over"))


def _to_act(who: Person) -> int | None:
    states = [frame for frame in who.received if frame.get("type") == "state"]
    return states[-1]["view"]["to_act"] if states else None


def _fits(page: Page) -> None:
    """Nothing sticks out sideways, and the seats' lines keep their clocks in view."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # type: ignore[index]
    for timer in page.locator(".timer:visible").all():
        box = timer.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]  # type: ignore[index]


# --- a turn that runs out, a gone seat ------------------------------------------------------------------------------


class ClockedGame:
    """A 2-player classic game played by computer players, to write tables at its positions with a fast clock."""

    def __init__(self) -> None:
        self.rules, self.actions, _ = played_game("classic", ["Ann", "Bob"], ["easy", "easy"], 3, two_player_rule=False)

    def turns(self) -> list[tuple[int, int, int]]:
        """The first round's turns: (seat, first action, end), in order."""
        found: list[tuple[int, int, int]] = []
        for index, action in enumerate(self.actions):
            if found and found[-1][0] == action["seat"]:
                found[-1] = (found[-1][0], found[-1][1], index + 1)
            else:
                found.append((action["seat"], index, index + 1))
            if action["act"] == "racko":
                break
        return found

    def file(
        self, db: Path, turns: int, *, started: float, bob: str | None, by_clock: tuple[int, ...] = ()
    ) -> dict[str, Any]:
        """A table after the first ``turns`` turns, every action played at ``started`` (the clock started then);
        ``bob``: seat 1's computer level, or ``None`` for a person; ``by_clock``: the turns the clock played."""
        table_id = "t" + secrets.token_urlsafe(8)
        tokens = [secrets.token_urlsafe(24), secrets.token_urlsafe(24) if bob is None else None]
        setup = {
            "rules": self.rules.to_dict(),
            "seed": 3,
            "game": 1,
            "clock": "fast",
            "clock_from": started,
            "seats": [
                {"name": name, "bot": level, "token": token_hash(token) if token else None, "joined": True}
                for name, level, token in zip(["Ann", bob or "Bob"], [None, bob], tokens, strict=True)
            ],
        }
        store = SqliteTables(db)
        try:
            store.create(table_id, setup)
            for number, (_, first, end) in enumerate(self.turns()[:turns]):
                by = "clock" if number in by_clock else None
                store.append(table_id, first, self.actions[first:end], at=started, by=by)
        finally:
            store.close()
        return {"table": table_id, "seats": [{"seat": k, "token": token} for k, token in enumerate(tokens)]}

    def before_turn_of(self, seat: int, count: int = 1) -> int:
        """How many turns come before ``seat``'s ``count``-th turn."""
        seen = 0
        for number, (who, _, _) in enumerate(self.turns()):
            if who == seat:
                seen += 1
                if seen == count:
                    return number
        raise AssertionError("no such turn")


@pytest.fixture(scope="module")
def clocked_game() -> ClockedGame:
    return ClockedGame()


def test_a_person_who_does_not_move_is_warned_then_a_computer_player_moves_for_them(
    served: tuple[str, Path], person: Any, clocked_game: ClockedGame, shots: Path
) -> None:
    server, db = served
    # Ann's first turn (her bank untouched) began 31 s ago: 14 s left, the warning 4 s from now.
    turns = clocked_game.before_turn_of(0)
    table = clocked_game.file(db, turns, started=time.time() - (FAST.move + FAST.bank - 14), bob="easy")
    ann = person(**DESKTOP)
    page = ann.open(link(server, table, 0))
    expect(page.locator("#my-timer")).to_have_class(re.compile(r"\brunning\b"))
    assert 10 <= _left(page, "#my-timer") <= 14
    expect(page.locator(_timer(1))).to_be_hidden()  # a computer player has no clock
    # The warning: under the rack (read out), in the tab's title, sounded; the clock red.
    expect(page.locator("#status")).to_have_text(re.compile(r"^Hurry: (10|9|8) s left for your turn"), timeout=8000)
    expect(page.locator("body")).to_have_attribute("data-warnings", "1")
    expect(page).to_have_title(re.compile("^⏰ Hurry · "))
    expect(page.locator("#my-timer")).to_have_class(re.compile(r"\blow\b"))
    assert _left(page, "#my-timer") <= WARN_SECONDS
    assert next(frame for frame in ann.received if frame["type"] == "clock-warning")["seat"] == 0
    page.screenshot(path=str(shots / "clock-warning-desktop.png"))
    assert serious_problems(page, Axe()) == []
    # Nobody moved: at the deadline a computer player played Ann's turn, and the page says so.
    played = "Your time ran out: a computer player played your turn."
    expect(page.locator("#status")).to_have_text(played, timeout=15000)
    assert not [frame for frame in ann.sent if frame.get("type") == "act"]
    assert any(entry.get("seat") == 0 for frame in ann.received if frame["type"] == "state" for entry in frame["log"])
    # Her bank spent, her next turn has the move's seconds only.
    expect(page.locator("#my-timer")).to_have_attribute("data-left", re.compile(r"^1[0-5]$"))
    expect(page.locator("#my-timer")).to_have_class(re.compile(r"\brunning\b"))


def test_a_gone_seat_shows_to_everyone_and_its_person_takes_it_back_by_keyboard(
    served: tuple[str, Path], person: Any, clocked_game: ClockedGame, shots: Path
) -> None:
    server, db = served
    # The clock played Ann's first two turns: she is gone, and it is Bob's turn.
    ann_turns = [n for n, (seat, _, _) in enumerate(clocked_game.turns()) if seat == 0][:2]
    turns = ann_turns[1] + 1  # turns alternate: Bob's is next
    table = clocked_game.file(db, turns, started=time.time() - 1, bob=None, by_clock=tuple(ann_turns))
    ann, bob = person(**PHONE), person(**DESKTOP)
    ann_page = ann.open(link(server, table, 0))
    bob_page = bob.open(link(server, table, 1))
    expect(bob_page.locator(_timer(0))).to_have_class(re.compile(r"\bgone\b"))
    expect(bob_page.locator(_timer(0))).to_have_text("gone: a computer plays")
    expect(bob_page.locator("#people")).to_contain_text("Ann: here · gone: a computer plays")
    expect(bob_page.locator("#my-timer")).to_have_class(re.compile(r"\brunning\b"))
    expect(ann_page.locator("#my-timer")).to_have_text("gone: a computer plays")
    box = ann_page.locator("#gone-box")
    expect(box).to_be_visible()
    expect(box).to_contain_text("You ran out of time twice")
    ann_page.screenshot(path=str(shots / "clock-gone-phone.png"))
    bob_page.screenshot(path=str(shots / "clock-gone-desktop.png"))
    _fits(ann_page)
    for page in (ann_page, bob_page):
        assert serious_problems(page, Axe()) == []
    # By keyboard: Tab reaches the button, Enter sends "back".
    ann_page.locator("#react-toggle").focus()
    ann_page.keyboard.press("Tab")
    expect(ann_page.locator("#back")).to_be_focused()
    ann_page.keyboard.press("Enter")
    expect(box).to_be_hidden()
    assert {"type": "back"} in ann.sent
    expect(bob_page.locator(_timer(0))).not_to_have_class(re.compile(r"\bgone\b"))
    expect(bob_page.locator(_timer(0) + " .digits")).to_have_text(re.compile(r"^\d:\d\d$"))
    expect(ann_page.locator("#my-timer .digits")).to_have_text(re.compile(r"^\d:\d\d$"))


# --- choosing the speed -----------------------------------------------------------------------------------------------


def test_the_start_page_offers_the_speeds_with_their_numbers_and_the_table_gets_the_one_chosen(
    served: tuple[str, Path], person: Any
) -> None:
    server, _ = served
    maker = person(**DESKTOP)
    page = maker.open(server + "/new", table=False)
    speed = page.locator("#clock")
    expect(speed.locator("option")).to_have_text([
        "No clock (casual only)", "Fast: 15 s a move + 30 s bank", "Normal: 30 s a move + 60 s bank",
        "Slow: 60 s a move + 120 s bank", "1 day a move", "2 days a move", "3 days a move", "7 days a move",
    ])  # fmt: skip
    expect(speed.locator("optgroup")).to_have_count(2)
    expect(speed).to_have_value("none")
    page.locator("#rated").check()  # a rated table always has a clock
    expect(speed).to_have_value("normal")
    expect(speed.locator('option[value="none"]')).to_be_disabled()
    page.locator("#rated").uncheck()
    expect(speed.locator('option[value="none"]')).to_be_enabled()
    expect(speed).to_have_value("normal")  # the speed chosen stays
    assert serious_problems(page, Axe()) == []
    speed.focus()
    page.keyboard.press("ArrowUp")  # by keyboard: the speed above, fast
    expect(speed).to_have_value("fast")
    page.locator("#create").click()
    page.locator("#go").click()
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(page.locator("#clock-mode")).to_have_text("Clock: fast, 15 s a move")
    expect(page.locator("#my-timer")).to_be_visible()
    assert {clock["preset"] for clock in maker.clocks()} == {"fast"}

    # No clock: none is shown, and the frames say there is none.
    page.goto(server + "/new")
    page.locator("#create").click()
    page.locator("#go").click()
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(page.locator(".timer:visible")).to_have_count(0)
    expect(page.locator("#clock-mode")).to_be_hidden()
    states = [frame for frame in maker.received if frame["type"] == "state"]
    assert states[-1]["clock"] is None


def test_the_start_page_chooses_days_per_move_and_the_table_shows_the_time_left_in_days_and_hours(
    served: tuple[str, Path], person: Any, shots: Path
) -> None:
    server, _ = served
    maker = person(**DESKTOP)
    page = maker.open(server + "/new", table=False)
    speed = page.locator("#clock")
    expect(speed.locator('optgroup[label="Turn-based (days per move)"] option')).to_have_count(4)
    speed.select_option("days-2")
    page.locator("#rated").check()  # a rated table may be turn-based: the speed chosen stays
    expect(speed).to_have_value("days-2")
    assert serious_problems(page, Axe()) == []
    page.locator("#create").click()
    page.locator("#go").click()
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(page.locator("#clock-mode")).to_have_text("Clock: 2 days a move (turn-based)")
    # The person's clock runs once the computer player has moved: two days, shown as days and hours, no bank.
    expect(page.locator("#my-timer")).to_have_class(re.compile(r"\brunning\b"))
    expect(page.locator("#my-timer .digits")).to_have_text(re.compile(r"^(2 d 0 h|1 d 23 h)$"))
    expect(page.locator("#my-timer .bank")).to_have_text("")
    assert {clock["preset"] for clock in maker.clocks()} == {"days-2"}
    assert all(clock["days"] == 2 and clock["banks"] == [0.0, 0.0] for clock in maker.clocks())
    assert serious_problems(page, Axe()) == []
    page.screenshot(path=str(shots / "turn-based-desktop.png"))
    # On a phone, in Dutch, the same clock fits the seat's line.
    phone = person(**PHONE, locale="nl-NL")
    phone_page = phone.open(page.url)
    expect(phone_page.locator("#clock-mode")).to_have_text("Klok: 2 dagen per zet (beurt voor beurt)")
    expect(phone_page.locator("#my-timer .digits")).to_have_text(re.compile(r"^(2 d 0 u|1 d 23 u)$"))
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    assert serious_problems(phone_page, Axe()) == []
    phone_page.screenshot(path=str(shots / "turn-based-phone.png"))


def test_the_lobby_and_the_player_s_page_list_the_person_s_move_first_with_the_time_left(
    served: tuple[str, Path], person: Any
) -> None:
    server, _ = served
    ann = person(**PHONE)
    page = ann.open(server + "/", table=False)
    page.locator("#name").fill("Ann")
    page.locator("#name").press("Enter")
    expect(page.locator("#you")).to_contain_text("Ann")
    expect(page.locator("#mine-list")).to_contain_text("No table yet.")
    # Two tables of Ann's: a turn-based one where she is to move, a real-time one waiting for a friend's link.
    page.goto(server + "/new")
    page.locator("#seat-1").select_option("person")
    page.locator("#create").click()
    expect(page.locator("#go")).to_be_visible()
    page.goto(server + "/new")
    page.locator("#seat-1").select_option(index=1)  # a computer player
    page.locator("#clock").select_option("days-1")
    page.locator("#create").click()
    page.locator("#go").click()
    expect(page.locator("#my-timer")).to_have_class(re.compile(r"\brunning\b"))
    page.goto(server + "/")
    lines = page.locator("#mine-list li")
    expect(lines).to_have_count(2)
    expect(lines.first.locator(".your-move")).to_have_text(re.compile(r"^your move: (1 d 0 h|23 h 59 min) left$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert serious_problems(page, Axe()) == []
    page.goto(server + "/me")
    mine = page.locator("#tables-list li")
    expect(mine).to_have_count(2)
    expect(mine.first.locator(".your-move")).to_have_text(re.compile(r"^your move: (1 d 0 h|23 h 59 min) left$"))
    mine.first.locator("a").focus()  # by keyboard: the line's link opens the table
    page.keyboard.press("Enter")
    expect(page.locator("#clock-mode")).to_have_text("Clock: 1 day a move (turn-based)")
    page.goto(server + "/me")
    expect(mine).to_have_count(2)
    assert serious_problems(page, Axe()) == []


def test_quick_play_sends_the_speed_chosen_shows_it_while_waiting_and_the_table_has_it(
    served: tuple[str, Path], person: Any
) -> None:
    server, _ = served
    player = person(**PHONE)
    page = player.open(server + "/", table=False)
    page.locator("#name").fill("Cleo")
    page.locator("#name").press("Enter")
    expect(page.locator("#you")).to_contain_text("Cleo")
    speed = page.locator("#quick-clock")
    expect(speed).to_have_value("normal")
    expect(speed.locator('optgroup[label="Real time"] option')).to_have_text([
        "Fast: 15 s a move + 30 s bank", "Normal: 30 s a move + 60 s bank", "Slow: 60 s a move + 120 s bank",
    ])  # fmt: skip
    expect(speed.locator('optgroup[label="Turn-based (days per move)"] option')).to_have_text([
        "1 day a move", "2 days a move", "3 days a move", "7 days a move",
    ])  # fmt: skip
    page.locator("#quick-rated").uncheck()
    speed.select_option("slow")
    page.locator("#quick-go").click()
    expect(page.locator("#queues")).to_contain_text(re.compile(r"Waiting for .*, slow: 1 waiting"))
    assert [frame for frame in player.sent if frame.get("type") == "quick"][-1]["clock"] == "slow"
    page.locator("#queues button", has_text="Play with computer players").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+$"))
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(page.locator("#clock-mode")).to_have_text("Clock: slow, 60 s a move")
    assert {clock["preset"] for clock in player.clocks() if clock} == {"slow"}
