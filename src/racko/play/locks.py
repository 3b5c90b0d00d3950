"""A lock that one process holds on a file while it plays (a terminal's data folder, a server's SQLite file): the
operating system drops it when the process dies, so a crash never leaves a game locked."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def lock_exclusively(path: Path) -> int | None:
    """Hold an exclusive lock on ``path`` (made owner-only if missing, never through a link): its descriptor, which
    keeps the lock until it is closed, or None when another process holds the lock."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor
