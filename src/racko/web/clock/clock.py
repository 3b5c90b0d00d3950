"""Real-time clocks, as pure functions of a table's journal: no I/O, no engine.

A seat's clock is charged only during its turn: from when it becomes the seat to act until another seat is, or its
round ends.  A turn gets the preset's seconds per move; a turn that takes longer spends the seat's time bank, and a
turn that takes less puts the unused seconds back into the bank, up to its cap.  When the move's seconds and the bank
are spent the turn has run out (the table then plays it for the seat, docs/PLAYING.md).

The state is never kept: it is derived by replaying the times at which the journal's actions were played
(:func:`clock_state`), so a reload, or another server process, shows the same time left as the process that played
the moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Preset:
    """A speed: seconds per move, the time bank a seat starts with, and the most its bank can hold."""

    name: str
    move: float
    bank: float
    cap: float
    days: int = 0
    """A turn-based speed's days per move (no bank); 0 for a real-time speed."""

    @property
    def longest_turn(self) -> float:
        """The longest a turn can last before it runs out (a full bank)."""
        return self.move + self.cap

    @property
    def turn_based(self) -> bool:
        return self.days > 0

    @property
    def remind_before(self) -> float | None:
        """How long before a turn-based turn runs out its seat is reminded (``None``: a real-time speed, which warns
        :data:`WARN_SECONDS` before instead): :data:`REMIND_BEFORE`, or a quarter of the move if that is less."""
        return min(REMIND_BEFORE, self.move / 4) if self.turn_based else None

    def json(self) -> dict[str, Any]:
        return {"name": self.name, "move": self.move, "bank": self.bank, "cap": self.cap, "days": self.days}


DAY = 86400.0
REMIND_BEFORE = 12 * 3600.0
"""A turn-based seat is reminded when this much of its turn is left (a quarter of it on a one-day table: 6 hours)."""


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("fast", move=15.0, bank=30.0, cap=60.0),
        Preset("normal", move=30.0, bank=60.0, cap=120.0),
        Preset("slow", move=60.0, bank=120.0, cap=240.0),
    )
}
"""The real-time speeds (docs/PLAYING.md).  ``normal`` is quick play's default: a person who never moves has a move
made for them within 30 + 120 = 150 seconds, under the 3 minutes promised."""
TURN_PRESETS: dict[str, Preset] = {
    f"days-{days}": Preset(f"days-{days}", move=days * DAY, bank=0.0, cap=0.0, days=days) for days in (1, 2, 3, 7)
}
"""The turn-based speeds: days per move, no bank (a move's unused time is not kept), for friends' tables (casual or
rated); quick play stays real time (it seats people who are here now)."""
ALL_PRESETS: dict[str, Preset] = {**PRESETS, **TURN_PRESETS}
DEFAULT_PRESET = "normal"
NO_CLOCK = "none"
"""A friends' casual table may have no clock at all."""

WARN_SECONDS = 10.0
"""The seat to act is warned this long before its time runs out."""
ROUND_PAUSE = 10.0
"""A new round's first turn starts this long after the last round ended: time to read the round's report, which no
clock charges and during which no computer player moves (at any table)."""


@dataclass(frozen=True)
class Played:
    """One action of the journal as the clock sees it: when it was played (``None``: a row older than clocks), by
    which seat, in which round (from 0)."""

    at: float | None
    seat: int
    round: int


@dataclass(frozen=True)
class Back:
    """A gone seat's person said they are back: after ``count`` actions of the journal, at ``at``."""

    seat: int
    count: int
    at: float


@dataclass
class ClockState:
    """Every seat's clock after a journal: the banks, and whose turn runs and since when.  (Whether a seat is gone is
    its seat's state, racko.web.table.seats: the clock only plays the turns.)"""

    preset: Preset
    banks: list[float]
    to_act: int | None
    since: float | None
    """When the turn of ``to_act`` began; ``None`` while no clock runs (not started yet, or times unknown)."""

    def deadline(self) -> float | None:
        """When the running turn runs out (``None``: no turn runs)."""
        if self.to_act is None or self.since is None:
            return None
        return self.since + self.preset.move + self.banks[self.to_act]

    def remind_at(self) -> float | None:
        """When the running turn-based turn's seat is reminded (``None``: no turn runs, or a real-time speed)."""
        deadline = self.deadline()
        before = self.preset.remind_before
        if deadline is None or before is None:
            return None
        return deadline - before

    def left(self, seat: int, now: float) -> float:
        """The seconds ``seat`` has for its turn: counting down during its own turn only (never below 0)."""
        whole = self.preset.move + self.banks[seat]
        if seat != self.to_act or self.since is None:
            return whole
        return max(0.0, min(whole, whole - (now - self.since)))

    def json(self, now: float, clocked: Sequence[bool], gone: Sequence[bool]) -> dict[str, Any]:
        """What every page is shown (nothing hidden in it): per seat the seconds left for its turn and its bank,
        whether it is gone, and which seat's clock runs.  ``clocked``: per seat, whether its clock can run now (a
        person's seat that its person plays: not a computer player's, not a gone one's); ``gone``: per seat, whether
        it is gone (the seats' states say)."""
        running = self.to_act is not None and self.since is not None and clocked[self.to_act] and self.since <= now
        return {
            "preset": self.preset.name,
            "days": self.preset.days,
            "remind": self.preset.remind_before,
            "move": self.preset.move,
            "cap": self.preset.cap,
            "running": self.to_act if running else None,
            "left": [round(self.left(seat, now), 1) for seat in range(len(self.banks))],
            "banks": [round(bank, 1) for bank in self.banks],
            "gone": list(gone),
            # A round's first turn starts after the pause (ROUND_PAUSE): nothing runs until then.
            "starts_in": round(self.since - now, 1) if self.since is not None and self.since > now else 0,
        }


def clock_state(
    preset: Preset,
    seats: int,
    played: Sequence[Played],
    to_act: int | None,
    round_now: int,
    start: float | None,
    backs: Sequence[Back] = (),
) -> ClockState:
    """The clocks after the journal ``played``, with ``to_act`` the seat to act now in round ``round_now``.  ``start``:
    when the clock started (every person seated), ``None`` if it has not.  An action without a time (a row older
    than clocks) starts every bank again, and no turn runs until the table says when (:func:`resumed`)."""
    banks = [preset.bank] * seats
    since: float | None = start
    seat_now: int | None = None
    round_seen = 0
    last_at: float | None = start

    def begin(at: float | None, new_round: bool) -> float | None:
        if start is None or at is None:
            return None
        return max(start, at + (ROUND_PAUSE if new_round else 0.0))

    def end(seat: int, at: float | None) -> None:
        if since is not None and at is not None:
            used = max(0.0, at - since)
            banks[seat] = min(preset.cap, max(0.0, banks[seat] + preset.move - used))

    for action in played:
        if action.at is None:
            banks = [preset.bank] * seats
            since = None
        if seat_now is not None and (action.seat != seat_now or action.round != round_seen):
            end(seat_now, last_at)
            since = begin(last_at, action.round != round_seen)
        seat_now, round_seen = action.seat, action.round
        last_at = action.at
    if seat_now is not None and (to_act != seat_now or round_now != round_seen):
        end(seat_now, last_at)
        since = begin(last_at, round_now != round_seen)
    state = ClockState(preset, banks, to_act, since)
    for back in backs:
        # Saying "I'm back" during one's own turn gives that turn a fresh start (its bank is what is left of it).
        if back.seat == to_act and since is not None and back.at > since and back.count >= len(played):
            state.since = back.at
    return state


def resumed(state: ClockState, now: float, started: bool) -> ClockState:
    """The state of a table opened at ``now``: a turn whose start is unknown (older rows without times) starts
    again now, if the clock has started."""
    if started and state.since is None and state.to_act is not None:
        state.since = now
    return state


def preset_named(name: object, *, allow_none: bool, turn_based: bool = False) -> Preset | None:
    """The preset called ``name`` (a turn-based one too if ``turn_based``); ``None`` for no clock (when allowed).
    :class:`ValueError` says what is wrong."""
    if name == NO_CLOCK and allow_none:
        return None
    known = ALL_PRESETS if turn_based else PRESETS
    if isinstance(name, str) and name in known:
        return known[name]
    choices = [*known, NO_CLOCK] if allow_none else list(known)
    raise ValueError(f"A clock is one of {', '.join(choices)}.")
