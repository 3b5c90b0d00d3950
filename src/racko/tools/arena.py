"""The research arena : bots play many rounds or games against each other, or solitaire.

:func:`run_arena` seats one bot per seat and plays single rounds or whole games;
:func:`run_solo` times one bot alone against the deck.  Both split the deals
into chunks played by local worker processes or, with ``backend="ray"``, by
tasks on a Ray cluster (:mod:`racko.tools.backends` runs them), and both are
reproducible: deal ``k`` depends only on the seed and ``k`` (its deck, its
refill shuffles, its bots' seeds), so the figures are the same for any number
of jobs and either backend.

Seats rotate: in deal ``k`` the ``i``-th bot of the list sits in seat
``(i + k) % players`` and seat ``(k // players) % players`` deals, so over any
multiple of ``players`` deals every bot sits in every seat, and at every
distance from the dealer, equally often.  In Partners the rotation keeps the
teams together: bots 1 and 3 of the list play against bots 2 and 4.

>>> report = run_arena(["easy", "random"], "classic", 2, rounds=4, seed=1, options={"two_player_rule": False})
>>> [row.bot for row in report.results], report.deals, report.balanced
(['easy', 'random'], 4, True)
>>> sorted(report.to_json())
['backend', 'capped', 'deals', 'mode', 'players', 'results', 'seconds', 'seed', 'variant']
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from racko import bots
from racko.bots.runner import DecisionTimes, play_match, play_round, time_quantile
from racko.errors import RackoError
from racko.families import AnyRound, family_of
from racko.match import Match
from racko.rules import Rules
from racko.rules import variant as variant_of
from racko.tools.backends import BACKENDS as BACKENDS  # re-exported for the commands and callers
from racko.tools.backends import Backend as Backend
from racko.tools.backends import Progress as Progress
from racko.tools.backends import run_chunks

Mode = Literal["rounds", "games"]

Prepare = Callable[[Sequence[bots.Bot], AnyRound], None]
"""A research hook: given each deal's bots and its round before play (rounds only; a module-level function, so that
worker processes can run it).  ``racko headroom`` hands a bot the round it plays to read the opponent's rack."""

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""

DEFAULT_TURN_CAP = 1000
"""The arena's turn cap unless the options set one (``turn_cap=None``: none), so that every round ends."""

SOLO_TURN_CAP = 1000
"""A solitaire round ends after this many turns (a bot that cannot sort its rack would never finish)."""


# --- Statistics -------------------------------------------------------------------------------


def wilson_interval(wins: int, played: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default); ``(0, 1)`` when nothing was played.

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if played <= 0:
        return 0.0, 1.0
    p = wins / played
    z2 = z * z
    denominator = 1 + z2 / played
    centre = (p + z2 / (2 * played)) / denominator
    half = z * math.sqrt(p * (1 - p) / played + z2 / (4 * played * played)) / denominator
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= played else min(1.0, centre + half)
    return lo, hi


def mean_interval(values: Sequence[float], z: float = Z95, floor: float = 0.0) -> tuple[float, float]:
    """The normal-approximation interval for a mean: mean ± z·sd/√n (sd of the sample), never below ``floor``
    (the least a value can be: a count of turns is never negative, whatever a few samples suggest)."""
    if not values:
        return 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return max(floor, mean - half), mean + half


def percentile(sorted_values: Sequence[int], fraction: float) -> int:
    """The nearest-rank percentile of already sorted values (``fraction`` in (0, 1])."""
    if not sorted_values:
        return 0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


# --- Reports ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BotResult:
    """One bot of the list (or one Partners team) over the whole run."""

    bot: str
    """The bot's name, ``easy#2`` for the second ``easy`` of the list, ``expert+easy`` for a team."""
    entries: tuple[int, ...]
    """Its positions in the bot list (two for a team)."""
    wins: int
    played: int
    score_total: int
    """Sum of its round scores (rounds mode) or final totals (games mode); a team's are added."""
    rounds: int
    """Rounds it played (games mode: every round of every game)."""
    turns_total: int
    """Turns of those rounds (every player's turns)."""
    seat_counts: tuple[int, ...]
    """How many deals its bots (each member of a team) sat in each seat."""
    score_counts: tuple[tuple[int, int], ...]
    """The distribution of its per-deal scores: (score, how many deals), by score."""
    decision_times: DecisionTimes = field(default_factory=Counter, repr=False)
    """How long its bots took to decide (the one figure that differs between runs of the same seed)."""
    deal_wins: tuple[bool, ...] = field(default=(), repr=False)
    """Per deal in order, whether it won that deal (to compare two runs on the same deals)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The Wilson 95 % interval of the win rate."""
        return wilson_interval(self.wins, self.played)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.played if self.played else 0.0

    @property
    def mean_turns(self) -> float:
        return self.turns_total / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {
            "bot": self.bot,
            "wins": self.wins,
            "played": self.played,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "mean_score": round(self.mean_score, 3),
            "mean_turns": round(self.mean_turns, 3),
            "decision_ms": decision_ms(self.decision_times),
        }


def decision_ms(times: DecisionTimes) -> dict[str, float]:
    """The median and 99th percentile of a bot's decision times, in milliseconds, for ``--json``."""
    return {"median": round(time_quantile(times, 0.5), 3), "p99": round(time_quantile(times, 0.99), 3)}


@dataclass(frozen=True)
class ArenaReport:
    """What :func:`run_arena` found.  Everything but :attr:`seconds` (and the decision times) is the same for any
    number of jobs and either backend."""

    results: tuple[BotResult, ...]
    variant: str
    players: int
    mode: Mode
    deals: int
    """Rounds (rounds mode) or games (games mode) played."""
    capped: int
    """Rounds ended by the turn cap without a winner (in games mode: rounds within the games)."""
    seed: int
    seconds: float
    rules: Rules
    backend: Backend = "local"
    """Where the deals were played: ``local`` worker processes, or ``ray`` tasks."""
    jobs: int = 1
    """How many chunks could run at once: worker processes, or Ray tasks."""

    @property
    def balanced(self) -> bool:
        """Whether every bot sat in every seat equally often (the deals are a multiple of the players)."""
        return self.deals % self.players == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "results": [row.to_json() for row in self.results],
            "variant": self.variant,
            "players": self.players,
            "mode": self.mode,
            "deals": self.deals,
            "capped": self.capped,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "backend": self.backend,
        }


@dataclass(frozen=True)
class SoloReport:
    """What :func:`run_solo` found: turns to go Rack-O alone (capped rounds count as the cap)."""

    bot: str
    cards: int
    rounds: int
    mean_turns: float
    ci95: tuple[float, float]
    """Normal-approximation 95 % interval of the mean."""
    median_turns: float
    p90_turns: int
    capped: int
    seed: int
    seconds: float
    turn_counts: tuple[tuple[int, int], ...] = field(repr=False)
    """The distribution of turns per round: (turns, how many rounds)."""
    decision_times: DecisionTimes = field(default_factory=Counter, repr=False)
    backend: Backend = "local"
    jobs: int = 1

    def to_json(self) -> dict[str, Any]:
        """The figures; all but ``decision_ms`` are the same for any number of jobs and either backend."""
        lo, hi = self.ci95
        return {
            "bot": self.bot,
            "rounds": self.rounds,
            "mean_turns": round(self.mean_turns, 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "median_turns": self.median_turns,
            "p90_turns": self.p90_turns,
            "capped": self.capped,
            "decision_ms": decision_ms(self.decision_times),
            "backend": self.backend,
        }


# --- Deals ------------------------------------------------------------------------------------


def _derived_seed(seed: int, deal: int, purpose: str) -> int:
    return random.Random(f"racko-arena:{seed}:{deal}:{purpose}").getrandbits(63)


def _derived_rng(seed: int, deal: int, purpose: str) -> random.Random:
    return random.Random(f"racko-arena:{seed}:{deal}:{purpose}")


def seat_of(entry: int, deal: int, players: int) -> int:
    """The seat of the ``entry``-th bot of the list in deal ``deal``."""
    return (entry + deal) % players


def dealer_of(deal: int, players: int) -> int:
    """The dealer of deal ``deal`` (the first dealer, in games mode)."""
    return (deal // players) % players


@dataclass(frozen=True)
class _ArenaJob:
    bot_names: tuple[str, ...]
    rules: Rules
    mode: Mode
    seed: int
    rows: tuple[tuple[int, ...], ...]
    """Entries of the bot list reported together: one each, or the two of a Partners team."""
    prepare: Prepare | None = None


@dataclass
class _Tally:
    """Sums over some deals; tallies of disjoint chunks add up to the same totals in any order."""

    rows: int
    players: int
    deals: int = 0
    capped: int = 0
    wins: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    rounds: int = 0
    turns: int = 0
    seats: list[list[int]] = field(default_factory=list)
    score_counts: list[Counter[int]] = field(default_factory=list)
    decision_times: list[DecisionTimes] = field(default_factory=list)
    deal_wins: list[int] = field(default_factory=list)
    """Per deal in order, the rows that won it, one bit each (for comparisons on the same deals)."""

    def __post_init__(self) -> None:
        self.wins = [0] * self.rows
        self.scores = [0] * self.rows
        self.seats = [[0] * self.players for _ in range(self.rows)]
        self.score_counts = [Counter() for _ in range(self.rows)]
        self.decision_times = [Counter() for _ in range(self.rows)]

    def add(self, other: _Tally) -> None:
        self.deals += other.deals
        self.capped += other.capped
        self.rounds += other.rounds
        self.turns += other.turns
        self.deal_wins.extend(other.deal_wins)
        for row in range(self.rows):
            self.wins[row] += other.wins[row]
            self.scores[row] += other.scores[row]
            self.score_counts[row].update(other.score_counts[row])
            self.decision_times[row].update(other.decision_times[row])
            for seat in range(self.players):
                self.seats[row][seat] += other.seats[row][seat]


def _play_arena_chunk(job: _ArenaJob, start: int, stop: int) -> _Tally:
    rules = job.rules
    players = rules.players
    family = family_of(rules)
    tally = _Tally(len(job.rows), players)
    for deal in range(start, stop):
        seat_bot = [""] * players
        for entry, name in enumerate(job.bot_names):
            seat_bot[seat_of(entry, deal, players)] = name
        seated = [
            bots.create(name, seed=_derived_seed(job.seed, deal, f"bot:{seat}")) for seat, name in enumerate(seat_bot)
        ]
        dealer = dealer_of(deal, players)
        times: list[DecisionTimes] = [Counter() for _ in range(players)]
        if job.mode == "rounds":
            deck = family.full_deck(rules)
            _derived_rng(job.seed, deal, "deck").shuffle(deck)
            round_ = family.new_round(rules, deck, dealer, rng=_derived_rng(job.seed, deal, "refills"))
            if job.prepare is not None:
                job.prepare(seated, round_)
            result = play_round(round_, seated, times)
            winners: tuple[int, ...] = () if result.winner is None else (result.winner,)
            seat_scores: Sequence[int] = result.scores
            side_scores = [0] * rules.sides
            for seat, score in enumerate(seat_scores):
                side_scores[rules.side_of(seat)] += score
            tally.rounds += 1
            tally.turns += result.turns
            tally.capped += result.capped
        else:
            match = Match(rules, seed=_derived_seed(job.seed, deal, "match"), first_dealer=dealer)
            outcome = play_match(match, seated, times)
            winners = outcome.seats
            side_scores = list(outcome.totals)
            for finished in match.results:
                tally.rounds += 1
                tally.turns += finished.turns
                tally.capped += finished.capped
        tally.deals += 1
        won = 0
        for row, entries in enumerate(job.rows):
            seats = [seat_of(entry, deal, players) for entry in entries]
            for seat in seats:
                tally.seats[row][seat] += 1
                tally.decision_times[row].update(times[seat])
            if any(seat in winners for seat in seats):
                tally.wins[row] += 1
                won |= 1 << row
            score = side_scores[rules.side_of(seats[0])]
            tally.scores[row] += score
            tally.score_counts[row][score] += 1
        tally.deal_wins.append(won)
    return tally


@dataclass(frozen=True)
class _SoloJob:
    bot_name: str
    rules: Rules
    seed: int


def _play_solo_chunk(job: _SoloJob, start: int, stop: int) -> tuple[Counter[int], int, DecisionTimes]:
    rules = job.rules
    turns: Counter[int] = Counter()
    capped = 0
    times: DecisionTimes = Counter()
    for deal in range(start, stop):
        bot = bots.create(job.bot_name, seed=_derived_seed(job.seed, deal, "bot:0"))
        deck = family_of(rules).full_deck(rules)
        _derived_rng(job.seed, deal, "deck").shuffle(deck)
        result = play_round(
            family_of(rules).new_round(rules, deck, 0, rng=_derived_rng(job.seed, deal, "refills")), [bot], [times]
        )
        turns[result.turns] += 1
        capped += result.capped
    return turns, capped, times


# --- The arena --------------------------------------------------------------------------------


def _names(labels: Sequence[str]) -> list[str]:
    """Labels made distinct: the second ``easy`` becomes ``easy#2``."""
    seen: Counter[str] = Counter()
    names = []
    for label in labels:
        seen[label] += 1
        names.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return names


def _check_count(what: str, value: int | None) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise RackoError(f"The number of {what} must be a positive whole number, not {value!r}.")


def _check_bots(names: Sequence[str]) -> None:
    for name in dict.fromkeys(names):
        bots.create(name)  # raises RackoError, naming the bots there are, for an unknown one


def run_arena(
    bot_names: Sequence[str],
    variant: str = "classic",
    players: int | None = None,
    rounds: int | None = None,
    games: int | None = None,
    seed: int = 0,
    jobs: int | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    backend: Backend = "local",
    address: str | None = None,
    prepare: Prepare | None = None,
) -> ArenaReport:
    """Play ``rounds`` single rounds or ``games`` whole games with one bot per seat, seats rotating.

    ``bot_names`` names one bot per seat (``players`` defaults to their number);
    ``options`` are rule options for the variant (``two_player_rule``,
    ``turn_cap``, ``target``, ...); the turn cap is :data:`DEFAULT_TURN_CAP` unless
    set (``turn_cap=None`` for none, if every bot pair is sure to finish).  Raises :class:`~racko.errors.RackoError`
    for an unknown bot or variant, a bad player count or option, and for a bot
    that cannot play the variant (raised from its first move).

    ``backend="local"`` plays the deals in ``jobs`` worker processes (default 1:
    this process); ``backend="ray"`` as Ray tasks, at most ``jobs`` at once
    (default: the cluster's CPUs), on the cluster at ``address`` (see
    :func:`racko.tools.backends.run_chunks`).  The figures are the same either way.  ``prepare``: a research hook
    (:data:`Prepare`).
    """
    names = [str(name).strip() for name in bot_names]
    if not names or any(not name for name in names):
        raise RackoError("Name a bot for every seat, e.g. easy,random.")
    if players is None:
        players = len(names)
    _check_count("players", players)
    if players < 2:
        raise RackoError("The arena needs two players or more: time a bot alone with racko solo.")
    rules = variant_of(variant).rules(players, **{"turn_cap": DEFAULT_TURN_CAP, **(options or {})})
    if len(names) != rules.players:
        raise RackoError(
            f"{len(names)} bot{'s' if len(names) != 1 else ''} named for {rules.players} players: "
            f"name one bot per seat."
        )
    _check_bots(names)
    if rounds is not None and games is not None:
        raise RackoError("Play either rounds or games, not both.")
    _check_count("rounds", rounds)
    _check_count("games", games)
    _check_count("jobs", jobs)
    mode: Mode = "games" if games is not None else "rounds"
    deals = games if games is not None else rounds if rounds is not None else 10_000
    rows: tuple[tuple[int, ...], ...] = (
        ((0, 2), (1, 3)) if rules.partners else tuple((entry,) for entry in range(rules.players))
    )
    if prepare is not None and mode == "games":
        raise RackoError("A research hook prepares single rounds only.")
    job = _ArenaJob(tuple(names), rules, mode, seed, rows, prepare)
    started = time.perf_counter()
    run = run_chunks(_play_arena_chunk, job, deals, 250 if mode == "rounds" else 20, progress, backend, jobs, address)
    tally = _Tally(len(rows), rules.players)
    for part in run.parts:
        tally.add(part)
    seconds = time.perf_counter() - started
    labels = _names(["+".join(names[entry] for entry in entries) for entries in rows])
    results = tuple(
        BotResult(
            bot=labels[row],
            entries=entries,
            wins=tally.wins[row],
            played=tally.deals,
            score_total=tally.scores[row],
            rounds=tally.rounds,
            turns_total=tally.turns,
            seat_counts=tuple(tally.seats[row]),
            score_counts=tuple(sorted(tally.score_counts[row].items())),
            decision_times=tally.decision_times[row],
            deal_wins=tuple(bool(won >> row & 1) for won in tally.deal_wins),
        )
        for row, entries in enumerate(rows)
    )
    return ArenaReport(
        results, rules.variant, rules.players, mode, tally.deals, tally.capped, seed, seconds, rules, backend, run.jobs
    )


# --- Solitaire --------------------------------------------------------------------------------


def run_solo(
    bot_name: str,
    cards: int = 40,
    rounds: int = 10_000,
    seed: int = 0,
    jobs: int | None = None,
    progress: Progress | None = None,
    turn_cap: int = SOLO_TURN_CAP,
    backend: Backend = "local",
    address: str | None = None,
) -> SoloReport:
    """Turns ``bot_name`` needs to go Rack-O alone with a deck of ``cards`` cards (2-player rule off).

    Rounds that reach ``turn_cap`` end there and count as ``turn_cap`` turns
    (so the mean is a lower bound when :attr:`SoloReport.capped` is not 0).
    ``jobs``, ``backend`` and ``address`` as for :func:`run_arena`.
    """
    _check_count("rounds", rounds)
    _check_count("jobs", jobs)
    _check_count("cards", cards)
    rules = variant_of("classic").rules(1, deck_size=cards, two_player_rule=False, turn_cap=turn_cap)
    _check_bots([bot_name])
    started = time.perf_counter()
    run = run_chunks(_play_solo_chunk, _SoloJob(bot_name, rules, seed), rounds, 1000, progress, backend, jobs, address)
    counts: Counter[int] = Counter()
    capped = 0
    times: DecisionTimes = Counter()
    for part_counts, part_capped, part_times in run.parts:
        counts.update(part_counts)
        capped += part_capped
        times.update(part_times)
    seconds = time.perf_counter() - started
    values = sorted(counts.elements())
    return SoloReport(
        bot=bot_name,
        cards=cards,
        rounds=len(values),
        mean_turns=statistics.fmean(values),
        ci95=mean_interval(values),
        median_turns=statistics.median(values),
        p90_turns=percentile(values, 0.9),
        capped=capped,
        seed=seed,
        seconds=seconds,
        turn_counts=tuple(sorted(counts.items())),
        decision_times=times,
        backend=backend,
        jobs=run.jobs,
    )


# --- Plotting ---------------------------------------------------------------------------------


def plot_report(report: ArenaReport, path: str | Path) -> None:
    """Draw the win rates with their 95 % intervals and the score distributions to an image file.

    Needs matplotlib (``pip install 'racko[plot]'``); raises :class:`~racko.errors.RackoError` without it.
    """
    try:
        from matplotlib.figure import Figure  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise RackoError("Plotting needs matplotlib: install it with pip install 'racko[plot]'.") from None
    figure = Figure(figsize=(11, 4.5), layout="constrained")
    rates, scores = figure.subplots(1, 2)
    labels = [row.bot for row in report.results]
    positions = list(range(len(labels)))
    below = [max(0.0, row.win_rate - row.ci95[0]) for row in report.results]
    above = [max(0.0, row.ci95[1] - row.win_rate) for row in report.results]
    rates.bar(positions, [row.win_rate for row in report.results], yerr=[below, above], capsize=6, color="tab:blue")
    rates.set_xticks(positions, labels)
    rates.set_ylim(0, 1)
    rates.set_ylabel("win rate (95 % Wilson interval)")
    unit = "rounds" if report.mode == "rounds" else "games"
    rates.set_title(f"{variant_of(report.variant).title}, {report.players} players: {report.deals:,} {unit}")
    every = sorted({score for row in report.results for score, _ in row.score_counts})
    step = 5 if all(score % 5 == 0 for score in every) else 1
    low, high = (every[0], every[-1]) if every else (0, 0)
    edges: list[float] = [low - step / 2 + step * i for i in range((high - low) // step + 2)]
    if len(edges) > 81:  # wide spreads (game totals): 80 equal bins
        edges = [low + (high - low) * i / 80 for i in range(81)]
    for row in report.results:
        values = [score for score, _ in row.score_counts]
        weights = [count / row.played for _, count in row.score_counts]
        scores.hist(values, bins=edges, weights=weights, histtype="step", linewidth=1.5, label=row.bot)
    scores.set_xlabel("round score" if unit == "rounds" else "final total")
    scores.set_ylabel(f"share of {unit}")
    scores.set_title("score distribution")
    scores.legend()
    figure.savefig(str(path), dpi=100)
