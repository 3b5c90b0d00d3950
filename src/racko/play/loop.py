"""The one play loop: every front end follows a game as a series of typed steps.

A :class:`Screen` is one place where people watch and play a game (a terminal, a browser tab, a demo's output).
It asks for the next step and renders it; it never works out what happened, counts rounds or decides what is
legal.  The steps are:

- :class:`Told`: what happened, in words, as this screen's viewer may see it;
- :class:`Notice`: something the players must know that is not a move (a save that failed);
- :class:`RoundOver`: a round ended; the report may show every rack (the round's end reveals them);
- :class:`HandOver`: hot-seat play, the screen passes to another person, who confirms with :meth:`Screen.at_screen`;
- :class:`PersonToAct`: a person's turn, with their view, the verbs legal now and the situation to word;
- :class:`ComputerToAct`: a computer player's turn; the front end picks the pace and calls :meth:`Screen.computer_move`;
- :class:`GameOver`: the game has ended.

Nothing a seat may not know reaches a screen through a step: the narration is the log as the screen's viewer
sees it (in hot-seat play, the public log), and a seat's view comes only when that seat is the one at the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from racko.actions import CallRacko, Discard, DrawFromStock, TakeDiscard, Wait
from racko.families import AnyAction, AnyObservation, family_of
from racko.highlow import HighLowObservation, HighLowPhase, HighLowResult, KeepOrder
from racko.match import MatchOutcome
from racko.observation import Phase, RoundResult
from racko.play.session import PlaySession
from racko.play.text import card_words
from racko.rules import Rules

SituationKind = Literal["pick", "pick-or-call", "place-taken", "place-drawn", "declare", "place-in-row", "swap"]


@dataclass(frozen=True)
class Situation:
    """Where a person's turn stands, for the front end to put in words.

    ``pick``: draw or take; ``pick-or-call``: the rack qualifies (Bonus), so also call Rack-O; ``place-taken`` /
    ``place-drawn``: a card in hand (``card``) from the discard pile / the stock; ``declare``: call or wait;
    ``place-in-row``: High-Low, the card in hand goes into the row; ``swap``: High-Low, after a Swap card.
    """

    kind: SituationKind
    card: int | None = None

    def worded(self, prompts: Mapping[str, str]) -> str:
        """The situation in a front end's own words: ``prompts`` by kind, ``{card}`` standing for the card."""
        return prompts[self.kind].format(card=card_words(self.card) if self.card is not None else "")


@dataclass(frozen=True)
class Told:
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Notice:
    text: str


@dataclass(frozen=True)
class RoundOver:
    number: int
    result: RoundResult | HighLowResult
    last: bool
    """Whether this round ended the game."""


@dataclass(frozen=True)
class _SeatStep:
    seat: int
    name: str


@dataclass(frozen=True)
class HandOver(_SeatStep):
    pass


@dataclass(frozen=True)
class PersonToAct(_SeatStep):
    observation: AnyObservation
    verbs: frozenset[str]
    """The kinds of action legal now (``draw``, ``take``, ``exchange``, ``discard``, ``racko``, ``wait``;
    High-Low: ``replace``, ``swap``, ``keep``)."""
    situation: Situation


@dataclass(frozen=True)
class ComputerToAct(_SeatStep):
    pass


@dataclass(frozen=True)
class GameOver:
    outcome: MatchOutcome
    winners: str
    """The winner's name, or the partners' names joined by " & "."""


COMPUTER_PACE = 0.8
"""Seconds between computer players' moves where people watch (``racko play``, ``racko demo``): the table's pace."""

SEAT_ONLY_ACTIONS: dict[str, Callable[[int], AnyAction]] = {
    "draw": DrawFromStock,
    "take": TakeDiscard,
    "discard": Discard,
    "racko": CallRacko,
    "wait": Wait,
    "keep": KeepOrder,
}
"""The actions that name nothing but the seat, by verb: a key or a word becomes one of these."""

Step = Told | Notice | RoundOver | HandOver | PersonToAct | ComputerToAct | GameOver


def game_verbs(rules: Rules) -> frozenset[str]:
    """The kinds of action a player of these rules ever takes (a front end offers exactly these)."""
    return family_of(rules).verbs(rules)


def situation_of(observation: AnyObservation) -> Situation:
    """What the seat to act is doing now, read from its own observation."""
    if isinstance(observation, HighLowObservation):
        if observation.public.phase is HighLowPhase.SWAP:
            return Situation("swap")
        held = observation.held if observation.held is not None else observation.public.passed_card
        return Situation("place-in-row", held)
    public = observation.public
    if public.phase is Phase.PLACE:
        taken = public.taken_discard is not None
        return Situation("place-taken" if taken else "place-drawn", observation.held)
    if public.phase is Phase.DECLARE:
        return Situation("declare")
    if any(action.kind == "racko" for action in observation.legal_actions()):
        return Situation("pick-or-call")
    return Situation("pick")


class Screen:
    """One screen following a game: what it has been told, which round ends it has shown, who sits at it.

    With one person at the table, the narration is that person's view.  With several people sharing the screen
    (hot-seat), it is the public view, and a seat's own cards may be shown only after :class:`HandOver` was
    answered by :meth:`at_screen`.  With nobody (a demo), it is the public view.
    """

    def __init__(self, session: PlaySession) -> None:
        self.session = session
        humans = session.humans
        self.shared = len(humans) > 1
        """Several people share this screen (hot-seat play)."""
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        """Whose view the narration takes: the one person, else only what everyone sees."""
        match = session.match
        # A screen on a fresh game follows it from its deal (even a round that ended there, by a Rack-O at the
        # deal); a screen joining a game under way is told its current round.
        first = 1 if not match.actions else len(match.rounds)
        self._reported = first - 1
        self._version = session.round_start(first)
        self._problem: str | None = None
        self._at_screen: int | None = None

    @property
    def shown_seat(self) -> int | None:
        """The seat whose own cards this screen may show now, if any."""
        return self._at_screen if self.shared else self.viewer

    def at_screen(self, seat: int) -> None:
        """The person in ``seat`` has confirmed that they are at the screen (the answer to :class:`HandOver`)."""
        self._at_screen = seat

    def next_step(self) -> Step:
        """The next thing this screen must show or ask; call again after rendering it (or after acting)."""
        session = self.session
        match = session.match
        results = match.results
        # The narration stops at the end of the first round not yet reported, so its report comes before the next deal.
        stop = session.version
        if self._reported < len(results):
            stop = session.round_start(self._reported + 1) + len(match.rounds[self._reported].log)
        if self._version < stop:
            lines = session.lines_between(self._version, stop, self.viewer)
            self._version = stop
            if lines:
                return Told(tuple(lines))
        problem = session.save_problem
        if problem != self._problem:
            self._problem = problem
            if problem is not None:
                return Notice(problem)
        if self._reported < len(results):
            self._reported += 1
            if self.shared:
                self._at_screen = None  # the next round's racks are new: each player lifts the curtain again
            last = match.over and self._reported == len(results)
            return RoundOver(self._reported, results[self._reported - 1], last)
        outcome = match.outcome
        if outcome is not None:
            winners = " & ".join(session.names[seat] for seat in outcome.seats)
            return GameOver(outcome, winners)
        seat = session.to_act
        assert seat is not None
        name = session.names[seat]
        if not session.seats[seat].human:
            return ComputerToAct(seat, name)
        if self.shared and self._at_screen != seat:
            self._at_screen = None
            return HandOver(seat, name)
        observation = session.observation(seat)
        verbs = frozenset(action.kind for action in observation.legal_actions())
        return PersonToAct(seat, name, observation, verbs, situation_of(observation))

    def play(self, action: AnyAction) -> None:
        """A person's action; an illegal one raises :class:`~racko.errors.IllegalActionError` and changes nothing."""
        self.session.play(action)

    def computer_move(self) -> AnyAction:
        """Let the computer player to act move; returns its action."""
        return self.session.play_bot()
