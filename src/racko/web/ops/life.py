"""How a server process lives and dies, said in its log: a process that ends leaves a line that says how.

- **A fatal signal** (a segmentation fault, an abort, a bus error, an illegal instruction, a floating-point error):
  Python's :mod:`faulthandler` writes ``Fatal Python error: …`` and every thread's stack to standard error, the log,
  as the process dies (no Python code runs then: these lines are written as they are, even with ``--log-format
  json``).
- **SIGTERM and SIGINT** (``systemctl stop``, Ctrl+C): a log line names the signal before the server stops cleanly
  (:class:`LoggedServer`); the stop's own line follows.  A second one stops it at once, and says so.
- **An exception** that ends the process, or a worker thread, or that nobody awaited in the event loop: a log line
  with its traceback (:func:`report_crashes`, :func:`watch_the_loop`).
- **Anything else** (SIGKILL, the kernel's out-of-memory killer, a power cut) leaves no line of its own; the next
  start of the same node says so (:class:`Runs`: ``the last run of node … ended without stopping cleanly``), and
  ``/metrics`` counts the starts and such ends of each node (``racko_process_starts_total``,
  ``racko_process_unclean_ends_total``), kept in the store across restarts.
"""

from __future__ import annotations

import asyncio
import faulthandler
import logging
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from types import FrameType, TracebackType
from typing import Any

import uvicorn

from racko.web.store import Rows, SchemaPart, TableStore

SCHEMA = SchemaPart.of_room("ops")
"""The runs of each node: how often it started, how many of its runs ended without a clean stop, when it was last
seen alive."""
SEEN_SECONDS = 30.0
"""How often a running process notes that it is alive (what the next start says of a run that ended unseen)."""
log = logging.getLogger("racko.serve")


def _traceback(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> str:
    return "".join(traceback.format_exception(kind, error, trace)).rstrip()


def report_crashes() -> None:
    """Fatal signals to the log (faulthandler, every thread's stack), and an exception that ends the process or a
    thread as a log line with its traceback."""
    faulthandler.enable(file=sys.stderr, all_threads=True)

    def process_ended(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        log.critical("racko serve ended by an error: %s", _traceback(kind, error, trace))

    def thread_ended(arguments: Any) -> None:
        if arguments.exc_type is SystemExit:
            return
        name = arguments.thread.name if arguments.thread is not None else "?"
        trace = _traceback(arguments.exc_type, arguments.exc_value, arguments.exc_traceback)
        log.error("a thread (%s) ended by an error: %s", name, trace)

    sys.excepthook = process_ended
    threading.excepthook = thread_ended


def watch_the_loop() -> None:
    """In the server's event loop: an exception nobody awaited (a task that died) is a log line, not lost."""

    def unawaited(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        said = context.get("message", "an error in the event loop")
        if isinstance(error, BaseException):
            said += ": " + _traceback(type(error), error, error.__traceback__)
        log.error("%s", said)

    asyncio.get_running_loop().set_exception_handler(unawaited)


class LoggedServer(uvicorn.Server):
    """uvicorn's server, whose SIGTERM and SIGINT leave a line in the log before it stops."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        if self.should_exit:
            log.warning("racko serve: %s again: stopping at once", name)
        else:
            log.warning("racko serve: %s received: stopping (every table is handed on first)", name)
        super().handle_exit(sig, frame)


@dataclass(frozen=True)
class Started:
    """This run of a node: how many times the node has started (this one included), how many of its runs ended
    without a clean stop, and when the last one was last seen alive if it ended so (else None)."""

    starts: int
    unclean: int
    last_seen_unclean: float | None


class Runs:
    """Each node's runs, in the store: started, seen alive now and then, stopped cleanly or not."""

    def __init__(self, store: TableStore, now: Any = time.time) -> None:
        self.store = store
        self.node = store.node or "-"
        self.now = now

    def started(self) -> Started:
        """A run begins (blocks): the last one of this node, if it never said it stopped, ended uncleanly."""
        now = self.now()

        def work(rows: Rows) -> Started:
            found = rows("SELECT starts, unclean, seen, running FROM racko_runs WHERE node = ?", (self.node,))
            if not found:
                rows(
                    "INSERT INTO racko_runs (node, starts, unclean, started, seen, running) VALUES (?, 1, 0, ?, ?, 1)",
                    (self.node, now, now),
                )
                return Started(1, 0, None)
            starts, unclean, seen, running = found[0]
            ended_unseen = bool(running)
            total = Started(int(starts) + 1, int(unclean) + ended_unseen, float(seen) if ended_unseen else None)
            rows(
                "UPDATE racko_runs SET starts = ?, unclean = ?, started = ?, seen = ?, running = 1 WHERE node = ?",
                (total.starts, total.unclean, now, now, self.node),
            )
            return total

        return self.store.run(work)

    def seen(self) -> None:
        """The run is alive now (blocks)."""
        self.store.run(lambda rows: rows("UPDATE racko_runs SET seen = ? WHERE node = ?", (self.now(), self.node)))

    def stopped(self) -> None:
        """The run stops cleanly (blocks)."""
        self.store.run(
            lambda rows: rows("UPDATE racko_runs SET seen = ?, running = 0 WHERE node = ?", (self.now(), self.node))
        )

    async def keep(self, seconds: float = SEEN_SECONDS) -> None:
        """For the server's life: note now and then that it is alive (a failure is no reason to stop)."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await asyncio.to_thread(self.seen)
            except Exception as error:
                log.warning("this run could not be noted alive: %s", type(error).__name__)


def said_of(started: Started, node: str) -> str | None:
    """The log line a start owes to a last run that ended without a clean stop (None if it stopped cleanly)."""
    if started.last_seen_unclean is None:
        return None
    seen = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started.last_seen_unclean))
    return (
        f"the last run of node {node} ended without stopping cleanly (killed, out of memory or crashed; last seen "
        f"alive at {seen}): {started.unclean} such ends in {started.starts} starts"
    )
