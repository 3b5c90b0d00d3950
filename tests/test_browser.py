"""`racko serve` in a real browser: Playwright drives Debian's Chromium against a real server process on 127.0.0.1.

People play as a person would, by clicks, taps and keys, reading only what the page shows: two people play a whole
round of classic Rack-O against each other while a spectator watches (whose page never holds a hidden card); a
reload in the middle of a turn resumes it; a phone plays a round against a computer player by taps; a turn is
played with the keyboard alone.  Screenshots go to ``$RACKO_SCREENSHOTS`` (default: a temporary folder).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from racko.play.text import rules_summary
from racko.rules import variant

CHROMIUM = "/usr/bin/chromium"
# As root and without a network, Chromium needs no sandbox and must not try to reach Google's services.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 15000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def _serving(folder: Path, *options: str) -> Iterator[str]:
    """A real `racko serve` process on 127.0.0.1, its computer players quick, ended (and waited for) afterwards."""
    port = _free_port()
    racko = Path(sys.executable).with_name("racko")  # the command the README's set-up installs beside python
    command = [str(racko), "serve", "--port", str(port), "--db", str(folder / "tables.sqlite3"), "--pace", "0.05"]
    process = subprocess.Popen([*command, *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(address + "/api/options", timeout=2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"racko serve did not start: {process.stderr.read()!r}") from None
                time.sleep(0.1)
        yield address
    finally:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with _serving(tmp_path_factory.mktemp("serve")) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), (
        f"{CHROMIUM} is missing: the README's test command installs it (Debian's chromium package)"
    )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("RACKO_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _new_table(server: str, **form: Any) -> dict[str, Any]:
    request = urllib.request.Request(
        server + "/api/tables", data=json.dumps(form).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return dict(json.load(answer))


def _link(server: str, table: dict[str, Any], seat: int | None) -> str:
    fragment = f"#seat={table['seats'][seat]['token']}" if seat is not None else ""
    return f"{server}/t/{table['table']}{fragment}"


def _open(browser: Browser, url: str, **context: Any) -> Page:
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    return page


def _sit_down(page: Page, name: str) -> None:
    page.locator("#name-input").fill(name)
    page.locator("#name-input").press("Enter")
    expect(page.locator("#name-dialog")).not_to_be_visible()


def _version(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-version") or 0)


def _situation(page: Page) -> str:
    return page.locator("#prompt").get_attribute("data-situation") or ""


def _cards(page: Page, selector: str) -> list[str]:
    return [text.strip() for text in page.locator(selector).all_text_contents()]


def _bucket(card: int, deck: int) -> int:
    """The slot a card belongs in when every slot holds a card of its own tenth of the deck (then the rack is in
    order): a simple way for a test to play rounds that end."""
    return (card - 1) * 10 // deck


def _play_a_turn(page: Page, deck: int, press: str = "click") -> None:
    """One whole turn by the bucket rule, through the page only: a pile, then a slot (or Discard)."""

    def use(selector: str) -> None:
        before = _version(page)
        target = page.locator(selector)
        target.tap() if press == "tap" else target.click()
        expect(page.locator("body")).not_to_have_attribute("data-version", str(before))

    rack = [int(card) for card in _cards(page, "#rack .slot .card")]
    top = int(_cards(page, "#discard .card")[0])
    wanted = _bucket(top, deck)
    if _bucket(rack[wanted], deck) != wanted:
        use("#discard")
        use(f"#rack .slot >> nth={wanted}")
        return
    use("#stock")
    if _situation(page) != "place-drawn":
        return  # the turn ended with the draw (the round ended meanwhile)
    held = int(_cards(page, "#held .card")[0])
    wanted = _bucket(held, deck)
    use(f"#rack .slot >> nth={wanted}" if _bucket(rack[wanted], deck) != wanted else "#btn-discard")


def _wait_for_turn_or_round_end(pages: list[Page]) -> Page | None:
    """The page whose turn it is, or None once a round-end report is open on every page."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if all(page.locator("#round-dialog").is_visible() for page in pages):
            return None
        for page in pages:
            if _situation(page) == "pick" and not page.locator("#round-dialog").is_visible():
                return page
        time.sleep(0.05)
    raise AssertionError("nobody's turn came and no round ended")


def _spectator_shows_only_public_cards(spectator: Page, players: list[Page]) -> None:
    """The spectator's page holds no rack, no card in hand, and of the other racks only cards that were taken face
    up from the discard pile (its own log says so), each where its owner really has it."""
    assert _cards(spectator, "#rack .card") == [] and _cards(spectator, "#held .card") == []
    log = " ".join(_cards(spectator, "#log li"))
    assert "drew from the stock (" not in log
    taken = {int(card) for card in re.findall(r"took (\d+) from the discard pile", log)}
    for seat, player in enumerate(players):
        shown = _cards(spectator, f'.other[data-seat="{seat}"] .rack .card')
        actual = _cards(player, "#rack .slot .card")
        assert len(shown) == 10
        for slot, card in enumerate(shown):
            if card != "?":
                assert int(card) in taken, (seat, slot, card)
                assert card == actual[slot], (seat, slot, card, actual[slot])
    assert "?" in "".join(_cards(spectator, ".other .rack .card"))  # hidden cards are drawn as backs


def test_two_people_play_a_whole_round_by_clicks_and_a_spectator_never_sees_a_hidden_card(
    server: str, browser: Browser, shots: Path
) -> None:
    table = _new_table(
        server, variant="classic", players=2, seats=["me", "person"], names=["Ann", ""], two_player_rule=False
    )
    ann = _open(browser, _link(server, table, 0), viewport={"width": 1280, "height": 860})
    bob = _open(browser, _link(server, table, 1), viewport={"width": 1280, "height": 860})
    _sit_down(bob, "Bob")
    spectator = _open(browser, _link(server, table, None), viewport={"width": 1024, "height": 768})
    expect(spectator.locator("#prompt")).to_have_text("You are watching.")
    players = [ann, bob]
    turns = 0
    while (page := _wait_for_turn_or_round_end(players)) is not None:
        _play_a_turn(page, deck=40)
        turns += 1
        if turns % 5 == 0:
            expect(spectator.locator("body")).to_have_attribute("data-version", str(_version(page)))
            _spectator_shows_only_public_cards(spectator, players)
        if turns == 6:
            ann.screenshot(path=str(shots / "desktop-table.png"), full_page=True)
            spectator.screenshot(path=str(shots / "desktop-spectator.png"), full_page=True)
        assert turns < 400
    for page in [*players, spectator]:
        report = page.locator("#round-dialog")
        expect(report).to_be_visible()
        expect(report.locator(".report-seat")).to_have_count(2)
        expect(report).to_contain_text("Round 1 is over")
    assert "went Rack-O" in ann.locator("#round-dialog").inner_text() or "turn cap" in " ".join(_cards(ann, "#log li"))
    ann.screenshot(path=str(shots / "desktop-round-over.png"), full_page=True)
    ann.locator("#round-ok").click()
    expect(ann.locator("#round-dialog")).not_to_be_visible()
    expect(ann.locator("#sheet table")).to_contain_text("Round 1")


def test_a_reload_in_the_middle_of_a_turn_resumes_it(server: str, browser: Browser) -> None:
    table = _new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"])
    page = _open(browser, _link(server, table, 0))
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")
    page.locator("#stock").click()
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "place-drawn")
    held, rack, version = _cards(page, "#held .card"), _cards(page, "#rack .slot .card"), _version(page)
    page.reload()
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "place-drawn")
    assert (_cards(page, "#held .card"), _cards(page, "#rack .slot .card"), _version(page)) == (held, rack, version)
    assert len(page.locator("#log li").all()) >= 3  # the log is back too, from the start of the game
    page.locator("#btn-discard").click()  # and play goes on
    expect(page.locator("#log")).to_contain_text(f"Ann discarded {held[0]}.")


def test_a_phone_plays_a_whole_round_against_a_computer_player_by_taps(
    server: str, browser: Browser, shots: Path
) -> None:
    table = _new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"], two_player_rule=False)
    phone = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
    page = _open(browser, _link(server, table, 0), **phone)
    slots = page.locator("#rack .slot")
    expect(slots).to_have_count(10)
    boxes = slots.evaluate_all("slots => slots.map((slot) => slot.getBoundingClientRect().toJSON())")
    assert len({round(box["top"]) for box in boxes}) == 1, "the rack is one row of ten on a phone"
    assert max(box["right"] for box in boxes) <= 375, "the rack fits the phone's width"
    turns = 0
    while (turn := _wait_for_turn_or_round_end([page])) is not None:
        _play_a_turn(turn, deck=40, press="tap")
        turns += 1
        if turns == 4:
            page.screenshot(path=str(shots / "phone-table.png"), full_page=True)
        assert turns < 400
    expect(page.locator("#round-dialog .report-seat")).to_have_count(2)
    page.screenshot(path=str(shots / "phone-round-over.png"), full_page=True)


def test_a_turn_by_keyboard_alone_with_a_visible_focus(server: str, browser: Browser, shots: Path) -> None:
    table = _new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Kim"])
    page = _open(browser, _link(server, table, 0))
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")
    version = _version(page)
    page.keyboard.press("t")  # take the discard …
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "place-taken")
    page.keyboard.press("5")  # … and put it in slot 25
    expect(page.locator("#log")).to_contain_text("Kim put")
    assert _version(page) >= version + 2
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")  # the computer player answered
    # The same with Tab and Enter only: the stock is reachable, and its focus is drawn.
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "stock":
            break
    else:
        raise AssertionError("Tab never reached the stock")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none"), "the focused control shows its focus"
    page.screenshot(path=str(shots / "keyboard-focus.png"))
    page.keyboard.press("Enter")
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "place-drawn")
    page.keyboard.press("Tab")  # from the stock, on to the rack's first open slot
    for _ in range(20):
        if page.evaluate("document.activeElement.classList.contains('slot')"):
            break
        page.keyboard.press("Tab")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("slot "), label
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text("Kim put")
    expect(page.locator("#prompt")).to_have_attribute("data-situation", re.compile("pick|waiting"))


def test_the_page_speaks_dutch_and_french_the_log_too(server: str, browser: Browser) -> None:
    table = _new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"])
    page = _open(browser, _link(server, table, 0), locale="nl-NL")
    expect(page.locator("#log li").first).to_have_text(re.compile(r"gaf iedereen tien kaarten|werd omgedraaid"))
    expect(page.locator("#prompt")).to_contain_text("aflegkaart")
    page.keyboard.press("?")
    expect(page.locator("#status")).to_contain_text(re.compile("beurten tot Rack-O|dat is Rack-O"))
    page.locator("#lang").select_option("fr")
    expect(page.locator("#prompt")).to_contain_text("défausse")
    expect(page.locator("#log")).to_contain_text("défausse")
    assert shutil.which("chromium")  # the suite ran on Debian's Chromium, as the README's test command installs it
    page.locator("#lang").select_option("en")
    page.locator("#rules-panel summary").click()
    shown = _cards(page, "#rules p")
    summary = "\n".join(rules_summary(variant("classic").rules(2))).split("\n\n")
    assert shown == [" ".join(paragraph.split()) for paragraph in summary]  # the same rules as the terminal's page


@pytest.mark.parametrize(
    ("variant", "seats"),
    [
        ("highlow", ["me", "easy", "expert"]),
        ("bonus", ["me", "easy", "expert"]),
        ("partners", ["me", "easy", "medium", "easy"]),
    ],
)
def test_a_round_of_every_other_variant_with_computer_players_at_the_table(
    server: str, browser: Browser, shots: Path, variant: str, seats: list[str]
) -> None:
    """High-Low's rows, Swaps and keep, Bonus Rack-O's call-or-wait, Partners' sides: a whole round by the page."""
    table = _new_table(server, variant=variant, players=len(seats), seats=seats, names=["Ann"])
    page = _open(browser, _link(server, table, 0), viewport={"width": 1280, "height": 900})
    answers = {"swap": "k", "declare": "r", "pick": "d", "pick-or-call": "r", "place-drawn": "x"}
    seen: set[str] = set()
    deadline = time.monotonic() + 120  # computer players think at their own speed, on a busy machine too
    while not page.locator("#round-dialog").is_visible():
        assert time.monotonic() < deadline, "the round did not end"
        situation = _situation(page)
        if situation == "waiting":
            time.sleep(0.03)
            continue
        seen.add(situation)
        before = _version(page)
        if situation in answers:
            page.keyboard.press(answers[situation])
        else:  # a card to place: the first slot or position the page offers
            page.locator("#rack .slot:enabled").first.click()
        expect(page.locator("body")).not_to_have_attribute("data-version", str(before))
    report = page.locator("#round-dialog")
    expect(report).to_be_visible()
    expect(report.locator(".report-seat")).to_have_count(len(seats))
    assert seen, "the person had at least one turn"
    if variant == "partners":
        expect(page.locator(".other h2", has_text="partner")).to_have_count(1)
        expect(page.locator("#sheet table tr")).to_have_count(3)  # a header and a row per side
    page.screenshot(path=str(shots / f"desktop-{variant}-round-over.png"), full_page=True)


def test_a_whole_game_ends_with_the_winner_a_record_to_download_and_play_again(
    server: str, browser: Browser, shots: Path, tmp_path: Path
) -> None:
    from racko.record import GameRecord, replay

    table = _new_table(
        server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"], target=50, two_player_rule=False
    )
    page = _open(browser, _link(server, table, 0))
    turns = 0
    while not page.locator("#game-over").is_visible():
        if page.locator("#round-dialog").is_visible():
            page.locator("#round-ok").click()
        if (turn := _wait_for_turn_or_round_end([page])) is not None:
            _play_a_turn(turn, deck=40)
        turns += 1
        assert turns < 1000
    expect(page.locator("#turn")).to_contain_text("Game over")
    expect(page.locator("#winner")).to_contain_text(re.compile("Ann|easy"))
    expect(page.locator("#round-report table.sheet")).to_be_visible()
    page.screenshot(path=str(shots / "desktop-game-over.png"), full_page=True)
    with page.expect_download() as download:
        page.locator("#download").click()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    record = GameRecord.load(saved)  # the record `racko replay` reads: the same game, to its end
    assert record.players == ("Ann", "easy") and replay(record).over
    page.locator("#again").click()
    expect(page.locator("#round-dialog")).not_to_be_visible()
    expect(page.locator("#scores")).to_contain_text("Ann: 0")
    expect(page.locator("#prompt")).to_have_attribute("data-situation", re.compile("pick|waiting"))


def test_a_seat_left_empty_is_handed_to_a_computer_player_once_the_others_have_waited(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    with _serving(tmp_path, "--away", "1") as quick:
        table = _new_table(quick, variant="classic", players=2, seats=["me", "person"], names=["Ann", "Bob"])
        page = _open(browser, _link(quick, table, 0))
        banner = page.locator("#away")
        expect(banner).to_contain_text("Bob has not come to the table")
        hand_over = banner.locator("button.hand-over")
        expect(hand_over).to_be_visible()  # once the second has passed (presence is asked every 2 seconds)
        page.screenshot(path=str(shots / "desktop-away.png"))
        hand_over.click()
        expect(banner).to_be_hidden()
        expect(page.locator(".other h2")).to_contain_text("Bob · medium")
        if _situation(page) == "waiting":  # Bob's seat was to act: the computer player now plays it
            expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")
