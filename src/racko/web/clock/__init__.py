"""The clock room: real-time and turn-based clocks as pure functions of a table's journal (:mod:`.clock`): the
speeds, a seat's time left, when its turn runs out (and a turn-based one's reminder).
No I/O: the table room keeps the times and acts."""

from racko.web.clock.clock import (
    ALL_PRESETS,
    DAY,
    DEFAULT_PRESET,
    NO_CLOCK,
    PRESETS,
    REMIND_BEFORE,
    ROUND_PAUSE,
    TURN_PRESETS,
    WARN_SECONDS,
    Back,
    ClockState,
    Played,
    Preset,
    clock_state,
    preset_named,
    resumed,
)

__all__ = [
    "ALL_PRESETS",
    "DAY",
    "DEFAULT_PRESET",
    "NO_CLOCK",
    "PRESETS",
    "REMIND_BEFORE",
    "ROUND_PAUSE",
    "TURN_PRESETS",
    "WARN_SECONDS",
    "Back",
    "ClockState",
    "Played",
    "Preset",
    "clock_state",
    "preset_named",
    "resumed",
]
