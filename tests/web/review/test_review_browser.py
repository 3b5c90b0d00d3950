"""The review in a real browser (Debian's Chromium against a real `racko serve` on 127.0.0.1): a player plays a round
by clicks, opens the review of their moves in a tab of its own while the table plays on, sees the progress bar and
then the decisions with their classes in words; a whole game's review shows its progress as it runs; the page is
axe-clean and works by keyboard in English, Dutch and French, on a phone too.  The server reviews with few play-outs
(``--review-playouts``): these tests check the page and its plumbing, not the review's judgement."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browsing import (
    DESKTOP,
    PHONE,
    file_table,
    link,
    new_table,
    open_page,
    play_a_turn,
    played_game,
    serious_problems,
    serving,
    wait_for_turn_or_round_end,
)

CLASS_WORDS = re.compile(r"best|good|inaccuracy|mistake|blunder")
REVIEW_WAIT_MS = 90000
"""A review runs in a worker process started when first needed, on a machine other tests share."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("serve")
    with serving(folder, "--review-playouts", "2") as address:
        yield address, folder / "tables.sqlite3"


@pytest.fixture(scope="module")
def finished_game(served: tuple[str, Path]) -> str:
    """A finished 150-point game of two people at the server: its review page."""
    server, db = served
    rules, actions, record = played_game("classic", ["Ann", "Bob"], ["hard", "easy"], seed=5, target=150)
    table = file_table(db, rules, 5, ["Ann", "Bob"], [None, None], actions, finished=record)
    return f"{server}/t/{table['table']}/review?game=1"


def _decisions_shown(page: Page) -> None:
    expect(page.locator("#moves .decision").first).to_be_visible(timeout=REVIEW_WAIT_MS)


def test_after_a_round_a_player_reviews_their_moves_in_a_tab_of_its_own_and_the_table_plays_on(
    served: tuple[str, Path], chromium: Browser, shots: Path
) -> None:
    server, _ = served
    table = new_table(
        server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"], target=100, two_player_rule=False
    )
    page = open_page(chromium, link(server, table, 0))
    turns = 0
    while (turn := wait_for_turn_or_round_end([page])) is not None:
        play_a_turn(turn, deck=40)
        turns += 1
        assert turns < 400
    review_link = page.locator("#review-link")
    expect(review_link).to_have_text("Review your moves of this round")
    page.screenshot(path=str(shots / "review-link-at-the-round-s-end.png"))
    with page.context.expect_page() as opened:
        review_link.click()
    review = opened.value
    review.set_default_timeout(REVIEW_WAIT_MS)
    expect(review.locator("#review-bar")).to_be_visible()
    expect(review.locator("#review-progress-text")).to_have_text(re.compile(r"Starting|Waiting|Reviewing: \d+ of \d+"))
    _decisions_shown(review)
    expect(review.locator("#review-progress")).to_be_hidden()
    expect(review.locator("#review-scope")).to_contain_text("Round 1 · Your own moves only")
    expect(review.locator("#summary li")).to_have_count(1)
    expect(review.locator("#summary li")).to_contain_text("Ann")
    for badge in review.locator("#moves .decision .decision-head .badge").all():
        expect(badge).to_have_text(CLASS_WORDS)  # the class in words, beside its colour
    expect(review.locator("#chart-box svg polyline")).to_have_count(1)
    review.screenshot(path=str(shots / "review-round-desktop.png"), full_page=True)
    # The table did not wait: the next round is played there as before.
    page.bring_to_front()
    page.locator("#round-ok").click()
    expect(page.locator("#round-dialog")).not_to_be_visible()
    turn = wait_for_turn_or_round_end([page])
    assert turn is not None
    before = turn.locator("body").get_attribute("data-version")
    play_a_turn(turn, deck=40)
    assert turn.locator("body").get_attribute("data-version") != before


def test_a_whole_game_s_review_shows_its_progress_then_every_player_round_by_round(
    served: tuple[str, Path], chromium: Browser
) -> None:
    server, db = served
    rules, actions, record = played_game("classic", ["Ann", "Bob"], ["easy", "easy"], seed=3, target=500)
    table = file_table(db, rules, 3, ["Ann", "Bob"], [None, None], actions, finished=record)
    page = chromium.new_context(**DESKTOP).new_page()
    page.set_default_timeout(REVIEW_WAIT_MS)
    # Every text the progress shows, and every text its live region tells a screen reader, in order.
    page.add_init_script(
        """document.addEventListener("DOMContentLoaded", () => {
          window.progressTexts = { shown: [], said: [] };
          for (const [key, id] of [["shown", "review-progress-text"], ["said", "review-progress-said"]]) {
            const node = document.getElementById(id);
            new MutationObserver(() => window.progressTexts[key].push(node.textContent))
              .observe(node, { childList: true, characterData: true, subtree: true });
          }
        });"""
    )
    page.goto(f"{server}/t/{table['table']}/review?game=1")
    expect(page.locator("#review-progress-text")).to_have_text(re.compile(r"Reviewing: [1-9]\d* of \d+ decisions"))
    bar = page.locator("#review-bar")
    assert 0 < float(bar.evaluate("bar => bar.value")) < float(bar.evaluate("bar => bar.max"))
    _decisions_shown(page)
    texts = page.evaluate("window.progressTexts")
    # The live region speaks at the start, at each quarter and on a change of state, not at each of the many polls.
    assert 1 <= len(texts["said"]) <= 6 and set(texts["said"]) <= set(texts["shown"]), texts
    counts = [re.fullmatch(r"Reviewing: (\d+) of (\d+) decisions", said) for said in texts["said"]]
    quarters = [4 * int(found[1]) // int(found[2]) for found in counts if found]
    assert quarters == sorted(set(quarters)), texts  # one telling a quarter, however many polls it took
    expect(page.locator("#summary li")).to_have_count(2)
    expect(page.locator("#chart-box svg polyline")).to_have_count(2)
    # Graded as racko review grades 2-player games (issue 37), and saying so: the chance to win the game.
    measure = page.locator("#review-measure")
    expect(measure).to_have_text(re.compile(r"^A move is judged by its chance to win the game "))
    expect(page.locator("#chart-caption")).to_have_text("Chance to win the game, move by move")
    expect(page.locator(".review-help")).to_contain_text("a tenth of what its round is worth in the game")
    figures = page.locator("#moves .decision .figures").first
    expect(figures).to_contain_text(re.compile(r"Chance to win the game(:| after this move:) \d+(\.\d)?%"))
    rounds = page.locator("#round-choice option")
    assert rounds.count() >= 3
    page.locator("#round-choice").select_option(str(rounds.count()))
    expect(page.locator("#moves-title")).to_have_text(f"The decisions of round {rounds.count()}")


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_review_page_is_axe_clean_works_by_keyboard_and_fits_a_phone(
    finished_game: str, chromium: Browser, shots: Path, language: str
) -> None:
    locale = {"en": "en-GB", "nl": "nl-NL", "fr": "fr-FR"}[language]
    for screen, context in (("desktop", DESKTOP), ("phone", PHONE)):
        page = chromium.new_context(**context, locale=locale).new_page()
        page.set_default_timeout(REVIEW_WAIT_MS)
        page.goto(finished_game)
        _decisions_shown(page)
        expect(page.locator("html")).to_have_attribute("lang", language)
        game = {"en": "to win the game", "nl": "het spel te winnen", "fr": "gagner la partie"}[language]
        expect(page.locator("#review-measure")).to_contain_text(game)
        assert serious_problems(page, Axe()) == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= context["viewport"]["width"], f"the page scrolls sideways on the {screen}"  # type: ignore[index]
        page.screenshot(path=str(shots / f"review-game-{screen}-{language}.png"), full_page=True)
    # By keyboard: to the round, another round by the arrow keys, then only the costly decisions.
    page.locator("#round-choice").focus()
    title = page.locator("#moves-title").text_content()
    page.keyboard.press("ArrowDown")
    expect(page.locator("#moves-title")).not_to_have_text(title or "")
    page.keyboard.press("Tab")
    expect(page.locator("#costly-only")).to_be_focused()
    page.keyboard.press("Space")
    for decision in page.locator("#moves .decision").all():
        expect(decision).to_have_class(re.compile(r"cls-(inaccuracy|mistake|blunder)"))


def test_the_table_s_hint_says_what_racko_hint_says_the_chance_to_win_the_game_not_turns(
    served: tuple[str, Path], chromium: Browser
) -> None:
    """The move, why (starting with its chance to win the game from the scores, and the round's), then the next moves
    each with its chance to win the game: the words and the measure of `racko hint` and of `racko review` (issue 37),
    not the advisor's turns to Rack-O beside them."""
    server, _ = served
    table = new_table(server, variant="classic", players=2, seats=["me", "easy"], names=["Ann"])
    page = open_page(chromium, link(server, table, 0))
    expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")
    page.locator("#btn-hint").click()
    hint = page.locator("#hint")
    expect(page.locator("#hint-best")).to_have_text(re.compile(r"^Hint: (Draw|Take \d+ for slot \d+)\.$"))
    expect(page.locator("#hint-reasons li").first).to_have_text(
        re.compile(
            r"^From what you can see, this move wins the game about \d+(\.\d)?% of the time from the scores "
            r"\(320 play-outs, in which it wins the round \d+%\)"
        )
    )
    expect(page.locator("#hint-others li").first).to_have_text(re.compile(r"\(\d+(\.\d)?% to win the game\)$"))
    assert "turns" not in (hint.text_content() or "")
    page.context.close()
