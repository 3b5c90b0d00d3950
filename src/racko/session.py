"""A game people play (apps layer): seats that are people or bots, narration, and saving as it goes.

Shared by the terminal app (:mod:`racko.tui`) and the plain text mode
(:mod:`racko.plain`).  A save is an ordinary game record (``racko replay`` and
``racko hint`` read it) whose ``racko_play`` key names who sits in each seat;
it is rewritten after every action, and moved to the finished games when the
game ends.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racko import bots
from racko.errors import RackoError, RecordError
from racko.families import AnyAction, AnyObservation
from racko.match import Match
from racko.record import GameRecord, replay
from racko.rules import Rules

SAVE_KEY = "racko_play"
CURRENT_SAVE = "current-game.json"


def data_dir() -> Path:
    """Where saves and finished games go: ``RACKO_DATA_DIR`` if set, else the user's data directory."""
    override = os.environ.get("RACKO_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs  # only the apps need it

    return Path(platformdirs.user_data_dir("racko", appauthor=False))


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a person (``bot`` is ``None``) or a bot by name."""

    name: str
    bot: str | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


class PlaySession:
    """One game in progress, with its seats; saved after every action when it has a save path."""

    def __init__(self, match: Match, seats: Sequence[SeatSpec], save_path: Path | None = None) -> None:
        if len(seats) != match.rules.players:
            raise RackoError(f"This game needs {match.rules.players} seats, not {len(seats)}.")
        self.match = match
        self.seats = tuple(seats)
        self.save_path = save_path
        self.bots = [None if spec.bot is None else bots.create(spec.bot, seed=seat) for seat, spec in enumerate(seats)]
        # Per viewer (a seat, or None for the public): the round and the event it was last told up to.
        self._told: dict[int | None, tuple[int, int]] = {}
        self.finished_path: Path | None = None

    @classmethod
    def new(
        cls, rules: Rules, seats: Sequence[SeatSpec], seed: int | None = None, save_path: Path | None = None
    ) -> PlaySession:
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        session = cls(Match(rules, seed=seed), seats, save_path)
        session.save()
        return session

    @classmethod
    def load(cls, path: Path) -> PlaySession:
        """Resume a saved game; a damaged save raises :class:`RecordError` with the reason."""
        record = GameRecord.load(path)
        seats = _seats_from(record)
        match = replay(record)
        return cls(match, seats, path)

    # --- who acts --------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def to_act(self) -> int | None:
        return self.match.to_act

    @property
    def humans(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.human]

    def human_to_act(self) -> bool:
        seat = self.to_act
        return seat is not None and self.seats[seat].human

    def observation(self, seat: int) -> AnyObservation:
        return self.match.observation(seat)

    # --- acting ----------------------------------------------------------------------------------

    def play(self, action: AnyAction) -> None:
        """A person's action; an illegal one raises :class:`~racko.errors.IllegalActionError` and changes nothing."""
        seat = self.to_act
        if seat is None or not self.seats[seat].human:
            raise RackoError("It is not a person's turn.")
        self.match.apply(action)
        self._after_action()

    def play_bot(self) -> AnyAction:
        """Let the bot whose turn it is act; returns what it did."""
        seat = self.to_act
        bot = None if seat is None else self.bots[seat]
        if seat is None or bot is None:
            raise RackoError("It is not a computer player's turn.")
        action = bot.act(self.match.observation(seat))
        self.match.apply(action)
        self._after_action()
        return action

    def _after_action(self) -> None:
        if self.match.over:
            self._finish()
        else:
            self.save()

    # --- telling what happened -------------------------------------------------------------------

    def news(self, viewer: int | None) -> list[str]:
        """What happened since this viewer was last told, as that seat may see it (``None``: public only)."""
        rounds = self.match.rounds
        index, shown = self._told.get(viewer, (len(rounds) - 1, 0))  # first told: the current round from its start
        lines: list[str] = []
        while True:
            log = rounds[index].log
            lines.extend(event.visible_to(viewer).describe(self.names) for event in log[shown:])
            if index == len(rounds) - 1:
                self._told[viewer] = (index, len(log))
                return lines
            index, shown = index + 1, 0

    # --- saving ----------------------------------------------------------------------------------

    def record(self) -> GameRecord:
        record = GameRecord.of(self.match, players=tuple(self.names))
        seats = [{"name": seat.name, "bot": seat.bot} for seat in self.seats]
        return GameRecord(
            record.rules,
            record.rounds,
            record.first_dealer,
            record.seed,
            record.players,
            {SAVE_KEY: {"seats": seats}},
        )

    def save(self) -> None:
        if self.save_path is not None:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            self.record().save(self.save_path)

    def _finish(self) -> None:
        """A finished game goes to the finished games (a record), and its save is removed."""
        if self.save_path is None:
            return
        games = self.save_path.parent / "games"
        games.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y-%m-%d-%H%M%S")
        target = games / f"game-{stamp}.json"
        suffix = 1
        while target.exists():
            suffix += 1
            target = games / f"game-{stamp}-{suffix}.json"
        self.record().save(target)
        self.finished_path = target
        self.save_path.unlink(missing_ok=True)
        self.save_path = None


def _seats_from(record: GameRecord) -> list[SeatSpec]:
    notes: Any = record.extra.get(SAVE_KEY)
    seats = notes.get("seats") if isinstance(notes, dict) else None
    if not isinstance(seats, list) or len(seats) != record.rules.players:
        raise RecordError("This record is not a saved game of racko play (it does not say who sits where).")
    specs = []
    for seat in seats:
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
            raise RecordError("A seat of the saved game has no name.")
        bot = seat.get("bot")
        if bot is not None and (not isinstance(bot, str) or bot not in bots.available()):
            raise RecordError(f"The saved game names an unknown bot: {bot!r}.")
        specs.append(SeatSpec(seat["name"], bot))
    return specs


def set_aside(path: Path, why: str) -> Path:
    """Move a save out of the way (never deleted), ``why`` in its new name: returns where it went."""
    target = path.with_name(f"{path.stem}.{why}-{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}")
    path.replace(target)
    return target
