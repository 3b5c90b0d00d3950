"""What the server needs from a database, whichever it is: the :class:`TableStore` interface and what its stores share.

A table is kept as what it was set up with (rules, seed, seats) and a journal of its actions, appended one by one:
the game is its replay (same seed + same actions = same game).  An action is committed before anybody is told it
happened.  A store that several server processes share (PostgreSQL) also keeps who plays each table: a lease that
its owner renews, taken over only once it has expired, and every write of a table is fenced by the owner's claim,
so that two processes never both write one table's journal (docs/SCALING.md).

The stores share two more pieces: the schema (:mod:`.schema`: its version, the rooms' own tables) and the journal's
rows (:mod:`.journal`: the writes queued for it, its rows read back).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from racko.web.store.rows import Rows

if TYPE_CHECKING:
    from racko.web.store.schema import SchemaPart

T = TypeVar("T")

SYNC_LEVELS = ("full", "normal")
"""SQLite's ``synchronous`` settings the server offers: ``full`` syncs the journal at every commit (a power cut
loses nothing committed), ``normal`` syncs at checkpoints (a power cut may lose the last commits; a crash of the
server process alone never does).  PostgreSQL: ``full`` waits for the server's WAL flush at every commit
(``synchronous_commit = on``), ``normal`` does not (``off``: a crash of the database server may lose the last
commits, never corrupt them)."""


IDLE_DAYS = 30.0
"""Tables nobody touched for this many days are forgotten (their finished records with them)."""
UNPLAYED_DAYS = 1.0
"""Tables on which no move was ever made, and nobody did anything for this long, are forgotten."""


class StoreError(Exception):
    """A database the server cannot use, said for the person who runs it (never with a traceback)."""


class ForeignDatabaseError(StoreError):
    """The database holds something other than racko's tables (or a schema this version does not know)."""


class DamagedTableError(StoreError):
    """One table's stored rows cannot be read back as a game: the table is set aside, every other one is served."""

    def __init__(self, table_id: str, reason: str) -> None:
        super().__init__(f"table {table_id}: {reason}")
        self.table_id = table_id
        self.reason = reason


@dataclass(frozen=True)
class StoredTable:
    """A table as kept: its set-up and its game so far."""

    table_id: str
    setup: dict[str, Any]
    """The rules, seed and seats (names, bots, the hashes of the seat tokens): JSON-ready."""
    actions: tuple[dict[str, Any], ...]
    """The game's actions so far, as records write them."""
    created: float
    touched: float
    finished: bool
    times: tuple[float | None, ...] = ()
    """When each action was played (the server's clock, seconds since the epoch); ``None`` for rows older than
    clocks."""
    made_by: tuple[str | None, ...] = ()
    """Who played each action when not the seat's own player: ``clock`` (its time ran out), ``gone`` (the seat was
    gone), ``None`` (the seat's player, person or computer)."""
    due: float | None = None
    """When the running clock's turn runs out, as last written (``None``: no clock runs)."""


@dataclass(frozen=True)
class Holder:
    """Another process that plays a table now: its node name, and how long its lease still runs."""

    node: str
    seconds_left: float


class TableStore(Protocol):
    """What the server needs from a database.  Every write is committed (durable at the store's sync level) when
    the call returns, or, in a store that groups its commits, when :meth:`commit` next returns: the server tells
    nobody about a table's change while :meth:`unsaved` says it is not committed yet."""

    shared: bool
    """Whether several server processes may use this database at once (then :meth:`claim` decides who plays)."""

    node: str
    """This process's name among the processes sharing the database (the proxy routes ``?node=`` by it)."""

    def describe(self) -> str:
        """Where the tables are kept, for the operator (a path, or a URL without its password)."""

    def unsaved(self, table_id: str) -> bool:
        """Whether the table has writes not committed yet (always False for a store that commits every write)."""

    def stage(self) -> None:
        """Write what is queued into the open transaction without syncing the disk (quick: the server calls it on its
        event loop, then :meth:`commit` in a worker thread, so that the worker only waits for the disk)."""

    def commit(self) -> None:
        """Commit every write not committed yet, as one transaction (raises, and keeps none of them, when it
        cannot); writes made meanwhile (from another thread) wait for the next commit."""

    def lost(self, table_id: str) -> str | None:
        """Why the table's last writes were not kept, if a commit lost them (asking forgets it)."""

    def create(self, table_id: str, setup: dict[str, Any], *, due: float | None = None) -> None:
        """A new table (``due``: its first turn's deadline, when its clock has started)."""

    def append(
        self,
        table_id: str,
        first: int,
        actions: list[dict[str, Any]],
        *,
        at: float | None = None,
        by: str | None = None,
        due: float | None = None,
    ) -> None:
        """Add actions ``first``, ``first + 1`` … to the table's journal, played at ``at`` (the server's time) ``by``
        whom (:attr:`StoredTable.made_by`); the table's deadline becomes ``due`` (the running clock's, or ``None``)."""

    def set_due(self, table_id: str, due: float | None) -> None:
        """The table's deadline changed without an action (its clock started, a seat came back)."""

    def overdue(self, now: float) -> list[str]:
        """The tables whose deadline has passed at ``now`` (the server's time) and that no other live process holds
        (a process that claims one applies its timeout)."""

    def update_setup(self, table_id: str, setup: dict[str, Any]) -> None:
        """A changed set-up (a seat's name, a seat handed to a computer player)."""

    def restart(self, table_id: str, setup: dict[str, Any], record: str) -> None:
        """File the finished game's record and start the table's next game from ``setup`` (an empty journal)."""

    def finish(self, table_id: str, record: str) -> None:
        """File the finished game's record; the table stays, to be shown and played again."""

    def rewrite_records(self, table_id: str, texts: dict[int, str]) -> None:
        """Replace finished games' records filed at the table, by their number (from 0, in the order
        :meth:`records` lists them): a forgotten player's name taken out of them."""

    def load(self, table_id: str) -> StoredTable | None:
        """The table, or ``None`` if there is none; raises :class:`DamagedTableError` for rows it cannot read."""

    def records(self, table_id: str) -> list[str]:
        """The table's finished games, oldest first, as record JSON."""

    def open_tables(self) -> Iterator[str]:
        """The ids of tables whose game is not over."""

    def sweep(self, idle_seconds: float, unplayed_seconds: float) -> int:
        """Forget the tables nobody touched for ``idle_seconds`` (their finished records too), and those on which no
        move was ever made and nothing happened for ``unplayed_seconds``; how many (a table another process plays
        now is never forgotten)."""

    def claim(self, table_id: str) -> Holder | None:
        """Become the table's only player: ``None`` when this process now holds its lease (or did already), else who
        holds it.  Every later write of the table is fenced by this claim."""

    def renew(self) -> list[str]:
        """Renew the lease of every table this process holds; the ids of those it no longer holds (taken over after
        this process was too slow to renew: they must be dropped at once)."""

    def release(self, table_id: str) -> None:
        """Stop playing the table (its writes are committed first): any process may claim it now."""

    def prepare(self, parts: Sequence[SchemaPart]) -> None:
        """Make the rooms' tables where missing and bring an older database's rows up to this version (blocking:
        once, before the server serves); the sweep then forgets the rows they keep per table with their table."""

    def run(self, work: Callable[[Rows], T], *, durable: bool = True) -> T:
        """Run ``work`` in one transaction (blocking: call it in a worker thread); all of it is kept or none.
        ``durable=False``: what a power cut may lose at no cost (a rate limit's count, an open stream's note): the
        commit does not wait for the disk (SQLite's ``synchronous=NORMAL``, PostgreSQL's ``synchronous_commit =
        off`` for it alone), so that it never holds up the moves' commits; a crash of the server alone loses none."""

    def read(self, work: Callable[[Rows], T]) -> T:
        """Run ``work``, which only reads, on a consistent snapshot of what is committed (blocking: call it in a
        worker thread); it waits for no write and makes none commit sooner."""

    def close(self) -> None: ...
