"""Where the arena's chunks run: in this process, in local worker processes, or as tasks on a Ray cluster.

The arena (:mod:`racko.tools.arena`) splits its deals into chunks and hands them
to :func:`run_chunks` with the function that plays one chunk.  This module is the
one place that decides how those chunks run:

* ``"local"`` (the default): ``jobs`` worker processes on this machine (a
  process pool), or this process alone for one job or one chunk;
* ``"ray"``: one Ray task per chunk on a Ray cluster, at most ``jobs`` of them
  running at once (by default as many as the cluster has CPUs).  Ray is imported
  only here and only then: it is the optional extra ``racko[ray]``.

Both give the parts back in chunk order, so the caller adds them up the same way
whatever ran them; and as deal ``k`` depends only on the seed and ``k``, the
figures are the same for any backend and any number of jobs.  Progress is
reported in the calling process as chunks finish; an error or Ctrl-C stops the
work at once (local workers are terminated, Ray tasks cancelled) and is raised.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, Literal, TypeVar

import racko
from racko.errors import RackoError

Progress = Callable[[int, int], None]
"""Called as ``progress(deals_done, deals_total)`` in the calling process as chunks finish."""

Backend = Literal["local", "ray"]
BACKENDS: tuple[Backend, ...] = ("local", "ray")

RAY_INSTALL = "pip install 'racko[ray]'"
CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a Ray cluster's address to answer before saying it cannot be reached."""

Job = TypeVar("Job")
Part = TypeVar("Part")


@dataclass(frozen=True)
class Chunked(Generic[Part]):
    """What :func:`run_chunks` gives back."""

    parts: list[Part]
    """The chunks' results, in chunk order."""
    jobs: int
    """How many chunks could run at once: worker processes, or Ray tasks."""


def chunks(total: int, jobs: int, largest: int) -> list[tuple[int, int]]:
    """``range(total)`` as ``(start, stop)`` chunks: about 20 a worker, so that progress moves and the workers
    finish together, and none larger than ``largest``.

    >>> chunks(10, 1, 4)
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9), (9, 10)]
    >>> chunks(1000, 2, 20)[:2], len(chunks(1000, 2, 20))
    ([(0, 20), (20, 40)], 50)
    """
    size = max(1, min(largest, math.ceil(total / (max(jobs, 1) * 20))))
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def run_chunks(
    work: Callable[[Job, int, int], Part],
    job: Job,
    total: int,
    largest_chunk: int,
    progress: Progress | None = None,
    backend: Backend = "local",
    jobs: int | None = None,
    address: str | None = None,
) -> Chunked[Part]:
    """``work(job, start, stop)`` over ``range(total)`` in chunks of at most ``largest_chunk``.

    ``jobs``: worker processes for ``"local"`` (default 1: this process); for
    ``"ray"``, how many chunks may run at once (default: the cluster's CPUs).
    ``address`` is the Ray cluster's (``host:port``, ``ray://host:port``, or
    ``auto``); without one Ray finds a cluster started on this machine (or the
    ``RAY_ADDRESS`` environment variable's), or starts one for the run.  A
    process that has already connected to Ray keeps its connection.

    ``work`` must be a function defined at the top of a module (the Ray workers
    import it).  Raises :class:`~racko.errors.RackoError` when Ray is not
    installed or the cluster cannot be reached.
    """
    if address is not None and backend != "ray":
        raise RackoError("A cluster address is for the ray backend.")
    if backend == "local":
        count = 1 if jobs is None else jobs
        return Chunked(_run_locally(work, job, chunks(total, count, largest_chunk), total, count, progress), count)
    if backend == "ray":
        return _run_on_ray(work, job, total, largest_chunk, progress, jobs, address)
    raise RackoError(f"Unknown backend {backend!r}: one of {', '.join(BACKENDS)}.")


# --- Local processes --------------------------------------------------------------------------


def _ignore_interrupts() -> None:
    # Ctrl-C is handled by the calling process, which cancels the work and shuts the workers down.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context() -> multiprocessing.context.BaseContext:
    # fork (Linux): workers inherit every registered bot, including ones registered at run time.
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the workers, drop the chunks not started, and wait until every worker has exited."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
    else:
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def _run_locally(
    work: Callable[[Job, int, int], Part],
    job: Job,
    pieces: list[tuple[int, int]],
    total: int,
    jobs: int,
    progress: Progress | None,
) -> list[Part]:
    parts: dict[int, Part] = {}
    done = 0
    if progress is not None:
        progress(0, total)
    if jobs <= 1 or len(pieces) <= 1:
        for index, (start, stop) in enumerate(pieces):
            parts[index] = work(job, start, stop)
            done += stop - start
            if progress is not None:
                progress(done, total)
        return [parts[index] for index in range(len(pieces))]
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(pieces)), mp_context=_context(), initializer=_ignore_interrupts
    )
    try:
        pending: dict[Future[Part], int] = {
            pool.submit(work, job, start, stop): index for index, (start, stop) in enumerate(pieces)
        }
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                parts[index] = future.result()  # a worker's error is raised here
                start, stop = pieces[index]
                done += stop - start
                if progress is not None:
                    progress(done, total)
    except BaseException:
        _stop_workers(pool)  # an error or Ctrl-C: stop at once rather than finish the chunks under way
        raise
    pool.shutdown(wait=True)
    return [parts[index] for index in range(len(pieces))]


# --- Ray --------------------------------------------------------------------------------------


def _settle_environment(address: str | None) -> None:
    """Ray's settings for this run, before Ray is imported (it reads them then)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # a cluster started for the run reports nothing home
    if address is None and not os.environ.get("RAY_ADDRESS"):
        # An instance started for one run serves this machine only: Ray then listens on 127.0.0.1, not on the
        # machine's network address (the setting Ray itself uses on a laptop).
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def _import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise RackoError(f"The ray backend needs Ray: install it with {RAY_INSTALL}.") from None
    return ray


def _host_and_port(address: str) -> tuple[str, int] | None:
    """The host and port to try before Ray does (it waits minutes for an address that does not answer);
    ``None`` for the addresses Ray resolves itself (``auto``, ``local``)."""
    rest = address.split("://", 1)[1] if "://" in address else address
    if rest in ("auto", "local"):
        return None
    host, colon, port = rest.rpartition(":")
    if not colon or not host or not port.isdigit():
        raise RackoError(f"A Ray address is host:port (or ray://host:port, or auto), not {address!r}.")
    return host.strip("[]"), int(port)


def _check_reachable(address: str) -> None:
    target = _host_and_port(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=CONNECT_TIMEOUT):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise RackoError(
            f"Cannot reach a Ray cluster at {address} ({reason}): start one with ray start --head, "
            f"and give the address it prints."
        ) from None


def _connect(ray: ModuleType, address: str | None) -> bool:
    """Connect this process to Ray unless it already is; whether it connected (and so must disconnect)."""
    if ray.is_initialized():
        return False
    if address is not None:
        _check_reachable(address)
    try:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,  # the chunks print nothing; keep stdout for --json
            logging_level=logging.WARNING,
        )
    except (ConnectionError, ValueError, RuntimeError) as error:
        where = f"at {address}" if address is not None else "(none found, and none could be started)"
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise RackoError(f"Cannot connect to a Ray cluster {where}: {first}") from None
    return True


def _on_ray(work: Callable[[Any, int, int], Any], job: Any, start: int, stop: int, version: str) -> Any:
    """One chunk, in a Ray worker: on a cluster every node must run the same racko as the caller."""
    if racko.__version__ != version:
        raise RackoError(
            f"A Ray node runs racko {racko.__version__}, this machine racko {version}: "
            f"install the same version on every node."
        )
    return work(job, start, stop)


def _run_on_ray(
    work: Callable[[Job, int, int], Part],
    job: Job,
    total: int,
    largest: int,
    progress: Progress | None,
    jobs: int | None,
    address: str | None,
) -> Chunked[Part]:
    _settle_environment(address)
    ray = _import_ray()
    connected_here = _connect(ray, address)
    try:
        if jobs is None:
            jobs = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pieces = chunks(total, jobs, largest)
        task = ray.remote(num_cpus=1)(_on_ray)
        shared = ray.put(job)  # sent to the cluster once, not once a chunk
        parts: dict[int, Part] = {}
        pending: dict[Any, int] = {}
        submitted = done = 0
        if progress is not None:
            progress(0, total)
        # Ctrl-C only raises a flag, looked at between waits: a KeyboardInterrupt raised inside Ray's own code
        # can leave one of its locks held, and cancelling the tasks then waits on that lock for ever.
        interrupted: list[int] = []
        on_main_thread = threading.current_thread() is threading.main_thread()
        previous = (
            signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(signum)) if on_main_thread else None
        )
        try:
            while submitted < len(pieces) or pending:
                while submitted < len(pieces) and len(pending) < jobs:
                    start, stop = pieces[submitted]
                    pending[task.remote(work, shared, start, stop, racko.__version__)] = submitted
                    submitted += 1
                # A timeout, so that Ctrl-C is seen while waiting.
                finished, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                if interrupted:
                    raise KeyboardInterrupt
                for ref in finished:
                    index = pending.pop(ref)
                    parts[index] = _result(ray, ref)
                    start, stop = pieces[index]
                    done += stop - start
                    if progress is not None:
                        progress(done, total)
        except BaseException:
            for ref in pending:  # an error or Ctrl-C: the chunks under way stop at once, the others never start
                ray.cancel(ref, force=True)
            raise
        finally:
            if on_main_thread:
                signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
        return Chunked([parts[index] for index in range(len(pieces))], jobs)
    finally:
        if connected_here:
            ray.shutdown()


def _result(ray: ModuleType, ref: Any) -> Any:
    """A finished task's part; a chunk's own error is raised as it would be locally (a RackoError as one line)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, RackoError):
            raise RackoError(str(cause)) from None
        raise
    except ray.exceptions.RayError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise RackoError(f"The Ray cluster failed to run a chunk: {first}") from None
