"""``racko bench page``: how soon the table page draws its first state, in Chromium (docs/BENCHMARKS.md).

A ``racko serve`` process of its own (the server benchmark's), one table, and page loads of a seat's link, each in a
fresh browser context (nothing cached: a person's first visit).  The figure of a load is the time from the start of
its navigation to the animation frame in which the table's first state is drawn: the page marks that moment
(``performance.mark("racko:first-state")``).  Needs Playwright (the test extra) and a Chromium (Debian's by default).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from racko.errors import RackoError
from racko.tools.bench.processes import HOST
from racko.tools.bench.server import BenchSettings, create_tables, load_average, percentile, running_servers

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""As root and without a network, Chromium needs no sandbox and must not try to reach Google's services (the browser
tests launch it so too)."""
LOAD_SECONDS = 30.0
FIRST_STATE = "performance.getEntriesByName('racko:first-state').map((entry) => entry.startTime)"
WEIGHT = (
    "[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]"
    ".reduce((sum, entry) => sum + entry.decodedBodySize, 0)"
)
"""The page and everything it loaded, uncompressed (as the browser decoded them), in bytes."""


def page_bench(loads: int, chromium: str = CHROMIUM) -> dict[str, Any]:
    """Load the table page ``loads`` times (after one load to warm the server and the browser up) and return the
    figures; a missing Playwright or Chromium is a :class:`RackoError` that says what to install."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise RackoError(
            "racko bench page needs Playwright, which comes with the test extra: pip install -e '.[test]'."
        ) from None
    if not Path(chromium).exists():
        raise RackoError(f"racko bench page needs Chromium at {chromium} (Debian: apt install chromium).")
    with running_servers(BenchSettings(sync="normal")) as server:
        table = create_tables(server.port, 1)[0]
        url = f"http://{HOST}:{server.port}/t/{table['table']}#seat={table['seats'][0]['token']}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                version = browser.version
                _load(browser, url)
                timings = [_load(browser, url) for _ in range(loads)]
            finally:
                browser.close()
    drawn = [first for first, _, _ in timings]
    return {
        "benchmark": "page-first-state",
        "loads": loads,
        "median_ms": round(statistics.median(drawn), 1),
        "p90_ms": round(percentile(drawn, 0.9), 1),
        "min_ms": round(min(drawn), 1),
        "max_ms": round(max(drawn), 1),
        "loaded_median_ms": round(statistics.median(loaded for _, loaded, _ in timings), 1),
        "page_bytes": timings[0][2],
        "chromium": version,
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "load_average": load_average(),
    }


def _load(browser: Any, url: str) -> tuple[float, float, int]:
    """One load in a fresh context: when the first state was drawn and when the page's load event ended (ms from
    the start of navigation), and the bytes the page and what it loaded weigh."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url, wait_until="load")
        deadline = time.monotonic() + LOAD_SECONDS
        while not (marks := page.evaluate(FIRST_STATE)):
            if time.monotonic() > deadline:
                raise RackoError(f"The table page drew no state within {LOAD_SECONDS:g} seconds.")
            time.sleep(0.01)
        loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        weight = page.evaluate(WEIGHT)
        return float(marks[0]), float(loaded), int(weight)
    finally:
        context.close()


def page_bench_lines(figures: dict[str, Any], as_json: bool) -> list[str]:
    if as_json:
        return [json.dumps(figures)]
    return [
        f"Table page, first state drawn: median {figures['median_ms']} ms after navigation starts, over "
        f"{figures['loads']} loads, each in a fresh browser context (p90 {figures['p90_ms']} ms, min "
        f"{figures['min_ms']}, max {figures['max_ms']}; load event: median {figures['loaded_median_ms']} ms).",
        f"The page and what it loads: {figures['page_bytes']:,} bytes uncompressed.",
        f"Chromium {figures['chromium']}, {figures['cpus']} cores, load average {figures['load_average']}.",
    ]
