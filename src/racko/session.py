"""A game people play (apps layer): seats that are people or bots, narration, and saving as it goes.

Shared by the terminal app (:mod:`racko.tui`) and the plain text mode
(:mod:`racko.plain`).  A save is an ordinary game record (``racko replay`` and
``racko hint`` read it) whose ``racko_play`` key names who sits in each seat;
it is rewritten after every action, and moved to the finished games when the
game ends.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racko import bots
from racko.errors import RackoError, RecordError
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowObservation, KeepOrder, Replace, SwapCards
from racko.highlow_scoring import SWAP, WILD
from racko.hint import advice
from racko.match import Match
from racko.record import GameRecord, replay
from racko.rules import Rules, variant

SAVE_KEY = "racko_play"
CURRENT_SAVE = "current-game.json"


def data_dir() -> Path:
    """Where saves and finished games go: ``RACKO_DATA_DIR`` if set, else the user's data directory."""
    override = os.environ.get("RACKO_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs  # only the apps need it

    return Path(platformdirs.user_data_dir("racko", appauthor=False))


@functools.cache
def bots_for(variant_name: str) -> tuple[str, ...]:
    """The bots that play this variant, weakest first.

    Some bots play the classic variants only; asking each one for its first move of a sample deal finds out
    without a list to keep up to date (it takes a few milliseconds).
    """
    match = Match(variant(variant_name).rules(), seed=0)
    seat = match.to_act
    assert seat is not None
    playing = []
    for name in bots.available():
        try:
            bots.create(name, seed=0).act(match.observation(seat))
        except RackoError:
            continue
        playing.append(name)
    return tuple(playing)


def default_opponent(variant_name: str, preferred: str = "medium") -> str:
    """``preferred`` if it plays the variant, else the strongest weaker bot that does, else the weakest."""
    playing = bots_for(variant_name)
    if preferred in playing:
        return preferred
    ranks = bots.available()
    weaker = [name for name in playing if ranks.index(name) < ranks.index(preferred)]
    return weaker[-1] if weaker else playing[0]


def card_words(card: int) -> str:
    """A card as a sentence says it: its number, or the Wild or the Swap (High-Low)."""
    return {WILD: "the Wild", SWAP: "a Swap card"}.get(card, str(card))


def hint_lines(observation: AnyObservation, count: int = 3) -> list[str]:
    """The expert's advice for this seat, judged from its own observation only: best first."""
    if isinstance(observation, HighLowObservation):
        # No rated list for High-Low yet: the expert's own move, said in words.
        action = bots.create("expert", seed=0).act(observation)
        held = observation.held if observation.held is not None else observation.public.passed_card
        if isinstance(action, Replace):
            card = card_words(held) if held is not None else "your card"
            return [f"The expert would put {card} at position {action.position + 1}."]
        if isinstance(action, SwapCards):
            return [f"The expert would swap positions {action.first + 1} and {action.second + 1}."]
        assert isinstance(action, KeepOrder)
        return ["The expert would keep the row as it is."]
    return [choice.explanation for choice in advice(observation)[:count]]


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
        self.save_problem: str | None = None
        """Why the last save failed (a full disk, a folder that cannot be written), until one succeeds."""

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
        """Write the save; a failure is kept in :attr:`save_problem` for the player to see, and play goes on."""
        if self.save_path is None:
            return
        try:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            self.record().save(self.save_path)
        except OSError as error:
            self.save_problem = f"The game could not be saved to {self.save_path}: {error.strerror or error}."
        else:
            self.save_problem = None

    def _finish(self) -> None:
        """A finished game goes to the finished games (a record), and its save is removed."""
        if self.save_path is None:
            return
        games = self.save_path.parent / "games"
        stamp = time.strftime("%Y-%m-%d-%H%M%S")
        target = games / f"game-{stamp}.json"
        suffix = 1
        while target.exists():
            suffix += 1
            target = games / f"game-{stamp}-{suffix}.json"
        try:
            games.mkdir(parents=True, exist_ok=True)
            self.record().save(target)
            self.save_path.unlink(missing_ok=True)
        except OSError as error:
            self.save_problem = f"The finished game could not be saved to {target}: {error.strerror or error}."
            return
        self.finished_path = target
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
        if bot is not None and bot not in bots_for(record.rules.variant):
            raise RecordError(f"The saved game seats the {bot} bot, which does not play this variant.")
        specs.append(SeatSpec(seat["name"], bot))
    return specs


def set_aside(path: Path, why: str) -> Path:
    """Move a save out of the way (never deleted), ``why`` in its new name: returns where it went."""
    target = path.with_name(f"{path.stem}.{why}-{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}")
    path.replace(target)
    return target
