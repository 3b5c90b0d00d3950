"""Who may use the Bot API and how much: a bot account's token (never a page's cookie), the operator's limits per
token (requests a minute, games at once; docs/BOTS.md), and the refusal every Bot API route answers with."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request

from racko.web.core import BODY_LIMIT, Refusal, TooBig, read_body
from racko.web.players import COOKIE, Player, Players

REQUESTS_PER_MINUTE = 600
"""Requests a minute a bot's token may make by default (every route: moves, streams opened, challenges, seeks)."""
GAMES_AT_ONCE = 8
"""Games not over a bot may sit at by default before a challenge or a seek for another is refused."""


async def posted_object(
    request: Request, too_big: str, not_json: str, not_object: str, empty: bytes | None = None
) -> dict[str, Any]:
    """The JSON object a bot posted (``empty``: what an empty body stands for; none: it is no JSON), or a
    a :class:`Refusal` with these sentences: ``413 too-big`` over :data:`BODY_LIMIT` (before it is read),
    ``400 bad-frame`` for what is no JSON, or no object."""
    try:
        raw = await read_body(request, BODY_LIMIT)
    except TooBig:
        raise Refusal("too-big", too_big) from None
    try:
        body = json.loads(raw if raw or empty is None else empty)
    except (ValueError, RecursionError):
        raise Refusal("bad-frame", not_json) from None
    if not isinstance(body, dict):
        raise Refusal("bad-frame", not_object)
    return body


class BotLimits:
    """The operator's limits on each bot's token: requests a minute (a token bucket a bot, refilled evenly over the
    minute, as full as a minute's worth at first), and games not over at once."""

    def __init__(
        self,
        players: Players,
        requests_per_minute: int = REQUESTS_PER_MINUTE,
        games_at_once: int = GAMES_AT_ONCE,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.players = players
        self.requests_per_minute = requests_per_minute
        self.games_at_once = games_at_once
        self.now = now
        """The clock the buckets fill by (the server's; a test moves it by hand)."""
        self.buckets: dict[str, tuple[float, float]] = {}
        """Each bot's requests left and when that was counted."""

    def take(self, bot: Player) -> None:
        """One request of ``bot``'s; a 429 ``slow-down`` once it goes faster than the operator allows."""
        now = self.now()
        full = float(self.requests_per_minute)
        left, counted = self.buckets.get(bot.id, (full, now))
        left = min(full, left + max(0.0, now - counted) * full / 60.0)
        if left < 1:
            self.buckets[bot.id] = (left, now)
            raise Refusal(
                "slow-down",
                f"This bot made more than {self.requests_per_minute} requests a minute: wait, then try again.",
                retry_after=max(1, round(60 / self.requests_per_minute)),
            )
        self.buckets[bot.id] = (left - 1, now)

    async def may_start_a_game(self, bot: Player) -> None:
        """A 429 ``too-many-games`` if ``bot`` sits at as many games not over as it may."""
        playing = await asyncio.to_thread(self.players.unfinished, bot.id)
        if playing >= self.games_at_once:
            raise Refusal(
                "too-many-games",
                f"{bot.name} plays {playing} games already, as many at once as this server lets a bot play: "
                "finish one first.",
            )


async def bot_of(request: Request, players: Players, limits: BotLimits) -> Player:
    """The bot account of the request's token, with the request counted against its limit; a page's cookie, no
    token or a token that is no bot's is refused."""
    if COOKIE in request.cookies:
        raise Refusal("cookie", "The Bot API takes a bot's token, never a page's cookie.")
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("no-token", "Send the bot's token: Authorization: Bearer TOKEN.")
    bot = await asyncio.to_thread(players.bot_of_token, token.strip())
    if bot is None:
        raise Refusal("bad-token", "This token is no bot account's (or it was revoked).")
    limits.take(bot)
    return bot
