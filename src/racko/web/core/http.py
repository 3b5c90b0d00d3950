"""What every room's routes share: the headers every response has, JSON refusals, a request's JSON body read within
bounds from this server's own pages only, and the address a request or a socket comes from."""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from racko.web.core.errors import Refusal
from racko.web.core.limits import BODY_LIMIT, TooBig, origin_allowed, read_body

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    "Referrer-Policy": "no-referrer",
}
"""What every page says of itself: where its scripts, styles and connections may come from (this server only)."""
_EVERY_RESPONSE = [(b"x-content-type-options", b"nosniff")]


class HeadersOnEveryResponse:
    """Adds ``X-Content-Type-Options: nosniff`` to every HTTP response: pages, files, JSON, errors."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http":
            # Not a coroutine of its own: a socket's every frame would resume one more frame, and gain nothing.
            return self.app(scope, receive, send)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_EVERY_RESPONSE]
            await send(message)

        return self.app(scope, receive, send_with_headers)


Handler = Callable[[Request], Awaitable[Response]]


def answers_refusals(handler: Handler) -> Handler:
    """A route whose :class:`Refusal` is its answer: the status and the JSON refusal."""

    @functools.wraps(handler)
    async def answering(request: Request) -> Response:
        try:
            return await handler(request)
        except Refusal as refusal:
            return refusal.response()

    return answering


async def json_body(request: Request, allowed: frozenset[str]) -> dict[str, Any]:
    """The JSON object a page of this server posted; a :class:`Refusal` for another site's page, a body over the
    limit (before it is read), or anything that is not a JSON object."""
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), allowed):
        raise Refusal("origin", "Only this server's own pages may do that.")
    try:
        body = await read_body(request, BODY_LIMIT)
    except TooBig:
        raise Refusal("too-big", "That is too long.") from None
    try:
        data = json.loads(body) if body else {}
    except (ValueError, RecursionError):
        raise Refusal("bad-json", "That is not JSON.") from None
    if not isinstance(data, dict):
        raise Refusal("bad-json", "That is not a JSON object.")
    return data


def client_address(connection: HTTPConnection) -> str | None:
    """The address a request or socket comes from (behind the proxy: the one it forwarded, as uvicorn reads it)."""
    return connection.client.host if connection.client is not None else None
