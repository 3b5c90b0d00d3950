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
Decider = Literal["game", "round", "points"]
"""``win_chance``: the chance (0 to 1) of winning the round, higher is better.  ``turns``: the seat's own turns
until it goes out, counting this one, lower is better.  ``game_chance``: the chance (0 to 1) of winning the game
from the scores after the round's play-outs (:mod:`racko.analysis.game_chance`), higher is better: the review's
measure with 2 players (``Judge(game=True)``)."""

FIRST_PLAYOUTS = 32
"""Play-outs per legal move in the first stage."""
MORE_PLAYOUTS = 160
"""Play-outs more, on the same deals, for each move of the second stage."""
FINALISTS = 2
"""Moves (besides the one played) carried into the last stage, best of the first first."""
SLOT_Z = 2.5
"""A take's slot is decided among the slots whose first figure is within this many standard errors of the best
slot's (the first stage's 32 play-outs cannot rule them out); they race on fresh deals until one is left or their
play-outs are spent (:meth:`Judge._decide_slot`)."""
SLOT_OUT_Z = 2.0
"""A slot falls out of that race once it is this many standard errors behind the leading slot (paired play-outs)."""
TIE_RESOLUTION = 0.001
"""Two chances to win the game closer than this (a tenth of a point, the last digit a hint shows) cannot be told
apart by the game's measure: in a game all but decided (480-100 of 500) every move's chance is the same to a
hundredth of a point, and the round must rank them (:func:`rank_moves`)."""
POINTS_RESOLUTION = 1.0
"""Round points (the seat's less the opponent's, on average) closer than this cannot tell two moves apart: a round's
points come in fives, and a waiting move whose play-outs differ from calling's only where the opponent's extra turn
moved its rack score about as much either way."""
ROUND_TIE_Z = 1.0
"""Two chances to win the round (of moves the game's measure cannot tell apart) closer than this many standard errors
of their paired difference cannot be told apart either: the round's points rank them.  (The game's chances are told
apart by :data:`TIE_RESOLUTION` alone: with a standard error's band too, a third of the close calls of ordinary
positions were handed to the round, whose chance leaves out the points that the game's measure weighs.)"""
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
    points: float | None = None
    """Where the round's chance could not tell this move from the one ranked above it either: the round's points it
    leads to on the same play-outs (the seat's less the opponent's, a play-out at the cap counting 0)."""
    decided_by: Decider | None = None
    """What tells this move from the best (2 players): ``game`` (its chance to win the game), ``round`` (the game's
    measure cannot tell them apart, :data:`TIE_RESOLUTION`, so the chance to win the round does), ``points``
    (neither chance can: the round's points); ``None`` for the best move."""


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

    def judged_loss(self, action: AnyAction) -> tuple[float, Measure]:
        """How much worse ``action`` is than the best move, and in which measure: with the game's measure, where it
        cannot tell the two apart (:attr:`MoveValue.decided_by`), the round's chance does, and where that cannot
        either, the loss is 0 (the round's points ranked them)."""
        move = self.value_of(action)
        if self.measure != "game_chance" or move.decided_by in (None, "game"):
            return self.loss(action), self.measure
        if move.decided_by == "round":
            assert move.round_chance is not None and self.best.round_chance is not None
            return max(0.0, self.best.round_chance - move.round_chance), "win_chance"
        return 0.0, "win_chance"

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
        self._slots: list[int] = []
        """The last decision's take lines its first stage could not rule out (:meth:`_decide_slot`'s contenders)."""
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
        if measure == "turns":
            return self._play_out_turns(observation, legal, played, seed)
        return self._race_lines(observation, measure, legal, played, seed)

    def _race_lines(
        self, observation: Observation, measure: Measure, legal: list[Action], played: AnyAction | None, seed: int
    ) -> Evaluation:
        """Every line raced in three stages (2 players):

        1. every line, :attr:`first` play-outs on the same deals: a rough figure;
        2. a take's slot decided on fresh deals (:meth:`_decide_slot`), so that a slot lucky in the first stage is not
           the one the take is compared by;
        3. the moves that may rank among the ``shown`` (the best few by the first figures, the best of each kind of
           move, the take at its slot, the move played, and any line whose rough figure would still rank among them)
           raced together on fresh deals, :attr:`more` play-outs each, against the leader: every move a hint names
           rests on as many play-outs (the first stage's and these), on the same deals, and is ranked by
           :func:`rank_moves` from their paired differences.
        """
        lines = candidate_lines(observation, legal)
        races = self._races(observation, game=measure == "game_chance")

        def run(indices: Sequence[int], rollouts: int, seed: int) -> list[Raced]:
            return races([race_of(lines[index]) for index in indices], rollouts, seed)

        every = list(range(len(lines)))
        first = run(every, self.first, seed)
        takes = [index for index in every if isinstance(lines[index].action, TakeDiscard)]
        self._slots = []
        take = self._decide_slot(lines, first, takes, run, seed) if takes else None
        # the lines that stand for a move: a take by its slot decided, every other move by its one line
        standing = [index for index in every if index not in takes or index == take]
        order = sorted(
            standing, key=lambda index: (first[index].value, first[index].round, lines[index].goes_out), reverse=True
        )
        final = _finalists(lines, order, played, max(FINALISTS, self.shown))
        final_seed = seed ^ 0x5DEECE66D  # the same deals for every line of the last stage, whenever it is raced
        reference = final[0]
        last: dict[int, Raced] = {}

        def measure_again(chosen: list[int]) -> None:
            # the reference first in every call: each line's difference from it is paired on the same deals
            found = run([reference, *chosen], self.more, final_seed)
            last.setdefault(reference, found[0])
            last.update({index: raced for index, raced in zip(chosen, found[1:], strict=True) if index != reference})

        measure_again([index for index in final if index != reference])
        while True:
            # A line left at its first figure must not outrank the lines measured again, nor rank among those a
            # hint shows: race it too.
            ranked = sorted(
                (
                    (_blend(first[index], last[index], self.first), _blend_round(first[index], last[index], self.first))
                    for index in last
                ),
                reverse=True,
            )
            bar, bar_round = ranked[min(self.shown, len(ranked)) - 1]
            challengers = [
                index
                for index in order
                if index not in last
                and (
                    first[index].value > bar + TIE_RESOLUTION
                    or (first[index].value >= bar - TIE_RESOLUTION and first[index].round > bar_round)
                )
            ]
            if not challengers:
                break
            measure_again(challengers[:FINALISTS])
        points: dict[int, Scored] = {}

        def points_of(indices: Sequence[int]) -> dict[int, Scored]:
            # the round's points, on the deals the figures were raced on (the races' outcomes are the same), paired
            # with the first line asked about
            wanted = [index for index in indices if index not in points]
            if wanted:
                scored = self._races(observation, table=points_table(observation))
                rough = scored([race_of(lines[index]) for index in wanted], self.first, seed)
                found = scored([race_of(lines[index]) for index in wanted], self.more, final_seed)
                for index, a, b in zip(wanted, rough, found, strict=True):
                    points[index] = Scored(_blend(a, b, self.first) * POINTS_SCALE, b.error * POINTS_SCALE)
            return {index: points[index] for index in indices}

        measured = [
            Measured(
                index,
                _blend(first[index], last[index], self.first),
                _blend_round(first[index], last[index], self.first),
                last[index].difference,
                last[index].error,
                last[index].round_difference,
                last[index].round_error,
                lines[index].goes_out,
            )
            for index in last
        ]
        depth = self.first + self.more
        ranked_lines = rank_moves(measured, points_of if measure == "game_chance" else None)
        moves = [
            MoveValue(
                lines[found.index].action,
                found.value,
                lines[found.index].slot if isinstance(lines[found.index].action, TakeDiscard) else None,
                depth,
                found.round if measure == "game_chance" else None,
                points[found.index].points if found.index in points else None,
                decided,
            )
            for found, decided in ranked_lines
        ]
        shown = {move.action for move in moves}
        rough = sorted(
            (index for index in standing if lines[index].action not in shown),
            key=lambda index: (first[index].value, lines[index].goes_out),
            reverse=True,
        )
        for index in rough:
            line = lines[index]
            if line.action in shown:
                continue
            shown.add(line.action)
            chance = first[index].round if measure == "game_chance" else None
            slot = line.slot if isinstance(line.action, TakeDiscard) else None
            moves.append(MoveValue(line.action, first[index].value, slot, self.first, chance, None, "game"))
        self._last = (
            observation,
            lines,
            [_blend(first[i], last[i], self.first) if i in last else first[i].value for i in every],
        )
        return Evaluation(self.seat, measure, tuple(moves), depth)

    def _decide_slot(
        self,
        lines: Sequence[Line],
        first: Sequence[Raced],
        takes: Sequence[int],
        run: Callable[[Sequence[int], int, int], list[Raced]],
        seed: int,
    ) -> int:
        """The slot a taken card goes to, decided before the take is compared with anything else: the slots the first
        stage cannot rule out (within :data:`SLOT_Z` standard errors of its best slot) race on fresh deals, in two
        halves of :attr:`more` play-outs (half as many in a review, which names one move), a slot more than
        :data:`SLOT_OUT_Z` standard errors behind the leader falling out after the first; the best by those play-outs
        (by the game's chance, the round's where that cannot tell them apart; among slots as good, one that goes out
        at once)."""
        lead = max(takes, key=lambda index: (first[index].value, first[index].round, lines[index].goes_out))
        contenders = [
            index
            for index in takes
            if index == lead
            or lines[index].goes_out
            or first[lead].value - first[index].value
            <= max(TIE_RESOLUTION, SLOT_Z * math.hypot(first[index].error, first[lead].error))
        ]
        self._slots = contenders
        if len(contenders) == 1:
            return lead
        others = [index for index in contenders if index != lead]
        slot_seed = seed ^ 0x2545F4914F6CDD1D
        # a hint names the take's slot: it gets the full stage; a review (one move shown) half of it
        budget = self.more if self.shown > 1 else max(2, self.more // 2)
        half = max(1, budget // 2)
        found = run([lead, *others], half, slot_seed)
        # each slot's differences from the first stage's best slot, on the same fresh deals
        tally = {lead: Measured(lead, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, lines[lead].goes_out)}
        for index, raced in zip(others, found[1:], strict=True):
            tally[index] = _measured_against(index, raced, lines[index].goes_out)
        leader = rank_moves(list(tally.values()), _no_points)[0][0]
        kept = [index for index in others if not _behind(leader, tally[index], SLOT_OUT_Z)]
        rest = budget - half
        if rest > 0 and kept:
            more = run([lead, *kept], rest, slot_seed ^ 1)
            for index, raced in zip(kept, more[1:], strict=True):
                tally[index] = _pooled(tally[index], half, _measured_against(index, raced, lines[index].goes_out), rest)
            tally = {index: found for index, found in tally.items() if index == lead or index in kept}
        return rank_moves(list(tally.values()), _no_points)[0][0].index

    def _play_out_turns(
        self, observation: Observation, legal: list[Action], played: AnyAction | None, seed: int
    ) -> Evaluation:
        """Alone, or with 3-4 players: the turns to go out, from the solitaire play-outs in two stages (all legal
        moves, then the best few and every line that would still outrank them, on the same deals)."""
        measure: Measure = "turns"
        lines = candidate_lines(observation, legal)
        run = self._turns(observation)
        first = run([line.candidate for line in lines], self.first, seed)
        order = sorted(range(len(lines)), key=lambda index: first[index])
        values = list(first)
        refined: set[int] = set()
        depths = [self.first] * len(lines)
        second_seed = seed ^ 0x5DEECE66D  # the same deals for every line refined, whenever it is

        def refine(chosen: list[int]) -> None:
            more = run([lines[index].candidate for index in chosen], self.more, second_seed)
            for index, value in zip(chosen, more, strict=True):
                values[index] = (first[index] * self.first + value * self.more) / (self.first + self.more)
                depths[index] = self.first + self.more
            refined.update(chosen)

        refine(_finalists(lines, order, played, FINALISTS))
        while True:
            leader = min(values[index] for index in refined)
            challengers = [index for index in order if index not in refined and values[index] < leader]
            if not challengers:
                break
            refine(challengers[:FINALISTS])
        while self.shown > 1:
            ranked = _collapse(lines, values, depths, measure)
            bar = ranked[min(self.shown, len(ranked)) - 1].value
            challengers = [index for index in order if index not in refined and values[index] <= bar]
            if not challengers:
                break
            refine(challengers[:FINALISTS])
        moves = _collapse(lines, values, depths, measure)
        self._last = None
        return Evaluation(self.seat, measure, moves, self.first + self.more)

    def _races(
        self, observation: Observation, *, game: bool = False, table: list[float] | None = None
    ) -> Callable[[list[Race], int, int], list[Raced]]:
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
        if table is None and game:
            table = game_values(observation)

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
                # the round's difference from the first candidate, play-out by play-out: +1 won where it lost, -1 the
                # reverse (a capped race on either side counted as a half: its square as a whole, a bound)
                better, worse = tally[2] / rollouts, tally[3] / rollouts
                rounds = (better - worse, better + worse)
                if table is None:
                    found.append(Raced(chance, chance, *rounds, rollouts, *rounds))
                else:
                    values = (tally[4] / rollouts, chance, tally[5] / rollouts, tally[6] / rollouts, rollouts)
                    found.append(Raced(*values, *rounds))
            return found

        return run

    def has_lines(self) -> bool:
        """Whether the last decision judged was raced line by line (:meth:`compare` may race its moves again)."""
        return self._last is not None

    def side_by_side(
        self,
        best: AnyAction,
        played: AnyAction,
        stages: Sequence[int],
        seed_text: str,
        best_slot: int | None = None,
        clear: Callable[[float, float], bool] = lambda loss, error: False,
        by_round: bool = False,
    ) -> SideBySide:
        """:meth:`compare` on fresh deals in ``stages`` of play-outs, their figures pooled, stopping after a stage once
        ``clear(loss, error)`` says the pooled loss (by the round's chance with ``by_round``) is plainly on one side
        of what matters; each stage's deals are seeded by ``seed_text`` and the play-outs raced before it."""
        total = 0
        sums = [0.0] * 8  # best, played, best's round, played's round, loss, its square, round's loss, its square
        loss = error = 0.0
        for rollouts in stages:
            seed = random.Random(f"{seed_text}:{float(total)}").getrandbits(63)
            first, other = self._pair(best, played, rollouts, seed, best_slot)
            figures = (
                first.value,
                other.value,
                first.round,
                other.round,
                -other.difference,
                other.square,
                -other.round_difference,
                other.round_square,
            )
            sums = [kept + figure * rollouts for kept, figure in zip(sums, figures, strict=True)]
            total += rollouts
            means = [kept / total for kept in sums]
            mean, square = (means[6], means[7]) if by_round else (means[4], means[5])
            loss, error = mean, math.sqrt(max(0.0, square - mean * mean) / total)
            if clear(loss, error):
                break
        means = [kept / total for kept in sums]
        return SideBySide(
            loss,
            error,
            means[0],
            means[1],
            means[2],
            means[3],
            means[6],
            math.sqrt(max(0.0, means[7] - means[6] ** 2) / total),
            total,
        )

    def compare(
        self, best: AnyAction, played: AnyAction, rollouts: int, seed: int, best_slot: int | None = None
    ) -> Raced:
        """The last decision judged (:meth:`evaluate`, game's measure): ``best`` (at ``best_slot`` for a take)
        against ``played`` (a take at its best slot on these deals), raced again on ``rollouts`` fresh deals; the
        result's ``value`` and ``difference`` are the loss (best minus played), ``square`` the mean of the
        difference's squares (for its standard error), ``round`` the played move's chance to win the round."""
        first, other = self._pair(best, played, rollouts, seed, best_slot)
        return Raced(first.value - other.value, other.round, -other.difference, other.square, rollouts)

    def _pair(
        self, best: AnyAction, played: AnyAction, rollouts: int, seed: int, best_slot: int | None
    ) -> tuple[Raced, Raced]:
        """``best`` and ``played`` raced side by side on fresh deals, by the game's measure: the best's races, and the
        played move's (a take at its best slot on these deals, the benefit of the doubt going to the move played),
        its differences from the best's."""
        if self._last is None:
            raise RackoError("Nothing judged yet: evaluate a decision first.")
        observation, lines, values = self._last

        best_line = max(
            (line for line in lines if line.action == best),
            key=lambda line: (line.slot == best_slot, values[lines.index(line)]),
        )
        # a take at the slots its first stage could not rule out (:meth:`_decide_slot`'s): a slot further behind is
        # not the take's best on fresh deals, and racing all ten costs as much as the rest of the check
        played_lines = [
            line
            for index, line in enumerate(lines)
            if line.action == played
            and (not isinstance(played, TakeDiscard) or not self._slots or index in self._slots)
        ]
        # The first candidate is the reference: each other's difference is its worth minus the best move's.
        pair = [best_line, *played_lines]
        races = self._races(observation, game=True)
        found = races([race_of(line) for line in pair], rollouts, seed)
        return found[0], max(found[1:], key=lambda raced: (raced.value, raced.round))

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
        best_take: int | None = None
        for index, (line, raced) in enumerate(zip(lines, takes, strict=True)):
            # among slots as good, one that keeps the rack qualifying (its win is certain; the others' only round to it)
            if best_take is None or (raced.value, line.goes_out) > (takes[best_take].value, lines[best_take].goes_out):
                best_take = index
        # each move as rank_moves weighs it: its worth, its chance to win the round, its difference from calling
        races_of: dict[Action, Race] = {}
        measured: dict[Action, Measured] = {}
        # calling first: among moves that nothing tells apart, the plain call
        for position, action in enumerate(sorted(legal, key=lambda action: not isinstance(action, CallRacko))):
            if isinstance(action, CallRacko):
                measured[action] = Measured(position, call.value, call.round, 0.0, 0.0, 0.0, 0.0, True)
                races_of[action] = candidates[0]
            elif isinstance(action, Wait):
                # the opponent's turn as raced; where it did not go out, the seat's next draw may lengthen the run
                waiting = wait.value + wait.round * gain
                measured[action] = Measured(
                    position,
                    waiting,
                    wait.round,
                    waiting - call.value,
                    wait.error,
                    wait.round_difference,
                    wait.round_error,
                )
                races_of[action] = candidates[1]
            elif isinstance(action, DrawFromStock):
                measured[action] = Measured(position, call.value + gain, call.round, gain, 0.0, 0.0, 0.0)
                races_of[action] = candidates[0]
            elif isinstance(action, TakeDiscard) and best_take is not None:
                raced = takes[best_take]
                measured[action] = Measured(
                    position,
                    raced.value,
                    raced.round,
                    raced.difference,
                    raced.error,
                    raced.round_difference,
                    raced.round_error,
                    lines[best_take].goes_out,
                )
                races_of[action] = candidates[2 + len(distinct) + best_take]
        scored: dict[int, Scored] = {}

        def points_of(indices: Sequence[int]) -> dict[int, Scored]:
            wanted = [index for index in indices if index not in scored]
            if wanted:
                by_position = {found.index: action for action, found in measured.items()}
                points = self._races(observation, table=points_table(observation))
                found = points([races_of[by_position[i]] for i in wanted], rollouts, seed)
                for index, raced in zip(wanted, found, strict=True):
                    scored[index] = Scored(raced.value * POINTS_SCALE, raced.error * POINTS_SCALE)
            return {index: scored[index] for index in indices}

        order = rank_moves(list(measured.values()), points_of)
        take_slot = lines[best_take].slot if best_take is not None else None
        actions = {found.index: action for action, found in measured.items()}
        moves = [
            MoveValue(
                actions[found.index],
                found.value,
                take_slot if isinstance(actions[found.index], TakeDiscard) else None,
                rollouts,
                found.round,
                scored[found.index].points if found.index in scored else None,
                decided,
            )
            for found, decided in order
        ]
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


def _finalists(lines: Sequence[Line], order: Sequence[int], played: AnyAction | None, count: int) -> list[int]:
    """The lines raced again: the best ``count``, the best of every kind of move (a draw beside the takes), the
    played."""
    kept: list[int] = list(order[:count])
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
    round_difference: float = 0.0
    """The mean, over the play-outs, of this candidate's round (1 won, 0 lost) less the first candidate's."""
    round_square: float = 0.0
    """The mean of that difference's squares."""

    @property
    def error(self) -> float:
        """The standard error of :attr:`difference` (paired play-outs)."""
        return math.sqrt(max(0.0, self.square - self.difference**2) / max(1, self.rollouts))

    @property
    def round_error(self) -> float:
        """The standard error of :attr:`round_difference`."""
        return math.sqrt(max(0.0, self.round_square - self.round_difference**2) / max(1, self.rollouts))


@dataclass(frozen=True)
class SideBySide:
    """Two moves raced again side by side on fresh deals (:meth:`Judge.side_by_side`)."""

    loss: float
    """The best move's worth less the played move's (or, raced by the round, its chance to win the round's)."""
    error: float
    """The standard error of ``loss`` (paired play-outs)."""
    best: float
    """The best move's chance to win the game on these play-outs."""
    played: float
    best_round: float
    played_round: float
    round_loss: float
    round_error: float
    playouts: int


def race_of(line: Line) -> Race:
    """A line as the race kernel's candidate."""
    return (line.candidate.rack, line.candidate.top, int(line.candidate.draws_first))


def _blend(first: Raced, last: Raced, weight: int) -> float:
    """A line's worth over both stages' play-outs (``weight`` of the first's, ``last.rollouts`` of the last's)."""
    return (first.value * weight + last.value * last.rollouts) / (weight + last.rollouts)


def _blend_round(first: Raced, last: Raced, weight: int) -> float:
    return (first.round * weight + last.round * last.rollouts) / (weight + last.rollouts)


@dataclass(frozen=True)
class Measured:
    """A line measured in full, as :func:`rank_moves` ranks it: its worth and chance to win the round over every
    play-out, and its differences from the last stage's reference line on that stage's paired play-outs."""

    index: int
    value: float
    round: float
    difference: float
    error: float
    round_difference: float
    round_error: float
    goes_out: bool = False


@dataclass(frozen=True)
class Scored:
    """A line's round points (the seat's less the opponent's, on average) and their standard error, paired with the
    first line raced beside it."""

    points: float
    error: float


def rank_moves(
    measured: Sequence[Measured], points: Callable[[Sequence[int]], dict[int, Scored]] | None = None
) -> list[tuple[Measured, Decider | None]]:
    """Lines measured in full, best first, each with what tells it from the one ranked first.

    By their worth (the chance to win the game), but where the game's measure cannot tell two apart (closer than
    :data:`TIE_RESOLUTION`), by the chance to win the round, and where that cannot either (within
    :data:`ROUND_TIE_Z` of its standard errors), by the round's points (``points`` gives them, for the lines asked
    about; within as many of their standard errors, they cannot tell them apart either).  Among lines as good, one
    that goes out at once first (its round is won for certain, the others' only estimated so), then the first given.
    Without ``points`` (the round's measure) the worth alone ranks them."""
    left = list(measured)
    ranked: list[tuple[Measured, Decider | None]] = []
    scored: dict[int, Scored] = {}
    first: Measured | None = None
    while left:
        top = max(left, key=lambda line: (line.value, line.goes_out, -line.index))
        if points is not None:
            tied = [line for line in left if not _apart(top.value - line.value, top, line, "game")]
            if len(tied) > 1:
                top = max(tied, key=lambda line: (line.round, line.goes_out, line.value, -line.index))
                level = [line for line in tied if not _apart(top.round - line.round, top, line, "round")]
                if len(level) > 1:
                    scored.update(points([line.index for line in level]))
                    most = max(level, key=lambda line: scored[line.index].points)
                    even = [line for line in level if not _points_apart(most, line, scored)]
                    top = max(even, key=lambda line: (line.goes_out, scored[line.index].points, -line.index))
        if first is None:
            first = top
            ranked.append((top, None))
        elif points is None:
            ranked.append((top, "game"))
        else:
            ranked.append((top, _decider(first, top, scored)))
        left.remove(top)
    return ranked


def _apart(gap: float, one: Measured, other: Measured, level: str) -> bool:
    """Whether the game's measure (or the round's) tells two lines apart: ``gap`` beyond the noise."""
    if level == "game":
        return abs(gap) > TIE_RESOLUTION
    return abs(gap) > ROUND_TIE_Z * math.hypot(one.round_error, other.round_error)


def _points_apart(one: Measured, other: Measured, scored: dict[int, Scored]) -> bool:
    if one.index not in scored or other.index not in scored:
        return False
    a, b = scored[one.index], scored[other.index]
    return abs(a.points - b.points) > max(POINTS_RESOLUTION, ROUND_TIE_Z * math.hypot(a.error, b.error))


def _decider(best: Measured, other: Measured, scored: dict[int, Scored]) -> Decider | None:
    """What tells ``other`` from ``best``: the game's chance, the round's, or its points; a round won for certain at
    once against one only estimated (calling Rack-O rather than waiting, in a game all but decided) counts as the
    round's; ``None``: nothing."""
    if _apart(best.value - other.value, best, other, "game"):
        return "game"
    if _apart(best.round - other.round, best, other, "round"):
        return "round"
    if _points_apart(best, other, scored):
        return "points"
    if best.goes_out and not other.goes_out:
        return "round"
    return None


def _no_points(indices: Sequence[int]) -> dict[int, Scored]:
    """No points asked: :func:`rank_moves` then ranks by the game's chance and the round's."""
    return dict.fromkeys(indices, Scored(0.0, 0.0))


def _measured_against(index: int, raced: Raced, goes_out: bool) -> Measured:
    """A line by its differences from the first candidate it was raced beside (its worth and round as those)."""
    return Measured(
        index,
        raced.difference,
        raced.round_difference,
        raced.difference,
        raced.error,
        raced.round_difference,
        raced.round_error,
        goes_out,
    )


def _pooled(one: Measured, weight: int, other: Measured, other_weight: int) -> Measured:
    """Two measurements of a line's differences on independent deals, pooled by their play-outs."""
    total = weight + other_weight

    def mean(a: float, b: float) -> float:
        return (a * weight + b * other_weight) / total

    def error(a: float, b: float) -> float:
        return math.hypot(a * weight, b * other_weight) / total

    return Measured(
        one.index,
        mean(one.value, other.value),
        mean(one.round, other.round),
        mean(one.difference, other.difference),
        error(one.error, other.error),
        mean(one.round_difference, other.round_difference),
        error(one.round_error, other.round_error),
        one.goes_out,
    )


def _behind(leader: Measured, other: Measured, z: float) -> bool:
    """Whether ``other`` is plainly behind ``leader``: by the game's chance more than ``z`` standard errors (and the
    resolution), or, the game's measure not telling them apart, by the round's."""
    gap = leader.value - other.value
    noise = math.hypot(leader.error, other.error)
    if abs(gap) > TIE_RESOLUTION:
        return gap > max(TIE_RESOLUTION, z * noise)
    return leader.round - other.round > z * math.hypot(leader.round_error, other.round_error)


POINTS_SCALE = RACKO_SCORE + BONUS_FOR_RUN[6]
"""The round's points are raced divided by this (a Rack-O with Bonus Rack-O's longest run), to stay within -1..1."""


def points_table(observation: Observation) -> list[float]:
    """The race kernel's table of a round's ends in points: the seat's less the opponent's, divided by
    :data:`POINTS_SCALE` (a play-out at the cap counts 0)."""
    rules = observation.public.rules
    values: list[float] = []
    for out in (0, 1):
        for run in range(5):
            racko = RACKO_SCORE + (BONUS_FOR_RUN[run + 2] if rules.bonus and run else 0)
            for prefix in range(RACK_SIZE + 1):
                margin = racko - POINTS_PER_CARD * prefix
                values.append((margin if out == 0 else -margin) / POINTS_SCALE)
    values.append(0.0)
    return values


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
