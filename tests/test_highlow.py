"""High-Low Rack-O (sheet 003): the sheet's scoring examples, the deal, Swap cards at the deal and in play, the
pass-the-card round of play, Rack-O, illegal actions, what each seat sees, whole games, records; then property
tests over random (and greedy) legal play for 3, 4 and 5 players, with and without the run bonus.

Hand-written situations are dealt from decks built by :func:`arrange`, which follows the engine's deal: card i of
the deck goes to seat (dealer - 1 - i) mod n, filling that seat's row from the left end.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as statistic
from hypothesis import strategies as st
from typer.testing import CliRunner

import racko
from helpers import check_conservation, check_illegal_actions, check_legality, snapshot
from protocol_schemas import fast_validator
from racko import (
    DrawFromStock,
    GameRecord,
    IllegalActionError,
    Match,
    NotYourTurnError,
    RoundOverError,
    RulesError,
    SetupError,
    SlotOutOfRangeError,
    UnknownActionError,
    WrongPhaseError,
    replay,
)
from racko.cli import app
from racko.highlow import (
    HIGHLOW_ACTION_SPACE_SIZE,
    HighLowAction,
    HighLowPhase,
    HighLowRound,
    KeepOrder,
    Replace,
    SwapCards,
    highlow_action_from_index,
    highlow_action_from_json,
    highlow_action_index,
    highlow_action_to_json,
    highlow_deck,
    highlow_legal_actions,
)
from racko.highlow.cards import SWAP, WILD
from racko.highlow.scoring import (
    HIGH,
    LOW,
    best_prefix,
    doubles,
    in_order_prefix,
    is_racko,
    row_score,
    winner_extras,
)
from racko.match import match_winner

W, S = WILD, SWAP
ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"


# --- Helpers ---------------------------------------------------------------------------------------------------


def highlow(players: int = 3, **options: Any) -> racko.Rules:
    return racko.variant("highlow").rules(players, **options)


def arrange(rows: Sequence[Sequence[int]], dealer: int, stock: Sequence[int] = ()) -> list[int]:
    """The 112-card deck that deals ``rows`` (left end first) with ``dealer`` dealing, then ``stock`` (top first).

    The cards not named follow: the numbers in ascending order, then the Wilds, then the Swaps (so that a test
    drawing past the named stock meets no Swap for a long while).
    """
    players = len(rows)
    assert all(len(row) == racko.RACK_SIZE for row in rows)
    dealt = [rows[(dealer - 1 - i) % players][i // players] for i in range(racko.RACK_SIZE * players)]
    named = [*dealt, *stock]
    rest = Counter(highlow_deck())
    rest.subtract(named)
    assert all(count >= 0 for count in rest.values()), f"more copies than the deck holds: {-rest}"
    filler = sorted(card for card in rest.elements() if card > 0) + [W] * rest[W] + [S] * rest[S]
    deck = named + filler
    assert sorted(deck) == sorted(highlow_deck())
    return deck


def zigzag(seat: int) -> list[int]:
    """A row far from any order (it stays out of order whatever one card or one swap does); seats 0-4 use 1-50 once."""
    base = 5 * seat
    return [26 + base, 1 + base, 27 + base, 2 + base, 28 + base, 3 + base, 29 + base, 4 + base, 30 + base, 5 + base]


def hand(rows: Sequence[Sequence[int]], dealer: int, stock: Sequence[int] = (), **options: Any) -> HighLowRound:
    return HighLowRound(highlow(len(rows), **options), arrange(rows, dealer, stock), dealer)


def play_order(first: int, players: int) -> list[int]:
    """Seats from ``first`` going right (seat s - 1 is the right of seat s)."""
    return [(first - k) % players for k in range(players)]


def match_state(match: Match) -> tuple[Any, ...]:
    """Everything a replay must reproduce."""
    current = match.round
    assert isinstance(current, HighLowRound)
    return (
        match.totals,
        tuple(match.seat_totals),
        tuple(match.results),
        match.outcome,
        match.first_dealer,
        tuple((r.dealer, r.deck, tuple(r.actions), tuple(r.reshuffles)) for r in match.rounds),
        snapshot(current),
    )


def conservation(round_: HighLowRound) -> None:
    """Every card is in exactly one place (:func:`helpers.check_conservation`), and a card is held only to place."""
    check_conservation(round_)
    assert (round_.held is not None) == (round_.phase is HighLowPhase.PLACE)


def every_action(players: int) -> list[HighLowAction]:
    """The whole action space, for every seat."""
    return [highlow_action_from_index(seat, index) for seat in range(players) for index in range(56)]


# A simple greedy policy: each position of the row has a bucket of five numbers (1-5, 6-10, ... for a Low row,
# reversed for a High one); a row whose cards all sit in their buckets is in order.  Prefer a Rack-O now, then
# more cards in their buckets, then a longer in-order prefix.


def _in_bucket(row: Sequence[int], direction: int) -> int:
    count = 0
    for position, card in enumerate(row):
        if card == W:
            count += 1
        elif card > 0:
            bucket = (card - 1) // 5
            count += (bucket if direction == LOW else 9 - bucket) == position
    return count


def _value(row: Sequence[int], direction: int) -> tuple[bool, int, int]:
    return (S not in row and is_racko(row), _in_bucket(row, direction), best_prefix(row))


def greedy(round_: HighLowRound | Match, rng: random.Random) -> HighLowAction:
    seat = round_.to_act
    assert seat is not None
    observation = round_.observation(seat)
    assert isinstance(observation, racko.highlow.HighLowObservation)
    row = list(observation.rack)
    direction = LOW if _in_bucket(row, LOW) >= _in_bucket(row, HIGH) else HIGH
    if observation.phase is HighLowPhase.PLACE:
        assert observation.held is not None
        scored = []
        for position in range(racko.RACK_SIZE):
            new = row[:]
            new[position] = observation.held
            scored.append((_value(new, direction), position))
        top = max(value for value, _ in scored)
        return Replace(seat, rng.choice([position for value, position in scored if value == top]))
    best, choice = _value(row, direction), KeepOrder(seat)
    for first in range(racko.RACK_SIZE):
        for second in range(first + 1, racko.RACK_SIZE):
            new = row[:]
            new[first], new[second] = new[second], new[first]
            value = _value(new, direction)
            if value > best:
                best, choice = value, SwapCards(seat, first, second)
    return choice


# --- The sheet's scoring examples ---------------------------------------------------------------------------


def test_the_low_example_scores_15() -> None:
    # "a 7 on the left end followed by a 10, a 12 and a 5 ... his total score would be fifteen points"
    row = [7, 10, 12, 5, 20, 30, 31, 40, 41, 49]
    assert in_order_prefix(row, LOW) == 3
    assert in_order_prefix(row, HIGH) == 1
    assert row_score(row, winner=False) == 15


def test_the_high_example_scores_20() -> None:
    # "48, 42, 36, 28, and 30 on his left end ... He would score twenty points for four cards in order."
    row = [48, 42, 36, 28, 30, 20, 10, 5, 3, 1]
    assert in_order_prefix(row, HIGH) == 4
    assert best_prefix(row) == 4
    assert row_score(row, winner=False) == 20


def test_the_sheet_doubles_23_23_and_15_wild() -> None:
    assert doubles([23, 23, 40, 1, 2, 3, 4, 5, 6, 7]) == 1
    assert doubles([15, W, 40, 1, 2, 3, 4, 5, 6, 7]) == 1
    # Low: 15, W, 20, 23, 23, 30 are in order (equal neighbours count as in order), then 1 breaks it.
    assert row_score([15, W, 20, 23, 23, 30, 1, 2, 3, 4], winner=False) == 6 * 5 + 2 * 5


def test_the_run_example_adds_25_with_the_option() -> None:
    # "in this sequence: 7, 9, 13, 14, 15, 27, 32, 39, 40, 49 there is a run of three cards (13,14,15)"
    row = [7, 9, 13, 14, 15, 27, 32, 39, 40, 49]
    assert is_racko(row)
    assert winner_extras(row, True) == (0, 3, 25)
    assert row_score(row, winner=True, with_run_bonus=True) == 100
    assert row_score(row, winner=True) == 75
    assert row_score(row, winner=False) == 50  # not the winner: ten cards in order, no double


@pytest.mark.parametrize(
    ("row", "pairs"),
    [
        pytest.param([5, W, W, 9, 1, 2, 3, 4, 6, 7], 1, id="number-W-W: one double (a Wild never starts one)"),
        pytest.param([W, W, 30, 31, 1, 2, 3, 4, 6, 7], 0, id="W-W at the start is no double"),
        pytest.param([W, 5, 30, 31, 1, 2, 3, 4, 6, 7], 0, id="W then a number is no double"),
        pytest.param([23, 23, 23, 1, 2, 3, 4, 5, 6, 7], 2, id="23-23-23 is two"),
        pytest.param([23, 23, 24, 24, 1, 2, 3, W, 6, 7], 3, id="two pairs and a Wild"),
        pytest.param([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0, id="none"),
        pytest.param([10, 9, 8, 7, 6, 5, 4, 3, 2, 2], 1, id="at the right end"),
        pytest.param([W, W, W, W, W, W, 1, 2, 3, 4], 0, id="six Wilds make no double"),
    ],
)
def test_doubles(row: list[int], pairs: int) -> None:
    assert doubles(row) == pairs
    assert row_score(row, winner=False) == 5 * best_prefix(row) + 5 * pairs


@pytest.mark.parametrize(
    ("row", "direction", "count"),
    [
        pytest.param([W, 10, 12, 5, 1, 1, 1, 1, 1, 1], LOW, 3, id="a Wild at the left end"),
        pytest.param([10, W, 5, 1, 2, 3, 4, 6, 7, 8], HIGH, 4, id="a Wild in the middle (High)"),
        pytest.param([10, W, 5, 1, 2, 3, 4, 6, 7, 8], LOW, 2, id="a Wild does not mend a break"),
        pytest.param([W, W, W, W, W, W, 30, 31, 1, 2], LOW, 8, id="six Wilds"),
        pytest.param([20, 20, 20, 19, 19, 3, 4, 5, 6, 7], HIGH, 6, id="equal neighbours (High)"),
        pytest.param([20, 20, 21, 21, 19, 3, 4, 5, 6, 7], LOW, 4, id="equal neighbours (Low)"),
    ],
)
def test_in_order_prefix_wilds_never_break_it(row: list[int], direction: int, count: int) -> None:
    assert in_order_prefix(row, direction) == count


@pytest.mark.parametrize(
    ("row", "with_bonus", "score"),
    [
        pytest.param([1, 2, W, 10, 20, 30, 31, 40, 45, 50], True, 100, id="the Wild fills a run (25) not a double (5)"),
        pytest.param([1, 2, W, 10, 20, 30, 31, 40, 45, 50], False, 80, id="without the option the Wild is a double"),
        pytest.param([1, 2, 3, 10, 11, W, 20, 30, 40, 50], True, 105, id="a second run of three gains nothing: double"),
        pytest.param([1, 2, W, W, 5, 20, 30, 40, 45, 50], True, 115, id="two Wilds make a run of five (40)"),
        pytest.param([1, 2, W, W, 5, 20, 30, 40, 45, 50], False, 80, id="two Wilds are one double (2-W)"),
        pytest.param([50, 49, W, 30, 20, 10, 9, 8, 7, 1], True, 115, id="High: the longer run and the Wild double"),
        pytest.param([23, 23, 24, 25, 30, 31, 32, 33, 34, 35], True, 130, id="a run of six (50) and a double"),
        pytest.param([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], True, 125, id="a run of ten counts as six"),
        pytest.param([1, 3, 5, 7, 9, 11, 13, 15, 17, 19], True, 75, id="no run"),
        pytest.param([W, W, W, W, W, W, 1, 2, 3, 4], True, 110, id="Wilds before 1 can only be 1: no run, no double"),
    ],
)
def test_the_winners_score_picks_what_scores_most(row: list[int], with_bonus: bool, score: int) -> None:
    assert row_score(row, winner=True, with_run_bonus=with_bonus) == score


# --- Rack-O -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        pytest.param([1, 5, 9, 13, 17, 22, 30, 38, 44, 50], True, id="Low"),
        pytest.param([50, 44, 38, 30, 22, 17, 13, 9, 5, 1], True, id="High"),
        pytest.param([3, 3, 9, 9, 17, 22, 30, 38, 44, 44], True, id="Low with equal neighbours"),
        pytest.param([44, 44, 38, 30, 22, 17, 13, 9, 9, 1], True, id="High with equal neighbours"),
        pytest.param([W, 5, 9, W, 17, 22, W, 38, 44, W], True, id="Low with Wilds"),
        pytest.param([W, 44, W, 30, 22, 17, 13, 9, 5, W], True, id="High with Wilds"),
        pytest.param([1, 5, 9, 13, 17, 22, 30, 38, 50, 44], False, id="Low broken at the right end"),
        pytest.param([5, 1, 9, 13, 17, 22, 30, 38, 44, 50], False, id="broken at the left end"),
        pytest.param([10, W, 5, 20, 25, 30, 35, 40, 45, 50], False, id="a Wild does not mend a break"),
    ],
)
def test_a_row_in_order_either_way(row: list[int], expected: bool) -> None:
    assert is_racko(row) is expected


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_row_in_order_at_the_deal_goes_rack_o_first_in_play_order_from_the_dealer(players: int) -> None:
    dealer = 1
    rows = [zigzag(seat) for seat in range(players)]
    order = play_order(dealer, players)
    low, high = [1, 5, 9, 13, 17, 22, 30, 38, 44, 50], [49, 43, 37, 29, 21, 16, 12, 8, 4, 2]
    rows[order[2]], rows[order[1]] = low, high  # both in order: order[1] plays first
    round_ = hand(rows, dealer)
    assert round_.over and round_.to_act is None
    result = round_.result
    assert result is not None
    assert result.winner == order[1] and result.direction == HIGH and result.turns == 0
    assert result.scores[order[1]] == 75
    assert result.scores[order[2]] == 50  # ten in order, but not the winner
    assert round_.legal_actions() == []
    assert round_.stock_size == 112 - 10 * players  # nobody drew
    assert round_.discard_pile == ()
    conservation(round_)


def test_a_high_row_with_equal_neighbours_and_wilds_goes_rack_o_and_scores_its_doubles() -> None:
    winning = [W, 44, 44, 38, W, 30, 23, 23, 17, 2]
    round_ = hand([zigzag(0), winning, zigzag(2)], dealer=2, bonus=True)
    result = round_.result
    assert result is not None and result.winner == 1 and result.direction == HIGH
    assert result.doubles[1] == 3 and result.bonus == 0  # 44-44, 38-W, 23-23; no run
    assert result.scores[1] == 75 + 15


def test_a_rack_o_at_the_deal_leaves_the_other_rows_swaps_where_they_are() -> None:
    # The deal is looked at before the Swaps are resolved: the hand ends with a Swap still in seat 1's row.
    rows = [list(range(11, 21)), [S, 40, 30, 20, 10, 5, 1, 2, 3, 4], zigzag(2)]
    round_ = hand(rows, dealer=0)
    result = round_.result
    assert result is not None and result.winner == 0 and round_.over
    assert round_.rack(1)[0] == S and round_.discard_pile == ()
    assert [event.kind for event in round_.log] == ["dealt", "racko", "round-ended"]
    # How a Swap left in a row scores is row_score's business (today it counts as the number -1: an open rule point).
    assert result.scores == tuple(row_score(row, winner=seat == 0) for seat, row in enumerate(result.racks))
    conservation(round_)


@pytest.mark.parametrize(
    "row",
    [
        pytest.param([50, 45, 40, 35, 30, 25, 20, 15, 10, S], id="High with a Swap at the right end"),
        pytest.param([S, 5, 10, 15, 20, 25, 30, 35, 40, 45], id="Low with a Swap at the left end"),
    ],
)
def test_a_row_holding_a_swap_never_goes_rack_o(row: list[int]) -> None:
    # Counted as -1 the Swap would fit the order; the engine must not count it.  The replacement (41) breaks it.
    round_ = hand([zigzag(0), row, zigzag(2)], dealer=1, stock=[41])
    assert not round_.over
    assert round_.phase is HighLowPhase.SWAP and round_.to_act == 1
    assert S not in round_.rack(1) and 41 in round_.rack(1)


def test_a_starting_replacement_that_puts_the_row_in_order_goes_rack_o() -> None:
    rows = [zigzag(0), [50, 45, 40, 35, 30, 25, 20, 15, 10, S], zigzag(2)]
    round_ = hand(rows, dealer=2, stock=[3])
    result = round_.result
    assert result is not None and result.winner == 1 and result.direction == HIGH
    assert round_.rack(1) == (50, 45, 40, 35, 30, 25, 20, 15, 10, 3)
    assert round_.actions == [] and result.turns == 0
    assert [e.kind for e in round_.log] == ["dealt", "swap-discarded", "placed", "racko", "round-ended"]
    assert round_.over and round_.to_act is None and round_.held is None
    assert round_.discard_pile == (S,)
    assert round_.legal_actions() == []
    conservation(round_)
    match = Match(highlow(3), first_dealer=2, decks=[arrange(rows, 2, [3])], seed=1)
    assert match.results == [result]
    assert len(match.rounds) == 2 and match.round.dealer == 0


def test_a_placement_that_wins_puts_the_removed_card_on_the_discard_pile() -> None:
    # Seat 0 deals and draws 41, puts it in place of 26 and passes 26 to seat 2, whose row it completes.
    rows = [zigzag(0), zigzag(1), [11, 12, 13, 14, 15, 16, 17, 18, 19, 5]]
    round_ = hand(rows, dealer=0, stock=[41], bonus=True)
    assert round_.held == 41 and round_.to_act == 0
    round_.apply(Replace(0, 0))
    assert round_.to_act == 2 and round_.held == 26
    round_.apply(Replace(2, 9))
    result = round_.result
    assert result is not None
    assert result.winner == 2 and result.direction == LOW and result.turns == 2
    assert result.racks[2] == (11, 12, 13, 14, 15, 16, 17, 18, 19, 26)
    assert round_.discard_pile == (5,)
    assert result.bonus == 50 and result.run >= 6  # a run of nine counts as six (reported as 6 today)
    assert result.scores == (5 * 2, 5 * 2, 75 + 50)  # zigzag rows: two in order (High: 41, 1, 27 and 31, 6, 32)
    assert round_.held is None and round_.to_act is None
    assert [e.kind for e in round_.log][-4:] == ["placed", "discarded", "racko", "round-ended"]
    conservation(round_)


# --- The deal -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("dealer_offset", [0, 1, 2])
def test_the_deal_goes_to_the_right_one_card_at_a_time_filling_rows_from_the_left(
    players: int, dealer_offset: int
) -> None:
    dealer = (dealer_offset * 2) % players
    deck = [card for card in highlow_deck() if card != S]
    random.Random(players * 10 + dealer).shuffle(deck)
    deck += [S] * 6  # no Swap dealt or drawn first
    round_ = HighLowRound(highlow(players), deck, dealer)
    for i in range(10 * players):
        seat = (dealer - 1 - i) % players
        assert round_.dealt[seat][i // players] == deck[i]
        assert round_.rack(seat)[i // players] == deck[i]
    assert round_.rack((dealer - 1) % players)[0] == deck[0]  # the first card: the dealer's right, left end
    assert round_.rack(dealer)[9] == deck[10 * players - 1]  # the last card: the dealer, right end
    # The dealer draws the top of the stock at once.
    assert round_.to_act == dealer and round_.phase is HighLowPhase.PLACE
    assert round_.held == deck[10 * players]
    assert round_.stock() == tuple(deck[10 * players + 1 :])
    assert round_.discard_pile == ()  # no Swap at the deal: no discard pile yet
    assert round_.dealer == dealer and round_.public_view().dealer == dealer
    conservation(round_)


def test_the_deck_helper_deals_the_rows_it_is_asked_for() -> None:
    rows = [zigzag(seat) for seat in range(5)]
    rows[3] = [W, 7, S, 8, 9, 10, 11, 12, 13, W]
    for dealer in range(5):
        round_ = HighLowRound(highlow(5), arrange(rows, dealer, [41, 42]), dealer)
        assert [list(row) for row in round_.dealt] == rows


@pytest.mark.parametrize("players", [2, 6])
def test_high_low_is_for_3_to_5_players(players: int) -> None:
    with pytest.raises(RulesError, match="High-Low Rack-O is played by 3"):
        highlow(players)
    with pytest.raises(RulesError, match="3 to 5 players"):
        racko.Rules(players=players, deck_size=112, two_player_rule=False, variant="highlow")


def test_the_high_low_rules() -> None:
    rules = highlow(4)
    assert (rules.players, rules.deck_size, rules.variant) == (4, 112, "highlow")
    assert (rules.two_player_rule, rules.partners, rules.auto_racko) == (False, False, True)
    assert (rules.target, rules.refill, rules.bonus, rules.turn_cap) == (300, "shuffle", False, None)
    assert highlow(3, target=200).target == 200
    assert highlow(5, target=500, bonus=True).bonus
    for bad in ({"deck_size": 60}, {"auto_racko": False}, {"two_player_rule": True}, {"partners": True}):
        with pytest.raises(RulesError):
            highlow(4, **bad)


def test_the_deck() -> None:
    deck = highlow_deck()
    counts = Counter(deck)
    assert len(deck) == 112
    assert all(counts[number] == 2 for number in range(1, 51))
    assert counts[W] == 6 and counts[S] == 6
    assert set(counts) == {*range(1, 51), W, S}


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda deck: deck.pop(), id="a card short"),
        pytest.param(lambda deck: deck.append(7), id="a card too many"),
        pytest.param(lambda deck: deck.__setitem__(0, 51), id="a 51"),
        pytest.param(lambda deck: deck.__setitem__(deck.index(S), W), id="a seventh Wild"),
        pytest.param(lambda deck: deck.__setitem__(0, True), id="a bool"),
    ],
)
def test_a_deck_that_is_not_the_high_low_deck_is_refused(change: Callable[[list[Any]], None]) -> None:
    deck: list[Any] = highlow_deck()
    change(deck)
    with pytest.raises(SetupError):
        HighLowRound(highlow(3), deck, 0)


# --- Swap cards at the deal -------------------------------------------------------------------------------------


def test_a_swap_at_the_deal_is_discarded_replaced_and_gives_its_owner_a_swap() -> None:
    rows = [zigzag(0), zigzag(1), zigzag(2)]
    rows[2][4] = S
    round_ = hand(rows, dealer=0, stock=[41, 42])
    assert round_.dealt[2][4] == S
    assert round_.rack(2)[4] == 41
    assert round_.discard_pile == (S,)
    assert round_.phase is HighLowPhase.SWAP and round_.to_act == 2 and round_.held is None
    assert [(e.kind, e.seat, e.card, e.position) for e in round_.log[1:]] == [
        ("swap-discarded", 2, S, 4),
        ("placed", 2, 41, 4),
    ]
    assert len(round_.legal_actions()) == 46
    conservation(round_)
    before = round_.rack(2)
    round_.apply(SwapCards(2, 0, 9))
    assert round_.rack(2) == (before[9], *before[1:9], before[0])
    # Then the dealer draws and plays as usual.
    assert round_.phase is HighLowPhase.PLACE and round_.to_act == 0 and round_.held == 42
    assert round_.discard_pile == (S,)
    conservation(round_)


def test_a_swap_replaced_by_a_swap_is_discarded_too_and_gives_two_swaps() -> None:
    rows = [zigzag(0), zigzag(1), zigzag(2)]
    rows[2][4] = S
    round_ = hand(rows, dealer=0, stock=[S, 41, 42])
    assert round_.rack(2)[4] == 41
    assert round_.discard_pile == (S, S)
    assert [(e.kind, e.seat, e.card) for e in round_.log[1:]] == [
        ("swap-discarded", 2, S),
        ("swap-discarded", 2, S),
        ("placed", 2, 41),
    ]
    assert round_.phase is HighLowPhase.SWAP and round_.to_act == 2
    row = round_.rack(2)
    round_.apply(SwapCards(2, 1, 0))  # either order of the two positions
    assert round_.rack(2) == (row[1], row[0], *row[2:])
    assert round_.phase is HighLowPhase.SWAP and round_.to_act == 2  # the second swap
    round_.apply(KeepOrder(2))
    assert round_.rack(2) == (row[1], row[0], *row[2:])
    assert round_.phase is HighLowPhase.PLACE and round_.to_act == 0 and round_.held == 42
    assert round_.discard_pile == (S, S)
    conservation(round_)


def test_swaps_at_the_deal_are_resolved_in_play_order_from_the_dealer_each_row_left_to_right() -> None:
    players, dealer = 4, 1  # play order: 1, 0, 3, 2
    rows = [zigzag(seat) for seat in range(players)]
    rows[2][0] = S
    rows[3][7] = S
    rows[3][2] = S
    rows[1][9] = S
    round_ = hand(rows, dealer, stock=[41, 42, S, 43, 44, 45])
    seen = []
    while round_.phase is HighLowPhase.SWAP:
        seen.append(round_.to_act)
        round_.apply(KeepOrder(round_.to_act))
    assert seen == [1, 3, 3, 3, 2]  # seat 3's second Swap was replaced by a Swap: two swaps for it
    placed = [(e.seat, e.card, e.position) for e in round_.log if e.kind == "placed"]
    assert placed == [(1, 41, 9), (3, 42, 2), (3, 43, 7), (2, 44, 0)]
    discarded = [(e.seat, e.position) for e in round_.log if e.kind == "swap-discarded"]
    assert discarded == [(1, 9), (3, 2), (3, 7), (3, 7), (2, 0)]
    assert round_.discard_pile == (S,) * 5
    assert round_.to_act == dealer and round_.held == 45
    assert all(S not in round_.rack(seat) for seat in range(players))
    conservation(round_)


def test_every_swap_of_a_row_is_replaced_before_its_owner_swaps() -> None:
    # Decision: a row's Swaps are all replaced first (left to right); then one swap decision per Swap discarded.
    rows = [zigzag(0), zigzag(1), zigzag(2)]
    rows[0][1], rows[0][8] = S, S
    round_ = hand(rows, dealer=0, stock=[41, 42, 43])
    assert round_.rack(0)[1] == 41 and round_.rack(0)[8] == 42
    assert round_.phase is HighLowPhase.SWAP and round_.to_act == 0
    round_.apply(KeepOrder(0))
    assert round_.phase is HighLowPhase.SWAP and round_.to_act == 0
    round_.apply(KeepOrder(0))
    assert round_.held == 43 and round_.discard_pile == (S, S)


# --- A Swap drawn in play ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_swap_drawn_in_play_lets_everyone_swap_in_play_order_then_the_drawer_draws_again(players: int) -> None:
    dealer = players - 1
    rows = [zigzag(seat) for seat in range(players)]
    round_ = hand(rows, dealer, stock=[S, 41, 42])
    assert round_.discard_pile == (S,)
    assert [(e.kind, e.seat, e.card) for e in round_.log[1:]] == [("drew", dealer, S), ("discarded", dealer, S)]
    asked = []
    while round_.phase is HighLowPhase.SWAP:
        seat = round_.to_act
        assert seat is not None
        asked.append(seat)
        before = round_.rack(seat)
        if seat % 2:
            round_.apply(SwapCards(seat, 1, 2))
            assert round_.rack(seat) == (before[0], before[2], before[1], *before[3:])
        else:
            round_.apply(KeepOrder(seat))
            assert round_.rack(seat) == before
    assert asked == play_order(dealer, players)
    assert round_.to_act == dealer and round_.held == 41 and round_.phase is HighLowPhase.PLACE
    assert round_.public_view().drawer == dealer and round_.turns == 0
    conservation(round_)


def test_a_swap_drawn_by_a_later_round_of_plays_dealer_starts_with_that_dealer() -> None:
    players, dealer = 4, 2
    round_ = hand([zigzag(seat) for seat in range(players)], dealer, stock=[41, S, 42])
    for seat in play_order(dealer, players):
        assert round_.to_act == seat
        round_.apply(Replace(seat, 5))
    asked = []
    while round_.phase is HighLowPhase.SWAP:
        asked.append(round_.to_act)
        round_.apply(KeepOrder(round_.to_act))  # type: ignore[arg-type]
    assert asked == [1, 0, 3, 2]
    assert round_.to_act == 1 and round_.held == 42
    assert round_.public_view().drawer == 1 and round_.public_view().dealer == 2


def test_a_swap_that_puts_a_row_in_order_ends_the_hand_at_once() -> None:
    rows = [zigzag(0), zigzag(1), [1, 2, 3, 4, 6, 5, 7, 8, 9, 10]]
    round_ = hand(rows, dealer=0, stock=[S, 41])
    round_.apply(KeepOrder(0))
    round_.apply(SwapCards(2, 5, 4))
    assert round_.over and round_.to_act is None
    result = round_.result
    assert result is not None and result.winner == 2 and result.turns == 0
    assert result.racks[2] == tuple(range(1, 11))
    assert round_.discard_pile == (S,) and round_.stock()[0] == 41  # seat 1 never asked; nobody drew again
    assert [e.kind for e in round_.log][-3:] == ["swapped", "racko", "round-ended"]
    conservation(round_)


# --- The round of play: passing the card to the right -------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer"), [(3, 0), (3, 2), (4, 0), (4, 3), (5, 1), (5, 4)], ids=lambda v: str(v))
def test_a_round_of_play_passes_the_card_to_the_right_and_the_deal_moves_right(players: int, dealer: int) -> None:
    rows = [zigzag(seat) for seat in range(players)]
    round_ = hand(rows, dealer, stock=[41, 42, 43])
    expected_rows = [list(row) for row in rows]
    discarded = []
    for number, (first, drawn) in enumerate([(dealer, 41), ((dealer - 1) % players, 42)]):
        order = play_order(first, players)
        assert order[-1] == (first + 1) % players  # the left of the round's dealer plays last
        view = round_.public_view()
        assert view.drawer == first and view.dealer == dealer
        assert round_.to_act == first and round_.held == drawn
        assert view.passed_card is None  # a drawn card is not public
        card = drawn
        for k, seat in enumerate(order):
            assert round_.to_act == seat and round_.phase is HighLowPhase.PLACE
            assert round_.held == card and round_.observation(seat).held == card
            if k:
                assert round_.public_view().passed_card == card  # it was face up in the row on the left
            position = (k + number) % 10
            removed = expected_rows[seat][position]
            round_.apply(Replace(seat, position))
            expected_rows[seat][position] = card
            assert round_.rack(seat) == tuple(expected_rows[seat])
            card = removed
            conservation(round_)
        discarded.append(card)
        assert round_.discard_pile == tuple(discarded)  # the last player's card goes face up on the pile
        assert round_.turns == players * (number + 1)
    # The prior dealer played last; the next round of play is dealt by the right of the round's dealer.
    assert round_.public_view().drawer == (dealer - 2) % players
    assert round_.to_act == (dealer - 2) % players and round_.held == 43
    placed = [e for e in round_.log if e.kind in ("placed", "passed", "discarded")]
    assert [e.kind for e in placed[: 2 * players]] == ["placed", "passed"] * (players - 1) + ["placed", "discarded"]
    assert [e.seat for e in placed if e.kind == "passed"][: players - 1] == play_order(dealer, players)[1:]


def test_the_turn_cap_ends_a_hand_at_the_end_of_a_round_of_play() -> None:
    round_ = hand([zigzag(seat) for seat in range(3)], 0, stock=[41, 42], turn_cap=1)
    round_.apply(Replace(0, 0))
    assert not round_.over  # the cap is only looked at when a round of play ends
    round_.apply(Replace(2, 0))
    round_.apply(Replace(1, 0))
    result = round_.result
    assert result is not None and result.capped and result.winner is None and result.turns == 3
    assert result.scores == tuple(row_score(row, winner=False) for row in result.racks)
    assert result.direction == 0 and result.bonus == 0
    assert round_.discard_pile == (31,) and round_.held is None
    assert [e.kind for e in round_.log][-3:] == ["discarded", "capped", "round-ended"]
    conservation(round_)


# --- Legal and illegal actions -------------------------------------------------------------------------------


def test_the_action_space() -> None:
    assert HIGHLOW_ACTION_SPACE_SIZE == 56
    for seat in range(5):
        actions = [highlow_action_from_index(seat, index) for index in range(56)]
        assert len(set(actions)) == 56
        assert all(action.seat == seat for action in actions)
        assert [highlow_action_index(action) for action in actions] == list(range(56))
        for action in actions:
            assert highlow_action_from_json(json.loads(json.dumps(highlow_action_to_json(action)))) == action
    assert highlow_action_index(SwapCards(0, 7, 2)) == highlow_action_index(SwapCards(0, 2, 7))
    assert highlow_action_to_json(Replace(1, 0)) == {"seat": 1, "act": "replace", "position": 1}
    # A swap is a pair of positions, kept lowest first however it was named.
    swap = SwapCards(2, 9, 0)
    assert swap == SwapCards(2, 0, 9) and swap in highlow_legal_actions(2, HighLowPhase.SWAP)
    assert highlow_action_to_json(SwapCards(2, 9, 0)) == {"seat": 2, "act": "swap", "positions": [1, 10]}
    assert highlow_action_to_json(KeepOrder(0)) == {"seat": 0, "act": "keep"}
    for index in (-1, 56, "3", 3.0):
        with pytest.raises(UnknownActionError):
            highlow_action_from_index(0, index)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "data",
    [
        {"seat": 0, "act": "replace", "position": 0},
        {"seat": 0, "act": "replace", "position": 11},
        {"seat": 0, "act": "replace", "position": "3"},
        {"seat": 0, "act": "replace"},
        {"seat": 0, "act": "swap", "positions": [1]},
        {"seat": 0, "act": "swap", "positions": [1, 11]},
        {"seat": 0, "act": "keep", "position": 1},
        {"seat": "0", "act": "keep"},
        {"seat": 0, "act": "draw"},
        ["keep"],
    ],
    ids=str,
)
def test_a_misshapen_record_action_is_refused(data: Any) -> None:
    with pytest.raises(UnknownActionError):
        highlow_action_from_json(data)


def test_legal_actions_in_each_phase() -> None:
    round_ = hand([zigzag(seat) for seat in range(3)], dealer=0, stock=[S, 41])
    assert round_.phase is HighLowPhase.SWAP
    assert round_.legal_actions()[-1] == KeepOrder(0)
    assert len(round_.legal_actions()) == 46
    assert round_.legal_mask() == [False] * 10 + [True] * 46
    for _ in range(3):
        round_.apply(KeepOrder(round_.to_act))  # type: ignore[arg-type]
    assert round_.legal_actions() == [Replace(0, position) for position in range(10)]
    assert round_.legal_mask() == [True] * 10 + [False] * 46
    assert round_.observation(0).legal_actions() == round_.legal_actions()
    assert round_.observation(1).legal_actions() == []


PLACE_ILLEGAL: dict[str, tuple[HighLowAction | Any, type[IllegalActionError]]] = {
    "another seat": (Replace(1, 0), NotYourTurnError),
    "the next seat to play": (Replace(2, 0), NotYourTurnError),
    "a seat not at the table": (Replace(7, 0), NotYourTurnError),
    "a seat that is a bool": (Replace(True, 0), UnknownActionError),  # type: ignore[arg-type]
    "swap in PLACE": (SwapCards(0, 0, 1), WrongPhaseError),
    "keep in PLACE": (KeepOrder(0), WrongPhaseError),
    "position 10": (Replace(0, 10), SlotOutOfRangeError),
    "position -1": (Replace(0, -1), SlotOutOfRangeError),
    'position "3"': (Replace(0, "3"), SlotOutOfRangeError),  # type: ignore[arg-type]
    "position True": (Replace(0, True), SlotOutOfRangeError),
    "position 3.0": (Replace(0, 3.0), SlotOutOfRangeError),  # type: ignore[arg-type]
    "a classic action": (DrawFromStock(0), UnknownActionError),
    "not an action": ("replace", UnknownActionError),
}
SWAP_ILLEGAL: dict[str, tuple[HighLowAction | Any, type[IllegalActionError]]] = {
    "replace in SWAP": (Replace(0, 0), WrongPhaseError),
    "another seat keeps": (KeepOrder(2), NotYourTurnError),
    "another seat swaps": (SwapCards(1, 0, 1), NotYourTurnError),
    "the same position twice": (SwapCards(0, 3, 3), WrongPhaseError),
    "position 10": (SwapCards(0, 0, 10), SlotOutOfRangeError),
    "position -1": (SwapCards(0, -1, 4), SlotOutOfRangeError),
    'position "3"': (SwapCards(0, "3", 4), SlotOutOfRangeError),  # type: ignore[arg-type]
    "a replace at position 10": (Replace(0, 10), SlotOutOfRangeError),
}


@pytest.mark.parametrize("name", list(PLACE_ILLEGAL))
def test_an_illegal_action_in_place_changes_nothing(name: str) -> None:
    round_ = hand([zigzag(seat) for seat in range(3)], dealer=0, stock=[41])
    assert round_.phase is HighLowPhase.PLACE and round_.to_act == 0
    action, error = PLACE_ILLEGAL[name]
    before = snapshot(round_)
    assert not round_.can(action)
    with pytest.raises(error):
        round_.check(action)
    with pytest.raises(error):
        round_.apply(action)
    assert snapshot(round_) == before


@pytest.mark.parametrize("name", list(SWAP_ILLEGAL))
def test_an_illegal_action_in_swap_changes_nothing(name: str) -> None:
    round_ = hand([zigzag(seat) for seat in range(3)], dealer=0, stock=[S, 41])
    assert round_.phase is HighLowPhase.SWAP and round_.to_act == 0
    action, error = SWAP_ILLEGAL[name]
    before = snapshot(round_)
    assert not round_.can(action)
    with pytest.raises(error):
        round_.apply(action)
    assert snapshot(round_) == before


def test_no_action_is_legal_after_the_hand() -> None:
    rows = [zigzag(0), zigzag(1), [11, 12, 13, 14, 15, 16, 17, 18, 19, 5]]
    round_ = hand(rows, dealer=0, stock=[41])
    round_.apply(Replace(0, 0))
    round_.apply(Replace(2, 9))
    assert round_.over
    before = snapshot(round_)
    for action in [*every_action(3), Replace(1, 0)]:
        assert not round_.can(action)
        with pytest.raises(RoundOverError):
            round_.apply(action)
    assert snapshot(round_) == before
    assert round_.legal_mask() == [False] * 56


def test_an_illegal_action_in_a_match_changes_nothing() -> None:
    match = Match(highlow(3), seed=4)
    seat = match.to_act
    assert seat is not None
    before = match_state(match)
    for action in every_action(3):
        if action not in match.legal_actions() and not match.round.can(action):
            with pytest.raises(IllegalActionError):
                match.apply(action)
    assert match_state(match) == before


# --- What each seat sees -------------------------------------------------------------------------------------


def test_observations_do_not_depend_on_the_stock_nor_on_another_seats_drawn_card() -> None:
    rows = [zigzag(seat) for seat in range(4)]
    dealer = 2
    a = hand(rows, dealer, stock=[41, 42, 43, 44, 45])
    b = hand(rows, dealer, stock=[46, 45, 44, 43, 42])  # another card drawn, another stock order
    assert a.held == 41 and b.held == 46 and a.stock() != b.stock()
    for seat in range(4):
        oa, ob = a.observation(seat), b.observation(seat)
        if seat == dealer:
            assert (oa.held, ob.held) == (41, 46)
            assert oa._replace(held=None) == ob._replace(held=None)
        else:
            assert oa == ob and oa.held is None
            assert a.public_log(seat) == b.public_log(seat)
    assert a.public_view() == b.public_view()
    assert a.public_log(None) == b.public_log(None)
    assert a.public_view().passed_card is None
    assert "stock" not in a.public_view()._fields and a.public_view().stock_size == a.stock_size
    # The drawn card is in the record's log, hidden from the other seats and the spectator.
    drew = a.log[-1]
    assert (drew.kind, drew.seat, drew.card) == ("drew", dealer, 41)
    assert a.public_log(dealer)[-1].card == 41
    assert all(a.public_log(seat)[-1].card is None for seat in (None, 0, 1, 3))
    # Once placed it is face up: everyone sees the card passed on, and what went into the row.
    a.apply(Replace(dealer, 3))
    assert a.public_view().rows[dealer][3] == 41
    for seat in range(4):
        assert a.observation(seat).public.passed_card == zigzag(dealer)[3]
        assert a.observation(seat).held == (zigzag(dealer)[3] if seat == dealer - 1 else None)


def test_every_row_is_public() -> None:
    round_ = Match(highlow(5), seed=11).round
    assert isinstance(round_, HighLowRound)
    for seat in range(5):
        observation = round_.observation(seat)
        assert observation.public.rows == tuple(round_.rack(other) for other in range(5))
        assert observation.rack == round_.rack(seat)
    with pytest.raises(ValueError):
        round_.observation(5)


# --- Hands and games ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer", "winner"), [(3, 0, 2), (3, 1, 1), (4, 3, 0), (5, 2, 4), (5, 0, 1)])
def test_the_next_hand_is_dealt_by_the_right_of_the_winner(players: int, dealer: int, winner: int) -> None:
    rows = [zigzag(seat) for seat in range(players)]
    rows[winner] = [1, 5, 9, 13, 17, 22, 30, 38, 44, 50]  # in order at the deal
    match = Match(highlow(players), first_dealer=dealer, decks=[arrange(rows, dealer)], seed=1)
    assert match.results[0].winner == winner
    assert len(match.rounds) == 2 and match.round.dealer == (winner - 1) % players


@pytest.mark.parametrize(("players", "dealer"), [(3, 0), (4, 2), (5, 4)])
def test_after_a_capped_hand_the_right_of_its_dealer_deals(players: int, dealer: int) -> None:
    rows = [zigzag(seat) for seat in range(players)]
    match = Match(highlow(players, turn_cap=players), first_dealer=dealer, decks=[arrange(rows, dealer)], seed=1)
    for seat in play_order(dealer, players):
        match.apply(Replace(seat, 0))
    assert match.results[0].capped
    assert len(match.rounds) == 2 and match.round.dealer == (dealer - 1) % players


def test_a_tie_at_the_top_plays_another_hand() -> None:
    # Seat 0 deals and goes Rack-O from the deal (75); seat 1's row is in order too, second in play order: ten in
    # order and five doubles, 75.  Target 50: both are past it, tied at the top, so a second hand is dealt.
    rows = [list(range(11, 21)), [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], zigzag(2)]
    match = Match(highlow(3, target=50), first_dealer=0, decks=[arrange(rows, 0)], seed=2)
    assert match.results[0].winner == 0
    assert match.totals == (75, 75, 10)
    assert not match.over and len(match.rounds) == 2 and match.round.dealer == 2
    assert match_winner(match.rules, (75, 75, 10)) is None
    assert match_winner(match.rules, (80, 75, 10)) == 0
    assert match_winner(highlow(3), (299, 10, 10)) is None
    assert match_winner(highlow(3), (10, 300, 10)) == 1


def test_the_cut_highest_deals_swap_and_wild_count_zero_ties_cut_again() -> None:
    tie_seen = False
    for seed in range(60):
        for players in (3, 5):
            match = Match(highlow(players), seed=seed)
            values = [max(card, 0) for card in match.cut]
            assert len(match.cut) == players
            best = max(values)
            assert values[match.first_dealer] == best
            if values.count(best) > 1:
                tie_seen = True
            assert match.round.dealer == match.first_dealer
    assert tie_seen, "some seed should cut a tie (two of each number, six Wilds and six Swaps count 0)"
    match = Match(highlow(4), seed=3, first_dealer=2)
    assert match.first_dealer == 2 and match.round.dealer == 2


def test_a_whole_game_to_a_low_target() -> None:
    rules = highlow(4, target=200, turn_cap=120, bonus=True)
    rng = random.Random(5)
    match = Match(rules, seed=5)
    while not match.over:
        match.apply(greedy(match, rng) if rng.random() < 0.9 else rng.choice(match.legal_actions()))  # type: ignore[arg-type]
        assert len(match.actions) < 5000
    outcome = match.outcome
    assert outcome is not None
    results = match.results
    assert len(results) == len(match.rounds) == outcome.rounds >= 2
    totals = [sum(result.scores[seat] for result in results) for seat in range(4)]
    assert tuple(totals) == match.totals == outcome.totals
    assert totals[outcome.winner] >= 200 and totals.count(totals[outcome.winner]) == 1
    assert max(totals) == totals[outcome.winner]
    for previous, following in zip(match.rounds, match.rounds[1:], strict=False):
        result = previous.result
        assert result is not None
        anchor = result.winner if result.winner is not None else previous.dealer
        assert following.dealer == (anchor - 1) % 4
    assert match.legal_actions() == [] and match.to_act is None
    replayed = replay(GameRecord.loads(GameRecord.of(match).dumps()))
    assert match_state(replayed) == match_state(match)


# --- The stock runs out -------------------------------------------------------------------------------------


def play_until_refill(round_: HighLowRound) -> tuple[int, ...]:
    """Play position 0 every time (rows stay zigzag, so nobody goes Rack-O) and keep every row after a Swap, until the
    stock is refilled; return the discard pile as it was when the stock ran out."""
    while not round_.over:
        pile = round_.discard_pile
        seat = round_.to_act
        assert seat is not None
        if round_.phase is HighLowPhase.SWAP:
            round_.apply(KeepOrder(seat))
            gone: tuple[int, ...] = ()
        else:
            last = round_.public_view().drawer == (seat - 1) % round_.rules.players
            gone = (round_.rack(seat)[0],) if last else ()
            round_.apply(Replace(seat, 0))
        conservation(round_)
        if any(event.kind == "refilled" for event in round_.log):
            return (*pile, *gone)
    raise AssertionError("the hand ended before the stock ran out")


def test_a_flip_refill_turns_the_pile_over() -> None:
    round_ = hand([zigzag(seat) for seat in range(3)], dealer=0, refill="flip")
    pile = play_until_refill(round_)
    assert len(pile) == 82 and S in pile  # every card but the rows' went round; the Swaps too
    assert round_.reshuffles == []
    # The oldest discard is now the top: it was drawn at once.
    assert round_.held == pile[0] and round_.stock() == pile[1:]
    assert round_.discard_pile == ()
    conservation(round_)


def test_a_shuffle_refill_uses_the_games_generator_and_is_recorded() -> None:
    rows = [zigzag(seat) for seat in range(3)]
    match = Match(highlow(3), seed=8, first_dealer=0, decks=[arrange(rows, 0)])
    round_ = match.round
    assert isinstance(round_, HighLowRound) and round_.rules.refill == "shuffle"
    pile = play_until_refill(round_)
    assert len(round_.reshuffles) == 1
    order = round_.reshuffles[0]
    assert sorted(order) == sorted(pile) and order != pile
    if order[0] == S:  # drawn at once: discarded, and everyone may swap
        assert round_.discard_pile == (S,) and round_.phase is HighLowPhase.SWAP
    else:
        assert round_.held == order[0] and round_.stock() == order[1:] and round_.discard_pile == ()
    conservation(round_)
    # The record keeps the new stock order ("W"/"S" written as such); the replay reproduces the hand.
    data = GameRecord.of(match).to_json()
    assert sorted(map(str, data["rounds"][0]["reshuffles"][0])) == sorted(
        "S" if card == S else "W" if card == W else str(card) for card in order
    )
    assert match_state(replay(GameRecord.from_json(json.loads(json.dumps(data))))) == match_state(match)
    # The same seed shuffles the same way.
    again = Match(highlow(3), seed=8, first_dealer=0, decks=[arrange(rows, 0)])
    assert isinstance(again.round, HighLowRound)
    play_until_refill(again.round)
    assert again.round.reshuffles == round_.reshuffles


# --- Records ----------------------------------------------------------------------------------------------------

EXAMPLE = EXAMPLES / "highlow-swap-at-the-deal.json"


def test_the_example_record_replays_with_the_expected_scores() -> None:
    record = GameRecord.load(EXAMPLE)
    match = replay(record)
    assert record.rules == highlow(3, bonus=True, target=100)
    result = match.results[0]
    assert result.winner == 2 and result.direction == LOW and result.turns == 2
    assert result.racks[2] == (7, 9, 13, 14, 15, 27, 32, 39, 40, 49)  # the sheet's run example
    assert (result.run, result.bonus) == (3, 25)
    assert result.racks[1] == (48, 42, 36, 28, 30, 23, 23, 15, W, 2)  # the sheet's High example, two doubles
    assert result.racks[0] == (3, 5, 8, 11, 17, 22, 33, 35, 44, 1)
    assert result.scores == (45, 30, 100)
    assert [result.explain(seat) for seat in range(3)] == [
        "9 cards in order x 5 = 45",
        "4 cards in order x 5 + 2 doubles x 5 = 30",
        "went Rack-O (Low): 75 + 25 for a run of 3 = 100",
    ]
    assert match.rounds[0].discard_pile == (S, 50)
    assert match.over and match.outcome is not None and match.outcome.winner == 2
    assert match.totals == (45, 30, 100)
    # Stopped after the starting swap: seat 0's Swap was replaced by 5 and two cards swapped.
    start = replay(record, stop_after=1).round
    assert isinstance(start, HighLowRound)
    assert start.dealt[0] == (3, S, 11, 8, 17, 22, 40, 35, 44, 1)
    assert start.rack(0) == (3, 5, 8, 11, 17, 22, 40, 35, 44, 1)
    assert start.to_act == 0 and start.held == 33
    # The engine writes the same record back.
    again = GameRecord.of(match, players=record.players).to_json()
    written = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for key in ("rules", "first_dealer", "rounds"):
        assert again[key] == written[key]


def test_the_example_record_replays_on_the_command_line() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["replay", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["rounds"] == [{"scores": {"0": 45, "1": 30, "2": 100}, "winner": 2, "capped": False}]
    assert summary["totals"] == {"0": 45, "1": 30, "2": 100}
    assert (summary["winner"], summary["over"], summary["actions"]) == (2, True, 3)
    text = runner.invoke(app, ["replay", str(EXAMPLE)])
    assert text.exit_code == 0, text.output
    assert "High-Low Rack-O, 3 players, target 100." in text.output
    assert "Winner: Cy." in text.output


def test_an_illegal_action_in_a_high_low_record_is_refused_with_its_number() -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["rounds"][0]["actions"][1] = {"seat": 0, "act": "swap", "positions": [1, 2]}
    with pytest.raises(racko.RecordError) as info:
        replay(GameRecord.from_json(data))
    assert info.value.action_number == 2
    assert "You cannot swap now: you hold 33" in str(info.value)


# --- The record schema (docs/record.schema.json) -----------------------------------------------------------


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def test_the_schema_accepts_high_low_records() -> None:
    check = fast_validator("record")
    check.validate(example())
    rules = highlow(5, refill="shuffle", turn_cap=700)
    match = Match(rules, seed=5)
    rng = random.Random(5)
    while not match.over:
        match.apply(rng.choice(match.legal_actions()))
    data = GameRecord.of(match, players=("A", "B", "C", "D", "E")).to_json()
    assert any(order for r in data["rounds"] for order in r["reshuffles"])
    assert {a["act"] for r in data["rounds"] for a in r["actions"]} == {"replace", "swap", "keep"}
    check.validate(data)


def set_at(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


ROUND = ("rounds", 0)
MISSHAPEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "position 0": set_at((*ROUND, "actions", 1, "position"), 0),
    "position 11": set_at((*ROUND, "actions", 1, "position"), 11),
    "position a string": set_at((*ROUND, "actions", 1, "position"), "7"),
    "replace without a position": set_at((*ROUND, "actions", 1), {"seat": 0, "act": "replace"}),
    "replace with a slot": set_at((*ROUND, "actions", 1), {"seat": 0, "act": "replace", "slot": 35}),
    "swap of one position twice": set_at((*ROUND, "actions", 0, "positions"), [3, 3]),
    "swap of three positions": set_at((*ROUND, "actions", 0, "positions"), [3, 4, 5]),
    "swap at position 11": set_at((*ROUND, "actions", 0, "positions"), [3, 11]),
    "swap without positions": set_at((*ROUND, "actions", 0), {"seat": 0, "act": "swap"}),
    "keep with a position": set_at((*ROUND, "actions", 0), {"seat": 0, "act": "keep", "position": 1}),
    "a classic action": set_at((*ROUND, "actions", 0), {"seat": 0, "act": "draw"}),
    "card 51": set_at((*ROUND, "deck", 0), 51),
    "card 0": set_at((*ROUND, "deck", 0), 0),
    'card "X"': set_at((*ROUND, "deck", 0), "X"),
    'card "7"': set_at((*ROUND, "deck", 0), "7"),
    "111 cards": lambda data: data["rounds"][0]["deck"].pop(),
    "a bad card in a reshuffle": set_at((*ROUND, "reshuffles"), [["W", "S", 60]]),
    "2 players": set_at(("rules", "players"), 2),
    "6 players": set_at(("rules", "players"), 6),
    "deck_size 110": set_at(("rules", "deck_size"), 110),
    "two_player_rule true": set_at(("rules", "two_player_rule"), True),
    "auto_racko false": set_at(("rules", "auto_racko"), False),
    "partners": set_at(("rules", "partners"), True),
}


@pytest.mark.parametrize("name", list(MISSHAPEN))
def test_the_schema_refuses_a_misshapen_high_low_record(name: str) -> None:
    data = example()
    MISSHAPEN[name](data)
    assert not fast_validator("record").is_valid(data)
    with pytest.raises(racko.RackoError):
        replay(GameRecord.from_json(data))


def test_the_schema_keeps_the_families_apart() -> None:
    classic = json.loads((EXAMPLES / "figure3.json").read_text(encoding="utf-8"))
    check = fast_validator("record")
    check.validate(classic)
    for change in (
        set_at(("rounds", 0, "actions", 0), {"seat": 1, "act": "replace", "position": 3}),
        set_at(("rounds", 0, "deck", 0), "W"),
        set_at(("rules", "players"), 5),
    ):
        data = json.loads(json.dumps(classic))
        change(data)
        assert not check.is_valid(data)
    data = example()
    data["rules"]["variant"] = "classic"  # a High-Low deck is no classic deck
    assert not check.is_valid(data)
    data = example()
    data["rounds"][0]["reshuffles"] = [["W", "S", 7, 7]]  # the shape is fine (replay would refuse it)
    check.validate(data)


# --- Property tests ---------------------------------------------------------------------------------------------

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
VALIDATOR = fast_validator("record")
"""The record's schema as published, its references resolved in place: the same checks in half the time, for the
replay tests that validate whole games."""
CONFIGS = [(players, bonus) for players in (3, 4, 5) for bonus in (False, True)]
CONFIG_IDS = [f"{players}p{'-bonus' if bonus else ''}" for players, bonus in CONFIGS]


@dataclass
class Play:
    """Uniformly random legal moves, or the greedy policy's with probability ``greedy``."""

    rng: random.Random
    greedy: float

    def choose(self, game: HighLowRound | Match) -> HighLowAction:
        if self.greedy and self.rng.random() < self.greedy:
            return greedy(game, self.rng)
        return self.rng.choice(game.legal_actions())  # type: ignore[return-value]


@st.composite
def plays(draw: st.DrawFn) -> Play:
    return Play(draw(st.randoms(use_true_random=False)), draw(st.sampled_from([0.0, 0.5, 0.9, 1.0])))


@st.composite
def hands(draw: st.DrawFn, players: int, bonus: bool) -> HighLowRound:
    rules = highlow(
        players,
        bonus=bonus,
        refill=draw(st.sampled_from(["shuffle", "flip"])),
        turn_cap=draw(st.one_of(st.integers(1, 60), st.integers(250, 400))),  # long hands run the stock out
    )
    return HighLowRound.deal(rules, seed=draw(st.integers(0, 2**32 - 1)), dealer=draw(st.integers(0, players - 1)))


def check_views(round_: HighLowRound) -> None:
    view = round_.public_view()
    for seat in range(round_.rules.players):
        observation = round_.observation(seat)
        assert observation.public == view and observation.rack == round_.rack(seat)
        if seat == round_.to_act and round_.phase is HighLowPhase.PLACE:
            assert observation.held == round_.held
        else:
            assert observation.held is None
    if round_.phase is HighLowPhase.PLACE:
        # Only the dealer of the round of play draws; everyone else is passed a card that was face up.
        assert view.passed_card == (None if round_.to_act == view.drawer else round_.held)
    else:
        assert view.passed_card is None


@pytest.mark.parametrize(("players", "bonus"), CONFIGS, ids=CONFIG_IDS)
@SETTINGS
@given(data=st.data())
def test_random_play_keeps_every_card_and_the_rules(players: int, bonus: bool, data: st.DataObject) -> None:
    round_ = data.draw(hands(players, bonus))
    play = data.draw(plays())
    checks = random.Random(data.draw(st.integers(0, 2**16)))
    while True:
        conservation(round_)
        check_legality(round_)
        check_views(round_)
        if round_.over:
            break
        check_illegal_actions(round_, checks, limit=5)
        round_.apply(play.choose(round_))
        assert len(round_.actions) < 3000
    result = round_.result
    assert result is not None
    statistic("Rack-O" if result.winner is not None else "capped")
    whats = {event.kind for event in round_.log}
    if "refilled" in whats:
        statistic("the stock ran out")
    if "swap-discarded" in whats:
        statistic("a Swap at the deal")
    if any(event.kind == "drew" and event.card == S for event in round_.log):
        statistic("a Swap drawn in play")
    if result.bonus:
        statistic("a run bonus")
    assert result.racks == tuple(round_.rack(seat) for seat in range(players))
    if result.turns > 0:
        # Only a Rack-O straight from the deal can end a hand before every starting Swap is replaced (RULES.md).
        assert all(S not in row for row in result.racks)
    assert result.turns == round_.turns
    assert result.capped == (result.winner is None)
    cap = round_.rules.turn_cap
    assert cap is not None
    if result.capped:
        assert cap <= result.turns < cap + players and result.turns % players == 0
    else:
        assert result.winner is not None and is_racko(result.racks[result.winner])
        assert round_.log[-2].kind == "racko" and round_.log[-2].seat == result.winner
    assert round_.log[-1].kind == "round-ended" and round_.log[-1].result == result
    for seat, row in enumerate(result.racks):
        assert result.scores[seat] == row_score(row, winner=seat == result.winner, with_run_bonus=bonus)


@pytest.mark.parametrize(("players", "bonus"), CONFIGS, ids=CONFIG_IDS)
@SETTINGS
@given(data=st.data())
def test_a_record_replays_the_game_exactly(players: int, bonus: bool, data: st.DataObject) -> None:
    rules = highlow(
        players,
        bonus=bonus,
        target=data.draw(st.sampled_from([100, 200])),
        refill=data.draw(st.sampled_from(["shuffle", "flip"])),
        turn_cap=data.draw(st.one_of(st.integers(20, 120), st.integers(250, 400))),
    )
    seed = data.draw(st.integers(0, 2**32 - 1))
    play = data.draw(plays())
    limit = data.draw(st.integers(0, 900))
    match = Match(rules, seed=seed)
    while not match.over and len(match.actions) < limit:
        match.apply(play.choose(match))
    if match.over:
        statistic("the game ended")
    if any(r.reshuffles for r in match.rounds):
        statistic("the stock was shuffled")
    for earlier in match.rounds[:-1]:
        assert earlier.over
    assert match.totals == tuple(sum(r.scores[seat] for r in match.results) for seat in range(players))

    record = GameRecord.of(match)
    VALIDATOR.validate(record.to_json())
    text = json.dumps(record.to_json())
    loaded = GameRecord.loads(text)
    assert loaded == record
    replayed = replay(loaded)
    assert match_state(replayed) == match_state(match)
    assert replayed.totals == match.totals and replayed.results == match.results
    assert GameRecord.of(replayed).to_json() == record.to_json()
    # Stopping part way gives the game as it was then.
    k = data.draw(st.integers(0, len(match.actions)))
    partial = Match(rules, seed=seed)
    for action in match.actions[:k]:
        partial.apply(action)
    assert match_state(replay(loaded, stop_after=k)) == match_state(partial)


@pytest.mark.parametrize("refill", ["shuffle", "flip"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_long_hands_run_the_stock_out_and_replay(players: int, refill: str) -> None:
    rules = highlow(players, refill=refill, turn_cap=700)
    match = Match(rules, seed=players)
    round_ = match.round
    assert isinstance(round_, HighLowRound)
    rng = random.Random(players)
    while not round_.over:
        match.apply(rng.choice(match.legal_actions()))
        conservation(round_)
    refills = sum(1 for event in round_.log if event.kind == "refilled")
    assert refills >= 2
    assert len(round_.reshuffles) == (refills if refill == "shuffle" else 0)
    record = GameRecord.loads(GameRecord.of(match).dumps())
    assert match_state(replay(record)) == match_state(match)


def test_a_swap_left_in_a_row_at_the_end_of_a_hand_scores_nothing() -> None:
    # Only a Rack-O straight from the deal can leave a Swap in another row; it is not a number.
    assert row_score([S, 40, 30, 20, 10, 5, 1, 2, 3, 4], winner=False) == 0
    assert row_score([40, 30, S, S, 10, 5, 1, 2, 3, 4], winner=False) == 10
    assert row_score([40, 30, S, W, 10, 5, 1, 2, 3, 4], winner=False) == 10  # S-W is no double
