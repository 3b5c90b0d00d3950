"""Measuring the bots' strength on the same deals: paired comparisons of two arena runs, the headroom of a perfect
guess of the opponent's rack, and fitting ``master``'s model of the opponent on arena logs.

- **Records and comparisons** (:func:`record_of`, :func:`compare_records`): ``racko arena --record FILE`` keeps which
  bot won each deal; two records of the same deals (the same seed, rules and number of rounds: the arena makes deal
  ``k`` from the seed and ``k`` alone) compare deal by deal.  The difference of two win rates on the same deals has a
  much narrower interval than either rate: only the deals where one won and the other did not count.
- **Headroom** (:func:`headroom`): ``master`` given the opponent's true hidden rack in place of its guess (a research
  bot that reads the round, never a player), against an opponent, on the deals of a record of ``master`` itself.
- **Fitting the styles** (:func:`collect_turns`, :func:`fit_style`, :func:`fit_opponents`): each style's player
  (``hard``, ``band``, ``sequence``) plays arena rounds; the other seat reads its turns as ``master`` does, and the
  log keeps each turn with the rack it left, which the arena knows.  Each style's numbers are those that make its
  own turns likeliest (maximum likelihood, a Nelder-Mead search over the kernel's ``loglik``).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from racko import bots
from racko.actions import Action
from racko.bots.guess import Turn, Watch, hidden_cards, kernel, watched
from racko.bots.opponents import RULES, Style
from racko.errors import RackoError
from racko.families import AnyRound
from racko.observation import Observation, Phase
from racko.round import Round
from racko.rules import RACK_SIZE
from racko.tools.arena import Z95, ArenaReport, Progress, run_arena, wilson_interval
from racko.tools.builds import register_other_builds

RECORD_KIND = "racko-arena-record"


# --- Records and paired comparisons ----------------------------------------------------------------------------------


def record_of(report: ArenaReport, bot_names: Sequence[str], options: dict[str, Any]) -> dict[str, Any]:
    """What ``racko arena --record`` writes: the report, what identifies its deals, and who won each deal."""
    return {
        "kind": RECORD_KIND,
        "bots": list(bot_names),
        "variant": report.variant,
        "players": report.players,
        "mode": report.mode,
        "seed": report.seed,
        "deals": report.deals,
        "options": {key: value for key, value in sorted(options.items())},
        "report": report.to_json(),
        "deal_wins": {row.bot: "".join("1" if won else "0" for won in row.deal_wins) for row in report.results},
    }


def read_record(path: str | Path) -> dict[str, Any]:
    """A record written by ``racko arena --record``; a clear error for anything else."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise RackoError(f"Cannot read the record {path}: {error.strerror or error}.") from None
    except json.JSONDecodeError as error:
        raise RackoError(
            f"{path} is not a record of racko arena: not JSON ({error.msg}, line {error.lineno})."
        ) from None
    if not isinstance(document, dict) or document.get("kind") != RECORD_KIND:
        raise RackoError(f"{path} is not a record of racko arena (write one with racko arena --record FILE).")
    wins = document.get("deal_wins")
    if not isinstance(wins, dict) or not all(
        isinstance(text, str) and len(text) == document.get("deals") and set(text) <= {"0", "1"}
        for text in wins.values()
    ):
        raise RackoError(f"{path} is a damaged record: its deal wins do not match its deals.")
    return document


@dataclass(frozen=True)
class Comparison:
    """Two bots' win rates on the same deals, and their difference deal by deal."""

    first: str
    second: str
    deals: int
    first_wins: int
    second_wins: int
    only_first: int
    """Deals the first won and the second (in its place, on the same deal) did not."""
    only_second: int

    @property
    def difference(self) -> float:
        return (self.only_first - self.only_second) / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval of the difference, from the deals' paired differences."""
        if not self.deals:
            return 0.0, 0.0
        mean = self.difference
        variance = max(0.0, (self.only_first + self.only_second) / self.deals - mean * mean)
        half = Z95 * math.sqrt(variance / self.deals)
        return mean - half, mean + half

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        first_low, first_high = wilson_interval(self.first_wins, self.deals)
        second_low, second_high = wilson_interval(self.second_wins, self.deals)
        return {
            "first": self.first,
            "second": self.second,
            "deals": self.deals,
            "first_win_rate": round(self.first_wins / self.deals, 4) if self.deals else 0.0,
            "first_ci95": [round(first_low, 4), round(first_high, 4)],
            "second_win_rate": round(self.second_wins / self.deals, 4) if self.deals else 0.0,
            "second_ci95": [round(second_low, 4), round(second_high, 4)],
            "only_first": self.only_first,
            "only_second": self.only_second,
            "difference": round(self.difference, 4),
            "difference_ci95": [round(low, 4), round(high, 4)],
        }


def compare_wins(first: str, first_wins: Sequence[bool], second: str, second_wins: Sequence[bool]) -> Comparison:
    """The comparison of two bots' wins on the same deals, in the same order."""
    if len(first_wins) != len(second_wins):
        raise RackoError(f"The runs played {len(first_wins)} and {len(second_wins)} deals: not the same deals.")
    pairs = list(zip(first_wins, second_wins, strict=True))
    return Comparison(
        first=first,
        second=second,
        deals=len(pairs),
        first_wins=sum(a for a, _ in pairs),
        second_wins=sum(b for _, b in pairs),
        only_first=sum(a and not b for a, b in pairs),
        only_second=sum(b and not a for a, b in pairs),
    )


def compare_records(
    first: dict[str, Any], second: dict[str, Any], first_row: int = 0, second_row: int = 0
) -> Comparison:
    """The ``first_row``-th bot of one record against the ``second_row``-th of another, deal by deal; an error when the
    records are not of the same deals."""
    for key in ("variant", "players", "mode", "seed", "deals", "options"):
        if first.get(key) != second.get(key):
            raise RackoError(
                f"The records are not of the same deals: {key} {first.get(key)!r} against {second.get(key)!r}."
            )
    rows = []
    for record, row in ((first, first_row), (second, second_row)):
        names = list(record["deal_wins"])
        if not 0 <= row < len(names):
            raise RackoError(f"A record of {len(names)} bots has no row {row + 1}.")
        rows.append((names[row], [char == "1" for char in record["deal_wins"][names[row]]]))
    (first_name, first_wins), (second_name, second_wins) = rows
    return compare_wins(first_name, first_wins, second_name, second_wins)


# --- Headroom: the opponent's rack known ------------------------------------------------------------------------------


class Peeking:
    """Mixed into a ``master`` (of this build or another): it deals the opponent's hidden slots their true cards
    wherever it would deal them a guess (its sampled denial and its races), the headroom of a perfect guess.  A
    research bot: it reads the round it is handed (:func:`give_round`), which no player may."""

    round: Round | None = None

    def guess_weights(self, observation: Observation, hidden: list[int]) -> list[float]:
        if self.round is None:
            raise RackoError("A peeking bot sees the opponent's rack only in racko headroom.")
        size = observation.public.rules.deck_size
        opponent = 1 - observation.seat
        known = observation.public.known[opponent]
        weights = [0.0] * (RACK_SIZE * (size + 1))
        for slot, card in enumerate(self.round.rack(opponent)):
            if known[slot] is None:
                weights[slot * (size + 1) + card] = 1.0
        return weights


PEEK = "peek:"


def peeking_bot(name: str) -> str:
    """The name of the bot ``name`` (a ``master`` of this build or of another, ``master@DIR``) that peeks
    (:class:`Peeking`), made known to :func:`racko.bots.create` for this process and the workers forked after it."""
    peeking = PEEK + name
    if peeking not in bots.arena_opponents():
        register_other_builds([name])
        base = type(bots.create(name))
        if not hasattr(base, "guess_weights"):
            raise RackoError(f"{name} does not guess the opponent's rack: only master and expert can peek.")
        attributes = {"name": peeking, "listed": False, "description": f"{name} that sees the opponent's rack."}
        bots.register(type(f"Peeking{base.__name__}", (Peeking, base), attributes))
    return peeking


def give_round(seated: Sequence[bots.Bot], round_: AnyRound) -> None:
    """The arena's research hook for :class:`Peeking` bots: each is handed the round it plays."""
    for bot in seated:
        if isinstance(bot, Peeking) and isinstance(round_, Round):
            bot.round = round_


def headroom(
    baseline: dict[str, Any], jobs: int | None = None, progress: Progress | None = None
) -> tuple[dict[str, Any], Comparison]:
    """The first bot of the record ``baseline`` (2-player rounds) peeking, in its place on its deals: the new
    record, and the comparison with the first bot of ``baseline``."""
    if baseline.get("players") != 2 or baseline.get("mode") != "rounds":
        raise RackoError("The headroom is measured on a record of 2-player rounds.")
    names = [peeking_bot(baseline["bots"][0]), *baseline["bots"][1:]]
    register_other_builds(names[1:])
    options = dict(baseline["options"])
    report = run_arena(
        names,
        baseline["variant"],
        2,
        rounds=baseline["deals"],
        seed=baseline["seed"],
        jobs=jobs,
        options=options,
        progress=progress,
        prepare=give_round,
    )
    record = record_of(report, names, options)
    return record, compare_records(record, baseline)


# --- Fitting the styles on arena logs --------------------------------------------------------------------------------

STYLE_PLAYERS = {"gap": "hard", "band": "band", "sequence": "sequence"}
"""The arena player whose turns each style is fitted on."""


@dataclass(frozen=True)
class LoggedTurn:
    """One turn of the logged player as the other seat read it, with the rack it left (which the arena knows)."""

    rack: tuple[int, ...]
    turn: Turn


def collect_turns(
    player: str, opponent: str, rounds: int, seed: int, two_player_rule: bool, turn_cap: int = 400
) -> list[LoggedTurn]:
    """Rounds of ``player`` against ``opponent`` (seats and dealers rotating); every turn of ``player`` that the
    other seat could read, with ``player``'s rack right after it."""
    import racko

    rules = racko.variant("classic").rules(2, two_player_rule=two_player_rule, turn_cap=turn_cap)
    logged: list[LoggedTurn] = []
    for deal in range(rounds):
        seat = deal % 2
        round_ = racko.Round.deal(rules, seed=seed * 100_003 + deal, dealer=(deal // 2) % 2)
        seated: list[bots.Bot] = [bots.create(opponent, seed=deal), bots.create(opponent, seed=deal)]
        seated[seat] = bots.create(player, seed=deal)
        watch: Watch | None = None
        while round_.to_act is not None:
            acting = round_.to_act
            observation = round_.observation(acting)
            if acting != seat and isinstance(observation, Observation) and observation.public.phase is Phase.PICK:
                last = watch.turns[-1] if watch is not None and watch.turns else None
                watch = watched(watch, observation)
                if watch.turns and watch.turns[-1] is not last:  # a turn read: the rack it left is the rack now
                    logged.append(LoggedTurn(round_.rack(seat), watch.turns[-1]))
            round_.apply(cast(Action, seated[acting].act(observation)))
    return logged


def style_loglik(style: Style, turns: Sequence[LoggedTurn], two_player_rule: bool, deck_size: int = 40) -> float:
    """The log-likelihood of the logged turns under ``style``."""
    if kernel is None:
        raise RackoError("Fitting the styles needs racko's compiled kernel.")
    row = [style.kernel_row(1.0)]
    return math.fsum(kernel.loglik(deck_size, two_player_rule, logged.rack, [logged.turn], row)[0] for logged in turns)


LEAST_SPREAD = 0.05
"""The least spread a fit may give: a style's choices stay chances, however exactly its arena player follows it."""
LEAST_FLOOR = 0.001
"""The least share of choices made at random: a move no style would make leaves the guess of the rack alive."""


def _style_at(base: Style, point: Sequence[float]) -> Style:
    """``base`` with its fitted numbers at ``point`` (log spreads above the least, the margin, the logit of the floor
    above the least)."""
    take, place, margin, floor = (max(-30.0, min(30.0, value)) for value in point)
    return Style(
        name=base.name,
        take_spread=LEAST_SPREAD + math.exp(take),
        place_spread=LEAST_SPREAD + math.exp(place),
        take_margin=margin,
        floor=LEAST_FLOOR + (0.5 - LEAST_FLOOR) / (1 + math.exp(-floor)),
        shape=base.shape,
        share=base.share,
    )


def _point_of(style: Style) -> list[float]:
    def inverse_logit(share: float) -> float:
        share = min(max(share, 1e-6), 1 - 1e-6)
        return math.log(share / (1 - share))

    return [
        math.log(max(style.take_spread - LEAST_SPREAD, 1e-6)),
        math.log(max(style.place_spread - LEAST_SPREAD, 1e-6)),
        style.take_margin,
        inverse_logit((style.floor - LEAST_FLOOR) / (0.5 - LEAST_FLOOR)),
    ]


def nelder_mead(
    objective: Callable[[Sequence[float]], float], start: Sequence[float], step: float = 0.5, rounds: int = 200
) -> tuple[list[float], float]:
    """The point near ``start`` where ``objective`` is least, by Nelder and Mead's simplex search."""
    size = len(start)
    simplex = [list(start)]
    for axis in range(size):
        point = list(start)
        point[axis] += step
        simplex.append(point)
    values = [objective(point) for point in simplex]
    for _ in range(rounds):
        order = sorted(range(size + 1), key=lambda index: values[index])
        simplex = [simplex[index] for index in order]
        values = [values[index] for index in order]
        if abs(values[-1] - values[0]) < 1e-6 * (1 + abs(values[0])):
            break
        centre = [sum(point[axis] for point in simplex[:-1]) / size for axis in range(size)]
        worst = simplex[-1]

        def toward(weight: float, worst: list[float] = worst, centre: list[float] = centre) -> list[float]:
            return [c + weight * (c - w) for c, w in zip(centre, worst, strict=True)]

        reflected = toward(1.0)
        value = objective(reflected)
        if value < values[0]:
            expanded = toward(2.0)
            expanded_value = objective(expanded)
            simplex[-1], values[-1] = (expanded, expanded_value) if expanded_value < value else (reflected, value)
        elif value < values[-2]:
            simplex[-1], values[-1] = reflected, value
        else:
            contracted = toward(-0.5)
            contracted_value = objective(contracted)
            if contracted_value < values[-1]:
                simplex[-1], values[-1] = contracted, contracted_value
            else:
                best = simplex[0]
                simplex = [best] + [
                    [b + 0.5 * (p - b) for b, p in zip(best, point, strict=True)] for point in simplex[1:]
                ]
                values = [values[0]] + [objective(point) for point in simplex[1:]]
    least = min(range(size + 1), key=lambda index: values[index])
    return simplex[least], values[least]


def fit_style(base: Style, turns: Sequence[LoggedTurn], two_player_rule: bool) -> Style:
    """``base`` with the numbers that make the logged turns likeliest."""

    def objective(point: Sequence[float]) -> float:
        return -style_loglik(_style_at(base, point), turns, two_player_rule)

    point, _ = nelder_mead(objective, _point_of(base))
    return _style_at(base, point)


@dataclass(frozen=True)
class StyleFit:
    """The fitted styles for one 2-player rule, and how well each style's turns are told apart."""

    two_player_rule: bool
    styles: tuple[Style, ...]
    turns: dict[str, int]
    """Logged turns per style (the fit's half)."""
    held_out: dict[str, dict[str, float]]
    """Per style whose turns are weighed (the other half), the mean log-likelihood of a turn under each style."""

    def to_json(self) -> dict[str, Any]:
        return {
            "two_player_rule": self.two_player_rule,
            "styles": [style.to_json() for style in self.styles],
            "turns": self.turns,
            "held_out": {
                player: {name: round(value, 4) for name, value in row.items()} for player, row in self.held_out.items()
            },
        }


def fit_opponents(
    base: Sequence[Style], rounds: int, seed: int, two_player_rule: bool, opponent: str = "hard"
) -> StyleFit:
    """Each style fitted on the turns of its arena player against ``opponent`` over ``rounds`` rounds (the even
    deals; the odd ones are held out to say how well the fitted styles tell the players apart)."""
    fitted = []
    counts: dict[str, int] = {}
    held: dict[str, list[LoggedTurn]] = {}
    for style in base:
        logged = collect_turns(STYLE_PLAYERS[style.name], opponent, rounds, seed, two_player_rule)
        shuffled = list(logged)
        random.Random(seed).shuffle(shuffled)
        half = len(shuffled) // 2
        fitted.append(fit_style(style, shuffled[:half], two_player_rule))
        counts[style.name] = half
        held[style.name] = shuffled[half:]
    held_out = {
        player: {style.name: style_loglik(style, turns, two_player_rule) / max(1, len(turns)) for style in fitted}
        for player, turns in held.items()
    }
    return StyleFit(two_player_rule, tuple(fitted), counts, held_out)


def styles_document(fits: Sequence[StyleFit]) -> dict[str, Any]:
    """The data file ``racko/bots/data/opponents.json`` from the fits for both 2-player rules."""
    return {RULES[fit.two_player_rule]: [style.to_json() for style in fit.styles] for fit in fits}


def guess_quality(observation: Observation, weights: Sequence[float], true_rack: Sequence[int]) -> float:
    """The mean log-probability, over the opponent's hidden slots, of its true card under ``weights`` (each slot's
    row normalised over the hidden cards): how sharp a guess is."""
    size = observation.public.rules.deck_size
    hidden = hidden_cards(observation)
    known = observation.public.known[1 - observation.seat]
    total, slots = 0.0, 0
    for slot, card in enumerate(true_rack):
        if known[slot] is not None:
            continue
        row = slot * (size + 1)
        mass = sum(weights[row + other] for other in hidden) or 1.0
        total += math.log(max(weights[row + card] / mass, 1e-12))
        slots += 1
    return total / slots if slots else 0.0
