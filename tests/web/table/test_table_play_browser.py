"""`racko serve` in a real browser: Playwright drives Debian's Chromium against a real server process on 127.0.0.1.

People play as a person would, by clicks, taps and keys, reading only what the page shows: two people play a whole
round of classic Rack-O against each other while a spectator watches (whose page never holds a hidden card); a
reload in the middle of a turn resumes it; a phone plays a round against a computer player by taps; a turn is
played with the keyboard alone.  Screenshots go to ``$RACKO_SCREENSHOTS`` (default: a temporary folder).
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from browsing import (
    act_and_wait,
    cards,
    launch,
    link,
    new_table,
    open_page,
    play_a_turn,
    serving,
    sit_down,
    situation,
    version,
    wait_for_turn_or_round_end,
)
from racko.play.text import rules_summary
from racko.rules import variant


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("serve")) as address:
        yield address


@pytest.fixture
def browser() -> Iterator[Browser]:
    """A browser of its own for each test, closed with every page it opened."""
    with sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


def _spectator_shows_only_publiccards(spectator: Page, players: list[Page]) -> None:
    """The spectator's page holds no rack, no card in hand, and of the other racks only cards that were taken face
    up from the discard pile (its own log says so), each where its owner really has it."""
    assert cards(spectator, "#rack .card") == [] and cards(spectator, "#held .card") == []
    log = " ".join(cards(spectator, "#log li"))
    assert "drew from the stock (" not in log
    taken = {int(card) for card in re.findall(r"took (\d+) from the discard pile", log)}
    for seat, player in enumerate(players):
        shown = cards(spectator, f'.other[data-seat="{seat}"] .rack .card')
        actual = cards(player, "#rack .slot .card")
        assert len(shown) == 10
        for slot, card in enumerate(shown):
            if card != "?":
                assert int(card) in taken, (seat, slot, card)
                assert card == actual[slot], (seat, slot, card, actual[slot])
    assert "?" in "".join(cards(spectator, ".other .rack .card"))  # hidden cards are drawn as backs


def test_two_people_play_a_whole_round_by_clicks_and_a_spectator_never_sees_a_hidden_card(
    server: str, browser: Browser, shots: Path
) -> None:
    table = new_table(
        server, variant="classic", players=2, seats=["me", "person"], names=["Ann", ""], two_player_rule=False
    )
    ann = open_page(browser, link(server, table, 0), viewport={"width": 1280, "height": 860})
    bob = open_page(browser, link(server, table, 1), viewport={"width": 1280, "height": 860})
    sit_down(bob, "Bob")
    spectator = open_page(browser, link(server, table, None), viewport={"width": 1024, "height": 768})
    expect(spectator.locator("#prompt")).to_have_text("You are watching.")
    players = [ann, bob]
    turns = 0
    while (page := wait_for_turn_or_round_end(players)) is not None:
        play_a_turn(page, deck=40)
        turns += 1
        if turns % 5 == 0:
            expect(spectator.locator("body")).to_have_attribute("data-version", str(version(page)))
            _spectator_shows_only_publiccards(spectator, players)
        if turns == 6:
            ann.screenshot(path=str(shots / "desktop-table.png"), full_page=True)
            spectator.screenshot(path=str(shots / "desktop-spectator.png"), full_page=True)
        assert turns < 400
    for page in [*players, spectator]:
        report = page.locator("#round-dialog")
        expect(report).to_be_visible()
        expect(report.locator(".report-seat")).to_have_count(2)
        expect(report).to_contain_text("Round 1 is over")
    assert "went Rack-O" in ann.locator("#round-dialog").inner_text() or "turn cap" in " ".join(cards(ann, "#log li"))
    ann.screenshot(path=str(shots / "desktop-round-over.png"), full_page=True)
    ann.locator("#round-ok").click()
    expect(ann.locator("#round-dialog")).not_to_be_visible()
    expect(ann.locator("#sheet table")).to_contain_text("Round 1")


def test_a_reload_in_the_middle_of_a_turn_resumes_it(server: str, browser: Browser) -> None:
    table = new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"])
    page = open_page(browser, link(server, table, 0))
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")
    page.locator("#stock").click()
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "place-drawn")
    held, rack, seen = cards(page, "#held .card"), cards(page, "#rack .slot .card"), version(page)
    page.reload()
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "place-drawn")
    assert (cards(page, "#held .card"), cards(page, "#rack .slot .card"), version(page)) == (held, rack, seen)
    assert len(page.locator("#log li").all()) >= 3  # the log is back too, from the start of the game
    page.locator("#btn-discard").click()  # and play goes on
    expect(page.locator("#log")).to_contain_text(f"Ann discarded {held[0]}.")


def test_a_phone_plays_a_whole_round_against_a_computer_player_by_taps(
    server: str, browser: Browser, shots: Path
) -> None:
    table = new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"], two_player_rule=False)
    phone = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
    page = open_page(browser, link(server, table, 0), **phone)
    slots = page.locator("#rack .slot")
    expect(slots).to_have_count(10)
    boxes = slots.evaluate_all("slots => slots.map((slot) => slot.getBoundingClientRect().toJSON())")
    assert len({round(box["top"]) for box in boxes}) == 1, "the rack is one row of ten on a phone"
    assert max(box["right"] for box in boxes) <= 375, "the rack fits the phone's width"
    turns = 0
    while (turn := wait_for_turn_or_round_end([page])) is not None:
        play_a_turn(turn, deck=40, press="tap")
        turns += 1
        if turns == 4:
            page.screenshot(path=str(shots / "phone-table.png"), full_page=True)
        assert turns < 400
    expect(page.locator("#round-dialog .report-seat")).to_have_count(2)
    page.screenshot(path=str(shots / "phone-round-over.png"), full_page=True)


def test_a_turn_by_keyboard_alone_with_a_visible_focus(server: str, browser: Browser, shots: Path) -> None:
    table = new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Kim"])
    page = open_page(browser, link(server, table, 0))
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")
    before = version(page)
    page.keyboard.press("t")  # take the discard …
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "place-taken")
    page.keyboard.press("5")  # … and put it in slot 25, which the log names as the rack does (issue 52)
    expect(page.locator("#log")).to_contain_text(re.compile(r"Kim put \d+ into slot 25 and discarded"))
    assert version(page) >= before + 2
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
    table = new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"])
    page = open_page(browser, link(server, table, 0), locale="nl-NL")
    expect(page.locator("#log li").first).to_have_text(re.compile(r"gaf iedereen tien kaarten|werd omgedraaid"))
    expect(page.locator("#prompt")).to_contain_text("aflegkaart")
    page.keyboard.press("?")
    expect(page.locator("#hint")).to_contain_text(re.compile("wint deze zet het spel in ongeveer|Rack-O roepen"))
    page.locator("#lang").select_option("fr")
    expect(page.locator("#prompt")).to_contain_text("défausse")
    expect(page.locator("#log")).to_contain_text("défausse")
    assert shutil.which("chromium")  # the suite ran on Debian's Chromium, as the README's test command installs it
    page.locator("#lang").select_option("en")
    page.locator("#rules-panel summary").click()
    shown = cards(page, "#rules p")
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
    answers = {
        "swap": "#btn-keep",
        "declare": "#btn-racko",
        "pick": "#stock",
        "pick-or-call": "#btn-racko",
        "place-drawn": "#btn-discard",
    }
    seen: set[str] = set()
    # A deal may end the round before the person's first turn (High-Low: about 1 deal in 500): then another table.
    for _ in range(3):
        table = new_table(server, variant=variant, players=len(seats), seats=seats, names=["Ann"])
        page = open_page(browser, link(server, table, 0), viewport={"width": 1280, "height": 900})
        deadline = time.monotonic() + 120  # computer players think at their own speed, on a busy machine too
        while not page.locator("#round-dialog").is_visible():
            assert time.monotonic() < deadline, "the round did not end"
            now = situation(page)
            if now == "waiting":
                time.sleep(0.03)
                continue
            seen.add(now)
            # The button for the situation, or else a card to place: the first slot or position the page offers.
            act_and_wait(page, answers.get(now, "#rack .slot:enabled >> nth=0"))
        report = page.locator("#round-dialog")
        expect(report).to_be_visible()
        expect(report.locator(".report-seat")).to_have_count(len(seats))
        if seen:
            break
        page.context.close()
    assert seen, "the person had at least one turn"
    if variant == "partners":
        expect(page.locator(".other h2", has_text="partner")).to_have_count(1)
        expect(page.locator("#sheet table tr")).to_have_count(3)  # a header and a row per side
    page.screenshot(path=str(shots / f"desktop-{variant}-round-over.png"), full_page=True)


def test_a_whole_game_ends_with_the_winner_a_record_to_download_and_play_again(
    server: str, browser: Browser, shots: Path, tmp_path: Path
) -> None:
    from racko.record import GameRecord, replay

    table = new_table(
        server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"], target=50, two_player_rule=False
    )
    page = open_page(browser, link(server, table, 0))
    turns = 0
    while not page.locator("#game-over").is_visible():
        if page.locator("#round-dialog").is_visible():
            page.locator("#round-ok").click()
        if (turn := wait_for_turn_or_round_end([page])) is not None:
            play_a_turn(turn, deck=40)
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
    with serving(tmp_path, "--away", "1") as quick:
        table = new_table(quick, variant="classic", players=2, seats=["me", "person"], names=["Ann", "Bob"])
        page = open_page(browser, link(quick, table, 0))
        spectator = open_page(browser, link(quick, table, None))
        banner = page.locator("#away")
        expect(banner).to_contain_text("Bob has not come to the table")
        hand_over = banner.locator("button.hand-over")
        expect(hand_over).to_be_visible()  # once the second has passed (presence is asked every 2 seconds)
        page.screenshot(path=str(shots / "desktop-away.png"))
        # A spectator is told who is here, but hands no seat over and is not asked to.
        expect(spectator.locator("#people")).to_contain_text("invited, not here yet")
        spectator.wait_for_timeout(2500)  # a presence frame later (one every 2 seconds): Bob's time is up for it too
        expect(spectator.locator("#away")).to_be_hidden()
        expect(spectator.locator("button.hand-over")).to_have_count(0)
        spectator.context.close()
        hand_over.click()
        expect(banner).to_be_hidden()
        expect(page.locator(".other h2")).to_contain_text("Bob · medium")
        if situation(page) == "waiting":  # Bob's seat was to act: the computer player now plays it
            expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")
