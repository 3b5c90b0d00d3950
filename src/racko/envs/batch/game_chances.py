"""``racko game-chances``: the table of game-winning chances by score (:mod:`racko.analysis.game_chance`), made from
the batch simulator's rounds (the analysis room sits below the simulator, so the making is here; ``racko.cli`` hands
it to the command)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from racko.analysis.game_chance import CELLS, GAMES, PLAYERS, STEP
from racko.envs.batch.simulator import Table, play_decks
from racko.rules import STANDARD_DECK_SIZE


def chances_from(histogram: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The chance to win from every pair of points still needed (steps 1..CELLS each), the rounds independent."""
    chances = np.zeros((CELLS + 1, CELLS + 1))
    mine, others = np.nonzero(histogram)
    weights = histogram[mine, others]
    for total in range(2, 2 * CELLS + 1):  # fewer points needed first: every round brings the game nearer its end
        for own in range(max(1, total - CELLS), min(CELLS, total - 1) + 1):
            other = total - own
            left_own, left_other = own - mine, other - others
            over = (left_own <= 0) | (left_other <= 0)
            ended = np.where(left_other > left_own, 1.0, np.where(left_other < left_own, 0.0, 0.5))
            going = chances[np.clip(left_own, 0, CELLS), np.clip(left_other, 0, CELLS)]
            chances[own, other] = float(np.sum(weights * np.where(over, ended, going)))
    return chances[1:, 1:]


def chances_played_on(points: npt.NDArray[np.int64], games: int = GAMES, seed: int = 0) -> npt.NDArray[np.float64]:
    """The chance to win from every pair of points still needed (steps 1..CELLS), the other opponents needing as
    many as the best: ``games`` games from each pair, rounds drawn from ``points`` (a random seat as the player)."""
    players = points.shape[1]
    generator = np.random.default_rng(seed)
    longest = -(-CELLS * players // 15) + 1  # a round gives 15 steps to the seat going out: no game lasts longer
    picks = generator.integers(0, len(points), size=(games, longest))
    seats = generator.integers(0, players, size=(games, longest))
    order = np.array([[seat, *[other for other in range(players) if other != seat]] for seat in range(players)])
    steps = points[picks[..., None], order[seats]]  # (games, rounds, players): the player first
    totals = np.cumsum(steps, axis=1).astype(np.int16)
    chances = np.zeros((CELLS, CELLS))
    chunk = 10
    for own in range(1, CELLS + 1):
        for low in range(0, CELLS, chunk):
            needs = np.arange(low + 1, low + chunk + 1)
            start = np.concatenate(
                [np.full((chunk, 1), CELLS - own), np.repeat((CELLS - needs)[:, None], players - 1, axis=1)], axis=1
            ).astype(np.int16)  # (pairs, players): points so far, in steps, of a game to CELLS steps
            score = start[:, None, None, :] + totals[None, :, :, :]  # (pairs, games, rounds, players)
            over = (score >= CELLS).any(axis=3)
            end = over.argmax(axis=2)  # the round in which each game ends
            final = np.take_along_axis(score, end[:, :, None, None], axis=2)[:, :, 0, :]
            best = final.max(axis=2)
            tied = (final == best[..., None]).sum(axis=2)
            won = np.where(final[..., 0] == best, 1.0 / tied, 0.0)
            chances[own - 1, low : low + chunk] = won.mean(axis=1)
    # Made monotone: never below a cell with fewer points for the player (a higher need), nor with more for the
    # opponents (a lower need).  The mean of the running maximum from one side and the running minimum from the other
    # is monotone and, unlike either alone, not biased up or down by the games' noise.
    flipped = chances[::-1]
    chances = ((np.maximum.accumulate(flipped, axis=0) + np.minimum.accumulate(flipped[::-1], axis=0)[::-1]) / 2)[::-1]
    upward = np.maximum.accumulate(chances, axis=1)
    downward = np.minimum.accumulate(chances[:, ::-1], axis=1)[:, ::-1]
    smooth: npt.NDArray[np.float64] = (upward + downward) / 2
    return smooth


def round_points(players: int, rounds: int, seed: int = 0, policy: str = "medium") -> npt.NDArray[np.float64]:
    """The joint distribution of a round's points in steps: ``[mine, best other's]``, from the batch simulator
    (every seat of every round that went out counted once as "mine")."""
    scores = simulated_rounds(players, rounds, seed, policy)
    top = int(scores.max()) + 1
    histogram = np.zeros((top, top))
    for seat in range(players):
        others = np.delete(scores, seat, axis=1).max(axis=1)
        np.add.at(histogram, (scores[:, seat], others), 1.0)
    shares: npt.NDArray[np.float64] = histogram / histogram.sum()
    return shares


def simulated_rounds(players: int, rounds: int, seed: int = 0, policy: str = "medium") -> npt.NDArray[np.int64]:
    """Every simulated round that went out: each seat's points in steps, ``(rounds, players)``."""
    deck_size = STANDARD_DECK_SIZE[players]
    generator = np.random.default_rng(seed)
    decks = np.argsort(generator.random((rounds, deck_size)), axis=1) + 1
    dealers = np.arange(rounds) % players
    outcomes = play_decks(decks, dealers, policies=[policy] * players, table=Table(players=players), seed=seed)
    assert outcomes.scores is not None
    found: npt.NDArray[np.int64] = outcomes.scores[outcomes.winners >= 0] // STEP
    return found


def make_table(rounds: int = 20_000, seed: int = 0, policy: str = "medium", games: int = GAMES) -> dict[str, Any]:
    """The table of game-winning chances for 2, 3 and 4 players (see the module's description)."""
    tables: dict[str, list[list[int]]] = {}
    for players in PLAYERS:
        if players == 2:
            chances = chances_from(round_points(players, rounds, seed, policy))
        else:
            chances = chances_played_on(simulated_rounds(players, rounds, seed, policy), games, seed)
        tables[str(players)] = [[round(10_000 * float(cell)) for cell in row] for row in chances]
    return {
        "about": (
            "The chance (in 1/10000) to win a Rack-O game: tables[players][i][j] for a player who needs 5(i+1) "
            "points and whose best opponent needs 5(j+1), made by racko game-chances (src/racko/analysis/"
            "game_chance.py, docs/REVIEW.md)."
        ),
        "rounds": rounds,
        "seed": seed,
        "policy": policy,
        "games": games,
        "step": STEP,
        "tables": tables,
    }
