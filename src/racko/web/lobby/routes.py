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


def routes(lobby: Lobby, allowed: frozenset[str], frames_per_second: float) -> list[BaseRoute]:
    """The lobby's page, its socket, and taking a seat at a table it lists."""
    hub = lobby.hub

    async def lobby_page(request: Request) -> Response:
        return page("lobby", "lobby.html", request)

    async def lobby_socket(websocket: WebSocket) -> None:
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), allowed):
            await websocket.close(code=4403)
            return
        await websocket.accept()
        connection = LobbyConnection(
            await player_of(websocket, lobby.players), websocket.send_text, address=client_address(websocket)
        )
        bucket = Bucket(frames_per_second)
        if connection.player is not None:
            await lobby.players.page_opened(connection.player.id)
        try:
            await lobby.join(connection)
            while True:
                try:
                    frame = await read_frame(websocket)
                    if not bucket.take():
                        raise Refusal("slow-down", "Too many messages: slow down.")
                    await lobby.handle(connection, frame)
                except Refusal as error:
                    with contextlib.suppress(Exception):
                        await websocket.send_json(error.frame())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            lobby.leave(connection)
            if connection.player is not None:
                player_id = connection.player.id
                await after_closing(lambda: lobby.players.page_closed(player_id))

    @answers_refusals
    async def take_seat(request: Request) -> Response:
        await json_body(request, allowed)
        player = await required_player(request, lobby.players)
        table = await hub.reach(request.path_params["table"])
        seat = await hub.take_seat(table, player, client_address(request))
        return JSONResponse({"table": table.table_id, "seat": seat})

    @answers_refusals
    async def rematch(request: Request) -> Response:
        await json_body(request, allowed)
        player = await required_player(request, lobby.players)
        return JSONResponse(await lobby.rematch(player, request.path_params["game"][:80], client_address(request)))

    return [
        Route("/", lobby_page),
        WebSocketRoute("/ws/lobby", lobby_socket),
        Route("/api/tables/{table}/join", take_seat, methods=["POST"]),
        Route("/api/games/{game}/rematch", rematch, methods=["POST"]),
        static_files("lobby"),
    ]
