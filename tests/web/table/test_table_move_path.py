"""A move's way through the server's code, from the frame that brings it to every seat's frame that tells it: the
modules of ``racko.web`` whose code runs on the way (docs/ARCHITECTURE.md, "A move's way"), so that a new layer on the
path is a choice someone made and wrote down, not an accident."""

from __future__ import annotations

import sys
import threading
from types import FrameType
from typing import Any

from starlette.testclient import TestClient

from tables import hello, make_table, table_app, until_frame

MOVE_PATH = {
    "racko.web.core.frames",  # the frame read within bounds
    "racko.web.core.limits",  # the socket's rate
    "racko.web.table.routes",  # the frame's handler
    "racko.web.table.moves",  # the move checked and played
    "racko.web.table.seats",  # the seat's state: its person plays it
    "racko.web.table.table",  # the table: its journal appended, its clock derived
    "racko.web.clock.clock",  # the journal's times as the clock reads them
    "racko.web.table.changes",  # the one step after a change
    "racko.web.table.registry",  # the commit waited for
    "racko.web.store.sqlite",  # the database
    "racko.web.store.journal",  # the writes queued
    "racko.web.table.watching",  # every connection told
    "racko.web.table.views",  # each one's frame built from its own view
    "racko.web.table.turns",  # the table's driver looks again
}
"""14 modules; 17 before issue 47 (the table room's facade and its clock's free functions were on the way)."""


def test_a_move_crosses_the_modules_the_architecture_names() -> None:
    crossed: set[str] = set()
    recording = False

    def note(frame: FrameType, event: str, arg: Any) -> None:
        # A coroutine resumed is called again: what runs on the way counts, whether it started there or earlier.
        if recording and event == "call":
            module = frame.f_globals.get("__name__", "")
            if module.startswith("racko.web."):
                crossed.add(module)

    threading.setprofile(note)  # the test client's server runs in a thread of its own, started below
    try:
        with TestClient(table_app()) as client:
            links = make_table(client, names=["Ann", "Bob"])
            ann, bob = (seat["token"] for seat in links["seats"])
            with (
                client.websocket_connect(f"/ws/{links['table']}") as first,
                client.websocket_connect(f"/ws/{links['table']}") as second,
            ):
                hello(first, ann)
                hello(second, bob)
                second.send_json({"type": "name", "name": "Bob"})  # both seats taken: the game is on
                state = until_frame(second, "state")
                until_frame(first, "state")
                actor, other = (first, second) if state["view"]["to_act"] == 0 else (second, first)
                recording = True
                actor.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
                for ws in (actor, other):
                    told = until_frame(ws, "state")
                    assert told["version"] == state["version"] + 1
                recording = False
    finally:
        threading.setprofile(None)
        sys.setprofile(None)
    assert crossed == MOVE_PATH, (
        f"a move now also crosses {sorted(crossed - MOVE_PATH)} and no longer {sorted(MOVE_PATH - crossed)}: "
        "say why in docs/ARCHITECTURE.md and here"
    )
