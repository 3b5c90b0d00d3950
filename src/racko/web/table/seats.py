"""A seat's life, in one place: the states a seat is in and the events that move it between them, as one table
(:data:`TRANSITIONS`), and :class:`Seats`, a table's seats as that table makes them.  Nothing else decides what a seat
is: the clock, hand-over, computer players, results and ratings, the finishing record, the pages' texts and menus,
push, the lobby's lists and the Bot API read a seat's state from here.  docs/PLAYING.md shows the table (tested
against it: tests/web/table/test_table_seats.py).

A seat's state is kept nowhere else: a table opened again (a restart, another process) replays what its journal and
set-up say happened (:meth:`Seats.replayed`: each person's own moves, each turn the clock played, each "I'm back",
resignation and hand-over, the game's end) through the same table.  Only who has a connection open is not kept: a
table opened again finds its people away until they connect."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from racko.web.core import Refusal
from racko.web.table.setup import AWAY, LEFT, RESIGNED, Setup


class SeatState(enum.Enum):
    """What a seat is now."""

    INVITED = "invited"
    """A person's seat nobody has taken yet (its link not opened and named, no player bound)."""
    PRESENT = "present"
    """Its person plays, and has the table open."""
    AWAY = "away"
    """Its person plays, and has no connection open (a closed tab, a lost network; a bot with no game stream)."""
    TIMED_OUT = "timed-out"
    """The clock played its last turn for it (its person did not move in time); once more and it is gone."""
    GONE = "gone"
    """The clock played two turns in a row for it: a computer player plays its turns at once, until its person says
    they are back.  A seat gone when the game ends left the game."""
    BACK = "back"
    """Its person said they are back after it was gone: the turn under way starts again for them."""
    RESIGNED = "resigned"
    """Its person gave up the game: a computer player plays on for the others."""
    LEFT = "left"
    """Its person left the table: a computer player plays on for the others."""
    HANDED_OVER = "handed-over"
    """The others handed it to a computer player while its person was away (a table without a clock only)."""
    COMPUTER = "computer"
    """One of racko's computer players sits there from the start."""
    ABORTED = "aborted"
    """The game was aborted before it really began: no rating, no history."""
    FINISHED = "finished"
    """The game is over and this seat finished it."""


class SeatEvent(enum.Enum):
    """What happens to a seat."""

    SIT = "sit"
    """Its person takes it (names themselves at its link, or takes it in the lobby)."""
    CONNECT = "connect"
    """Its person's first connection opens (a page, a bot's game stream)."""
    DISCONNECT = "disconnect"
    """Its person's last connection closes."""
    MOVE = "move"
    """Its person plays an action of their own."""
    DEADLINE = "deadline"
    """Its turn ran out: the clock played it."""
    HAND_OVER = "hand-over"
    """The others hand it to a computer player."""
    RESIGN = "resign"
    LEAVE = "leave"
    ABORT = "abort"
    OFFER = "offer"
    """Its person offers to end the game (or withdraws the offer)."""
    ANSWER = "answer"
    """Its person accepts or declines an offer to end."""
    BACK = "back"
    """Its person says "I'm back"."""
    REPORT_PAUSE = "report-pause"
    """A round ended: its report is read on nobody's time (no clock runs, no computer moves) for the pause."""
    GAME_END = "game-end"
    """The game is over (played to its end, or ended by agreement, by nobody left, or at its limit)."""


S, E = SeatState, SeatEvent
_IN_PLAY = (S.PRESENT, S.AWAY, S.TIMED_OUT, S.GONE, S.BACK)
"""The states of a seat its person still holds in this game."""
_STAYS = (E.CONNECT, E.DISCONNECT, E.OFFER, E.ANSWER, E.REPORT_PAUSE)
"""Events that change nothing of a seat in play but are its person's to make (an offer, an answer) or happen to it."""


def _row(state: SeatState, **moves: SeatState) -> dict[tuple[SeatState, SeatEvent], SeatState]:
    return {(state, SeatEvent[name.upper()]): target for name, target in moves.items()}


TRANSITIONS: Mapping[tuple[SeatState, SeatEvent], SeatState] = {
    **_row(S.INVITED, sit=S.PRESENT, connect=S.INVITED, disconnect=S.INVITED, hand_over=S.HANDED_OVER,
           report_pause=S.INVITED, abort=S.ABORTED, game_end=S.FINISHED),
    **_row(S.PRESENT, connect=S.PRESENT, disconnect=S.AWAY, move=S.PRESENT, deadline=S.TIMED_OUT, resign=S.RESIGNED,
           leave=S.LEFT, offer=S.PRESENT, answer=S.PRESENT, report_pause=S.PRESENT, abort=S.ABORTED,
           game_end=S.FINISHED),
    **_row(S.AWAY, connect=S.PRESENT, disconnect=S.AWAY, move=S.AWAY, deadline=S.TIMED_OUT, hand_over=S.HANDED_OVER,
           resign=S.RESIGNED, leave=S.LEFT, offer=S.AWAY, answer=S.AWAY, report_pause=S.AWAY, abort=S.ABORTED,
           game_end=S.FINISHED),
    **_row(S.TIMED_OUT, connect=S.TIMED_OUT, disconnect=S.TIMED_OUT, move=S.PRESENT, deadline=S.GONE,
           resign=S.RESIGNED, leave=S.LEFT, offer=S.TIMED_OUT, answer=S.TIMED_OUT, report_pause=S.TIMED_OUT,
           abort=S.ABORTED, game_end=S.FINISHED),
    **_row(S.GONE, connect=S.GONE, disconnect=S.GONE, back=S.BACK, resign=S.RESIGNED, leave=S.LEFT, offer=S.GONE,
           answer=S.GONE, report_pause=S.GONE, abort=S.ABORTED, game_end=S.GONE),
    **_row(S.BACK, connect=S.BACK, disconnect=S.BACK, move=S.PRESENT, deadline=S.TIMED_OUT, resign=S.RESIGNED,
           leave=S.LEFT, offer=S.BACK, answer=S.BACK, report_pause=S.BACK, abort=S.ABORTED, game_end=S.FINISHED),
    **_row(S.RESIGNED, report_pause=S.RESIGNED, abort=S.ABORTED, game_end=S.RESIGNED),
    **_row(S.LEFT, report_pause=S.LEFT, abort=S.ABORTED, game_end=S.LEFT),
    **_row(S.HANDED_OVER, report_pause=S.HANDED_OVER, abort=S.ABORTED, game_end=S.HANDED_OVER),
    **_row(S.COMPUTER, report_pause=S.COMPUTER, abort=S.ABORTED, game_end=S.FINISHED),
}  # fmt: skip
"""Every move of a seat's life: (state, event) → the state it is in after.  A pair that is not here is refused (the
reason: :data:`REFUSED`); :data:`ABORTED` and :data:`FINISHED` are final."""

LEFT_THE_GAME = frozenset({S.GONE, S.RESIGNED, S.LEFT, S.HANDED_OVER})
"""A seat in one of these when the game ends left it: placed last (docs/PLAYING.md), a game left in its player's
record of finishing, never credited with its computer player's play."""
COMPUTER_PLAYS = frozenset({S.RESIGNED, S.LEFT, S.HANDED_OVER, S.COMPUTER})
"""A computer player sits there: the seat's own, from now to the game's end."""
PERSON_PLAYS = frozenset({S.INVITED, S.PRESENT, S.AWAY, S.TIMED_OUT, S.BACK})
"""Its person plays its turns (a clock, where the table has one, runs for them)."""
CLOCKED = frozenset({S.PRESENT, S.AWAY, S.TIMED_OUT, S.BACK})
"""A clock can run for it (a person sat down, and plays)."""
HOLDS_THE_SEAT = frozenset(_IN_PLAY)
"""Its person holds the seat in the game (may resign, leave, offer to end, answer, abort)."""

REFUSED: Mapping[SeatState, tuple[str, str]] = {
    S.INVITED: ("name-first", "Choose your name first."),
    S.GONE: ("gone", "A computer player plays your seat since your time ran out twice: say you are back first."),
    S.RESIGNED: ("not-your-seat", "A computer player has taken over this seat."),
    S.LEFT: ("not-your-seat", "A computer player has taken over this seat."),
    S.HANDED_OVER: ("not-your-seat", "A computer player has taken over this seat."),
    S.COMPUTER: ("not-your-seat", "A computer player sits there."),
    S.ABORTED: ("over", "The game is over."),
    S.FINISHED: ("over", "The game is over."),
}
"""Why a seat in this state cannot do what it was refused (any other state: :data:`REFUSED_EVENT`)."""
REFUSED_EVENT: Mapping[SeatEvent, tuple[str, str]] = {
    E.BACK: ("not-gone", "Your seat is yours: play on."),
    E.HAND_OVER: ("not-away", "That player is at the table."),
    E.SIT: ("taken", "Somebody sits there already."),
}


def refusal(state: SeatState, event: SeatEvent) -> Refusal:
    """Why ``event`` cannot happen to a seat in ``state``."""
    code, message = REFUSED_EVENT.get(event) or REFUSED.get(state) or ("bad-frame", "That cannot be done now.")
    if event is E.BACK and state not in _IN_PLAY:
        code, message = REFUSED.get(state, (code, message))
    return Refusal(code, message)


def step(state: SeatState, event: SeatEvent) -> SeatState:
    """The state after ``event``; a :class:`Refusal` if the table has no such move."""
    target = TRANSITIONS.get((state, event))
    if target is None:
        raise refusal(state, event)
    return target


class Acting(enum.Enum):
    """Who plays the turn of the seat to act."""

    PERSON = "person"
    """Its person (the clock runs for them where the table has one)."""
    STAND_IN = "stand-in"
    """A computer player stands in for a gone seat's person, at once."""
    COMPUTER = "computer"
    """The seat's computer player (a level's seat, or one whose person left)."""
    NOBODY = "nobody"
    """The game is over."""


ACTING: Mapping[SeatState, Acting] = {
    **{state: Acting.PERSON for state in PERSON_PLAYS},
    S.GONE: Acting.STAND_IN,
    **{state: Acting.COMPUTER for state in COMPUTER_PLAYS},
    S.ABORTED: Acting.NOBODY,
    S.FINISHED: Acting.NOBODY,
}


@dataclass
class Seats:
    """The seats of one table now: one state each, which seats have a connection open, since when each person is
    away (the server's time), the turns the clock played for each since its person's last move, and until when the
    round's report pauses the table."""

    states: list[SeatState]
    connections: list[int] = field(default_factory=list)
    away_since: dict[int, float] = field(default_factory=dict)
    pause_until: float | None = None
    history: list[tuple[int, SeatEvent, SeatState]] = field(default_factory=list)
    """Each change (seat, event, the state it came to), for the tests' invariants; kept short."""

    def __post_init__(self) -> None:
        if not self.connections:
            self.connections = [0] * len(self.states)

    # --- the table's events -----------------------------------------------------------------------------

    def apply(self, seat: int, event: SeatEvent, at: float) -> SeatState:
        """``event`` happens to ``seat`` at ``at`` (the server's time): its new state; a :class:`Refusal` (nothing
        changes) if the table has no such move."""
        before = self.states[seat]
        after = step(before, event)
        self.states[seat] = after
        if after is S.AWAY and before is not S.AWAY:
            self.away_since[seat] = at
        elif after is S.AWAY and event is E.MOVE:
            self.away_since[seat] = at  # a move is a sign of life: its away time starts again (a bot with no stream)
        elif after is not S.AWAY and after is not S.INVITED:
            self.away_since.pop(seat, None)
        if len(self.history) < 10_000:
            self.history.append((seat, event, after))
        return after

    def move(self, seat: int, at: float) -> SeatState:
        """Its person played an action of their own: their seat is theirs again (a move after a timeout), away still
        if no connection of theirs is open (a bot moving without a game stream)."""
        state = self.apply(seat, E.MOVE, at)
        if state is S.PRESENT and not self.connected(seat):
            state = self.apply(seat, E.DISCONNECT, at)
        return state

    def connect(self, seat: int, at: float) -> bool:
        """A connection of ``seat`` opened; whether it is the seat's first (its person came)."""
        self.connections[seat] += 1
        if self.connections[seat] == 1:
            if self.states[seat] is S.INVITED:
                self.away_since.pop(seat, None)  # the link is open: not "has not come"
            self._maybe(seat, E.CONNECT, at)
            return True
        return False

    def disconnect(self, seat: int, at: float) -> bool:
        """A connection of ``seat`` closed; whether it was the seat's last (its person went away)."""
        self.connections[seat] = max(0, self.connections[seat] - 1)
        if self.connections[seat] == 0:
            if self.states[seat] is S.INVITED:
                self.away_since[seat] = at
            self._maybe(seat, E.DISCONNECT, at)
            return True
        return False

    def every(self, event: SeatEvent, at: float) -> None:
        """``event`` happens to every seat that has such a move (a pause, the game's end, an abort)."""
        for seat in range(len(self.states)):
            self._maybe(seat, event, at)

    def pause(self, until: float, at: float) -> None:
        """A round ended at ``at``: nobody acts and no clock runs until ``until``."""
        self.pause_until = until
        self.every(E.REPORT_PAUSE, at)

    def _maybe(self, seat: int, event: SeatEvent, at: float) -> None:
        if (self.states[seat], event) in TRANSITIONS:
            self.apply(seat, event, at)

    # --- what the others read -----------------------------------------------------------------------------

    def state(self, seat: int) -> SeatState:
        return self.states[seat]

    def connected(self, seat: int) -> bool:
        return self.connections[seat] > 0

    def acting(self, seat: int) -> Acting:
        return ACTING[self.states[seat]]

    def paused(self, now: float) -> bool:
        """Whether the round's report pauses the table now (nobody acts, no clock runs)."""
        return self.pause_until is not None and now < self.pause_until

    def left_the_game(self, seat: int) -> bool:
        return self.states[seat] in LEFT_THE_GAME

    def away_for(self, seat: int, now: float) -> float | None:
        """How long the seat's person has been away (``None``: here, or not a person's seat in play)."""
        since = self.away_since.get(seat)
        if since is None or self.states[seat] not in (S.AWAY, S.INVITED) or self.connected(seat):
            return None
        return max(0.0, now - since)

    def hand_over_in(self, seat: int, now: float, clocked: bool, away_seconds: float) -> float | None:
        """In how many seconds the others may hand the seat to a computer player (0: now); ``None``: never (a
        table with a clock, where only the clock takes a seat; a seat not away)."""
        away = self.away_for(seat, now)
        if clocked or away is None:
            return None
        return max(0.0, away_seconds - away)

    def may_hand_over(self, seat: int, now: float, clocked: bool, away_seconds: float) -> None:
        """A :class:`Refusal` unless the others may hand the seat over now: a table without a clock only, its person
        away for ``away_seconds`` at least."""
        if clocked:
            raise Refusal(
                "clocked",
                "This table has a clock: it plays the turns of a seat that does not move, and a computer player takes "
                "the seat after two of them.",
            )
        step(self.states[seat], E.HAND_OVER)
        wait = self.hand_over_in(seat, now, clocked, away_seconds)
        if wait is None:
            raise refusal(self.states[seat], E.HAND_OVER)
        if wait > 0:
            raise Refusal("not-away", f"Wait {round(wait)} more seconds for them to come back.")

    def people_here(self) -> bool:
        """Whether a person playing at the table has it open (the lobby lists a game to watch only then)."""
        return any(self.connected(seat) and state in HOLDS_THE_SEAT for seat, state in enumerate(self.states))

    # --- a table opened -------------------------------------------------------------------------------

    @classmethod
    def replayed(
        cls,
        setup: Setup,
        journal: Sequence[tuple[int, int, str | None, float | None]],
        over: bool,
        away_since: float,
        pause_until: float | None = None,
    ) -> Seats:
        """The seats of a table opened from its set-up and journal (per action: its seat, its round, who played it
        for the seat, when), its people away since ``away_since`` (nobody has a connection open yet), the round's
        report's pause lasting until ``pause_until``: what happened to each seat replayed through
        :data:`TRANSITIONS`."""
        states = [S.COMPUTER if spec.bot is not None and spec.left is None else S.INVITED for spec in setup.seats]
        seats = cls(states)
        for seat, spec in enumerate(setup.seats):
            if states[seat] is S.INVITED and spec.joined:
                seats.states[seat] = S.AWAY
            if seats.states[seat] in (S.AWAY, S.INVITED):
                seats.away_since[seat] = away_since
        marks = _marks(setup)
        previous: tuple[int, int, str | None] | None = None
        for index, (seat, round_, by, at) in enumerate(journal):
            when = at if at is not None else away_since
            for mark_seat, event in marks.pop(index, ()):
                seats._maybe(mark_seat, event, when)
            if by == "clock" and previous != (seat, round_, "clock"):  # the clock played a turn: once per turn
                seats._maybe(seat, E.DEADLINE, when)
            elif by is None and (seats.states[seat], E.MOVE) in TRANSITIONS:
                seats.move(seat, when)
            previous = (seat, round_, by)
        for index in sorted(marks):
            for mark_seat, event in marks[index]:
                seats._maybe(mark_seat, event, away_since)
        if setup.aborted:
            seats.every(E.ABORT, away_since)
        elif over:
            seats.every(E.GAME_END, away_since)
        seats.pause_until = pause_until
        seats.history.clear()
        return seats


def _marks(setup: Setup) -> dict[int, list[tuple[int, SeatEvent]]]:
    """The set-up's events, by the number of journal actions before them: each "I'm back", and how each person who
    left the game left it."""
    marks: dict[int, list[tuple[int, SeatEvent]]] = {}
    for seat, spec in enumerate(setup.seats):
        if spec.back is not None:
            marks.setdefault(spec.back.count, []).append((seat, E.BACK))
        if spec.left is not None:
            event = {RESIGNED: E.RESIGN, LEFT: E.LEAVE, AWAY: E.HAND_OVER}.get(spec.left.how, E.LEAVE)
            marks.setdefault(spec.left.after, []).append((seat, event))
    return marks


def transitions_table(states: Iterable[SeatState] = SeatState, events: Iterable[SeatEvent] = SeatEvent) -> str:
    """The transitions as a Markdown table (docs/PLAYING.md shows it; a test keeps the two the same): a row per
    state, a column per event, the state it comes to (``·`` where the event is refused)."""
    columns = list(events)
    lines = [
        "| state | " + " | ".join(event.value for event in columns) + " |",
        "| --- |" + " --- |" * len(columns),
    ]
    for state in states:
        cells = []
        for event in columns:
            target = TRANSITIONS.get((state, event))
            cells.append("·" if target is None else "=" if target is state else target.value)
        lines.append(f"| {state.value} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
