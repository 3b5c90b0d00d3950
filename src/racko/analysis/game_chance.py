"""The chance to win a game of Rack-O from the scores, and what a round's outcome does to it.

Rack-O is played to 500 (the rules' target): a move is worth what it does to the *game*, not only whether the round
is won.  The table shipped in ``data/game_chances.json`` gives, for 2, 3 and 4 players, the chance that a player
wins the game from the points each still needs: their own and the best opponent's (the one who needs fewest), in
steps of 5 from 5 to 500.  It is made by :func:`racko.envs.batch.game_chances.make_table` (``racko game-chances``,
docs/REVIEW.md):

1. the batch simulator (:mod:`racko.envs.batch`) plays ``rounds`` classic rounds with ``medium``'s policy at every
   seat (the 2-player rule on with two players, as the rules say), from random decks;
2. each seat's points and the best of the other seats' points of every round that went out (a round ended by the
   turn cap is left out) give the joint distribution of a round's points (mine, the best other's);
3. the game is played on from every pair of scores by those rounds, independently one after another, until a
   player reaches the target; the higher total wins (equal totals count half).  With 2 players this is worked out
   exactly from the distribution; with 3 or 4 players, the other opponents are taken to need as many points as the
   best one (a bound: the table is pessimistic there), and :data:`GAMES` games are played on from each pair of
   scores with rounds drawn from the simulated ones (the same rounds for every pair, so that the table is smooth;
   then a cell is never below one with fewer points for the player or more for the opponents).

The chance depends on the points still needed only, so any target works: a target of 1 (one-round games) is a
table cell where whoever goes out wins.  Bonus Rack-O's run bonuses add points the classic rounds of the table do
not have; its scores are read through the same table (the bonus a round gives is counted in the outcome).
"""

from __future__ import annotations

import functools
import json
import math
from importlib import resources

import numpy as np
import numpy.typing as npt

STEP = 5
"""Scores move in steps of 5."""
CELLS = 100
"""Points still needed, in steps: 1 (5 points) to 100 (500 points); more is counted as 500."""
PLAYERS = (2, 3, 4)
TABLE_FILE = "game_chances.json"


def _need(points: int) -> int:
    """Points still needed, in steps (at least 1, at most :data:`CELLS`)."""
    return min(CELLS, max(1, math.ceil(points / STEP)))


@functools.cache
def _table(players: int) -> tuple[tuple[float, ...], ...]:
    data = json.loads(resources.files("racko.analysis").joinpath("data", TABLE_FILE).read_text())
    rows: list[list[int]] = data["tables"][str(players)]
    return tuple(tuple(cell / 10_000 for cell in row) for row in rows)


def game_chance(own: int, best_other: int, players: int = 2, target: int = 500) -> float:
    """The chance that a player with ``own`` points wins the game against opponents whose best has ``best_other``.

    A game already over (somebody at the target or past it) is won by the higher total (equal: one half)."""
    if own >= target or best_other >= target:
        return 1.0 if own > best_other else 0.0 if own < best_other else 0.5
    table = _table(min(max(players, 2), 4))
    return table[_need(target - own) - 1][_need(target - best_other) - 1]


def after_round(
    own: int, best_other: int, gained: int, other_gained: int, players: int = 2, target: int = 500
) -> float:
    """The chance to win the game after a round in which this player scored ``gained`` and the best other
    ``other_gained``."""
    return game_chance(own + gained, best_other + other_gained, players, target)


# --- Making the table (the rounds come from the batch simulator: racko.tools.game_chances) ---------------------


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


GAMES = 10_000
"""Games played on from each pair of scores, with 3 or 4 players."""


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


STAKE_LOSER_POINTS = 25
"""The points of the player who does not go out, in :func:`round_stake` (a typical rack's ordered start)."""
LEAST_STAKE = 0.05
"""A round whose outcome hardly moves the game (one far ahead) is weighed as if it moved it by this much."""


def round_stake(own: int, other: int, players: int = 2, target: int = 500) -> float:
    """What a round is worth in the game: the chance to win the game after going out (75 against a typical 25)
    minus after the opponent does; 1 in the game's last round, about 0.2 in its first (never below
    :data:`LEAST_STAKE`)."""
    won = after_round(own, other, 75, STAKE_LOSER_POINTS, players, target)
    lost = after_round(own, other, STAKE_LOSER_POINTS, 75, players, target)
    return max(LEAST_STAKE, won - lost)
