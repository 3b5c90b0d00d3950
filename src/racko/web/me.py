"""The player's own routes: picking a name, changing it, using the identity on another device, hiding another
player's name, and forgetting everything (docs/PROTOCOL.md lists them)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.http import Refused, json_body, keep_player, page, player_of, required_player
from racko.web.limits import CreationLimit
from racko.web.players import TRANSFER_SECONDS, Players, clean_name


def routes(players: Players, allowed: frozenset[str], creation: CreationLimit) -> list[BaseRoute]:
    """A player's own routes; ``creation`` limits new players from one address (as new tables are)."""

    async def me_page(request: Request) -> Response:
        return page("me.html")

    async def claim_page(request: Request) -> Response:
        return page("claim.html")

    async def me(request: Request) -> Response:
        try:
            if request.method == "GET":
                player = await player_of(request, players)
                return JSONResponse(player.to_json() if player else {"id": None, "name": None})
            data = await json_body(request, allowed)
            player = await player_of(request, players)
            if request.method == "DELETE":
                if player is not None:
                    await asyncio.to_thread(players.forget, player.id)
                return keep_player(JSONResponse({"id": None, "name": None}), request, None)
            name = clean_name(data.get("name"))
            if name is None:
                raise Refused(400, "A name is some text, such as Ann.")
            if player is not None:
                await asyncio.to_thread(players.rename, player.id, name)
                return JSONResponse({"id": player.id, "name": name})
            if not creation.allows(request.client.host if request.client is not None else "?"):
                raise Refused(429, "Too many new players at once: wait a minute, then try again.")
            made, key = await asyncio.to_thread(players.create, name)
            return keep_player(JSONResponse(made.to_json()), request, key)
        except Refused as refusal:
            return refusal.response()

    async def transfer(request: Request) -> Response:
        try:
            await json_body(request, allowed)
            player = await required_player(request, players)
            code = await asyncio.to_thread(players.transfer_code, player.id)
            return JSONResponse({"code": code, "seconds": TRANSFER_SECONDS})
        except Refused as refusal:
            return refusal.response()

    async def claim(request: Request) -> Response:
        try:
            data = await json_body(request, allowed)
            code = data.get("code")
            claimed = await asyncio.to_thread(players.claim, code) if isinstance(code, str) else None
            if claimed is None:
                raise Refused(400, "This link has been used already, or is more than ten minutes old.")
            player, key = claimed
            return keep_player(JSONResponse(player.to_json()), request, key)
        except Refused as refusal:
            return refusal.response()

    async def hide(request: Request) -> Response:
        try:
            data = await json_body(request, allowed)
            player = await required_player(request, players)
            other = data.get("player")
            if not isinstance(other, str) or not other or len(other) > 40 or other == player.id:
                raise Refused(400, "Name another player.")
            await asyncio.to_thread(players.hide, player.id, other, data.get("hidden") is not False)
            return JSONResponse({"hidden": sorted(await asyncio.to_thread(players.hidden_by, player.id))})
        except Refused as refusal:
            return refusal.response()

    async def hidden(request: Request) -> Response:
        player = await player_of(request, players)
        ids = sorted(await asyncio.to_thread(players.hidden_by, player.id)) if player is not None else []
        return JSONResponse({"hidden": ids})

    async def my_tables(request: Request) -> Response:
        player = await player_of(request, players)
        seats = await asyncio.to_thread(players.seats_of, player.id) if player is not None else []
        return JSONResponse({"seats": seats})

    return [
        Route("/me", me_page),
        Route("/me/claim", claim_page),
        Route("/api/me", me, methods=["GET", "POST", "DELETE"]),
        Route("/api/me/transfer", transfer, methods=["POST"]),
        Route("/api/me/claim", claim, methods=["POST"]),
        Route("/api/me/hide", hide, methods=["POST"]),
        Route("/api/me/tables", my_tables),
        Route("/api/me/hidden", hidden),
    ]
