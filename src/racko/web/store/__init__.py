"""Where the server keeps its tables: one interface (:mod:`.base`), SQLite by default, PostgreSQL for several processes.

``racko serve --db`` names either: a file path (SQLite, one server process) or ``postgresql://USER@HOST:PORT/DB``
(any number of server processes, on any number of machines).  :func:`open_store` tells them apart and refuses
anything else with the reason.
"""

from __future__ import annotations

from pathlib import Path

from racko.web.store.base import (
    IDLE_DAYS,
    SYNC_LEVELS,
    UNPLAYED_DAYS,
    DamagedTableError,
    ForeignDatabaseError,
    Holder,
    StoredTable,
    StoreError,
    TableStore,
)
from racko.web.store.ids import new_id
from racko.web.store.rows import Rows
from racko.web.store.schema import SchemaPart
from racko.web.store.sqlite import SqliteTables

__all__ = [
    "IDLE_DAYS",
    "SYNC_LEVELS",
    "UNPLAYED_DAYS",
    "DamagedTableError",
    "ForeignDatabaseError",
    "Holder",
    "Rows",
    "SchemaPart",
    "SqliteTables",
    "StoreError",
    "StoredTable",
    "TableStore",
    "new_id",
    "open_store",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(location: str | Path, *, sync: str = "full", node: str = "", exclusive: bool = True) -> TableStore:
    """The server's store at ``location`` (a SQLite file's path or a PostgreSQL URL); :class:`StoreError` says why
    it cannot be used.  ``exclusive=False``: a SQLite file that a running server may hold as well (the operator's
    commands, a few short transactions that SQLite's own locking keeps apart from the server's)."""
    text = str(location)
    if text.startswith(POSTGRES_SCHEMES):
        from racko.web.store.postgres import PostgresTables  # psycopg is loaded only by those who use it

        return PostgresTables(text, sync, node=node)
    if "://" in text:
        scheme = text.split("://", 1)[0][:20]
        raise StoreError(
            f"--db is a SQLite file's path or a PostgreSQL URL (postgresql://USER@HOST:PORT/DB), not a {scheme}:// URL."
        )
    return SqliteTables(Path(text).expanduser(), sync, grouped=True, exclusive=exclusive, node=node)
