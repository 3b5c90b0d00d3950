"""The small game that bounds the bots (racko solve-small): its gap valuation is racko's, its players choose as the
bots do, and a position is valued as the rules say."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from racko.bots.gaps import PLAIN, RackValuer, counts_below
from racko.tools import small_game as game


@pytest.fixture(scope="module")
def tables() -> tuple[np.ndarray, np.ndarray]:
    return game.rack_tables()


def test_racks_are_every_three_distinct_cards_in_slot_order(tables: tuple[np.ndarray, np.ndarray]) -> None:
    racks, index = tables
    assert len(racks) == 12 * 11 * 10
    for number in (0, 517, 1319):
        a, b, c = racks[number]
        assert index[a, b, c] == number
    assert game._placed(racks, index, int(index[3, 9, 1]), 2, 12) == index[3, 9, 12]


def test_the_gap_valuation_is_racko_s_on_three_slots() -> None:
    for pool_cards in ({1, 4, 6, 11}, {2, 3, 5, 7, 8}, set(range(1, 13))):
        pool = np.zeros(13, np.bool_)
        pool[list(pool_cards)] = True
        valuer = RackValuer(counts_below(pool_cards, 12), False, PLAIN)
        for rack in itertools.permutations((2, 5, 9, 10, 12), 3):
            assert game._gap_cost(*rack, pool) == pytest.approx(valuer.gap_cost(rack)), (rack, pool_cards)


def test_a_position_that_goes_out_by_taking_is_won_and_hard_takes_the_card(
    tables: tuple[np.ndarray, np.ndarray],
) -> None:
    racks, index = tables
    values = np.full((len(racks), len(racks), 13), 0.5)
    mover, other = int(index[2, 5, 1]), int(index[12, 3, 8])  # 6 to 11 in the last slot go out
    scratch = np.empty(12, np.int64)
    assert game._best_value(values, racks, index, mover, other, 9, scratch) == 1.0
    assert game._policy_pick(game.HARD, values, racks, index, mover, other, 9, np.zeros(4), scratch) == 2
    assert game._policy_pick(game.MEDIUM, values, racks, index, mover, other, 9, np.zeros(4), scratch) == 2
    chance = np.array([0.0, -1.0, -3.0, 3.0])
    assert game._master_after(racks, index, mover, other, 2, 9, 9, chance) == 1.0
    assert game._policy_pick(game.MASTER, values, racks, index, mover, other, 9, chance, scratch) == 2


def test_the_best_player_goes_out_at_once_when_every_move_wins(tables: tuple[np.ndarray, np.ndarray]) -> None:
    """Every position after a move lost for the opponent (values 0): every move is worth 1, and the best player goes
    out with the card that orders its rack instead of playing on (it played on before, a sure win being worth 1 too:
    of 2,000 rounds against itself 48 ran to the 400-turn cap, which counts as lost for both seats; 22 with this)."""
    racks, index = tables
    values = np.zeros((len(racks), len(racks), 13))
    mover, other = int(index[1, 12, 5]), int(index[6, 2, 4])  # 3 in the middle slot goes out; slot 0 does not
    scratch = np.empty(12, np.int64)
    assert game._policy_pick(game.BEST, values, racks, index, mover, other, 3, np.zeros(4), scratch) == 1
    assert game._policy_place(game.BEST, values, racks, index, mover, other, 9, 3, np.zeros(4)) == 1
