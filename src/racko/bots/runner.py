"""Let bots play rounds and games through the engine's one entry point."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from time import perf_counter
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

    def apply(self, action: Any) -> object: ...


DecisionTimes = Counter[int]
"""How long a bot took to decide: a histogram of decision times in steps of :data:`TIME_STEP` seconds
(a histogram, so that the times of many rounds and processes add up)."""
TIME_STEP = 1e-5


def _play_out(game: _Game, bots: Sequence[Bot], times: Sequence[DecisionTimes] | None) -> None:
    while True:
        seat = game.to_act
        if seat is None:
            return
        observation = game.observation(seat)
        if times is None:
            action = bots[seat].act(observation)
        else:
            started = perf_counter()
            action = bots[seat].act(observation)
            times[seat][int((perf_counter() - started) / TIME_STEP)] += 1
        game.apply(action)


def play_round(
    round_: AnyRound, bots: Sequence[Bot], times: Sequence[DecisionTimes] | None = None
) -> RoundResult | HighLowResult:
    """Play ``round_`` to its end, each seat's bot acting on its own observation (timed per seat into ``times``)."""
    _play_out(round_, bots, times)
    assert round_.result is not None
    return round_.result


def play_match(match: Match, bots: Sequence[Bot], times: Sequence[DecisionTimes] | None = None) -> MatchOutcome:
    """Play ``match`` to its end."""
    _play_out(match, bots, times)
    assert match.outcome is not None
    return match.outcome


def time_quantile(times: DecisionTimes, fraction: float) -> float:
    """The decision time (in milliseconds) below which ``fraction`` of the decisions fall; 0 with none."""
    total = sum(times.values())
    if not total:
        return 0.0
    wanted = fraction * total
    seen = 0
    for step in sorted(times):
        seen += times[step]
        if seen >= wanted:
            return (step + 0.5) * TIME_STEP * 1000
    return 0.0
