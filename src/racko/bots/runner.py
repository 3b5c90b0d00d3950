"""Let bots play rounds and games through the engine's one entry point."""

from __future__ import annotations

from collections.abc import Sequence

from racko.bots.base import Bot
from racko.match import Match, MatchOutcome
from racko.observation import RoundResult
from racko.round import Round


def play_round(round_: Round, bots: Sequence[Bot]) -> RoundResult:
    """Play ``round_`` to its end, each seat's bot acting on its own observation."""
    while True:
        seat = round_.to_act
        if seat is None:
            break
        round_.apply(bots[seat].act(round_.observation(seat)))
    assert round_.result is not None
    return round_.result


def play_match(match: Match, bots: Sequence[Bot]) -> MatchOutcome:
    """Play ``match`` to its end."""
    while True:
        seat = match.to_act
        if seat is None:
            break
        match.apply(bots[seat].act(match.observation(seat)))
    assert match.outcome is not None
    return match.outcome
