"""Which seats of a rated table are played from one network address, without keeping anybody's address.

One person with two browsers (two cookies, two players) could sit at a rated table against themselves and farm a
rating.  So a rated table notes, per person seat, the networks its person sat down or connected from, as keyed
hashes (:class:`AddressMarks`: HMAC-SHA-256 under a random key kept in the database's ``racko_meta``, the same for
every process sharing it), never the address itself; when two seats have a network in common the game is played
casual (the table says why), unless the operator allows it (``racko serve --rate-shared-addresses``: a school or a
club behind one address).  An IPv4 address is its own network; an IPv6 address counts by its /64, which one
household or phone usually holds whole.  "Forget me" removes a seat's marks with the rest of the person.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
from collections.abc import Sequence

from racko.web.store import Rows, TableStore

KEY_NAME = "address-key"
"""The ``racko_meta`` row holding the key of the marks (hex)."""
MARKS_PER_SEAT = 4
"""A seat keeps the marks of this many networks at most (a phone moving between Wi-Fi and its own network)."""
SHARED = "shared-address"
"""Why a rated table plays casual: two of its seats were played from one network address."""


def network_of(address: str | None) -> str | None:
    """The network an address counts as (IPv4: itself; IPv6: its /64), or ``None`` for something that is no
    address (a test client's name, a Unix socket)."""
    if not address:
        return None
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class AddressMarks:
    """Keyed hashes of networks: equal for two addresses of one network, telling nothing of the address."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._key: bytes | None = None
        self._lock = threading.Lock()

    def mark(self, address: str | None) -> str | None:
        """The mark of the address's network, or ``None`` if it is no address.  Blocking (the first call reads the
        key, or makes it): call it in a worker thread."""
        network = network_of(address)
        if network is None:
            return None
        digest = hmac.new(self._the_key(), network.encode(), hashlib.sha256).hexdigest()
        return digest[:16]

    def _the_key(self) -> bytes:
        with self._lock:
            if self._key is None:
                self._key = bytes.fromhex(self.store.run(_key_of_the_database))
            return self._key


def _key_of_the_database(rows: Rows) -> str:
    """The database's key of the marks, made the first time (every process sharing the database uses the first)."""
    rows(
        "INSERT INTO racko_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
        (KEY_NAME, secrets.token_hex(32)),
    )
    return str(rows("SELECT value FROM racko_meta WHERE key = ?", (KEY_NAME,))[0][0])


def shares_a_network(networks: Sequence[Sequence[str]]) -> bool:
    """Whether two person seats of a table were played from one network (``networks``: each person seat's marks)."""
    seen: set[str] = set()
    for marks in networks:
        if seen.intersection(marks):
            return True
        seen.update(marks)
    return False
