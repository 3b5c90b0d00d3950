"""The reverse proxy in front of several ``racko serve`` processes: HAProxy, routing every request about a table to
one process by the table's id (``racko proxy-config`` prints the configuration; docs/DEPLOY.md).

- ``/t/{table}``, ``/ws/{table}``, ``/api/tables/{table}/…`` and the Bot API's ``/api/bot/game/stream/{table}`` and
  ``/api/bot/game/{table}/…`` go to the process that the table's id hashes to
  (consistent hashing over the processes that pass their health check, ``GET /healthz``): when a process stops, only
  its tables move, and the process they move to takes them over once their lease has run out.
- ``?node=NAME`` sends a connection to that process while it is up: a process that does not play a table tells the
  page (or bot) which one does (``elsewhere``), and the page reconnects there.
- Everything else (the start page, static files, making a table) goes to any process that is up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ADDRESS = re.compile(r"(?P<host>[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:]+\]):(?P<port>[0-9]{1,5})")


@dataclass(frozen=True)
class Backend:
    """One ``racko serve`` process: its node name (``--node``) and the address it listens on."""

    node: str
    address: str


def parse_backend(text: str) -> Backend:
    """``NODE=HOST:PORT`` (or ``HOST:PORT``, named after its port); :class:`ValueError` says what is wrong."""
    node, _, address = text.rpartition("=")
    if not ADDRESS.fullmatch(address):
        raise ValueError(f"a server is HOST:PORT or NODE=HOST:PORT, not {text!r}")
    if not node:
        node = "racko-" + address.rsplit(":", 1)[1]
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", node):
        raise ValueError(f"a node name is 1 to 40 letters, digits, '.', '_' or '-', not {node!r}")
    return Backend(node, address)


def haproxy_config(backends: list[Backend], listen: str, *, check_seconds: float = 1.0, connections: int = 4000) -> str:
    """The HAProxy configuration (version 2.6 or later) for ``backends``, listening on ``listen`` (HOST:PORT), with
    at most ``connections`` client connections at once (HAProxy needs twice as many file descriptors)."""
    if not backends:
        raise ValueError("name at least one server")
    if len({backend.node for backend in backends}) != len(backends):
        raise ValueError("each server needs a node name of its own")
    if not ADDRESS.fullmatch(listen):
        raise ValueError(f"listen on HOST:PORT, not {listen!r}")
    check = f"check inter {int(check_seconds * 1000)}ms fall 2 rise 2"
    servers = "\n".join(f"    server {backend.node} {backend.address} {check}" for backend in backends)
    pinned = "\n".join(f"    use-server {b.node} if {{ urlp(node) -m str {b.node} }}" for b in backends)
    return f"""# HAProxy in front of {len(backends)} racko serve processes (made by `racko proxy-config`).
global
    maxconn {connections}

defaults
    mode http
    option forwardfor
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    # A table's WebSocket lives as long as the game: it is closed by either end, not by an idle timer.
    timeout tunnel 2h
    retries 2
    option redispatch

frontend racko
    bind {listen}
    http-request set-var(txn.table) path,field(3,/) if {{ path_beg /t/ /ws/ }}
    http-request set-var(txn.table) path,field(4,/) if {{ path_beg /api/tables/ }}
    http-request set-var(txn.table) path,field(5,/) if {{ path_beg /api/bot/game/ }}
    http-request set-var(txn.table) path,field(6,/) if {{ path_beg /api/bot/game/stream/ }}
    use_backend racko_tables if {{ var(txn.table) -m found }}
    default_backend racko_any

backend racko_tables
    balance hash var(txn.table)
    hash-type consistent
    option httpchk GET /healthz
    http-check expect status 200
{pinned}
{servers}

backend racko_any
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
{servers}
"""
