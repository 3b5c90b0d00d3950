"""The chance to win a game of Rack-O from the scores, and what a round's outcome does to it.

Rack-O is played to 500 (the rules' target): a move is worth what it does to the *game*, not only whether the round
is won.  The table shipped in ``data/game_chances.json`` gives, for 2, 3 and 4 players, the chance that a player
wins the game from the points each still needs: their own and the best opponent's (the one who needs fewest), in
steps of 5 from 5 to 500.  It is made by :func:`racko.envs.batch.game_chances.make_table` (``racko game-chances``,
docs/REVIEW.md; making it needs numpy and the batch simulator, the ``rl`` extra, and reading it neither):

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


GAMES = 10_000
"""Games played on from each pair of scores, with 3 or 4 players."""


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
