"""The lobby room's routes: the lobby's page and socket, taking a seat at a table it lists, and a rematch."""

from __future__ import annotations

import contextlib

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from racko.web.core import (
    Bucket,
    Refusal,
    after_closing,
    answers_refusals,
    client_address,
    json_body,
    origin_allowed,
    page,
    read_frame,
    static_files,
)
from racko.web.lobby.lobby import (
    Lobby,
    LobbyConnection,
)
from racko.web.players import player_of, required_player


class LobbyRoutes:
    """The lobby's page, its socket, taking a seat at a table it lists, and a rematch; ``allowed`` are the origins
    whose pages may post or connect, ``frames_per_second`` how many frames a second one socket may send."""

    def __init__(self, lobby: Lobby, allowed: frozenset[str], frames_per_second: float) -> None:
        self._lobby = lobby
        self._hub = lobby.hub
        self._allowed = allowed
        self._frames_per_second = frames_per_second

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/", self.lobby_page),
            WebSocketRoute("/ws/lobby", self.lobby_socket),
            Route("/api/tables/{table}/join", answers_refusals(self.take_seat), methods=["POST"]),
            Route("/api/games/{game}/rematch", answers_refusals(self.rematch), methods=["POST"]),
            static_files("lobby"),
        ]

    async def lobby_page(self, request: Request) -> Response:
        return page("lobby", "lobby.html", request)

    async def lobby_socket(self, websocket: WebSocket) -> None:
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), self._allowed):
            await websocket.close(code=4403)
            return
        await websocket.accept()
        connection = LobbyConnection(
            await player_of(websocket, self._lobby.players), websocket.send_text, address=client_address(websocket)
        )
        if connection.player is not None:
            await self._lobby.players.page_opened(connection.player.id)
        try:
            await self._lobby.join(connection)
            await self._answer(websocket, connection)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self._lobby.leave(connection)
            if connection.player is not None:
                player_id = connection.player.id
                await after_closing(lambda: self._lobby.players.page_closed(player_id))

    async def _answer(self, websocket: WebSocket, connection: LobbyConnection) -> None:
        """Hands the socket's frames to the lobby until it closes; a refused frame is answered, and the socket
        stays open."""
        bucket = Bucket(self._frames_per_second)
        while True:
            try:
                frame = await read_frame(websocket)
                if not bucket.take():
                    raise Refusal("slow-down", "Too many messages: slow down.")
                await self._lobby.handle(connection, frame)
            except Refusal as error:
                with contextlib.suppress(Exception):
                    await websocket.send_json(error.frame())

    async def take_seat(self, request: Request) -> Response:
        await json_body(request, self._allowed)
        player = await required_player(request, self._lobby.players)
        table = await self._hub.reach(request.path_params["table"])
        seat = await self._hub.take_seat(table, player, client_address(request))
        return JSONResponse({"table": table.table_id, "seat": seat})

    async def rematch(self, request: Request) -> Response:
        await json_body(request, self._allowed)
        player = await required_player(request, self._lobby.players)
        return JSONResponse(
            await self._lobby.rematch(player, request.path_params["game"][:80], client_address(request))
        )
