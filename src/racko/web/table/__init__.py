"""The table room: every table this process plays (:class:`Hub`), what each connection is shown (:mod:`.views`), and
the table's routes (the start page, the table's page and socket, its records)."""

from racko.web.table.hub import Hub
from racko.web.table.registry import DAMAGED, IDLE_SECONDS
from racko.web.table.routes import routes
from racko.web.table.state import (
    Elsewhere,
    Table,
    Watcher,
    made_by_of,
    replay_stored,
    seat_is_free,
    seat_of_player,
    seat_of_token,
    token_hash,
)
from racko.web.table.views import PLACE_FIELDS, card_json, log_entries, place_index, replay_steps

__all__ = [
    "DAMAGED",
    "IDLE_SECONDS",
    "PLACE_FIELDS",
    "Elsewhere",
    "Hub",
    "Table",
    "Watcher",
    "card_json",
    "log_entries",
    "made_by_of",
    "place_index",
    "replay_steps",
    "replay_stored",
    "routes",
    "seat_is_free",
    "seat_of_player",
    "seat_of_token",
    "token_hash",
]
