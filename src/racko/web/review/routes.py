"""The review room's routes: the review page (``/t/{table}/review``) and its question (``POST
/api/tables/{table}/review``), answered from the store by whichever process the request reaches."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.core import Refusal, json_body, page, static_files
from racko.web.players import Players, player_of
from racko.web.review.reviews import Reviews, what_to_review
from racko.web.store import TableStore


class ReviewRoutes:
    """The review page of a table's game, and the review itself as JSON (docs/PROTOCOL.md); ``finished`` gives a
    finished game's record by its id when its table has been forgotten, ``allowed`` are the origins whose pages may
    ask."""

    def __init__(
        self,
        reviews: Reviews,
        store: TableStore,
        finished: Callable[[str], str | None],
        players: Players,
        allowed: frozenset[str],
    ) -> None:
        self._reviews = reviews
        self._store = store
        self._finished = finished
        self._players = players
        self._allowed = allowed

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/t/{table}/review", self.review_page),
            Route("/api/tables/{table}/review", self.review_state, methods=["POST"]),
            static_files("review"),
        ]

    async def review_page(self, request: Request) -> Response:
        return page("review", "review.html", request)

    async def review_state(self, request: Request) -> Response:
        try:
            data = await json_body(request, self._allowed)
            game, round_number, token = data.get("game"), data.get("round"), data.get("token")
            if game is not None and not _whole(game):
                raise Refusal("bad-game", "A game is a number from 1.")
            if round_number is not None and not _whole(round_number):
                raise Refusal("bad-round", "A round is a number from 1.")
            if token is not None and not isinstance(token, str):
                raise Refusal("bad-token", "A seat's token is text.", status=400)
            player = await player_of(request, self._players)
            asked = await asyncio.to_thread(
                what_to_review, self._store, self._finished, request.path_params["table"], game, round_number, token,
                player.id if player is not None else None,
            )  # fmt: skip
            state = await asyncio.to_thread(self._reviews.ask, asked)
        except Refusal as refusal:
            return refusal.response()
        return JSONResponse(
            {"table": asked.table, "game": asked.game, "over": asked.over, "you": asked.you, **state},
            headers={"Cache-Control": "no-store"},
        )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10_000
