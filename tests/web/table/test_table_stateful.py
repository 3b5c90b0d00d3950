"""The meetings of a seat's life, driven at random (issue 47): a Hypothesis state machine plays sequences of events
from every seat, the clock and the network at one table of the table room (rated or casual, real time, turn-based or
no clock, 2 to 4 seats, a computer level or a bot account among them), and checks after every step:

- one state per seat, and the set-up, the session and the seat's state say the same of who plays it;
- the clock runs only for the seat to act, only for a seat its person plays, and never in the round report's pause;
- a seat is handed over only at a table without a clock, after its person was away ``away_seconds``;
- nothing acts for a person who is back (no clock's or stand-in's move for their seat until its state changes);
- a table opened again (a restart) has the same seats' states as before, but for who is connected;
- every frame a connection gets is what its viewer may know;
- once the game is over: the result line's winners are the places' (the best placed of those who did not leave), and
  the histories, the ratings' places and every player's statistics say the same;
- every game ends: at the end the people's clocks run out (or, without a clock, they leave), and the game is over.

The table is driven in the test's own event loop with the server's clock moved by hand; what the table's driver would
do in its task is done by :meth:`Turns.step` when the test lets time pass, so that a run is the same every time."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from racko.families import family_of
from racko.rules import variant
from racko.web.app import people, schema_parts
from racko.web.clock import ALL_PRESETS, ROUND_PAUSE
from racko.web.core import Refusal
from racko.web.players import Player
from racko.web.store import SqliteTables
from racko.web.table import (
    Asker,
    BotAccountSeat,
    Consent,
    LevelSeat,
    PersonSeat,
    SeatState,
    TableRequest,
    TableRoom,
    Watcher,
    seating,
)
from racko.web.table import turns as turns_module
from racko.web.table.results import places_of
from racko.web.table.seats import CLOCKED, COMPUTER_PLAYS, LEFT_THE_GAME
from racko.web.table.watching import seat_view
from tables import HandClock, check_frame

AWAY_SECONDS = 30.0
S = SeatState


class SeatLife(RuleBasedStateMachine):
    """One table, its people, the clock and the network."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.clock = HandClock()
        self.store = SqliteTables(":memory:")
        self.store.prepare(schema_parts())
        self.players, self.ratings = people(self.store)
        self.room = TableRoom(self.store, self.players, pace=0.0, away_seconds=AWAY_SECONDS, now=self.clock)
        # No task of the table's own: the test lets time pass itself, doing what the driver would (Turns.step).
        self.room.turns.wake = self.room.turns._note_turn  # type: ignore[method-assign]
        self.room.changes.wake = self.room.turns.wake
        self.room.registry.opened = lambda table: None
        # Whose move it is, written to the players' lists at once rather than a moment later in a task of its own.
        self.room.turns.list_turn = self._list_turn_now
        self.finished: list[Any] = []
        self.room.games_over.subscribe(self._finished)
        self.table_id = ""
        self.connections: dict[int, Watcher] = {}
        self.frames: list[tuple[int | None, dict[str, Any]]] = []
        self.disconnected_at: dict[int, float] = {}
        self.people: list[Player | None] = []

    async def _list_turn_now(self, table_id: str, seat: int | None, due: float | None) -> None:
        await asyncio.to_thread(self.players.turn_at, table_id, seat, due)

    async def _finished(self, game: Any) -> None:
        self.finished.append(game)
        await asyncio.to_thread(self.ratings.game_over, game)

    def run(self, work: Any) -> Any:
        return self.loop.run_until_complete(work)

    def background_done(self) -> None:
        """What a game's end set going (its news to the listeners) is done."""

        async def done() -> None:
            await asyncio.gather(*self.room.registry.background, return_exceptions=True)

        self.run(done())

    @property
    def table(self) -> Any:
        return self.room.tables[self.table_id]

    def teardown(self) -> None:
        try:
            if self.table_id:
                self.every_game_ends()
                self.the_result_line_the_histories_the_ratings_and_the_statistics_agree()
        finally:
            self.background_done()
            self.tasks_done()
            self.loop.close()
            self.store.close()

    def tasks_done(self) -> None:
        """Every task still pending in the test's loop (the players' lists of whose move it is are written a moment
        after a change: racko.web.players.Players.list_turn) runs to its end, so that none is destroyed pending."""

        async def rest() -> None:
            while pending := [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]:
                await asyncio.gather(*pending, return_exceptions=True)

        self.run(rest())

    # --- the table ------------------------------------------------------------------------------------

    @initialize(
        players=st.integers(2, 4),
        clock=st.sampled_from([None, "fast", "days-1"]),
        rated=st.booleans(),
        other=st.sampled_from(["person", "level", "bot-account"]),
        seed=st.integers(0, 2**32 - 1),
    )
    def make_table(self, players: int, clock: str | None, rated: bool, other: str, seed: int) -> None:
        rated = rated and clock is not None  # a rated table has a clock
        seats: list[Any] = []
        for seat in range(players):
            if seat == players - 1 and other == "level":
                seats.append(LevelSeat("easy"))
                self.people.append(None)
            elif seat == players - 1 and other == "bot-account":
                account, _ = self.players.add_bot(f"Robo{seat}")
                seats.append(BotAccountSeat(account, Consent.LADDER))
                self.people.append(account)
            else:
                player, _ = self.players.create(f"P{seat}")
                seats.append(PersonSeat(player=player))
                self.people.append(player)
        options = {"target": 25} | ({"two_player_rule": False} if players == 2 else {})
        request = TableRequest(
            variant("classic").rules(players, **options), tuple(seats), Asker.of_room("test"), rated=rated, clock=clock
        )
        with mock.patch.object(seating.secrets, "randbits", return_value=seed):  # the deal: Hypothesis's, replayable
            self.table_id = self.run(self.room.create(request))["table"]
        self.disconnected_at = {seat: self.clock.at for seat, player in enumerate(self.people) if player is not None}

    # --- the network ----------------------------------------------------------------------------------

    @rule(seat=st.integers(0, 3))
    def connect(self, seat: int) -> None:
        if seat >= len(self.people) or seat in self.connections or self.people[seat] is None:
            return

        async def send(frame: dict[str, Any], seat: int = seat) -> None:
            self.frames.append((self.connections[seat].viewer if seat in self.connections else None, frame))

        watcher = Watcher(seat, send)
        self.connections[seat] = watcher
        self.run(self.room.join(self.table, watcher, 0))
        self.disconnected_at.pop(seat, None)

    @rule(seat=st.integers(0, 3))
    def disconnect(self, seat: int) -> None:
        watcher = self.connections.pop(seat, None)
        if watcher is None:
            return
        self.run(self.room.leave(self.table, watcher))
        self.disconnected_at[seat] = self.clock.at

    @rule()
    def restart(self) -> None:
        """The process stops and another opens the table from the store: the same seats' states (nobody is
        connected to the new one until they come again)."""
        before = list(self.table.seats.states)
        for watcher in list(self.connections.values()):
            self.run(self.room.leave(self.table, watcher))
        self.connections.clear()
        self.run(self.room.registry.saved(self.table))
        del self.room.registry.tables[self.table_id]
        table = self.room.registry.table(self.table_id)
        assert table is not None
        after = table.seats.states
        for seat, (old, new) in enumerate(zip(before, after, strict=True)):
            expected = S.AWAY if old is S.PRESENT else old
            assert new is expected, (seat, old, new, self.table.setup.seats[seat])
        for seat in range(len(self.people)):
            self.disconnected_at.setdefault(seat, self.clock.at)

    # --- the people -----------------------------------------------------------------------------------

    @rule(data=st.data(), actions=st.integers(1, 8))
    def moves(self, data: st.DataObject, actions: int) -> None:
        """The people to act play a few legal actions of their own (whoever is to act, in turn)."""
        for _ in range(actions):
            table = self.table
            seat = table.session.to_act
            if seat is None or table.over or table.seats.state(seat) not in CLOCKED:
                return
            legal = table.session.observation(seat).legal_actions()
            raw = family_of(table.session.rules).action_to_json(data.draw(st.sampled_from(legal)))
            raw.pop("seat", None)
            try:
                self.run(self.room.act(table, seat, table.version, raw))
            except Refusal as refusal:
                assert refusal.code == "out-of-time", refusal  # its clock ran out at this very moment
                return

    @rule(data=st.data())
    def comes_back(self, data: st.DataObject) -> None:
        """A gone seat's person says "I'm back" (if a seat is gone)."""
        gone = [seat for seat, state in enumerate(self.table.seats.states) if state is S.GONE]
        if gone and not self.table.over:
            self.run(self.room.way(self.table, data.draw(st.sampled_from(gone)), "back"))
            event("a seat back")

    @rule(data=st.data())
    def hands_over_an_away_seat(self, data: st.DataObject) -> None:
        """A person who has the table open hands over a seat away long enough (if there is one)."""
        table = self.table
        here = [seat for seat in self.connections if table.seats.state(seat) in CLOCKED]
        away = [
            seat
            for seat in range(len(self.people))
            if table.seats.hand_over_in(seat, self.clock.at, False, AWAY_SECONDS) == 0 and seat not in here
        ]
        if here and away and not table.over:
            self.hand_over(data.draw(st.sampled_from(here)), data.draw(st.sampled_from(away)))

    @rule(seat=st.integers(0, 3), way=st.sampled_from(["resign", "leave", "abort", "offer-end", "accept-end",
                                                        "decline-end", "back"]))  # fmt: skip
    def way_out(self, seat: int, way: str) -> None:
        if seat >= len(self.people):
            return
        with contextlib.suppress(Refusal):  # refused with a reason: nothing changed (the invariants hold either way)
            self.run(self.room.way(self.table, seat, way))

    @rule(seat=st.integers(0, 3), other=st.integers(0, 3))
    def hand_over(self, seat: int, other: int) -> None:
        if seat not in self.connections or other >= len(self.people) or seat == other:
            return  # a page's frame: its person has the table open
        table = self.table
        was = table.seats.state(other)
        try:
            self.run(self.room.hand_over(table, seat, other, "easy"))
        except Refusal:
            return
        # Handed over: only at a table without a clock, its person away (or not come) long enough.
        assert not table.clocked, "a seat was handed over at a table with a clock"
        assert was in (S.AWAY, S.INVITED)
        away_since = self.disconnected_at.get(other)
        assert away_since is not None and self.clock.at - away_since >= AWAY_SECONDS - 1e-6
        assert table.seats.state(other) is S.HANDED_OVER
        event("a seat handed over")

    # --- the clock ------------------------------------------------------------------------------------

    @rule(seconds=st.sampled_from([1.0, ROUND_PAUSE, AWAY_SECONDS, 80.0, 6 * 3600.0, 20 * 3600.0]))
    def time_passes(self, seconds: float) -> None:
        self.clock.at += seconds
        self.settle()

    @rule()
    def deadline_passes(self) -> None:
        """The running turn's deadline comes (a turn-based one's reminder first)."""
        table = self.table
        due = table.wake_at()
        if due is not None and not table.over:
            self.clock.at = max(self.clock.at, due)
            self.settle()

    def settle(self, steps: int = 200) -> None:
        """What the table's driver does now: every move due at the server's time (computer players, stand-ins,
        deadlines), until it would wait."""
        for _ in range(steps):
            table = self.table
            backs = {seat: len(table.played) for seat in range(len(self.people)) if table.seats.state(seat) is S.BACK}
            deadline = table.due()  # a back person's turn is theirs until it runs out anew
            wait = self.run(self.room.turns.step(table))
            for state in set(table.seats.states) & {S.TIMED_OUT, S.GONE, S.BACK}:
                event(f"a seat {state.value}")
            for seat, count in backs.items():  # nothing acted for a person who was back
                made = [(p.seat, by) for p, by in zip(table.played[count:], table.made_by[count:], strict=False)]
                for acted, by in made:
                    if acted == seat and by is not None:
                        assert by == "clock" and deadline is not None and self.clock.at >= deadline, (seat, made)
            if wait is None or wait > 0:
                return

    # --- the invariants -------------------------------------------------------------------------------

    @invariant()
    def one_state_per_seat_and_every_part_agrees(self) -> None:
        if not self.table_id:
            return
        table = self.table
        assert len(table.seats.states) == len(table.setup.seats)
        for seat, state in enumerate(table.seats.states):
            spec = table.setup.seats[seat]
            assert isinstance(state, SeatState)
            computer = table.session.seats[seat].bot is not None
            if state in COMPUTER_PLAYS:
                assert computer and spec.bot is not None, (seat, state)
            elif state not in (S.ABORTED, S.FINISHED):
                assert not computer and spec.bot is None, (seat, state)
            if state in (S.RESIGNED, S.LEFT, S.HANDED_OVER):
                assert spec.left is not None

    @invariant()
    def the_clock_runs_only_for_the_seat_to_act_and_never_in_the_pause(self) -> None:
        if not self.table_id:
            return
        table = self.table
        frame = table.clock_json(self.clock.at)
        if frame is None:
            return
        running = frame["running"]
        if running is not None:
            assert running == table.session.to_act and table.seats.state(running) in CLOCKED
            assert not table.seats.paused(self.clock.at)

    @invariant()
    def every_frame_says_only_what_its_viewer_may_know(self) -> None:
        if not self.table_id:
            return
        for viewer, frame in self.frames:
            check_frame(self.table, viewer, frame)
        self.frames.clear()

    @invariant()
    def the_result_line_the_histories_the_ratings_and_the_statistics_agree(self) -> None:
        if not self.table_id or not self.table.over:
            return
        table = self.table
        standing = places_of(table)
        view = seat_view(table, None)
        aborted = table.setup.ended is not None and table.setup.ended.how == "aborted"
        if not aborted:
            assert view["winner_seats"] == list(standing.winners)
            for seat in standing.winners:
                assert not table.seats.left_the_game(seat)  # the leaver is never the winner
        self.background_done()
        if aborted or not self.finished:
            return
        (game,) = self.finished
        assert game.standing == standing
        for seat, player in enumerate(self.people):
            if player is None or table.setup.seats[seat].bot_account:
                continue
            mine = self.ratings.of_player(player.id)
            if not mine["games"]:
                continue  # forgotten, or a game that keeps no history
            places = {line["seat"]: line["place"] for line in mine["games"][0]["seats"]}
            assert [places[s] for s in range(len(self.people))] == list(standing.places)
            assert mine["stats"]["total"]["won"] == (1 if seat in standing.winners else 0), (seat, standing)
            finishing = self.players.finishing(player.id)
            if table.setup.counts:
                assert finishing.left == (1 if table.seats.state(seat) in LEFT_THE_GAME else 0)

    def plays_on(self) -> None:
        """The seat to act plays its first legal action (its person's; the computers' as the driver would)."""
        table = self.table
        seat = table.session.to_act
        if seat is not None and table.seats.state(seat) in CLOCKED:
            raw = family_of(table.session.rules).action_to_json(table.session.observation(seat).legal_actions()[0])
            raw.pop("seat", None)
            self.run(self.room.act(table, seat, table.version, raw))
        self.clock.at += ROUND_PAUSE
        self.settle()

    def every_game_ends(self) -> None:
        """Nobody moves any more: the clock plays for everyone (or, without a clock, the people leave), and the game
        ends within a bounded number of steps."""
        for seat in list(self.connections):
            self.disconnect(seat)
        table = self.table
        if not table.clocked and any(spec.bot_account for spec in table.setup.seats):
            for _ in range(2000):  # a bot account's table without a clock: the turn limit ends it
                if self.table.over:
                    break
                self.plays_on()
        elif not table.clocked:
            for seat in range(len(self.people)):
                with contextlib.suppress(Refusal):
                    self.run(self.room.way(self.table, seat, "leave"))
        for _ in range(400):
            if self.table.over:
                break
            preset = ALL_PRESETS.get(self.table.setup.clock or "")
            self.clock.at += (preset.longest_turn if preset else 1.0) + ROUND_PAUSE
            self.settle()
        assert self.table.over, "the game never ended"
        ended = self.table.setup.ended
        event(f"ended: {ended.how if ended is not None else 'played to its end'}")
        event(f"seats at the end: {sorted({state.value for state in self.table.seats.states})}")


SeatLife.TestCase.settings = settings(
    max_examples=int(os.environ.get("RACKO_STATEFUL_EXAMPLES", "60")),
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.fixture(autouse=True)
def short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table with a bot account and no clock ends at its limit of turns: a short one here, so that it is reached."""
    monkeypatch.setattr(turns_module, "TURN_LIMIT", 12)


TestSeatLife = SeatLife.TestCase
