"""The lobby room: quick play's queues and matching, the lines of the public tables, who is online, rematches
(:mod:`.lobby`), and its routes (:mod:`.routes`)."""

from racko.web.lobby.lobby import FILL_SECONDS, LINE_KEYS, SCHEMA, Lobby, lobby_change
from racko.web.lobby.routes import LobbyRoutes

__all__ = ["FILL_SECONDS", "LINE_KEYS", "SCHEMA", "Lobby", "LobbyRoutes", "lobby_change"]
