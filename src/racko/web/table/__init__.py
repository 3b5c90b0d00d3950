"""The table room: every table this process plays (:class:`Hub`), what each connection is shown (:mod:`.views`), and
the table's routes (the start page, the table's page and socket, its records)."""

from racko.web.table.hub import Hub
from racko.web.table.registry import DAMAGED, IDLE_SECONDS
from racko.web.table.requests import (
    Asker,
    BotAccountSeat,
    Consent,
    LevelSeat,
    PersonSeat,
    SeatRequest,
    TableRequest,
    clock_of,
    request_of_form,
    rules_of,
)
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
from racko.web.table.views import card_json, log_entries, replay_steps

__all__ = [
    "DAMAGED",
    "IDLE_SECONDS",
    "Asker",
    "BotAccountSeat",
    "Consent",
    "Elsewhere",
    "Hub",
    "LevelSeat",
    "PersonSeat",
    "SeatRequest",
    "Table",
    "TableRequest",
    "Watcher",
    "card_json",
    "clock_of",
    "log_entries",
    "made_by_of",
    "replay_steps",
    "replay_stored",
    "request_of_form",
    "routes",
    "rules_of",
    "seat_is_free",
    "seat_of_player",
    "seat_of_token",
    "token_hash",
]
