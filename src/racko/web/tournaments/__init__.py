"""The tournaments room (docs/TOURNAMENTS.md): Swiss and arena tournaments for every variant at tables of two to five
seats, for people, bot accounts and racko's levels.  Its settings (:mod:`.settings`), what it keeps in the store
(:mod:`.kept`), the engine that runs them under a lease (:mod:`.runner`), the one place its games become tables
(:mod:`.tables`), what its pages show (:mod:`.views`) and its routes (:mod:`.routes`); the pairing and the standings
themselves are pure functions of :mod:`racko.play.tournaments`."""

from racko.web.core import Refusal
from racko.web.tournaments.kept import CREATED, FINISHED, SCHEMA, STARTED, STATUSES
from racko.web.tournaments.routes import TournamentRoutes
from racko.web.tournaments.runner import (
    CHECK_SECONDS,
    LEASE_SECONDS,
    ROUND_PAUSE,
    TICK_SECONDS,
    Snapshot,
    Tournaments,
    forget_in_tournaments,
    make_tournament,
    start_now,
)
from racko.web.tournaments.settings import KINDS, TournamentSettings
from racko.web.tournaments.tables import RoomTables, Seat, TableMaker, TableOrder, result_of
from racko.web.tournaments.views import listed_now

__all__ = [
    "CHECK_SECONDS",
    "CREATED",
    "FINISHED",
    "KINDS",
    "LEASE_SECONDS",
    "ROUND_PAUSE",
    "SCHEMA",
    "STARTED",
    "STATUSES",
    "TICK_SECONDS",
    "Refusal",
    "RoomTables",
    "Seat",
    "Snapshot",
    "TableMaker",
    "TableOrder",
    "TournamentRoutes",
    "TournamentSettings",
    "Tournaments",
    "forget_in_tournaments",
    "listed_now",
    "make_tournament",
    "result_of",
    "start_now",
]
