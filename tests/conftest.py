"""Fixtures more than one test module uses, among them servers the tests start themselves: a real PostgreSQL
(Debian's package, initdb into a temporary folder, run as an unprivileged user), stopped at the end of the run.
Nothing is mocked: a test that needs PostgreSQL fails, never skips, when it is not installed (the README's test
command installs it)."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from playwright.sync_api import Browser, sync_playwright

from browsing import launch
from racko.bots import base as bots_base
from racko.tools.bench.processes import TemporaryPostgres

_databases = itertools.count(1)


@pytest.fixture(autouse=True)
def bots_as_they_were() -> Iterator[None]:
    """Each test leaves racko's bots as it found them: a bot a test makes known (a peeking master of racko headroom,
    another build's bot) is known to that test only, not to whichever test runs next in the same worker."""
    known = dict(bots_base._REGISTRY)
    yield
    bots_base._REGISTRY.clear()
    bots_base._REGISTRY.update(known)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser tests write their screenshots, for a person to look at: ``$RACKO_SCREENSHOTS``, or else a
    temporary folder."""
    folder = Path(os.environ.get("RACKO_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server of the test run's own (its database ``racko``)."""
    server = TemporaryPostgres()
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A new, empty database on the run's PostgreSQL server, for one test."""
    name = f"test_{next(_databases)}"
    with psycopg.connect(postgres_server, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}".encode())
    return postgres_server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, one for a test module (each test opens contexts of its own: separate people)."""
    with sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


MODULE_SECONDS = Path(__file__).with_name("module_seconds.json")
"""Seconds each test module took in a whole run of the suite (``python tests/module_seconds.py`` writes it from a
run's ``--durations=0``)."""


NUMBA_MODULES = frozenset(
    {
        "tests/test_batch.py",
        "tests/test_envs.py",
        "tests/test_envs_agent.py",
        "tests/test_small_game.py",
        "tests/test_examples.py",
    }
)
"""The modules whose code numba compiles (the batch simulator's kernels, the small game's solver): one worker runs
them all, one after another, so that each kernel is compiled once and the next module reads it from numba's cache on
disk.  Spread over the workers, each compiled the same kernels at the same time: about two minutes of CPU each."""


@pytest.hookimpl(optionalhook=True)  # a run without xdist (-p no:xdist) does not know the hook
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` with the modules of :data:`NUMBA_MODULES` as one unit of work."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class OneWorkerCompiles(LoadFileScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            module = str(super()._split_scope(nodeid))
            return "numba kernels" if module in NUMBA_MODULES else module

    return OneWorkerCompiles(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules that take longest first, each whole and in its own order: with ``-n 3 --dist loadfile
    --no-loadscope-reorder`` (the README's test command) a worker takes the next module when it is nearly done, so a
    long module left to the end would keep one core busy while the other has nothing left to do."""
    try:
        seconds: dict[str, float] = json.loads(MODULE_SECONDS.read_text())
    except (OSError, ValueError):
        return  # no measurement: the order collected
    root = config.rootpath

    def module_of(item: pytest.Item) -> str:
        return Path(item.path).resolve().relative_to(root).as_posix() if Path(item.path).is_relative_to(root) else ""

    items.sort(key=lambda item: -seconds.get(module_of(item), 0.0))
