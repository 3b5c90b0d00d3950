"""The store's schema: its name and version, kept in the database, and the rooms' own tables (:class:`SchemaPart`).

Each room that keeps rows in the store writes the SQL of its tables in its own ``racko/web/<room>/tables.sql``, read
by :meth:`SchemaPart.of_room`; :meth:`~racko.web.store.base.TableStore.prepare` makes them where missing and brings
an older database up to :data:`SCHEMA_VERSION`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources

from racko.web.store.rows import Rows

SCHEMA_NAME = "racko-tables"
SCHEMA_VERSION = 6
"""Kept in the database's own meta table: a database of another schema (or a newer version) is refused.  Version 2
added the meta table (SQLite; PostgreSQL began at 2), version 3 the rooms' tables (players, their games and
ratings, the lobby's listings), version 4 the seats to forget, version 5 the clocks (when each action was played and
by whom, a table's deadline: :data:`JOURNAL_UPGRADES`), version 6 whose move it is at a player's tables (the players
room).  A database of an older version is brought up by
:meth:`~racko.web.store.base.TableStore.prepare` (the rooms' :class:`SchemaPart` upgrades), which then writes this
version."""


JOURNAL_UPGRADES = {
    "sqlite": (
        (5, "ALTER TABLE actions ADD COLUMN played_at REAL"),
        (5, "ALTER TABLE actions ADD COLUMN made_by TEXT"),
        (5, "ALTER TABLE tables ADD COLUMN due REAL"),
    ),
    "postgres": (
        (5, "ALTER TABLE racko_actions ADD COLUMN IF NOT EXISTS played_at DOUBLE PRECISION"),
        (5, "ALTER TABLE racko_actions ADD COLUMN IF NOT EXISTS made_by TEXT"),
        (5, "ALTER TABLE racko_tables ADD COLUMN IF NOT EXISTS due DOUBLE PRECISION"),
        (5, "CREATE INDEX IF NOT EXISTS racko_tables_due ON racko_tables (due) WHERE due IS NOT NULL"),
    ),
}
"""What brings the journal's own tables (each store's) up to this version: the older rows keep no time (a clock
running on them starts again when its table is opened) and no deadline."""


@dataclass(frozen=True)
class SchemaPart:
    """A room's own tables in the store: made where missing (SQL both databases speak; ``{REAL}`` is a double), what
    becomes of their rows when an older database is brought up, and which of them keep rows per table."""

    room: str
    tables: str
    upgrades: tuple[tuple[int, str], ...] = ()
    """``(version, statement)``: run once, when a database older than that version is brought up."""
    kept_by_table: tuple[str, ...] = ()
    """Its tables whose rows belong to one table (by a ``table_id`` column): forgotten with their table."""

    @classmethod
    def of_room(
        cls, room: str, *, upgrades: tuple[tuple[int, str], ...] = (), kept_by_table: tuple[str, ...] = ()
    ) -> SchemaPart:
        """The room's part, its tables made by the SQL of its ``tables.sql`` (package data, beside its
        ``words.json``)."""
        tables = resources.files("racko.web").joinpath(room, "tables.sql").read_text(encoding="utf-8")
        return cls(room, tables, upgrades, kept_by_table)


def schema_work(parts: Sequence[SchemaPart], real: str, found: int) -> Callable[[Rows], None]:
    """The transaction that makes the rooms' tables, runs the upgrades a database of version ``found`` needs, and
    writes this version (each store runs it its own way)."""

    def work(rows: Rows) -> None:
        for part in parts:
            for statement in part.tables.format(REAL=real).split(";"):
                if statement.strip():
                    rows(statement)
        for part in parts:
            for version, statement in part.upgrades:
                if found < version:
                    rows(statement)
        rows("UPDATE racko_meta SET value = ? WHERE key = 'version'", (str(SCHEMA_VERSION),))

    return work
