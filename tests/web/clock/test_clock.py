"""The clock room's pure logic: presets, time charged only to the seat to act, the bank's refills and cap, a turn
started again for a person who is back, and the same state from the same journal (the journal is all a reload or
another process has).  Whether a seat is gone is its seat's state (tests/web/table/test_table_seats.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from racko.web.clock import (
    ALL_PRESETS,
    DAY,
    DEFAULT_PRESET,
    PRESETS,
    REMIND_BEFORE,
    ROUND_PAUSE,
    TURN_PRESETS,
    Back,
    Played,
    clock_state,
    preset_named,
    resumed,
)

NORMAL = PRESETS["normal"]


def test_quick_play_s_default_makes_a_move_within_three_minutes() -> None:
    preset = PRESETS[DEFAULT_PRESET]
    assert preset.longest_turn <= 180
    for each in PRESETS.values():
        assert each.move > 0 and 0 <= each.bank <= each.cap


def test_a_turn_s_unused_seconds_refill_the_bank_up_to_its_cap_and_a_long_one_spends_it() -> None:
    # Seat 0 plays in 10 s (20 unused), seat 1 takes 50 s (20 from its bank).
    played = [Played(110.0, 0, 0), Played(160.0, 1, 0)]
    state = clock_state(NORMAL, 2, played, to_act=0, round_now=0, start=100.0)
    assert state.banks == [80.0, 40.0]
    assert state.since == 160.0 and state.deadline() == 160.0 + 30.0 + 80.0
    quick = [Played(100.0 + k, k % 2, 0) for k in range(40)]
    assert clock_state(NORMAL, 2, quick, to_act=0, round_now=0, start=100.0).banks == [NORMAL.cap] * 2


def test_a_turn_is_every_action_of_the_seat_until_another_acts() -> None:
    # Seat 0 draws at 105 and places at 125: one turn of 25 s (5 unused).
    played = [Played(105.0, 0, 0), Played(125.0, 0, 0)]
    mid = clock_state(NORMAL, 2, played[:1], to_act=0, round_now=0, start=100.0)
    assert mid.since == 100.0 and mid.left(0, 120.0) == pytest.approx(30 + 60 - 20)
    done = clock_state(NORMAL, 2, played, to_act=1, round_now=0, start=100.0)
    assert done.banks == [65.0, 60.0] and done.since == 125.0


def test_a_new_round_starts_its_first_turn_after_the_pause() -> None:
    played = [Played(105.0, 0, 0), Played(110.0, 1, 0)]  # seat 1's action ends round 0
    state = clock_state(NORMAL, 2, played, to_act=0, round_now=1, start=100.0)
    assert state.since == 110.0 + ROUND_PAUSE
    assert state.left(0, 110.0 + ROUND_PAUSE) == 30 + state.banks[0]  # the report's time is nobody's
    # The pages are told when it starts, to close the round's report then; no clock runs while it is open, and
    # none runs for a computer player's turn either, which waits for the pause too.
    paused = state.json(112.0, [True, True], [False, False])
    assert paused["starts_in"] == ROUND_PAUSE - 2 and paused["running"] is None
    started = state.json(110.0 + ROUND_PAUSE, [True, True], [False, False])
    assert started["starts_in"] == 0 and started["running"] == 0
    assert state.json(112.0, [False, True], [False, False])["starts_in"] == ROUND_PAUSE - 2


def test_no_clock_runs_before_the_start_and_a_row_without_a_time_starts_again_at_load() -> None:
    waiting = clock_state(NORMAL, 2, [Played(105.0, 0, 0)], to_act=1, round_now=0, start=None)
    assert waiting.deadline() is None
    old = [Played(None, 0, 0), Played(None, 1, 0)]
    state = clock_state(NORMAL, 2, old, to_act=0, round_now=0, start=100.0)
    assert state.deadline() is None and state.banks == [NORMAL.bank] * 2
    assert resumed(state, 500.0, started=True).deadline() == 500.0 + 30 + 60


def test_saying_i_m_back_during_one_s_own_turn_starts_that_turn_again() -> None:
    played = [Played(190.0, 0, 0), Played(200.0, 1, 0), Played(240.0, 0, 0), Played(250.0, 1, 0)]
    state = clock_state(NORMAL, 2, played, to_act=0, round_now=0, start=100.0)
    assert state.since == 250.0
    back = clock_state(NORMAL, 2, played, to_act=0, round_now=0, start=100.0, backs=[Back(0, 4, 260.0)])
    assert back.since == 260.0 and back.deadline() == 260.0 + NORMAL.move + back.banks[0]


def test_presets_by_name_and_bad_names_are_refused() -> None:
    assert preset_named("fast", allow_none=False) is PRESETS["fast"]
    assert preset_named("none", allow_none=True) is None
    for bad in ("none", "blitz", 3, None):
        with pytest.raises(ValueError, match="A clock is one of"):
            preset_named(bad, allow_none=False)


def test_turn_based_speeds_are_days_per_move_without_a_bank_and_remind_before_the_deadline() -> None:
    assert sorted(preset.days for preset in TURN_PRESETS.values()) == [1, 2, 3, 7]
    for preset in TURN_PRESETS.values():
        assert preset.turn_based and preset.move == preset.days * DAY and preset.bank == preset.cap == 0.0
        assert preset.longest_turn == preset.days * DAY
    assert TURN_PRESETS["days-1"].remind_before == 6 * 3600  # a quarter of a day
    assert TURN_PRESETS["days-7"].remind_before == REMIND_BEFORE == 12 * 3600
    assert not any(preset.turn_based for preset in PRESETS.values())
    assert all(preset.remind_before is None for preset in PRESETS.values())
    # Quick play offers the real-time speeds only; a table's form may have a turn-based one.
    with pytest.raises(ValueError, match="A clock is one of"):
        preset_named("days-1", allow_none=False)
    assert preset_named("days-3", allow_none=True, turn_based=True) is TURN_PRESETS["days-3"]


def test_a_turn_based_turn_has_its_days_whatever_the_last_one_took_and_a_reminder_before_its_end() -> None:
    one_day = TURN_PRESETS["days-1"]
    # Seat 0 moved after an hour, seat 1 after 20 hours: neither keeps or owes time; seat 0 has a day again.
    played = [Played(100.0 + 3600, 0, 0), Played(100.0 + 3600 + 20 * 3600, 1, 0)]
    state = clock_state(one_day, 2, played, to_act=0, round_now=0, start=100.0)
    assert state.banks == [0.0, 0.0]
    since = 100.0 + 21 * 3600
    assert state.since == since and state.deadline() == since + DAY
    assert state.remind_at() == since + DAY - 6 * 3600
    assert state.left(0, since + DAY - 1) == 1.0 and state.left(1, since + 5 * DAY) == DAY
    assert clock_state(PRESETS["fast"], 2, played, to_act=0, round_now=0, start=100.0).remind_at() is None
    assert clock_state(one_day, 2, [], to_act=0, round_now=0, start=None).remind_at() is None


@st.composite
def journals(draw: st.DrawFn) -> tuple[int, list[Played], int, int, float]:
    seats = draw(st.integers(2, 4))
    count = draw(st.integers(0, 40))
    at = 100.0
    seat, round_ = 0, 0
    played = []
    for _ in range(count):
        at += draw(st.floats(0.0, 400.0))
        if draw(st.booleans()):
            seat = (seat + 1) % seats
        if draw(st.integers(0, 9)) == 0:
            round_ += 1
        played.append(Played(at, seat, round_))
    to_act = draw(st.integers(0, seats - 1))
    later = at + draw(st.floats(0.0, 1000.0))
    return seats, played, to_act, round_, later


@settings(max_examples=300, deadline=None)
@given(journals(), st.sampled_from(sorted(ALL_PRESETS)))
def test_banks_stay_between_nothing_and_the_cap_and_only_the_seat_to_act_is_charged(
    journal: tuple[int, list[Played], int, int, float], name: str
) -> None:
    seats, played, to_act, round_now, later = journal
    preset = ALL_PRESETS[name]
    state = clock_state(preset, seats, played, to_act, round_now, start=100.0)
    assert all(0.0 <= bank <= preset.cap for bank in state.banks)
    deadline = state.deadline()
    assert deadline is not None and state.since is not None
    assert deadline - state.since <= preset.longest_turn + 1e-6  # (the times' rounding: days of seconds)
    now = max(state.since, later)
    for seat in range(seats):
        if seat != to_act:  # a clock never runs for a seat not to act
            assert state.left(seat, now) == state.left(seat, now + 1000.0) == preset.move + state.banks[seat]
    assert 0.0 <= state.left(to_act, now) <= preset.longest_turn + 1e-6
    remind = state.remind_at()
    if preset.turn_based:  # the reminder comes once the turn has run most of its time, before its end
        assert remind is not None and preset.remind_before is not None and remind < deadline
        assert (
            remind == pytest.approx(deadline - preset.remind_before)
            and remind - state.since >= preset.move * 3 / 4 - 1e-6
        )
        assert deadline - state.since == pytest.approx(preset.move)
    else:
        assert remind is None
    again = clock_state(preset, seats, list(played), to_act, round_now, start=100.0)
    assert again == state  # the same journal, the same clocks (a reload, another process)
