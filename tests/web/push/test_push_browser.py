""" "Your turn" notifications in Chromium (a real `racko serve` process, Debian's Chromium): the player's page (/me)
registers the service worker, whose scope is the whole site, and shows the switch in the page's language, usable by
keyboard and axe-clean; a push delivered to that worker shows a notification that links to the table.

Headless Chromium reaches no push service (a subscription waits on Google's, unreachable here, and an incognito
profile has none at all), so the push is handed to the registered worker by the DevTools protocol
(``ServiceWorker.deliverPushMessage``) with the message the server sends; the sending side, encryption and VAPID
included, is tested against a push service of the test's own in test_push_sending.py."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, expect

from browsing import WAIT_MS, new_table, serious_problems, serving
from racko.web.push import turn_message


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("push")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    with serving(folder) as address:
        yield address


def test_the_server_made_its_push_keys_beside_the_database_and_never_logs_them(server: str, folder: Path) -> None:
    keys = folder / "tables.sqlite3.push-keys.pem"
    assert os.stat(keys).st_mode & 0o777 == 0o600
    private = keys.read_text()
    assert "PRIVATE KEY" in private
    body = "".join(private.splitlines()[1:-1])
    assert body not in (folder / "serve.log").read_text()


def test_me_registers_the_worker_and_a_pushed_turn_shows_a_notification(
    server: str, chromium: Browser, shots: Path
) -> None:
    context = chromium.new_context(locale="nl-NL", reduced_motion="reduce")
    try:
        context.grant_permissions(["notifications"], origin=server)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(server + "/")
        named = context.request.post(
            server + "/api/me", data=json.dumps({"name": "Noor"}), headers={"Content-Type": "application/json"}
        )
        assert named.ok
        devtools = context.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        devtools.on(
            "ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"])
        )
        devtools.send("ServiceWorker.enable")

        page.goto(server + "/me")
        expect(page.locator("#push-title")).to_have_text("Meldingen “Jij bent aan de beurt”")
        expect(page.locator("#push-state")).to_have_text("Uit voor dit apparaat.")
        expect(page.locator("#push-toggle")).to_have_text("Aanzetten voor dit apparaat")
        expect(page.locator("#push-toggle")).to_be_enabled()
        worker = page.evaluate("navigator.serviceWorker.ready.then(r => [r.scope, r.active && r.active.scriptURL])")
        assert worker == [server + "/", server + "/push-worker.js"]
        assert serious_problems(page, Axe()) == []
        page.screenshot(path=str(shots / "push-me-nl.png"), full_page=True)

        # By keyboard: Tab reaches the switch, Enter presses it.  A private window (Playwright's contexts are) may
        # receive no pushes though notifications are allowed, and Chromium refuses as "permission denied": the page
        # says what to do instead, in its language (issue 50); the switch keeps the focus.
        page.locator("#hidden-title").click()
        for _ in range(10):
            if page.evaluate("document.activeElement && document.activeElement.id") == "push-toggle":
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        expect(page.locator("#push-state")).to_have_text(
            "Meldingen zijn toegestaan, maar deze browser laat ze niet toe in dit venster (een privé- of gastvenster "
            "krijgt ze niet): open deze pagina in een gewoon venster en probeer het opnieuw."
        )
        expect(page.locator("#push-toggle")).to_be_focused()
        expect(page.locator("#push-toggle")).to_be_enabled()

        # A turn pushed to the worker: the notification the server's message asks for, linking to the table.
        table = new_table(server, variant="classic", players=2, seats=["me", "person"])["table"]
        message = turn_message("nl", table, ["Ann"])
        registration = next(found for found in registrations if found["scopeURL"] == server + "/")
        devtools.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": server, "registrationId": registration["registrationId"], "data": json.dumps(message)},
        )
        page.wait_for_function(
            "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(shown => shown.length > 0)"
        )
        shown = page.evaluate(
            "navigator.serviceWorker.ready.then(r => r.getNotifications())"
            ".then(shown => shown.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))"
        )
        assert shown == [
            {
                "title": "Rack-O: jij bent aan de beurt",
                "body": "Jij bent aan de beurt aan de tafel met Ann.",
                "tag": f"turn-{table}",
                "url": f"{server}/t/{table}",
            }
        ]
    finally:
        context.close()
