"""Keep Python's cycle collector from pausing a busy server for long.

A full collection walks every tracked object: with a thousand tables open (a few hundred thousand objects) one takes
50–200 ms on the 2-core development machine, and it comes back every time the surviving objects grew by a quarter,
stalling every table for that long.  The tables' objects live for hours, so they are moved out of the collector's
way (``gc.freeze``): every ``FREEZE_SECONDS`` the young objects are collected and the survivors frozen, so a full
collection only walks what was made since.  Objects frozen while alive are still freed by their reference counts;
only a cycle among them that dies afterwards waits for the next thaw, every ``THAW_SECONDS``, which collects
everything once (one long pause in that while).  Nothing about the games changes.
"""

from __future__ import annotations

import asyncio
import gc
import time

FREEZE_SECONDS = 1.0
THAW_SECONDS = 900.0


def settle() -> None:
    """Collect what is garbage now and freeze the rest (a pause as long as the objects made since the last one)."""
    gc.collect()
    gc.freeze()


async def keep_collections_short(
    freeze_seconds: float = FREEZE_SECONDS, thaw_seconds: float = THAW_SECONDS
) -> None:  # pragma: no cover - timing
    """Run for the server's life: freeze the survivors often, thaw and collect everything now and then."""
    settle()
    thawed = time.monotonic()
    try:
        while True:
            await asyncio.sleep(freeze_seconds)
            if time.monotonic() - thawed >= thaw_seconds:
                gc.unfreeze()
                thawed = time.monotonic()
            settle()
    finally:
        gc.unfreeze()
