"""The sanity suite: positions where one move is clearly worse by play-outs, and how often a bot makes it.

Positions of the default 2-player game (40 cards, the 2-player rule on: a Rack-O needs a run of three), seat 0
holding a card it drew from the stock at its first turn, of four kinds:

- ``high-low``: a high card, and a rack as dealt, nearly in order or half in order; the suspect moves put it in
  one of the three lowest slots;
- ``low-high``: a low card; the suspect moves put it in one of the three highest slots;
- ``break-run``: a rack with a run of three; the suspect moves put the card into the run and leave no run;
- ``discard-completion``: a rack without a run, holding the one card of the deck that would complete one where it
  keeps the rack's order; the suspect move is to discard it.

Every position is judged by play-outs before a bot sees it (:func:`racko.bots.rollout.estimate`: every move played
out to a Rack-O by a ``medium``-like player, an opponent drawing and discarding between its turns, the same stock
orders for every move).  A suspect move counts as a blunder only when it needs at least :data:`MARGIN` turns more
than the best of the other moves and that difference is :data:`Z` standard errors clear; a generated position
without such a move is dropped, and the next one tried.  The positions depend only on the seed (and on the build
that judges them), so the same seed puts every bot, and every build (``NAME@DIR``, :mod:`racko.tools.builds`), in
front of the same positions.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from racko import bots
from racko.actions import Action, Discard, DrawFromStock, Exchange
from racko.bots import rollout
from racko.bots.gaps import PLAIN, RackValuer, cards_that_may_come, counts_below
from racko.bots.rollout import Candidate, World, estimate
from racko.errors import RackoError
from racko.observation import Observation
from racko.round import Round, arrange_deck
from racko.rules import RACK_SIZE, SLOT_LABELS, variant
from racko.scoring import is_ordered, longest_run
from racko.tools.builds import other_bots_module, register_other_builds

KINDS = ("high-low", "low-high", "break-run", "discard-completion")
DECK = 40
LOW_SLOTS = 3
"""The suspect slots of ``high-low`` (the lowest) and ``low-high`` (the highest)."""
FAR = 0.7
"""How high (``high-low``) or low (``low-high``) the card is: in the top or bottom 30 % of the deck."""
MARGIN = 1.0
"""Turns by which a suspect move must trail the best other move to count as a blunder."""
Z = 3.0
"""Standard errors (of the paired difference over the batches) by which it must trail."""
BATCHES = 8
PLAY_OUTS = 16
"""Play-outs per move in a batch; the standard error comes from the batches' means."""
CAP = 60
ATTEMPTS = 20
"""Generated positions per position wanted, at most, before the suite says it could not find enough."""


@dataclass(frozen=True)
class Position:
    """A judged position: seat 0's rack, the card it drew, the card turned up, and its blunders."""

    kind: str
    rack: tuple[int, ...]
    held: int
    turned_up: int
    opponent: tuple[int, ...]
    turns: dict[Action, float]
    """Every move's mean turns to Rack-O in the play-outs, counting this one."""
    blunders: frozenset[Action]

    def observation(self) -> Observation:
        """Seat 0's view: the first turn of a 2-player round, the card drawn from the stock."""
        return first_turn(self.rack, self.held, self.turned_up, self.opponent)

    def to_json(self) -> dict[str, Any]:
        best = min(self.turns.values())
        return {
            "kind": self.kind,
            "rack": list(self.rack),
            "held": self.held,
            "turned_up": self.turned_up,
            "best_turns": round(best, 2),
            "blunders": sorted(describe(move) for move in self.blunders),
        }


@dataclass
class BotTally:
    bot: str
    blunders: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    examples: list[dict[str, Any]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.blunders.values())


@dataclass(frozen=True)
class SanityReport:
    seed: int
    positions: tuple[Position, ...]
    generated: dict[str, int]
    """Per kind, the positions generated to find the judged ones."""
    tallies: tuple[BotTally, ...]

    def count(self, kind: str) -> int:
        return sum(position.kind == kind for position in self.positions)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "kinds": {kind: {"positions": self.count(kind), "generated": self.generated[kind]} for kind in KINDS},
            "bots": [
                {
                    "bot": tally.bot,
                    "blunders": tally.blunders,
                    "total": tally.total,
                    "rate": round(tally.total / len(self.positions), 4) if self.positions else 0.0,
                    "examples": tally.examples,
                }
                for tally in self.tallies
            ],
        }


def describe(move: Action) -> str:
    """A move in words: ``slot 15`` or ``discard``."""
    return f"slot {SLOT_LABELS[move.slot]}" if isinstance(move, Exchange) else "discard"


def run_sanity(
    bot_names: Sequence[str],
    positions: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> SanityReport:
    """Judge ``positions`` positions of each kind (seeded), then ask every bot its move in each."""
    if positions < 1:
        raise RackoError(f"--positions must be at least 1, not {positions}.")
    register_other_builds(bot_names)
    for name in bot_names:
        bots.create(name)  # an unknown name fails before the long part
    judged, generated = judge_positions(positions, seed, progress)
    tallies = tuple(check(name, judged) for name in bot_names)
    return SanityReport(seed, tuple(judged), generated, tallies)


def check(bot_name: str, positions: Sequence[Position]) -> BotTally:
    """How often ``bot_name`` makes a blunder in these positions (a fresh bot, seeded, for each)."""
    tally = BotTally(bot_name)
    for index, position in enumerate(positions):
        move = bots.create(bot_name, seed=index).act(position.observation())
        if move in position.blunders:
            tally.blunders[position.kind] += 1
            tally.examples.append(
                {**position.to_json(), "move": describe(move), "move_turns": round(position.turns[move], 2)}
            )
    return tally


def judge_positions(
    wanted: int, seed: int, progress: Callable[[int, int], None] | None = None
) -> tuple[list[Position], dict[str, int]]:
    """``wanted`` judged positions of each kind, and how many of each were generated to find them."""
    found: list[Position] = []
    generated = dict.fromkeys(KINDS, 0)
    total = wanted * len(KINDS)
    for kind in KINDS:
        rng = random.Random(f"racko-sanity:{seed}:{kind}")
        count = 0
        while count < wanted:
            if generated[kind] >= ATTEMPTS * wanted:
                raise RackoError(f"found only {count} {kind} positions in {generated[kind]} tries.")
            generated[kind] += 1
            position = judge(kind, *GENERATORS[kind](rng), rng.getrandbits(63))
            if position is not None:
                found.append(position)
                count += 1
                if progress is not None:
                    progress(len(found), total)
    return found, generated


def judge(
    kind: str, rack: tuple[int, ...], held: int, suspects: Callable[[Action], bool], rng_seed: int
) -> Position | None:
    """Play out every move of the position; ``None`` when no suspect move is clearly worse than the best other."""
    rng = random.Random(rng_seed)
    turned_up, opponent = _rest_of_deal(rng, rack, held)
    if _goes_out_from_the_deal(rack, opponent):
        return None
    candidates = _candidates(rack, held)
    world = _judge_world(first_turn(rack, held, turned_up, opponent))
    batches = [estimate(world, candidates, PLAY_OUTS, rng.getrandbits(63), CAP) for _ in range(BATCHES)]
    means = [statistics.fmean(batch[index] for batch in batches) for index in range(len(MOVES))]
    others = [index for index, move in enumerate(MOVES) if not suspects(move)]
    if not others:
        return None
    best = min(others, key=lambda index: means[index])
    blunders = set()
    for index, move in enumerate(MOVES):
        if not suspects(move):
            continue
        differences = [batch[index] - batch[best] for batch in batches]
        spread = statistics.stdev(differences) / math.sqrt(len(differences))
        if means[index] - means[best] >= max(MARGIN, Z * spread):
            blunders.add(move)
    if not blunders:
        return None
    turns = dict(zip(MOVES, means, strict=True))
    return Position(kind, rack, held, turned_up, opponent, turns, frozenset(blunders))


Generated = tuple[tuple[int, ...], int, Callable[[Action], bool]]

MOVES: tuple[Action, ...] = (*(Exchange(0, slot) for slot in range(RACK_SIZE)), Discard(0))
"""Seat 0's moves with a card drawn from the stock: into each slot, then the discard."""


def first_turn(rack: tuple[int, ...], held: int, turned_up: int, opponent: tuple[int, ...]) -> Observation:
    """Seat 0's view at the first turn of a default 2-player round, holding ``held`` drawn from the stock."""
    rules = variant("classic").rules(2)
    rest = [card for card in range(1, DECK + 1) if card not in {*rack, *opponent, held, turned_up}]
    deck = arrange_deck([rack, opponent], 1, turned_up, [held, *rest], deck_size=DECK)
    round_ = Round(rules, deck, dealer=1)
    round_.apply(DrawFromStock(0))
    return round_.observation(0)


def _rest_of_deal(rng: random.Random, rack: Sequence[int], held: int) -> tuple[int, tuple[int, ...]]:
    """The card turned up and the opponent's rack, dealt from the cards left."""
    unseen = [card for card in range(1, DECK + 1) if card not in rack and card != held]
    rng.shuffle(unseen)
    return unseen[0], tuple(unseen[1 : 1 + RACK_SIZE])


def _goes_out_from_the_deal(rack: Sequence[int], opponent: Sequence[int]) -> bool:
    """Whether a rack is a Rack-O as dealt (the round is over: no move to judge)."""
    return any(is_ordered(cards) and longest_run(cards) >= 3 for cards in (rack, opponent))


def _candidates(rack: tuple[int, ...], held: int, kind: type[Candidate] = Candidate) -> list[Candidate]:
    """The play-outs' positions after each of :data:`MOVES` (``kind``: the class of the build that plays them)."""
    return [*(kind(_placed(rack, slot, held), rack[slot]) for slot in range(RACK_SIZE)), kind(rack, held)]


def _judge_world(view: Observation, kind: type[World] = World) -> World:
    """The play-outs' world: seat 0 plays like ``medium`` (the quicker player to play out), one opponent."""
    return kind(DECK, tuple(cards_that_may_come(view)), needs_run=True, opponents=1, model=PLAIN)


def _placed(rack: Sequence[int], slot: int, card: int) -> tuple[int, ...]:
    return (*rack[:slot], card, *rack[slot + 1 :])


def _some_rack(rng: random.Random) -> tuple[int, ...]:
    """Ten cards as dealt (a third of the time), or in order but for one or two pairs swapped (a third), or with
    half of the slots in order among themselves (a third): the racks of a round's start, end and middle."""
    rack = rng.sample(range(1, DECK + 1), RACK_SIZE)
    shape = rng.randrange(3)
    if shape == 1:
        rack.sort()
        for _ in range(rng.choice((1, 2))):
            first, second = rng.sample(range(RACK_SIZE), 2)
            rack[first], rack[second] = rack[second], rack[first]
    elif shape == 2:
        slots = sorted(rng.sample(range(RACK_SIZE), RACK_SIZE // 2))
        for slot, card in zip(slots, sorted(rack[slot] for slot in slots), strict=True):
            rack[slot] = card
    return tuple(rack)


def _far_card(rng: random.Random, rack: Sequence[int], high: bool) -> int:
    threshold = FAR * DECK
    cards = [card for card in range(1, DECK + 1) if card not in rack]
    return rng.choice([card for card in cards if (card > threshold if high else card <= DECK - threshold)])


def _high_low(rng: random.Random) -> Generated:
    rack = _some_rack(rng)
    held = _far_card(rng, rack, high=True)
    return rack, held, lambda move: isinstance(move, Exchange) and move.slot < LOW_SLOTS


def _low_high(rng: random.Random) -> Generated:
    rack = _some_rack(rng)
    held = _far_card(rng, rack, high=False)
    return rack, held, lambda move: isinstance(move, Exchange) and move.slot >= RACK_SIZE - LOW_SLOTS


def _with_run(rng: random.Random, swaps: Sequence[int]) -> tuple[list[int], int]:
    """Ten cards with a run of three at slots ``first`` to ``first + 2``, the others in order around it but for
    a number of pairs of them swapped (one of ``swaps``)."""
    first = rng.randrange(RACK_SIZE - 2)
    low = rng.randint(first + 1, DECK - 2 - (RACK_SIZE - 3 - first))
    below = rng.sample(range(1, low), first)
    above = rng.sample(range(low + 3, DECK + 1), RACK_SIZE - 3 - first)
    rack = [*sorted(below), low, low + 1, low + 2, *sorted(above)]
    others = [slot for slot in range(RACK_SIZE) if not first <= slot < first + 3]
    for _ in range(rng.choice(swaps)):
        one, two = rng.sample(others, 2)
        rack[one], rack[two] = rack[two], rack[one]
    return rack, first


def _break_run(rng: random.Random) -> Generated:
    rack, first = _with_run(rng, (1, 1, 2))  # not in order: the rack does not go out from the deal
    held = rng.choice([card for card in range(1, DECK + 1) if card not in rack])
    frozen = tuple(rack)

    def breaks(move: Action) -> bool:
        return (
            isinstance(move, Exchange)
            and first <= move.slot < first + 3
            and longest_run(_placed(frozen, move.slot, held)) < 3
        )

    return frozen, held, breaks


def _discard_completion(rng: random.Random) -> Generated:
    while True:
        rack, first = _with_run(rng, (1, 1, 2))  # not in order: the rack does not go out from the deal
        # Take one card of the run out: the one card that puts it back completes a run.
        missing = first + rng.randrange(3)
        held = rack[missing]
        rack[missing] = rng.choice([card for card in range(1, DECK + 1) if card not in rack])
        if longest_run(rack) >= 3:
            continue
        completing = {
            card
            for card in range(1, DECK + 1)
            if card not in rack
            for slot in range(RACK_SIZE)
            if longest_run(_placed(rack, slot, card)) >= 3
        }
        if completing == {held}:
            return tuple(rack), held, lambda move: isinstance(move, Discard)


RANKING_PLAY_OUTS = 64
"""Play-outs per move when the estimate's ranking is checked (the same stock orders for every move)."""
THIS_BUILD = "this build"


@dataclass(frozen=True)
class RankingAgreement:
    """How well one build's cost of a rack (gaps and, under the rule, the run) ranks a drawn card's moves, against
    the ranking of the play-outs, over the same positions."""

    build: str
    positions: int
    tau: float
    """The mean over the positions of Kendall's tau-b between the costs and the play-outs' turns (1: the same
    order, 0: no relation)."""
    same_choice: float
    """The share of positions where the move the cost picks (as ``medium`` and ``hard`` do) is the play-outs' best."""
    turns_lost: float
    """The mean play-out turns of the move the cost picks, over the play-outs' best move."""

    def to_json(self) -> dict[str, Any]:
        return {
            "build": self.build,
            "positions": self.positions,
            "tau": round(self.tau, 4),
            "same_choice": round(self.same_choice, 4),
            "turns_lost": round(self.turns_lost, 4),
        }


def ranking_agreement(
    positions: int,
    seed: int = 0,
    play_outs: int = RANKING_PLAY_OUTS,
    against: Sequence[str] = (),
    progress: Callable[[int, int], None] | None = None,
    judged_by: str | None = None,
) -> tuple[RankingAgreement, ...]:
    """Deal ``positions`` first turns of the default 2-player game (seeded: racks as in the sanity suite, a random
    card drawn), play out every move, and compare each build's ranking of the moves with the play-outs'
    (this build's first, then the source trees ``against``, :mod:`racko.tools.builds`).  The play-outs are this
    build's, or with ``judged_by`` those of that source tree: its player, its own cost of a rack, plays them."""
    if positions < 1:
        raise RackoError(f"--positions must be at least 1, not {positions}.")
    if play_outs < 2:
        raise RackoError(f"--play-outs must be at least 2, not {play_outs}.")
    judge: Any = rollout if judged_by is None else other_bots_module(judged_by, "rollout")
    valuers: dict[str, Callable[..., RackValuer]] = {THIS_BUILD: RackValuer}
    for tree in against:
        valuers[tree] = other_bots_module(tree, "gaps").RackValuer
    taus: dict[str, list[float]] = {build: [] for build in valuers}
    same: dict[str, int] = dict.fromkeys(valuers, 0)
    lost: dict[str, float] = dict.fromkeys(valuers, 0.0)
    rng = random.Random(f"racko-ranking:{seed}")
    done = 0
    while done < positions:
        rack = _some_rack(rng)
        held = rng.choice([card for card in range(1, DECK + 1) if card not in rack])
        turned_up, opponent = _rest_of_deal(rng, rack, held)
        if _goes_out_from_the_deal(rack, opponent):
            continue
        world = _judge_world(first_turn(rack, held, turned_up, opponent), judge.World)
        turns = judge.estimate(world, _candidates(rack, held, judge.Candidate), play_outs, rng.getrandbits(63), CAP)
        counts = counts_below(world.may_come, DECK)
        best = min(turns)
        for build, valuer_of in valuers.items():
            valuer = valuer_of(counts, True)
            costs = [*(valuer.cost(_placed(rack, slot, held)) for slot in range(RACK_SIZE)), valuer.cost(rack)]
            choice = _cost_choice(costs)
            taus[build].append(kendall_tau(costs, turns))
            same[build] += turns[choice] == best
            lost[build] += turns[choice] - best
        done += 1
        if progress is not None:
            progress(done, positions)
    return tuple(
        RankingAgreement(
            build, positions, statistics.fmean(taus[build]), same[build] / positions, lost[build] / positions
        )
        for build in valuers
    )


def _cost_choice(costs: Sequence[float]) -> int:
    """The index in :data:`MOVES` that a gap bot picks from these costs (the last is the discard's, the rack's own
    cost): the cheapest slot, the lowest of equals, unless it does not beat keeping the rack."""
    slot = min(range(RACK_SIZE), key=lambda index: costs[index])
    return slot if costs[slot] < costs[RACK_SIZE] else RACK_SIZE


def kendall_tau(first: Sequence[float], second: Sequence[float]) -> float:
    """Kendall's tau-b of two rankings of the same items (ties allowed; 0 when either ranks nothing apart)."""
    concordant = discordant = tied_first = tied_second = 0
    for i in range(len(first)):
        for j in range(i + 1, len(first)):
            one = (first[i] > first[j]) - (first[i] < first[j])
            two = (second[i] > second[j]) - (second[i] < second[j])
            if one == 0 and two == 0:
                continue
            if one == 0:
                tied_first += 1
            elif two == 0:
                tied_second += 1
            elif one == two:
                concordant += 1
            else:
                discordant += 1
    pairs = concordant + discordant
    scale = math.sqrt((pairs + tied_first) * (pairs + tied_second))
    return (concordant - discordant) / scale if scale else 0.0


GENERATORS: dict[str, Callable[[random.Random], Generated]] = {
    "high-low": _high_low,
    "low-high": _low_high,
    "break-run": _break_run,
    "discard-completion": _discard_completion,
}
