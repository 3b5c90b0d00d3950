"""The bots room: the Bot API (docs/BOTS.md), through which a program plays at racko's tables with a bot account's
token: its events (a game started, a game finished, a challenge), its seat's view of a game as a stream that resumes
by sequence number, its moves through the table room's one path for moves, challenges it accepts or declines, quick
play's seeks, and the operator's limits per token; and the bot ladder (:mod:`.ladder`), which seats the bots online
in rated games round the clock."""

from racko.web.bots.access import GAMES_AT_ONCE, REQUESTS_PER_MINUTE, BotLimits, BotRefused, bot_of
from racko.web.bots.api import KEEP_ALIVE_SECONDS, PROTOCOL, BotEvents, routes
from racko.web.bots.challenges import CHALLENGE_SECONDS, Challenges
from racko.web.bots.ladder import SCHEMA, Entrant, Ladder, LadderLimits, forget_on_ladder, pairings
from racko.web.bots.matching import matching_routes

__all__ = [
    "CHALLENGE_SECONDS",
    "GAMES_AT_ONCE",
    "KEEP_ALIVE_SECONDS",
    "PROTOCOL",
    "REQUESTS_PER_MINUTE",
    "SCHEMA",
    "BotEvents",
    "BotLimits",
    "BotRefused",
    "Challenges",
    "Entrant",
    "Ladder",
    "LadderLimits",
    "bot_of",
    "forget_on_ladder",
    "matching_routes",
    "pairings",
    "routes",
]
