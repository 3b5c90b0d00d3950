"""Two people at the same moment lose nothing: people taking the free seats of one table at once each get a seat of
their own, and seats naming themselves at once all keep their names; against a real `racko serve` (SQLite) and
against two processes sharing PostgreSQL behind HAProxy, 50 rounds each."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from browsing import serving
from clusters import serving_cluster
from racko.tools.bench.processes import Proxy

ROUNDS = 50
JOINERS = ("Jade", "Kofi", "Lars")
GUESTS = ("Mina", "Noor", "Otto", "Pia")
WAIT = 20.0


async def _player(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    answer = await http.post("/api/me", json={"name": name})
    assert answer.status_code == 200, answer.text
    http.cookies.clear()  # each request carries the cookie of the person it names, and no other
    return {"Cookie": f"racko_player={answer.cookies['racko_player']}"}


async def _open(base: str, table: str, token: str | None, cookie: dict[str, str] | None = None) -> tuple[Any, ...]:
    """A socket at the table (following the proxy's process to the one that plays it): the socket and its welcome."""
    node = ""
    for _ in range(5):
        url = f"{base}/ws/{table}" + (f"?node={node}" if node else "")
        ws = await connect(url, additional_headers=cookie or {}, proxy=None)
        await ws.send(json.dumps({"type": "hello", "token": token, "version": 0}))
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if frame.get("code") == "elsewhere":
            node = frame["node"]
            await ws.close()
            continue
        assert frame["type"] == "welcome", frame
        return ws, frame
    raise AssertionError("the table was not reached")


async def _state_where(ws: ClientConnection, wanted: Any) -> dict[str, Any]:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if frame["type"] == "state" and wanted(frame["view"]):
            return dict(frame)


async def _rounds(address: str) -> None:
    base = address.replace("http", "ws")
    async with httpx.AsyncClient(base_url=address, timeout=WAIT) as http:
        maker = await _player(http, "Iris")
        joiners = [await _player(http, name) for name in JOINERS]
        for number in range(ROUNDS):
            # Three people take the free seats of one public table at once.
            form = {"variant": "classic", "players": 4, "seats": ["me", "person", "person", "person"], "public": True}
            table = (await http.post("/api/tables", json=form, headers=maker)).json()["table"]
            http.cookies.clear()
            answers = await asyncio.gather(
                *(http.post(f"/api/tables/{table}/join", json={}, headers=joiner) for joiner in joiners)
            )
            http.cookies.clear()
            seats = [answer.json().get("seat") for answer in answers]
            said = (number, [(answer.status_code, answer.text) for answer in answers])
            assert all(isinstance(seat, int) for seat in seats), said  # before sorting, which a missing seat breaks
            assert sorted(seats) == [1, 2, 3], said
            expected = ["Iris", *(JOINERS[seats.index(seat)] for seat in (1, 2, 3))]
            spectator, _ = await _open(base, table, None)
            await _state_where(spectator, lambda view, expected=expected: view["names"] == expected)
            await spectator.close()
            for joiner, seat in zip(joiners, seats, strict=True):
                mine = (await http.get("/api/me/tables", headers=joiner)).json()["seats"]
                http.cookies.clear()
                assert (table, seat) in [(line["table"], line["seat"]) for line in mine], number

            # Four seats name themselves at once.
            form = {"variant": "classic", "players": 4, "seats": ["person"] * 4}
            links = (await http.post("/api/tables", json=form)).json()
            opened = [await _open(base, links["table"], seat["token"]) for seat in links["seats"]]
            sockets = [ws for ws, _ in opened]
            await asyncio.gather(
                *(ws.send(json.dumps({"type": "name", "name": name})) for ws, name in zip(sockets, GUESTS, strict=True))
            )
            await asyncio.gather(*(_state_where(ws, lambda view: view["names"] == list(GUESTS)) for ws in sockets))
            for ws in sockets:
                await ws.close()
            late, _ = await _open(base, links["table"], None)  # from the stored set-up, as a newcomer sees it
            assert (await _state_where(late, lambda view: True))["view"]["names"] == list(GUESTS), number
            await late.close()


def test_people_joining_and_naming_one_table_at_once_each_keep_their_seat_and_name(tmp_path: Path) -> None:
    with serving(tmp_path, "--pace", "0") as address:
        asyncio.run(_rounds(address))


@pytest.fixture
def two_processes(postgres_url: str, tmp_path: Path) -> Iterator[Proxy]:
    with serving_cluster(tmp_path, postgres_url, ("c1", "c2")) as (_, proxy):
        yield proxy


def test_through_a_cluster_too_people_joining_and_naming_at_once_each_keep_their_seat_and_name(
    two_processes: Proxy,
) -> None:
    asyncio.run(_rounds(two_processes.url))
