"""Move advice from the expert, for a seat's own view: the hint at the table and ``racko hint`` on a record.

The advice is computed from the observation of the seat to act, never from hidden cards: a record is only
re-played to reach the position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from racko import bots
from racko.actions import Action, CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait, action_to_json
from racko.bots.expert import ExpertBot, Rating, next_stock_card
from racko.errors import RackoError
from racko.families import AnyObservation
from racko.highlow import HighLowObservation, KeepOrder, Replace, SwapCards
from racko.observation import Observation
from racko.play.text import card_words
from racko.record import GameRecord, replay
from racko.rules import SLOT_LABELS

ADVISOR = "expert"
"""The bot whose judgement the hints use (the strongest)."""


@dataclass(frozen=True)
class Choice:
    action: Action
    turns: float
    """The seat's own turns expected until it goes Rack-O after this choice, counting this turn (the advisor's
    estimate: its gap model and what the discard is worth to the next player at a table, play-outs in solitaire);
    0 for calling Rack-O, lower is better."""
    explanation: str


@dataclass(frozen=True)
class Hint:
    at: int
    """The number of actions played before this position."""
    seat: int
    observation: Observation
    choices: tuple[Choice, ...]
    """Every legal choice, best first."""

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "seat": self.seat,
            "advisor": ADVISOR,
            "choices": [
                {"action": action_to_json(c.action), "turns_to_racko": round(c.turns, 2), "explanation": c.explanation}
                for c in self.choices
            ],
        }


def hint_for(record: GameRecord, at: int | None = None) -> Hint:
    """Advice for the seat to act after the ``at``-th action (default: after the last one)."""
    total = record.action_count
    position = total if at is None else at
    if not 0 <= position <= total:
        raise RackoError(f"The record has {total} actions: choose --at from 0 to {total}.")
    match = replay(record, stop_after=position)
    seat = match.to_act
    if seat is None:
        raise RackoError("The game is over at that point: there is no move to advise.")
    if len(match.rounds) > len(record.rounds):
        raise RackoError(f"After action {position} the round is over, and the record holds no next round.")
    observation = match.observation(seat)
    if not isinstance(observation, Observation):
        raise RackoError("Hints are for the classic variants only (not yet High-Low).")
    return Hint(position, seat, observation, advice(observation))


def advice(observation: Observation, seed: int = 0) -> tuple[Choice, ...]:
    """Every legal choice for this seat, best first, judged from its own observation by the advisor.

    The advisor's play-outs (solitaire) are seeded, so the same position always gets the same advice.
    """
    rated = ExpertBot(seed=seed).rate(observation, every_move=True)
    return tuple(Choice(rating.action, rating.turns, _explain(observation, rating)) for rating in rated)


def _explain(observation: Observation, rating: Rating) -> str:
    public = observation.public
    action = rating.action
    after = _turns(rating.turns)
    if rating.insured:
        after = "your ordered start would win the game even if somebody else went out first"
    if isinstance(action, CallRacko):
        return "Call Rack-O: your rack qualifies, and the round is yours."
    if isinstance(action, Wait):
        return f"Wait instead of calling Rack-O, hoping for a longer run ({after})."
    if isinstance(action, TakeDiscard):
        card = public.discard_pile[-1]
        assert rating.slot is not None
        return f"Take {card} from the discard pile and put it in slot {SLOT_LABELS[rating.slot]}: {after}."
    if isinstance(action, DrawFromStock):
        upcoming = next_stock_card(public)
        if rating.insured:
            return f"Draw from the stock and keep your rack if the card does not help: {after}."
        if upcoming is not None:
            return f"Draw from the stock: the turned-over pile shows the next card is {upcoming}; {after}."
        return f"Draw from the stock: {after} on average over the cards that may come."
    if isinstance(action, Exchange):
        held = observation.held
        return f"Put {held} in slot {SLOT_LABELS[action.slot]}, discarding {observation.rack[action.slot]}: {after}."
    assert isinstance(action, Discard)
    return f"Discard {observation.held} and keep your rack: {after}."


def _turns(turns: float) -> str:
    if turns <= 1:
        return "that is Rack-O"
    return f"about {turns:.1f} turns to Rack-O, counting this one"


def hint_lines(observation: AnyObservation, count: int = 3) -> list[str]:
    """The expert's advice for this seat in sentences, judged from its own observation only: best first."""
    if isinstance(observation, HighLowObservation):
        # No rated list for High-Low yet: the expert's own move, said in words.
        action = bots.create(ADVISOR, seed=0).act(observation)
        held = observation.held if observation.held is not None else observation.public.passed_card
        if isinstance(action, Replace):
            card = card_words(held) if held is not None else "your card"
            return [f"The expert would put {card} at position {action.position + 1}."]
        if isinstance(action, SwapCards):
            return [f"The expert would swap positions {action.first + 1} and {action.second + 1}."]
        assert isinstance(action, KeepOrder)
        return ["The expert would keep the row as it is."]
    return [choice.explanation for choice in advice(observation)[:count]]
