"""The bots room: the Bot API (docs/BOTS.md), through which a program plays at racko's tables with a bot account's
token: its events (a game started, a game finished), its seat's view of a game as a stream that resumes by sequence
number, and its moves through the table room's one path for moves; and the bot ladder (:mod:`.ladder`), which
seats the bots online in rated games round the clock."""

from racko.web.bots.api import KEEP_ALIVE_SECONDS, PROTOCOL, BotEvents, routes
from racko.web.bots.ladder import SCHEMA, Entrant, Ladder, LadderLimits, forget_on_ladder, pairings

__all__ = [
    "KEEP_ALIVE_SECONDS",
    "PROTOCOL",
    "SCHEMA",
    "BotEvents",
    "Entrant",
    "Ladder",
    "LadderLimits",
    "forget_on_ladder",
    "pairings",
    "routes",
]
