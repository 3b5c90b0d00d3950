"""The bots room: the Bot API (docs/BOTS.md), through which a program plays at racko's tables with a bot account's
token: its events (a game started, a game finished, a challenge), its seat's view of a game as a stream that resumes
by sequence number, its moves through the table room's one path for moves, challenges it accepts or declines, quick
play's seeks, and the operator's limits per token, all held across server processes through the store; and the bot
ladder (:mod:`.ladder`), which seats the bots online
in rated games round the clock."""

from racko.web.bots.access import (
    CHALLENGES_PER_CHALLENGER,
    EVENT_STREAMS,
    FAILED_CHECKS_PER_MINUTE,
    GAMES_AT_ONCE,
    OPEN_CHALLENGES,
    REQUESTS_PER_MINUTE,
    BotLimits,
    bot_of,
)
from racko.web.bots.api import KEEP_ALIVE_SECONDS, POLL_SECONDS, PROTOCOL, BotApi, BotEvents
from racko.web.bots.challenges import CHALLENGE_SECONDS, Challenges, forget_challenges
from racko.web.bots.ladder import SCHEMA, Entrant, Ladder, LadderLimits, forget_on_ladder, pairings
from racko.web.bots.matching import SEEKS_PER_BOT, MatchingRoutes, revoke_in_bots

__all__ = [
    "CHALLENGES_PER_CHALLENGER",
    "CHALLENGE_SECONDS",
    "EVENT_STREAMS",
    "FAILED_CHECKS_PER_MINUTE",
    "GAMES_AT_ONCE",
    "KEEP_ALIVE_SECONDS",
    "OPEN_CHALLENGES",
    "POLL_SECONDS",
    "PROTOCOL",
    "REQUESTS_PER_MINUTE",
    "SCHEMA",
    "SEEKS_PER_BOT",
    "BotApi",
    "BotEvents",
    "BotLimits",
    "Challenges",
    "Entrant",
    "Ladder",
    "LadderLimits",
    "MatchingRoutes",
    "bot_of",
    "forget_challenges",
    "forget_on_ladder",
    "pairings",
    "revoke_in_bots",
]
