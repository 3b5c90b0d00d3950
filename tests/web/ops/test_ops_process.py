"""A process that dies says so (issue 46: one of three processes died under attack without a line in its log): a real
`racko serve`, started four times on one SQLite file, ended by SIGTERM, by a segmentation fault (SIGSEGV: Python's
faulthandler writes every thread's stack), by SIGKILL and by SIGINT.  Each signal it can see leaves a line; the one
nothing can see (SIGKILL), and the crash, are said by the next start; ``/metrics`` counts the node's starts and its
unclean ends across the restarts (kept in the store).  And in process: an exception in a thread or in a task nobody
awaited is a log line with its traceback."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import signal
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from racko.tools.bench.processes import ServeProcess
from racko.web.ops import report_crashes, watch_the_loop


def _metrics(server: ServeProcess) -> dict[str, float]:
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        text = answer.read().decode()
    found = re.findall(r"^(racko_process_(?:starts|unclean_ends)_total) (\S+)$", text, re.MULTILINE)
    return {name: float(value) for name, value in found}


def _end(server: ServeProcess, sent: signal.Signals) -> int:
    assert server.process is not None
    server.process.send_signal(sent)
    return server.process.wait(timeout=30)


def test_every_end_of_a_process_is_said_in_its_log_or_by_its_next_start(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path, str(tmp_path / "tables.sqlite3"), "n1", "--pace", "0")
    try:
        server.start()
        assert _metrics(server) == {"racko_process_starts_total": 1.0, "racko_process_unclean_ends_total": 0.0}
        _end(server, signal.SIGTERM)
        log = server.log.read_text()
        assert "racko serve n1 warning: racko serve: SIGTERM received: stopping (every table is handed on first)" in log
        assert log.index("SIGTERM received") < log.index("racko serve stopped: every table handed on")

        server.start()  # a clean stop before: nothing to say
        assert "ended without stopping cleanly" not in server.log.read_text()
        assert _metrics(server) == {"racko_process_starts_total": 2.0, "racko_process_unclean_ends_total": 0.0}
        assert _end(server, signal.SIGSEGV) == -signal.SIGSEGV
        crashed = server.log.read_text()[len(log) :]
        assert "Fatal Python error: Segmentation fault" in crashed
        assert re.search(r"(Current thread|Thread) 0x[0-9a-f]+", crashed), crashed  # the stacks, every thread's
        assert 'File "' in crashed

        before = len(server.log.read_text())
        server.start()
        started = server.log.read_text()[before:]
        assert re.search(
            r"warning: the last run of node n1 ended without stopping cleanly \(killed, out of memory or crashed; "
            r"last seen alive at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\): 1 such ends in 3 starts",
            started,
        ), started
        assert _metrics(server) == {"racko_process_starts_total": 3.0, "racko_process_unclean_ends_total": 1.0}
        server.kill()  # SIGKILL: no line can be written; the next start says it

        before = len(server.log.read_text())
        server.start()
        assert "2 such ends in 4 starts" in server.log.read_text()[before:]
        assert _metrics(server) == {"racko_process_starts_total": 4.0, "racko_process_unclean_ends_total": 2.0}
        _end(server, signal.SIGINT)
        assert "racko serve: SIGINT received" in server.log.read_text()[before:]
    finally:
        server.kill()


def test_an_exception_in_a_thread_or_an_unawaited_task_is_a_log_line(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    report_crashes()

    def broken() -> None:
        raise RuntimeError("the disk is full")

    with caplog.at_level(logging.INFO, logger="racko.serve"):
        thread = threading.Thread(target=broken, name="racko-worker")
        thread.start()
        thread.join()

        async def main() -> None:
            watch_the_loop()

            async def dies() -> None:
                raise ValueError("a task that nobody awaited")

            task = asyncio.get_running_loop().create_task(dies())
            await asyncio.sleep(0.01)
            del task
            gc.collect()
            await asyncio.sleep(0.01)

        asyncio.run(main())
    assert "a thread (racko-worker) ended by an error: Traceback" in caplog.text
    assert "RuntimeError: the disk is full" in caplog.text
    assert "ValueError: a task that nobody awaited" in caplog.text
    import faulthandler

    faulthandler.disable()
