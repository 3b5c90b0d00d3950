"""The one-move rating at a table of 3 to 5 players, fitted to deep play-outs (``racko fit-table-rating``).

With three or more players a round is a race to be first out, and a player's speed at the table decides it: half a
turn between ``medium`` and ``hard`` is worth nine points of the 3-player share (docs/STRENGTH.md).  The rating that
chooses a move is the gap model's cost of the rack it leaves (:class:`racko.bots.gaps.GapModel`: a power on the
pool's ratio, a slack per open slot, a factor for a gap at an end).  Fitting it:

1. **Positions**: rounds of ``hard`` players at a table of ``players``; a seat about to place a card it drew (ten
   exchanges and the discard to choose from) is kept now and then, from its own view.
2. **Labels**: every move played out :data:`PLAY_OUTS` times to a Rack-O by the play-outs' player (``hard``'s take
   rule, the rating being fitted), the other seats drawing and discarding in between (the C kernel's ``estimate``),
   the same stock orders for every move: its mean turns.
3. **A ranking loss**: the rating's parameters that order the moves as the play-outs do: over every pair of moves of
   a position, a logistic loss on the difference of their costs, weighed by the difference of their turns, the pairs
   the rating ranked badly before weighing twice (a regression on the turns ranked badly before).
4. **Label again**: the fitted rating plays the play-outs, the positions are labelled again, and the rating is fitted
   again, :data:`ROUNDS` times.

The figures: on held-out positions, the play-out turns each rating loses against the best move (a rating that
always chose the best move would lose none).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import racko
from racko import bots
from racko.actions import Action, DrawFromStock
from racko.bots.gaps import PLAIN, GapModel, RackValuer, cards_that_may_come, counts_below
from racko.bots.rollout import Candidate, World, estimate, kernel_available
from racko.errors import RackoError
from racko.observation import Observation, Phase
from racko.rules import RACK_SIZE
from racko.tools.strength import nelder_mead

PLAY_OUTS = 48
"""Play-outs per move of a position."""
ROUNDS = 3
"""Times the positions are labelled and the rating fitted."""
CAP = 60
KEEP = 0.25
"""The share of a seat's placements kept as positions."""


@dataclass(frozen=True)
class Position:
    """A seat holding a card it drew, from its own view."""

    observation: Observation

    @property
    def moves(self) -> list[tuple[tuple[int, ...], int]]:
        """Every move as (rack after it, card handed on): the ten exchanges, then the discard."""
        rack, held = self.observation.rack, self.observation.held
        assert held is not None
        return [(_placed(rack, slot, held), rack[slot]) for slot in range(RACK_SIZE)] + [(rack, held)]


def _placed(rack: Sequence[int], slot: int, card: int) -> tuple[int, ...]:
    return (*rack[:slot], card, *rack[slot + 1 :])


def collect_positions(players: int, count: int, seed: int) -> list[Position]:
    """``count`` positions of seats that drew a card, from rounds of ``hard`` players at a table of ``players``."""
    rules = racko.variant("classic").rules(players, turn_cap=400)
    generator = random.Random(f"racko-table-rating:{seed}")
    found: list[Position] = []
    deal = 0
    while len(found) < count:
        round_ = racko.Round.deal(rules, seed=seed * 1_000_003 + deal, dealer=deal % players)
        seats = [bots.create("hard", seed=deal * players + seat) for seat in range(players)]
        deal += 1
        drew = False
        while round_.to_act is not None and len(found) < count:
            seat = round_.to_act
            observation = round_.observation(seat)
            assert isinstance(observation, Observation)
            if observation.public.phase is Phase.PLACE and drew and generator.random() < KEEP:
                found.append(Position(observation))
            move = cast(Action, seats[seat].act(observation))
            drew = isinstance(move, DrawFromStock)
            round_.apply(move)
    return found


def label(
    positions: Sequence[Position], model: GapModel, seed: int, progress: Callable[[], None] | None = None
) -> list[list[float]]:
    """The play-outs' mean turns of every move of every position, by the player of ``model``."""
    if not kernel_available():
        raise RackoError("Fitting the table rating needs racko's compiled kernel.")
    labels = []
    for number, position in enumerate(positions):
        view = position.observation
        public = view.public
        world = World(
            deck_size=public.rules.deck_size,
            may_come=tuple(cards_that_may_come(view)),
            known_order=public.known_stock_order,
            needs_run=public.rules.two_player_rule,
            opponents=public.rules.players - 1,
            model=model,
            weighs_draw=True,
        )
        candidates = [Candidate(rack, handed) for rack, handed in position.moves]
        labels.append(estimate(world, candidates, PLAY_OUTS, seed * 7_919 + number, CAP))
        if progress is not None:
            progress()
    return labels


def costs(position: Position, model: GapModel) -> list[float]:
    """The rating's cost of the rack each move leaves."""
    view = position.observation
    valuer = RackValuer(counts_below(cards_that_may_come(view), view.public.rules.deck_size), False, model)
    return [valuer.cost(rack) for rack, _ in position.moves]


def turns_lost(positions: Sequence[Position], labels: Sequence[Sequence[float]], model: GapModel) -> float:
    """The mean play-out turns the rating's choice loses against the best move."""
    lost = []
    for position, turns in zip(positions, labels, strict=True):
        rated = costs(position, model)
        chosen = min(range(len(rated)), key=lambda index: (rated[index], index == len(rated) - 1))
        lost.append(turns[chosen] - min(turns))
    return statistics.fmean(lost)


def model_at(point: Sequence[float]) -> GapModel:
    """The gap model at ``point``: (power, slack, log of the end factor)."""
    power, slack, edge = point
    return GapModel(slack=slack, edge=math.exp(max(-3.0, min(3.0, edge))), power=max(0.3, min(2.0, power)))


Pairs = list[list[tuple[int, int, float]]]
"""Per position, the pairs of moves (better, worse, weight) the ranking loss weighs."""


def weighed_pairs(positions: Sequence[Position], labels: Sequence[Sequence[float]], before: GapModel) -> Pairs:
    """Every pair of moves whose play-outs differ, weighed by their turn difference, twice when ``before`` ranked
    it badly (the worse move cost no more)."""
    pairs: Pairs = []
    for position, turns in zip(positions, labels, strict=True):
        earlier = costs(position, before)
        pairs.append(
            [
                (better, worse, (turns[worse] - turns[better]) * (2.0 if earlier[better] >= earlier[worse] else 1.0))
                for better in range(len(turns))
                for worse in range(len(turns))
                if turns[worse] > turns[better]
            ]
        )
    return pairs


def ranking_loss(positions: Sequence[Position], pairs: Pairs, model: GapModel) -> float:
    """The pairs of moves ordered against the play-outs, softly: a logistic loss on their cost difference."""
    total = 0.0
    for position, weighed in zip(positions, pairs, strict=True):
        rated = costs(position, model)
        for better, worse, weight in weighed:
            margin = rated[worse] - rated[better]
            if math.isnan(margin):
                continue
            total += weight * (math.log1p(math.exp(-margin)) if margin > -30 else -margin)
    return total / max(1, len(positions))


@dataclass(frozen=True)
class TableRating:
    """The rating fitted round by round, and how many play-out turns each loses on held-out positions."""

    players: int
    models: tuple[GapModel, ...]
    """The play-outs' model of each round (the first: ``hard``'s plain model), then the last fit."""
    held_out_lost: tuple[float, ...]
    """Per model, on the held-out positions labelled by the last model's play-outs."""
    table_model_lost: float
    """``expert``'s table model (power 0.9) on the same."""

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "models": [
                {"power": round(m.power, 4), "slack": round(m.slack, 4), "edge": round(m.edge, 4)} for m in self.models
            ],
            "held_out_turns_lost": [round(value, 4) for value in self.held_out_lost],
            "expert_table_model_turns_lost": round(self.table_model_lost, 4),
        }


def fit_table_rating(
    players: int,
    positions: int,
    seed: int = 0,
    rounds: int = ROUNDS,
    progress: Callable[[int, int], None] | None = None,
) -> TableRating:
    """Fit the one-move rating for ``players`` (see the module's description); a fifth of the positions held out."""
    from racko.bots.expert import TABLE_GAPS

    if players < 3:
        raise RackoError("The table rating is fitted for 3 to 5 players.")
    found = collect_positions(players, positions, seed)
    held = found[: positions // 5]
    fitting = found[positions // 5 :]
    total = rounds * len(fitting) + len(held)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    models = [PLAIN]
    point = [1.0, 0.0, 0.0]
    for number in range(rounds):
        labels = label(fitting, models[-1], seed + number, step)
        pairs = weighed_pairs(fitting, labels, models[-1])

        def loss(at: Sequence[float], pairs: Pairs = pairs) -> float:
            return ranking_loss(fitting, pairs, model_at(at))

        point, _ = nelder_mead(loss, point, 0.2, 60)
        models.append(model_at(point))
    held_labels = label(held, models[-1], seed + rounds, step)
    lost = tuple(turns_lost(held, held_labels, model) for model in models)
    return TableRating(players, tuple(models), lost, turns_lost(held, held_labels, TABLE_GAPS))
