"""A seat's life as one table (racko.web.table.seats): docs/PLAYING.md shows exactly the code's table, the rules where
the clock, the hand-over and the ways out meet are its rows, and a table opened again replays the same states from
its set-up and journal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from racko.rules import variant
from racko.web.core import Refusal
from racko.web.table import TRANSITIONS, SeatEvent, Seats, SeatState, Setup, transitions_table
from racko.web.table.seats import LEFT_THE_GAME, step
from racko.web.table.setup import Back, Left, SeatSetup

S, E = SeatState, SeatEvent
PLAYING = Path(__file__).resolve().parents[3] / "docs" / "PLAYING.md"


def test_the_documented_table_is_the_code_s() -> None:
    shown = re.search(r"<!-- seat-states -->\n(.*?)\n<!-- /seat-states -->", PLAYING.read_text(), re.S)
    assert shown is not None and shown.group(1) == transitions_table()
    assert {state for state, _ in TRANSITIONS} == set(SeatState) - {S.ABORTED, S.FINISHED}  # the final ones only
    assert {event for _, event in TRANSITIONS} == set(SeatEvent)  # every event moves some seat


def test_the_clock_makes_a_seat_gone_after_two_turns_and_only_its_person_takes_it_back() -> None:
    state = S.PRESENT
    for event, expected in [(E.DEADLINE, S.TIMED_OUT), (E.DEADLINE, S.GONE), (E.BACK, S.BACK), (E.MOVE, S.PRESENT)]:
        state = step(state, event)
        assert state is expected
    assert step(step(S.AWAY, E.DEADLINE), E.MOVE) is S.PRESENT  # a move of its own between: it starts again
    with pytest.raises(Refusal) as gone:
        step(S.GONE, E.MOVE)  # a gone seat's person says "I'm back" first: nothing acts for them meanwhile
    assert gone.value.code == "gone"
    with pytest.raises(Refusal) as not_gone:
        step(S.PRESENT, E.BACK)
    assert not_gone.value.code == "not-gone"


def test_only_an_away_person_s_seat_is_handed_over_and_never_at_a_table_with_a_clock() -> None:
    assert {state for (state, event) in TRANSITIONS if event is E.HAND_OVER} == {S.AWAY, S.INVITED}
    seats = Seats([S.PRESENT, S.AWAY])
    seats.away_since[1] = 100.0
    with pytest.raises(Refusal) as clocked:
        seats.may_hand_over(1, 1000.0, clocked=True, away_seconds=60.0)
    assert clocked.value.code == "clocked" and seats.hand_over_in(1, 1000.0, True, 60.0) is None
    with pytest.raises(Refusal) as early:
        seats.may_hand_over(1, 130.0, clocked=False, away_seconds=60.0)
    assert early.value.code == "not-away" and seats.hand_over_in(1, 130.0, False, 60.0) == 30.0
    seats.may_hand_over(1, 160.0, clocked=False, away_seconds=60.0)  # away a minute: it may
    with pytest.raises(Refusal):
        seats.may_hand_over(0, 160.0, clocked=False, away_seconds=60.0)  # here


def test_a_game_left_counts_as_left_and_every_other_seat_finished_it() -> None:
    for state in (S.PRESENT, S.AWAY, S.TIMED_OUT, S.BACK, S.COMPUTER, S.INVITED):
        assert step(state, E.GAME_END) is S.FINISHED
    for state in LEFT_THE_GAME:
        assert step(state, E.GAME_END) is state  # gone, resigned, left, handed over: the game was left
    assert all(step(state, E.ABORT) is S.ABORTED for state in SeatState if (state, E.ABORT) in TRANSITIONS)


def test_a_table_opened_again_replays_each_seat_s_life_from_its_set_up_and_journal() -> None:
    rules = variant("classic").rules(4)
    setup = Setup(
        rules,
        1,
        (
            SeatSetup("Ann", joined=True, player="a"),  # timed out twice, then back
            SeatSetup("Bob", joined=True),  # timed out once, then moved
            SeatSetup("Cy", bot="medium", joined=True, left=Left("resigned", 5, 50.0)),
            SeatSetup("easy", bot="easy", joined=True),
        ),
    )
    setup = setup.with_seat(0, back=Back(8, 80.0))
    journal = [
        (0, 0, "clock", 10.0),
        (0, 0, "clock", 10.0),  # one turn of several actions: one deadline
        (1, 0, "clock", 20.0),
        (2, 0, None, 30.0),
        (3, 0, None, 40.0),
        (0, 0, "clock", 50.0),  # Ann's second turn the clock played: gone
        (1, 0, None, 60.0),  # Bob's own move: present again (away: he has no connection open)
        (2, 0, None, 65.0),
    ]
    seats = Seats.replayed(setup, journal, over=False, away_since=0.0)
    assert seats.states == [S.BACK, S.AWAY, S.RESIGNED, S.COMPUTER]
    over = Seats.replayed(setup, journal, over=True, away_since=0.0)
    assert over.states == [S.FINISHED, S.FINISHED, S.RESIGNED, S.FINISHED]
    assert [over.left_the_game(seat) for seat in range(4)] == [False, False, True, False]
