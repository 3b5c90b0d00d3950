"""A table's clock as the table room sees it: the journal's times turned into the clock room's steps, the clock of a
table (:func:`refresh`), its deadline (:func:`due`: only a seat its person plays has a clock that runs out, never in
the round report's pause), and what the frames say of it.  The rules themselves are the clock room's
(:mod:`racko.web.clock`); whether a seat is gone, timed out or back is its seat's state (:mod:`.seats`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from racko.record import GameRecord
from racko.web.clock import ALL_PRESETS, ROUND_PAUSE, Back, Played, clock_state, resumed
from racko.web.table.seats import CLOCKED, SeatState

if TYPE_CHECKING:
    from racko.web.table.table import Table


def played_of(record: GameRecord, times: Sequence[float | None]) -> list[Played]:
    """The journal as the clock sees it: each action's time, seat and round."""
    played: list[Played] = []
    for round_index, round_ in enumerate(record.rounds):
        for action in round_.actions:
            index = len(played)
            played.append(Played(times[index] if index < len(times) else None, action.seat, round_index))
    return played


def refresh(table: Table) -> None:
    """Derive the table's clock again from its journal and set-up (after every action and set-up change)."""
    name = table.setup.clock
    preset = ALL_PRESETS.get(name) if name is not None else None
    if preset is None:
        table.clock = None
        return
    session = table.session
    start = table.setup.clock_from
    backs = [Back(seat, spec.back.count, spec.back.at) for seat, spec in enumerate(table.setup.seats) if spec.back]
    state = clock_state(
        preset,
        len(session.seats),
        table.played,
        session.to_act if not table.over else None,
        len(session.match.results),
        start,
        backs,
    )
    table.clock = resumed(state, table.opened_at, started=start is not None)


def pause_until(table: Table) -> float | None:
    """Until when the round's report pauses the table: :data:`ROUND_PAUSE` after the action that ended the last
    round (``None``: no round ended yet, the game is over, or the journal has no time for it)."""
    results = len(table.session.match.results)
    if not results or table.over:
        return None
    ends = [played for played in table.played if played.round == results - 1]
    if not ends or ends[-1].at is None:
        return None
    return ends[-1].at + ROUND_PAUSE


def runs_for(table: Table, seat: int) -> bool:
    """Whether a clock can run for ``seat`` now: its person plays it (not a computer, not a gone seat)."""
    return table.seats.state(seat) in CLOCKED


def due(table: Table) -> float | None:
    """When the running turn runs out: a seat its person plays (its state says), once the clock has started."""
    clock = table.clock
    seat = table.session.to_act
    if clock is None or seat is None or table.over or not runs_for(table, seat):
        return None
    return clock.deadline()


def turn_based(table: Table) -> bool:
    return table.clock is not None and table.clock.preset.turn_based


def turn_key(table: Table) -> tuple[int, float] | None:
    """The running turn (its seat and when it began, as kept in the set-up's ``reminded``), if a clock runs."""
    clock = table.clock
    if due(table) is None or clock is None or clock.to_act is None or clock.since is None:
        return None
    return (clock.to_act, clock.since)


def remind_at(table: Table) -> float | None:
    """When the running turn-based turn's seat is to be reminded, unless it was (``reminded`` in the set-up: every
    process agrees, and a table opened again does not remind twice)."""
    if not turn_based(table) or table.clock is None:
        return None
    key = turn_key(table)
    if key is None or table.setup.reminded == key:
        return None
    return table.clock.remind_at()


def wake_at(table: Table) -> float | None:
    """When something is next due at the table (kept in the store as its ``due``, which the keep loop's ``overdue``
    looks for): a turn-based turn's reminder, else the running turn's deadline."""
    remind = remind_at(table)
    return remind if remind is not None else due(table)


def clock_json(table: Table, now: float) -> dict[str, Any] | None:
    """What every frame says of the clock (the same for every viewer: nothing in it is hidden), or ``None`` for a
    table without one or whose game is over (a finished table shows no clock)."""
    if table.clock is None or table.over:
        return None
    seats = range(len(table.session.seats))
    frame = table.clock.json(
        now, [runs_for(table, seat) for seat in seats], [table.seats.state(seat) is SeatState.GONE for seat in seats]
    )
    frame["started"] = table.setup.clock_from is not None
    return frame
