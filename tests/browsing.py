"""What the browser tests share: a real `racko serve` process on 127.0.0.1, Debian's Chromium, tables made by the
start page's API or from a real game played by computer players, and reading the page as a person would."""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, Playwright, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from racko.families import family_of
from racko.match import Match
from racko.play.session import PlaySession, SeatSpec
from racko.rules import variant
from racko.tools.bench.page import CHROMIUM, CHROMIUM_ARGS
from racko.web.store import SqliteTables
from racko.web.table import token_hash

WAIT_MS = 15000
PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}
PHONE_SIDEWAYS = {"viewport": {"width": 667, "height": 375}, "is_mobile": True, "has_touch": True}
PHONE_UPRIGHT = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
"""The commonest laptop screen: wide, and less high than :data:`DESKTOP`."""
SCREENS = {"desktop": DESKTOP, "phone": PHONE, "sideways": PHONE_SIDEWAYS, "upright": PHONE_UPRIGHT}
"""The screens the table is made for: 1280×800, a small phone (375×667) either way round, and a tall one held
upright (390×844, where issue 40 found empty felt)."""
LOCALES = {"en": "en-GB", "nl": "nl-NL", "fr": "fr-FR"}
"""A browser's locale for each of racko's languages: a page comes in the browser's language."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serving(folder: Path, *options: str) -> Iterator[str]:
    """A real `racko serve` process on 127.0.0.1, its computer players quick, ended (and waited for) afterwards; its
    tables are kept in ``folder / "tables.sqlite3"``."""
    port = free_port()
    racko = Path(sys.executable).with_name("racko")  # the command the README's set-up installs beside python
    command = [str(racko), "serve", "--port", str(port), "--db", str(folder / "tables.sqlite3"), "--pace", "0.05"]
    command += ["--new-tables-per-minute", "1000"]  # one test module makes more tables a minute than a person does
    # Its log goes to a file, not a pipe: a pipe nobody reads would stop a server that logs much; and the file
    # says afterwards why a server ended early.
    log = folder / "serve.log"
    with log.open("wb") as written:
        process = subprocess.Popen([*command, *options], stdout=subprocess.DEVNULL, stderr=written)
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(address + "/api/options", timeout=2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"racko serve did not start: {log.read_text(errors='replace')!r}") from None
                time.sleep(0.1)
        yield address
    finally:
        ended = process.poll()
        process.kill()
        process.wait(timeout=10)
        if ended is not None:  # it ended before the tests did: say how, for the failures that follow
            sys.stderr.write(
                f"racko serve at {address} ended early ({ended}): {log.read_text(errors='replace')[-3000:]}\n"
            )


@contextlib.contextmanager
def serving_app(app: Any) -> Iterator[str]:
    """An application served by uvicorn in this process (a thread of its own) on 127.0.0.1: for a browser test that
    moves the server's clock by hand (``ServerSettings(now=)``, which `racko serve` has no option for)."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="uvicorn-in-test", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def launch(playwright: Playwright) -> Browser:
    assert Path(CHROMIUM).exists(), (
        f"{CHROMIUM} is missing: the README's test command installs it (Debian's chromium package)"
    )
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def new_table(server: str, **form: Any) -> dict[str, Any]:
    request = urllib.request.Request(
        server + "/api/tables", data=json.dumps(form).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return dict(json.load(answer))


def link(server: str, table: dict[str, Any], seat: int | None) -> str:
    fragment = f"#seat={table['seats'][seat]['token']}" if seat is not None else ""
    return f"{server}/t/{table['table']}{fragment}"


def open_page(browser: Browser, url: str, **context: Any) -> Page:
    """A page of its own (its own context: storage, cookies) at ``url``, once it shows the table."""
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
    return page


def sit_down(page: Page, name: str) -> None:
    page.locator("#name-input").fill(name)
    page.locator("#name-input").press("Enter")
    expect(page.locator("#name-dialog")).not_to_be_visible()


def version(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-version") or 0)


def situation(page: Page) -> str:
    return page.locator("#prompt").get_attribute("data-situation") or ""


def cards(page: Page, selector: str) -> list[str]:
    return [text.strip() for text in page.locator(selector).all_text_contents()]


def played_game(
    variant_name: str, names: list[str], bots: list[str], seed: int, **options: Any
) -> tuple[Any, list[dict[str, Any]], str]:
    """A whole game played by computer players (each seat by ``bots``): its rules, its actions as records write
    them (what a server table's journal keeps) and its record."""
    rules = variant(variant_name).rules(len(names), **options)
    seats = [SeatSpec(name, bot) for name, bot in zip(names, bots, strict=True)]
    session = PlaySession(Match(rules, seed=seed), seats, bot_seed=seed)
    while not session.match.over:
        session.play_bot()
    family = family_of(rules)
    actions = [family.action_to_json(action) for action in session.match.actions]
    return rules, actions, session.record().dumps()


def file_table(
    server_db: Path,
    rules: Any,
    seed: int,
    names: list[str],
    bots: list[str | None],
    actions: list[dict[str, Any]],
    *,
    finished: str | None = None,
) -> dict[str, Any]:
    """A table at the server, at the position ``actions`` bring its game to: written to the server's database the
    way the server keeps a table (set-up and journal), so that the server opens it as it opens any table after a
    restart.  ``finished``: the finished game's record, filed for download.  Returns it as POST /api/tables
    answers (the table and a token per person seat)."""
    table_id = "t" + secrets.token_urlsafe(8)
    tokens = [secrets.token_urlsafe(24) if bot is None else None for bot in bots]
    setup = {
        "rules": rules.to_dict(),
        "seed": seed,
        "game": 1,
        "seats": [
            {"name": name, "bot": bot, "token": token_hash(token) if token else None, "joined": True}
            for name, bot, token in zip(names, bots, tokens, strict=True)
        ],
    }
    store = SqliteTables(server_db)
    try:
        store.create(table_id, setup)
        store.append(table_id, 0, actions)
        if finished is not None:
            store.finish(table_id, finished)
    finally:
        store.close()
    return {"table": table_id, "seats": [{"seat": k, "token": token} for k, token in enumerate(tokens)]}


def serious_problems(page: Page, axe: Axe) -> list[str]:
    """What axe-core finds serious or critical on the page, a line each (empty: nothing serious)."""
    found = axe.run(page).response["violations"]
    return [
        f"{issue['id']} ({issue['impact']}): {[node['target'] for node in issue['nodes']][:3]}"
        for issue in found
        if issue["impact"] in ("serious", "critical")
    ]


def _bucket(card: int, deck: int) -> int:
    """The slot a card belongs in when every slot holds a card of its own tenth of the deck (then the rack is in
    order): a simple way for a test to play rounds that end."""
    return (card - 1) * 10 // deck


def act_and_wait(page: Page, selector: str, press: str = "click") -> bool:
    """Act through the page, by a click or a tap, and wait until the table has moved on.  False when a round's end
    came first: its report covers the table (the next round may already be the page's, behind it), or covered it
    and closed itself (a table with a clock closes it when the next round's first turn starts)."""
    before = version(page)
    report = page.locator("#round-dialog")
    target = page.locator(selector)
    try:
        target.tap(timeout=5000) if press == "tap" else target.click(timeout=5000)
    except PlaywrightTimeoutError:
        if report.is_visible() or version(page) != before:
            return False
        raise
    deadline = time.monotonic() + WAIT_MS / 1000
    while version(page) == before:
        if report.is_visible():
            return False
        assert time.monotonic() < deadline, f"the table did not move on after {selector}"
        time.sleep(0.02)
    return True


def play_a_turn(page: Page, deck: int, press: str = "click") -> None:
    """One whole turn by the bucket rule, through the page only: a pile, then a slot (or Discard)."""
    rack = [int(card) for card in cards(page, "#rack .slot .card")]
    top = int(cards(page, "#discard .card")[0])
    wanted = _bucket(top, deck)
    if _bucket(rack[wanted], deck) != wanted:
        if act_and_wait(page, "#discard", press=press):
            act_and_wait(page, f"#rack .slot >> nth={wanted}", press=press)
        return
    if not act_and_wait(page, "#stock", press=press) or situation(page) != "place-drawn":
        return  # the turn ended with the draw (the round ended meanwhile)
    held = int(cards(page, "#held .card")[0])
    wanted = _bucket(held, deck)
    act_and_wait(
        page, f"#rack .slot >> nth={wanted}" if _bucket(rack[wanted], deck) != wanted else "#btn-discard", press=press
    )


def wait_for_turn_or_round_end(pages: list[Page]) -> Page | None:
    """The page whose turn it is, or None once a round-end report is open on every page."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if all(page.locator("#round-dialog").is_visible() for page in pages):
            return None
        for page in pages:
            if situation(page) == "pick" and not page.locator("#round-dialog").is_visible():
                return page
        time.sleep(0.05)
    raise AssertionError("nobody's turn came and no round ended")


def in_first_screen(page: Page, selector: str) -> bool:
    """Whether the element is wholly within the screen a person sees first, the page not scrolled."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    seen = page.evaluate("({ x: window.scrollX, y: window.scrollY, width: innerWidth, height: innerHeight })")
    return bool(
        seen["x"] == 0 and seen["y"] == 0 and box["x"] >= 0 and box["y"] >= 0
        and box["x"] + box["width"] <= seen["width"] and box["y"] + box["height"] <= seen["height"]
    )  # fmt: skip


WHAT_DOES_NOT_FIT = """([within, screenWidth]) => {
  const root = document.querySelector(within);
  const problems = [];
  const name = (element) => {
    const classes = typeof element.className === "string" ? element.className.trim().split(/\\s+/) : [];
    const words = (element.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") +
      classes.map((kind) => (kind ? "." + kind : "")).join("") + " " + JSON.stringify(words);
  };
  const shown = (element) => element.checkVisibility({ visibilityProperty: true }) &&
    element.getBoundingClientRect().width > 1.5 && !element.closest("#flight, dialog:not([open]), .sr");
  const scrolls = (style) => ["auto", "scroll"].includes(style.overflowX);
  const clips = (style) => ["hidden", "clip"].includes(style.overflowX);
  const wide = document.documentElement.scrollWidth;
  // A phone's browser lays a page wider than its screen out wider still, and shrinks it: the screen's own width counts.
  if (wide > screenWidth || innerWidth > screenWidth)
    problems.push("the page is " + Math.max(wide, innerWidth) + " px wide on a " + screenWidth + " px screen");
  const measure = document.createElement("canvas").getContext("2d");
  for (const element of [root, ...root.querySelectorAll("*")]) {
    if (!shown(element)) continue;
    const box = element.getBoundingClientRect(), style = getComputedStyle(element);
    const block = style.display !== "inline";
    // Cut: a box that hides what overflows it, with more in it than it shows (words cut off, an ellipsis); a field's
    // text scrolls in it.
    const field = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
    if (clips(style) && !field && block && element.scrollWidth > element.clientWidth + 1)
      problems.push(name(element) + " cuts its content: " + element.scrollWidth + " > " + element.clientWidth);
    // Words that spill out of their box (over what is under it): more lines than the box has room for.
    const words = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
    if (words && !clips(style) && !scrolls(style) && block && element.scrollHeight > element.clientHeight + 1)
      problems.push(name(element) + " spills out of its box: " + element.scrollHeight + " > " +
        element.clientHeight + " px high");
    // Cut by a box around it that clips, or beyond the screen (unless a box around it scrolls sideways).
    let scroller = null;
    for (let around = element.parentElement; around && around !== document.body; around = around.parentElement) {
      const aroundStyle = getComputedStyle(around);
      if (scrolls(aroundStyle)) { scroller = around; break; }
      if (clips(aroundStyle) || around instanceof SVGSVGElement) {
        const edge = around.getBoundingClientRect();
        if (box.left < edge.left - 1 || box.right > edge.right + 1)
          problems.push(name(element) + " is cut by " + name(around) + ": " + Math.round(box.left) + ".." +
            Math.round(box.right) + " in " + Math.round(edge.left) + ".." + Math.round(edge.right));
      }
    }
    if (!scroller && (box.left < -1 || box.right > screenWidth + 1))
      problems.push(name(element) + " is beyond the screen: " + Math.round(box.left) + ".." + Math.round(box.right));
    // A list box shows each of its choices whole once chosen: the words, its padding and its arrow fit in it.
    if (element instanceof HTMLSelectElement) {
      measure.font = style.font;
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
      for (const choice of element.options) {
        const wanted = measure.measureText(choice.textContent).width;
        if (wanted > room)
          problems.push(name(element) + " shows " + Math.floor(room) + " px of " + JSON.stringify(choice.textContent) +
            " (" + Math.ceil(wanted) + " px)");
      }
    }
  }
  // No control is covered: a tap at its middle reaches it (each one brought into the screen first, every box that
  // scrolls put back afterwards).
  const scrollers = [document.scrollingElement, ...document.querySelectorAll("*")]
    .filter((box) => box.scrollHeight > box.clientHeight || box.scrollWidth > box.clientWidth)
    .map((box) => [box, box.scrollLeft, box.scrollTop]);
  for (const control of root.querySelectorAll("button, a[href], select, input, textarea, summary, [tabindex]")) {
    if (!shown(control) || control.closest("[inert]")) continue;
    control.scrollIntoView({ block: "nearest", inline: "nearest" });
    const box = control.getClientRects()[0]; // a link that wraps: its first line
    const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    const labelled = control.labels && [...control.labels].some((label) => label.contains(hit));
    if (hit && hit !== control && !control.contains(hit) && !labelled)
      problems.push(name(control) + " is covered by " + name(hit));
  }
  for (const [box, left, top] of scrollers) box.scrollTo(left, top);
  return problems;
}"""
"""What a person would find does not fit in the part of the page ``within`` (a CSS selector): the page wider than the
screen, a box that cuts its words, an element cut by a box around it or beyond the screen's edge (unless it is in a
box that scrolls sideways), a list box too narrow for one of its choices, and a control that a tap at its middle
does not reach (something covers it).  One line each; empty when everything fits."""


def what_does_not_fit(page: Page, within: str = "body") -> list[str]:
    screen = page.viewport_size
    assert screen is not None
    return list(page.evaluate(WHAT_DOES_NOT_FIT, [within, screen["width"]]))
