"""A whole game: rounds until a player (or a team) reaches the target score.

:class:`Match` owns the game's randomness: one seed decides the cut for the
first dealer and every round's shuffle, so the same seed and the same actions
give the same game.  Like a round, it changes only through :meth:`Match.apply`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from racko.errors import IllegalActionError, RoundOverError, SetupError
from racko.events import Event
from racko.families import AnyAction, AnyRound, family_of
from racko.highlow import HighLowEvent, HighLowObservation, HighLowResult, HighLowView
from racko.observation import Observation, PublicView, RoundResult
from racko.rules import Rules, is_whole


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """Who won the game, and the final totals per side (per seat, or per team in Partners)."""

    winner: int
    """The winning seat, or the winning team (0: seats 0+2, 1: seats 1+3) in Partners."""
    seats: tuple[int, ...]
    """The seats that won (two in Partners)."""
    totals: tuple[int, ...]
    """Final totals per side."""
    rounds: int


def match_winner(rules: Rules, sides: Sequence[int]) -> int | None:
    """The side that has won, if any: the highest total at or past the target, alone at the top.

    When the highest totals at or past the target are tied, nobody has won yet
    and another round is played (our decision; see docs/RULES.md).
    """
    best = max(sides)
    if best < rules.target or list(sides).count(best) > 1:
        return None
    return list(sides).index(best)


class Match:
    """A game of Rack-O to the target score.

    ``seed`` decides everything random (a fresh one is drawn when omitted and
    kept in :attr:`seed`).  ``first_dealer`` skips the cut.  ``decks`` and
    ``reshuffles`` replay recorded rounds: round *k* uses ``decks[k]`` when
    given, else a shuffle from the seed.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        first_dealer: int | None = None,
        decks: Sequence[Sequence[int]] = (),
        reshuffles: Sequence[Sequence[Sequence[int]]] = (),
    ) -> None:
        self.rules = rules
        self.family = family_of(rules)
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._decks = [tuple(deck) for deck in decks]
        for number, deck in enumerate(self._decks, start=1):
            if not self.family.deck_is_valid(rules, deck):
                what = self.family.deck_text(rules)
                raise SetupError(f"Round {number}: The deck must hold {what} (got {len(deck)} cards).")
        self._reshuffles = [tuple(tuple(order) for order in orders) for orders in reshuffles]
        cut, cut_dealer = self.family.cut_for_dealer(rules, self._rng("cut"))
        self.cut: tuple[int, ...] = cut
        """The cards cut for the first deal (the first cut, if a tie was cut again)."""
        if first_dealer is None:
            first_dealer = cut_dealer
        elif not is_whole(first_dealer) or not 0 <= first_dealer < rules.players:
            raise SetupError(f"The first dealer must be a seat from 0 to {rules.players - 1}, not {first_dealer!r}.")
        self.first_dealer = first_dealer
        self.seat_totals: list[int] = [0] * rules.players
        self.rounds: list[AnyRound] = []
        self._outcome: MatchOutcome | None = None
        self._start_round(first_dealer)

    def _rng(self, purpose: str) -> random.Random:
        # A generator per purpose, derived from the seed, so replaying recorded rounds leaves later ones unchanged.
        return random.Random(f"racko:{self.seed}:{purpose}")

    def _start_round(self, dealer: int) -> None:
        index = len(self.rounds)
        if index < len(self._decks):
            deck: Sequence[int] = self._decks[index]
        else:
            shuffled = self.family.full_deck(self.rules)
            self._rng(f"round:{index + 1}:deck").shuffle(shuffled)
            deck = shuffled
        reshuffles = self._reshuffles[index] if index < len(self._reshuffles) else ()
        self.rounds.append(
            self.family.new_round(
                self.rules,
                deck,
                dealer,
                rng=self._rng(f"round:{index + 1}:refills"),
                reshuffles=reshuffles,
                totals=self.seat_totals,
                number=index + 1,
            )
        )
        if self.rounds[-1].over:  # a Rack-O straight from the deal
            self._round_over()

    # --- Questions -------------------------------------------------------------------------

    @property
    def round(self) -> AnyRound:
        """The round being played (the last one, once the game is over)."""
        return self.rounds[-1]

    @property
    def over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> MatchOutcome | None:
        return self._outcome

    @property
    def to_act(self) -> int | None:
        return None if self._outcome is not None else self.round.to_act

    @property
    def totals(self) -> tuple[int, ...]:
        """Totals per side: per seat, or per team in Partners."""
        return self.rules.side_totals(self.seat_totals)

    @property
    def results(self) -> list[RoundResult | HighLowResult]:
        """The results of the finished rounds."""
        return [r.result for r in self.rounds if r.result is not None]

    @property
    def log(self) -> list[Event | HighLowEvent]:
        return [event for r in self.rounds for event in r.log]

    @property
    def actions(self) -> list[AnyAction]:
        return [action for r in self.rounds for action in r.actions]

    def check(self, action: AnyAction) -> None:
        """Raise the error that says why ``action`` is illegal now, if it is."""
        if self._outcome is not None:
            raise RoundOverError("The game is over: no more moves can be made.")
        self.round.check(action)  # type: ignore[arg-type]  # a wrong family's action is refused there

    def can(self, action: AnyAction) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def legal_actions(self) -> list[AnyAction]:
        actions: list[AnyAction] = [] if self._outcome is not None else list(self.round.legal_actions())
        return actions

    def legal_mask(self) -> list[bool]:
        return self.round.legal_mask()

    def observation(self, seat: int) -> Observation | HighLowObservation:
        return self.round.observation(seat)

    def public_view(self) -> PublicView | HighLowView:
        return self.round.public_view()

    # --- The one entry point that changes the game -----------------------------------------

    def apply(self, action: AnyAction) -> tuple[Event | HighLowEvent, ...]:
        """Apply ``action`` to the current round; deal the next round or end the game when it ends it.

        Returns every event this logged (the action's, and a next round's deal); an illegal action raises a typed
        :class:`IllegalActionError` from the round's one check and changes nothing.
        """
        if self._outcome is not None:
            raise RoundOverError("The game is over: no more moves can be made.")
        current = self.round
        rounds = len(self.rounds)
        events: tuple[Event | HighLowEvent, ...] = current.apply(action)  # type: ignore[arg-type]
        if current.over:
            self._round_over()
            events += tuple(event for later in self.rounds[rounds:] for event in later.log)
        return events

    def _round_over(self) -> None:
        result = self.round.result
        assert result is not None
        for seat, score in enumerate(result.scores):
            self.seat_totals[seat] += score
        sides = self.totals
        winner = match_winner(self.rules, sides)
        if winner is not None:
            seats = tuple(s for s in range(self.rules.players) if self.rules.side_of(s) == winner)
            self._outcome = MatchOutcome(winner, seats, sides, len(self.rounds))
            return
        self._start_round(self.family.next_dealer(self.rules, self.round))
