"""A table's clock as the table room sees it: the journal's times turned into the clock room's steps, the clock
state of a table (:func:`refresh`), its deadline (``due``: only a person's seat that is not gone has a clock that
runs out), and what the frames say of it.  The rules themselves are the clock room's (:mod:`racko.web.clock`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from racko.record import GameRecord
from racko.web.clock import ALL_PRESETS, Back, Played, clock_state, resumed

if TYPE_CHECKING:
    from racko.web.table.state import Table

CLOCK, GONE = "clock", "gone"
"""How the journal marks an action the seat's person did not choose: played because the turn ran out, or because
the seat is gone (the record, the replay and the review can say so)."""


def played_of(record: GameRecord, times: Sequence[float | None], made_by: Sequence[str | None]) -> list[Played]:
    """The journal as the clock sees it: each action's time, seat, round and whether its person chose it."""
    played: list[Played] = []
    for round_index, round_ in enumerate(record.rounds):
        for action in round_.actions:
            index = len(played)
            at = times[index] if index < len(times) else None
            by = made_by[index] if index < len(made_by) else None
            played.append(Played(at, action.seat, round_index, by is not None))
    return played


def backs_of(setup: dict[str, Any]) -> list[Back]:
    """When each gone seat's person said they were back (kept in the set-up)."""
    backs = []
    for seat, spec in enumerate(setup["seats"]):
        back = spec.get("back")
        if isinstance(back, list) and len(back) == 2:
            backs.append(Back(seat, int(back[0]), float(back[1])))
    return backs


def refresh(table: Table) -> None:
    """Derive the table's clock again from its journal and set-up (after every action and set-up change)."""
    name = table.setup.get("clock")
    preset = ALL_PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        table.clock = None
        return
    session = table.session
    start = table.setup.get("clock_from")
    state = clock_state(
        preset,
        len(session.seats),
        table.played,
        session.to_act if not table.over else None,
        len(session.match.results),
        start,
        backs_of(table.setup),
    )
    table.clock = resumed(state, table.opened_at, started=start is not None)


def clocked(table: Table) -> list[bool]:
    """Per seat, whether a clock can run for it: a person's seat (a computer player has none)."""
    return [spec.bot is None for spec in table.session.seats]


def gone_to_act(table: Table) -> int | None:
    """The seat to act if it is a gone person's (its computer player plays without waiting)."""
    clock = table.clock
    seat = table.session.to_act
    if clock is None or seat is None or table.over or table.session.seats[seat].bot is not None:
        return None
    return seat if clock.gone(seat) else None


def due(table: Table) -> float | None:
    """When the running turn runs out: a person's seat that is not gone, once the clock has started."""
    clock = table.clock
    seat = table.session.to_act
    if clock is None or seat is None or table.over or table.session.seats[seat].bot is not None:
        return None
    if clock.gone(seat):
        return None
    return clock.deadline()


def turn_based(table: Table) -> bool:
    return table.clock is not None and table.clock.preset.turn_based


def turn_key(table: Table) -> list[float] | None:
    """The running turn (its seat and when it began, as kept in the set-up's ``reminded``), if a clock runs."""
    clock = table.clock
    if due(table) is None or clock is None or clock.to_act is None or clock.since is None:
        return None
    return [clock.to_act, clock.since]


def remind_at(table: Table) -> float | None:
    """When the running turn-based turn's seat is to be reminded, unless it was (``reminded`` in the set-up: every
    process agrees, and a table opened again does not remind twice)."""
    if not turn_based(table) or table.clock is None:
        return None
    key = turn_key(table)
    if key is None or table.setup.get("reminded") == key:
        return None
    return table.clock.remind_at()


def wake_at(table: Table) -> float | None:
    """When something is next due at the table (kept in the store as its ``due``, which the keep loop's ``overdue``
    looks for): a turn-based turn's reminder, else the running turn's deadline."""
    remind = remind_at(table)
    return remind if remind is not None else due(table)


def clock_json(table: Table, now: float) -> dict[str, Any] | None:
    """What every frame says of the clock (the same for every viewer: nothing in it is hidden), or ``None`` for a
    table without one."""
    if table.clock is None:
        return None
    frame = table.clock.json(now, clocked(table))
    frame["started"] = table.setup.get("clock_from") is not None
    if frame["running"] is not None and table.clock.gone(frame["running"]):
        frame["running"] = None
    return frame
