"""The settings of the last game started, so that the start screen opens with them: a small JSON file in the data
directory, written atomically and durably like a save.  A file that cannot be read, or is not of this shape, is
ignored (the defaults are shown), and one that cannot be written is let go: it is a convenience, never a problem.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from racko.play.session import SeatSpec, bots_for
from racko.play.setup import HUMAN
from racko.play.text import plain_name
from racko.rules import VARIANTS, Rules
from racko.terminal.saves import write_durably

SETTINGS_FILE = "last-settings.json"
FORMAT = "racko-play-settings"
VERSION = 1


@dataclass(frozen=True)
class Settings:
    """What the start screen chooses: the variant, the players, each other seat (a bot's level or ``human``), the
    people's names (seat order, you first), the target, the refill rule and the 2-player rule."""

    variant: str
    players: int
    seats: tuple[str, ...]
    names: tuple[str, ...]
    target: int
    refill: str
    two_player_rule: bool

    @classmethod
    def of(cls, rules: Rules, seats: list[SeatSpec]) -> Settings:
        """The settings of a game about to start."""
        return cls(
            rules.variant,
            rules.players,
            tuple(seat.bot or HUMAN for seat in seats[1:]),
            tuple(seat.name for seat in seats if seat.human),
            rules.target,
            rules.refill,
            rules.two_player_rule,
        )


def save_settings(folder: Path, settings: Settings) -> None:
    """Keep the settings in ``folder``; a folder that cannot be written is let go (the game matters, not this)."""
    data = {"format": FORMAT, "version": VERSION, **asdict(settings)}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_durably(folder / SETTINGS_FILE, json.dumps(data, indent=2) + "\n")
    except OSError:
        pass


def load_settings(folder: Path) -> Settings | None:
    """The settings kept in ``folder``, or ``None`` when there are none or they are damaged or of another shape."""
    try:
        data = json.loads((folder / SETTINGS_FILE).read_text(encoding="utf-8"))
        return _settings(data)
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        return None


def _settings(data: Any) -> Settings | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        return None
    variant, players, seats, names = data["variant"], data["players"], data["seats"], data["names"]
    if variant not in VARIANTS or type(players) is not int or players not in VARIANTS[variant].player_counts:
        return None
    choices = {HUMAN, *bots_for(variant)}
    if not isinstance(seats, list) or len(seats) != players - 1 or any(seat not in choices for seat in seats):
        return None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names) or len(names) > players:
        return None
    target, refill, run_rule = data["target"], data["refill"], data["two_player_rule"]
    if type(target) is not int or not 0 < target < 1_000_000 or refill not in ("flip", "shuffle"):
        return None
    if type(run_rule) is not bool:
        return None
    return Settings(variant, players, tuple(seats), tuple(plain_name(name) for name in names), target, refill, run_rule)
