"""Self-play training of a Rack-O value function with numpy only, on racko's batch simulator.

Classic Rack-O, 2 players, 40 cards, 2-player rule off.  A player is judged by the value of its rack right after
its turn (the *afterstate*): the number of its own turns still needed to go Rack-O.  The value is a small neural
network (one hidden layer, written in numpy) over features of the rack and of the cards that may still come
(:func:`afterstate_features`).  It plays greedily one ply deep: it takes the top discard when the best rack it can
make with it needs fewer turns than the average blind draw (where the drawn card is kept only when it helps), and
puts a card where the rack needs the fewest turns.

Training is self-play: both seats of a few hundred rounds play at once on :mod:`racko.envs.batch`, every afterstate
is remembered, and after the rounds end the network is fitted to TD(λ) returns (one turn per step, 0 at Rack-O;
the loser's last value is the bootstrap).  It starts from the bucket rule of ``easy`` (a card belongs in slot
⌊(c-1)·10/40⌋), so that its first rounds finish at all, and learns the rest.  At checkpoints it plays a fixed bot
through the real engine and arena (:func:`racko.tools.arena.run_arena`).

    python examples/selfplay_value.py --rounds 20000 --out runs/full --json

See examples/README.md for the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

try:
    import matplotlib
    import numba
except ImportError as missing:  # pragma: no cover - a setup without the extras
    sys.exit(f"racko: this example needs the rl and plot extras (pip install -e '.[rl,plot]'): {missing}")

from racko import bots
from racko.actions import (
    DISCARD_INDEX,
    DRAW_INDEX,
    EXCHANGE_INDEX,
    TAKE_INDEX,
    Discard,
    DrawFromStock,
    Exchange,
    TakeDiscard,
)
from racko.bots.base import Bot
from racko.bots.gaps import cards_that_may_come
from racko.envs.batch import BatchEnv, BatchView
from racko.errors import RackoError
from racko.families import AnyAction, AnyObservation
from racko.observation import Observation, Phase
from racko.rules import RACK_SIZE
from racko.tools.arena import run_arena

DECK = 40
"""Classic 2-player deck: cards 1-40."""
TOP = DECK + 1
"""A sentinel above every card (the right end of the rack)."""
RULE_OPTIONS = {"two_player_rule": False}

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


# --- Features of an afterstate ----------------------------------------------------------------------------------
#
# A rack is read the way medium reads it (racko.bots.gaps): keep an increasing sequence of cards, and the slots
# between two kept cards form a gap that cards which may still come must fill.  A gap of k open slots whose value
# range holds m of the P cards that may come costs about P/m * k(k+1)/2 draws: the kept sequence is the one
# cheapest under that count.  The network is given the ingredients, not the verdict's weights: per slot, whether
# it is open, that count per open slot, its card, and whether the card is in its bucket; over the rack, the
# count split into gaps at an end of the rack and gaps inside, the open slots, the gaps, the pool, order breaks.

SLOT = np.arange(RACK_SIZE)
BUCKET_OF = np.concatenate([[-1], (np.arange(1, DECK + 1) - 1) * RACK_SIZE // DECK])
"""``BUCKET_OF[c]``: the slot the bucket rule gives card ``c``."""
SUMMARY_FEATURES = (
    "gap_draws_edge",
    "gap_draws_inside",
    "open_slots",
    "open_slots_at_edge",
    "gaps",
    "largest_gap",
    "pool",
    "order_breaks",
    "out_of_bucket",
)
SLOT_FEATURES = ("open", "draws_per_open_slot", "card", "in_bucket")
FEATURE_NAMES = tuple(SUMMARY_FEATURES) + tuple(f"{name}[{slot}]" for name in SLOT_FEATURES for slot in SLOT)
FEATURES = len(FEATURE_NAMES)
OUT_OF_BUCKET = FEATURE_NAMES.index("out_of_bucket")
DRAW_CLIP = 30.0
"""A gap's draws per open slot are capped here (a gap its pool can barely fill is as bad as hopeless)."""


def counts_below(may_come: Bools) -> Floats:
    """``counts[r, v]``: how many cards of row ``r``'s ``may_come[r, 1..DECK]`` are at most ``v`` (v = 0..TOP)."""
    counts = np.zeros((len(may_come), TOP + 1))
    counts[:, 1:TOP] = np.cumsum(may_come[:, 1:], axis=1)
    counts[:, TOP] = counts[:, DECK]
    return counts


def afterstate_features(racks: Ints, counts: Floats, rows: Ints) -> Floats:
    """The features of ``racks`` (B, 10), each judged against the cards that may come of ``counts[rows]``."""
    size = len(racks)
    line = np.arange(size)
    values = np.empty((size, RACK_SIZE + 2), dtype=np.int64)
    values[:, 0] = 0
    values[:, 1:-1] = racks
    values[:, -1] = TOP
    flat = counts.reshape(-1)
    base = rows * counts.shape[1]
    pool = counts[rows, TOP]
    safe_pool = np.maximum(pool, 1.0)

    # How many cards that may come are at most each kept value, and below it.
    at_most = flat[base[:, None] + values]
    under = flat[base[:, None] + np.maximum(values - 1, 0)]

    # Cheapest kept sequence: best[j] is the cost of keeping position j (0 and 11 are the sentinels).
    best = np.full((size, RACK_SIZE + 2), np.inf)
    best[:, 0] = 0.0
    parent = np.zeros((size, RACK_SIZE + 2), dtype=np.int64)
    for j in range(1, RACK_SIZE + 2):
        open_slots = j - 1 - np.arange(j, dtype=np.float64)
        fits = under[:, j : j + 1] - at_most[:, :j]
        feasible = (values[:, :j] < values[:, j : j + 1]) & (fits >= open_slots)
        draws = np.maximum(safe_pool[:, None] / np.maximum(fits, 1.0) * (open_slots * (open_slots + 1) / 2), open_slots)
        cost = np.where(feasible, best[:, :j] + draws, np.inf)
        parent[:, j] = np.argmin(cost, axis=1)
        best[:, j] = cost[line, parent[:, j]]
    kept = np.zeros((size, RACK_SIZE + 2), dtype=bool)
    kept[:, -1] = True
    kept[:, 0] = True
    node = np.full(size, RACK_SIZE + 1)
    for _ in range(RACK_SIZE):
        node = parent[line, node]
        kept[line, node] = True

    # Each open slot's gap: the kept positions either side of it.
    position = np.arange(RACK_SIZE + 2)
    left_kept = np.maximum.accumulate(np.where(kept, position, 0), axis=1)[:, 1:-1]
    right_kept = np.minimum.accumulate(np.where(kept, position, RACK_SIZE + 1)[:, ::-1], axis=1)[:, ::-1][:, 1:-1]
    is_open = ~kept[:, 1:-1]
    gap_size = (right_kept - left_kept - 1).astype(np.float64)
    gap_fits = np.take_along_axis(under, right_kept, 1) - np.take_along_axis(at_most, left_kept, 1)
    per_slot = np.minimum(safe_pool[:, None] / np.maximum(gap_fits, 0.5) * (gap_size + 1) / 2, DRAW_CLIP)
    per_slot = np.where(is_open, per_slot, 0.0)
    at_edge = is_open & ((left_kept == 0) | (right_kept == RACK_SIZE + 1))
    gap_starts = is_open & kept[:, :-2]
    in_bucket = BUCKET_OF[racks] == SLOT

    features = np.empty((size, FEATURES))
    features[:, 0] = np.where(at_edge, per_slot, 0.0).sum(axis=1) / 10
    features[:, 1] = np.where(at_edge, 0.0, per_slot).sum(axis=1) / 10
    features[:, 2] = is_open.sum(axis=1) / RACK_SIZE
    features[:, 3] = at_edge.sum(axis=1) / RACK_SIZE
    features[:, 4] = gap_starts.sum(axis=1) / 5
    features[:, 5] = np.where(is_open, gap_size, 0.0).max(axis=1) / RACK_SIZE
    features[:, 6] = pool / DECK
    features[:, 7] = (racks[:, 1:] < racks[:, :-1]).sum(axis=1) / RACK_SIZE
    features[:, 8] = (~in_bucket).sum(axis=1)
    column = len(SUMMARY_FEATURES)
    for block in (is_open, per_slot / 10, racks / DECK, in_bucket):
        features[:, column : column + RACK_SIZE] = block
        column += RACK_SIZE
    return features


def is_racko(racks: Ints) -> Bools:
    """Racks that read low to high: worth 0 turns (the round is won)."""
    return np.asarray(np.all(racks[:, 1:] > racks[:, :-1], axis=1))


# --- The value network ------------------------------------------------------------------------------------------


@dataclass
class ValueNet:
    """Turns still needed after an afterstate: ``linear·x + bias + out·tanh(hidden·x + hidden_bias)``.

    The linear part starts as the bucket rule (about 1.5 turns per card out of its bucket), the hidden part at 0,
    so an untrained net already finishes rounds and self-play has something to learn from.
    """

    linear: Floats
    bias: Floats
    hidden: Floats
    hidden_bias: Floats
    out: Floats
    moments: dict[str, tuple[Floats, Floats]] = field(default_factory=dict, repr=False)
    updates: int = 0

    PARAMETERS: ClassVar[tuple[str, ...]] = ("linear", "bias", "hidden", "hidden_bias", "out")
    PRIOR_TURNS_PER_CARD: ClassVar[float] = 1.5

    @classmethod
    def untrained(cls, hidden_units: int, rng: np.random.Generator) -> ValueNet:
        linear = np.zeros(FEATURES)
        linear[OUT_OF_BUCKET] = cls.PRIOR_TURNS_PER_CARD
        return cls(
            linear=linear,
            bias=np.zeros(1),
            hidden=rng.normal(0.0, 1.0 / np.sqrt(FEATURES), (FEATURES, hidden_units)),
            hidden_bias=np.zeros(hidden_units),
            out=np.zeros(hidden_units),
        )

    def value(self, features: Floats) -> Floats:
        return np.asarray(
            features @ self.linear + self.bias[0] + np.tanh(features @ self.hidden + self.hidden_bias) @ self.out
        )

    def fit(self, features: Floats, targets: Floats, rng: np.random.Generator, epochs: int, rate: float) -> float:
        """Adam steps on the mean squared error over minibatches; the mean squared error before fitting."""
        before = float(np.mean((self.value(features) - targets) ** 2))
        for _ in range(epochs):
            order = rng.permutation(len(targets))
            for start in range(0, len(order), 256):
                chosen = order[start : start + 256]
                self._adam_step(features[chosen], targets[chosen], rate)
        return before

    def _adam_step(self, x: Floats, y: Floats, rate: float) -> None:
        hidden = np.tanh(x @ self.hidden + self.hidden_bias)
        error = (x @ self.linear + self.bias[0] + hidden @ self.out - y) * (2.0 / len(y))
        back = np.outer(error, self.out) * (1.0 - hidden**2)
        gradients = {
            "linear": x.T @ error,
            "bias": np.array([error.sum()]),
            "hidden": x.T @ back,
            "hidden_bias": back.sum(axis=0),
            "out": hidden.T @ error,
        }
        self.updates += 1
        beta1, beta2 = 0.9, 0.999
        for name, gradient in gradients.items():
            first, second = self.moments.get(name, (np.zeros_like(gradient), np.zeros_like(gradient)))
            first = beta1 * first + (1 - beta1) * gradient
            second = beta2 * second + (1 - beta2) * gradient**2
            self.moments[name] = (first, second)
            step = first / (1 - beta1**self.updates) / (np.sqrt(second / (1 - beta2**self.updates)) + 1e-8)
            setattr(self, name, getattr(self, name) - rate * step)

    def save(self, path: Path) -> None:
        np.savez(path, **{name: getattr(self, name) for name in self.PARAMETERS}, feature_names=FEATURE_NAMES)

    @classmethod
    def load(cls, path: Path) -> ValueNet:
        with np.load(path) as data:
            if tuple(data["feature_names"]) != FEATURE_NAMES:
                raise RackoError(f"{path} was trained on other features than this script computes.")
            weights = {name: np.array(data[name], dtype=np.float64) for name in cls.PARAMETERS}
        return cls(weights["linear"], weights["bias"], weights["hidden"], weights["hidden_bias"], weights["out"])


# --- The one-ply greedy policy, for many rounds at once ---------------------------------------------------------


@dataclass(frozen=True)
class TurnPlan:
    """For each round: what the seat to act would do with each card it might hold, and what drawing is worth."""

    now: Floats
    """(R,) the value of the rack as it is."""
    best_slot: Ints
    """(R, TOP) the best slot for card c (valid where the card was considered)."""
    best_value: Floats
    """(R, TOP) the value after putting card c there."""
    best_features: Floats
    """(R, TOP, FEATURES) the features of that afterstate."""
    now_features: Floats
    """(R, FEATURES) the features of the rack as it is (kept after discarding a drawn card)."""
    draw_value: Floats
    """(R,) the average over the cards that may come of the better of keeping the rack and the best placement."""


def plan_turns(
    net: ValueNet,
    racks: Ints,
    discard_top: Ints,
    may_come: Bools,
    noise: float = 0.0,
    rng: np.random.Generator | None = None,
) -> TurnPlan:
    """Value every placement of the top discard and of every card that may come, for rounds ``racks`` (R, 10).

    With ``noise``, every value is perturbed by that much Gaussian noise first (exploration in self-play).
    """
    rounds = len(racks)
    counts = counts_below(may_come)
    considered = may_come.copy()
    considered[np.arange(rounds), discard_top] = True
    considered[:, 0] = False
    round_of, card = np.nonzero(considered)
    trials = np.repeat(racks[round_of], RACK_SIZE, axis=0)
    slot = np.tile(SLOT, len(round_of))
    trials[np.arange(len(trials)), slot] = np.repeat(card, RACK_SIZE)
    trial_rows = np.repeat(round_of, RACK_SIZE)
    features = afterstate_features(
        np.concatenate([racks, trials]), counts, np.concatenate([np.arange(rounds), trial_rows])
    )
    values = net.value(features)
    if noise > 0.0 and rng is not None:
        values += rng.normal(0.0, noise, len(values))
    values[rounds:][is_racko(trials)] = 0.0
    now = values[:rounds]
    now[is_racko(racks)] = 0.0
    trial_values = values[rounds:].reshape(-1, RACK_SIZE)
    chosen = np.argmin(trial_values, axis=1)
    best_slot = np.zeros((rounds, TOP), dtype=np.int64)
    best_value = np.full((rounds, TOP), np.inf)
    best_features = np.zeros((rounds, TOP, FEATURES))
    best_slot[round_of, card] = chosen
    best_value[round_of, card] = trial_values[np.arange(len(chosen)), chosen]
    best_features[round_of, card] = features[rounds:].reshape(-1, RACK_SIZE, FEATURES)[np.arange(len(chosen)), chosen]
    kept = np.where(may_come, np.minimum(best_value, now[:, None]), 0.0)
    draw_value = kept.sum(axis=1) / np.maximum(may_come.sum(axis=1), 1)
    return TurnPlan(now, best_slot, best_value, best_features, features[:rounds], draw_value)


def takes_discard(plan: TurnPlan, discard_top: Ints) -> Bools:
    """Take the top discard when the best rack made with it beats the average blind draw."""
    return np.asarray(plan.best_value[np.arange(len(discard_top)), discard_top] < plan.draw_value)


# --- The bot: the trained network playing through the engine on its observations only --------------------------


class ValueBot(Bot):
    """Plays classic 2-player Rack-O (2-player rule off) with a trained :class:`ValueNet`.

    Not in racko's registry: the example registers a subclass carrying its weights in its own process only
    (:func:`register_for_arena`), so that the arena can seat it by name.
    """

    name = "selfplay-value"
    description = "The self-play value network of examples/selfplay_value.py."
    level = 0
    variants = frozenset({"classic"})
    net: ClassVar[ValueNet | None] = None

    def __init__(self, seed: int | None = None, net: ValueNet | None = None) -> None:
        super().__init__(seed)
        chosen = net if net is not None else type(self).net
        if chosen is None:
            raise RackoError("A ValueBot needs a trained ValueNet.")
        self.value_net = chosen
        self._plan: tuple[tuple[int, ...], int, TurnPlan] | None = None

    def act(self, observation: AnyObservation) -> AnyAction:
        if not isinstance(observation, Observation) or observation.rules.two_player_rule:
            raise RackoError("The self-play value bot plays classic Rack-O with the 2-player rule off.")
        seat, public = observation.seat, observation.public
        if public.phase is Phase.PICK:
            plan = self._plan_for(observation)
            top = np.array([public.discard_pile[-1]])
            return TakeDiscard(seat) if takes_discard(plan, top)[0] else DrawFromStock(seat)
        held = observation.held
        assert held is not None and public.phase is Phase.PLACE
        plan = self._plan_for(observation)
        if public.taken_discard is not None or plan.best_value[0, held] < plan.now[0]:
            return Exchange(seat, int(plan.best_slot[0, held]))
        return Discard(seat)

    def _plan_for(self, observation: Observation) -> TurnPlan:
        # The plan made at the start of the turn holds every card that may be drawn: reuse it to place the card.
        key = (observation.rack, observation.public.turns)
        if self._plan is None or self._plan[:2] != key:
            may_come = np.zeros((1, TOP), dtype=bool)
            pick_view = observation._replace(held=None)
            may_come[0, cards_that_may_come(pick_view)] = True
            top = observation.public.taken_discard or observation.public.discard_pile[-1]
            racks = np.array([observation.rack], dtype=np.int64)
            self._plan = (*key, plan_turns(self.value_net, racks, np.array([top]), may_come))
        return self._plan[2]


WEIGHTS_VARIABLE = "RACKO_VALUE_WEIGHTS"
"""Names the ``weights.npz`` a run of this script wrote, for :func:`online`."""
_online_bot: list[ValueBot] = []


def online(observation: AnyObservation) -> AnyAction:
    """The trained network at a racko server, one command away (docs/BOTS.md)::

        RACKO_VALUE_WEIGHTS=runs/small/weights.npz PYTHONPATH=examples \\
            racko bot connect URL --token TOKEN --policy selfplay_value:online

    Its tables are classic Rack-O for 2 with the 2-player rule off, as it was trained (it refuses others). One bot
    serves every game: its plan is keyed by the rack and the turn, so games do not mix."""
    if not _online_bot:
        path = os.environ.get(WEIGHTS_VARIABLE)
        if not path:
            raise RackoError(f"Set {WEIGHTS_VARIABLE} to the weights.npz a run of examples/selfplay_value.py wrote.")
        _online_bot.append(ValueBot(net=ValueNet.load(Path(path))))
    return _online_bot[0].act(observation)


def register_for_arena(net: ValueNet, name: str = ValueBot.name) -> str:
    """Make ``net`` playable by name in this process's bot registry (and its forked arena workers); the name."""
    bots.register(type("TrainedValueBot", (ValueBot,), {"name": name, "net": net}))
    return name


def arena_win_rate(bot: str, opponent: str, rounds: int, seed: int, jobs: int = 1) -> dict[str, Any]:
    """``bot`` against ``opponent`` through the engine, seats and deal rotating: its wins with a Wilson interval."""
    report = run_arena([bot, opponent], "classic", 2, rounds=rounds, seed=seed, jobs=jobs, options=RULE_OPTIONS)
    row = report.results[0]
    low, high = row.ci95
    return {
        "opponent": opponent,
        "wins": row.wins,
        "played": row.played,
        "win_rate": round(row.win_rate, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "capped": report.capped,
    }


# --- Self-play on the batch simulator ----------------------------------------------------------------------------


def td_lambda_targets(values: Floats, keys: Ints, won: Bools, lam: float) -> tuple[Floats, Bools]:
    """TD(λ) returns of turns to go for afterstates in play order (``keys``: round * 2 + seat), and which to fit.

    A Rack-O (``won``) has 0 turns to go; every other afterstate is one turn from the next of its seat:
    G = 1 + (1 - λ)·V(next) + λ·G(next).  A seat's last afterstate in a round it lost has no return (the round
    ended before it finished): its value is the bootstrap, and it is not fitted; nor is a Rack-O, valued 0 by rule.
    """
    targets = np.zeros(len(values))
    fitted = ~won
    later: dict[int, tuple[float, float]] = {}  # per key: (value, return) of the seat's next afterstate
    for index in range(len(values) - 1, -1, -1):
        key = int(keys[index])
        if won[index]:
            later[key] = (0.0, 0.0)
            continue
        if key in later:
            next_value, next_return = later[key]
            targets[index] = 1.0 + (1.0 - lam) * next_value + lam * next_return
        else:
            targets[index] = values[index]
            fitted[index] = False
        later[key] = (float(values[index]), float(targets[index]))
    return targets, fitted


RATE_HALVING = 5000
"""The step size falls as 1 / (1 + rounds / RATE_HALVING): large while the net is far off, small to settle."""

PICK_PHASE = 0
"""The batch simulator's pick phase (draw or take); the other phase is place (exchange or discard)."""


class SelfPlay:
    """Both seats of ``parallel`` rounds on the batch simulator, played greedily on ``net`` (values perturbed by
    ``noise`` for exploration); remembers every afterstate until its round has ended."""

    def __init__(self, net: ValueNet, parallel: int, seed: int, noise: float, rng: np.random.Generator) -> None:
        self.net, self.noise, self.rng = net, noise, rng
        self.env = new_batch_env(parallel, seed)
        self.view: BatchView = self.env.reset()
        self.episode = np.arange(parallel)
        """The id of the round now played in each of the ``parallel`` places (a new id when a round ends)."""
        self.next_episode = parallel
        self.ended = np.zeros(0, dtype=bool)
        """By round id: the round has ended."""
        self.best_slot = np.zeros((parallel, TOP), dtype=np.int64)
        self.best_value = np.zeros((parallel, TOP))
        self.best_features = np.zeros((parallel, TOP, FEATURES))
        self.now = np.zeros(parallel)
        self.now_features = np.zeros((parallel, FEATURES))
        self.features: list[Floats] = []
        self.keys: list[Ints] = []
        self.won: list[Bools] = []

    def play(self, rounds: int) -> int:
        """Play on until at least ``rounds`` more rounds have ended; how many did."""
        ended = 0
        while ended < rounds:
            ended += self._step()
        return ended

    def _step(self) -> int:
        view = self.view
        actions = np.zeros(len(view.phase), dtype=np.int64)
        pick = np.nonzero(view.phase == PICK_PHASE)[0]
        if len(pick):
            plan = plan_turns(self.net, view.rack[pick], view.top[pick], view.unseen[pick], self.noise, self.rng)
            self.best_slot[pick], self.best_value[pick] = plan.best_slot, plan.best_value
            self.best_features[pick] = plan.best_features
            self.now[pick], self.now_features[pick] = plan.now, plan.now_features
            actions[pick] = np.where(takes_discard(plan, view.top[pick]), TAKE_INDEX, DRAW_INDEX)
        place = np.nonzero(view.phase != PICK_PHASE)[0]
        if len(place):
            held = view.held[place]
            keep = view.taken[place] | (self.best_value[place, held] < self.now[place])
            slot = self.best_slot[place, held]
            actions[place] = np.where(keep, EXCHANGE_INDEX + slot, DISCARD_INDEX)
            after = view.rack[place].copy()
            after[np.nonzero(keep)[0], slot[keep]] = held[keep]
            self.features.append(np.where(keep[:, None], self.best_features[place, held], self.now_features[place]))
            self.keys.append(self.episode[place] * 2 + view.seat[place])
            self.won.append(is_racko(after))
        self.view, _, finished = self.env.step(actions)
        done = np.nonzero(finished.done)[0]
        if len(done):
            self.ended = np.concatenate([self.ended, np.zeros(self.next_episode + len(done) - len(self.ended), bool)])
            self.ended[self.episode[done]] = True
            self.episode[done] = self.next_episode + np.arange(len(done))
            self.next_episode += len(done)
        return len(done)

    def take_ended(self) -> tuple[Floats, Ints, Bools]:
        """The afterstates of the rounds that have ended, in play order (features, round * 2 + seat, Rack-O);
        those of rounds still being played stay for later."""
        if not self.features:
            return np.zeros((0, FEATURES)), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
        features, keys, won = np.concatenate(self.features), np.concatenate(self.keys), np.concatenate(self.won)
        ended = self.ended[keys // 2]
        self.features, self.keys, self.won = [features[~ended]], [keys[~ended]], [won[~ended]]
        return features[ended], keys[ended], won[ended]


def new_batch_env(parallel: int, seed: int) -> BatchEnv:
    """``parallel`` rounds on the batch simulator (2-player rule off), both seats played by the caller."""
    # One thread: a step of a few hundred rounds is too short for the simulator's threads to pay, and on a busy
    # machine waiting for them costs more than the step (about 10 ms a call instead of 0.01 ms).
    numba.set_num_threads(1)
    return BatchEnv(parallel, opponent=None, two_player_rule=False, seed=seed)


# --- Training run, checkpoints, outputs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    rounds: int
    batch: int
    parallel: int
    hidden: int
    lam: float
    rate: float
    epochs: int
    noise: float
    seed: int
    opponent: str
    eval_every: int
    eval_rounds: int
    final_opponents: tuple[str, ...]
    final_rounds: int
    jobs: int


def train(settings: Settings, out: Path, log: Any = None) -> dict[str, Any]:
    """Train by self-play, measure against the fixed bot at checkpoints, write the outputs; the summary."""
    rng = np.random.default_rng(settings.seed)
    net = ValueNet.untrained(settings.hidden, rng)
    name = register_for_arena(net)
    curve: list[dict[str, Any]] = []
    training_seconds = evaluation_seconds = 0.0

    def checkpoint(trained: int) -> None:
        nonlocal evaluation_seconds
        started = time.perf_counter()
        point = arena_win_rate(name, settings.opponent, settings.eval_rounds, settings.seed, settings.jobs)
        evaluation_seconds += time.perf_counter() - started
        curve.append({"rounds": trained, **point})
        if log is not None:
            print(
                f"{trained:>7} self-play rounds: {point['win_rate']:.1%} against {settings.opponent} "
                f"({point['ci95'][0]:.1%}-{point['ci95'][1]:.1%})",
                file=log,
                flush=True,
            )

    checkpoint(0)
    selfplay = SelfPlay(net, settings.parallel, settings.seed, settings.noise, rng)
    trained, next_checkpoint = 0, settings.eval_every
    while trained < settings.rounds:
        started = time.perf_counter()
        trained += selfplay.play(min(settings.batch, settings.rounds - trained))
        features, keys, won = selfplay.take_ended()
        values = net.value(features)
        values[won] = 0.0
        targets, fitted = td_lambda_targets(values, keys, won, settings.lam)
        rate = settings.rate / (1.0 + trained / RATE_HALVING)
        net.fit(features[fitted], targets[fitted], rng, settings.epochs, rate)
        training_seconds += time.perf_counter() - started
        if trained >= next_checkpoint or trained >= settings.rounds:
            checkpoint(trained)
            next_checkpoint += settings.eval_every

    out.mkdir(parents=True, exist_ok=True)
    net.save(out / "weights.npz")
    final = {}
    started = time.perf_counter()
    for opponent in settings.final_opponents:
        final[opponent] = arena_win_rate(name, opponent, settings.final_rounds, settings.seed + 1, settings.jobs)
    evaluation_seconds += time.perf_counter() - started
    summary = {
        "settings": settings.__dict__ | {"final_opponents": list(settings.final_opponents)},
        "curve": curve,
        "final": final,
        "training_seconds": round(training_seconds, 1),
        "evaluation_seconds": round(evaluation_seconds, 1),
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "features": list(FEATURE_NAMES),
    }
    (out / "curve.json").write_text(json.dumps(summary, indent=2) + "\n")
    plot_curve(curve, settings.opponent, out / "win_rate.png")
    return summary


def plot_curve(curve: Sequence[dict[str, Any]], opponent: str, path: Path) -> None:
    """The win rate against ``opponent`` over training, with its 95 % interval, as a PNG."""
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rounds = [point["rounds"] for point in curve]
    figure, axes = plt.subplots(figsize=(7, 4.2), dpi=100)
    axes.fill_between(
        rounds, [point["ci95"][0] for point in curve], [point["ci95"][1] for point in curve], alpha=0.25, label="95 %"
    )
    axes.plot(rounds, [point["win_rate"] for point in curve], marker="o", label=f"win rate against {opponent}")
    axes.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_xlabel("self-play rounds")
    axes.set_ylabel("rounds won")
    axes.set_ylim(0, 1)
    axes.set_title("Self-play value network, classic Rack-O (2 players, 40 cards)")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def parse_arguments(argv: Sequence[str] | None) -> tuple[Settings, Path, bool]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="self-play rounds to train on")
    parser.add_argument("--out", type=Path, required=True, help="folder for weights.npz, curve.json, win_rate.png")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--batch", type=int, default=256, help="self-play rounds between two fits of the net")
    parser.add_argument("--parallel", type=int, default=256, help="self-play rounds played at once")
    parser.add_argument("--hidden", type=int, default=16, help="hidden units of the value network")
    parser.add_argument("--lam", type=float, default=0.9, help="TD(λ)'s λ")
    parser.add_argument(
        "--rate",
        type=float,
        default=0.01,
        help="Adam's step size at the start (halved after 5,000 rounds, a third after 10,000 ...)",
    )
    parser.add_argument("--epochs", type=int, default=3, help="passes over each batch's afterstates")
    parser.add_argument("--noise", type=float, default=0.2, help="exploration: noise on every value, in turns")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="medium", help="the fixed bot of the training curve")
    parser.add_argument("--eval-every", type=int, default=2000, help="self-play rounds between checkpoints")
    parser.add_argument("--eval-rounds", type=int, default=400, help="arena rounds at each checkpoint")
    parser.add_argument("--final", default="", help="bots to measure the trained net against (default: --opponent)")
    parser.add_argument("--final-rounds", type=int, default=2000, help="arena rounds against each of them")
    parser.add_argument("--jobs", type=int, default=1, help="arena worker processes")
    args = parser.parse_args(argv)
    for option in (
        "rounds",
        "batch",
        "parallel",
        "hidden",
        "epochs",
        "eval_every",
        "eval_rounds",
        "final_rounds",
        "jobs",
    ):
        if getattr(args, option) < 1:
            raise RackoError(f"--{option.replace('_', '-')} must be at least 1.")
    if not 0.0 <= args.lam <= 1.0:
        raise RackoError("--lam must be between 0 and 1.")
    if args.rate <= 0 or args.noise < 0:
        raise RackoError("--rate must be positive and --noise not negative.")
    finals = tuple(name.strip() for name in (args.final or args.opponent).split(",") if name.strip())
    for bot in (args.opponent, *finals):
        bots.describe(bot)  # an unknown name raises RackoError listing the bots
    settings = Settings(
        rounds=args.rounds,
        batch=args.batch,
        parallel=args.parallel,
        hidden=args.hidden,
        lam=args.lam,
        rate=args.rate,
        epochs=args.epochs,
        noise=args.noise,
        seed=args.seed,
        opponent=args.opponent,
        eval_every=args.eval_every,
        eval_rounds=args.eval_rounds,
        final_opponents=finals,
        final_rounds=args.final_rounds,
        jobs=args.jobs,
    )
    return settings, args.out, args.json


def main(argv: Sequence[str] | None = None) -> int:
    try:
        settings, out, as_json = parse_arguments(argv)
        summary = train(settings, out, log=None if as_json else sys.stdout)
    except RackoError as error:
        print(f"racko: {error}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps({key: summary[key] for key in ("curve", "final", "training_seconds", "load_average")}))
        return 0
    for opponent, result in summary["final"].items():
        low, high = result["ci95"]
        print(
            f"trained net against {opponent}: {result['win_rate']:.1%} of {result['played']} rounds "
            f"(95 % Wilson interval {low:.1%}-{high:.1%})"
        )
    print(f"self-play and fitting took {summary['training_seconds']} s; outputs in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
