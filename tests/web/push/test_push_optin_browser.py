""" "Turn on for this device" in Debian's Chromium with notifications allowed (issue 50, item 6), through Chromium's
real subscription: its push service is played on 127.0.0.1 (tests/pushing.py's ChromiumPushService), and the page
says what actually failed, in its language, no wider than the screen: a push service that does not answer (past the
page's patience; its answer, when it comes, still turns notifications on), one that refuses, and a server that cannot
take the subscription (its reason).  A private window, where Chromium refuses as "permission denied" though
notifications are allowed (the page said "Registration failed - permission denied"), is test_push_browser.py's.
Turned on, the server keeps a device; turned off, the browser is unsubscribed and the server forgets it.  One
Chromium with a profile of its own for the module (a private window has no push at all); the server in process."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

from browsing import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LAPTOP,
    LOCALES,
    PHONE_SIDEWAYS,
    PHONE_UPRIGHT,
    WAIT_MS,
    serious_problems,
    serving_app,
    what_does_not_fit,
)
from pushing import ChromiumPushService
from racko.web.app import ServerSettings, create_app
from racko.web.core import page_words
from racko.web.push import PushKeys, PushReach
from racko.web.store import SqliteTables

SCREENS = {"laptop": LAPTOP, "upright": PHONE_UPRIGHT, "sideways": PHONE_SIDEWAYS}
WORDS = page_words(("core", "players", "push"))
PATIENCE_MS = 15000
"""How long the page waits for a push service's answer before it says none came (device.js)."""
CHROMIUM_PUSH_HOST = "jmt17.google.com"
"""Where Chromium's subscriptions point when its push service is not Google's own (a test's, here): the endpoints are
``https://jmt17.google.com/fcm/send/<token>``."""


@pytest.fixture(scope="module")
def service() -> Iterator[ChromiumPushService]:
    made = ChromiumPushService()
    yield made
    made.close()


class Names:
    """The server's resolver in this test: Chromium's push host resolves (to this machine: the server sends no push
    here), unless :attr:`down`."""

    def __init__(self) -> None:
        self.down = False

    def __call__(self, host: str, port: int) -> list[str]:
        if self.down or host != CHROMIUM_PUSH_HOST:
            raise OSError(f"{host} does not resolve")
        return ["127.0.0.1"]


@pytest.fixture(scope="module")
def names() -> Names:
    return Names()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, names: Names) -> Iterator[str]:
    """The server in this process, told that Chromium's push host is one of its operator's push services (as
    ``racko serve --push-service jmt17.google.com`` tells it), and resolving it by :class:`Names`."""
    app = create_app(
        SqliteTables(tmp_path_factory.mktemp("optin") / "tables.sqlite3"),
        ServerSettings(
            pace=0.0,
            push_keys=PushKeys.made(),
            push_reach=PushReach(services=((CHROMIUM_PUSH_HOST, 443),), resolve=names),
        ),
    )
    with serving_app(app) as address:
        yield address


@pytest.fixture(scope="module")
def chromium_profile(
    tmp_path_factory: pytest.TempPathFactory, service: ChromiumPushService, server: str
) -> Iterator[BrowserContext]:
    """Chromium with a profile on disk (the browser a person has), its push service the test's, notifications allowed
    for the server; a player named in it."""
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=CHROMIUM, args=CHROMIUM_ARGS + service.switches(),
            locale="en-GB", reduced_motion="reduce", **PHONE_UPRIGHT,
        )  # fmt: skip
        try:
            context.grant_permissions(["notifications"], origin=server)
            answer = context.request.post(
                server + "/api/me", data=json.dumps({"name": "Noor"}), headers={"Content-Type": "application/json"}
            )
            assert answer.ok, answer.text()
            yield context
        finally:
            context.close()


def _me(context: BrowserContext, server: str, screen: str, language: str) -> Page:
    """The player's page, its clock in the test's hands, at ``screen``'s size and in ``language``; notifications off."""
    for page in context.pages:
        page.close()
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.set_viewport_size(SCREENS[screen]["viewport"])
    page.clock.install()
    page.goto(server + "/me")
    page.locator("#lang").select_option(language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    toggle = page.locator("#push-toggle")
    expect(toggle).to_be_enabled()
    if toggle.inner_text() == WORDS[language]["push_off"]:
        toggle.click()
        expect(page.locator("#push-state")).to_have_text(WORDS[language]["push_state_off"])
    return page


def _devices(page: Page, server: str) -> Any:
    return page.request.get(server + "/api/push").json()["devices"]


def test_turned_on_through_chromium_s_push_service_the_server_keeps_the_browser_s_own_subscription(
    chromium_profile: BrowserContext, service: ChromiumPushService, server: str, names: Names, shots: Path
) -> None:
    page = _me(chromium_profile, server, "upright", "en")
    words = WORDS["en"]
    # The push service does not answer (out of reach): past the page's patience, it says so, and keeps listening.
    service.answer = "hold"
    page.locator("#push-toggle").click()
    service.asked.get(timeout=30)
    page.clock.run_for(PATIENCE_MS + 1000)
    expect(page.locator("#push-state")).to_have_text(words["push_no_service"])
    expect(page.locator("#push-toggle")).to_be_enabled()
    assert what_does_not_fit(page) == []
    page.screenshot(path=str(shots / "push-no-service-upright-en.png"), full_page=True)
    # Its answer comes after all: notifications turn on, and the server keeps what the browser made.
    service.answer = "token"
    service.release()
    expect(page.locator("#push-state")).to_have_text(words["push_state_on"])
    expect(page.locator("#push-toggle")).to_have_text(words["push_off"])
    made = page.evaluate(
        "navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription()).then((s) => s.toJSON())"
    )
    assert made["endpoint"].startswith(f"https://{CHROMIUM_PUSH_HOST}/fcm/send/"), made
    assert len(made["keys"]["p256dh"]) == 87 and made["keys"]["auth"]
    assert _devices(page, server) == 1
    assert serious_problems(page, Axe()) == []
    # Turned off: unsubscribed, and the server forgets the device.
    page.locator("#push-toggle").click()
    expect(page.locator("#push-state")).to_have_text(words["push_state_off"])
    assert _devices(page, server) == 0
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())") is None
    # The server cannot take the subscription (its push service's name does not resolve now): the page says so, with
    # the server's reason, and nothing is on.
    names.down = True
    page.locator("#push-toggle").click()
    refused = words["push_server_refused"].split("{reason}")[0]
    expect(page.locator("#push-state")).to_have_text(re.compile(re.escape(refused) + ".*cannot be found now"))
    assert _devices(page, server) == 0
    names.down = False
    # On at once when the push service answers at once.
    page.locator("#push-toggle").click()
    expect(page.locator("#push-state")).to_have_text(words["push_state_on"])
    assert _devices(page, server) == 1


FIRST = {"laptop": "en", "upright": "nl", "sideways": "fr"}
"""The language each screen's case starts in; the other two are chosen in the page (no page load)."""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_push_service_that_refuses_is_said_in_the_page_s_language_and_fits(
    chromium_profile: BrowserContext, service: ChromiumPushService, server: str, shots: Path, screen: str
) -> None:
    languages = [FIRST[screen]] + [other for other in LOCALES if other != FIRST[screen]]
    page = _me(chromium_profile, server, screen, languages[0])
    for language in languages:
        page.locator("#lang").select_option(language)
        expect(page.locator("html")).to_have_attribute("lang", language)
        # The page's lists and counts are said again in the language chosen (they kept the one it opened in).
        expect(page.locator("#tables-list")).to_have_text(WORDS[language]["my_tables_none"])
        expect(page.locator("#push-devices")).to_have_text(WORDS[language]["push_devices"].replace("{count}", "0"))
        service.answer = "refuse"
        page.locator("#push-toggle").click()
        said = WORDS[language]["push_service_failed"].split("{reason}")
        state = page.locator("#push-state")
        expect(state).to_contain_text(said[0])
        expect(state).to_contain_text(said[1])
        expect(page.locator("#push-toggle")).to_have_text(WORDS[language]["push_on"])
        expect(page.locator("#push-toggle")).to_be_focused()
        assert _devices(page, server) == 0
        assert what_does_not_fit(page) == [], language
        page.screenshot(path=str(shots / f"push-refused-{screen}-{language}.png"), full_page=True)
    service.answer = "token"
