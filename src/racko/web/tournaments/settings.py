"""A tournament's settings, typed and checked once (the page's form, ``racko admin tournament add`` and the tests all
make them here); what is wrong with them is a :class:`~racko.web.core.Refusal` (``bad-settings``), as every refusal of
every room."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from racko import bots
from racko.errors import RackoError
from racko.play.text import plain_name
from racko.play.tournaments import ARENA, SWISS
from racko.rules import VARIANTS, variant
from racko.web.clock import ALL_PRESETS, PRESETS
from racko.web.core import Refusal

KINDS = (SWISS, ARENA)
ENTRY = ("anyone", "people", "bots")
"""Who may enter: anybody, people only (no bot account), bot accounts only (a bot tournament; racko's levels that
the settings name play in either)."""
NAME_LENGTH = 40
MAX_ROUNDS = 15
MIN_MINUTES, MAX_MINUTES = 5, 24 * 60
MAX_LEVELS = 8
LONGEST_WAIT = 30 * 86400.0
"""A tournament starts within 30 days of being made."""


def bad(message: str) -> Refusal:
    return Refusal("bad-settings", message)


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament is: its kind, the game at its tables, how long it lasts and who may enter."""

    name: str
    kind: str
    variant: str
    seats: int
    """Seats at each table (Partners: 4, two teams)."""
    clock: str
    """A clock's name (:data:`racko.web.clock.ALL_PRESETS`): every tournament game has one, so that it ends."""
    rounds: int | None = None
    """A Swiss's rounds."""
    minutes: int | None = None
    """An arena's duration."""
    target: int | None = None
    """The games' target score (None: the variant's own)."""
    rated: bool = False
    entry: str = "anyone"
    finishers: bool = False
    """Only players who finish 80% of the games that count may join (docs/PLAYING.md)."""
    levels: tuple[str, ...] = ()
    """racko's levels entered as players (a level twice is two players)."""
    two_player_rule: bool = True
    """At tables of two: a Rack-O needs a run of three (the sheets' 2-player rule, on by default as in a table's)."""

    def rule_options(self) -> dict[str, Any]:
        """The options of the games' rules beyond the variant's own (the target, the 2-player rule)."""
        options: dict[str, Any] = {} if self.target is None else {"target": self.target}
        if self.seats == 2 and not self.two_player_rule and VARIANTS[self.variant].name in ("classic", "bonus"):
            options["two_player_rule"] = False
        return options

    @property
    def partners(self) -> bool:
        return VARIANTS[self.variant].name == "partners"

    @property
    def sides(self) -> int:
        """Sides at each table: the seats, or Partners' two teams."""
        return 2 if self.partners else self.seats

    def check(self) -> TournamentSettings:
        """These settings, or a :class:`Refusal` (400, ``bad-settings``) that says what is wrong."""
        if not self.name or len(self.name) > NAME_LENGTH:
            raise bad(f"A tournament's name is 1 to {NAME_LENGTH} characters.")
        if self.kind not in KINDS:
            raise bad(f"A tournament is a {' or an '.join(KINDS)}, not {self.kind!r}.")
        if self.variant not in VARIANTS:
            raise bad(f"There is no variant {self.variant!r}: {', '.join(VARIANTS)}.")
        chosen = VARIANTS[self.variant]
        if self.seats not in chosen.player_counts:
            counts = ", ".join(str(count) for count in chosen.player_counts)
            raise bad(f"{chosen.title} is played at tables of {counts}, not {self.seats}.")
        if self.clock not in ALL_PRESETS:
            raise bad(f"A tournament's speed is one of {', '.join(ALL_PRESETS)}: every game has a clock.")
        if self.kind == SWISS and (self.rounds is None or not 1 <= self.rounds <= MAX_ROUNDS):
            raise bad(f"A Swiss has 1 to {MAX_ROUNDS} rounds.")
        if self.kind == ARENA:
            if self.minutes is None or not MIN_MINUTES <= self.minutes <= MAX_MINUTES:
                raise bad(f"An arena lasts {MIN_MINUTES} to {MAX_MINUTES} minutes.")
            if self.clock not in PRESETS:
                raise bad(f"An arena is played in real time: {', '.join(PRESETS)}.")
        try:
            chosen.rules(self.seats, **self.rule_options())
        except (RackoError, TypeError, ValueError) as error:
            raise bad(str(error)) from None
        if self.entry not in ENTRY:
            raise bad(f"Who may enter is {', '.join(ENTRY)}, not {self.entry!r}.")
        if len(self.levels) > MAX_LEVELS:
            raise bad(f"At most {MAX_LEVELS} of racko's levels enter a tournament.")
        playing = bots.playing(self.variant)
        for level in self.levels:
            if level not in playing:
                raise bad(f"racko has no level {level!r} that plays {chosen.title}: {', '.join(playing)}.")
        return self

    def json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "variant": self.variant,
            "seats": self.seats,
            "clock": self.clock,
            "rounds": self.rounds,
            "minutes": self.minutes,
            "target": self.target,
            "rated": self.rated,
            "entry": self.entry,
            "finishers": self.finishers,
            "levels": list(self.levels),
            "two_player_rule": self.two_player_rule,
        }

    @classmethod
    def of(cls, data: Any) -> TournamentSettings:
        """Checked settings from a JSON object (the page's form, or as kept); a :class:`Refusal` says what is wrong."""
        if not isinstance(data, dict):
            raise bad("A tournament's settings are a JSON object.")
        name = data.get("name")
        kind = data.get("kind", SWISS)
        try:
            chosen = variant(str(data.get("variant", "classic")))
        except RackoError:
            raise bad(f"There is no variant {str(data.get('variant'))[:30]!r}: {', '.join(VARIANTS)}.") from None
        levels = data.get("levels", [])
        if not isinstance(levels, list) or not all(isinstance(level, str) for level in levels):
            raise bad("levels: a list of racko's levels, such as easy or hard.")
        return cls(
            name=plain_name(name)[:NAME_LENGTH].strip() if isinstance(name, str) else "",
            kind=str(kind),
            variant=chosen.name,
            seats=_whole(data.get("seats", chosen.player_counts[0]), "seats"),
            clock=str(data.get("clock", "normal")),
            rounds=_whole_or_none(data.get("rounds"), "rounds") if kind == SWISS else None,
            minutes=_whole_or_none(data.get("minutes"), "minutes") if kind == ARENA else None,
            target=_whole_or_none(data.get("target"), "target"),
            rated=data.get("rated") is True,
            entry=str(data.get("entry", "anyone")),
            finishers=data.get("finishers") is True,
            levels=tuple(levels),
            two_player_rule=data.get("two_player_rule") is not False,
        ).check()


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise bad(f"{what} is a whole number.")
    if value != int(value):
        raise bad(f"{what} is a whole number.")
    return int(value)


def _whole_or_none(value: Any, what: str) -> int | None:
    return None if value is None else _whole(value, what)
