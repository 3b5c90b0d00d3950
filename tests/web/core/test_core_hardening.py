"""`racko serve` run for real: owner-only files, damaged rows set aside, bounded requests, limits on new tables, only
its own pages, a clear word for a wrong --db, the metrics and the health check, and its log.  Real server processes
on 127.0.0.1 where the behaviour is the process's (files, logs, sockets); the application in-process elsewhere."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from racko.tools.bench.processes import HOST, ServeProcess
from racko.web.app import ServerSettings, create_app
from racko.web.store import SqliteTables

FORM = {"variant": "classic", "players": 2, "seats": ["me", "easy"], "names": ["Ann"]}
RACKO = [sys.executable, "-c", "import sys; sys.argv[0] = 'racko'; from racko.cli import main; main()"]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Starts `racko serve` processes over tmp_path/tables.sqlite3 (or another --db); all stopped at the end."""
    started: list[ServeProcess] = []

    def start(*options: str, db: str | None = None) -> ServeProcess:
        server = ServeProcess(tmp_path, db or str(tmp_path / "tables.sqlite3"), f"s{len(started) + 1}", *options)
        started.append(server)
        server.start()
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop(10)


def _make_table(url: str, **headers: str) -> httpx.Response:
    return httpx.post(url + "/api/tables", json=FORM, headers=headers, trust_env=False, timeout=30)


def _state(url: str, table_id: str, token: str | None) -> dict[str, Any]:
    with connect(url.replace("http", "ws") + f"/ws/{table_id}", proxy=None, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "version": 0}))
        while True:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if frame["type"] in ("state", "error"):
                return frame


# --- files ------------------------------------------------------------------------------------------------------


def test_the_database_and_its_journal_files_are_readable_by_their_owner_only(serve: Any, tmp_path: Path) -> None:
    previous = os.umask(0o022)  # the server process inherits a careless umask
    try:
        server = serve()
    finally:
        os.umask(previous)
    table = _make_table(server.url).json()
    assert _state(server.url, table["table"], table["seats"][0]["token"])["type"] == "state"
    files = [tmp_path / name for name in ("tables.sqlite3", "tables.sqlite3-wal", "tables.sqlite3-shm")]
    assert all(path.exists() for path in files)
    assert {oct(stat.S_IMODE(path.stat().st_mode)) for path in files} == {"0o600"}


# --- damaged rows and foreign databases -------------------------------------------------------------------------


def test_damaged_tables_are_set_aside_with_one_line_each_and_every_other_table_is_served(
    serve: Any, tmp_path: Path
) -> None:
    db = tmp_path / "tables.sqlite3"
    first = serve()
    good, bad_json, bad_move = (_make_table(first.url).json() for _ in range(3))
    first.stop()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE tables SET setup = '{not json' WHERE id = ?", (bad_json["table"],))
        connection.execute(
            "INSERT INTO actions (table_id, number, action) VALUES (?, 0, ?)",
            (bad_move["table"], json.dumps({"act": "exchange", "seat": 0, "slot": 5})),  # nothing drawn yet
        )
    server = serve()
    log = server.log_tail()
    assert f"table {bad_json['table']} set aside: its set-up is not JSON" in log
    assert f"table {bad_move['table']} set aside: action 1 of its journal is refused" in log
    assert "Traceback" not in log
    state = _state(server.url, good["table"], good["seats"][0]["token"])
    assert state["type"] == "state" and len(state["view"]["rack"]) == 10
    for damaged in (bad_json, bad_move):
        refused = _state(server.url, damaged["table"], damaged["seats"][0]["token"])
        assert refused["code"] == "damaged" and "cannot be opened" in refused["message"]


def test_a_database_of_another_program_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    other = tmp_path / "shop.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY)")
    done = subprocess.run([*RACKO, "serve", "--db", str(other)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "holds other tables (customers), not racko's" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("db", "said"),
    [
        ("mysql://me@db/racko", "not a mysql:// URL"),
        ("postgresql://me@127.0.0.1:1/racko", "cannot reach the database postgresql://me@127.0.0.1:1/racko"),
    ],
)
def test_a_db_that_is_neither_a_file_nor_a_reachable_postgresql_gets_a_clear_message(
    tmp_path: Path, db: str, said: str
) -> None:
    done = subprocess.run([*RACKO, "serve", "--db", db], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []  # no folder named after the URL


def test_a_second_server_on_the_same_file_is_refused(serve: Any, tmp_path: Path) -> None:
    serve()
    done = subprocess.run(
        [*RACKO, "serve", "--db", str(tmp_path / "tables.sqlite3"), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "another racko serve is using" in done.stderr


# --- requests ---------------------------------------------------------------------------------------------------


def _raw_post(port: int, head: bytes, body: bytes, seconds: float = 5.0) -> bytes:
    """Sends a request by hand (a declared length need not be sent whole) and reads what comes back in time."""
    with socket.create_connection((HOST, port), timeout=seconds) as raw:
        raw.sendall(head + body)
        answer = b""
        try:
            while chunk := raw.recv(65536):
                answer += chunk
        except TimeoutError:
            pass
        return answer


def test_a_body_over_the_limit_is_refused_before_it_is_read(serve: Any) -> None:
    server = serve()
    declared = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 67108864\r\nConnection: close\r\n\r\n"
    )
    started = time.monotonic()
    answer = _raw_post(server.port, declared, b"{" * 1000)  # 64 MiB announced, 1 KB sent: answered at once
    assert answer.startswith(b"HTTP/1.1 413") and b"too long" in answer
    assert time.monotonic() - started < 4
    chunked = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    piece = b"1000\r\n" + b" " * 4096 + b"\r\n"
    answer = _raw_post(server.port, chunked, piece * 3)  # no length given: read only up to the limit
    assert answer.startswith(b"HTTP/1.1 413")


def test_new_tables_are_limited_per_address_and_in_all(serve: Any) -> None:
    server = serve("--new-tables-per-minute", "3")
    assert [_make_table(server.url, **{"X-Forwarded-For": "10.0.0.1"}).status_code for _ in range(3)] == [200] * 3
    refused = _make_table(server.url, **{"X-Forwarded-For": "10.0.0.1"})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert refused.json()["error"] == "Too many new tables at once: wait a minute, then try again."
    assert _make_table(server.url, **{"X-Forwarded-For": "10.0.0.2"}).status_code == 200  # another address
    with TestClient(
        create_app(SqliteTables(":memory:"), ServerSettings(new_tables_per_address=100, new_tables_in_all=5))
    ) as client:
        codes = [
            client.post("/api/tables", json=FORM, headers={"X-Forwarded-For": f"10.1.0.{n}"}).status_code
            for n in range(7)
        ]
    assert codes == [200] * 5 + [429] * 2


def test_tables_nobody_watches_leave_memory_and_come_back_when_somebody_does() -> None:
    store = SqliteTables(":memory:", grouped=True)
    with TestClient(create_app(store, ServerSettings(pace=0.0, idle_seconds=0.5))) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        links = client.post("/api/tables", json=FORM).json()
        assert links["table"] in hub.tables
        deadline = time.monotonic() + 10
        while links["table"] in hub.tables:
            assert time.monotonic() < deadline, "an idle table stayed in memory"
            time.sleep(0.1)
        with client.websocket_connect(f"/ws/{links['table']}") as ws:
            ws.send_json({"type": "hello", "token": links["seats"][0]["token"], "version": 0})
            assert ws.receive_json()["type"] == "welcome" and ws.receive_json()["type"] == "state"
            assert links["table"] in hub.tables


def test_pages_of_other_sites_may_neither_make_tables_nor_open_a_table_s_socket(serve: Any) -> None:
    server = serve("--allow-origin", "https://friends.example")
    foreign = _make_table(server.url, Origin="https://evil.example")
    assert foreign.status_code == 403 and "own start page" in foreign.json()["error"]
    own = _make_table(server.url, Origin=server.url)
    assert own.status_code == 200
    assert _make_table(server.url, Origin="https://friends.example").status_code == 200
    table_id = own.json()["table"]
    socket_url = server.url.replace("http", "ws") + f"/ws/{table_id}"
    with pytest.raises(InvalidStatus) as refused:
        connect(socket_url, proxy=None, additional_headers={"Origin": "https://evil.example"})
    assert refused.value.response.status_code == 403
    for origin in (server.url, "https://friends.example"):
        with connect(socket_url, proxy=None, additional_headers={"Origin": origin}) as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(ws.recv(timeout=30))["type"] == "welcome"


def test_every_response_says_nosniff(serve: Any) -> None:
    server = serve()
    for path in ("/", "/t/abc", "/static/table/table.js", "/api/options", "/nowhere", "/healthz", "/metrics"):
        answer = httpx.get(server.url + path, trust_env=False, timeout=30)
        assert answer.headers["X-Content-Type-Options"] == "nosniff", path


def test_an_answer_for_a_connection_that_just_closed_is_dropped_quietly(serve: Any) -> None:
    server = serve()
    table = _make_table(server.url).json()
    for _ in range(15):  # a hint is thought about in a worker thread: the socket is gone when it is ready
        with connect(server.url.replace("http", "ws") + f"/ws/{table['table']}", proxy=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": table["seats"][0]["token"]}))
            ws.send(json.dumps({"type": "hint"}))
            ws.send(json.dumps({"type": "presence"}))
    time.sleep(1.0)
    log = server.log_tail()
    assert "Unexpected ASGI message" not in log and "Traceback" not in log, log


# --- watching it ------------------------------------------------------------------------------------------------


def test_the_metrics_count_moves_refusals_and_commits_and_the_health_check_answers(serve: Any) -> None:
    server = serve()
    health = httpx.get(server.url + "/healthz", trust_env=False, timeout=30)
    assert health.status_code == 200 and health.json()["status"] == "ok" and health.json()["node"] == "s1"
    table = _make_table(server.url).json()
    with connect(server.url.replace("http", "ws") + f"/ws/{table['table']}", proxy=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": table["seats"][0]["token"], "version": 0}))
        state: dict[str, Any] = {}
        while not state.get("view", {}).get("legal"):
            frame = json.loads(ws.recv(timeout=30))
            state = frame if frame["type"] == "state" else state
        ws.send(json.dumps({"type": "act", "version": state["version"], "action": {"act": "draw"}}))
        ws.send(json.dumps({"type": "act", "version": 0, "action": {"act": "draw"}}))  # stale
        while json.loads(ws.recv(timeout=30)).get("code") != "stale":
            pass
        text = httpx.get(server.url + "/metrics", trust_env=False, timeout=30).text
    figures = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines() if line and line[0] != "#"}
    assert figures["racko_actions_total"] >= 1
    assert figures['racko_refused_frames_total{code="stale"}'] == 1
    assert figures["racko_move_commit_seconds_count"] >= 1 and figures["racko_move_broadcast_seconds_count"] >= 1
    assert figures["racko_database_commit_seconds_count"] >= 1
    assert figures["racko_open_tables"] == 1 and figures["racko_connections"] == 1
    assert figures["racko_tables_created_total"] == 1


def test_the_log_has_a_line_per_event_in_plain_text_or_json(serve: Any, tmp_path: Path) -> None:
    server = serve("--log-format", "json")
    table = _make_table(server.url).json()
    _state(server.url, table["table"], table["seats"][0]["token"])
    server.stop()
    lines = [json.loads(line) for line in server.log_tail().splitlines() if line.startswith("{")]
    messages = [line["message"] for line in lines]
    assert any(message.startswith("racko serve started: node s1") for message in messages)
    assert messages[-1] == "racko serve stopped: every table handed on"
    assert {line["level"] for line in lines} <= {"info", "warning"} and all(line["node"] == "s1" for line in lines)
    plain = serve()
    plain.stop()
    assert " racko serve s2 info: racko serve started: node s2" in plain.log_tail()
