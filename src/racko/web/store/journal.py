"""The journal as the stores keep it: the writes a grouping store has queued for it, and its rows read back (a
table's set-up and actions, or :class:`~racko.web.store.base.DamagedTableError` saying what is wrong with them).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any, Generic, TypeVar

from racko.web.store.base import DamagedTableError, StoredTable

Write = TypeVar("Write")


class WriteQueue(Generic[Write]):
    """The writes a grouping store has been given and not yet committed, per table, and those a commit lost.

    Thread-safe: the event loop queues writes while a worker thread commits the ones taken before."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queued: list[tuple[str, Write]] = []
        self._unsaved: Counter[str] = Counter()
        self._lost: dict[str, str] = {}

    def put(self, table_id: str, write: Write) -> None:
        with self._lock:
            self._queued.append((table_id, write))
            self._unsaved[table_id] += 1

    def take(self) -> list[tuple[str, Write]]:
        """The writes queued so far (they stay unsaved until :meth:`settled`)."""
        with self._lock:
            batch, self._queued = self._queued, []
        return batch

    def settled(self, table_ids: list[str], failed: dict[str, str]) -> None:
        """The writes of ``table_ids`` (one entry per write) were committed, but for the tables in ``failed``."""
        with self._lock:
            self._lost.update(failed)
            for table_id in table_ids:
                self._unsaved[table_id] -= 1
                if self._unsaved[table_id] <= 0:
                    del self._unsaved[table_id]

    def unsaved(self, table_id: str) -> bool:
        with self._lock:
            return self._unsaved[table_id] > 0

    def lost(self, table_id: str) -> str | None:
        with self._lock:
            return self._lost.pop(table_id, None)


def setup_from_text(table_id: str, text: Any) -> dict[str, Any]:
    """A stored set-up, or :class:`DamagedTableError` saying why it is not one."""
    try:
        setup = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise DamagedTableError(table_id, "its set-up is not JSON") from None
    if not isinstance(setup, dict) or not isinstance(setup.get("seats"), list) or "rules" not in setup:
        raise DamagedTableError(table_id, "its set-up has no rules or seats")
    return setup


def actions_from_texts(table_id: str, rows: list[tuple[int, Any]]) -> tuple[dict[str, Any], ...]:
    """A stored journal (``(number, text)`` rows in order), or :class:`DamagedTableError` naming the first bad row."""
    actions = []
    for expected, (number, text) in enumerate(rows):
        if number != expected:
            raise DamagedTableError(table_id, f"its journal has no action {expected + 1}")
        try:
            action = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise DamagedTableError(table_id, f"action {expected + 1} of its journal is not JSON") from None
        if not isinstance(action, dict):
            raise DamagedTableError(table_id, f"action {expected + 1} of its journal is not an action")
        actions.append(action)
    return tuple(actions)


def stored_table(table_id: str, row: tuple[Any, ...], actions: list[tuple[Any, ...]]) -> StoredTable:
    """A table read back from its row (``setup, created, touched, finished, due``) and its journal's rows
    (``number, action, played_at, made_by``), or :class:`DamagedTableError`."""
    setup = setup_from_text(table_id, row[0])
    times = tuple(None if at is None else float(at) for _, _, at, _ in actions)
    made_by = tuple(by if isinstance(by, str) else None for _, _, _, by in actions)
    journal = actions_from_texts(table_id, [(number, text) for number, text, _, _ in actions])
    due = None if row[4] is None else float(row[4])
    return StoredTable(table_id, setup, journal, row[1], row[2], bool(row[3]), times, made_by, due)
