"""Snapshots of the terminal app at 80 x 24 (Textual is pinned in pyproject.toml, so its rendering is stable).

After a deliberate change to the app's look: ``pytest tests/test_play_snapshots.py --snapshot-update``, then look
at the new pictures before committing them.
"""

from __future__ import annotations

from typing import Any

import pytest

import racko
from racko.play.session import SeatSpec
from racko.terminal.app import RackoApp
from test_play import a_rack_with_marks

SIZE = (80, 24)


def _classic_app() -> RackoApp:
    rules = racko.variant("classic").rules(2)
    return RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("medium", "medium")]), save_path=None, seed=3, pace=0)


def test_the_start_screen(snap_compare: Any) -> None:
    assert snap_compare(RackoApp(save_path=None, seed=1, pace=0), terminal_size=SIZE)


def test_the_table(snap_compare: Any) -> None:
    assert snap_compare(_classic_app(), terminal_size=SIZE)


def test_the_table_after_drawing(snap_compare: Any) -> None:
    assert snap_compare(_classic_app(), terminal_size=SIZE, press=["d"])


def test_the_round_end_screen(snap_compare: Any) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False)
    app = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=None, seed=8, pace=0)

    async def play_until_the_round_ends(pilot: Any) -> None:
        session = app.session
        assert session is not None
        while not session.match.results:
            if session.human_to_act():
                await pilot.press("d", "x")
            await pilot.pause()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=play_until_the_round_ends)


def test_a_high_low_table_of_five(snap_compare: Any) -> None:
    assert snap_compare(_high_low_app_of_five(), terminal_size=SIZE)


def test_a_high_low_table_of_five_without_colour(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(_high_low_app_of_five(), terminal_size=SIZE)


def _high_low_app_of_five() -> RackoApp:
    # The most crowded table: four other rows, all face up, above your own (bots whose play is settled).
    rules = racko.variant("highlow").rules(5)
    seats = [
        SeatSpec("You"),
        *[SeatSpec(f"{name} {seat}", name) for seat, name in enumerate(["easy", "random"] * 2, 2)],
    ]
    return RackoApp(setup=(rules, seats), save_path=None, seed=3, pace=0)


async def _place_the_turned_up_card(pilot: Any) -> None:
    await pilot.press("enter", "t", "9")  # resume, take the 37 turned up, put it in slot 45
    for _ in range(5):
        await pilot.pause()


def test_the_rack_s_marks(snap_compare: Any) -> None:
    # In order from slot 5 to 30 (a check mark each), a run of three, the break at slot 35 and the card just placed.
    app = RackoApp(session=a_rack_with_marks(), save_path=None, pace=0)
    assert snap_compare(app, terminal_size=SIZE, run_before=_place_the_turned_up_card)


def test_the_rack_s_marks_without_colour(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = RackoApp(session=a_rack_with_marks(), save_path=None, pace=0)
    assert snap_compare(app, terminal_size=SIZE, run_before=_place_the_turned_up_card)


def test_a_round_end_of_four_players(snap_compare: Any) -> None:
    # Four racks, how each was scored and the score sheet all fit on one 80 x 24 screen.
    rules = racko.variant("classic").rules(4)
    seats = [SeatSpec("You"), SeatSpec("easy 2", "easy"), SeatSpec("random", "random"), SeatSpec("easy 4", "easy")]
    app = RackoApp(setup=(rules, seats), save_path=None, seed=4, pace=0)

    async def play_until_the_round_ends(pilot: Any) -> None:
        session = app.session
        assert session is not None
        while not session.match.results:
            if session.human_to_act():
                await pilot.press("d", "x")
            await pilot.pause()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=play_until_the_round_ends)
