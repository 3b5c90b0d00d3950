"""What a table is at the server: its set-up (:class:`~racko.web.table.setup.Setup`), the play session replayed from
its journal, its seats' lives (:class:`~racko.web.table.seats.Seats`), its clock, the connections watching it, and
the store that appends its actions.  Functions of a set-up that any process can answer from the store (which seat a
link opens, which moves a computer player made for a person) live here too."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from racko.bots import Bot
from racko.errors import RackoError
from racko.families import family_of
from racko.match import Match
from racko.play.session import PlaySession
from racko.record import GameRecord
from racko.web.clock import ALL_PRESETS, ROUND_PAUSE, Back, ClockState, Played, clock_state, resumed
from racko.web.core import Refusal
from racko.web.store import DamagedTableError, TableStore
from racko.web.table.seats import CLOCKED, Seats, SeatState
from racko.web.table.setup import Setup

TOKEN_BYTES = 24
"""A seat token is 192 random bits: nobody can guess one, and one table's token is worthless at another (it is
checked against that table's seats only)."""
MOVED = 4012
"""The close code that tells a page to reconnect at once: the table is played by another process now."""
REPLACED = 4409
"""The close code of a connection whose seat was opened on another connection since."""
CLOCK, GONE = "clock", "gone"
"""How the journal marks an action the seat's person did not choose: played because the turn ran out, or because
the seat is gone (the record, the replay and the review can say so)."""


class Elsewhere(Refusal):
    """The table is played by another server process, alive and renewing its lease: the connection is told which."""

    def __init__(self, node: str) -> None:
        super().__init__("elsewhere", f"This table is played by the server {node}: reconnecting there.", node=node)
        self.node = node


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Watcher:
    """One open connection: who it sees the table as, and the version it was last brought to."""

    viewer: int | None
    send: Callable[[dict[str, Any]], Awaitable[None]]
    version: int = 0
    close: Callable[[int], Awaitable[None]] | None = None
    """Closes the connection with a code (the page reconnects after :data:`MOVED`)."""
    replaced: bool = False
    """The same seat was opened on another connection since: this one is told so and closed."""
    network: str | None = None
    """The mark of the network the connection comes from (racko.web.players.addresses), for a rated table's seats."""
    former: int | None = None
    """The seat this connection's person held before a computer player took it (they watch now)."""


@dataclass
class Table:
    """One table this process plays: what each part keeps of it is here, and only that part changes it."""

    table_id: str
    setup: Setup
    session: PlaySession
    seats: Seats
    watchers: list[Watcher] = field(default_factory=list)
    lost: str | None = None
    """Why this table's last move was not committed (a failed group commit): it is reloaded from the store."""
    quiet_since: float | None = None
    """Since when nobody has watched the table (monotonic seconds); ``None`` while somebody does."""
    turn: tuple[int | None, int] | None = None
    turn_since: float = 0.0
    """Whose turn it is (seat, round) and since when: every page shows how long the seat to act has had."""
    reacted: dict[int, float] = field(default_factory=dict)
    """Per seat, when it last sent a reaction."""
    reported: bool = False
    """Whether this game's end was passed on (ratings, histories)."""
    played: list[Played] = field(default_factory=list)
    """The journal as the clock sees it (each action's time, seat, round, and whether its person chose it)."""
    made_by: list[str | None] = field(default_factory=list)
    """Per action of the journal, who played it for the seat (the clock, a gone seat; ``None``: its own player)."""
    clock: ClockState | None = None
    """The clocks derived from :attr:`played` and the set-up (:meth:`refresh_clock`); ``None`` without a clock."""
    opened_at: float = 0.0
    """When this process opened the table (the server's time): a turn whose start the journal does not say (rows
    older than clocks) starts then."""
    driver: asyncio.Task[None] | None = None
    """The table's one task for what nobody's move starts: a computer player's move, a deadline, the pause's end."""
    nudge: asyncio.Event = field(default_factory=asyncio.Event)
    """Set after every change: the driver looks again."""
    stand_ins: dict[int, Bot] = field(default_factory=dict)
    """Per person seat, the computer player that plays its turns when its time runs out or it is gone."""
    warned: tuple[int, float] | None = None
    """The turn (seat, since) whose warning was sent: once per turn."""
    announced: tuple[int, float] | None = None
    """The turn (seat, since) whose start the listeners were told of: once per turn."""
    listed: tuple[int | None, float | None] | None = None
    """The seat to act and its deadline as last written to its players' lists of tables (``None``: not yet)."""

    @property
    def version(self) -> int:
        return self.session.version

    @property
    def over(self) -> bool:
        """Whether the game is over: played to its end, or ended early (the set-up's ``ended``)."""
        return self.session.match.over or self.setup.ended is not None

    @property
    def aborted(self) -> bool:
        """Whether the game was aborted (over, with no rating and no history)."""
        return self.setup.aborted

    @property
    def clocked(self) -> bool:
        return self.setup.clock is not None

    def seat_of_player(self, player_id: str) -> int | None:
        """The seat a person plays bound to this player, if any."""
        return self.setup.seat_of_player(player_id)

    def open_seat(self) -> int | None:
        """A person's seat nobody has taken yet, or None."""
        return next((seat for seat, spec in enumerate(self.setup.seats) if spec.free), None)

    def seat_of(self, token: str | None) -> int | None:
        return seat_of_token(self.setup, token)

    def connected(self, seat: int) -> bool:
        return self.seats.connected(seat)

    def note_turn(self) -> float:
        """How long the seat to act has had, in seconds: its clock starts when the turn passes or a round begins."""
        now = time.monotonic()
        turn = (self.session.to_act, len(self.session.match.results))
        if turn != self.turn:
            self.turn, self.turn_since = turn, now
        return now - self.turn_since

    def turns_played(self) -> list[int]:
        """Per seat, how many turns it has had in this game (a turn: a seat's actions in a row, within a round)."""
        turns = [0] * len(self.session.seats)
        last: tuple[int, int] | None = None
        for played in self.played:
            if (played.seat, played.round) != last:
                turns[played.seat] += 1
                last = (played.seat, played.round)
        return turns

    def journal(self) -> list[tuple[int, int, str | None, float | None]]:
        """Per action of the journal: its seat, its round, who played it for the seat, when."""
        return [
            (played.seat, played.round, self.made_by[index] if index < len(self.made_by) else None, played.at)
            for index, played in enumerate(self.played)
        ]

    # --- the table's clock: the journal's times turned into the clock room's steps (racko.web.clock's rules); only a
    # seat its person plays has a clock that runs out, never in the round report's pause; whether a seat is gone,
    # timed out or back is its seat's state (.seats)

    def refresh_clock(self) -> None:
        """Derive the table's clock again from its journal and set-up (after every action and set-up change)."""
        name = self.setup.clock
        preset = ALL_PRESETS.get(name) if name is not None else None
        if preset is None:
            self.clock = None
            return
        session = self.session
        start = self.setup.clock_from
        backs = [Back(seat, spec.back.count, spec.back.at) for seat, spec in enumerate(self.setup.seats) if spec.back]
        state = clock_state(
            preset,
            len(session.seats),
            self.played,
            session.to_act if not self.over else None,
            len(session.match.results),
            start,
            backs,
        )
        self.clock = resumed(state, self.opened_at, started=start is not None)

    def pause_until(self) -> float | None:
        """Until when the round's report pauses the table: :data:`ROUND_PAUSE` after the action that ended the last
        round (``None``: no round ended yet, the game is over, or the journal has no time for it)."""
        results = len(self.session.match.results)
        if not results or self.over:
            return None
        ends = [played for played in self.played if played.round == results - 1]
        if not ends or ends[-1].at is None:
            return None
        return ends[-1].at + ROUND_PAUSE

    def clock_runs_for(self, seat: int) -> bool:
        """Whether a clock can run for ``seat`` now: its person plays it (not a computer, not a gone seat)."""
        return self.seats.state(seat) in CLOCKED

    def due(self) -> float | None:
        """When the running turn runs out: a seat its person plays (its state says), once the clock has started."""
        clock = self.clock
        seat = self.session.to_act
        if clock is None or seat is None or self.over or not self.clock_runs_for(seat):
            return None
        return clock.deadline()

    @property
    def turn_based(self) -> bool:
        return self.clock is not None and self.clock.preset.turn_based

    def turn_key(self) -> tuple[int, float] | None:
        """The running turn (its seat and when it began, as kept in the set-up's ``reminded``), if a clock runs."""
        clock = self.clock
        if self.due() is None or clock is None or clock.to_act is None or clock.since is None:
            return None
        return (clock.to_act, clock.since)

    def remind_at(self) -> float | None:
        """When the running turn-based turn's seat is to be reminded, unless it was (``reminded`` in the set-up:
        every process agrees, and a table opened again does not remind twice)."""
        if not self.turn_based or self.clock is None:
            return None
        key = self.turn_key()
        if key is None or self.setup.reminded == key:
            return None
        return self.clock.remind_at()

    def wake_at(self) -> float | None:
        """When something is next due at the table (kept in the store as its ``due``, which the keep loop's
        ``overdue`` looks for): a turn-based turn's reminder, else the running turn's deadline."""
        remind = self.remind_at()
        return remind if remind is not None else self.due()

    def clock_json(self, now: float) -> dict[str, Any] | None:
        """What every frame says of the clock (the same for every viewer: nothing in it is hidden), or ``None`` for a
        table without one or whose game is over (a finished table shows no clock)."""
        if self.clock is None or self.over:
            return None
        seats = range(len(self.session.seats))
        frame = self.clock.json(
            now,
            [self.clock_runs_for(seat) for seat in seats],
            [self.seats.state(seat) is SeatState.GONE for seat in seats],
        )
        frame["started"] = self.setup.clock_from is not None
        return frame


class JournalStore:
    """The play session's store at a server table: appends the actions not yet in the journal, each with the
    server's time and who played it (``by``: set while the clock plays for a seat), and the table's deadline after
    them (``noted``: the table's clock takes the new actions and answers it)."""

    def __init__(
        self,
        store: TableStore,
        table_id: str,
        stored: int,
        now: Callable[[], float] = time.time,
        made_by: Sequence[str | None] = (),
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.stored = stored
        self.now = now
        self.by: str | None = None
        self.made_by: list[str | None] = [*made_by[:stored], *[None] * (stored - len(made_by))]
        """Per action of the journal, who played it for the seat (``by`` when it was appended)."""
        self.noted: Callable[[list[Played]], float | None] | None = None
        self.notes: Callable[[GameRecord], GameRecord] | None = None
        """Adds the table's notes to a finished game's record (the seats that left, :func:`noted_record`)."""

    def save(self, record: GameRecord) -> None:
        family = family_of(record.rules)
        rounds = [index for index, round_ in enumerate(record.rounds) for _ in round_.actions]
        actions = [action for round_ in record.rounds for action in round_.actions]
        new = [family.action_to_json(action) for action in actions[self.stored :]]
        if not new:
            return
        at = self.now()
        played = [
            Played(at, action.seat, rounds[self.stored + index]) for index, action in enumerate(actions[self.stored :])
        ]
        self.made_by.extend([self.by] * len(new))
        due = self.noted(played) if self.noted is not None else None
        try:
            self.store.append(self.table_id, self.stored, new, at=at, by=self.by, due=due)
        except Exception as error:  # a database error must reach the players as a failed save, like a full disk
            del self.made_by[-len(new) :]
            raise OSError(f"the table's database refused the move ({error})") from None
        self.stored = len(actions)

    def finish(self, record: GameRecord) -> str:
        self.save(record)
        if self.notes is not None:
            record = self.notes(record)
        try:
            self.store.finish(self.table_id, record.dumps())
        except Exception as error:
            raise OSError(f"the table's database refused the finished game ({error})") from None
        return f"/api/tables/{self.table_id}/record"


def played_of(record: GameRecord, times: Sequence[float | None]) -> list[Played]:
    """The journal as the clock sees it: each action's time, seat and round."""
    played: list[Played] = []
    for round_index, round_ in enumerate(record.rounds):
        for action in round_.actions:
            index = len(played)
            played.append(Played(times[index] if index < len(times) else None, action.seat, round_index))
    return played


def noted_record(setup: Setup, record: GameRecord, journal: Sequence[str | None] = ()) -> GameRecord:
    """A game's record with what the set-up says of its end: per seat how its person left it (``left``: resigned or
    left, after how many actions, when), how the game ended early (``ended``), and which actions a computer player
    made for a person (``made_by``: the journal's marks, and the seats that left); docs/record.schema.json."""
    extra: dict[str, Any] = {}
    left = [spec.left.json() if spec.left is not None else None for spec in setup.seats]
    if any(left):
        extra["left"] = left
    if setup.ended is not None:
        extra["ended"] = setup.ended.json()
    made_by = {**record.made_by, **made_by_of(setup, record, journal)}
    if not extra and made_by == record.made_by:
        return record
    return replace(record, extra={**record.extra, **extra}, made_by=made_by)


def made_by_of(setup: Setup, record: GameRecord, journal: Sequence[str | None]) -> dict[int, str]:
    """The actions of the game a computer player made for a person's seat, by number from 1 (the record's
    ``made_by``): those the journal marks (``journal``: per action, who played it for the seat: the clock, or the
    seat being gone), and every action of a seat after its person left it (its ``left.after``)."""
    after = {seat: spec.left.after for seat, spec in enumerate(setup.seats) if spec.left is not None}
    marks: dict[int, str] = {}
    index = 0
    for round_ in record.rounds:
        for action in round_.actions:
            by = journal[index] if index < len(journal) else None
            if by in (CLOCK, GONE):
                marks[index + 1] = str(by)
            elif action.seat in after and index >= after[action.seat]:
                marks[index + 1] = "left"
            index += 1
    return marks


def said(error: BaseException) -> str:
    """An error in one short line, for a log line or a message (never a traceback)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:200]


@contextlib.contextmanager
def not_saved_if_refused() -> Iterator[None]:
    """A change the database refuses (a full disk, a lock held too long) is a not-saved refusal for the player, as a
    refused move is, instead of an exception that closes the connection."""
    try:
        yield
    except Exception as error:
        raise Refusal(
            "not-saved", f"The table's database refused the change ({error}). Nothing was changed; try again."
        ) from None


def replay_stored(table_id: str, setup: Setup, actions: list[dict[str, Any]]) -> Match:
    """A stored table's game replayed from its set-up and journal; :class:`DamagedTableError` with the reason if they
    are not a game."""
    try:
        match = Match(setup.rules, seed=setup.seed)
    except (RackoError, KeyError, TypeError, ValueError) as error:
        raise DamagedTableError(table_id, f"its set-up is not a game ({said(error)})") from None
    family = family_of(setup.rules)
    for number, raw in enumerate(actions, start=1):
        try:
            match.apply(family.action_from_json(raw))
        except (RackoError, KeyError, TypeError, ValueError) as error:
            reason = f"action {number} of its journal is refused: {said(error)}"
            raise DamagedTableError(table_id, reason) from None
    return match


def seat_of_token(setup: Setup, token: Any) -> int | None:
    """The seat of a table's set-up whose link holds this token, if any (any process can tell, from the store)."""
    if not token or not isinstance(token, str) or len(token) > 100:
        return None
    digest = token_hash(token)
    for seat, spec in enumerate(setup.seats):
        if spec.token and hmac.compare_digest(spec.token, digest):
            return seat
    return None


def seat_line(setup: Setup) -> tuple[str, list[str]]:
    """What a player's lobby says of a table they sit at: its variant and who sits there."""
    return setup.variant, setup.names
