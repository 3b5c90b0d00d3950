"""The ratings room's routes: the ratings page and board, a player's page (ratings, chart, games, statistics), a
finished game's record and replay."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.record import GameRecord
from racko.rules import VARIANTS
from racko.web.core import Refusal, page, static_files
from racko.web.players import Players
from racko.web.ratings.ratings import POOLS, Ratings
from racko.web.table import replay_steps


class RatingRoutes:
    """The ratings page, a player's page (ratings, their chart, finished games) and a finished game's record and
    replay."""

    def __init__(self, ratings: Ratings, players: Players) -> None:
        self._ratings = ratings
        self._players = players

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/ratings", self.ratings_page),
            Route("/p/{player}", self.player_page),
            Route("/replay/{game}", self.replay_page),
            Route("/api/ratings/{variant}", self.board),
            Route("/api/players/{player}", self.player),
            Route("/api/games/{game}/record", self.game_record),
            Route("/api/games/{game}/replay", self.game_replay),
            static_files("ratings"),
        ]

    async def ratings_page(self, request: Request) -> Response:
        return page("ratings", "ratings.html", request)

    async def player_page(self, request: Request) -> Response:
        return page("ratings", "player.html", request)

    async def replay_page(self, request: Request) -> Response:
        return page("ratings", "replay.html", request)

    async def board(self, request: Request) -> Response:
        name = request.path_params["variant"]
        if name not in VARIANTS:
            return Refusal("not-found", "There is no such variant.").response()
        pool = request.query_params.get("pool", "people")
        if pool not in POOLS:
            return Refusal("not-found", "There is no such board: people or bots.").response()
        lines = await asyncio.to_thread(self._ratings.board, name, 100, pool)
        return JSONResponse({"variant": name, "pool": pool, "lines": lines})

    async def player(self, request: Request) -> Response:
        found = await asyncio.to_thread(self._players.find, request.path_params["player"][:40])
        if found is None:
            return Refusal("not-found", "There is no such player (or they asked to be forgotten).").response()
        data = await asyncio.to_thread(self._ratings.of_player, found.id)
        finishing = await asyncio.to_thread(self._players.finishing, found.id)
        bot = await asyncio.to_thread(self._players.is_bot, found.id)
        return JSONResponse({"player": {**found.to_json(), "bot": bot}, **data, "finishing": finishing.json()})

    async def game_record(self, request: Request) -> Response:
        text = await asyncio.to_thread(self._ratings.record, request.path_params["game"][:80])
        if text is None:
            return Refusal("not-found", "There is no such finished game.").response()
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="racko-game.json"'},
        )

    async def game_replay(self, request: Request) -> Response:
        text = await asyncio.to_thread(self._ratings.record, request.path_params["game"][:80])
        if text is None:
            return Refusal("not-found", "There is no such finished game.").response()
        return JSONResponse(await asyncio.to_thread(replay_steps, GameRecord.loads(text)))
