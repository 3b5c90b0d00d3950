"""Move advice from the expert, for a seat's own view: the hint at the table and ``racko hint`` on a record.

The advice is computed from the observation of the seat to act, never from hidden cards: a record is only
re-played to reach the position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from racko import bots
from racko.actions import CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.bots.expert import ExpertBot, Rating
from racko.errors import RackoError
from racko.families import AnyAction, AnyObservation, family_of
from racko.highlow import HighLowObservation, Replace, SwapCards
from racko.observation import Observation
from racko.play.session import seats_from
from racko.play.text import card_words
from racko.record import GameRecord, replay
from racko.rules import SLOT_LABELS

ADVISOR = "expert"
"""The bot whose judgement the hints use (the strongest)."""


@dataclass(frozen=True)
class Choice:
    action: AnyAction
    turns: float | None
    """The seat's own turns expected until it goes Rack-O after this choice, counting this turn (the advisor's
    estimate: its gap model and what the discard is worth to the next player at a table, play-outs in solitaire);
    0 for calling Rack-O, lower is better.  ``None`` where the advisor gives no estimate (High-Low)."""
    explanation: str


@dataclass(frozen=True)
class Hint:
    at: int
    """The number of actions played before this position."""
    seat: int
    observation: AnyObservation
    choices: tuple[Choice, ...]
    """The legal choices the advisor rates, best first (every one in the classic family; its own in High-Low)."""
    note: str | None = None
    """Why the position is not the one asked for (a finished game is advised at its last move)."""

    def to_json(self, count: int | None = None) -> dict[str, Any]:
        family = family_of(self.observation.rules)
        return {
            "at": self.at,
            "seat": self.seat,
            "advisor": ADVISOR,
            "choices": [
                {
                    "action": family.action_to_json(choice.action),
                    "turns_to_racko": None if choice.turns is None else round(choice.turns, 2),
                    "explanation": choice.explanation,
                }
                for choice in self.choices[:count]
            ],
        }


def hint_for(record: GameRecord, at: int | None = None, *, reveal: bool = False) -> Hint:
    """Advice for the seat to act after the ``at``-th action (default: after the last one; in a finished game,
    before its last move).

    The record of a game in progress holds every hidden card, so unless ``reveal`` is set, only a seat that is a
    player's own may be advised: in a save of ``racko play`` with one person at the table, that person's seat.
    """
    total = record.action_count
    final = replay(record)
    note = None
    position = total if at is None else at
    if at is None and final.over and total:
        position = total - 1
        note = f"The game is over after action {total}: here is the advice for its last move."
    if not 0 <= position <= total:
        raise RackoError(f"The record has {total} actions: choose --at from 0 to {total}.")
    match = replay(record, stop_after=position)
    seat = match.to_act
    if seat is None:
        raise RackoError("The game is over at that point: there is no move to advise.")
    if len(match.rounds) > len(record.rounds):
        raise RackoError(f"After action {position} the round is over, and the record holds no next round.")
    if not reveal and not final.over:
        _check_own_seat(record, seat)
    observation = match.observation(seat)
    return Hint(position, seat, observation, choices_for(observation), note)


def _check_own_seat(record: GameRecord, seat: int) -> None:
    try:
        people = [index for index, spec in enumerate(seats_from(record)) if spec.human]
    except RackoError:
        people = []
    if people == [seat]:
        return
    whose = f"the one person's seat (seat {people[0] + 1})" if len(people) == 1 else "no seat of it"
    raise RackoError(
        "This game is not finished, and its record holds every hidden card (every rack, the stock's order), "
        f"so racko hint advises {whose} without --reveal; seat {seat + 1} is to play here. "
        "Add --reveal to advise any seat."
    )


def choices_for(observation: AnyObservation) -> tuple[Choice, ...]:
    """The advisor's choices for this seat, best first, judged from its own observation only."""
    if isinstance(observation, HighLowObservation):
        return (_highlow_choice(observation),)
    return advice(observation)


def _highlow_choice(observation: HighLowObservation) -> Choice:
    # No rated list for High-Low yet: the expert's own move, said in words.
    action = bots.create(ADVISOR, seed=0).act(observation)
    held = observation.held if observation.held is not None else observation.public.passed_card
    if isinstance(action, Replace):
        card = card_words(held) if held is not None else "your card"
        return Choice(action, None, f"The expert would put {card} at position {action.position + 1}.")
    if isinstance(action, SwapCards):
        return Choice(action, None, f"The expert would swap positions {action.first + 1} and {action.second + 1}.")
    return Choice(action, None, "The expert would keep the row as it is.")


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
        upcoming = public.next_stock_card
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
    """The advisor's advice for this seat in sentences, judged from its own observation only: best first."""
    return [choice.explanation for choice in choices_for(observation)[:count]]
