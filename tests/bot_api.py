"""What the Bot API's tests share (tests/web/bots/): a real server on 127.0.0.1 (uvicorn in this process) whose every
frame to a bot's seat is checked against what that seat may know and the published schemas as it is sent; a request
with a bot's token; a table a bot makes for itself; the table quick play makes for seeking bots; a stream read until
enough; the environment of a client process started from the checkout."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from browsing import serving_app
from racko.observation_json import observation_from_json
from racko.web.table import Table, Watcher
from tables import check_frame, table_app

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def bot_server(path: Path, **options: Any) -> Iterator[tuple[str, Any, list[str]]]:
    """A server on ``path`` whose every frame to a seat bound to a bot is checked at the moment it is sent (the
    failures are listed, the server swallowing a failing send); the address, the app and the failures.  ``options``
    go to ``create_app``."""
    app = table_app(path, **({"bot_keep_alive": 0.2, "quick_target": 75} | options))  # quick play: short games
    failures: list[str] = []
    hub = app.state.hub  # built with the app: its join is wrapped before anything is served
    joining = hub.join

    async def checking_join(table: Table, watcher: Watcher, since: int | None) -> None:
        send = watcher.send
        seat = watcher.viewer
        if seat is not None and table.setup.seats[seat].bot_account:

            async def checked_send(frame: dict[str, Any]) -> None:
                now = hub.tables.get(table.table_id, table)
                await send(frame)  # the Bot API adds the seat's observation to a state frame: checked too
                try:
                    check_frame(now, seat, frame)
                    if frame["type"] == "state":
                        assert observation_from_json(frame["observation"]) == now.session.observation(seat)
                except Exception as error:  # kept for the end: the server swallows a failing send
                    failures.append(repr(error)[:500])

            watcher.send = checked_send
        await joining(table, watcher, since)

    hub.join = checking_join
    with serving_app(app) as url:
        yield url, app, failures
    assert not failures, failures[:3]


def call(url: str, path: str, token: str | None, body: Any = None, cookie: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method="GET" if body is None else "POST")
    if token is not None:
        request.add_header("Authorization", "Bearer " + token)
    if cookie is not None:
        request.add_header("Cookie", cookie)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def new_table(url: str, seats: list[str], token: str, **form: Any) -> dict[str, Any]:
    """A table a bot makes for itself through the Bot API (its own seat ``me``, seated by its token)."""
    status, made = call(
        url, "/api/bot/tables", token, {"variant": "classic", "players": len(seats), "seats": seats, **form}
    )
    assert status == 200, made
    return dict(made)


def seated_by_seeks(url: str, tokens: list[str], wish: dict[str, Any]) -> str:
    """The table quick play makes for these bots, each seeking ``wish`` with its event stream open (the consent of
    its seek): the table's id, once every bot's stream said ``gameStart``."""
    opened = threading.Barrier(len(tokens) + 1)
    started: list[str] = []

    def listen(token: str) -> None:
        request = urllib.request.Request(url + "/api/bot/stream/event", headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request, timeout=20) as stream:
            for raw in stream:
                event = json.loads(raw) if raw.strip() else {}
                if event.get("type") == "hello":
                    opened.wait(timeout=20)
                elif event.get("type") == "gameStart":
                    started.append(str(event["table"]))
                    return

    threads = [threading.Thread(target=listen, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    opened.wait(timeout=20)
    for token in tokens:
        status, answer = call(url, "/api/bot/seek", token, wish)
        assert status == 200, answer
    for thread in threads:
        thread.join(timeout=30)
    assert len(started) == len(tokens) and len(set(started)) == 1, started
    return started[0]


def frames(url: str, path: str, token: str, stop: Any) -> list[dict[str, Any]]:
    """A stream's lines until ``stop(frame)`` says enough (then the connection is dropped)."""
    got: list[dict[str, Any]] = []
    request = urllib.request.Request(url + path, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=20) as stream:
        for raw in stream:
            if raw.strip():
                got.append(json.loads(raw))
                if stop(got[-1]):
                    break
    return got


def environment(*folders: Path) -> dict[str, str]:
    """This environment, with racko's source (and ``folders``) first on the path of a process started from it."""
    path = [str(ROOT / "src"), *map(str, folders), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def hub_of_app(app: Any) -> Any:
    return app.state.hub


class Clients:
    """Client processes started from the checkout, each writing what it says to a log file of its own in ``folder``;
    :meth:`stop` kills whichever still runs and waits for it."""

    def __init__(self, commands: list[list[str]], folder: Path, env: dict[str, str] | None = None) -> None:
        self.logs = [folder / f"client-{number}.log" for number in range(len(commands))]
        self.processes: list[subprocess.Popen[bytes]] = []
        for command, log in zip(commands, self.logs, strict=True):
            with log.open("wb") as written:
                process = subprocess.Popen(command, stdout=written, stderr=subprocess.STDOUT, env=env or environment())
            self.processes.append(process)

    def wait(self, seconds: float = 180) -> list[int]:
        """Each one's exit status, once all have ended (``seconds`` each at most: then what each said, to see why)."""
        try:
            return [process.wait(timeout=seconds) for process in self.processes]
        except subprocess.TimeoutExpired:
            raise AssertionError(f"a client did not end in {seconds} s: {self.said()}") from None

    def said(self) -> list[str]:
        return [log.read_text() for log in self.logs]

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
            process.wait()


@contextlib.contextmanager
def clients(commands: list[list[str]], folder: Path, env: dict[str, str] | None = None) -> Iterator[Clients]:
    """:class:`Clients` for the time of a ``with``: none is left running after it."""
    running = Clients(commands, folder, env)
    try:
        yield running
    finally:
        running.stop()
