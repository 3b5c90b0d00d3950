"""What every room's routes share: the package's pages with their security headers, JSON errors, a request's JSON
body read within bounds from this server's own pages only, and the player a request or a socket comes from."""

from __future__ import annotations

import asyncio
import functools
import json
import re
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from racko.web.limits import BODY_LIMIT, TooBig, origin_allowed, read_body
from racko.web.players import COOKIE, COOKIE_DAYS, Player, Players

STATIC = Path(__file__).parent / "static"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    "Referrer-Policy": "no-referrer",
}


HEADER_MARK = re.compile(r"<!--header (\S+)-->")


@functools.cache
def page_text(name: str) -> str:
    """A page of ``static/`` as it is served: ``<!--head-->`` becomes the head the start page, the lobby and the
    players' pages share (``_head.html``), ``<!--header /PATH-->`` their header (``_header.html``), with the link to
    PATH marked as the current page."""
    text = (STATIC / name).read_text(encoding="utf-8")
    text = text.replace("<!--head-->\n", _part("_head.html"))
    mark = HEADER_MARK.search(text)
    if mark is not None:
        link = f'href="{mark.group(1)}"'
        text = text.replace(mark.group(0) + "\n", _part("_header.html").replace(link, link + ' aria-current="page"'))
    return text


def _part(name: str) -> str:
    """A shared part of the pages, without its first line (the comment that says what it is)."""
    return (STATIC / name).read_text(encoding="utf-8").split("\n", 1)[1]


def page(name: str) -> Response:
    return HTMLResponse(page_text(name), headers=SECURITY_HEADERS)


def refused(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers or None)


class Refused(Exception):
    """A request refused with a status and a message for people."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status

    def response(self) -> JSONResponse:
        return refused(self.status, str(self))


async def json_body(request: Request, allowed: frozenset[str]) -> dict[str, Any]:
    """The JSON object a page of this server posted; :class:`Refused` for another site's page, a body over the
    limit (before it is read), or anything that is not a JSON object."""
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), allowed):
        raise Refused(403, "Only this server's own pages may do that.")
    try:
        body = await read_body(request, BODY_LIMIT)
    except TooBig:
        raise Refused(413, "That is too long.") from None
    try:
        data = json.loads(body) if body else {}
    except (ValueError, RecursionError):
        raise Refused(400, "That is not JSON.") from None
    if not isinstance(data, dict):
        raise Refused(400, "That is not a JSON object.")
    return data


async def player_of(connection: HTTPConnection, players: Players) -> Player | None:
    """The player whose key the request's (or socket's) cookie holds, if any."""
    key = connection.cookies.get(COOKIE)
    return await asyncio.to_thread(players.identify, key) if key else None


async def required_player(request: Request, players: Players) -> Player:
    """The request's player; :class:`Refused` (401) if the request carries none."""
    player = await player_of(request, players)
    if player is None:
        raise Refused(401, "Pick a name first.")
    return player


def client_address(connection: HTTPConnection) -> str | None:
    """The address a request or socket comes from (behind the proxy: the one it forwarded, as uvicorn reads it)."""
    return connection.client.host if connection.client is not None else None


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
