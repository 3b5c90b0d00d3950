"""``racko review`` (every decision of a game graded), its benchmark and the measurement of its spread.

Added to the main app by :func:`register`.  Every error is one ``racko: ...`` line on stderr.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from racko import bots
from racko.actions import Discard, DrawFromStock, Exchange, TakeDiscard
from racko.analysis.evaluate import FIRST_PLAYOUTS, MORE_PLAYOUTS
from racko.analysis.explain import move_sentence
from racko.analysis.game_chance import GAMES, TABLE_FILE, after_round, round_stake
from racko.analysis.review import CLASSES, Decision, Review, SeatReview, accuracy, class_bounds, review
from racko.analysis.words import say
from racko.bots.runner import play_match
from racko.errors import RackoError
from racko.highlow import KeepOrder, Replace, SwapCards
from racko.match import Match
from racko.observation import Observation
from racko.record import GameRecord
from racko.round import Round, arrange_deck
from racko.rules import RACK_SIZE, variant
from racko.tools.arena_commands import _progress

SHOWN = ("inaccuracy", "mistake", "blunder")
"""The classes the text report lists one by one (the JSON lists every decision)."""


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"racko: {message}", err=True)
    return typer.Exit(code)


def review_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).", show_default=False)],
    seat: Annotated[
        list[int] | None,
        typer.Option(
            help="Review only this seat (1 is the first seat; repeat for several). The JSON counts seats from 0, "
            "as records do.",
            show_default=False,
        ),
    ] = None,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            help="Review any seat of a game in progress (its record holds every hidden card); without it, only "
            "the one person's seat of a racko play save.",
        ),
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the play-outs: the same seed gives the same review.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Threads judging rounds side by side.")] = os.cpu_count() or 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Draw each player's chance to win the game (2 players; turns to go out otherwise), move by move, "
            "to this PNG (needs racko\\[plot]).",
            dir_okay=False,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Every decision of a game graded from the deciding player's own view: the move played, the best move, what
    the difference cost, a class (best, good, inaccuracy, mistake, blunder), and each player's accuracy."""
    if plot is not None and importlib.util.find_spec("matplotlib") is None:
        raise _fail("--plot needs matplotlib: install it with pip install 'racko[plot]'.", 2)
    try:
        record = GameRecord.load(file)
        seats = [number - 1 for number in seat] if seat else None
        with _progress("Reviewing") as progress:
            result = review(record, seats=seats, reveal=reveal, seed=seed, jobs=jobs, progress=progress)
    except RackoError as error:
        raise _fail(f"{file}: {error}") from None
    except KeyboardInterrupt:
        raise _fail("interrupted.", 130) from None
    if plot is not None:
        try:
            plot_review(result, plot)
        except (RackoError, OSError) as error:
            raise _fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        return
    for line in review_lines(result, variant(record.rules.variant).title, record.rules.players):
        typer.echo(line)
    if plot is not None:
        typer.echo(f"Plot written to {plot}.")


def review_lines(result: Review, title: str, players: int) -> list[str]:
    """The review as text: each player's accuracy and class counts, then per round the decisions that cost
    something (inaccuracies, mistakes, blunders) with the best move."""
    how = {
        "game_chance": "by its chance to win the game from the scores",
        "win_chance": "by its chance to win the round",
    }.get(result.measure, "by the turns it leaves to go out (lower is better)")
    figures = f" ({result.playouts} play-outs a move)" if result.playouts else " (the expert's rating, no play-outs)"
    lines = [
        f"Review of {title}, {players} player{'s' if players != 1 else ''}: each decision judged from the "
        f"player's own view, {how}{figures}."
    ]
    for seat in result.seats:
        lines.append("")
        who = seat.name if seat.name.endswith(f"seat {seat.seat + 1})") else f"{seat.name} (seat {seat.seat + 1})"
        if seat.name == f"seat {seat.seat + 1}":
            who = seat.name
        lines.append(f"{who}: accuracy {_accuracy(seat.accuracy)}; {_counts(seat)}.")
        for why, count in sorted(seat.left_out.items()):  # a computer player's moves for the person: not theirs
            lines.append(f"  {say('review:left-out:' + why, {'count': count})}.")
        for number, decisions in seat.rounds().items():
            counted = seat.counts(decisions)
            lines.append(
                f"  Round {number}: accuracy {_accuracy(seat.round_accuracies()[number])}, "
                f"{len(decisions)} decisions, {_counts(seat, counted)}."
            )
            for decision in decisions:
                if decision.grade in SHOWN:
                    lines.append("    " + decision_line(decision))
    return lines


def _accuracy(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _counts(seat: SeatReview, counts: dict[str, int] | None = None) -> str:
    found = counts if counts is not None else seat.counts()
    return ", ".join(f"{found[grade]} {grade}" for grade in CLASSES if found[grade]) or "no decisions"


def decision_line(decision: Decision) -> str:
    """One decision in a line: its number, the move played, the class and cost, the best move."""
    played = move_sentence(decision.played, decision.card).text()
    best = move_sentence(decision.best, decision.card, decision.best_slot).text()
    if decision.measure == "game_chance":
        sure = "" if decision.confidence is None else f", {100 * decision.confidence:.0f}% sure"
        cost = (
            f"-{100 * decision.loss:.1f} points of game chance{sure}; {100 * decision.before:.0f}% to win the game "
            "with the best move"
        )
    elif decision.measure == "win_chance":
        cost = f"-{100 * decision.loss:.0f} points of win chance; {100 * decision.before:.0f}% with the best move"
    else:
        cost = f"+{decision.loss:.1f} turns; {decision.before:.1f} turns to go with the best move"
    return f"action {decision.action}: {played}: {say('review:' + decision.grade)} ({cost}: {best})"


def plot_review(result: Review, path: str | Path) -> None:
    """Each player's chance to win the game or the round, as the review measured (or turns to go), after each of
    their decisions, round by round."""
    try:
        from matplotlib.figure import Figure  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise RackoError("Plotting needs matplotlib: install it with pip install 'racko[plot]'.") from None
    figure = Figure(figsize=(11, 4.5), layout="constrained")
    axes = figure.subplots()
    chances = result.measure != "turns"
    rounds = sorted({decision.round for seat in result.seats for decision in seat.decisions})
    # Every decision of the game on one axis, in the record's order; a line where each round starts.
    order = sorted({decision.action for seat in result.seats for decision in seat.decisions})
    where = {action: index for index, action in enumerate(order)}
    for seat in result.seats:
        xs = [where[decision.action] for decision in seat.decisions]
        ys = [100 * decision.after if chances else decision.after for decision in seat.decisions]
        for number in rounds:
            part = [(x, y) for x, y, d in zip(xs, ys, seat.decisions, strict=True) if d.round == number]
            if part:
                label = f"{seat.name} (accuracy {_accuracy(seat.accuracy)})" if number == rounds[0] else None
                axes.plot(*zip(*part, strict=True), color=f"C{seat.seat}", linewidth=1.5, label=label)
    for number in rounds[1:]:
        start = min(where[d.action] for seat in result.seats for d in seat.decisions if d.round == number)
        axes.axvline(start - 0.5, color="grey", linewidth=0.5, linestyle="--")
    axes.set_xlabel("decisions in the game's order (dashed: a new round)")
    if chances:
        axes.set_ylim(0, 100)
        axes.set_ylabel(
            f"chance to win the {'game' if result.measure == 'game_chance' else 'round'} after the move (%)"
        )
    else:
        axes.set_ylabel("turns to go out after the move")
    axes.set_title(say("review:chart-game" if result.measure == "game_chance" else "review:chart"))
    axes.legend(loc="best")
    figure.savefig(path, dpi=100)


# --- The benchmark ---------------------------------------------------------------------------------------------

BENCH_SEED = 41
"""The benchmark's game: ``hard`` against ``hard``, 2 players with the 2-player rule, to 500; with this seed it
lasts 11 rounds (454 decisions), the longest of the first 60 seeds."""


@dataclass(frozen=True)
class ReviewBench:
    seconds: float
    rounds: int
    decisions: int
    jobs: int
    cpu_seconds: float
    load: float

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": "review-500-point-game",
            "seconds": round(self.seconds, 2),
            "rounds": self.rounds,
            "decisions": self.decisions,
            "jobs": self.jobs,
            "ms_per_decision": round(1000 * self.seconds / max(1, self.decisions), 1),
            "cpu_seconds": round(self.cpu_seconds, 2),
            "load_average": round(self.load, 2),
            "playouts": FIRST_PLAYOUTS + MORE_PLAYOUTS,
        }


def bench_game(seed: int = BENCH_SEED) -> GameRecord:
    """A whole 500-point 2-player game with the 2-player rule, played by ``hard`` against ``hard``."""
    match = Match(variant("classic").rules(2), seed=seed)
    play_match(match, [bots.create("hard", seed=seed), bots.create("hard", seed=seed + 1)])
    return GameRecord.of(match, players=("hard", "hard"))


def run_review_bench(seed: int = BENCH_SEED, jobs: int = 2) -> ReviewBench:
    record = bench_game(seed)
    load = os.getloadavg()[0]
    started, cpu = time.perf_counter(), time.process_time()
    result = review(record, jobs=jobs)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    decisions = sum(len(seat.decisions) for seat in result.seats)
    return ReviewBench(seconds, len(record.rounds), decisions, jobs, cpu_seconds, load)


def review_bench_lines(figures: ReviewBench, as_json: bool) -> list[str]:
    if as_json:
        return [json.dumps(figures.to_json())]
    return [
        f"Review of a whole 500-point game: {figures.seconds:.1f} s on {figures.jobs} threads",
        f"({figures.rounds} rounds, {figures.decisions} decisions, "
        f"{1000 * figures.seconds / max(1, figures.decisions):.0f} ms a decision, "
        f"{figures.cpu_seconds:.1f} s of CPU; load average {figures.load:.2f} at the start)",
    ]


# --- The spread of the estimate, and the class boundaries it gives ----------------------------------------------


@dataclass(frozen=True)
class Spread:
    games: int
    seeds: int
    decisions: int
    spread: float
    """The root mean square, over decisions, of the standard deviation of the played move's loss between seeds."""
    agreement: float
    """The share of decisions classed alike by every seed (``best`` and ``good`` counted as one)."""
    by_level: dict[str, dict[str, Any]]
    measure: str

    def to_json(self) -> dict[str, Any]:
        bounds = class_bounds("turns" if self.measure == "turns" else self.measure)  # type: ignore[arg-type]
        return {
            "games": self.games,
            "seeds": self.seeds,
            "decisions": self.decisions,
            "measure": self.measure,
            "playouts": FIRST_PLAYOUTS + MORE_PLAYOUTS,
            "spread": round(self.spread, 4),
            "same_class": round(self.agreement, 3),
            "bounds_in_use": {"good": bounds.good, "inaccuracy": bounds.inaccuracy, "mistake": bounds.mistake},
            "levels": self.by_level,
        }


def measure_spread(
    games: int, seeds: int, levels: Sequence[str], players: int, two_player_rule: bool, progress: Any = None
) -> Spread:
    """Games between ``levels`` (one round each, seats as listed), each reviewed with ``seeds`` seeds: the spread
    of the loss of every move played, and each level's classes and losses (seed 0)."""
    runs: list[tuple[str, list[Decision]]] = []  # per seat of each game: its level, its decisions per seed
    per_seed: list[list[list[Decision]]] = []
    measure = "turns"
    for game in range(games):
        rules = variant("classic").rules(players, target=1)
        if players == 2:
            rules = rules.replace(two_player_rule=two_player_rule)
        match = Match(rules, seed=10_000 + game)
        play_match(match, [bots.create(level, seed=game * 10 + seat) for seat, level in enumerate(levels)])
        record = GameRecord.of(match, players=tuple(levels))
        reviews = [review(record, seed=seed) for seed in range(seeds)]
        measure = reviews[0].measure
        for seat, level in enumerate(levels):
            runs.append((level, list(reviews[0].seats[seat].decisions)))
            per_seed.append([list(found.seats[seat].decisions) for found in reviews])
        if progress is not None:
            progress(game + 1, games)
    deviations = []
    same_class = 0
    for seat_runs in per_seed:
        for index in range(len(seat_runs[0])):
            deviations.append(statistics.pstdev(run[index].loss for run in seat_runs))
            same_class += len({_coarse(run[index].grade) for run in seat_runs}) == 1
    spread = statistics.fmean(value * value for value in deviations) ** 0.5 if deviations else 0.0
    by_level: dict[str, dict[str, Any]] = {}
    for level in dict.fromkeys(levels):
        decisions = [decision for name, found in runs if name == level for decision in found]
        losses = sorted(decision.loss for decision in decisions)
        by_level[level] = {
            "decisions": len(decisions),
            "mean_loss": round(statistics.fmean(losses), 4) if losses else None,
            "loss_95th": round(losses[int(0.95 * (len(losses) - 1))], 4) if losses else None,
            "classes": {grade: sum(1 for d in decisions if d.grade == grade) for grade in CLASSES},
        }
    agreement = same_class / len(deviations) if deviations else 1.0
    return Spread(games, seeds, len(deviations), spread, agreement, by_level, measure)


LADDER = ("easy", "medium", "hard", "expert", "master")


def measure_ladder(
    games: int,
    levels: Sequence[str],
    opponent: str = "hard",
    progress: Any = None,
    *,
    judge_playouts: int = 0,
    judge_opponent: str = "expert",
) -> dict[str, Any]:
    """Each level plays the same deals against ``opponent``: the first round of a 500-point game (2 players, the
    2-player rule; the deal of seed 20_000 + game; the level in seat 1 and seat 2 alternately), and its decisions
    are reviewed as in ``racko review`` (seed 0, the game's measure).  Per level: its accuracy with a 95 % interval
    (the games' accuracies' mean, plus or minus 1.96 of their standard error: a game's decisions are not independent
    of one another), its mean loss and its classes; and for each level and the next, the mean over the same deals
    of the difference of their games' accuracies, with its 95 % interval (``steps``: paired, so that a deal's ease
    cancels).

    Two measures more (issue 48), beside each: ``where_levels_differ``, the accuracy over the decisions where the
    levels of the ladder would not all play the same move (each asked at the decision's position), where what tells
    the levels apart lies; and with ``judge_playouts``, ``by_expert_playouts``: on those decisions, the loss of the
    move played against the review's best measured again by play-outs in which both seats play as
    ``judge_opponent`` does (the computer players through their public interface, the opponent's hidden cards and the
    stock dealt at random from the cards the seat has not seen), ``judge_playouts`` a move on the same deals."""
    found: dict[str, list[list[Decision]]] = {level: [] for level in levels}
    differing: dict[str, list[list[Decision]]] = {level: [] for level in levels}
    judged: dict[str, list[list[float]]] = {level: [] for level in levels}
    step = 0
    for game in range(games):
        for level in levels:
            match = Match(variant("classic").rules(2), seed=20_000 + game)
            seat = game % 2
            seats = [opponent, opponent]
            seats[seat] = level
            players = [bots.create(name, seed=game * 10 + index) for index, name in enumerate(seats)]
            while match.to_act is not None and not match.rounds[0].over:
                to_act = match.to_act
                match.apply(players[to_act].act(match.observation(to_act)))
            record = GameRecord.of(match, players=tuple(seats))
            result = review(record, seats=[seat], rounds=[1], reveal=True)
            decisions = list(result.seats[0].decisions)
            found[level].append(decisions)
            apart = _where_levels_differ(record, decisions, levels, game)
            differing[level].append([decision for decision in decisions if decision.action in apart])
            if judge_playouts:
                judged[level].append(
                    [
                        _decision_accuracy_by_playouts(record, decision, judge_playouts, judge_opponent, game)
                        for decision in decisions
                        if decision.action in apart
                    ]
                )
            step += 1
            if progress is not None:
                progress(step, games * len(levels))
    table: dict[str, Any] = {}
    for level, per_game in found.items():
        decisions = [decision for game in per_game for decision in game]
        table[level] = {
            **_accuracy_figures([accuracy(game) for game in per_game if game]),
            "games": len(per_game),
            "decisions": len(decisions),
            "accuracy_of_decisions": accuracy(decisions),
            "mean_loss": round(statistics.fmean(d.loss for d in decisions), 5) if decisions else None,
            "classes": {grade: sum(1 for d in decisions if d.grade == grade) for grade in CLASSES},
            "where_levels_differ": {
                **_accuracy_figures([accuracy(game) for game in differing[level][:]]),
                "decisions": sum(len(game) for game in differing[level]),
            },
        }
        if judge_playouts:
            table[level]["by_expert_playouts"] = {
                **_accuracy_figures([statistics.fmean(game) if game else None for game in judged[level]]),
                "decisions": sum(len(game) for game in judged[level]),
                "playouts": judge_playouts,
                "players": judge_opponent,
            }
    names = list(found)
    steps = []
    for lower, higher in itertools.pairwise(names):
        figures = _step(lower, higher, [accuracy(game) for game in found[lower]], [accuracy(g) for g in found[higher]])
        if figures is None:
            continue
        split = _step(lower, higher, [accuracy(g) for g in differing[lower]], [accuracy(g) for g in differing[higher]])
        figures["where_levels_differ"] = None if split is None else _bare(split)
        if judge_playouts:
            by_playouts = _step(
                lower,
                higher,
                [statistics.fmean(g) if g else None for g in judged[lower]],
                [statistics.fmean(g) if g else None for g in judged[higher]],
            )
            figures["by_expert_playouts"] = None if by_playouts is None else _bare(by_playouts)
        steps.append(figures)
    return {"games": games, "opponent": opponent, "measure": "game_chance", "levels": table, "steps": steps}


def _accuracy_figures(values: Sequence[float | None]) -> dict[str, Any]:
    """The mean of the games' accuracies and its 95 % interval (a game's decisions are not independent)."""
    found = [value for value in values if value is not None]
    mean = statistics.fmean(found) if found else None
    error = statistics.stdev(found) / len(found) ** 0.5 if len(found) > 1 else None
    interval = None
    if mean is not None and error is not None:
        interval = [round(mean - 1.96 * error, 2), round(mean + 1.96 * error, 2)]
    return {"accuracy": round(mean, 2) if mean is not None else None, "interval": interval}


def _step(lower: str, higher: str, low: Sequence[float | None], high: Sequence[float | None]) -> dict[str, Any] | None:
    """The higher level's accuracy less the lower's over the same deals, with its 95 % interval (paired)."""
    differences = [b - a for a, b in zip(low, high, strict=True) if a is not None and b is not None]
    if len(differences) < 2:
        return None
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / len(differences) ** 0.5
    return {
        "lower": lower,
        "higher": higher,
        "difference": round(mean, 2),
        "interval": [round(mean - 1.96 * error, 2), round(mean + 1.96 * error, 2)],
    }


def _bare(step: dict[str, Any]) -> dict[str, Any]:
    return {"difference": step["difference"], "interval": step["interval"]}


def _where_levels_differ(
    record: GameRecord, decisions: Sequence[Decision], levels: Sequence[str], game: int
) -> set[int]:
    """The decisions (their action numbers) where the ladder's levels, each asked at the position, would not all play
    the same move."""
    wanted = {decision.action for decision in decisions}
    apart: set[int] = set()
    match = Match(record.rules, first_dealer=record.rounds[0].dealer, decks=[record.rounds[0].deck])
    for number, action in enumerate(record.rounds[0].actions, start=1):
        if number in wanted:
            observation = match.observation(action.seat)
            chosen = {bots.create(level, seed=game * 100 + number).act(observation) for level in levels}
            if len(chosen) > 1:
                apart.add(number)
        match.apply(action)
    return apart


def _decision_accuracy_by_playouts(
    record: GameRecord, decision: Decision, playouts: int, players: str, game: int
) -> float:
    """A decision's accuracy (as :func:`racko.analysis.review.decision_accuracy` scores it) with its loss measured
    again: the review's best move and the move played, each raced ``playouts`` times to the round's end on the same
    random deals of the cards the seat has not seen, both seats played by ``players``; the loss in the chance to
    win the game divided by the round's stake."""
    match = Match(record.rules, first_dealer=record.rounds[0].dealer, decks=[record.rounds[0].deck])
    for action in record.rounds[0].actions[: decision.action - 1]:
        match.apply(action)
    observation = match.observation(decision.seat)
    assert isinstance(observation, Observation)
    rng = random.Random(f"ladder:{game}:{decision.action}")
    worth = {"best": 0.0, "played": 0.0}
    actions = record.rounds[0].actions
    # a take's slot is the seat's next action in the record
    following = actions[decision.action] if decision.action < len(actions) else None
    played_slot = (
        following.slot if isinstance(decision.played, TakeDiscard) and isinstance(following, Exchange) else None
    )
    for _ in range(playouts):
        deal_seed = rng.getrandbits(32)
        for name, action, slot in (
            ("best", decision.best, decision.best_slot),
            ("played", decision.played, played_slot),
        ):
            worth[name] += _play_out_by(observation, action, slot, players, deal_seed) / playouts
    public = observation.public
    stake = round_stake(public.totals[decision.seat], public.totals[1 - decision.seat], 2, public.rules.target)
    loss = max(0.0, worth["best"] - worth["played"])
    return float(100 * 0.5 ** (loss / stake / class_bounds("game_chance").mistake))


def _play_out_by(observation: Observation, action: Any, slot: int | None, players: str, seed: int) -> float:
    """The seat's chance to win the game after ``action`` and a round played out by two ``players``: the opponent's
    hidden slots and the stock dealt at random (by ``seed``) from the cards the seat has not seen, the discard pile
    reduced to its top card."""
    rng = random.Random(seed)
    public = observation.public
    rules = public.rules
    seat = observation.seat
    rack = list(observation.rack)
    top = public.discard_top
    drawn_first = isinstance(action, DrawFromStock)
    if isinstance(action, TakeDiscard):
        card = top
        assert card is not None
        where = slot if slot is not None else min(range(RACK_SIZE), key=lambda index: abs(rack[index] - card))
        rack[where], top = card, rack[where]
    elif isinstance(action, Exchange):
        assert observation.held is not None
        rack[action.slot], top = observation.held, rack[action.slot]
    elif isinstance(action, Discard):
        top = observation.held
    unseen = [card for card in range(1, rules.deck_size + 1) if card not in observation.seen_cards()]
    rng.shuffle(unseen)
    known = public.known[1 - seat]
    theirs = [card if card is not None else unseen.pop() for card in known]
    mine_first = 1 - seat if drawn_first else seat  # the dealer: the player at its left acts first
    racks = [rack, theirs] if seat == 0 else [theirs, rack]
    turned = top if top is not None else unseen.pop()
    deck = arrange_deck(racks, mine_first, turned, unseen, deck_size=rules.deck_size)
    played = Round(rules.replace(turn_cap=200), deck, mine_first, totals=public.totals)
    bots_at = [bots.create(players, seed=seed + index) for index in range(2)]
    while not played.over:
        to_act = played.to_act
        assert to_act is not None
        move = bots_at[to_act].act(played.observation(to_act))
        assert not isinstance(move, Replace | SwapCards | KeepOrder)
        played.apply(move)
    result = played.result
    assert result is not None
    own, other = public.totals[seat], public.totals[1 - seat]
    return after_round(own, other, result.scores[seat], result.scores[1 - seat], 2, rules.target)


def _coarse(grade: str) -> str:
    """A class as a reader weighs it: ``best`` and ``good`` alike (both fine moves)."""
    return "good" if grade == "best" else grade


def spread_command(
    games: Annotated[int, typer.Option(min=1, help="Games (of one round) to play and review.")] = 20,
    seeds: Annotated[int, typer.Option(min=2, help="Reviews of each game, with different seeds.")] = 4,
    bot_list: Annotated[str, typer.Option("--bots", help="The bots, one per seat.")] = "master,hard",
    two_player_rule: Annotated[
        bool, typer.Option("--two-player-rule/--no-two-player-rule", help="With 2 players: the run of three.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    ladder: Annotated[
        str | None,
        typer.Option(
            help="Instead: each of these levels (comma-separated, e.g. easy,medium,hard,expert,master) plays the "
            "same deals against hard (the first round of --games 500-point games), and prints its accuracy with a "
            "95 % interval.",
            show_default=False,
        ),
    ] = None,
    judge_playouts: Annotated[
        int,
        typer.Option(
            min=0,
            help="With --ladder: the decisions where the levels differ judged again by this many play-outs a move in "
            "which both seats play as --judge-players does (slow: a computer player's every move).",
        ),
    ] = 0,
    judge_players: Annotated[
        str, typer.Option(help="With --judge-playouts: the computer player of those play-outs.")
    ] = "expert",
) -> None:
    """Measure the review's spread: games of computer players reviewed with several seeds; the standard deviation of
    each move's loss between seeds, and how each level's moves are classed (docs/REVIEW.md).  With --ladder: each
    level's accuracy over the same deals."""
    if ladder is not None:
        names = [name.strip() for name in ladder.split(",") if name.strip()]
        try:
            for name in [*names, judge_players]:
                bots.describe(name)
            with _progress("Games") as progress:
                ladder_figures = measure_ladder(
                    games, names, progress=progress, judge_playouts=judge_playouts, judge_opponent=judge_players
                )
        except RackoError as error:
            raise _fail(str(error), 2) from None
        if as_json:
            typer.echo(json.dumps(ladder_figures))
            return
        for level, found in ladder_figures["levels"].items():
            interval = found["interval"] or ["-", "-"]
            typer.echo(
                f"{level}: accuracy {found['accuracy']} (95% {interval[0]}-{interval[1]}) over {found['games']} "
                f"games, {found['decisions']} decisions; mean loss {found['mean_loss']} of game chance."
            )
            apart = found["where_levels_differ"]
            typer.echo(
                f"  where the levels differ: accuracy {apart['accuracy']} (95% {apart['interval']}) over "
                f"{apart['decisions']} decisions."
            )
            if "by_expert_playouts" in found:
                judged = found["by_expert_playouts"]
                typer.echo(
                    f"  there, by {judged['playouts']} play-outs of {judged['players']}: accuracy {judged['accuracy']} "
                    f"(95% {judged['interval']})."
                )
        for step in ladder_figures["steps"]:
            low, high = step["interval"]
            typer.echo(
                f"{step['higher']} - {step['lower']}: {step['difference']:+} on the same deals (95% {low} to {high})."
            )
            for name in ("where_levels_differ", "by_expert_playouts"):
                if step.get(name):
                    typer.echo(
                        f"  {name.replace('_', ' ')}: {step[name]['difference']:+} (95% {step[name]['interval']})."
                    )
        return
    levels = [name.strip() for name in bot_list.split(",")]
    try:
        for name in levels:
            bots.describe(name)
        with _progress("Games") as progress:
            figures = measure_spread(games, seeds, levels, len(levels), two_player_rule, progress)
    except RackoError as error:
        raise _fail(str(error), 2) from None
    if as_json:
        typer.echo(json.dumps(figures.to_json()))
        return
    unit = "turns" if figures.measure == "turns" else "points of win chance"
    scale = 1 if figures.measure == "turns" else 100
    typer.echo(
        f"{figures.games} games, {figures.decisions} decisions, each reviewed {figures.seeds} times "
        f"({FIRST_PLAYOUTS + MORE_PLAYOUTS} play-outs a move): spread {scale * figures.spread:.2f} {unit}; "
        f"{100 * figures.agreement:.0f}% of the decisions in the same class with every seed (best and good as one)."
    )
    for level, found in figures.by_level.items():
        classes = ", ".join(f"{count} {grade}" for grade, count in found["classes"].items())
        typer.echo(
            f"{level}: {found['decisions']} decisions, mean loss {scale * (found['mean_loss'] or 0):.2f} {unit}; "
            f"{classes}."
        )


MakeTable = Callable[[int, int, int], dict[str, Any]]
"""(rounds, seed, games) -> the table: :func:`racko.envs.batch.game_chances.make_table`, handed in by ``racko.cli``
(the batch simulator is a front end of its own, which the tools may not import)."""
_MAKE_TABLE: MakeTable | None = None
_TABLE_PATH = Path(__file__).resolve().parent.parent / "analysis" / "data" / TABLE_FILE


def game_chances_command(
    rounds: Annotated[int, typer.Option(min=100, help="Rounds simulated for each player count.")] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed of the decks.")] = 0,
    games: Annotated[
        int, typer.Option(min=10, help="With 3 and 4 players: games played on from each pair of scores.")
    ] = GAMES,
    output: Annotated[
        Path,
        typer.Option(help="Where to write the table (the package's own by default).", dir_okay=False),
    ] = _TABLE_PATH,
) -> None:
    """Make the table of game-winning chances by score that the review grades moves with: rounds of the batch
    simulator (medium's policy at every seat) for 2, 3 and 4 players, then every pair of scores played on to 500
    (docs/REVIEW.md)."""
    started = time.perf_counter()
    if _MAKE_TABLE is None:
        raise _fail("game-chances needs the batch simulator, which this racko was started without.", 2)
    try:
        table = _MAKE_TABLE(rounds, seed, games)
    except RackoError as error:
        raise _fail(str(error), 2) from None
    output.write_text(json.dumps(table, separators=(",", ":")) + "\n")
    start = table["tables"]["2"][-1][-1] / 100
    typer.echo(
        f"Wrote {output}: {rounds} rounds a player count, {time.perf_counter() - started:.0f} s; "
        f"2 players at 0-0: {start:.1f}%."
    )


def register(app: typer.Typer, make_table: MakeTable | None = None) -> None:
    """Add ``review`` to the ``racko`` app (its benchmark is ``racko bench review``); ``make_table`` makes the table
    of game-winning chances for ``racko game-chances``."""
    global _MAKE_TABLE
    _MAKE_TABLE = make_table
    app.command("review")(review_command)
    app.command("review-spread", hidden=False)(spread_command)
    app.command("game-chances")(game_chances_command)
