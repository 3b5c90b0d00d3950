"""The player's own routes: picking a name, changing it, using the identity on another device, hiding another
player's name, and forgetting everything (docs/PROTOCOL.md lists them)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.core import CreationLimit, Refusal, answers_refusals, json_body, page, static_files
from racko.web.players.identity import TRANSFER_SECONDS, Player, Players, clean_name
from racko.web.players.names import BOT_SEAT_MARK, FORGOTTEN_WORDS, posing_as, reserved_like, unfit_name
from racko.web.players.requests import keep_player, player_of, required_player


class PlayerRoutes:
    """A player's own routes; ``creation`` limits new players from one address (as new tables are), and transfer
    codes tried from one address as much (a limit of its own, with the same numbers); ``taken_names`` gives the
    names of the players online or rated now but for one (blocking); ``forgotten`` is told the id of a player just
    forgotten, and answers once what this process keeps of them is gone too; ``now`` is the server's clock (the
    time left at the player's tables)."""

    def __init__(
        self,
        players: Players,
        allowed: frozenset[str],
        creation: CreationLimit,
        taken_names: Callable[[str | None], list[str]],
        forgotten: Callable[[str], Awaitable[None]] | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._players = players
        self._allowed = allowed
        self._creation = creation
        self._claims = CreationLimit(creation.per_address, round(creation.everyone.burst))
        self._taken_names = taken_names
        self._forgotten = forgotten
        self._now = now

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/me", self.me_page),
            Route("/me/claim", self.claim_page),
            Route("/api/me", answers_refusals(self.me), methods=["GET", "POST", "DELETE"]),
            Route("/api/me/transfer", answers_refusals(self.transfer), methods=["POST"]),
            Route("/api/me/claim", answers_refusals(self.claim), methods=["POST"]),
            Route("/api/me/hide", answers_refusals(self.hide), methods=["POST"]),
            Route("/api/me/tables", self.my_tables),
            Route("/api/me/hidden", self.hidden),
            static_files("players"),
        ]

    def _look_alike(self, name: str, player: Player | None) -> tuple[str, str] | None:
        """Whom a name would be taken for, and why it is refused: ``name-reserved`` (a computer player, a forgotten
        player) or ``name-taken`` (a player online or rated now, but for the one choosing it: they may keep their
        own name, in another case too); None if the name is free.  Blocks (the database, and keying every name in
        play): the route calls it in a worker thread."""
        reserved = reserved_like(name)
        if reserved is not None:
            return "name-reserved", reserved
        like = posing_as(name, self._taken_names(player.id if player else None))
        return None if like is None else ("name-taken", like)

    async def _posing(self, name: str, player: Player | None) -> Response | None:
        """The refusal (409) of a name that poses as another (:meth:`_look_alike`), or None."""
        found = await asyncio.to_thread(self._look_alike, name, player)
        if found is None:
            return None
        code, like = found
        if code == "name-taken":
            error = f"“{name}” looks like “{like}”, a name someone plays under now: choose another."
        elif like == BOT_SEAT_MARK:
            error = f"“{name}” carries a bot's mark: only a bot account's seat is marked “{like}”; choose another name."
        elif like in FORGOTTEN_WORDS.values():
            error = f"“{name}” looks like “{like}”, as the pages call a forgotten player: choose another name."
        else:
            error = f"“{name}” looks like the computer player {like}: choose another name."
        return JSONResponse({"error": error, "code": code, "like": like}, status_code=409)

    async def me_page(self, request: Request) -> Response:
        return page("players", "me.html", request)

    async def claim_page(self, request: Request) -> Response:
        return page("players", "claim.html", request)

    async def me(self, request: Request) -> Response:
        if request.method == "GET":
            player = await player_of(request, self._players)
            return JSONResponse(player.to_json() if player else {"id": None, "name": None})
        data = await json_body(request, self._allowed)
        player = await player_of(request, self._players)
        if request.method == "DELETE":
            return await self._forget(request, player)
        unfit = unfit_name(data["name"]) if isinstance(data.get("name"), str) else None
        if unfit is not None:  # refused as typed, before anything is cleaned away (UTS #39, players.names)
            return JSONResponse({"error": unfit.message, "code": "name-unfit", "why": unfit.why, **unfit.details}, 400)
        name = clean_name(data.get("name"))
        if name is None:
            raise Refusal("bad-name", "A name is some text, such as Ann.")
        if player is not None:
            return await self._rename(player, name)
        return await self._create(request, name)

    async def _forget(self, request: Request, player: Player | None) -> Response:
        if player is not None and await asyncio.to_thread(self._players.forget, player.id) and self._forgotten:
            await self._forgotten(player.id)
        return keep_player(JSONResponse({"id": None, "name": None}), request, None)

    async def _rename(self, player: Player, name: str) -> Response:
        posed = await self._posing(name, player)
        if posed is not None:
            return posed
        await asyncio.to_thread(self._players.rename, player.id, name)
        return JSONResponse({"id": player.id, "name": name})

    async def _create(self, request: Request, name: str) -> Response:
        # the limit first: each refused name is a try too, and the names of the people in play are no list to
        # read out at any pace
        if not self._creation.allows(request.client.host if request.client is not None else "?"):
            raise Refusal("too-many", "Too many new players at once: wait a minute, then try again.", retry_after=60)
        posed = await self._posing(name, None)
        if posed is not None:
            return posed
        made, key = await asyncio.to_thread(self._players.create, name)
        return keep_player(JSONResponse(made.to_json()), request, key)

    async def transfer(self, request: Request) -> Response:
        await json_body(request, self._allowed)
        player = await required_player(request, self._players)
        code = await asyncio.to_thread(self._players.transfer_code, player.id)
        return JSONResponse({"code": code, "seconds": TRANSFER_SECONDS})

    async def claim(self, request: Request) -> Response:
        data = await json_body(request, self._allowed)
        if not self._claims.allows(request.client.host if request.client is not None else "?"):
            raise Refusal("too-many", "Too many tries at once: wait a minute, then try again.", retry_after=60)
        code = data.get("code")
        claimed = await asyncio.to_thread(self._players.claim, code) if isinstance(code, str) else None
        if claimed is None:
            raise Refusal("used", "This link has been used already, or is more than ten minutes old.")
        player, key = claimed
        return keep_player(JSONResponse(player.to_json()), request, key)

    async def hide(self, request: Request) -> Response:
        data = await json_body(request, self._allowed)
        player = await required_player(request, self._players)
        other = data.get("player")
        if not isinstance(other, str) or not other or len(other) > 40 or other == player.id:
            raise Refusal("bad-player", "Name another player.")
        await asyncio.to_thread(self._players.hide, player.id, other, data.get("hidden") is not False)
        return JSONResponse({"hidden": sorted(await asyncio.to_thread(self._players.hidden_by, player.id))})

    async def hidden(self, request: Request) -> Response:
        player = await player_of(request, self._players)
        ids = sorted(await asyncio.to_thread(self._players.hidden_by, player.id)) if player is not None else []
        return JSONResponse({"hidden": ids})

    async def my_tables(self, request: Request) -> Response:
        player = await player_of(request, self._players)
        seats = await asyncio.to_thread(self._players.seats_of, player.id) if player is not None else []
        moment = self._now()
        for seat in seats:  # the seconds left for the player's move (the server's clock: the page need not agree)
            due = seat.pop("due")
            seat["left"] = None if due is None else round(max(0.0, due - moment), 1)
        return JSONResponse({"seats": seats})
