"""Tournaments as pure functions (docs/TOURNAMENTS.md): the points a finished game gives each side and the standings
with their tie-breaks (:mod:`.scoring`), a Swiss round's tables (:mod:`.swiss`: a maximum-weight matching for two
sides, a documented grouping for three to five) and an arena's next tables from the players waiting
(:mod:`.arena`).  No I/O and no clock: the web server's tournaments room keeps them in its store and runs them."""

from racko.play.tournaments.arena import REMATCH_WAIT, Waiter, seat_arena
from racko.play.tournaments.scoring import (
    ARENA,
    SWISS,
    Game,
    Standing,
    arena_points,
    bye_points,
    game_points,
    pair_points,
    standings,
    totals,
    won_outright,
)
from racko.play.tournaments.swiss import (
    BLOCK,
    LEVELS_ONLY_COST,
    REPEAT_COST,
    Contender,
    Pairing,
    group_cost,
    meetings,
    pair_swiss,
    repeats,
)

__all__ = [
    "ARENA",
    "BLOCK",
    "LEVELS_ONLY_COST",
    "REMATCH_WAIT",
    "REPEAT_COST",
    "SWISS",
    "Contender",
    "Game",
    "Pairing",
    "Standing",
    "Waiter",
    "arena_points",
    "bye_points",
    "game_points",
    "group_cost",
    "meetings",
    "pair_points",
    "pair_swiss",
    "repeats",
    "seat_arena",
    "standings",
    "totals",
    "won_outright",
]
