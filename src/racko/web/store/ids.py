"""The ids the server makes for its rows (players, tables, tournaments): short, URL-safe and never read as an option.

An id is typed on command lines (``racko admin remove ID``), so it never starts with ``-``: Typer would take
``-vo4…`` for an option and refuse the command.
"""

from __future__ import annotations

import secrets

ID_BYTES = 9


def new_id(nbytes: int = ID_BYTES) -> str:
    """A random URL-safe id of ``nbytes`` random bytes whose first character is not ``-``."""
    while True:
        candidate = secrets.token_urlsafe(nbytes)
        if not candidate.startswith("-"):
            return candidate
