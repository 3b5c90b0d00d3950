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
from racko.play.text import card_words, record_names
from racko.record import GameRecord, replay
from racko.rules import RACK_SIZE, SLOT_LABELS, Rules
from racko.scoring import longest_run, qualifies_for_racko

ADVISOR = "expert"
"""The bot whose judgement the hints use (the strongest)."""


REASONS = {
    "racko": "Call Rack-O: your rack qualifies, and the round is yours.",
    "wait": "Wait instead of calling Rack-O, hoping for a longer run ({after}).",
    "take": "Take {card} from the discard pile and put it in slot {slot}: {after}.",
    "draw-insured": "Draw from the stock and keep your rack if the card does not help: {after}.",
    "draw-next": "Draw from the stock: the turned-over pile shows the next card is {upcoming}; {after}.",
    "draw": "Draw from the stock: {after} on average over the cards that may come.",
    "exchange": "Put {held} in slot {slot}, discarding {out}: {after}.",
    "discard": "Discard {held} and keep your rack: {after}.",
    "highlow-place": "The expert would put {card} at position {position}.",
    "highlow-swap": "The expert would swap positions {first} and {second}.",
    "highlow-keep": "The expert would keep the row as it is.",
}
"""Why a choice is advised, by reason, in English (a front end in another language words the same reasons)."""
OUTLOOKS = {
    "racko": "that is Rack-O",
    "turns": "about {turns:.1f} turns to Rack-O, counting this one",
    "insured": "your ordered start would win the game even if somebody else went out first",
}
"""What a choice leads to, the ``{after}`` of a reason."""
CARD_VALUES = ("card", "held", "out", "upcoming")
"""The values of a reason that are cards (a front end says a card its own way: a number, the Wild, a Swap card)."""


@dataclass(frozen=True)
class Choice:
    action: AnyAction
    turns: float | None
    """The seat's own turns expected until it goes Rack-O after this choice, counting this turn (the advisor's
    estimate: its gap model and what the discard is worth to the next player at a table, play-outs in solitaire);
    0 for calling Rack-O, lower is better.  ``None`` where the advisor gives no estimate (High-Low)."""
    reason: str
    """Why, as a key of :data:`REASONS`."""
    values: dict[str, Any]
    """What the reason names: cards (:data:`CARD_VALUES`), slot labels, positions from 1, and ``outlook`` (a key of
    :data:`OUTLOOKS`) with ``turns``."""
    win_chance: float | None = None
    """The chance to win the round after this choice, from the seat's own view, from the play-outs of the review's
    measure (2 players; filled in by :func:`racko.analysis.explain.explained_choices`, else ``None``)."""
    game_chance: float | None = None
    """The chance to win the game from the scores after this choice, from the same play-outs: the measure the
    choices are ranked by with 2 players, as ``racko review`` grades (``None`` where turns are the measure, or where
    the compiled kernel predates the game's values and the round's chance ranks them)."""
    why: tuple[dict[str, Any], ...] = ()
    """Sentences that say why (filled in by :func:`racko.analysis.explain.explained_choices`): each a key of the
    shared words, the values it names and its English text."""

    @property
    def explanation(self) -> str:
        """The advice in an English sentence."""
        values = {
            key: (card_words(value) if value is not None else "your card") if key in CARD_VALUES else value
            for key, value in self.values.items()
        }
        if "outlook" in values:
            values["after"] = OUTLOOKS[values["outlook"]].format(turns=values.get("turns") or 0.0)
        return REASONS[self.reason].format(**values)


@dataclass(frozen=True)
class Hint:
    at: int
    """The number of actions played before this position."""
    seat: int
    observation: AnyObservation
    choices: tuple[Choice, ...]
    """The legal choices the advisor rates, best first (every one in the classic family; its own in High-Low)."""
    note: str | None = None
    """Why the position is not the one asked for (a record that ends with its game or its round over is advised at
    its last decision)."""

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
                    "win_chance": choice.win_chance,
                    "game_chance": choice.game_chance,
                    "why": list(choice.why),
                }
                for choice in self.choices[:count]
            ],
        }


def hint_for(record: GameRecord, at: int | None = None, *, reveal: bool = False) -> Hint:
    """Advice for the seat to act after the ``at``-th action (default: after the last one; where the record ends
    with its game or its round over, and so with nothing to decide, its last decision).

    The record of a game in progress holds every hidden card, so unless ``reveal`` is set, only a seat that is a
    player's own may be advised: in a save of ``racko play`` with one person at the table, that person's seat.
    """
    total = record.action_count
    final = replay(record)
    # A record may end where nobody is to act: its game over, or its last round over with no next round recorded.
    ended = final.over or len(final.rounds) > len(record.rounds)
    last = _last_decision(record, total) if ended else total
    note = None
    position = total if at is None else at
    if at is None and ended and total:
        position = last
        what = "game is over" if final.over else "round is over"
        unrecorded = "" if final.over else ", and the record holds no next round"
        note = f"The {what} after action {total}{unrecorded}: here is the advice for its last decision."
    if not 0 <= position <= total:
        raise RackoError(f"The record has {total} actions: choose --at from 0 to {last}.")
    match = replay(record, stop_after=position)
    seat = match.to_act
    if seat is None or len(match.rounds) > len(record.rounds):
        over = "game is over" if match.over else "round is over, and the record holds no next round"
        raise RackoError(
            f"After action {position} the {over}: there is no move to advise; choose --at from 0 to {last}."
        )
    if not reveal and not final.over:
        _check_own_seat(record, seat)
    observation = match.observation(seat)
    legal = observation.legal_actions()
    if len(legal) == 1 and isinstance(legal[0], Wait):
        name = record_names(record.players, record.rules.players)[seat]
        raise RackoError(
            f"After action {position} {name} has nothing to decide: the rack does not qualify for Rack-O, so the "
            "turn ends by itself (racko play and the browser move on at once). Choose another --at."
        )
    return Hint(position, seat, observation, choices_for(observation), note)


def _last_decision(record: GameRecord, total: int) -> int:
    """The last position of a record where the seat to act had more than one move (the last action's, unless that
    was forced)."""
    for position in range(total - 1, -1, -1):
        match = replay(record, stop_after=position)
        seat = match.to_act
        if seat is not None and len(match.observation(seat).legal_actions()) > 1:
            return position
    return max(0, total - 1)


def own_seat(record: GameRecord) -> int | None:
    """The seat of the one person at the table of a ``racko play`` save, else ``None`` (no person, or several at
    one screen): in a game in progress, the only seat whose own view a tool may show without ``--reveal``."""
    try:
        people = [index for index, spec in enumerate(seats_from(record)) if spec.human]
    except RackoError:
        people = []
    return people[0] if len(people) == 1 else None


def _check_own_seat(record: GameRecord, seat: int) -> None:
    person = own_seat(record)
    if person == seat:
        return
    names = record_names(record.players, record.rules.players)
    whose = f"only the one person at the table ({names[person]})" if person is not None else "no seat of it"
    raise RackoError(
        "This game is not finished, and its record holds every hidden card (every rack, the stock's order), "
        f"so racko hint advises {whose} without --reveal; {names[seat]} is to play here. "
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
        return Choice(action, None, "highlow-place", {"card": held, "position": action.position + 1})
    if isinstance(action, SwapCards):
        return Choice(action, None, "highlow-swap", {"first": action.first + 1, "second": action.second + 1})
    return Choice(action, None, "highlow-keep", {})


def advice(observation: Observation, seed: int = 0) -> tuple[Choice, ...]:
    """Every legal choice for this seat, best first, judged from its own observation by the advisor.

    The advisor's play-outs (solitaire) and sampled racks of the opponent (2 players) are seeded, so the same
    position always gets the same advice.
    """
    rated = ExpertBot(seed=seed).rate(observation, every_move=True)
    return tuple(Choice(rating.action, rating.turns, *_reason(observation, rating)) for rating in rated)


def _reason(observation: Observation, rating: Rating) -> tuple[str, dict[str, Any]]:
    public = observation.public
    action = rating.action
    outlook = "insured" if rating.insured else "racko" if rating.turns <= 1 else "turns"
    after: dict[str, Any] = {"outlook": outlook, "turns": round(rating.turns, 1)}
    if isinstance(action, CallRacko):
        return "racko", {}
    if isinstance(action, Wait):
        return "wait", after
    if isinstance(action, TakeDiscard):
        card = public.discard_pile[-1]
        slot = rating.slot if rating.slot is not None else _keeping_slot(observation.rack, card, public.rules)
        return "take", {"card": card, "slot": SLOT_LABELS[slot], **after}
    if isinstance(action, DrawFromStock):
        upcoming = public.next_stock_card
        if rating.insured:
            return "draw-insured", after
        if upcoming is not None:
            return "draw-next", {"upcoming": upcoming, **after}
        return "draw", after
    if isinstance(action, Exchange):
        values = {"held": observation.held, "slot": SLOT_LABELS[action.slot], "out": observation.rack[action.slot]}
        return "exchange", {**values, **after}
    assert isinstance(action, Discard)
    return "discard", {"held": observation.held, **after}


def _keeping_slot(rack: tuple[int, ...], card: int, rules: Rules) -> int:
    """Where a taken card goes when the advisor names no slot (a Bonus rack that could go out, taking instead of
    calling): a slot where the rack still qualifies, with the longest run; else the slot whose card is nearest."""
    placed = [(slot, (*rack[:slot], card, *rack[slot + 1 :])) for slot in range(RACK_SIZE)]
    keeping = [(longest_run(after), -slot) for slot, after in placed if qualifies_for_racko(after, rules)]
    if keeping:
        return -max(keeping)[1]
    return min(range(RACK_SIZE), key=lambda slot: abs(rack[slot] - card))


def hint_lines(observation: AnyObservation, count: int = 3) -> list[str]:
    """The advisor's advice for this seat in sentences, judged from its own observation only: best first."""
    return [choice.explanation for choice in choices_for(observation)[:count]]
