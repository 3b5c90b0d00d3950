"""What one client may ask of the server, and how fast: frames a connection sends, new tables an address makes,
the size of a request's body, and which pages may use the server at all (their origin)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from starlette.requests import Request

BODY_LIMIT = 4096
"""The largest request body (a new table's settings, a name), in bytes: refused as soon as it is known to be
larger."""
RATE = 15.0
BURST = 40.0
"""Frames a connection may send per second, and in a burst: far above a person's pace, far below a flood."""
NEW_TABLES_PER_ADDRESS = 10
ALL_ADDRESSES = 30
"""New tables a minute from one client address (a burst of that many, then that rate), and from all addresses
together this many times as many; more is answered 429."""


class Bucket:
    """A token bucket: ``take()`` is False once a client goes faster than ``rate`` a second for longer than
    ``burst`` allows."""

    def __init__(self, rate: float, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self) -> bool:
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst


class CreationLimit:
    """New tables a minute, per client address and in all; forgets addresses whose bucket has filled up again."""

    def __init__(self, per_address: int, in_all: int) -> None:
        self.per_address = per_address
        self.everyone = Bucket(in_all / 60, in_all)
        self.addresses: dict[str, Bucket] = {}

    def allows(self, address: str) -> bool:
        if len(self.addresses) > 10_000:
            self.addresses = {key: bucket for key, bucket in self.addresses.items() if not bucket.full()}
        bucket = self.addresses.setdefault(address, Bucket(self.per_address / 60, self.per_address))
        return bucket.take() and self.everyone.take()


class TooBig(Exception):
    """A request body over the limit."""


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (:class:`TooBig`) as soon as it is known to be over ``limit`` bytes: a declared
    length is checked before anything is read, and a body without one is read only up to the limit."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise TooBig
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooBig
        chunks.append(chunk)
    return b"".join(chunks)


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """A request from a browser page carries its page's origin: only this server's own pages (or the origins the
    operator allows) may make tables or open a table's socket.  A program that sends no Origin forges nothing."""
    if origin is None:
        return True
    if origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc.lower() == host.lower()
