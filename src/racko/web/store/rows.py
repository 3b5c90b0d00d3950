"""What a room's SQL runs in: one transaction of the store's database (:class:`Rows`)."""

from __future__ import annotations

from typing import Any, Protocol


class Rows(Protocol):
    """One transaction of the store's database, for the players, their games and the lobby (rare writes, never
    on a move's path): statements with ``?`` placeholders, answering their rows."""

    def __call__(self, sql: str, parameters: tuple[Any, ...] = ...) -> list[tuple[Any, ...]]: ...
