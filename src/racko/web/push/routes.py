"""The push room's routes: the service worker (served at the site's root, so that its scope covers every page), the
server's public key and the player's devices count, and a device subscribing or unsubscribing (docs/PROTOCOL.md)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.core import WEB, Refusal, answers_refusals, json_body, static_files
from racko.web.players import Players, player_of, required_player
from racko.web.push.pushes import Device, Pushes, valid_key
from racko.web.push.reach import ENDPOINT_LENGTH, Unreachable

WORKER = WEB / "push" / "static" / "worker.js"
LANGUAGES = ("en", "nl", "fr")


class PushRoutes:
    """The service worker, the server's public key with the player's devices count, and a device subscribing or
    unsubscribing; ``allowed`` are the origins whose pages may post."""

    def __init__(self, pushes: Pushes, players: Players, allowed: frozenset[str]) -> None:
        self._pushes = pushes
        self._players = players
        self._allowed = allowed

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/push-worker.js", self.worker),
            Route("/api/push", self.state),
            Route("/api/push/devices", answers_refusals(self.devices), methods=["POST", "DELETE"]),
            static_files("push"),
        ]

    async def worker(self, request: Request) -> Response:
        # Never kept stale by a cache: a new worker reaches every browser at its next visit.
        return FileResponse(
            WORKER,
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    async def state(self, request: Request) -> Response:
        pushes = self._pushes
        player = await player_of(request, self._players)
        devices = len(await asyncio.to_thread(pushes.devices_of, player.id)) if player is not None else 0
        return JSONResponse({"key": pushes.keys.public if pushes.keys else None, "devices": devices})

    async def devices(self, request: Request) -> Response:
        pushes = self._pushes
        data = await json_body(request, self._allowed)
        player = await required_player(request, self._players)
        if pushes.keys is None:
            raise Refusal("unavailable", "This server sends no notifications.")
        endpoint = data.get("endpoint")
        if not isinstance(endpoint, str) or not 0 < len(endpoint) <= ENDPOINT_LENGTH:
            raise Refusal("bad-subscription", "A subscription names its push service's https address.")
        if request.method == "DELETE":
            left = await asyncio.to_thread(pushes.unsubscribe, player.id, endpoint)
            return JSONResponse({"on": False, "devices": left})
        try:  # where pushes may go (racko.web.push.reach): the name is resolved, so in a worker thread
            await asyncio.to_thread(pushes.reach.check, endpoint)
        except Unreachable as refusal:
            raise Refusal(refusal.code, str(refusal)) from None
        keys = data.get("keys")
        p256dh = keys.get("p256dh") if isinstance(keys, dict) else None
        auth = keys.get("auth") if isinstance(keys, dict) else None
        if not valid_key(p256dh, 100) or not valid_key(auth, 40):
            raise Refusal("bad-subscription", "A subscription has its keys (p256dh and auth).")
        assert isinstance(p256dh, str) and isinstance(auth, str)
        lang = data.get("lang") if data.get("lang") in LANGUAGES else "en"
        count = await asyncio.to_thread(pushes.subscribe, player.id, Device(endpoint, p256dh, auth, str(lang)))
        return JSONResponse({"on": True, "devices": count})
