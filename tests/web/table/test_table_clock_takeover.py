"""A clock outlives the process that held its table (issue 39): real `racko serve` processes on one PostgreSQL
database; the process holding a table whose clock runs is killed with SIGKILL before the turn's deadline, and
another process plays the timeout within a few seconds of it, once, never twice; a person's page in Chromium, behind
the proxy, comes back to the table at the other process and shows the move."""

from __future__ import annotations

import json
import re
import secrets
import time
from pathlib import Path
from typing import Any

import psycopg
from playwright.sync_api import Browser, expect
from websockets.sync.client import connect

from browsing import WAIT_MS
from clusters import serving_cluster
from racko.rules import variant
from racko.web.app import schema_parts
from racko.web.clock import PRESETS
from racko.web.store.postgres import LEASE_SECONDS, PostgresTables
from racko.web.table import token_hash

FAST = PRESETS["fast"]
LEAD_SECONDS = 4.0
"""The turn's time left when the holder opens the table (it is killed before it runs out)."""
SLACK_SECONDS = 5.0
"""How soon after the deadline and the dead holder's lease another process plays the turn (its keep loop looks
every second)."""


def _file_running_table(postgres_url: str, lead: float = LEAD_SECONDS) -> tuple[str, list[str], float]:
    """A two-person table whose clock started long enough ago that the first turn runs out ``lead`` seconds from
    now: written as the server keeps it, with its deadline. Returns its id, the seats' tokens and the deadline."""
    table_id = "t" + secrets.token_urlsafe(8)
    tokens = [secrets.token_urlsafe(24) for _ in range(2)]
    now = time.time()
    started = now + lead - FAST.move - FAST.bank
    setup: dict[str, Any] = {
        "rules": variant("classic").rules(2).to_dict(),
        "seed": 11,
        "game": 1,
        "seats": [
            {"name": name, "bot": None, "token": token_hash(token), "joined": True}
            for name, token in zip(["Ann", "Bob"], tokens, strict=True)
        ],
        "clock": FAST.name,
        "clock_from": started,
    }
    store = PostgresTables(postgres_url, node="filer")
    try:
        store.prepare(schema_parts())
        store.create(table_id, setup, due=started + FAST.move + FAST.bank)
        store.commit()
    finally:
        store.close()
    return table_id, tokens, started + FAST.move + FAST.bank


def _journal(postgres_url: str, table_id: str) -> list[tuple[Any, ...]]:
    """The table's journal as the database holds it: (number, seat, made_by, played_at) per action."""
    store = PostgresTables(postgres_url, node="reader")
    try:
        loaded = store.load(table_id)
    finally:
        store.close()
    assert loaded is not None
    return [
        (number, action["seat"], by, at)
        for number, (action, by, at) in enumerate(zip(loaded.actions, loaded.made_by, loaded.times, strict=True))
    ]


def test_a_killed_holder_s_running_clock_runs_out_on_another_process_once(tmp_path: Path, postgres_url: str) -> None:
    with serving_cluster(tmp_path, postgres_url, ("one", "two")) as (servers, _proxy):
        # Filed once both processes run (starting them takes seconds; the table's turn must not run out meanwhile).
        table_id, tokens, deadline = _file_running_table(postgres_url)
        holder, other = servers
        # Ann opens the table on the first process, which then holds it and runs its clock.
        with connect(holder.url.replace("http", "ws") + f"/ws/{table_id}", proxy=None, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            frames = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
            assert [frame["type"] for frame in frames] == ["welcome", "state"]
            clock = frames[1]["clock"]
            assert clock["started"] and clock["running"] is not None
            assert 0 < clock["left"][clock["running"]] <= LEAD_SECONDS + 1
            holder.kill()  # SIGKILL, before the turn runs out
        assert time.time() < deadline and _journal(postgres_url, table_id) == []
        latest = deadline + LEASE_SECONDS + SLACK_SECONDS
        while not _journal(postgres_url, table_id) and time.time() < latest:
            time.sleep(0.2)
        played = _journal(postgres_url, table_id)
        assert played, f"no process played the turn within {latest - deadline:.0f} s of its deadline"
        first_at = played[0][3]
        print(f"the turn was played {first_at - deadline:.2f} s after its deadline (lease {LEASE_SECONDS:g} s)")
        assert deadline <= first_at <= deadline + LEASE_SECONDS + SLACK_SECONDS
        time.sleep(2.0)  # time for a second process (or a second timeout) to play the turn again: it must not
        played = _journal(postgres_url, table_id)
        seat = played[0][1]
        # One whole turn of the seat to act (a draw and where the card went), by the clock, and nothing more: the
        # next seat's turn runs out only a whole move and bank later.
        assert [(action_seat, by) for _, action_seat, by, _ in played] == [(seat, "clock"), (seat, "clock")]
        assert other.process is not None and other.process.poll() is None


def test_a_page_behind_the_proxy_shows_the_timeout_played_by_the_process_that_took_the_table_over(
    tmp_path: Path, postgres_url: str, chromium: Browser
) -> None:
    with serving_cluster(tmp_path, postgres_url, ("one", "two")) as (servers, proxy):
        table_id, tokens, deadline = _file_running_table(postgres_url, lead=20.0)  # time for a page to load
        page = chromium.new_context().new_page()
        page.set_default_timeout(WAIT_MS)
        try:
            page.goto(f"{proxy.url}/t/{table_id}#seat={tokens[0]}")
            expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
            expect(page.locator("#clock-mode")).to_contain_text("fast")
            with psycopg.connect(postgres_url) as connection:
                row = connection.execute("SELECT owner FROM racko_tables WHERE id = %s", (table_id,)).fetchone()
            assert row is not None and row[0] is not None, "the table's page opened it at a process"
            holder = next(server for server in servers if server.node == str(row[0]).split(" ")[0])
            assert time.time() < deadline and _journal(postgres_url, table_id) == [], "the page took too long"
            holder.kill()  # SIGKILL, before the turn runs out
            # The page comes back through the proxy to the other process, which plays the turn when it runs out.
            expect(page.locator("#log")).to_contain_text(re.compile(r"(Ann|Bob) (took|drew)"), timeout=30_000)
            expect(page.locator("body")).not_to_have_attribute("data-version", "0")
            played = _journal(postgres_url, table_id)
            assert played and {by for _, _, by, _ in played} == {"clock"} and played[0][3] >= deadline
        finally:
            page.context.close()
