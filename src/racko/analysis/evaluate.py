"""A move's worth from one seat's own view: its chance to win the round, or the turns it leaves to go out.

Everything here is judged from the seat's observation (and its earlier observations of the round), never from a
card it cannot see.  The machinery is the computer players' (:mod:`racko.bots`); nothing is simulated twice:

- **2 players** (classic, with or without the 2-player rule, and Bonus Rack-O): the chance to win the round,
  from ``master``'s races (the kernel ``racko.bots._rollout.race``).  Each play-out deals the cards this seat has
  not seen into the opponent's hidden slots by ``master``'s slot weights (where a card should sit, from the
  opponent's cards in view, what left each slot and how long it has played: :func:`racko.bots.guess.slot_weights`;
  ``master``'s further sharpening by the likelihood of its choices is left out, :data:`GUESS_SWEEPS`), shuffles the
  rest into the stock (a turned-over pile's known order first), then plays both seats, turn about, the way the
  races play them, until one rack goes out.  Every move meets the same sampled racks and stocks, so that their
  differences are not drowned in luck.
- **Alone**: the turns to go Rack-O, from ``master``'s solitaire play-outs (:func:`racko.bots.rollout.estimate`,
  the seat in them weighing the discard against the average draw).
- **3 or 4 players**, Partners: the turns to go out, from the same play-outs with the other seats drawing and
  discarding (the races play two seats only).
- **High-Low**: the turns to go out by ``expert``'s own rating of each move (its gap model of rows that read either
  way, the card handed on counted); no play-outs.

Where play-outs are used, the moves race in two stages: all legal moves with :data:`FIRST_PLAYOUTS` each, then
the best few (and the move actually played, when one is asked about) with :data:`MORE_PLAYOUTS` more, on the same
deals.  A hint shows several moves side by side: it asks for them (``shown``), and every line whose first figure would
place it among them is raced again too, so that the moves shown all rest on the same play-outs (a line never raced
again keeps its rough figure, and says so: :attr:`MoveValue.playouts`).  Among moves as good, one that goes out at
once ranks first.  The spread of these estimates, and the class boundaries of the review that follow from it, are
measured in docs/REVIEW.md (``racko review-spread``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from racko.actions import Action, CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.analysis.game_chance import after_round, game_chance
from racko.bots.expert import SOLITAIRE_GAPS, TABLE_GAPS, ExpertBot, calls_now, denial_costs, turns_from_draws
from racko.bots.expert_highlow import GIFT
from racko.bots.gaps import cards_that_may_come
from racko.bots.guess import guess_applies, hidden_cards, watched
from racko.bots.highlow_gaps import DENIAL, HIGHLOW_GAPS, RowValuer, card_in_hand, passing_costs, unseen_cards
from racko.bots.master import MasterBot
from racko.bots.rollout import Candidate, World, estimate, kernel_available
from racko.errors import RackoError
from racko.families import CLASSIC, HIGHLOW, AnyAction, AnyObservation, AnyRound, family_of
from racko.highlow import HighLowObservation, HighLowPhase, KeepOrder, Replace, SwapCards
from racko.observation import Observation, Phase
from racko.rules import BONUS_FOR_RUN, POINTS_PER_CARD, RACK_SIZE, RACKO_SCORE
from racko.scoring import longest_run, qualifies_for_racko

try:  # the compiled kernel of the computer players; absent when racko was installed without a C compiler
    from racko.bots import _rollout as _kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _kernel = None

Measure = Literal["win_chance", "turns", "game_chance"]
"""``win_chance``: the chance (0 to 1) of winning the round, higher is better.  ``turns``: the seat's own turns
until it goes out, counting this one, lower is better.  ``game_chance``: the chance (0 to 1) of winning the game
from the scores after the round's play-outs (:mod:`racko.analysis.game_chance`), higher is better: the review's
measure with 2 players (``Judge(game=True)``)."""

FIRST_PLAYOUTS = 32
"""Play-outs per legal move in the first stage."""
MORE_PLAYOUTS = 160
"""Play-outs more, on the same deals, for each move of the second stage."""
FINALISTS = 2
"""Moves (besides the one played) carried into the second stage, best of the first first."""
RACE_CAP = MasterBot.race_cap
"""Turns per seat after which a race counts as a draw (half a win)."""
TURNS_CAP = ExpertBot.cap
"""Turns after which a solitaire play-out stops."""
MASK = (1 << 64) - 1
GUESS_SWEEPS = 0
"""Gibbs sweeps of ``master``'s guess of the opponent's hidden rack per decision (``master`` plays with 8).  With
0 the guess is the slot weights alone.  Measured (docs/REVIEW.md): the sweeps' chain settles on one of the racks
that fit what the opponent did, a different one with another seed, so that a review's losses spread 0.025 between
seeds with 8 sweeps and 0.016 without, and classes agree between seeds in 76 % and 79 % of decisions; the levels
are told apart as well (or better) without them."""


class KernelTooOldError(RackoError):
    """The compiled rollout kernel predates the game's values (issue 37): it races for the round's chance only."""


@dataclass(frozen=True)
class MoveValue:
    """One legal move and its worth."""

    action: AnyAction
    value: float
    """In the evaluation's measure (see :data:`Measure`)."""
    slot: int | None = None
    """Taking the top discard: the slot it goes to in the best line found (the next decision says where)."""
    playouts: int = 0
    """Play-outs behind this figure: the first stage's alone for a move never raced again (0: a rating without
    play-outs, or a forced outcome)."""
    round_chance: float | None = None
    """With the game's measure: the chance to win the round, from the same play-outs."""


@dataclass(frozen=True)
class Evaluation:
    """Every legal move of one decision with its worth, best first."""

    seat: int
    measure: Measure
    moves: tuple[MoveValue, ...]
    playouts: int
    """Play-outs behind the best move's figure (0: a rating without play-outs, or a forced outcome)."""

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def value_of(self, action: AnyAction) -> MoveValue:
        """The worth of ``action`` (a take is the same move whichever slot the card then goes to)."""
        for move in self.moves:
            if move.action == action:
                return move
        raise RackoError(f"{action.describe()} is not a move of this decision.")

    def loss(self, action: AnyAction) -> float:
        """How much worse ``action`` is than the best move, in the measure's units (never below 0)."""
        return self.difference(self.best.value, self.value_of(action).value)

    def difference(self, best: float, other: float) -> float:
        return max(0.0, other - best) if self.measure == "turns" else max(0.0, best - other)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "measure": self.measure,
            "playouts": self.playouts,
            "moves": [
                {"action": action_json(move.action), "value": round(move.value, 4), "slot": move.slot}
                for move in self.moves
            ],
        }


def action_json(action: AnyAction) -> dict[str, Any]:
    """A move as records write it (slots by their labels 5-50, High-Low positions from 1)."""
    if isinstance(action, Replace | SwapCards | KeepOrder):
        return HIGHLOW.action_to_json(action)
    return CLASSIC.action_to_json(action)


def measure_of(observation: AnyObservation) -> Measure:
    """The measure this seat's decisions are judged by (see the module's description)."""
    if isinstance(observation, Observation) and guess_applies(observation) and kernel_available():
        return "win_chance"
    return "turns"


class _Guesser(MasterBot):
    """``master``'s guess of the opponent's rack, with :data:`GUESS_SWEEPS` sweeps."""

    sweeps = GUESS_SWEEPS


class Judge:
    """Judges one seat's decisions through a round, from its own view.

    In a 2-player round it carries ``master``'s guess of the opponent's hidden rack from turn to turn: show it every
    observation of the seat in order (:meth:`see`; :meth:`evaluate` sees the one it is given), and a guess with
    sweeps (:data:`GUESS_SWEEPS`) is sharpened by every turn of the opponent's that the seat watched.
    """

    def __init__(
        self,
        seat: int,
        seed: int = 0,
        *,
        first: int = FIRST_PLAYOUTS,
        more: int = MORE_PLAYOUTS,
        shown: int = 1,
        game: bool = False,
    ) -> None:
        self.seat = seat
        self.game = game
        """Judge 2-player moves by the chance to win the game (``game_chance``), not the round."""
        self._last: tuple[Observation, list[Line], list[float]] | None = None
        self.seed = seed
        self.first = first
        self.more = more
        self.shown = shown
        """How many of the best moves must rest on every play-out (a hint shows several side by side)."""
        self.guesser = _Guesser(seed=seed)
        self.decisions = 0
        self._weights: tuple[tuple[int, int, tuple[int, ...]], list[float]] | None = None

    def see(self, observation: AnyObservation) -> None:
        """Follow the round: read the opponent's last turn, as ``master`` does at each of its picks."""
        if isinstance(observation, Observation) and guess_applies(observation) and _kernel is not None:
            self.guesser.watch = watched(self.guesser.watch, observation)

    def evaluate(self, observation: AnyObservation, played: AnyAction | None = None) -> Evaluation:
        """Every legal move of the seat's decision, best first; ``played`` (a legal move) is always judged in full."""
        if observation.seat != self.seat:
            raise RackoError(f"This judge follows seat {self.seat}, not seat {observation.seat}.")
        legal: list[Any] = observation.legal_actions()
        if not legal:
            raise RackoError("It is not this seat's turn: there is no decision to judge.")
        if played is not None and played not in legal:
            raise RackoError(f"{played.describe()} is not a legal move here.")
        self.see(observation)
        self._last = None
        self.decisions += 1
        seed = random.Random(self.seed * 1_000_003 + self.decisions).getrandbits(63)
        if isinstance(observation, HighLowObservation):
            return _rate_highlow(observation)
        measure = measure_of(observation)
        if self.game and measure == "win_chance":
            measure = "game_chance"
        if len(legal) == 1:
            raise RackoError("There is only one legal move here: nothing to choose.")
        rack = observation.rack
        if qualifies_for_racko(rack, observation.public.rules) and observation.public.phase is not Phase.PLACE:
            assert isinstance(observation, Observation)
            if measure == "game_chance":
                return self._call_or_wait(observation, legal, seed)
            return _call_or_play_on(observation, measure, legal)
        return self._play_out(observation, measure, legal, played, seed)

    def _play_out(
        self, observation: Observation, measure: Measure, legal: list[Action], played: AnyAction | None, seed: int
    ) -> Evaluation:
        lines = candidate_lines(observation, legal)
        rounds = [0.0] * len(lines)
        if measure == "turns":
            run = self._turns(observation)
        else:
            races = self._races(observation, game=measure == "game_chance")

            def run(candidates: list[Candidate], rollouts: int, seed: int) -> list[float]:
                found = races([(c.rack, c.top, int(c.draws_first)) for c in candidates], rollouts, seed)
                for candidate, outcome in zip(candidates, found, strict=True):
                    rounds[next(i for i, line in enumerate(lines) if line.candidate is candidate)] = outcome.round
                return [outcome.value for outcome in found]

        first = run([line.candidate for line in lines], self.first, seed)
        first_rounds = list(rounds)
        higher = measure != "turns"
        order = sorted(range(len(lines)), key=lambda index: first[index], reverse=higher)
        values = list(first)
        refined: set[int] = set()
        depths = [self.first] * len(lines)
        second_seed = seed ^ 0x5DEECE66D  # the same deals for every line refined, whenever it is

        def refine(chosen: list[int]) -> None:
            more = run([lines[index].candidate for index in chosen], self.more, second_seed)
            for index, value in zip(chosen, more, strict=True):
                values[index] = (first[index] * self.first + value * self.more) / (self.first + self.more)
                rounds[index] = (first_rounds[index] * self.first + rounds[index] * self.more) / (
                    self.first + self.more
                )
                depths[index] = self.first + self.more
            refined.update(chosen)

        refine(_finalists(lines, order, played))
        while True:
            # A line left at its first figure must not outrank the lines measured again: race it too.
            leader = max(values[index] if higher else -values[index] for index in refined)
            challengers = [
                index
                for index in order
                if index not in refined and (values[index] if higher else -values[index]) > leader
            ]
            if not challengers:
                break
            refine(challengers[:FINALISTS])
        while self.shown > 1:
            # Every line whose rough figure would rank it among the moves shown is raced again: the moves shown side
            # by side then rest on the same play-outs, in their true order.
            ranked = _collapse(lines, values, depths, measure)
            bar = ranked[min(self.shown, len(ranked)) - 1].value
            challengers = [
                index
                for index in order
                if index not in refined and (values[index] >= bar if higher else values[index] <= bar)
            ]
            if not challengers:
                break
            refine(challengers[:FINALISTS])
        moves = _collapse(lines, values, depths, measure, rounds if measure == "game_chance" else None)
        self._last = (observation, lines, values)
        return Evaluation(self.seat, measure, moves, self.first + self.more)

    def _races(self, observation: Observation, *, game: bool = False) -> Callable[[list[Race], int, int], list[Raced]]:
        """Each candidate's chance that the seat goes out first (``round``), from ``master``'s races, and its worth
        (``value``): the same chance, or with ``game`` the chance to win the game after the round's outcome.  A
        candidate is (rack, top, draws_first): 0 the seat has played its turn, 1 it still draws, 2 the opponent
        plays first whatever the rack (waiting with a rack that may go out)."""
        public = observation.public
        hidden = hidden_cards(observation)
        weights = self._guess(observation, hidden)
        opponent = [card or 0 for card in public.known[1 - observation.seat]]
        pile = public.discard_pile if public.phase is Phase.PLACE else public.discard_pile[:-1]
        rules = public.rules
        table = game_values(observation) if game else None

        def run(candidates: list[Race], rollouts: int, seed: int) -> list[Raced]:
            assert _kernel is not None
            arguments = [
                rules.deck_size,
                rules.two_player_rule,
                hidden,
                weights,
                opponent,
                public.known_stock_order,
                pile,
                candidates,
                rollouts,
                seed & MASK,
                RACE_CAP,
            ]
            # the values only where asked: a kernel built before them still races for the round's chance
            try:
                tallies = _kernel.race(*arguments) if table is None else _kernel.race(*arguments, table)
            except TypeError as error:  # a kernel compiled before the game's values (issue 37)
                raise KernelTooOldError(
                    "The compiled rollout kernel is older than this racko: build it again (pip install -e ., or "
                    f"python setup.py build_ext --inplace) to review by the chance to win the game ({error})."
                ) from None
            found = []
            for tally in tallies:
                chance = (tally[0] + 0.5 * tally[1]) / rollouts
                if table is None:
                    found.append(Raced(chance, chance, 0.0, 0.0, rollouts))
                else:
                    found.append(Raced(tally[4] / rollouts, chance, tally[5] / rollouts, tally[6] / rollouts, rollouts))
            return found

        return run

    def has_lines(self) -> bool:
        """Whether the last decision judged was raced line by line (:meth:`compare` may race its moves again)."""
        return self._last is not None

    def compare_in_stages(
        self,
        best: AnyAction,
        played: AnyAction,
        stages: Sequence[int],
        seed_text: str,
        best_slot: int | None = None,
        clear: Callable[[float, float], bool] = lambda loss, error: False,
    ) -> tuple[float, float, int]:
        """:meth:`compare` on fresh deals in ``stages`` of play-outs, their differences pooled, stopping after a
        stage once ``clear(loss, error)`` says the pooled loss is plainly on one side of what matters; each stage's
        deals are seeded by ``seed_text`` and the play-outs raced before it.  The pooled loss (best minus played),
        its standard error, and the play-outs raced."""
        total = mean = square = error = 0.0
        for rollouts in stages:
            seed = random.Random(f"{seed_text}:{total}").getrandbits(63)
            raced = self.compare(best, played, rollouts, seed, best_slot)
            mean = (mean * total + raced.difference * rollouts) / (total + rollouts)
            square = (square * total + raced.square * rollouts) / (total + rollouts)
            total += rollouts
            error = math.sqrt(max(0.0, square - mean * mean) / total)
            if clear(mean, error):
                break
        return mean, error, int(total)

    def compare(
        self, best: AnyAction, played: AnyAction, rollouts: int, seed: int, best_slot: int | None = None
    ) -> Raced:
        """The last decision judged (:meth:`evaluate`, game's measure): ``best`` (at ``best_slot`` for a take)
        against ``played`` (a take at its best slot on these deals), raced again on ``rollouts`` fresh deals; the
        result's ``value`` and ``difference`` are the loss (best minus played), ``square`` the mean of the
        difference's squares (for its standard error), ``round`` the played move's chance to win the round."""
        if self._last is None:
            raise RackoError("Nothing judged yet: evaluate a decision first.")
        observation, lines, values = self._last

        best_line = max(
            (line for line in lines if line.action == best),
            key=lambda line: (line.slot == best_slot, values[lines.index(line)]),
        )
        played_lines = [line for line in lines if line.action == played]
        # The first candidate is the reference: each other's difference is its worth minus the best move's.  A take
        # is worth its best slot on these deals (the benefit of the doubt goes to the move played).
        pair = [best_line, *played_lines]
        races = self._races(observation, game=True)
        found = races(
            [(line.candidate.rack, line.candidate.top, int(line.candidate.draws_first)) for line in pair],
            rollouts,
            seed,
        )
        top = max(found[1:], key=lambda raced: raced.value)
        return Raced(found[0].value - top.value, top.round, -top.difference, top.square, rollouts)

    def _call_or_wait(self, observation: Observation, legal: list[Action], seed: int) -> Evaluation:
        """A rack that may go out (Bonus Rack-O, where calling is a choice), by the game's measure: calling is the
        round won now with this rack's run, measured against the opponent racks the play-outs deal; waiting (at the
        turn's end) lets the opponent play a turn first, measured by the same play-outs (its chance to go out on that
        turn, and the points each then has), and adds, where the opponent did not go out, what the seat's next draw
        may add to its run (every card that may come, at the best slot that keeps the rack qualifying).  At the turn's
        start, drawing costs nothing (the card may be thrown and Rack-O called after it): its worth is calling's
        plus what the drawn card may add; taking the top discard is raced as any move (it goes out at once where the
        rack still qualifies)."""
        rules = observation.public.rules
        rack = observation.rack
        top = observation.public.discard_top or 0
        races = self._races(observation, game=True)
        may_come = cards_that_may_come(observation)
        better = _better_racks(rack, may_come, rules)
        distinct = sorted(set(better.values()) - {rack})
        lines = [line for line in candidate_lines(observation, legal) if isinstance(line.action, TakeDiscard)]
        candidates: list[Race] = [(rack, top, 0), (rack, top, 2)]
        candidates += [(after, top, 0) for after in distinct]
        candidates += [(line.candidate.rack, line.candidate.top, int(line.candidate.draws_first)) for line in lines]
        rollouts = self.first + self.more
        found = races(candidates, rollouts, seed)
        call, wait = found[0], found[1]
        worth = {after: found[2 + index].value for index, after in enumerate(distinct)}
        gain = (
            sum(max(0.0, worth.get(better.get(card, rack), call.value) - call.value) for card in may_come)
            / len(may_come)
            if may_come
            else 0.0
        )
        takes = found[2 + len(distinct) :]
        moves: list[MoveValue] = []
        best_take: tuple[float, float, int | None] | None = None
        best_goes_out = False
        for line, raced in zip(lines, takes, strict=True):
            # among slots as good, one that keeps the rack qualifying (its win is certain; the others' only round to it)
            if best_take is None or (raced.value, line.goes_out) > (best_take[0], best_goes_out):
                best_take, best_goes_out = (raced.value, raced.round, line.slot), line.goes_out
        for action in legal:
            if isinstance(action, CallRacko):
                moves.append(MoveValue(action, call.value, None, rollouts, call.round))
            elif isinstance(action, Wait):
                # the opponent's turn as raced; where it did not go out, the seat's next draw may lengthen the run
                moves.append(MoveValue(action, wait.value + wait.round * gain, None, rollouts, wait.round))
            elif isinstance(action, DrawFromStock):
                moves.append(MoveValue(action, call.value + gain, None, rollouts, call.round))
            elif isinstance(action, TakeDiscard) and best_take is not None:
                moves.append(MoveValue(action, best_take[0], best_take[2], rollouts, best_take[1]))
        moves.sort(key=lambda move: (-move.value, not isinstance(move.action, CallRacko)))
        return Evaluation(self.seat, "game_chance", tuple(moves), rollouts)

    def _guess(self, observation: Observation, hidden: list[int]) -> list[float]:
        """``master``'s guess of the opponent's hidden slots, made once a turn: taking the top discard changes the
        pile but not what is hidden, so the placement that follows shares the pick's guess."""
        key = (observation.public.round_number, observation.public.turns, tuple(hidden))
        if self._weights is None or self._weights[0] != key:
            self._weights = (key, self.guesser.guess_weights(observation, hidden))
        return self._weights[1]

    def _turns(self, observation: Observation) -> Callable[[list[Candidate], int, int], list[float]]:
        """The seat's own turns to go out after each candidate, from the solitaire play-outs (with the other seats
        drawing and discarding at a table)."""
        public = observation.public
        rules = public.rules
        alone = rules.players == 1
        world = World(
            deck_size=rules.deck_size,
            may_come=tuple(cards_that_may_come(observation)),
            known_order=public.known_stock_order,
            needs_run=rules.two_player_rule,
            opponents=rules.players - 1,
            model=SOLITAIRE_GAPS if alone else TABLE_GAPS,
            weighs_draw=MasterBot.weighs_draw,
            denial=() if alone else denial_costs(observation, ExpertBot.deny),
        )

        def run(candidates: list[Candidate], rollouts: int, seed: int) -> list[float]:
            return estimate(world, candidates, rollouts, seed, TURNS_CAP)

        return run


@dataclass(frozen=True)
class Line:
    """A legal move as the play-outs start from it."""

    action: Action
    candidate: Candidate
    slot: int | None = None
    goes_out: bool = False
    """The rack it leaves qualifies: the round is won at once (or, in Bonus Rack-O, at the call that ends the turn)."""


def candidate_lines(observation: Observation, legal: Sequence[Action]) -> list[Line]:
    """Each legal move (a take once per slot the card may go to) as the position it leaves."""
    public = observation.public
    rules = public.rules
    rack = observation.rack
    lines: list[Line] = []

    def placing(action: Action, slot: int, card: int) -> Line:
        after = placed(rack, slot, card)
        return Line(action, Candidate(after, rack[slot]), slot, qualifies_for_racko(after, rules))

    for action in legal:
        if isinstance(action, DrawFromStock):
            lines.append(Line(action, Candidate(rack, public.discard_top or 0, draws_first=True)))
        elif isinstance(action, TakeDiscard):
            top = public.discard_pile[-1]
            lines.extend(placing(action, slot, top) for slot in range(RACK_SIZE))
        elif isinstance(action, Exchange):
            held = observation.held
            assert held is not None
            lines.append(placing(action, action.slot, held))
        elif isinstance(action, Discard):
            held = observation.held
            assert held is not None
            lines.append(Line(action, Candidate(rack, held), goes_out=qualifies_for_racko(rack, rules)))
        # Calling, and waiting, are judged apart (_call_or_play_on).
    return lines


def _finalists(lines: Sequence[Line], order: Sequence[int], played: AnyAction | None) -> list[int]:
    """The lines raced again: the best few, the best of every kind of move (a draw beside the takes), the played."""
    kept: list[int] = list(order[:FINALISTS])
    for index in order:
        action = lines[index].action
        if all(lines[other].action.kind != action.kind for other in kept):
            kept.append(index)  # the best line of each kind of move, so that draw and take both end well measured
    if played is not None:
        best_played = next((index for index in order if lines[index].action == played), None)
        if best_played is not None and best_played not in kept:
            kept.append(best_played)
    return kept


def _collapse(
    lines: Sequence[Line],
    values: Sequence[float],
    depths: Sequence[int],
    measure: Measure,
    rounds: Sequence[float] | None = None,
) -> tuple[MoveValue, ...]:
    """One value per move, best first: a take is worth its best slot.  Among moves as good, one that goes out at
    once comes first (its win is certain; the others' figures only round to it)."""
    best: dict[Action, tuple[MoveValue, bool]] = {}
    higher = measure != "turns"

    def rank(value: float, goes_out: bool) -> tuple[float, bool]:
        return (-value if higher else value, not goes_out)

    for index, (line, value, depth) in enumerate(zip(lines, values, depths, strict=True)):
        known = best.get(line.action)
        if known is None or rank(value, line.goes_out) < rank(known[0].value, known[1]):
            slot = line.slot if isinstance(line.action, TakeDiscard) else None
            chance = rounds[index] if rounds is not None else None
            best[line.action] = (MoveValue(line.action, value, slot, depth, chance), line.goes_out)
    return tuple(move for move, _ in sorted(best.values(), key=lambda found: rank(found[0].value, found[1])))


Race = tuple[tuple[int, ...], int, int]
"""A race's candidate: (rack, top discard, draws_first: 0, 1, or 2 for the opponent first)."""


@dataclass(frozen=True)
class Raced:
    """One candidate's races."""

    value: float
    """Its worth: the chance to win the round, or with the game's values the chance to win the game."""
    round: float
    """The chance that the seat goes out first (a race at the cap counts half)."""
    difference: float
    """With the game's values: the mean, over the play-outs, of the first candidate's worth minus this one's."""
    square: float
    """The mean of that difference's squares."""
    rollouts: int


def game_values(observation: Observation) -> list[float]:
    """The race kernel's table of a 2-player round's ends, in chances to win the game from the scores (see the
    kernel's ``race``): who went out, with which run (Bonus Rack-O's bonus), the other rack's cards in order."""
    public = observation.public
    rules = public.rules
    seat = observation.seat
    own, other = public.totals[seat], public.totals[1 - seat]
    values: list[float] = []
    for out in (0, 1):
        for run in range(5):
            racko = RACKO_SCORE + (BONUS_FOR_RUN[run + 2] if rules.bonus and run else 0)
            for prefix in range(RACK_SIZE + 1):
                points = POINTS_PER_CARD * prefix
                gained, other_gained = (racko, points) if out == 0 else (points, racko)
                values.append(after_round(own, other, gained, other_gained, 2, rules.target))
    values.append(game_chance(own, other, 2, rules.target))
    return values


def _better_racks(rack: tuple[int, ...], cards: Sequence[int], rules: Any) -> dict[int, tuple[int, ...]]:
    """For each card that would lengthen the rack's longest run at some slot, keeping it qualifying: the rack with
    the longest run it can make (Bonus Rack-O's next draw)."""
    now = longest_run(rack)
    found: dict[int, tuple[int, ...]] = {}
    for card in cards:
        best, best_run = rack, now
        for slot in range(RACK_SIZE):
            after = placed(rack, slot, card)
            if qualifies_for_racko(after, rules):
                run = longest_run(after)
                if min(run, 6) > min(best_run, 6) and run >= 3:
                    best, best_run = after, run
        if best != rack:
            found[card] = best
    return found


def _call_or_play_on(observation: Observation, measure: Measure, legal: list[Action]) -> Evaluation:
    """A rack that may go out (Bonus Rack-O, where calling is a choice).

    Going out wins the round, so the round's measure cannot weigh waiting for a longer run: that is a matter of
    points.  The choice is judged by ``expert``'s plan (:func:`racko.bots.expert.calls_now`, which weighs the
    points and the chance of winning the game): its choice is worth going out, the other choices the same where
    it would wait (waiting is a fair gamble), or a round not yet won where it would call.
    """
    seat = observation.seat
    out = 1.0  # a certain win; in turns, this one
    calls = calls_now(observation)
    moves = []
    for action in legal:
        if isinstance(action, CallRacko):
            moves.append(MoveValue(action, out))
        elif calls:
            moves.append(MoveValue(action, PLAYING_ON_WIN_CHANCE if measure == "win_chance" else PLAYING_ON_TURNS))
        else:
            moves.append(MoveValue(action, out))
    higher = measure == "win_chance"
    ordered = sorted(moves, key=lambda move: (-move.value if higher else move.value, not _is_plan(move, calls)))
    return Evaluation(seat, measure, tuple(ordered), 0)


def _is_plan(move: MoveValue, calls: bool) -> bool:
    return isinstance(move.action, CallRacko) == calls or (not calls and isinstance(move.action, Wait))


PLAYING_ON_WIN_CHANCE = 0.8
"""Playing on with a rack that could go out, where ``expert`` would call: the round is no longer certain.
(About the chance that a rack already in order still goes out first.)"""
PLAYING_ON_TURNS = 2.0
"""The same in turns: at least one more turn, often a second."""


def _rate_highlow(observation: HighLowObservation) -> Evaluation:
    """High-Low: every legal move rated as ``expert`` rates it (the row left, the card handed on), in turns."""
    seat = observation.seat
    valuer = RowValuer(unseen_cards(observation), HIGHLOW_GAPS)
    rows = observation.public.rows
    loose = [card for other, row in enumerate(rows) if other != seat for card in valuer.loose_cards(row)]
    valuer = RowValuer(unseen_cards(observation) + loose, HIGHLOW_GAPS)
    row = list(observation.rack)
    moves: list[MoveValue] = []
    if observation.phase is HighLowPhase.SWAP:
        for action in observation.legal_actions():
            trial = list(row)
            if isinstance(action, SwapCards):
                trial[action.first], trial[action.second] = trial[action.second], trial[action.first]
            moves.append(MoveValue(action, turns_from_draws(valuer.cost(trial))))
    else:
        card = card_in_hand(observation)
        passing = passing_costs(valuer, observation, DENIAL, GIFT)
        for action in observation.legal_actions():
            assert isinstance(action, Replace)
            trial = list(row)
            removed = trial[action.position]
            trial[action.position] = card
            cost = valuer.cost(trial)
            if cost > 0.0:
                cost += passing.get(removed, 0.0)
            moves.append(MoveValue(action, turns_from_draws(cost)))
    moves.sort(key=lambda move: move.value)
    return Evaluation(seat, "turns", tuple(moves), 0)


def placed(rack: tuple[int, ...], slot: int, card: int) -> tuple[int, ...]:
    """``rack`` with ``card`` in ``slot``."""
    return (*rack[:slot], card, *rack[slot + 1 :])


def evaluate(
    observation: AnyObservation,
    *,
    seen: Iterable[AnyObservation] = (),
    played: AnyAction | None = None,
    seed: int = 0,
    first: int = FIRST_PLAYOUTS,
    more: int = MORE_PLAYOUTS,
    shown: int = 1,
    game: bool = False,
) -> Evaluation:
    """Every legal move of the seat to act, best first, judged from its own view.  ``seen`` are its earlier
    observations of the round, oldest first (they sharpen the guess of the opponent's rack); the same ``seed``
    gives the same figures.  ``shown``: how many of the best moves must rest on every play-out (a hint's)."""
    judge = Judge(observation.seat, seed, first=first, more=more, shown=shown, game=game)
    for earlier in seen:
        judge.see(earlier)
    return judge.evaluate(observation, played)


def seat_history(round_: AnyRound, seat: int) -> list[AnyObservation]:
    """What ``seat`` saw at each of its moves so far in this round, oldest first (the round re-played from its deck;
    only that seat's observations are taken from it)."""
    family = family_of(round_.rules)
    replayed = family.new_round(
        round_.rules,
        round_.deck,
        round_.dealer,
        rng=random.Random(0),
        reshuffles=round_.reshuffles,
        totals=round_.totals,
        number=round_.number,
    )
    views: list[AnyObservation] = []
    for action in round_.actions:
        if replayed.to_act == seat:
            views.append(replayed.observation(seat))
        replayed.apply(action)
    return views
