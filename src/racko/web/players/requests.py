"""The player a request or a socket comes from, by the key in their cookie, and setting that cookie."""

from __future__ import annotations

import asyncio

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from racko.web.core import Refusal
from racko.web.players.identity import COOKIE, COOKIE_DAYS, Player, Players


async def player_of(connection: HTTPConnection, players: Players) -> Player | None:
    """The player whose key the request's (or socket's) cookie holds, if any."""
    key = connection.cookies.get(COOKIE)
    return await asyncio.to_thread(players.identify, key) if key else None


async def required_player(request: Request, players: Players) -> Player:
    """The request's player; a :class:`Refusal` (401 ``no-player``) if the request carries none."""
    player = await player_of(request, players)
    if player is None:
        raise Refusal("no-player", "Pick a name first.")
    return player


def keep_player(response: Response, request: Request, key: str | None) -> Response:
    """Set (or, with None, clear) the player's cookie: HttpOnly, SameSite=Lax, Secure over https."""
    if key is None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    else:
        response.set_cookie(
            COOKIE,
            key,
            max_age=int(COOKIE_DAYS * 86400),
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
    return response
