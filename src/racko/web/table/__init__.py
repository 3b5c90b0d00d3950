"""The table room: every table this process plays (:class:`TableRoom`, its parts joined), each seat's life as one
state machine (:mod:`.seats`), a table's typed set-up (:class:`Setup`) and the one typed request every way of making
a table goes through (:class:`TableRequest`), what each connection is shown (:mod:`.views`), who won (:mod:`.results`),
and the table's routes (the start page, the table's page and socket, its records)."""

from racko.web.table.changes import FinishedGame, TableNews, Topic, TurnNews
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
from racko.web.table.results import Standing, match_places, places_of, sides_of, standing
from racko.web.table.room import TableRoom
from racko.web.table.routes import TableRoutes
from racko.web.table.seats import TRANSITIONS, SeatEvent, Seats, SeatState, transitions_table
from racko.web.table.setup import Left, SeatSetup, Setup, SetupError
from racko.web.table.table import (
    Elsewhere,
    Table,
    Watcher,
    made_by_of,
    noted_record,
    replay_stored,
    seat_of_token,
    token_hash,
)
from racko.web.table.turns import TURN_LIMIT
from racko.web.table.views import PLACE_FIELDS, card_json, log_entries, place_index, replay_steps
from racko.web.table.ways import WAYS

__all__ = [
    "DAMAGED",
    "IDLE_SECONDS",
    "PLACE_FIELDS",
    "TRANSITIONS",
    "TURN_LIMIT",
    "WAYS",
    "Asker",
    "BotAccountSeat",
    "Consent",
    "Elsewhere",
    "FinishedGame",
    "Left",
    "LevelSeat",
    "PersonSeat",
    "SeatEvent",
    "SeatRequest",
    "SeatSetup",
    "SeatState",
    "Seats",
    "Setup",
    "SetupError",
    "Standing",
    "Table",
    "TableNews",
    "TableRequest",
    "TableRoom",
    "TableRoutes",
    "Topic",
    "TurnNews",
    "Watcher",
    "card_json",
    "clock_of",
    "log_entries",
    "made_by_of",
    "match_places",
    "noted_record",
    "place_index",
    "places_of",
    "replay_steps",
    "replay_stored",
    "request_of_form",
    "rules_of",
    "seat_of_token",
    "sides_of",
    "standing",
    "token_hash",
    "transitions_table",
]
