"""What the tests of bots at a real server share (the Bot API over HTTP, standard library only): a request and its
JSON answer (with ``Retry-After``), a person with a cookie, and a stream read in a thread of its own until it ends."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
import urllib.error
import urllib.request
from typing import Any


def call(
    url: str,
    path: str,
    token: str | None = None,
    body: Any = None,
    cookie: str | None = None,
    method: str = "",
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """A request; its status and JSON answer (a refusal's ``Retry-After`` as ``retry_after``)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method or ("GET" if body is None else "POST"))
    if token is not None:
        request.add_header("Authorization", "Bearer " + token)
    if cookie is not None:
        request.add_header("Cookie", cookie)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, {**json.loads(error.read()), "retry_after": error.headers.get("Retry-After")}


def person(url: str, name: str, headers: dict[str, str] | None = None) -> str:
    """A person with a name: their cookie."""
    request = urllib.request.Request(
        url + "/api/me",
        data=json.dumps({"name": name}).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return str(answer.headers["Set-Cookie"].split(";")[0])


class Stream:
    """A Bot API stream (events, or a game's), read in a thread of its own: every line it sends, and whether it
    ended (the server closed it)."""

    def __init__(self, url: str, path: str, token: str) -> None:
        self.got: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.ended = threading.Event()
        request = urllib.request.Request(url + path, headers={"Authorization": "Bearer " + token})
        self.stream = urllib.request.urlopen(request, timeout=30)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for raw in self.stream:
                if raw.strip():
                    line = json.loads(raw)
                    self.seen.append(line)
                    self.got.put(line)
        self.ended.set()

    def next(self, kind: str, seconds: float = 15.0) -> dict[str, Any]:
        """The next line of this kind (those before it, of other kinds, are passed over)."""
        deadline = time.monotonic() + seconds
        while True:
            line = self.got.get(timeout=max(0.01, deadline - time.monotonic()))
            if line["type"] == kind:
                return line

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stream.close()


def events(url: str, token: str) -> Stream:
    """The bot's event stream, once it said hello."""
    stream = Stream(url, "/api/bot/stream/event", token)
    assert stream.next("hello")["protocol"] == "v2"
    return stream


def eventually(look: Any, seconds: float = 10.0) -> Any:
    """What ``look()`` answers once it is true, within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        found = look()
        if found:
            return found
        assert time.monotonic() < deadline, "it never came"
        time.sleep(0.05)
