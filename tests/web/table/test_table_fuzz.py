"""`racko serve` under a fuzz: ten thousand random and malformed frames over the tables' WebSockets, and malformed
bodies for POST /api/tables.  Every frame is answered, no socket is closed, and a frame that is refused leaves its
table byte for byte as it was.

The fuzz is seeded (SEED): a failure names the step, and the same run reproduces it.  After it, each server bug
found while writing these suites has its test: a client gone during its hello, the next game after a rename, and a
database that refuses a write.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient

from racko import bots
from racko.families import family_of
from racko.rules import variant
from racko.web.app import ServerSettings, create_app
from racko.web.core import FRAME_LIMIT
from racko.web.store import SqliteTables
from racko.web.table import Asker, PersonSeat, TableRequest, TableRoom

SEED = 20261125
FRAMES = 10_000
ANSWER_SECONDS = 20.0
"""How long a frame may wait for its answer before the test calls it unanswered (a real answer takes milliseconds)."""
QUIET_CHECK_EVERY = 500

TABLE_FORMS: list[dict[str, Any]] = [
    {"variant": "classic", "players": 3, "seats": ["me", "person", "person"], "target": 5000},
    {"variant": "bonus", "players": 2, "seats": ["me", "person"], "target": 5000},
    {"variant": "partners", "players": 4, "seats": ["me", "person", "person", "person"], "target": 5000},
    {"variant": "highlow", "players": 3, "seats": ["me", "person", "person"], "target": 5000},
    # Without the 2-player rule: two easy bots under it may each wait for a card of the run the other keeps, for ever.
    {
        "variant": "classic",
        "players": 2,
        "seats": ["me", "person"],
        "target": 1,
        "two_player_rule": False,
        "finish": True,
    },
]
"""People only: no computer player moves a table between two frames, so a refused frame's table can be compared.
The last game is played to its end first (one round reaches a target of 1): the fuzz meets a finished game, and
"again" there starts the next."""

ODD_TEXT = [
    "\ud800",  # lone surrogates: valid in a JSON escape, not in UTF-8
    "x\udfff",
    "\ud83d",
    "\u202eRTL override",
    "\u200fright-to-left mark",
    "\u2066isolate",
    "\x00",
    "\x1b[2J\x1b[31m",
    "\ufeff",
    "\uffff",
    "\U0010ffff",
    "e\u0301\u0301\u0301",
    "\t\r\n\x7f",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🂡",
    "",
    "   ",
    "null",
    "0",
    "draw",
]

ODD_NUMBERS: list[Any] = [-1, 0, 1, 2**31, 2**63, -(2**63), 10**400, -(10**400), 1.5, -0.0, 1e308, 5.0]
"""Numbers of every shape JSON can carry (10**400 has 401 digits; NaN and the infinities: _odd_values)."""


def _odd_values(rng: random.Random) -> list[Any]:
    """Values of the wrong type (or the wrong size) for any field."""
    return [
        None,
        True,
        False,
        *ODD_NUMBERS,
        math.inf,
        -math.inf,
        math.nan,
        "",
        "x" * rng.randrange(1, 300),
        rng.choice(ODD_TEXT),
        [],
        {},
        [1, 2],
        {"act": "draw"},
        _nested(rng.randrange(1, 60)),
    ]


def _nested(depth: int) -> Any:
    value: Any = []
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value


@dataclass
class Connection:
    """One open WebSocket of the fuzz: the table it watches, as which seat (``None``: a spectator)."""

    socket: Any
    table_id: str
    viewer: int | None
    markers: int = 0


@dataclass
class Probe:
    """A frame to send, and what it must bring: ``refused`` (an error, the table unchanged), ``answered:<type>``
    (that frame, the table unchanged), ``either`` (an error, or if it happened to be legal a state or new-game frame)
    or ``accepted`` (a legal move)."""

    payload: str | bytes
    expect: str
    what: str


def _dumps(value: Any, rng: random.Random) -> str:
    # Half of the frames carry odd characters raw (only a test client can send a lone surrogate so), half escaped.
    return json.dumps(value, ensure_ascii=rng.random() < 0.5)


def _app(**options: Any) -> Any:
    options.setdefault("new_tables_per_address", 10**6)  # tables made at a machine's speed
    return create_app(SqliteTables(":memory:"), ServerSettings(pace=0.0, frames_per_second=1e9, **options))


@pytest.fixture
def fuzz_client() -> Iterator[TestClient]:
    with TestClient(_app()) as client:
        yield client


def _hub(client: TestClient) -> TableRoom:
    hub: TableRoom = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def _receive(socket: Any) -> dict[str, Any]:
    """The next frame from the server, within ANSWER_SECONDS (the test client itself would wait forever)."""

    async def within() -> Any:
        with anyio.fail_after(ANSWER_SECONDS):
            return await socket._send_rx.receive()  # the test client's own queue: its receive() has no timeout

    try:
        message = socket.portal.call(within)
    except TimeoutError:
        raise AssertionError(f"no answer within {ANSWER_SECONDS} s") from None
    assert message["type"] == "websocket.send", f"the server closed the socket: {message}"
    text = message.get("text")
    assert isinstance(text, str), f"a frame that is not text: {message}"
    text.encode("utf-8")  # a real server sends UTF-8: a lone surrogate in a frame would fail there
    frame = json.loads(text)
    assert isinstance(frame, dict) and isinstance(frame.get("type"), str), text[:200]
    if frame["type"] == "error":
        assert isinstance(frame.get("code"), str) and frame["code"], frame
        assert isinstance(frame.get("message"), str) and frame["message"], frame
        assert "Traceback" not in frame["message"], frame
    return frame


def _pending(connection: Connection) -> list[dict[str, Any]]:
    """The frames a socket had waiting: it sends a frame of an unknown type naming a fresh marker, and collects
    what arrives before that marker's error."""
    connection.markers += 1
    marker = f"marker-{connection.markers}"
    connection.socket.send_json({"type": marker})
    frames: list[dict[str, Any]] = []
    while True:
        frame = _receive(connection.socket)
        if frame["type"] == "error" and marker in frame["message"]:
            return frames
        frames.append(frame)
        assert len(frames) < 100, frames[:5]


def _snapshot(hub: TableRoom, table_id: str) -> tuple[str, int, str]:
    """Everything a frame could change at a table: the game's record, its version, the set-up (names, seats)."""
    table = hub.tables[table_id]
    record = json.dumps(table.session.record().to_json(), sort_keys=True)
    return record, table.version, json.dumps(table.setup.json(), sort_keys=True)


# --- the frames ------------------------------------------------------------------------------------------------


class FrameMaker:
    """Draws the fuzz's frames for one connection from what its table looks like now."""

    def __init__(self, rng: random.Random, hub: TableRoom) -> None:
        self.rng = rng
        self.hub = hub

    def make(self, connection: Connection) -> Probe:
        makers: list[tuple[float, Callable[[Connection], Probe]]] = [
            (6, self.garbage_text),
            (3, self.binary),
            (5, self.not_an_object),
            (4, self.deep_nesting),
            (3, self.oversized),
            (4, self.unknown_type),
            (25, self.wrong_field),
            (30, self.mutated_action),
            (6, self.right_answers),
        ]
        weights = [weight for weight, _ in makers]
        _, maker = self.rng.choices(makers, weights)[0]
        return maker(connection)

    # what the table looks like
    def version(self, connection: Connection) -> int:
        return self.hub.tables[connection.table_id].version

    def legal(self, seat: int, table_id: str) -> list[dict[str, Any]]:
        session = self.hub.tables[table_id].session
        if session.match.over or session.to_act != seat:
            return []
        family = family_of(session.rules)
        actions = (family.action_to_json(action) for action in session.observation(seat).legal_actions())
        return [{key: value for key, value in action.items() if key != "seat"} for action in actions]

    def highlow(self, connection: Connection) -> bool:
        return family_of(self.hub.tables[connection.table_id].session.rules).name == "highlow"

    # frames that are not frames
    def garbage_text(self, connection: Connection) -> Probe:
        rng = self.rng
        choice = rng.randrange(5)
        if choice == 0:
            text = "".join(chr(rng.randrange(0x20, 0x2FFF)) for _ in range(rng.randrange(1, 200)))
        elif choice == 1:
            text = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))).decode("latin-1")
        elif choice == 2:  # a real frame cut short
            whole = json.dumps({"type": "act", "version": self.version(connection), "action": {"act": "draw"}})
            text = whole[: rng.randrange(len(whole))]
        elif choice == 3:
            text = rng.choice(["{", "}", "{]", '{"type": }', '{"type": "sync",}', "{'type': 'sync'}", "undefined"])
        else:
            text = rng.choice(ODD_TEXT) * rng.randrange(1, 20)
        return Probe(text, "refused", "garbage text")

    def binary(self, connection: Connection) -> Probe:
        rng = self.rng
        if rng.random() < 0.5:
            return Probe(json.dumps({"type": "presence"}).encode(), "refused", "a frame in binary")
        return Probe(bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300))), "refused", "random bytes")

    def not_an_object(self, connection: Connection) -> Probe:
        rng = self.rng
        shape = rng.choice(
            [
                *_odd_values(rng),
                {"no": "type"},
                {"type": rng.choice(_odd_values(rng)[:20])},
                {"Type": "presence"},
                ["type", "presence"],
            ]
        )
        if isinstance(shape, dict) and isinstance(shape.get("type"), str):
            shape = {"type": 7}
        return Probe(_dumps(shape, rng), "refused", "not an object with a type")

    def deep_nesting(self, connection: Connection) -> Probe:
        rng = self.rng
        depth = rng.randrange(100, 3000)
        choice = rng.randrange(4)
        if choice == 0:
            text = "[" * depth
        elif choice == 1:
            text = '{"a":' * min(depth, FRAME_LIMIT // 5 - 2) + "1" + "}" * min(depth, FRAME_LIMIT // 5 - 2)
        else:
            inner = "[" * (depth // 2) + "]" * (depth // 2)
            kind, name = rng.choice(
                [("act", "action"), ("act", "version"), ("name", "name"), ("hand-over", "seat"), ("hand-over", "bot")]
            )
            text = f'{{"type": "{kind}", "version": {self.version(connection)}, "{name}": {inner}}}'
        return Probe(text, "refused", f"nested {depth} deep")

    def oversized(self, connection: Connection) -> Probe:
        rng = self.rng
        padding = "x" * (FRAME_LIMIT + rng.randrange(1, 60000))
        frame = rng.choice(
            [
                {"type": "presence", "pad": padding},
                {"type": "name", "name": padding},
                {"type": "act", "version": self.version(connection), "action": {"act": padding}},
            ]
        )
        return Probe(json.dumps(frame), "refused", "oversized")

    def unknown_type(self, connection: Connection) -> Probe:
        rng = self.rng
        kind = rng.choice(
            ["hello", "HELLO", " act", "act\x00", "Act", "welcome", "state", "error", "new-game", "x" * 500]
        )
        if rng.random() < 0.3:
            kind = rng.choice(ODD_TEXT) + rng.choice(["", "act", "sync"])
        if kind in ("act", "sync"):
            kind += "?"
        return Probe(_dumps({"type": kind, "version": self.version(connection)}, rng), "refused", "unknown type")

    # real frame types, with a field of the wrong type or size
    def wrong_field(self, connection: Connection) -> Probe:
        rng = self.rng
        odd = rng.choice(_odd_values(rng))
        version = self.version(connection)
        session = self.hub.tables[connection.table_id].session
        turn = not session.match.over and session.to_act == connection.viewer
        kind = rng.choice(["act", "act", "name", "hint", "hand-over", "again", "presence", "sync"])
        if kind == "act":
            if rng.random() < 0.5:
                if isinstance(odd, int) and not isinstance(odd, bool) and odd == version:
                    odd = str(odd)
                frame = {"type": "act", "version": odd, "action": {"act": "draw"}}
            else:
                frame = {"type": "act", "version": version, "action": odd}
            expect = "either" if isinstance(odd, dict) else "refused"  # {"act": "draw"} may be a legal move
            return Probe(_dumps(frame, rng), expect, f"act with {odd!r:.60}")
        if kind == "name":
            # a string may be a (strange) name, and a seat may choose one: either answer is right
            expect = "either" if isinstance(odd, str) and connection.viewer is not None else "refused"
            return Probe(_dumps({"type": "name", "name": odd}, rng), expect, f"name {odd!r:.60}")
        if kind == "hint":
            expect = "answered:hint" if turn else "refused"
            return Probe(_dumps({"type": "hint", "extra": odd}, rng), expect, "hint")
        if kind == "hand-over":
            seat, bot = (odd, "easy") if rng.random() < 0.5 else (rng.randrange(-1, 6), odd)
            frame = {"type": "hand-over", "seat": seat, "bot": bot}
            return Probe(_dumps(frame, rng), "refused", f"hand-over {seat!r:.40} {bot!r:.40}")
        if kind == "again":  # the next game, once one is over: a legal frame for a seat
            over = self.hub.tables[connection.table_id].session.match.over
            expect = "either" if over and connection.viewer is not None else "refused"
            return Probe(_dumps({"type": "again", "game": odd}, rng), expect, "again")
        if kind == "presence":
            return Probe(_dumps({"type": "presence", "seat": odd}, rng), "answered:presence", "presence")
        return Probe(_dumps({"type": "sync", "version": odd}, rng), "answered:state", f"sync {odd!r:.60}")

    # moves: legal ones bent out of shape, from the right seat and the wrong ones
    def mutated_action(self, connection: Connection) -> Probe:
        rng = self.rng
        table = self.hub.tables[connection.table_id]
        to_act = table.session.to_act
        version = table.version
        legal = self.legal(to_act, connection.table_id) if to_act is not None else []
        if not legal:
            return self.wrong_field(connection)
        action = dict(rng.choice(legal))
        mine = connection.viewer == to_act
        choice = rng.randrange(8)
        if choice == 0:  # a stale or future version
            wrong = rng.choice(
                [version - 1, version - rng.randrange(1, version + 2), -1, version + 1, version + 10**9, 10**400]
            )
            wrong = wrong if wrong != version else -1
            frame = {"type": "act", "version": wrong, "action": action}
            return Probe(json.dumps(frame), "refused", f"version {wrong} at {version}")
        if choice == 1:  # the version in another form
            wrong_form = rng.choice([str(version), float(version), [version], {"v": version}, version == 0, None])
            return Probe(
                json.dumps({"type": "act", "version": wrong_form, "action": action}), "refused", "version form"
            )
        if choice == 2:  # slots and positions out of range
            bad = rng.choice([-5, -1, 0, 1, 4, 6, 11, 49, 51, 55, 100, 10**20, 10**400, 5.0, "5", True, None, [5]])
            if self.highlow(connection):
                if rng.random() < 0.5:
                    action = {"act": "replace", "position": bad if bad not in range(1, 11) else 0}
                else:
                    pair = rng.choice([[bad, 1], [1], [1, 2, 3], [], "1,2", [1, 1], [0, 10], [1, 11]])
                    action = {"act": "swap", "positions": pair}
                    if isinstance(bad, int) and not isinstance(bad, bool) and 1 <= bad <= 10 and pair == [bad, 1]:
                        action["positions"] = [bad, 0]
            else:
                action = {"act": "exchange", "slot": bad if bad not in (5, 10, 15, 20, 25, 30, 35, 40, 45, 50) else 0}
            return Probe(json.dumps({"type": "act", "version": version, "action": action}), "refused", f"{action}")
        if choice == 3:  # an unknown or misspelt verb
            verb = rng.choice(
                ["Draw", "draw ", "drew", "", "exchange\x00", "replace" if not self.highlow(connection) else "take"]
            )
            verb = verb if verb != "replace" or not self.highlow(connection) else "exchange"
            frame = {"type": "act", "version": version, "action": {**action, "act": verb}}
            return Probe(_dumps(frame, rng), "refused", f"verb {verb!r}")
        if choice == 4:  # a field too many, or one missing
            if rng.random() < 0.5 or ("slot" not in action and "position" not in action and "positions" not in action):
                bent = {
                    **action,
                    rng.choice(["card", "slots", "extra", "Act", "\u202eact"]): rng.choice(_odd_values(rng)),
                }
            else:
                bent = {key: value for key, value in action.items() if key == "act"}
            return Probe(_dumps({"type": "act", "version": version, "action": bent}, rng), "refused", f"{bent!r:.80}")
        if choice == 5:  # any verb of the family, at any slot: legal by chance only
            if self.highlow(connection):
                action = rng.choice(
                    [
                        {"act": "replace", "position": rng.randrange(1, 11)},
                        {"act": "swap", "positions": rng.sample(range(1, 11), 2)},
                        {"act": "keep"},
                    ]
                )
            else:
                verb = rng.choice(["draw", "take", "exchange", "discard", "racko", "wait"])
                action = {"act": verb, **({"slot": rng.choice(range(5, 55, 5))} if verb == "exchange" else {})}
            expect = "either" if mine else "refused"
            return Probe(json.dumps({"type": "act", "version": version, "action": action}), expect, f"{action}")
        if choice == 6:  # naming another seat inside the action: the server knows who sent it
            seat = rng.randrange(-1, 5)
            frame = {"type": "act", "version": version, "action": {**action, "seat": seat}}
            return Probe(json.dumps(frame), "either" if mine else "refused", f"seat {seat} inside")
        # a legal move: from the seat to act it is played, from another seat or a spectator refused
        frame = json.dumps({"type": "act", "version": version, "action": action})
        return Probe(frame, "accepted" if mine else "refused", f"move {action}")

    def right_answers(self, connection: Connection) -> Probe:
        rng = self.rng
        if rng.random() < 0.5:
            return Probe(json.dumps({"type": "presence"}), "answered:presence", "presence")
        seen = rng.choice([0, self.version(connection), rng.randrange(0, self.version(connection) + 1), -3, 10**12])
        return Probe(json.dumps({"type": "sync", "version": seen}), "answered:state", f"sync from {seen}")


# --- the fuzz --------------------------------------------------------------------------------------------------


def _sit(client: TestClient, stack: ExitStack, table_id: str, seat: dict[str, Any], named: bool) -> Connection:
    """Connects as a seat of the links (``seat``'s token; ``None``: a spectator) and, if ``named``, chooses a name.
    Each socket is served by a task of its own: reading up to this socket's own answers makes sure that the frames
    its hello and name sent to the other sockets are there before anybody looks."""
    socket = stack.enter_context(client.websocket_connect(f"/ws/{table_id}"))
    socket.send_json({"type": "hello", "token": seat["token"]})
    connection = Connection(socket, table_id, seat["seat"])
    assert [frame["type"] for frame in _pending(connection)][:3] == ["welcome", "state", "presence"]
    if named:
        socket.send_json({"type": "name", "name": f"Seat {seat['seat'] + 1}"})
        _pending(connection)
    return connection


def _open_tables(client: TestClient, stack: ExitStack) -> list[Connection]:
    """The fuzz's tables, each with every seat (named) and a spectator connected, every socket quiet."""
    connections: list[Connection] = []
    for form in TABLE_FORMS:
        answer = client.post("/api/tables", json={key: value for key, value in form.items() if key != "finish"})
        assert answer.status_code == 200, answer.text
        links = answer.json()
        table_id = links["table"]
        at_table = [_sit(client, stack, table_id, seat, named=True) for seat in links["seats"]]
        at_table.append(_sit(client, stack, table_id, {"seat": None, "token": None}, named=False))
        for connection in at_table:
            _pending(connection)
        if form.get("finish"):
            _play_to_the_end(_hub(client), at_table)
        connections += at_table
    return connections


def _play_to_the_end(hub: TableRoom, at_table: list[Connection]) -> None:
    """Each seat plays the easy bot's choices through its socket until the game is over."""
    session = hub.tables[at_table[0].table_id].session
    family = family_of(session.rules)
    advisor = bots.create("easy", seed=SEED)
    while not session.match.over:
        seat = session.to_act
        assert seat is not None
        action = family.action_to_json(advisor.act(session.observation(seat)))
        del action["seat"]
        actor = next(connection for connection in at_table if connection.viewer == seat)
        actor.socket.send_json({"type": "act", "version": session.version, "action": action})
        for connection in sorted(at_table, key=lambda connection: connection is not actor):  # the actor first
            assert all(frame["type"] in ("state", "presence") for frame in _pending(connection))
        session = hub.tables[at_table[0].table_id].session


def test_ten_thousand_malformed_frames_are_answered_and_change_no_table(fuzz_client: TestClient) -> None:
    """Each frame goes to one socket (half of the time the seat to act, where a move gets furthest), and its answer
    is the next frame there.  A refused frame leaves its table's record, version and set-up as they were; a legal
    one (a move made on purpose, or one a mutation left legal) is answered with the new state at every socket of
    its table, which the test then reads to the end.  Every QUIET_CHECK_EVERY steps, no socket may hold a frame
    nobody asked for.  The moves keep the games going, so that frames meet every phase of a turn."""
    hub = _hub(fuzz_client)
    rng = random.Random(SEED)
    maker = FrameMaker(rng, hub)
    sent = accepted = 0
    answers: dict[str, int] = {}
    with ExitStack() as stack:
        connections = _open_tables(fuzz_client, stack)
        by_table = {
            connection.table_id: [c for c in connections if c.table_id == connection.table_id]
            for connection in connections
        }
        step = 0
        while sent < FRAMES:
            step += 1
            connection = rng.choice(connections)
            if rng.random() < 0.5:  # most moves go to the seat to act, where they get furthest
                to_act = hub.tables[connection.table_id].session.to_act
                connection = next((c for c in by_table[connection.table_id] if c.viewer == to_act), connection)
            probe = maker.make(connection)
            before = _snapshot(hub, connection.table_id)
            if isinstance(probe.payload, bytes):
                connection.socket.send_bytes(probe.payload)
            else:
                connection.socket.send_text(probe.payload)
            answer = _receive(connection.socket)
            after = _snapshot(hub, connection.table_id)
            context = f"step {step} ({probe.what}, expecting {probe.expect}): answered {answer!r:.300}"
            kind = answer["type"]
            answers[answer.get("code", kind)] = answers.get(answer.get("code", kind), 0) + 1
            if probe.expect == "refused" or (probe.expect == "either" and kind == "error"):
                assert kind == "error", context
                assert after == before, context
            elif probe.expect.startswith("answered:"):
                assert kind == probe.expect.removeprefix("answered:"), context
                assert after == before, context
                if kind == "state":
                    assert answer["version"] == after[1] and 0 <= answer["since"] <= answer["version"], context
                if kind == "presence":
                    present = {c.viewer for c in by_table[connection.table_id] if c.viewer is not None}
                    assert all(answer["seats"][seat]["connected"] for seat in present), context
                    assert answer["spectators"] == 1, context
            else:  # a legal frame (a move, a name, the next game): the table moved on, and every socket there is told
                assert kind in ("state", "new-game"), context
                assert kind == "new-game" or answer["version"] == after[1] >= before[1], context
                for other in by_table[connection.table_id]:
                    told = _pending(other)
                    assert all(frame["type"] in ("state", "presence", "new-game") for frame in told), (context, told)
                    assert other is connection or any(frame["type"] == "state" for frame in told), (context, told)
                accepted += 1
            if probe.expect not in ("accepted", "either") or kind == "error":
                sent += 1
            if step % QUIET_CHECK_EVERY == 0:  # a refused frame tells nobody anything
                for other in connections:
                    assert _pending(other) == [], f"unasked frames by step {step}"
        for connection in connections:  # every socket is still open and answering
            connection.socket.send_json({"type": "presence"})
            assert _receive(connection.socket)["type"] == "presence"
    assert answers.get("new-game", 0) >= 1, answers  # the finished game was played again
    assert accepted > 100, answers  # the games moved on, so the fuzz met every phase of a turn
    assert answers.get("bad-frame", 0) > 1000 and answers.get("stale", 0) > 100 and answers.get("illegal", 0) > 100


# --- what the fuzz found ---------------------------------------------------------------------------------------


def test_a_sync_from_a_negative_version_is_brought_from_the_start(fuzz_client: TestClient) -> None:
    """A sync names the version the client last saw; one the game never had brings the whole game, ``since`` 0
    (it used to echo the negative number back as ``since``)."""
    links = fuzz_client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["me", "person"]})
    with fuzz_client.websocket_connect(f"/ws/{links.json()['table']}") as socket:
        socket.send_json({"type": "hello", "token": links.json()["seats"][0]["token"]})
        assert [_receive(socket)["type"] for _ in range(3)] == ["welcome", "state", "presence"]
        socket.send_json({"type": "sync", "version": 0})
        whole = _receive(socket)
        for seen in (-1, -(10**60)):
            socket.send_json({"type": "sync", "version": seen})
            state = _receive(socket)
            assert state["type"] == "state" and state["since"] == 0 and state["log"] == whole["log"]


# --- hellos and new tables -------------------------------------------------------------------------------------


def _hello_probe(rng: random.Random, token: str, other_table_token: str) -> tuple[str | bytes, bool]:
    """A first frame, and whether it makes the connection a watcher (otherwise it is refused and closed)."""
    odd = rng.choice(_odd_values(rng))
    choice = rng.randrange(7)
    if choice == 0:  # a seat's token, with a version of any shape: welcome, from wherever the version allows
        return _dumps({"type": "hello", "token": token, "version": odd}, rng), True
    if choice == 1:  # a token of the wrong type or shape, or one from another table
        bad = rng.choice([odd, token[:-1], token + "x", token.upper(), other_table_token, token * 5])
        if bad is None:
            return _dumps({"type": "hello", "token": None}, rng), True  # no token: a spectator
        return _dumps({"type": "hello", "token": bad}, rng), False
    if choice == 2:  # no token at all: a spectator, whatever else the frame says
        return _dumps({"type": rng.choice(["hello", "act", "x"]), "version": odd, "extra": odd}, rng), True
    if choice == 3:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 100))), False
    if choice == 4:
        return rng.choice(
            ["", "{", "[" * 5000, "null", '"hello"', "x" * (FRAME_LIMIT + 1), rng.choice(ODD_TEXT)]
        ), False
    if choice == 5:
        return _dumps({"token": token}, rng), False  # no type
    return json.dumps({"type": "hello", "token": token, "pad": "x" * FRAME_LIMIT}), False  # too big


def test_malformed_hellos_are_refused_and_closed_and_the_table_is_unchanged(fuzz_client: TestClient) -> None:
    hub = _hub(fuzz_client)
    rng = random.Random(SEED + 1)
    form = {"variant": "highlow", "players": 3, "seats": ["me", "person", "person"]}  # no computer player moves it
    links = fuzz_client.post("/api/tables", json=form).json()
    other = fuzz_client.post("/api/tables", json=form).json()
    table_id, token = links["table"], links["seats"][0]["token"]
    before = _snapshot(hub, table_id)
    outcomes = {True: 0, False: 0}
    for step in range(300):
        payload, welcomed = _hello_probe(rng, token, other["seats"][0]["token"])
        with fuzz_client.websocket_connect(f"/ws/{table_id}") as socket:
            if isinstance(payload, bytes):
                socket.send_bytes(payload)
            else:
                socket.send_text(payload)
            context = f"step {step}: {payload!r:.200}"
            first = _receive(socket)
            if welcomed:
                assert first["type"] == "welcome", (context, first)
                state = _receive(socket)
                assert state["type"] == "state" and 0 <= state["since"] <= state["version"], (context, state)
                assert _receive(socket)["type"] == "presence", context
                socket.send_json({"type": "presence"})
                assert _receive(socket)["type"] == "presence", context
            else:
                assert first["type"] == "error" and first["code"] in ("no-hello", "bad-token"), (context, first)
                closed = socket.receive()
                assert closed["type"] == "websocket.close" and closed["code"] in (4400, 4403), (context, closed)
            outcomes[welcomed] += 1
        assert _snapshot(hub, table_id) == before, context
    assert min(outcomes.values()) > 50, outcomes


def _form_probe(rng: random.Random) -> bytes:
    """A body for POST /api/tables: not JSON, not an object, or a good form with a field of the wrong shape."""
    good: dict[str, Any] = {
        "variant": "bonus",
        "players": 3,
        "seats": ["me", "person", "hard"],
        "names": ["Ann", "Bob", ""],
        "target": 300,
        "refill": "flip",
        "two_player_rule": True,
    }
    choice = rng.randrange(6)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
    if choice == 1:
        text = rng.choice(["", "{", '{"variant": }', "[" * rng.randrange(1, 4000), "1e999", "NaN", '"\\ud800"'])
        return text.encode()
    if choice == 2:
        return _dumps(rng.choice(_odd_values(rng)), rng).encode("utf-8", "surrogatepass")
    if choice == 3:  # a field of the wrong type, or an odd value of the right type
        key = rng.choice([*good, "extra"])
        value = rng.choice([*_odd_values(rng), "classic", "highlow", 2, 5, ["me"], ["me"] * 5, ["easy"] * 3])
        return _dumps({**good, key: value}, rng).encode("utf-8", "surrogatepass")
    if choice == 4:  # odd seats and names
        seats = [rng.choice(["me", "person", "easy", "expert", "human", "", "ME", rng.choice(ODD_TEXT), 1, None])]
        seats *= 3
        names = [rng.choice([*ODD_TEXT, "x" * 1000, 5, None, []]) for _ in range(rng.randrange(0, 6))]
        return _dumps({**good, "seats": seats, "names": names}, rng).encode("utf-8", "surrogatepass")
    return json.dumps({**good, "pad": "x" * 5000}).encode()  # too long


def test_malformed_forms_for_a_new_table_get_a_json_error_never_a_500() -> None:
    with TestClient(_app(), raise_server_exceptions=False) as client:
        hub = _hub(client)
        rng = random.Random(SEED + 2)
        made = refused = 0
        for step in range(1500):
            body = _form_probe(rng)
            count = len(hub.tables)
            answer = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
            context = f"step {step}: {body[:200]!r} -> {answer.status_code} {answer.text[:200]}"
            assert answer.status_code in (200, 400, 413), context
            reply = answer.json()
            if answer.status_code == 200:
                assert len(hub.tables) == count + 1 and reply["table"] in hub.tables, context
                made += 1
            else:
                assert isinstance(reply["error"], str) and reply["error"] and len(hub.tables) == count, context
                refused += 1
        assert refused > 1000 and made > 50, (refused, made)


# --- clients that vanish ---------------------------------------------------------------------------------------


def _vanishing_client(app: Any, path: str, frames: list[str]) -> list[dict[str, Any]]:
    """Runs one WebSocket connection through the application as a server would, for a client that sends ``frames``
    and is gone by the time the server answers: every send fails as uvicorn's does then (an OSError).  Returns what
    the server tried to send; an exception the application lets out fails the test, as it is a traceback in the
    server's log."""
    incoming: list[dict[str, Any]] = [
        {"type": "websocket.connect"},
        *({"type": "websocket.receive", "text": frame} for frame in frames),
        {"type": "websocket.disconnect", "code": 1006},
    ]
    tried: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "websocket.disconnect", "code": 1006}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] != "websocket.accept":
            tried.append(message)
            raise OSError("the client is gone")

    scope = {
        "type": "websocket",
        "asgi": {"version": "3.0"},
        "scheme": "ws",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "subprotocols": [],
    }
    anyio.run(app, scope, receive, send)
    return tried


def test_a_client_gone_during_its_hello_leaves_no_watcher_behind_and_no_traceback() -> None:
    """A seat whose browser vanished right after its hello used to stay "connected" for good (its watcher was never
    removed, so nobody could hand the seat to a computer player), and the failed welcome escaped as a traceback."""
    app = _app()
    hub: TableRoom = app.state.hub
    request = TableRequest(variant("classic").rules(2), (PersonSeat(me=True), PersonSeat()), Asker.page())
    links = anyio.run(hub.create, request)
    table = hub.tables[links["table"]]
    for seat in links["seats"]:
        hello = json.dumps({"type": "hello", "token": seat["token"]})
        tried = _vanishing_client(app, f"/ws/{table.table_id}", [hello])
        assert tried and json.loads(tried[0]["text"])["type"] == "welcome"
        assert table.watchers == [] and not table.connected(seat["seat"])
        assert table.seats.away_for(seat["seat"], hub.now()) is not None  # the others may hand it over later
    refused = [
        ("/ws/no-such-table", [json.dumps({"type": "hello", "token": None})], "no-table"),
        (f"/ws/{table.table_id}", [json.dumps({"type": "hello", "token": "not a seat"})], "bad-token"),
        (f"/ws/{table.table_id}", ["not json"], "no-hello"),
    ]
    for path, frames, code in refused:
        tried = _vanishing_client(app, path, frames)
        assert json.loads(tried[0]["text"])["code"] == code


# --- the next game ---------------------------------------------------------------------------------------------


def test_a_finished_game_is_filed_once_even_if_a_name_changed_before_the_next_game(fuzz_client: TestClient) -> None:
    """A game is filed when it ends; "again" files it only if that failed.  It used to compare the record's text,
    which carries the names: a player renamed after the game (or a seat handed over) filed the game a second time."""
    hub = _hub(fuzz_client)
    form = {"variant": "classic", "players": 2, "seats": ["me", "person"], "target": 1}
    links = fuzz_client.post("/api/tables", json=form).json()
    table_id = links["table"]
    with ExitStack() as stack:
        at_table = [_sit(fuzz_client, stack, table_id, seat, named=True) for seat in links["seats"]]
        for connection in at_table:
            _pending(connection)
        _play_to_the_end(hub, at_table)
        finished = hub.store.records(table_id)
        assert len(finished) == 1
        at_table[1].socket.send_json({"type": "name", "name": "Renamed"})
        _pending(at_table[1])
        at_table[0].socket.send_json({"type": "again"})
        for connection in at_table:
            assert any(frame["type"] == "new-game" for frame in _pending(connection))
        assert hub.store.records(table_id) == finished and hub.tables[table_id].setup.game == 2


# --- a database that refuses a write ---------------------------------------------------------------------------


class RefusingStore(SqliteTables):
    """An in-memory store that refuses the next ``refusals`` moves of seat ``seat``, and every change of a table's
    set-up or next game while ``refuse_changes`` is set, as a full disk or a database locked for too long would."""

    refusals = 0
    seat = 0
    refuse_changes = False

    def append(self, table_id: str, first: int, actions: list[dict[str, Any]], **played: Any) -> None:
        if self.refusals and any(action["seat"] == self.seat for action in actions):
            self.refusals -= 1
            raise sqlite3.OperationalError("database is locked")
        super().append(table_id, first, actions, **played)

    def update_setup(self, table_id: str, setup: dict[str, Any]) -> None:
        if self.refuse_changes:
            raise sqlite3.OperationalError("database or disk is full")
        super().update_setup(table_id, setup)

    def restart(self, table_id: str, setup: dict[str, Any], record: str) -> None:
        if self.refuse_changes:
            raise sqlite3.OperationalError("database or disk is full")
        super().restart(table_id, setup, record)


def _next_state(socket: Any) -> dict[str, Any]:
    frame = _receive(socket)
    while frame["type"] != "state":
        frame = _receive(socket)
    return frame


def test_a_move_the_database_refused_is_not_played_and_the_computer_player_tries_again() -> None:
    """A person's move the database refuses is answered not-saved and leaves the game as it was; a computer
    player's refused move is forgotten too, and the computer player tries again (it used to stop for good: the
    table waited for a move nobody would make until somebody reconnected)."""
    store = RefusingStore(":memory:")
    with TestClient(create_app(store, ServerSettings(pace=0.0, frames_per_second=1e9))) as client:
        hub = _hub(client)
        form = {"variant": "classic", "players": 2, "seats": ["me", "easy"]}
        links = client.post("/api/tables", json=form).json()
        table_id = links["table"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": links["seats"][0]["token"]})
            state = _next_state(ws)
            while not state["view"]["legal"]:
                state = _next_state(ws)
            before = hub.tables[table_id].session.record().to_json()
            store.refusals = 1
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
            frame = _receive(ws)
            while frame["type"] != "error":  # the table as it was comes first, to every socket
                frame = _receive(ws)
            assert frame["code"] == "not-saved" and "database is locked" in frame["message"]
            assert hub.tables[table_id].session.record().to_json() == before
            ws.send_json({"type": "sync", "version": 0})
            state = _next_state(ws)
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "draw"}})
            state = _next_state(ws)
            assert state["view"]["held"] is not None
            store.seat, store.refusals = 1, 1  # the computer player's move after Ann's discard
            ws.send_json({"type": "act", "version": state["version"], "action": {"act": "discard"}})
            mine = _next_state(ws)
            assert mine["view"]["to_act"] == 1
            later = _next_state(ws)
            while later["view"]["to_act"] != 0:
                later = _next_state(ws)
            assert later["version"] > mine["version"] and store.refusals == 0
            assert hub.tables[table_id].session.to_act == 0


def test_a_name_a_hand_over_or_a_next_game_the_database_refused_is_not_saved_and_changes_nothing() -> None:
    """They used to change the table in memory first, and the database's error escaped the frame: a traceback, the
    socket closed, and a change the database never had (gone at the next restart)."""
    store = RefusingStore(":memory:")
    app = create_app(store, ServerSettings(pace=0.0, frames_per_second=1e9, away_seconds=0.0))
    with TestClient(app) as client, ExitStack() as stack:
        hub = _hub(client)

        def seated(form: dict[str, Any], people: int) -> list[Connection]:
            links = client.post("/api/tables", json=form).json()
            at_table = [_sit(client, stack, links["table"], seat, named=False) for seat in links["seats"][:people]]
            for connection in at_table:
                _pending(connection)
            return at_table

        def refused(at_table: list[Connection], frame: dict[str, Any]) -> None:
            table_id = at_table[0].table_id
            before = _snapshot(hub, table_id)
            store.refuse_changes = True
            at_table[0].socket.send_json(frame)
            answer = _receive(at_table[0].socket)
            store.refuse_changes = False
            assert answer["type"] == "error" and answer["code"] == "not-saved", answer
            assert "disk is full" in answer["message"], answer
            assert _snapshot(hub, table_id) == before and store.load(table_id).setup == json.loads(before[2])
            for connection in at_table:
                assert _pending(connection) == []  # nobody was told of a change, and every socket still answers

        pair = seated({"variant": "classic", "players": 2, "seats": ["me", "person"], "target": 1}, 2)
        refused(pair, {"type": "name", "name": "Ann"})
        assert hub.tables[pair[0].table_id].session.names[0] == "Player 1"
        for connection in pair:  # the database is back
            connection.socket.send_json({"type": "name", "name": f"Seat {connection.viewer}"})
            for other in sorted(pair, key=lambda other: other is not connection):
                _pending(other)
        _play_to_the_end(hub, pair)
        refused(pair, {"type": "again"})
        assert hub.tables[pair[0].table_id].session.match.over and hub.tables[pair[0].table_id].setup.game == 1

        trio = seated({"variant": "classic", "players": 3, "seats": ["me", "person", "person"]}, 2)  # one stays away
        refused(trio, {"type": "hand-over", "seat": 2, "bot": "easy"})
        assert hub.tables[trio[0].table_id].session.seats[2].bot is None
