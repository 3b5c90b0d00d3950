"""The bots room: the Bot API (docs/BOTS.md), through which a program plays at racko's tables with a bot account's
token: its events (a game started, a game finished), its seat's view of a game as a stream that resumes by sequence
number, and its moves through the table room's one path for moves."""

from racko.web.bots.api import KEEP_ALIVE_SECONDS, PROTOCOL, BotEvents, routes

__all__ = ["KEEP_ALIVE_SECONDS", "PROTOCOL", "BotEvents", "routes"]
