"""The group commit the server benchmark measures (``racko bench server``, tests/test_bench.py): a move is told only
once committed, and a move the database refuses is forgotten."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from racko.families import family_of
from racko.match import Match
from racko.rules import Rules
from racko.web.app import ServerSettings, create_app
from racko.web.store import SqliteTables
from tables import until_frame


def _committed_version(store: SqliteTables, table_id: str) -> int:
    """The version of the game as the journal keeps it (what a restarted server would resume)."""
    stored = store.load(table_id)
    assert stored is not None
    rules = Rules.from_dict(stored.setup["rules"])
    match = Match(rules, seed=stored.setup["seed"])
    family = family_of(rules)
    for raw in stored.actions:
        match.apply(family.action_from_json(raw))
    return sum(len(round_.log) for round_ in match.rounds)


def test_grouped_moves_reach_the_journal_before_anybody_sees_them(tmp_path: Path) -> None:
    store = SqliteTables(tmp_path / "t.sqlite3", grouped=True)
    with TestClient(create_app(store, ServerSettings(pace=0.0, frames_per_second=10000.0))) as client:
        links = client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "easy"]}).json()
        with client.websocket_connect(f"/ws/{links['table']}") as ws:
            ws.send_json({"type": "hello", "token": links["seats"][0]["token"]})
            state = until_frame(ws, "state")
            rng = random.Random(3)
            seen = 0
            for _ in range(80):
                assert state["version"] <= _committed_version(store, links["table"])
                seen += 1
                legal = state["view"]["legal"]
                if legal:
                    action = {key: value for key, value in rng.choice(legal).items() if key != "seat"}
                    ws.send_json({"type": "act", "version": state["version"], "action": action})
                state = until_frame(ws, "state")
            assert seen == 80 and state["version"] > 40


def _until_error(ws: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    states = []
    for _ in range(50):
        frame = ws.receive_json()
        if frame["type"] == "error":
            return dict(frame), states
        if frame["type"] == "state":
            states.append(frame)
    raise AssertionError("no error frame")


def test_a_move_the_database_refuses_is_forgotten_and_said(tmp_path: Path) -> None:
    store = SqliteTables(tmp_path / "t.sqlite3", grouped=True)
    with TestClient(create_app(store, ServerSettings(pace=0.0, frames_per_second=10000.0))) as client:
        links = client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "person"]}).json()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[links["table"]]
        actor = table.session.to_act
        with client.websocket_connect(f"/ws/{links['table']}") as ws:
            ws.send_json({"type": "hello", "token": links["seats"][actor]["token"]})
            state = until_frame(ws, "state")
            if actor == 1:
                ws.send_json({"type": "name", "name": "Bob"})
                state = until_frame(ws, "state")
            with store._using:  # the disk is full, as far as the journal knows
                store._db.execute(
                    "CREATE TRIGGER full BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'disk is full'); END"
                )
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
            error, states = _until_error(ws)
            assert error["code"] == "not-saved" and "disk is full" in error["message"]
            assert states and states[-1]["version"] == state["version"]  # the table as the journal keeps it
            fresh = hub.tables[links["table"]]
            assert fresh is not table and fresh.version == state["version"]
            assert _committed_version(store, links["table"]) == state["version"]
            with store._using:
                store._db.execute("DROP TRIGGER full")
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
            assert until_frame(ws, "state")["version"] > state["version"]
            assert _committed_version(store, links["table"]) > state["version"]


def test_a_write_that_need_not_be_synced_joins_the_group_s_open_transaction(tmp_path: Path) -> None:
    """A write of what a power cut may lose (a Bot API limit's count, whose move it is for the players' lists:
    ``run(durable=False)``) made while the group's writes are staged joins their transaction instead of committing it
    early with a sync of its own (issue 46: every such write made the moves' commit wait for a second sync); one
    that fails leaves the group's writes as they were; with no group open, it commits on its own."""
    store = SqliteTables(tmp_path / "t.sqlite3", grouped=True)
    store.prepare([])
    store.run(lambda rows: rows("CREATE TABLE notes (n INTEGER)"))

    def seen(sql: str) -> list[Any]:
        return list(store.read(lambda rows: rows(sql)))

    store.create("t1", {"rules": {}, "seats": []})
    store.stage()  # the group's write, in the open transaction
    store.run(lambda rows: rows("INSERT INTO notes (n) VALUES (1)"), durable=False)
    assert seen("SELECT id FROM tables") == [] and seen("SELECT n FROM notes") == []  # nothing committed early

    def fails(rows: Any) -> None:
        rows("INSERT INTO notes (n) VALUES (2)")
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        store.run(fails, durable=False)
    store.commit()
    assert seen("SELECT id FROM tables") == [("t1",)] and seen("SELECT n FROM notes") == [(1,)]
    assert not store.unsaved("t1")
    store.run(lambda rows: rows("INSERT INTO notes (n) VALUES (3)"), durable=False)  # no group open: on its own
    assert seen("SELECT n FROM notes ORDER BY n") == [(1,), (3,)]
    store.close()
