"""Frames from a browser's socket: one JSON object each, with a ``type``, and bounded in size."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect

from racko.web.core.errors import Refusal

FRAME_LIMIT = 4096
"""The largest frame a client may send, in characters (a real one is under 200); a larger one is refused."""

CLOSING_SECONDS = 10.0
"""The longest a closed socket's bookkeeping may take (a peer that reads nothing cannot hold up a shutdown)."""


async def read_frame(websocket: WebSocket) -> dict[str, Any]:
    """The next frame as a JSON object; anything else is a :class:`Refusal` (the socket stays open)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise Refusal("bad-frame", "Frames are JSON text.")
    if len(text) > FRAME_LIMIT:
        raise Refusal("too-big", f"A frame is at most {FRAME_LIMIT} characters.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refusal("bad-frame", "A frame is a JSON object.") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refusal("bad-frame", 'A frame is a JSON object with a "type".')
    return data


async def after_closing(*steps: Callable[[], Awaitable[None]]) -> None:
    """A closed socket's bookkeeping (leaving the table, the page closed), run to its end even when the server
    cancels the socket's handler (shutting down, or a client gone mid-frame): cut short, a table whose people have
    all left would stay listed as a game to watch, and a person who closed their last page would stay online."""
    with anyio.CancelScope(shield=True), anyio.move_on_after(CLOSING_SECONDS):
        for step in steps:
            await step()
