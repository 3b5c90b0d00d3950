"""What an operator watches: the server's figures in Prometheus' text format (``GET /metrics``).

Each server application has its own registry, so that several in one process (tests) do not mix their figures.
The names follow Prometheus' conventions: ``racko_`` first, the unit last, ``_total`` for counters.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST
_QUICK = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Buckets for what a person waits for (seconds): a move's commit and its broadcast."""
_THINKING = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The server's instruments.  ``tables`` and ``connections`` are read when Prometheus asks."""

    def __init__(self, tables: Callable[[], float], connections: Callable[[], float]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        open_tables = Gauge("racko_open_tables", "Tables this process holds in memory now.", registry=registry)
        open_tables.set_function(tables)
        open_connections = Gauge(
            "racko_connections", "WebSocket connections open now (players and spectators).", registry=registry
        )
        open_connections.set_function(connections)
        self.actions = Counter("racko_actions", "Actions played (by people and computer players).", registry=registry)

        def waited(name: str, documentation: str) -> Histogram:
            """A wait that a person feels (seconds, the :data:`_QUICK` buckets)."""
            return Histogram(name, documentation, buckets=_QUICK, registry=registry)

        self.commit_after_move = waited(
            "racko_move_commit_seconds", "From a move applied to its commit in the database."
        )
        self.broadcast_after_move = waited(
            "racko_move_broadcast_seconds",
            "From a move applied to the state frame sent to every connection of its table.",
        )
        self.bot_move = waited(
            "racko_bot_move_seconds",
            "A Bot API move, from its request read to its answer (the token, the limits, the commit, the states sent).",
        )
        self.database_commit = waited(
            "racko_database_commit_seconds", "One group commit of the database (every table that moved meanwhile)."
        )
        self.refused = Counter(
            "racko_refused_frames", "Frames refused, by their error code.", ["code"], registry=registry
        )
        self.thinking = Histogram(
            "racko_bot_thinking_seconds",
            "A computer player's time to choose a move (in a worker thread).",
            buckets=_THINKING,
            registry=registry,
        )
        self.tables_created = Counter("racko_tables_created", "Tables made from the start page.", registry=registry)
        self.tables_set_aside = Counter(
            "racko_tables_set_aside", "Tables whose stored rows could not be read back as a game.", registry=registry
        )
        self.tables_dropped = Counter(
            "racko_tables_dropped",
            "Tables handed on: released, lost to another process, or idle.",
            ["why"],
            registry=registry,
        )

        self.starts = Counter(
            "racko_process_starts",
            "Times this node has started (kept in the store across restarts; this run included).",
            registry=registry,
        )
        self.unclean_ends = Counter(
            "racko_process_unclean_ends",
            "Runs of this node that ended without a clean stop (killed, out of memory, crashed): kept in the store.",
            registry=registry,
        )

    def text(self) -> bytes:
        return generate_latest(self.registry)
