"""A person in Chromium plays whole games against bot accounts that `racko bot connect` plays, in every variant (and
classic for 2 and 3): a real `racko serve` process, the bots made by `racko admin bot add` and each followed by its
own `racko bot connect` process for the whole module, the person playing by clicks as a person would.  The bots seek
the game in quick play (a bot sits only by its own consent) and the person asks for it with "bots welcome"."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from browsing import WAIT_MS, act_and_wait, launch, serving, situation
from racko.tools.bench.processes import racko_command

BOTS = ["Alpha", "Beta", "Gamma"]
EVERY_VARIANT = [("classic", 2), ("classic", 3), ("bonus", 2), ("partners", 4), ("highlow", 3)]
ANSWERS = {
    "swap": "#btn-keep",
    "declare": "#btn-racko",
    "pick": "#stock",
    "pick-or-call": "#btn-racko",
    "place-drawn": "#btn-discard",
}
"""The person's answer to each situation (else a card to place: the first slot or position the page offers)."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("serve")


TOKENS: dict[str, str] = {}


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    """The server (quick play's games to 75), and a `racko bot connect` for each bot account, playing every game
    it is seated at."""
    with serving(folder, "--quick-target", "75") as address:
        added = subprocess.run(
            racko_command("admin", "bot", "add", *BOTS, "--db", str(folder / "tables.sqlite3")),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert added.returncode == 0, added.stderr
        clients = []
        try:
            TOKENS.update(zip(BOTS, added.stdout.split(), strict=True))
            for number, token in enumerate(added.stdout.split()):
                with (folder / f"bot-{number}.log").open("wb") as log:
                    command = racko_command("bot", "connect", address, "--token", token, "--policy", "racko:expert")
                    clients.append(subprocess.Popen([*command, "--seed", str(number)], stdout=log, stderr=log))
            yield address
        finally:
            for client in clients:
                client.terminate()
                client.wait(timeout=30)


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


@pytest.mark.parametrize(("variant", "players"), EVERY_VARIANT)
def test_a_person_plays_a_whole_game_against_bots_playing_through_racko_bot_connect(
    server: str, folder: Path, browser: Browser, shots: Path, variant: str, players: int
) -> None:
    wish = {"variant": variant, "players": players, "clock": "normal", "rated": False}
    wish |= {"two_player_rule": False} if players == 2 else {}
    for name in BOTS[: players - 1]:  # each bot's seek is its consent to sit with the person who welcomes bots
        seek = urllib.request.Request(
            server + "/api/bot/seek",
            json.dumps(wish).encode(),
            {"Content-Type": "application/json", "Authorization": "Bearer " + TOKENS[name]},
            method="POST",
        )
        deadline = time.monotonic() + 30
        while True:  # its `racko bot connect` opens its event stream at its own pace: a seek waits for it
            try:
                with urllib.request.urlopen(seek, timeout=20) as answer:
                    assert json.loads(answer.read())["seated"] is False
                break
            except urllib.error.HTTPError as error:
                assert error.code == 409 and time.monotonic() < deadline, error.read()
                time.sleep(0.2)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server + "/")
    page.locator("#name").fill("Ann")
    page.locator("#name").press("Enter")
    page.locator("#quick-variant").select_option(variant)
    page.locator("#quick-players").select_option(str(players))
    page.locator("#quick-clock").select_option("normal")
    page.locator("#quick-rated").set_checked(False)
    if players == 2:
        page.locator("#quick-run-rule").set_checked(False)
    page.locator("#quick-bots").set_checked(True)
    page.locator("#quick-go").click()
    expect(page).to_have_url(re.compile(r"/t/"))
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    for name in BOTS[: players - 1]:
        expect(page.locator(".other h2", has_text=f"{name} (bot)")).to_have_count(1)
    turns = 0
    # A whole game to 500 points: about 14 s on a quiet machine; CI's loaded one once took more than 90 s.
    deadline = time.monotonic() + 240
    while not page.locator("body.game-over").count():  # the page's own mark (the report may be closed)
        if time.monotonic() > deadline:  # say where it stood: the page, its log, what the bots said
            bots_said = [path.read_text()[-1500:] for path in sorted(folder.glob("bot-*.log"))]
            log = [text.strip() for text in page.locator("#log li").all_text_contents()[-8:]]
            raise AssertionError(f"the game did not end: {turns} turns, {situation(page)!r}, {log}, {bots_said}")
        if page.locator("#round-dialog").is_visible():
            page.locator("#round-ok").click()
            continue
        now = situation(page)
        if now in ("waiting", "over", ""):
            time.sleep(0.03)
            continue
        act_and_wait(page, ANSWERS.get(now, "#rack .slot:enabled >> nth=0"))
        turns += 1
    expect(page.locator("#turn")).to_contain_text("Game over")
    expect(page.locator("#winner")).to_contain_text(re.compile("|".join(["Ann", *BOTS])))
    page.screenshot(path=str(shots / f"bots-{variant}-{players}-game-over.png"), full_page=True)
    assert turns > 0, "the person had turns"
