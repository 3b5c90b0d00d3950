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


def routes(ratings: Ratings, players: Players) -> list[BaseRoute]:
    """The ratings page, a player's page (ratings, their chart, finished games) and a finished game's record and
    replay."""

    async def ratings_page(request: Request) -> Response:
        return page("ratings", "ratings.html", request)

    async def player_page(request: Request) -> Response:
        return page("ratings", "player.html", request)

    async def replay_page(request: Request) -> Response:
        return page("ratings", "replay.html", request)

    async def board(request: Request) -> Response:
        name = request.path_params["variant"]
        if name not in VARIANTS:
            return Refusal("not-found", "There is no such variant.").response()
        pool = request.query_params.get("pool", "people")
        if pool not in POOLS:
            return Refusal("not-found", "There is no such board: people or bots.").response()
        lines = await asyncio.to_thread(ratings.board, name, 100, pool)
        return JSONResponse({"variant": name, "pool": pool, "lines": lines})

    async def player(request: Request) -> Response:
        found = await asyncio.to_thread(players.find, request.path_params["player"][:40])
        if found is None:
            return Refusal("not-found", "There is no such player (or they asked to be forgotten).").response()
        data = await asyncio.to_thread(ratings.of_player, found.id)
        finishing = await asyncio.to_thread(players.finishing, found.id)
        bot = await asyncio.to_thread(players.is_bot, found.id)
        return JSONResponse({"player": {**found.to_json(), "bot": bot}, **data, "finishing": finishing.json()})

    async def game_record(request: Request) -> Response:
        text = await asyncio.to_thread(ratings.record, request.path_params["game"][:80])
        if text is None:
            return Refusal("not-found", "There is no such finished game.").response()
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="racko-game.json"'},
        )

    async def game_replay(request: Request) -> Response:
        text = await asyncio.to_thread(ratings.record, request.path_params["game"][:80])
        if text is None:
            return Refusal("not-found", "There is no such finished game.").response()
        return JSONResponse(await asyncio.to_thread(replay_steps, GameRecord.loads(text)))

    return [
        Route("/ratings", ratings_page),
        Route("/p/{player}", player_page),
        Route("/replay/{game}", replay_page),
        Route("/api/ratings/{variant}", board),
        Route("/api/players/{player}", player),
        Route("/api/games/{game}/record", game_record),
        Route("/api/games/{game}/replay", game_replay),
        static_files("ratings"),
    ]
