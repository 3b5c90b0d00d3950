"""``racko game-chances``: the table of game-winning chances by score (:mod:`racko.analysis.game_chance`), made from
the batch simulator's rounds (the analysis room sits below the simulator, so the making is here; ``racko.cli`` hands
it to the command)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from racko.analysis.game_chance import GAMES, PLAYERS, STEP, chances_from, chances_played_on
from racko.envs.batch.simulator import Table, play_decks
from racko.rules import STANDARD_DECK_SIZE


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
