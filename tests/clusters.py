"""What the tests of several server processes share: real `racko serve` processes on one PostgreSQL database, behind
HAProxy, started for a test and stopped (killed) after it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from racko.tools.bench.processes import Proxy, ServeProcess


@contextlib.contextmanager
def serving_cluster(
    tmp_path: Path, postgres_url: str, nodes: tuple[str, ...]
) -> Iterator[tuple[list[ServeProcess], Proxy]]:
    """One `racko serve` per node (no pace, tables made at a machine's speed) and the proxy in front of them."""
    servers = [
        ServeProcess(tmp_path, postgres_url, node, "--pace", "0", "--new-tables-per-minute", "1000") for node in nodes
    ]
    proxy: Proxy | None = None
    try:
        for server in servers:
            server.start()
        proxy = Proxy(tmp_path, servers, check_seconds=0.5)
        proxy.start()
        yield servers, proxy
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.kill()
