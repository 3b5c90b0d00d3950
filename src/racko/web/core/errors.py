"""The one refusal every room of the web server speaks: a request or a frame refused with a code for programs, a
sentence for people and the HTTP status a route answers it with; it changes nothing.

A socket says it as ``{"type": "error", "code", "message", …details}``, a route as ``{"code", "error", …details}``
with the status (and ``Retry-After`` where the refusal says when to try again): the same refusal, whichever way it
travels, so that the Bot API and a page's socket refuse a move alike."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

from racko.errors import RackoError

STATUS: dict[str, int] = {
    # who asks
    "no-token": 401,
    "bad-token": 401,
    "no-player": 401,
    "cookie": 403,
    "origin": 403,
    "spectator": 403,
    "not-your-seat": 403,
    "name-first": 403,
    "not-yours": 403,
    "no-consent": 403,
    "bot": 403,
    "people-only": 403,
    "bots-only": 403,
    "not-a-finisher": 403,
    "not-public": 409,
    # what is asked about
    "no-table": 404,
    "no-route": 404,
    "not-found": 404,
    "no-bot": 404,
    "no-challenge": 404,
    "no-tournament": 404,
    "wrong-method": 405,
    "damaged": 410,
    "elsewhere": 421,
    # the state of the table now
    "stale": 409,
    "not-your-turn": 409,
    "over": 409,
    "out-of-time": 409,
    "not-gone": 409,
    "gone": 409,
    "not-away": 409,
    "not-over": 409,
    "too-late": 409,
    "rated": 409,
    "offer-standing": 409,
    "offer-declined": 409,
    "no-offer": 409,
    "own-offer": 409,
    "clocked": 409,
    "full": 409,
    "not-open": 409,
    "bot-offline": 409,
    "not-listening": 409,
    "not-in": 409,
    "not-started": 409,
    "started": 409,
    "used": 400,
    # too much
    "too-big": 413,
    "slow-down": 429,
    "too-many": 429,
    "too-many-games": 429,
    "too-many-challenges": 429,
    "too-many-bad-tokens": 429,
    "too-many-tables": 429,
    "too-many-reviews": 503,
    # the server
    "not-saved": 503,
    "unavailable": 503,
    "failed": 500,
}
"""The HTTP status of each code, wherever it is refused (any code not here: 400, the request itself is wrong)."""


class Refusal(RackoError):
    """A request or frame refused, changing nothing: ``code`` for programs, the message for people, the HTTP
    ``status`` (by default the code's, :data:`STATUS`), ``retry_after`` seconds where trying again later helps, and
    ``details``: the numbers in the message (for a page that says it in the person's language) or where to ask
    instead (``node``)."""

    def __init__(
        self, code: str, message: str, status: int | None = None, retry_after: int | None = None, **details: Any
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = status if status is not None else STATUS.get(code, 400)
        self.retry_after = retry_after
        self.details = details

    def json(self) -> dict[str, Any]:
        """The answer of a route: ``{"code", "error", …details}``."""
        return {"code": self.code, "error": str(self), **self.details}

    def frame(self) -> dict[str, Any]:
        """The answer on a socket: ``{"type": "error", "code", "message", …details}``."""
        return {"type": "error", "code": self.code, "message": str(self), **self.details}

    def response(self) -> JSONResponse:
        headers = {"Retry-After": str(self.retry_after)} if self.retry_after is not None else None
        return JSONResponse(self.json(), status_code=self.status, headers=headers)
