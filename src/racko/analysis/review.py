"""Every decision of a game graded, from the deciding player's own view: the move played, the best move, what the
difference cost, a class, and each player's accuracy and chance to win the round move by move.

Each decision (which pile; where the card goes or whether to discard it; call or wait; High-Low's replace, swap and
keep) is judged by :class:`racko.analysis.evaluate.Judge` from what that player could see then, never from the
record's hidden cards.  A decision with one legal move is no decision and is left out, and so is one that a computer
player made for the seat's person (the record's ``made_by``: the clock, a gone seat, a seat its person left): it is
never graded as the person's, and each seat's review counts those left out, by why (:attr:`SeatReview.left_out`).

With 2 players a move is judged by what it does to the *game*: the chance to win the game from the scores after each
play-out's round (:mod:`racko.analysis.game_chance`), its loss read as a share of the round's stake (what winning the
round rather than losing it is worth in the game).  Classes follow from the loss (how much worse the move played is
than the best, in the measure's units):

- ``best``: the move the judgement ranks first;
- ``good``: a loss within :data:`GAME_CHANCE_CLASSES` ``good`` (turns: :data:`TURNS_CLASSES`);
- ``inaccuracy``, ``mistake``, ``blunder``: losses beyond that, past the next bounds.

A move is flagged past a bound only where the play-outs are confident: the best and the played move are raced again
side by side on fresh deals (more where the loss is close to a bound), and the class is the worst whose lower bound
the loss passes with :data:`CONFIDENCE` (docs/REVIEW.md).

A player's accuracy (0 to 100) over a round or a game is the mean of its decisions' accuracies, each
``100 * 0.5 ** (loss / stake / mistake bound)``: 100 for the best move, halved by a loss at the bound between a
mistake and a blunder, a quarter at twice that.  Each decision is scored by its own loss alone: a decision between
two moves that played the worse one, by a little, loses a little (measured against moves chosen at random, as
before, such a decision scored 0 whatever its loss).
"""

from __future__ import annotations

import math
import random
import statistics
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from racko.actions import DrawFromStock, Exchange, TakeDiscard
from racko.analysis.evaluate import FIRST_PLAYOUTS, MORE_PLAYOUTS, Judge, Measure, SideBySide, action_json
from racko.analysis.game_chance import round_stake
from racko.errors import RackoError
from racko.families import AnyAction, AnyObservation
from racko.play.hint import own_seat
from racko.play.text import record_names
from racko.record import GameRecord, replay

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class ClassBounds:
    """The largest loss of each class after ``best``: a loss above ``mistake`` is a blunder."""

    good: float
    inaccuracy: float
    mistake: float

    def of(self, loss: float, is_best: bool) -> str:
        if is_best:
            return "best"
        if loss <= self.good:
            return "good"
        if loss <= self.inaccuracy:
            return "inaccuracy"
        if loss <= self.mistake:
            return "mistake"
        return "blunder"


WIN_CHANCE_SPREAD = 0.016
"""The measured spread (standard deviation) of a move's loss in win chance at the review's play-outs
(:data:`~racko.analysis.evaluate.FIRST_PLAYOUTS` + :data:`~racko.analysis.evaluate.MORE_PLAYOUTS`): ``racko
review-spread --games 12 --seeds 4``, docs/REVIEW.md."""
WIN_CHANCE_CLASSES = ClassBounds(good=0.05, inaccuracy=0.10, mistake=0.20)
"""About 3, 6 and 12 spreads (:data:`WIN_CHANCE_SPREAD`), in round numbers."""
TURNS_SPREAD = 0.25
"""The basis of the turns measure's bounds (alone, 3-4 players; High-Low uses the same bounds), in turns: the
solitaire play-outs' standard error at these counts.  Measured since (``racko review-spread --games 12 --seeds 4
--bots master,hard,hard``): 0.088 turns, so these bounds are about 6, 11 and 23 measured spreads, looser than the win
chance's 3, 6 and 12 (docs/REVIEW.md; narrowing them regrades the shipped puzzles, a step of its own)."""
TURNS_CLASSES = ClassBounds(good=2 * TURNS_SPREAD, inaccuracy=4 * TURNS_SPREAD, mistake=8 * TURNS_SPREAD)
GAME_CHANCE_CLASSES = ClassBounds(good=0.02, inaccuracy=0.05, mistake=0.10)
"""The review's bounds in the chance to win the game (2 players), for a loss divided by the round's stake
(:func:`racko.analysis.game_chance.round_stake`: what winning the round rather than losing it does to the game's
chance, about 0.27 in a game's first round, 1 in its last).  Tighter than the round's 0.05, 0.10, 0.20, which were
three, six and twelve spreads of a noisy estimate: the noise is now measured decision by decision, and a move is
flagged past a bound only where the play-outs are confident (:data:`CONFIDENCE`).  Declining a Rack-O at once for a
rack that still goes out nearly always costs about 0.035 of the stake (points given away), an inaccuracy."""
CONFIDENCE = 0.95
"""A move is classed past a bound (inaccuracy, mistake, blunder) only when its loss is past it with this chance (one
side of a normal interval on the paired play-outs' differences, :data:`CHECK_PLAYOUTS` and more where it is close)."""
CHECK_PLAYOUTS = 64
"""Fresh play-outs on which the best and the played move are raced again, side by side, to measure the loss."""
CHECK_MORE = 192
"""Play-outs more where the loss is within two standard errors of a bound."""
Z = 1.6449
"""The normal quantile of :data:`CONFIDENCE`."""


def class_bounds(measure: Measure) -> ClassBounds:
    if measure == "game_chance":
        return GAME_CHANCE_CLASSES
    return WIN_CHANCE_CLASSES if measure == "win_chance" else TURNS_CLASSES


@dataclass(frozen=True)
class Decision:
    """One graded decision."""

    action: int
    """Its number in the record, counted from 1 over the whole game."""
    round: int
    seat: int
    measure: Measure
    played: AnyAction
    best: AnyAction
    best_slot: int | None
    """Where the best move puts the top discard, when it takes it."""
    loss: float
    grade: str
    """One of :data:`CLASSES`."""
    before: float
    """The best move's worth: the position's worth before the decision, played well."""
    after: float
    """The worth of the move played."""
    card: int | None
    """The card the decision is about: the one held when placing, the top discard when picking."""
    replaced: int | None
    """The card the move played took out of the rack (exchanges)."""
    round_before: float | None = None
    """With the game's measure: the best move's chance to win the round."""
    round_after: float | None = None
    """With the game's measure: the move played's chance to win the round."""
    error: float | None = None
    """The standard error of ``loss`` where the two moves were raced again side by side (game's measure)."""
    stake: float = 1.0
    """What the round is worth in the game (game's measure): the loss is classed and scored divided by it."""
    confidence: float | None = None
    """The chance, from those play-outs, that the loss is in its class: past the class's lower bound for an
    inaccuracy, mistake or blunder; within the bound of ``good`` for a good move (``None`` where not measured)."""
    game_before: float | None = None
    """Where the round's chance grades a decision of a review by the game's measure (the game's could not tell the
    moves apart): the best move's chance to win the game."""
    game_after: float | None = None

    def to_json(self) -> dict[str, Any]:
        game = self.measure == "game_chance"
        chances = self.measure == "win_chance"
        return {
            "action": self.action,
            "played": action_json(self.played),
            "best": action_json(self.best),
            "loss": round(self.loss, 4),
            "class": self.grade,
            "measure": self.measure,
            "win_chance_before": _rounded(self.round_before if game else self.before if chances else None),
            "win_chance_after": _rounded(self.round_after if game else self.after if chances else None),
            "game_chance_before": _rounded(self.before if game else self.game_before),
            "game_chance_after": _rounded(self.after if game else self.game_after),
            "loss_error": _rounded(self.error),
            "stake": _rounded(self.stake if game else None),
            "confidence": _rounded(self.confidence, 3),
        }


def _rounded(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def decision_accuracy(decision: Decision) -> float:
    """One decision's accuracy, 0 to 100: 100 for no loss, halved by a loss at the bound between a mistake and a
    blunder (the measure's own bound, so that win chance and turns read alike; the game's chance divided by the
    round's stake)."""
    return 100 * math.pow(0.5, decision.loss / decision.stake / class_bounds(decision.measure).mistake)


def accuracy(decisions: Sequence[Decision]) -> float | None:
    """The mean of the decisions' accuracies (:func:`decision_accuracy`), 0 to 100 (``None`` without decisions)."""
    if not decisions:
        return None
    return round(statistics.fmean(decision_accuracy(decision) for decision in decisions), 1)


@dataclass(frozen=True)
class SeatReview:
    seat: int
    name: str
    decisions: tuple[Decision, ...]
    left_out: Mapping[str, int] = field(default_factory=dict)
    """The seat's decisions not graded because a computer player made them for its person, by why (the record's
    ``made_by``: ``clock``, ``gone``, ``left``); never in :attr:`decisions` nor the accuracy."""

    @property
    def accuracy(self) -> float | None:
        return accuracy(self.decisions)

    def rounds(self) -> dict[int, tuple[Decision, ...]]:
        """The decisions by round number."""
        grouped: dict[int, list[Decision]] = {}
        for decision in self.decisions:
            grouped.setdefault(decision.round, []).append(decision)
        return {number: tuple(found) for number, found in grouped.items()}

    def round_accuracies(self) -> dict[int, float | None]:
        return {number: accuracy(found) for number, found in self.rounds().items()}

    def counts(self, decisions: Sequence[Decision] | None = None) -> dict[str, int]:
        chosen = self.decisions if decisions is None else decisions
        return {grade: sum(1 for decision in chosen if decision.grade == grade) for grade in CLASSES}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "name": self.name,
            "accuracy": self.accuracy,
            "decisions": [decision.to_json() for decision in self.decisions],
        }
        if self.left_out:  # only where a computer player made some of the seat's decisions
            data["left_out"] = dict(sorted(self.left_out.items()))
        return data


@dataclass(frozen=True)
class Review:
    measure: Measure
    playouts: int
    """Play-outs behind the figures of the best moves (0: ratings without play-outs, High-Low)."""
    seats: tuple[SeatReview, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seats": [seat.to_json() for seat in self.seats]}


Progress = Callable[[int, int], None]
"""Called with (decisions judged, decisions to judge) as a review goes on, from the worker threads."""


@dataclass(frozen=True)
class _Turn:
    number: int
    observation: AnyObservation
    action: AnyAction
    made_by: str | None = None
    """Why a computer player made this action for the seat's person (the record's ``made_by``): not graded."""

    @property
    def graded(self) -> bool:
        """Whether the turn is a decision of the seat's own player: more than one legal move, and not made for them."""
        return self.made_by is None and len(self.observation.legal_actions()) > 1


def review(
    record: GameRecord,
    *,
    seats: Sequence[int] | None = None,
    rounds: Sequence[int] | None = None,
    reveal: bool = False,
    seed: int = 0,
    jobs: int = 2,
    first: int = FIRST_PLAYOUTS,
    more: int = MORE_PLAYOUTS,
    progress: Progress | None = None,
    game: bool = True,
    check: int = CHECK_PLAYOUTS,
) -> Review:
    """Grade the decisions of ``seats`` (default: every seat) in ``rounds`` (numbers from 1; default: all).

    A finished game's record is open: any seat may be reviewed.  A game in progress holds every hidden card, so
    without ``reveal`` only the one person's seat of a ``racko play`` save is (as ``racko hint`` advises).  The
    same ``seed`` gives the same review; ``jobs`` threads judge rounds side by side (the play-outs run outside
    Python's lock).  With ``game`` (the default), 2-player moves are judged by the chance to win the game from the
    scores (as the hint and the browser's review judge them too); without it, by the chance to win the round (as the
    puzzles judge them).  ``check``: the fresh play-outs on which a move not best is raced again beside the best
    (:data:`CHECK_PLAYOUTS`, and three times as many more where it is close to a bound); fewer with fewer ``first``
    play-outs makes a quicker, rougher review (``racko serve --review-playouts``).
    """
    rules = record.rules
    final = replay(record)
    names = record_names(record.players, rules.players)
    chosen = _seats(record, seats, reveal=reveal or final.over)
    if jobs < 1:
        raise RackoError("A review needs at least one job.")
    turns = _turns_by_round_and_seat(record, chosen, rounds)
    total = sum(1 for found in turns.values() for turn in found if turn.graded)
    left_out: dict[int, dict[str, int]] = {seat: {} for seat in chosen}
    for (_, seat), found in turns.items():
        for turn in found:
            if turn.made_by is not None and len(turn.observation.legal_actions()) > 1:
                left_out[seat][turn.made_by] = left_out[seat].get(turn.made_by, 0) + 1
    done = [0]
    lock = threading.Lock()

    def judge_all(key: tuple[int, int]) -> list[Decision]:
        number, seat = key
        judge = Judge(seat, _judge_seed(seed, number, seat), first=first, more=more, game=game)
        graded = []
        for turn in turns[key]:
            if not turn.graded:  # no choice, or not the person's: the judge follows the round on
                judge.see(turn.observation)
                continue
            graded.append(_grade(judge, number, turn, check))
            if progress is not None:
                with lock:
                    done[0] += 1
                    progress(done[0], total)
        return graded

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = dict(zip(turns, pool.map(judge_all, turns), strict=True))
    decisions: dict[int, list[Decision]] = {seat: [] for seat in chosen}
    for (_, seat), graded in sorted(results.items()):
        decisions[seat].extend(graded)
    # the review's measure: its decisions' (those the round graded where the game's measure could not tell the moves
    # apart left aside)
    measure: Measure = next(
        (
            decision.measure
            for graded in decisions.values()
            for decision in graded
            if decision.game_before is None or decision.measure != "win_chance"
        ),
        _default_measure(record),
    )
    playouts = 0 if rules.variant == "highlow" else first + more
    return Review(
        measure,
        playouts,
        tuple(
            SeatReview(seat, names[seat], tuple(sorted(decisions[seat], key=lambda d: d.action)), left_out[seat])
            for seat in chosen
        ),
    )


def _default_measure(record: GameRecord) -> Measure:
    rules = record.rules
    return "game_chance" if rules.players == 2 and rules.variant != "highlow" else "turns"


def _judge_seed(seed: int, round_number: int, seat: int) -> int:
    return random.Random(f"review:{seed}:{round_number}:{seat}").getrandbits(63)


def _seats(record: GameRecord, seats: Sequence[int] | None, *, reveal: bool) -> list[int]:
    players = record.rules.players
    wanted = list(range(players)) if seats is None else list(dict.fromkeys(seats))
    for seat in wanted:
        if not 0 <= seat < players:
            raise RackoError(f"There is no seat {seat + 1} in a game of {players}: choose 1 to {players}.")
    if reveal:
        return wanted
    person = own_seat(record)
    names = record_names(record.players, players)
    if person is None:
        raise RackoError(
            "This game is not finished, and its record holds every hidden card (every rack, the stock's order): "
            "a review shows each player's decisions judged from their own view, and a game in progress may be "
            "reviewed only for the one person of a racko play save. Add --reveal to review it anyway."
        )
    if seats is not None and wanted != [person]:
        raise RackoError(
            f"This game is not finished: only the decisions of {names[person]} (seat {person + 1}) may be reviewed "
            "without --reveal."
        )
    return [person]


def _turns_by_round_and_seat(
    record: GameRecord, seats: Sequence[int], rounds: Sequence[int] | None
) -> dict[tuple[int, int], list[_Turn]]:
    """Each chosen seat's observations before each of its actions, by (round, seat): only that seat's own view."""
    match = replay(record, stop_after=0)
    wanted = set(seats)
    count = len(record.rounds)
    if rounds is not None:
        for number in rounds:
            if not 1 <= number <= count:
                raise RackoError(f"There is no round {number} in this record: it has {count}.")
    chosen_rounds = set(range(1, count + 1) if rounds is None else rounds)
    found: dict[tuple[int, int], list[_Turn]] = {
        (number, seat): [] for number in sorted(chosen_rounds) for seat in seats
    }
    number = 0
    for round_number, round_record in enumerate(record.rounds, start=1):
        for action in round_record.actions:
            number += 1
            seat = action.seat
            if seat in wanted and round_number in chosen_rounds:
                turn = _Turn(number, match.observation(seat), action, record.made_by.get(number))
                found[(round_number, seat)].append(turn)
            match.apply(action)
    return {key: turns for key, turns in found.items() if turns}


def _grade(judge: Judge, round_number: int, turn: _Turn, check: int = CHECK_PLAYOUTS) -> Decision:
    evaluation = judge.evaluate(turn.observation, turn.action)
    played = evaluation.value_of(turn.action)
    best = evaluation.best
    loss, measure = evaluation.judged_loss(turn.action)
    # a move is best when it is the one ranked first, or when nothing tells it from that one
    untold = played.decided_by is None if evaluation.measure == "game_chance" else loss == 0.0
    is_best = played.action == best.action or untold
    bounds = class_bounds(measure)
    stake = 1.0
    if measure == "game_chance":
        public = turn.observation.public
        seat = turn.action.seat
        stake = round_stake(public.totals[seat], public.totals[1 - seat], 2, public.rules.target)
    grade = bounds.of(loss / stake, is_best)
    error: float | None = None
    confidence: float | None = None
    before, after = best.value, played.value
    round_before, round_after = best.round_chance, played.round_chance
    raced_again = evaluation.measure == "game_chance" and not is_best and judge.has_lines()
    if raced_again and loss / stake > bounds.good / 2:
        found = _check(judge, best.action, best.slot, turn.action, turn.number, stake, check, measure)
        # every figure of the decision from the side-by-side races: the first figures chose the best move on their
        # own deals, which flatters it (and so the loss)
        after, round_before, round_after = found.played, found.best_round, found.played_round
        if measure == "game_chance":
            loss, error = max(0.0, found.loss), found.error
            before = after + loss  # the best's figure on those races, or the played one's where it did as well
        else:
            loss, error = max(0.0, found.round_loss), found.round_error
            before = found.best
        grade, confidence = _confident_class(bounds, loss / stake, error / stake)
    observation = turn.observation
    card: int | None = None
    replaced: int | None = None
    if isinstance(turn.action, DrawFromStock | TakeDiscard):
        card = observation.public.discard_pile[-1] if observation.public.discard_pile else None
    else:
        card = observation.held if observation.held is not None else getattr(observation.public, "passed_card", None)
        if isinstance(turn.action, Exchange):
            replaced = observation.rack[turn.action.slot]
    game_before = game_after = None
    if measure == "win_chance" and evaluation.measure == "game_chance":
        # the game's measure could not tell the moves apart: the round's chance ranked and grades them
        game_before, game_after = before, after
        before, after = (round_before or 0.0), (round_after or 0.0)
    return Decision(
        action=turn.number,
        round=round_number,
        seat=turn.action.seat,
        measure=measure,
        played=turn.action,
        best=best.action if not is_best else played.action,
        best_slot=best.slot,
        loss=loss,
        grade=grade,
        before=before,
        after=after,
        card=card,
        replaced=replaced,
        round_before=round_before,
        round_after=round_after,
        error=error,
        stake=stake,
        confidence=confidence,
        game_before=game_before,
        game_after=game_after,
    )


def _check(
    judge: Judge,
    best: AnyAction,
    slot: int | None,
    played: AnyAction,
    number: int,
    stake: float,
    check: int,
    measure: Measure = "game_chance",
) -> SideBySide:
    """The loss of ``played`` against ``best`` raced again side by side on fresh deals (the first figures chose the
    best move on their own deals, which flatters it): ``check`` play-outs (:data:`CHECK_PLAYOUTS` in ``racko
    review``), and three times as many more (:data:`CHECK_MORE`) where the loss is within two standard errors of a
    bound; by the game's chance, or where the game's measure could not tell the moves apart, by the round's."""
    bounds = class_bounds(measure)

    def clear(loss: float, error: float) -> bool:  # two standard errors from every bound
        return all(
            abs(loss / stake - bound) > 2 * error / stake for bound in (bounds.good, bounds.inaccuracy, bounds.mistake)
        )

    stages = (check, check * CHECK_MORE // CHECK_PLAYOUTS)
    seed_text = f"check:{judge.seed}:{number}"
    return judge.side_by_side(best, played, stages, seed_text, slot, clear, by_round=measure == "win_chance")


def _confident_class(bounds: ClassBounds, loss: float, error: float) -> tuple[str, float]:
    """The worst class whose lower bound the loss passes with :data:`CONFIDENCE` (``good`` if none), and the chance
    that the loss is in it (past its lower bound; for ``good``, within its bound)."""
    low = loss - Z * error
    grade = bounds.of(max(0.0, low), False)
    lower = {"inaccuracy": bounds.good, "mistake": bounds.inaccuracy, "blunder": bounds.mistake}.get(grade)
    if error <= 0:
        return grade, 1.0
    if lower is None:
        return grade, _normal((bounds.good - loss) / error)
    return grade, _normal((loss - lower) / error)


def _normal(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))
