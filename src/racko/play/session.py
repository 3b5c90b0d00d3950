"""A game people play (the play layer): who sits in each seat, the moves, and where the game is kept.

Every front end drives a game through a :class:`PlaySession`, and follows it with the play loop
(:mod:`racko.play.loop`).  The session keeps the game in a :class:`GameStore` after every action (the terminal
keeps files; a server keeps a database), as an ordinary game record whose ``racko_play`` key names who sits
in each seat, so ``racko replay`` and ``racko hint`` read it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from racko import bots
from racko.actions import Wait
from racko.errors import RackoError, RecordError
from racko.families import AnyAction, AnyEvent, AnyObservation
from racko.match import Match
from racko.play.text import plain_name
from racko.record import GameRecord, replay
from racko.rules import Rules

SAVE_KEY = "racko_play"
"""The record key under which a saved game names its seats."""


class GameStore(Protocol):
    """Where a game in progress is kept, and where it goes when it is over."""

    def save(self, record: GameRecord) -> None:
        """Keep the game so far (raises :class:`OSError` when it cannot)."""

    def finish(self, record: GameRecord) -> str:
        """File the finished game and forget the game in progress; returns where it went, for the players."""


def bots_for(variant_name: str) -> tuple[str, ...]:
    """The bots that play this variant, weakest first."""
    return tuple(bots.playing(variant_name))


def default_opponent(variant_name: str, preferred: str = "medium") -> str:
    """``preferred`` if it plays the variant, else the strongest weaker bot that does, else the weakest."""
    playing = bots_for(variant_name)
    if preferred in playing:
        return preferred
    ranks = bots.available()
    weaker = [name for name in playing if ranks.index(name) < ranks.index(preferred)]
    return weaker[-1] if weaker else playing[0]


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a person (``bot`` is ``None``) or a bot by name."""

    name: str
    bot: str | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


class PlaySession:
    """One game in progress with its seats, kept in its store (if any) after every action."""

    def __init__(
        self, match: Match, seats: Sequence[SeatSpec], store: GameStore | None = None, *, bot_seed: int | None = 0
    ) -> None:
        """``bot_seed`` seeds the computer players (seat ``k``'s bot gets ``bot_seed + k``; ``None``: unseeded)."""
        if len(seats) != match.rules.players:
            raise RackoError(f"This game needs {match.rules.players} seats, not {len(seats)}.")
        self.match = match
        self.seats = tuple(seats)
        self.store = store
        self.bots = [
            None if spec.bot is None else bots.create(spec.bot, seed=None if bot_seed is None else bot_seed + seat)
            for seat, spec in enumerate(seats)
        ]
        self.finished_at: str | None = None
        """Where the finished game was filed (a path or a link), once it is over and filed."""
        self.save_problem: str | None = None
        """Why the last save failed (a full disk, a folder that cannot be written), until one succeeds."""
        self._pass_when_nothing_to_call()  # a record from elsewhere may stop at such a moment

    @classmethod
    def new(
        cls, rules: Rules, seats: Sequence[SeatSpec], seed: int | None = None, store: GameStore | None = None
    ) -> PlaySession:
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        session = cls(Match(rules, seed=seed), seats, store)
        session.save()
        return session

    @classmethod
    def from_record(cls, record: GameRecord, store: GameStore | None = None) -> PlaySession:
        """Resume a saved game; a record that is not one raises :class:`RecordError` with the reason."""
        return cls(replay(record), seats_from(record), store)

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

    def play_bot(self, action: AnyAction | None = None) -> AnyAction:
        """Let the bot whose turn it is act; returns what it did.  ``action``: the move that bot chose elsewhere
        (a server lets bots think in a worker thread, from :meth:`bot_to_act` and the seat's observation)."""
        seat = self.to_act
        bot = self.bot_to_act()
        if seat is None or bot is None:
            raise RackoError("It is not a computer player's turn.")
        if action is None:
            action = bot.act(self.match.observation(seat))
        self.match.apply(action)
        self._after_action()
        return action

    def bot_to_act(self) -> bots.Bot | None:
        """The computer player whose turn it is, if it is one's."""
        seat = self.to_act
        return None if seat is None else self.bots[seat]

    def hand_to_bot(self, seat: int, bot_name: str) -> None:
        """A person's seat is taken over by a computer player (the person left the table)."""
        if bot_name not in bots_for(self.rules.variant):
            raise RackoError(f"The {bot_name} bot does not play {self.rules.variant}.")
        seats = list(self.seats)
        seats[seat] = SeatSpec(seats[seat].name, bot_name)
        self.seats = tuple(seats)
        self.bots[seat] = bots.create(bot_name, seed=seat)

    def _after_action(self) -> None:
        self._pass_when_nothing_to_call()
        if self.match.over:
            self._finish()
        else:
            self.save()

    def _pass_when_nothing_to_call(self) -> None:
        """End a Bonus turn for its player when there is nothing to call (the only legal action is to play on):
        the engine asks at the end of every turn so that asking tells nobody anything, but a person is asked only
        when there is a choice."""
        match = self.match
        while not match.over:
            seat = match.to_act
            if seat is None:
                return
            legal = match.observation(seat).legal_actions()
            if len(legal) != 1 or not isinstance(legal[0], Wait):
                return
            match.apply(legal[0])

    # --- what happened, by version ---------------------------------------------------------------

    @property
    def version(self) -> int:
        """How many events the game has logged: it grows with every action, and names a position of the game."""
        return sum(len(round_.log) for round_ in self.match.rounds)

    def round_start(self, number: int) -> int:
        """The version at which round ``number`` (from 1) was dealt."""
        return sum(len(round_.log) for round_ in self.match.rounds[: number - 1])

    def events_between(self, start: int, stop: int, viewer: int | None) -> list[AnyEvent]:
        """The log from version ``start`` to ``stop`` as ``viewer`` may see it (``None``: the public)."""
        events: list[AnyEvent] = []
        offset = 0
        for round_ in self.match.rounds:
            log = round_.log
            first, last = max(start - offset, 0), min(stop - offset, len(log))
            events.extend(event.visible_to(viewer) for event in log[first:last])
            offset += len(log)
        return events

    def lines_between(self, start: int, stop: int, viewer: int | None) -> list[str]:
        """The log from version ``start`` to ``stop`` as ``viewer`` may see it, in words (events worth no line
        left out)."""
        told = (event.describe(self.names) for event in self.events_between(start, stop, viewer))
        return [line for line in told if line]

    # --- keeping the game ------------------------------------------------------------------------

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
        """Keep the game in its store; a failure is kept in :attr:`save_problem` for the players, and play goes on."""
        if self.store is None:
            return
        try:
            self.store.save(self.record())
        except OSError as error:
            self.save_problem = f"The game could not be saved{_where(error)}: {error.strerror or error}."
        else:
            self.save_problem = None

    def _finish(self) -> None:
        if self.store is None:
            return
        try:
            self.finished_at = self.store.finish(self.record())
        except OSError as error:
            self.save_problem = f"The finished game could not be saved{_where(error)}: {error.strerror or error}."
            return
        self.store = None


def renamed(text: str, seat: int, name: str) -> str:
    """A game record's text (as :meth:`PlaySession.record` keeps it) with ``name`` for the seat, in the record's list
    of players and in the seats it was played from; a text that is no record comes back as it was."""
    try:
        record = GameRecord.loads(text)
    except RackoError:
        return text
    players = list(record.players) if record.players is not None else None
    if players is not None and 0 <= seat < len(players):
        players[seat] = name
    extra = dict(record.extra)
    played = extra.get(SAVE_KEY)
    if isinstance(played, dict) and isinstance(played.get("seats"), list) and 0 <= seat < len(played["seats"]):
        seats = [dict(spec) if isinstance(spec, dict) else spec for spec in played["seats"]]
        if isinstance(seats[seat], dict):
            seats[seat]["name"] = name
        extra[SAVE_KEY] = {**played, "seats": seats}
    changed = replace(record, players=tuple(players) if players else None, extra=extra)  # made_by and all kept
    return changed.dumps() if changed != record else text


def _where(error: OSError) -> str:
    return f" to {error.filename}" if error.filename else ""


def seats_from(record: GameRecord) -> list[SeatSpec]:
    """Who sits where in a saved game; a record that does not say raises :class:`RecordError`."""
    notes: Any = record.extra.get(SAVE_KEY)
    seats = notes.get("seats") if isinstance(notes, dict) else None
    if not isinstance(seats, list) or len(seats) != record.rules.players:
        raise RecordError("This record is not a saved game of racko play (it does not say who sits where).")
    specs = []
    playing = bots_for(record.rules.variant)
    for seat in seats:
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
            raise RecordError("A seat of the saved game has no name.")
        bot = seat.get("bot")
        if bot is not None and (not isinstance(bot, str) or bot not in bots.available()):
            raise RecordError(f"The saved game names an unknown bot: {bot!r}.")
        if bot is not None and bot not in playing:
            raise RecordError(f"The saved game seats the {bot} bot, which does not play this variant.")
        specs.append(SeatSpec(plain_name(seat["name"]), bot))
    return specs
