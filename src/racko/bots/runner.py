"""Let bots play rounds and games through the engine's one entry point."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from racko.bots.base import Bot
from racko.families import AnyObservation, AnyRound
from racko.highlow import HighLowResult
from racko.match import Match, MatchOutcome
from racko.observation import RoundResult


class _Game(Protocol):
    @property
    def to_act(self) -> int | None: ...

    def observation(self, seat: int) -> AnyObservation: ...

    def apply(self, action: Any) -> None: ...


def _play_out(game: _Game, bots: Sequence[Bot]) -> None:
    while True:
        seat = game.to_act
        if seat is None:
            return
        game.apply(bots[seat].act(game.observation(seat)))


def play_round(round_: AnyRound, bots: Sequence[Bot]) -> RoundResult | HighLowResult:
    """Play ``round_`` to its end, each seat's bot acting on its own observation."""
    _play_out(round_, bots)
    assert round_.result is not None
    return round_.result


def play_match(match: Match, bots: Sequence[Bot]) -> MatchOutcome:
    """Play ``match`` to its end."""
    _play_out(match, bots)
    assert match.outcome is not None
    return match.outcome
