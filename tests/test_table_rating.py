"""Fitting the one-move rating at a table of 3 to 5 players to deep play-outs (racko fit-table-rating): positions
of hard players, labels by the kernel's play-outs, a ranking loss that the fit lowers."""

from __future__ import annotations

import pytest

from racko.bots.gaps import PLAIN
from racko.bots.rollout import kernel_available
from racko.errors import RackoError
from racko.tools import table_rating

pytestmark = pytest.mark.skipif(not kernel_available(), reason="needs racko's compiled kernel")


def test_positions_are_seats_holding_a_drawn_card_at_a_table_of_three() -> None:
    positions = table_rating.collect_positions(3, 6, seed=1)
    assert len(positions) == 6
    for position in positions:
        view = position.observation
        assert view.held is not None and view.public.rules.players == 3
        assert len(position.moves) == 11 and position.moves[-1] == (view.rack, view.held)  # ten exchanges, the discard


def test_the_pairs_weigh_the_turns_between_moves_twice_where_the_rating_ranked_them_badly() -> None:
    (position,) = table_rating.collect_positions(3, 1, seed=2)
    turns = [float(move) for move in range(11)]  # move 0 best, the discard worst
    rated = table_rating.costs(position, PLAIN)
    (pairs,) = table_rating.weighed_pairs([position], [turns], PLAIN)
    assert len(pairs) == 11 * 10 // 2
    for better, worse, weight in pairs:
        assert better < worse
        assert weight == (worse - better) * (2.0 if rated[better] >= rated[worse] else 1.0)


def test_the_fit_labels_by_play_outs_and_lowers_the_ranking_loss() -> None:
    positions = table_rating.collect_positions(3, 8, seed=3)
    labels = table_rating.label(positions, PLAIN, seed=3)
    assert all(len(turns) == 11 and min(turns) > 0 for turns in labels)
    pairs = table_rating.weighed_pairs(positions, labels, PLAIN)
    start = table_rating.ranking_loss(positions, pairs, PLAIN)
    point, _ = table_rating.nelder_mead(
        lambda at: table_rating.ranking_loss(positions, pairs, table_rating.model_at(at)), [1.0, 0.0, 0.0], 0.2, 30
    )
    assert table_rating.ranking_loss(positions, pairs, table_rating.model_at(point)) < start
    with pytest.raises(RackoError, match="3 to 5"):
        table_rating.fit_table_rating(2, 10)
