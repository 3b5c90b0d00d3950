"""``racko fit-win-chance``: ``master``'s chance to win a 2-player round, fitted on the batch simulator's rounds.

Two ``medium`` players (the simulator's gap policy, which is exactly the ``medium`` bot) play many rounds; at the
start of every turn the position is recorded as the player to move sees it and as its opponent's rack stands: each
rack's cost by the gap model (:mod:`racko.bots.gaps`, the pool being every card outside the rack and the discard
pile: the stock and the other rack), and the mover's cost if it took the top discard.  Whether the mover went out
first is the outcome.  A logistic regression of the outcome on the costs (each as ``log(1 + cost)``) is the chance to
win that ``master`` plays by (:mod:`racko.bots.win_chance`, reading the fitted numbers with the standard library).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import prange

from racko.envs.batch import kernel
from racko.envs.batch.simulator import MASK64, Table
from racko.errors import RackoError

FEATURES = ("mover", "taking", "other")
"""The regression's inputs, each ``log(1 + cost)``: the mover's rack, the mover's rack after taking the top discard
(when that is cheaper; else its rack), the other rack."""

FIELDS = 5
"""Per recorded position: the mover's cost, its cost after taking the top discard, the other's cost, the turns played,
whether the mover went out first."""


@kernel.jit
def _costs(
    rack: Any,
    pile: Any,
    pile_size: int,
    top: int,
    deck_size: int,
    needs_run: bool,
    counts: Any,
    gaps: Any,
    best: Any,
    values: Any,
) -> tuple[float, float]:
    """A rack's cost and, with ``top`` > 0, its cost after taking ``top`` to its best slot (never above the first);
    the pool is every card outside the rack and the pile."""
    for value in range(deck_size + 2):
        counts[value] = 1
    counts[0] = 0
    counts[deck_size + 1] = 0
    for index in range(kernel.RACK):
        counts[rack[index]] = 0
    for index in range(pile_size):
        counts[pile[index]] = 0
    for value in range(1, deck_size + 2):
        counts[value] += counts[value - 1]
    now = kernel.rack_cost(rack, -1, 0, counts, gaps, deck_size, needs_run, best, values)
    taking = now
    if top > 0:
        cost, _ = kernel.best_placement(rack, top, counts, gaps, deck_size, needs_run, best, values)
        taking = min(now, cost)
    return now, taking


@kernel.parallel_jit
def _record(count: int, deck_size: int, needs_run: bool, turn_cap: int, seed: Any, out: Any, sizes: Any) -> None:
    """Play ``count`` rounds of two gap-policy seats; round ``i`` writes its positions into ``out[i]`` (at most
    ``out.shape[1]``) and their number into ``sizes[i]``."""
    players = 2
    policies = np.full(players, kernel.GAP, np.int64)
    gaps = kernel.gap_table(deck_size)
    for index in prange(count):
        state = np.empty(1, np.uint64)
        deck = np.empty(deck_size, np.int32)
        racks = np.empty((players, kernel.RACK), np.int32)
        pile = np.empty(deck_size, np.int32)
        stock = np.empty(deck_size, np.int32)
        known = np.empty((players, kernel.RACK), np.bool_)
        counts = np.empty(deck_size + 2, np.int64)
        best = np.empty(2 * (kernel.RACK + 2), np.float64)
        values = np.empty(3 * kernel.RACK, np.int64)
        refills = np.zeros((0, deck_size), np.int32)
        state[0] = kernel.round_state(seed, index)
        kernel.new_deck(deck, deck_size, state)
        dealer = index % players
        stock_size, pile_size = kernel.deal(deck, dealer, players, racks, pile, stock, known)
        sizes[index] = 0
        if kernel.dealt_winner(racks, dealer, players, needs_run) >= 0:
            continue
        stock_top = 0
        seat = (dealer + 1) % players
        turns = 0
        refilled = 0
        movers = np.empty(out.shape[1], np.int64)
        winner = -1
        while True:
            row = sizes[index]
            if row < out.shape[1]:
                top = pile[pile_size - 1] if pile_size > 0 else 0
                mover, taking = _costs(
                    racks[seat], pile, pile_size, top, deck_size, needs_run, counts, gaps, best, values
                )
                other, _ = _costs(racks[1 - seat], pile, pile_size, 0, deck_size, needs_run, counts, gaps, best, values)
                out[index, row, 0] = mover
                out[index, row, 1] = taking
                out[index, row, 2] = other
                out[index, row, 3] = turns
                movers[row] = seat
                sizes[index] = row + 1
            stock_top, stock_size, pile_size, refilled = kernel.play_turn(
                policies[seat],
                seat,
                racks,
                known,
                pile,
                pile_size,
                stock,
                stock_top,
                stock_size,
                deck_size,
                needs_run,
                False,
                state,
                refills,
                refilled,
                counts,
                gaps,
                best,
                values,
            )
            turns += 1
            if kernel.qualifies(racks[seat], needs_run):
                winner = seat
                break
            if turns >= turn_cap:
                break
            seat = (seat + 1) % players
        for row in range(sizes[index]):
            out[index, row, 4] = 1.0 if movers[row] == winner else 0.0
        if winner < 0:
            sizes[index] = 0  # capped: no outcome to learn from


def positions(rounds: int, two_player_rule: bool, seed: int = 0) -> npt.NDArray[np.float64]:
    """(M, FIELDS) the positions of ``rounds`` rounds of two ``medium`` players (40 cards)."""
    table = Table(players=2, two_player_rule=two_player_rule).resolved()
    longest = 200
    out = np.zeros((rounds, longest, FIELDS), np.float64)
    sizes = np.zeros(rounds, np.int64)
    _record(rounds, table.deck_size, bool(table.two_player_rule), 1000, np.uint64(seed & MASK64), out, sizes)
    mask = np.arange(longest)[None, :] < sizes[:, None]
    return out[mask]


def design(rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The regression's inputs: a constant and ``log(1 + cost)`` of each of :data:`FEATURES`."""
    return np.column_stack([np.ones(len(rows)), np.log1p(rows[:, 0]), np.log1p(rows[:, 1]), np.log1p(rows[:, 2])])


def logistic_fit(inputs: npt.NDArray[np.float64], outcomes: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The coefficients of the logistic regression of ``outcomes`` (0 or 1) on ``inputs``, by Newton's method."""
    coefficients = np.zeros(inputs.shape[1])
    for _ in range(50):
        chances = 1 / (1 + np.exp(-inputs @ coefficients))
        gradient = inputs.T @ (outcomes - chances)
        weights = chances * (1 - chances)
        hessian = (inputs * weights[:, None]).T @ inputs + 1e-9 * np.eye(inputs.shape[1])
        step = np.linalg.solve(hessian, gradient)
        coefficients += step
        if np.abs(step).max() < 1e-10:
            break
    fitted: npt.NDArray[np.float64] = coefficients
    return fitted


def log_loss(inputs: npt.NDArray[np.float64], outcomes: npt.NDArray[np.float64], coefficients: Any) -> float:
    """The mean log-loss (nats) of the fitted chances on these positions."""
    chances = np.clip(1 / (1 + np.exp(-inputs @ coefficients)), 1e-12, 1 - 1e-12)
    return float(-np.mean(outcomes * np.log(chances) + (1 - outcomes) * np.log(1 - chances)))


def fit(rounds: int, two_player_rule: bool, seed: int = 0) -> dict[str, Any]:
    """The fitted chance to win for one 2-player rule: coefficients, and the log-loss on held-out rounds (the last
    fifth) against the rate alone."""
    if rounds < 10:
        raise RackoError("Fit the chance to win on at least 10 rounds.")
    fitted_rounds = rounds - rounds // 5
    train = positions(fitted_rounds, two_player_rule, seed)
    test = positions(rounds // 5, two_player_rule, seed + 1)
    coefficients = logistic_fit(design(train), train[:, 4])
    rate = float(train[:, 4].mean())
    base = -(test[:, 4] * math.log(rate) + (1 - test[:, 4]) * math.log(1 - rate)).mean()
    return {
        "bias": round(float(coefficients[0]), 5),
        **{name: round(float(value), 5) for name, value in zip(FEATURES, coefficients[1:], strict=True)},
        "positions": len(train),
        "held_out_positions": len(test),
        "held_out_log_loss": round(log_loss(design(test), test[:, 4], coefficients), 5),
        "held_out_log_loss_of_the_rate": round(float(base), 5),
    }


def make_document(rounds: int, seed: int = 0) -> dict[str, Any]:
    """The data file ``racko/bots/data/win_chance.json``: the fit for both 2-player rules."""
    return {
        "features": "log1p",
        "made_by": f"racko fit-win-chance --rounds {rounds} --seed {seed}",
        "no_two_player_rule": fit(rounds, False, seed),
        "two_player_rule": fit(rounds, True, seed),
    }
