"""``racko play``: the plain text mode driven through standard input, saves and resumes, and the terminal app
driven by key presses as a person would."""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, RichLog, Select, Static
from typer.testing import CliRunner

import racko
from helpers import register_classic_only_bot
from racko.cli import app
from racko.errors import RackoError
from racko.highlow import HighLowPhase
from racko.play.session import PlaySession, SeatSpec
from racko.play.setup import build_setup
from racko.record import GameRecord, replay
from racko.terminal.app import MessageScreen, RackoApp, StartScreen, TableScreen
from racko.terminal.plain import run_plain
from racko.terminal.saves import CURRENT_SAVE, FileStore, load_save

runner = CliRunner()


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RACKO_DATA_DIR", str(tmp_path))
    return tmp_path


def play(*args: str, input: str) -> str:
    result = runner.invoke(app, ["play", "--plain", *args], input=input)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


# --- plain mode ----------------------------------------------------------------------------------


def test_plain_mode_plays_a_whole_game_from_standard_input(data: Path) -> None:
    # Drawing and discarding every turn, the player never goes out; easy does, and reaches the target of 75.
    out = play("--bots", "easy", "--no-two-player-rule", "--target", "75", "--seed", "1", input="draw\nx\n" * 400)
    assert "Your rack:" in out and "  slot   5  10  15  20  25  30  35  40  45  50" in out
    assert "You drew" in out and "easy went Rack-O!" in out
    assert "Round 1 is over: easy went Rack-O." in out and "Total" in out
    assert "Game over: easy won." in out
    assert not (data / CURRENT_SAVE).exists()
    records = list((data / "games").glob("*.json"))
    assert len(records) == 1
    match = replay(GameRecord.load(records[0]))  # the finished game is a record racko replay reads
    assert match.over and match.outcome is not None and match.outcome.seats == (1,)
    replayed = runner.invoke(app, ["replay", str(records[0])])
    assert replayed.exit_code == 0, replayed.output


def test_plain_mode_explains_bad_commands_and_changes_nothing(data: Path) -> None:
    out = play("--bots", "easy", "--seed", "2", input="fly\n25\ntake\ndiscard\nhelp\nquit\n")
    assert "Unknown command 'fly': type draw, take, a slot 5-50, discard, racko or help." in out
    assert "You cannot exchange a card now: first draw from the stock or take the top discard." in out
    assert "so you must place it in your rack." in out  # took the discard, then tried to discard it
    assert "Commands:" in out and "Game saved." in out
    assert (data / CURRENT_SAVE).exists()


def test_plain_mode_refuses_odd_digits_without_a_traceback(data: Path) -> None:
    out = play("--bots", "easy", "--seed", "2", input="\u00b2\n" + "9" * 5000 + "\n\u0665\nquit\n")
    assert out.count("Unknown command") == 3 and "Game saved." in out
    out = play(
        "--variant", "highlow", "--seed", "2", "--new", input="\u00b2\nswap \u00b2 3\n" + "1" * 5000 + "\nquit\n"
    )
    assert out.count("Unknown command") == 3 and "Game saved." in out


def test_quitting_keeps_the_game_and_play_resumes_it(data: Path) -> None:
    play("--bots", "easy", "--seed", "3", input="draw\nx\nquit\n")
    saved = GameRecord.load(data / CURRENT_SAVE)
    actions_before = saved.action_count
    # Piped input is never asked whether to resume: its first line is a command, played as one.
    out = runner.invoke(app, ["play", "--plain"], input="draw\nx\nquit\n").output
    assert "A saved game was found: Classic Rack-O, round 1: You: 0, easy: 0." in out
    assert "Input that is not a terminal is not asked: resuming it (--new sets it aside instead)." in out
    assert "Please answer" not in out and "Unknown command" not in out and "You drew" in out
    assert GameRecord.load(data / CURRENT_SAVE).action_count == actions_before + 2 + 2  # yours, then easy's turn
    # A record that was saved can be hinted, too: it is an ordinary record.
    hinted = runner.invoke(app, ["hint", str(data / CURRENT_SAVE)])
    assert hinted.exit_code == 0, hinted.output


def test_a_damaged_save_gives_a_clear_message_and_a_new_game(data: Path) -> None:
    (data / CURRENT_SAVE).write_text('{"format": "racko-record", "version": 1, "rules": 7}')
    out = play(input="quit\n")
    assert "The saved game could not be read" in out and "starting a new game" in out
    assert list(data.glob("current-game.damaged-*.json"))  # kept, never lost
    assert (data / CURRENT_SAVE).exists()


def test_unknown_bots_are_refused_before_anything_starts(data: Path) -> None:
    result = runner.invoke(app, ["play", "--plain", "--bots", "genius"])
    assert result.exit_code == 2
    assert "Unknown bot 'genius'" in result.stderr and "Traceback" not in result.output
    negative = runner.invoke(app, ["play", "--plain", "--pace", "-1"])
    assert negative.exit_code == 2 and "a pace is 0 to 60 seconds, not -1." in negative.stderr


# --- the terminal app ----------------------------------------------------------------------------


def app_test(scenario: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async pilot scenario as a plain test (no asyncio plugin needed)."""

    @functools.wraps(scenario)
    def test(*args: Any, **kwargs: Any) -> None:
        asyncio.run(scenario(*args, **kwargs))

    return test


async def _settle(pilot: object) -> None:
    await pilot.pause()  # type: ignore[attr-defined]


async def _play_out_round(app: RackoApp, pilot: object, keys: tuple[str, ...], rounds: int = 1) -> None:
    """Press keys as a person would until ``rounds`` rounds are over (answering round-end screens)."""
    for _ in range(2000):
        screen = app.screen
        session = app.session
        assert session is not None
        if len(session.match.results) >= rounds and not isinstance(screen, MessageScreen):
            return
        if isinstance(screen, MessageScreen):
            await pilot.press("enter")  # type: ignore[attr-defined]
        elif session.human_to_act():
            for key in keys:
                await pilot.press(key)  # type: ignore[attr-defined]
        await _settle(pilot)
    raise AssertionError("the round did not end")


@app_test
async def test_enter_on_the_start_screen_starts_classic_against_medium(tmp_path: Path) -> None:
    app = RackoApp(save_path=tmp_path / CURRENT_SAVE, seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        assert isinstance(app.screen, StartScreen)
        await pilot.press("enter")
        await _settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None
        assert [seat.bot for seat in app.session.seats] == [None, "medium"]
        assert app.session.rules.variant == "classic" and app.session.rules.two_player_rule


@app_test
async def test_a_whole_round_by_keys_against_a_bot(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False)
    setup = (rules, [SeatSpec("You"), SeatSpec("easy", "easy")])
    app = RackoApp(setup=setup, save_path=tmp_path / CURRENT_SAVE, seed=8, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        # An illegal key is explained on screen and changes nothing.
        session = app.session
        assert session is not None
        if session.human_to_act():
            before = session.match.actions[:]
            await pilot.press("x")
            await _settle(pilot)
            assert session.match.actions == before
            assert "draw" in str(table.query_one("#prompt").render()).lower()
        # Draw, then put the drawn card in slot 25 (key 5), every turn, until the round ends.
        await _play_out_round(app, pilot, ("d", "5"))
        assert len(session.match.results) == 1
        assert (tmp_path / CURRENT_SAVE).exists()


@app_test
async def test_clicking_a_slot_places_the_card(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False)
    app = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=None, seed=3, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        session = app.session
        assert session is not None
        while not session.human_to_act():
            await _settle(pilot)
        await pilot.press("t")  # take the discard: it must be placed
        await _settle(pilot)
        taken = session.observation(0).held
        await pilot.click("#slot-3")
        await _settle(pilot)
        assert session.observation(0).rack[3] == taken


@app_test
async def test_hot_seat_play_hides_the_rack_behind_a_curtain(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False)
    setup = (rules, [SeatSpec("Ann"), SeatSpec("Bob")])
    app = RackoApp(setup=setup, save_path=None, seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        session = app.session
        assert session is not None
        first = session.to_act
        assert first is not None
        if isinstance(app.screen, MessageScreen):
            await pilot.press("enter")
            await _settle(pilot)
        await pilot.press("d")
        await pilot.press("x")
        await _settle(pilot)
        # Now the other person is to play: a curtain, and the table shows no card of either rack.
        assert isinstance(app.screen, MessageScreen)
        assert "Pass the screen to" in str(app.screen.query_one("#message-text").render())
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        labels = [str(table.query_one(f"#slot-{index}").label) for index in range(10)]
        assert all(label.endswith("?") for label in labels)
        await pilot.press("enter")
        await _settle(pilot)
        labels = [str(table.query_one(f"#slot-{index}").label) for index in range(10)]
        assert labels[0].split("\n")[1] == str(session.observation(1 - first).rack[0])


@app_test
async def test_bonus_rack_o_lets_the_player_wait(tmp_path: Path) -> None:
    rules = racko.variant("bonus").rules(2, two_player_rule=False)
    three = [2, 5, 9, 13, 17, 21, 28, 29, 30, 38]
    others = [card for card in range(1, 41) if card not in three]
    deck = racko.round.arrange_deck([three, others[:10]], 1, others[10], others[11:], deck_size=40)
    record = GameRecord(rules, (racko.RoundRecord(1, tuple(deck), ()),), first_dealer=1, seed=0)
    match = replay(record)
    session = PlaySession(match, [SeatSpec("You"), SeatSpec("easy", "easy")], FileStore(tmp_path / CURRENT_SAVE))
    app = RackoApp(session=session, save_path=tmp_path / CURRENT_SAVE, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        assert isinstance(app.screen, MessageScreen)  # resume?
        await pilot.press("enter")
        await _settle(pilot)
        assert session.human_to_act()
        assert "qualifies" in str(app.screen.query_one("#prompt").render())
        await pilot.press("d")  # play on instead of calling
        await _settle(pilot)
        await pilot.press("x")
        await _settle(pilot)
        assert session.match.round.result is None  # still playing
        while not session.human_to_act():
            await _settle(pilot)
        await pilot.press("r")
        await _settle(pilot)
        assert session.match.results[0].winner == 0


@app_test
async def test_quitting_the_app_and_coming_back_resumes_the_game(tmp_path: Path) -> None:
    save = tmp_path / CURRENT_SAVE
    rules = racko.variant("classic").rules(2, two_player_rule=False)
    app = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=save, seed=6, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        await pilot.press("d", "x")
        await _settle(pilot)
        await pilot.press("q")
        await _settle(pilot)
    actions = GameRecord.load(save).action_count
    assert actions >= 2
    resumed = RackoApp(session=load_save(save), save_path=save, pace=0)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        assert isinstance(resumed.screen, MessageScreen)
        assert "A saved game was found" in str(resumed.screen.query_one("#message-text").render())
        await pilot.press("enter")
        await _settle(pilot)
        assert isinstance(resumed.screen, TableScreen)
        assert resumed.session is not None and len(resumed.session.match.actions) == actions


def test_saves_are_records_with_the_seats() -> None:
    rules = racko.variant("classic").rules(2)
    session = PlaySession.new(rules, [SeatSpec("You"), SeatSpec("hard", "hard")], seed=1)
    data = session.record().to_json()
    assert data["racko_play"] == {"seats": [{"name": "You", "bot": None}, {"name": "hard", "bot": "hard"}]}
    assert json.loads(json.dumps(data)) == data


@app_test
async def test_a_whole_game_ends_with_the_winner_and_the_score_sheet(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False, target=150)
    save = tmp_path / CURRENT_SAVE
    app = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=save, seed=2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.session
        assert session is not None
        prompts: list[str] = []
        for _ in range(3000):
            await _settle(pilot)
            screen = app.screen
            if isinstance(screen, MessageScreen):
                text = str(screen.query_one("#message-text").render())
                if text.startswith("Game over"):
                    assert "Game over: easy won." in text and "Total" in text and "Record:" in text
                    # The last round's end does not promise a next round, and the header shows the final totals.
                    assert prompts[-1] == "Press Enter for the final scores."
                    assert set(prompts[:-1]) == {"Press Enter for the next round."}
                    header = str(app.screen_stack[-2].query_one("#scores").render())
                    assert "easy: " + str(session.match.totals[1]) in header and "to play" not in header
                    break
                prompts.append(screen.prompt)
                await pilot.press("enter")
            elif session.human_to_act():
                await pilot.press("d", "x")
        else:
            raise AssertionError("the game did not end")
        assert len(list((tmp_path / "games").glob("*.json"))) == 1
        await pilot.press("enter")  # play again, the same seats
        await _settle(pilot)
        assert isinstance(app.screen, TableScreen) and app.session is not session
        assert app.session is not None and app.session.seats == session.seats and app.session.rules == rules
        assert save.exists()  # the new game is saved as it goes
        await pilot.press("q")
        await _settle(pilot)


@app_test
async def test_after_a_game_n_chooses_the_game_again(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False, target=75, refill="shuffle")
    seats = [SeatSpec("Ann"), SeatSpec("easy", "easy")]
    app = RackoApp(setup=(rules, seats), save_path=tmp_path / CURRENT_SAVE, seed=2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.session
        assert session is not None
        for _ in range(3000):
            await _settle(pilot)
            screen = app.screen
            if isinstance(screen, MessageScreen):
                if str(screen.query_one("#message-text").render()).startswith("Game over"):
                    break
                await pilot.press("enter")
            elif session.human_to_act():
                await pilot.press("d", "x")
        else:
            raise AssertionError("the game did not end")
        await pilot.press("n")
        await _settle(pilot)
        start = app.screen
        assert isinstance(start, StartScreen)
        # It shows the settings of the game just played.
        assert _start_fields(start) == {
            "variant": "classic",
            "players": 2,
            "seat-1": "easy",
            "name-0": "Ann",
            "target": "75",
            "run-rule": False,
            "refill": "shuffle",
        }


@app_test
async def test_a_high_low_hand_by_keys(tmp_path: Path) -> None:
    rules = racko.variant("highlow").rules(3)
    seats = [SeatSpec("You"), SeatSpec("easy", "easy"), SeatSpec("expert", "expert")]
    app = RackoApp(setup=(rules, seats), save_path=None, seed=3, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.session
        assert session is not None
        for press in range(3000):
            await _settle(pilot)
            if isinstance(app.screen, MessageScreen):
                assert "Round 1 is over" in str(app.screen.query_one("#message-text").render())
                break
            if session.human_to_act():
                observation = session.observation(0)
                assert isinstance(observation, racko.highlow.HighLowObservation)
                if observation.public.phase is racko.highlow.HighLowPhase.SWAP:
                    await pilot.press("3", "7")  # swap positions 3 and 7
                else:
                    await pilot.press(str(press % 9 + 1))
        else:
            raise AssertionError("the hand did not end")
    assert len(session.match.results) == 1


# --- what a demanding player ran into ------------------------------------------------------------


def _prompt_text(screen: object) -> str:
    return str(screen.query_one("#prompt").render())  # type: ignore[attr-defined]


async def _until_a_person_acts(pilot: object, session: PlaySession) -> None:
    for _ in range(200):
        if session.human_to_act():
            return
        await _settle(pilot)
    raise AssertionError("the computer players did not finish their turns")


async def _at_the_table(app: RackoApp, pilot: object) -> TableScreen:
    """The table, once it is a person's turn (the computer players' moves shown)."""
    assert app.session is not None
    await _until_a_person_acts(pilot, app.session)
    await _settle(pilot)
    assert isinstance(app.screen, TableScreen)
    return app.screen


@app_test
async def test_enter_picks_from_an_open_list_on_the_start_screen_instead_of_starting(tmp_path: Path) -> None:
    app = RackoApp(save_path=None, seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        start = app.screen
        assert isinstance(start, StartScreen)
        await pilot.press("tab", "down")  # the players list opens
        await _settle(pilot)
        await pilot.press("down", "enter")  # 3 players, and the list closes
        await _settle(pilot)
        assert isinstance(app.screen, StartScreen)
        assert start.query_one("#players", Select).value == 3
        await pilot.press("enter")
        await _settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.rules.players == 3


@app_test
async def test_high_low_from_the_start_screen_seats_bots_that_play_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    classic_only = register_classic_only_bot(monkeypatch)
    app = RackoApp(save_path=None, seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        start = app.screen
        assert isinstance(start, StartScreen)
        start.query_one("#variant", Select).value = "highlow"
        await _settle(pilot)
        offered = {value for _, value in start.query_one("#seat-1", Select)._options}
        assert classic_only not in offered and {"human", "easy", "medium", "hard", "expert"} <= offered
        await pilot.press("enter")
        await _settle(pilot)
        session = app.session
        assert session is not None and session.rules.variant == "highlow" and session.rules.players == 3
        for _ in range(30):  # the computer players move without a crash
            if session.human_to_act():
                await pilot.press("k" if session.observation(0).public.phase is HighLowPhase.SWAP else "1")
            await _settle(pilot)
        assert len(session.match.actions) > 3


def test_play_refuses_one_player_and_bots_that_do_not_fit_the_seats(data: Path) -> None:
    for args, message in (
        (["--players", "1"], "Classic Rack-O is played by 2, 3, 4 players, not 1."),
        (["--players", "4", "--bots", "easy,hard"], "2 bots were named for 3 other seats"),
    ):
        result = runner.invoke(app, ["play", "--plain", *args], input="quit\n")
        assert result.exit_code == 2 and message in result.stderr


def test_bots_that_do_not_play_a_variant_are_refused_and_not_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = register_classic_only_bot(monkeypatch)
    with pytest.raises(RackoError, match=f"The {bot} bot does not play High-Low Rack-O; choose from"):
        build_setup("highlow", 3, [bot], "You")
    _, seats = build_setup("highlow", None, [], "You")
    assert [seat.bot for seat in seats] == [None, "medium", "medium"]  # the usual default: every level plays it
    _, seats = build_setup("classic", 4, ["medium"], "You")
    assert [seat.name for seat in seats] == ["You", "medium 2", "medium 3", "medium 4"]
    _, seats = build_setup("classic", 2, ["human"], "You")
    assert [seat.name for seat in seats] == ["Player 1", "Player 2"]


def test_plain_high_low_with_the_default_opponents_plays_on(data: Path) -> None:
    out = play("--variant", "highlow", "--seed", "2", input="?\n" + "1\nkeep\n1\nk\n" * 10 + "quit\n")
    assert "High-Low Rack-O: You, medium 2, medium 3." in out and "Unknown command" not in out
    assert "Hint: The expert would" in out
    assert "Game saved." in out


@app_test
async def test_keys_of_another_variant_are_explained(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2)
    app = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=None, seed=3, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.session
        assert session is not None
        await _until_a_person_acts(pilot, session)
        await pilot.press("k")
        await _settle(pilot)
        assert "k keeps a row after a Swap card, in High-Low only" in _prompt_text(app.screen)
        await pilot.press("w")
        await _settle(pilot)
        assert "Waiting is for Bonus Rack-O" in _prompt_text(app.screen)
    rules = racko.variant("highlow").rules(3)
    seats = [SeatSpec("You"), SeatSpec("easy", "easy"), SeatSpec("expert", "expert")]
    app = RackoApp(setup=(rules, seats), save_path=None, seed=2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.session
        assert session is not None
        await _until_a_person_acts(pilot, session)
        await pilot.press("d")
        await _settle(pilot)
        assert "In High-Low you only choose positions" in _prompt_text(app.screen)
        await pilot.press("question_mark")
        await _settle(pilot)
        assert "Hint: The expert would" in _prompt_text(app.screen)


@app_test
async def test_hot_seat_starts_behind_the_curtain_and_brings_it_down_after_each_round(tmp_path: Path) -> None:
    # Drawing and discarding never goes out, so a turn cap ends the round.
    rules = racko.variant("classic").rules(2, two_player_rule=False, turn_cap=6)
    setup = (rules, [SeatSpec("Ann"), SeatSpec("Bob")])
    app = RackoApp(setup=setup, save_path=None, seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        session = app.session
        assert session is not None
        table = app.screen_stack[1]
        assert isinstance(table, TableScreen)

        def rack_shown() -> bool:
            return not str(table.query_one("#slot-0", Button).label).endswith("?")

        # Nobody's rack is on show until its player lifts the curtain, not even the first player's.
        assert isinstance(app.screen, MessageScreen) and not rack_shown()
        await pilot.press("enter")
        await _settle(pilot)
        assert rack_shown()
        for _ in range(100):
            screen = app.screen
            if isinstance(screen, MessageScreen) and "is over" in str(screen.query_one("#message-text").render()):
                break
            await pilot.press("enter") if isinstance(screen, MessageScreen) else await pilot.press("d", "x")
            await _settle(pilot)
        else:
            raise AssertionError("the round did not end")
        assert not rack_shown()  # the next round's racks are new
        await pilot.press("enter")
        await _settle(pilot)
        assert isinstance(app.screen, MessageScreen)
        assert "Pass the screen to" in str(app.screen.query_one("#message-text").render())
        assert not rack_shown()


@app_test
async def test_a_round_end_of_four_players_fits_the_screen(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(4)
    seats = [SeatSpec("You"), SeatSpec("easy", "easy"), SeatSpec("medium", "medium"), SeatSpec("hard", "hard")]
    app = RackoApp(setup=(rules, seats), save_path=None, seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _play_out_round(app, pilot, ("d", "x"), rounds=4)
        for _ in range(200):
            await _settle(pilot)
            if isinstance(app.screen, MessageScreen):
                break
            if app.session is not None and app.session.human_to_act():
                await pilot.press("d", "x")
        screen = app.screen
        assert isinstance(screen, MessageScreen)
        text = str(screen.query_one("#message-text").render())
        assert "Round 5 is over" in text and "broken at slot" in text and "Total" in text
        assert screen.query_one("#message-body").max_scroll_y == 0  # nothing is below the fold
        assert screen.query_one("#message-prompt").region.bottom <= 24


@app_test
async def test_partners_scores_are_the_teams(tmp_path: Path) -> None:
    rules = racko.variant("partners").rules(4)
    seats = [SeatSpec("You"), SeatSpec("easy", "easy"), SeatSpec("medium", "medium"), SeatSpec("hard", "hard")]
    app = RackoApp(setup=(rules, seats), save_path=None, seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        assert "Scores: You & medium: 0   easy & hard: 0" in str(table.query_one("#scores").render())
        assert "(partner)" in str(table.query_one("#opponents").render())


def test_a_save_that_cannot_be_written_is_reported_and_play_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    rules = racko.variant("classic").rules(2)
    session = PlaySession.new(
        rules, [SeatSpec("You"), SeatSpec("easy", "easy")], seed=1, store=FileStore(blocker / "x.json")
    )
    assert session.save_problem is not None and "could not be saved" in session.save_problem
    session.play(racko.DrawFromStock(0)) if session.to_act == 0 else session.play_bot()


def test_a_data_folder_that_cannot_be_made_is_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("RACKO_DATA_DIR", str(blocker / "racko"))
    result = runner.invoke(app, ["play", "--plain"], input="quit\n")
    assert result.exit_code == 2
    assert "Games cannot be saved in" in result.stderr and "RACKO_DATA_DIR" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_mistyped_option_leaves_the_saved_game_alone(data: Path) -> None:
    play("--bots", "easy", "--seed", "3", input="draw\nx\nquit\n")
    result = runner.invoke(app, ["play", "--plain", "--bots", "genius"], input="quit\n")
    assert result.exit_code == 2
    assert (data / CURRENT_SAVE).exists() and not list(data.glob("current-game.replaced-*"))


def test_ctrl_c_in_plain_mode_leaves_the_game_saved(data: Path) -> None:
    rules = racko.variant("classic").rules(2)
    session = PlaySession.new(
        rules, [SeatSpec("You"), SeatSpec("easy", "easy")], seed=1, store=FileStore(data / "g.json")
    )
    written: list[str] = []

    def interrupted() -> str | None:
        raise KeyboardInterrupt

    assert run_plain(session, interrupted, written.append) is False
    assert written[-1] == "Game saved. Run racko play again to resume it."
    assert (data / "g.json").exists()


def test_export_writes_finished_games_and_a_game_in_progress_only_with_reveal(data: Path, tmp_path: Path) -> None:
    nothing = runner.invoke(app, ["play", "--export", str(tmp_path / "none.json")])
    assert nothing.exit_code == 2 and "no finished game" in nothing.stderr
    play("--bots", "easy", "--seed", "3", input="draw\nx\nquit\n")
    target = tmp_path / "exported.json"
    refused = runner.invoke(app, ["play", "--export", str(target)])
    assert refused.exit_code == 2 and "add --reveal" in refused.stderr and not target.exists()
    result = runner.invoke(app, ["play", "--export", str(target), "--reveal"])
    assert result.exit_code == 0, result.output
    assert "Wrote the saved game to" in result.output
    assert runner.invoke(app, ["replay", str(target)]).exit_code == 0
    assert runner.invoke(app, ["hint", str(target)]).exit_code == 0  # the one person's own seat


def test_hint_keeps_an_unfinished_game_s_secrets_without_reveal(data: Path, tmp_path: Path) -> None:
    example = Path(__file__).parents[1] / "docs" / "examples" / "figure3.json"  # a game in progress, no seats
    refused = runner.invoke(app, ["hint", str(example), "--at", "0"])
    assert refused.exit_code == 1 and "Add --reveal" in refused.stderr and "Traceback" not in refused.output
    assert runner.invoke(app, ["hint", str(example), "--at", "0", "--reveal"]).exit_code == 0
    # In a save of racko play, the person's own seat is advised, another seat's turn is not.
    play("--bots", "easy", "--seed", "3", input="draw\nx\nquit\n")
    record = GameRecord.load(data / CURRENT_SAVE)
    bots_turn = next(at for at in range(record.action_count) if replay(record, stop_after=at).to_act == 1)
    refused = runner.invoke(app, ["hint", str(data / CURRENT_SAVE), "--at", str(bots_turn)])
    assert refused.exit_code == 1 and "only the one person at the table (You)" in refused.stderr
    assert "easy is to play here" in refused.stderr and "seat 2" not in refused.stderr


def test_hint_names_the_player_to_advise_as_everything_else_does(data: Path) -> None:
    play("--bots", "easy", "--name", "Ann", "--seed", "3", input="draw\nx\nquit\n")
    save = str(data / CURRENT_SAVE)
    yours = runner.invoke(app, ["hint", save])
    assert yours.exit_code == 0, yours.output
    assert yours.output.startswith("After action 6: Ann to play (advice from expert, seeing only Ann's view).")
    bots = runner.invoke(app, ["hint", save, "--at", "1", "--reveal"]).output
    assert "After action 1: easy to play (advice from expert, seeing only easy's view)." in bots
    assert "Top discard: none (the pile is empty)" in bots  # easy took the card turned up
    assert "seat" not in yours.output + bots


def test_hint_on_a_finished_game_advises_its_last_move_and_json_keeps_the_count(data: Path) -> None:
    play("--bots", "easy", "--no-two-player-rule", "--target", "75", "--seed", "1", input="draw\nx\n" * 400)
    finished = next((data / "games").glob("*.json"))
    result = runner.invoke(app, ["hint", str(finished)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("The game is over after action") and "Best:" in result.output
    as_json = json.loads(runner.invoke(app, ["hint", str(finished), "--json", "--count", "1"]).output)
    assert len(as_json["choices"]) == 1


def test_hint_advises_high_low(data: Path) -> None:
    play("--variant", "highlow", "--seed", "2", input="1\nquit\n")
    result = runner.invoke(app, ["hint", str(data / CURRENT_SAVE)])
    assert result.exit_code == 0, result.output
    assert "Best: The expert would" in result.output
    as_json = json.loads(runner.invoke(app, ["hint", str(data / CURRENT_SAVE), "--json"]).output)
    assert as_json["choices"][0]["turns_to_racko"] is None


def test_a_save_seating_a_bot_that_cannot_play_its_variant_is_set_aside(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = register_classic_only_bot(monkeypatch)
    rules = racko.variant("highlow").rules(3)
    seats = [SeatSpec("You"), SeatSpec(bot, bot), SeatSpec("easy", "easy")]
    PlaySession(racko.Match(rules, seed=1), seats, FileStore(data / CURRENT_SAVE)).save()
    out = play(input="quit\n")
    assert f"The saved game seats the {bot} bot, which does not play this variant." in out
    assert "starting a new game" in out


@app_test
async def test_ctrl_c_leaves_the_app_with_the_game_saved(tmp_path: Path) -> None:
    save = tmp_path / CURRENT_SAVE
    rules = racko.variant("classic").rules(2)
    app = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=save, seed=6, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        await pilot.press("d", "x", "ctrl+c")
        await _settle(pilot)
        assert not app.is_running
    assert load_save(save).match.actions == app.session.match.actions  # type: ignore[union-attr]


@app_test
async def test_names_are_plain_text_in_the_app_never_markup_or_escape_sequences(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False)
    save = tmp_path / CURRENT_SAVE
    seats = [SeatSpec("[b]You[/]"), SeatSpec("[/]", "easy")]
    PlaySession(racko.Match(rules, seed=1), seats, FileStore(save)).save()
    data = json.loads(save.read_text())
    data["racko_play"]["seats"][0]["name"] = "[Bob]\x1b]0;pwned\x07\x1b[2J\ud800"
    save.write_text(json.dumps(data))
    session = load_save(save)
    assert session.names[0] == "[Bob]?]0;pwned??[2J?"
    app = RackoApp(session=session, save_path=save, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        await pilot.press("enter")  # resume
        await _settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        assert "[/]" in str(table.query_one("#opponents").render())
        assert "[Bob]" in str(table.query_one("#scores").render())


def test_plain_hot_seat_clears_a_terminal_at_every_hand_over_and_warns_a_pipe(data: Path) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False)
    session = PlaySession(racko.Match(rules, seed=4), [SeatSpec("Ann"), SeatSpec("Bob")])
    commands = iter(["", "draw", "x", "", "draw", "x", "quit"])
    out: list[str] = []
    assert run_plain(session, lambda: next(commands, None), out.append, lambda: out.append("<clear>")) is False
    # The curtain comes down for each turn of the other person, each time after a clear; quit works there too.
    curtains = [index for index, line in enumerate(out) if line.startswith("--- Pass to")]
    assert len(curtains) == 3 and all(out[index - 1] == "<clear>" for index in curtains)
    assert out[-1] == "Game saved. Run racko play again to resume it." and curtains[-1] == len(out) - 2
    piped: list[str] = []
    commands = iter(["", "quit"])
    session = PlaySession(racko.Match(rules, seed=4), [SeatSpec("Ann"), SeatSpec("Bob")])
    run_plain(session, lambda: next(commands, None), piped.append)
    assert "this output cannot be cleared" in piped[1]


# --- a saved game and a new one: asked, never set aside unasked; --resume ----------------------------


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Input typed at a terminal by a person (the test's input stands for it), who may be asked a question."""
    from racko.terminal import command

    monkeypatch.setattr(command, "_input_is_a_terminal", lambda: True)


def _saved_game(data: Path) -> bytes:
    """A classic game against easy, saved after a turn of each; the save's bytes."""
    play("--bots", "easy", "--seed", "3", input="draw\nx\nquit\n")
    return (data / CURRENT_SAVE).read_bytes()


def _set_aside(data: Path) -> list[Path]:
    return sorted(data.glob("current-game.replaced-*.json"))


def test_plain_resume_question_is_a_line_of_its_own_and_takes_only_yes_or_no(data: Path, typed: None) -> None:
    saved = _saved_game(data)
    out = runner.invoke(app, ["play", "--plain"], input="foo\nno\nquit\n").output
    assert "Resume the saved game? [Y/n] (n sets it aside and starts a new game)" in out
    assert "Please answer y or n, not 'foo'." in out
    [aside] = _set_aside(data)
    assert f"The saved game was set aside. To play it again:\n  racko play --resume {aside}" in out
    assert aside.read_bytes() == saved and (data / CURRENT_SAVE).read_bytes() != saved


def test_options_for_a_new_game_ask_before_the_saved_game_is_set_aside(data: Path, typed: None) -> None:
    saved = _saved_game(data)
    # Yes: the saved game goes on, and the options are for a new game only.
    kept = runner.invoke(app, ["play", "--plain", "--variant", "bonus"], input="y\nquit\n").output
    assert "The options given are for a new game: Bonus Rack-O, 2 players: You, medium." in kept
    assert "Resume the saved game? [Y/n] (n sets it aside and starts the new game)" in kept
    assert "Classic Rack-O: You, easy." in kept and not _set_aside(data)
    assert (data / CURRENT_SAVE).read_bytes() == saved
    # No: it is set aside (never lost), and the game of the options starts.
    started = runner.invoke(app, ["play", "--plain", "--variant", "bonus"], input="n\nquit\n").output
    [aside] = _set_aside(data)
    assert aside.read_bytes() == saved and "racko play --resume" in started
    assert "Bonus Rack-O: You, medium." in started
    assert GameRecord.load(data / CURRENT_SAVE).rules.variant == "bonus"


def test_piped_options_for_a_new_game_need_new_and_never_move_the_save_unasked(data: Path) -> None:
    saved = _saved_game(data)
    refused = runner.invoke(app, ["play", "--plain", "--variant", "bonus"], input="draw\nquit\n")
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert "is not asked whether to resume it" in refused.stderr and "add --new" in refused.stderr
    assert (data / CURRENT_SAVE).read_bytes() == saved and not _set_aside(data)
    started = play("--variant", "bonus", "--new", input="quit\n")
    [aside] = _set_aside(data)
    assert aside.read_bytes() == saved and f"racko play --resume {aside}" in started


def test_the_app_asks_before_options_set_a_saved_game_aside(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from racko.terminal import app as terminal_app
    from racko.terminal import command

    saved = _saved_game(data)
    opened: list[tuple[object, ...]] = []
    monkeypatch.setattr(command, "_input_is_a_terminal", lambda: True)
    monkeypatch.setattr(terminal_app, "run_app", lambda *arguments: opened.append(arguments))
    result = runner.invoke(app, ["play", "--variant", "bonus"])
    assert result.exit_code == 0, result.output
    [(session, ask, setup, *_)] = opened
    assert ask and isinstance(session, PlaySession) and session.rules.variant == "classic"  # offered, to be asked
    assert setup is not None and setup[0].variant == "bonus"
    assert (data / CURRENT_SAVE).read_bytes() == saved and not _set_aside(data)


@app_test
async def test_the_app_s_question_resumes_the_saved_game_or_sets_it_aside_for_the_new_one(tmp_path: Path) -> None:
    save = tmp_path / CURRENT_SAVE
    rules = racko.variant("classic").rules(2)
    PlaySession.new(rules, [SeatSpec("You"), SeatSpec("easy", "easy")], seed=3, store=FileStore(save))
    bonus = build_setup("bonus", None, ["easy"], "You")
    for answer in ("enter", "n"):
        saved = save.read_bytes()
        app_ = RackoApp(load_save(save), bonus, save, seed=1, pace=0)
        async with app_.run_test(size=(80, 24)) as pilot:
            await _settle(pilot)
            question = " ".join(_page_text(app_)[0])
            assert "A saved game was found: Classic Rack-O" in question
            assert "The options given are for a new game: Bonus Rack-O, 2 players: You, easy." in question
            assert "n: set it aside and start the new game." in str(app_.screen.query_one("#message-prompt").render())
            await pilot.press(answer)
            await _settle(pilot)
            if answer == "n":
                [aside] = sorted(tmp_path.glob("current-game.replaced-*.json"))
                assert aside.read_bytes() == saved
                assert f"racko play --resume {aside}".replace(" ", "") in "".join(_page_text(app_)[0]).replace(" ", "")
                await pilot.press("enter")
                await _settle(pilot)
            assert isinstance(app_.screen, TableScreen)
            assert app_.session is not None
            assert app_.session.rules.variant == ("classic" if answer == "enter" else "bonus")
    # Opened by --resume, the game is not offered again: it opens at once.
    app_ = RackoApp(load_save(save), None, save, pace=0, ask=False)
    async with app_.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        assert isinstance(app_.screen, TableScreen)


def test_resume_opens_a_game_set_aside_and_sets_the_one_in_progress_aside_in_its_place(
    data: Path, tmp_path: Path
) -> None:
    first = _saved_game(data)
    play("--variant", "bonus", "--new", input="quit\n")
    [aside] = _set_aside(data)
    second = (data / CURRENT_SAVE).read_bytes()
    out = play("--resume", str(aside), input="draw\nx\nquit\n")
    assert f"Resumed the game of {aside}: it is the game in progress again." in out
    assert "Classic Rack-O: You, easy." in out and "You drew" in out  # played on from where it was set aside
    assert not aside.exists()  # moved back into place: the game is never in two files
    [other] = _set_aside(data)
    assert other.read_bytes() == second and f"racko play --resume {other}" in out
    assert GameRecord.load(data / CURRENT_SAVE).action_count > GameRecord.loads(first.decode()).action_count
    # A game from elsewhere (here: exported with --reveal) is copied, the file left as it was.
    (tmp_path / "elsewhere").mkdir()
    exported = tmp_path / "elsewhere" / "game.json"
    assert runner.invoke(app, ["play", "--export", str(exported), "--reveal"]).exit_code == 0
    kept = exported.read_bytes()
    out = play("--resume", str(exported), input="quit\n")
    assert "the file is left as it was, and a copy is played" in out and exported.read_bytes() == kept
    # The game in progress itself: resumed, nothing moved.
    before = sorted(data.iterdir())
    out = play("--resume", str(data / CURRENT_SAVE), input="quit\n")
    assert "Classic Rack-O: You, easy." in out and sorted(data.iterdir()) == before


def test_resume_refuses_what_is_not_a_game_to_resume_and_changes_nothing(data: Path, tmp_path: Path) -> None:
    play("--bots", "easy", "--no-two-player-rule", "--target", "75", "--seed", "1", input="draw\nx\n" * 400)
    finished = next((data / "games").glob("*.json"))
    _saved_game(data)
    (tmp_path / "text.json").write_text("hello")
    figure3 = Path(__file__).parents[1] / "docs" / "examples" / "figure3.json"
    before = {path: path.read_bytes() for path in data.rglob("*.json")}
    for arguments, message in [
        (["--resume", str(tmp_path / "missing.json")], "missing.json cannot be resumed: No such file."),
        (["--resume", str(tmp_path)], "cannot be resumed: This is a folder, not a record file."),
        (["--resume", str(tmp_path / "text.json")], "text.json cannot be resumed: Not valid JSON"),
        (["--resume", str(figure3)], "cannot be resumed: This record is not a saved game of racko play"),
        (["--resume", str(finished)], "holds a finished game: racko replay reads it"),
        (["--resume", str(finished), "--variant", "bonus"], "--resume opens a game as it was set aside"),
        (["--resume", str(finished), "--new"], "--resume opens a game as it was set aside"),
        (["--resume", str(finished), "--seed", "4"], "--resume opens a game as it was set aside"),
        (["--resume", str(finished), "--export", str(tmp_path / "x.json")], "choose one"),
    ]:
        result = runner.invoke(app, ["play", "--plain", *arguments], input="quit\n")
        assert result.exit_code == 2 and "Traceback" not in result.output, arguments
        assert result.stderr.startswith("racko: ") and message in result.stderr, result.stderr
        assert {path: path.read_bytes() for path in data.rglob("*.json")} == before


@app_test
async def test_the_rules_screen_the_pace_keys_and_unknown_keys(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2)
    app = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=None, seed=3, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.session
        assert session is not None
        await _until_a_person_acts(pilot, session)
        table = app.screen
        await pilot.press("h")
        await _settle(pilot)
        assert isinstance(app.screen, MessageScreen)
        text = " ".join(_page_text(app)[0])
        assert "a run of three" in text and "Scoring: Rack-O 75" in text and "Keys:" in text
        await pilot.press("enter")
        await _settle(pilot)
        assert app.screen is table
        await pilot.press("minus")
        await _settle(pilot)
        assert "Computer moves are now shown 0.3 s apart" in _prompt_text(table)
        await pilot.press("plus")
        await _settle(pilot)
        assert "at once" in _prompt_text(table)
        await pilot.press("z")
        await _settle(pilot)
        assert "The key 'z' does nothing here" in _prompt_text(table)


@app_test
async def test_a_terminal_too_small_for_the_table_says_so(tmp_path: Path) -> None:
    rules = racko.variant("classic").rules(2)
    app = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=None, seed=3, pace=0)
    async with app.run_test(size=(60, 24)) as pilot:
        await _settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        notice = table.query_one("#too-small")
        assert notice.display and "the table needs at least 78 x 22" in str(notice.render())
        assert not table.query_one("#table").display
        await pilot.resize_terminal(80, 24)
        await _settle(pilot)
        assert not notice.display and table.query_one("#table").display


TABLES = {"classic": 2, "bonus": 2, "partners": 4, "highlow": 3}
"""A table of each variant, by its number of players."""


def _table_app(variant_name: str, seed: int = 3) -> RackoApp:
    """A game of ``variant_name`` against easy bots, started at the table (nothing saved)."""
    count = TABLES[variant_name]
    seats = [SeatSpec("You"), *[SeatSpec(f"easy {seat}", "easy") for seat in range(2, count + 1)]]
    return RackoApp(setup=(racko.variant(variant_name).rules(count), seats), save_path=None, seed=seed, pace=0)


def _screen_lines(app: RackoApp) -> list[str]:
    """The terminal's lines as a person reads them (every screen shown, modal pages over the table)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _page_text(app: RackoApp) -> tuple[list[str], int]:
    """Every line of the page shown, as the page lays it out (those scrolled out of view too), and its width."""
    from textual.geometry import Region

    text = app.screen.query_one("#message-text", Static)
    width, height = text.size
    return [strip.text.rstrip() for strip in text.render_lines(Region(0, 0, width, height))], width


def _wrapped_twice(lines: list[str], width: int) -> list[str]:
    """The lines a single, clean wrap would have joined to the line before: orphans of a second wrap.

    A line continues the one before when both are prose (no indent), or when it is a second column's next line
    (indented past the first column); the next word would have fitted on the line before, that is a second wrap.
    """
    orphans = []
    for before, line in itertools.pairwise(lines):
        indent = len(line) - len(line.lstrip())
        prose = indent == 0 and before[:1] not in ("", " ")  # a paragraph's next line
        if line.strip() and (prose or indent > 2) and len(before) + 1 + len(line.split()[0]) <= width:
            orphans.append(line)
    return orphans


KEY_NAMES = {"1-9,0": [*"1234567890"], "h/F1": ["h", "f1"], "+/-": ["plus", "equals_sign", "minus"]}
"""The rules page's names for keys that stand for several of Textual's (any other is its own name, ? aside)."""


def _keys_listed(lines: list[str]) -> set[str]:
    """The keys the rules page lists (its "Keys:" rows), in Textual's names."""
    rows = lines[lines.index("Keys:") + 1 :]
    rows = rows[: rows.index("")]
    names = [row.split()[0] for row in rows if not row.startswith("   ")]  # a row's first line names its key
    return {key for name in names for key in KEY_NAMES.get(name, ["question_mark" if name == "?" else name.lower()])}


@app_test
async def test_every_variant_s_footer_fits_80_columns_and_its_rules_page_wraps_once_and_lists_its_keys(
    tmp_path: Path,
) -> None:
    from textual.widgets._footer import FooterKey

    from racko.terminal.app import rules_summary

    own = {key for binding in TableScreen.BINDINGS for key in str(binding.key).split(",")}  # type: ignore[union-attr]
    for name in TABLES:
        app_ = _table_app(name)
        async with app_.run_test(size=(80, 24)) as pilot:
            table = await _at_the_table(app_, pilot)
            # Every key of the footer, whole, at 80 columns.
            footer = _screen_lines(app_)[-1]
            keys = [f"{key.key_display} {key.description}" for key in table.query(FooterKey)]
            assert "q Quit" in keys and "^p palette" in keys and "? Hint" in keys
            assert [key for key in keys if key not in footer] == [], f"{name}: {footer!r}"
            # The keys that work here: the table's own that answer in this variant, and the command palette's.
            working = {
                key
                for key, active in table.active_bindings.items()
                if key in own and active.enabled and not active.binding.action.startswith("not_in_this_game")
            } | {app_.COMMAND_PALETTE_BINDING}
            assert {"r", "s"} <= working or name == "highlow"
            assert ("w" in working) == (name == "bonus") and ("k" in working) == (name == "highlow")
            await pilot.press("h")
            await _settle(pilot)
            assert isinstance(app_.screen, MessageScreen)
            for width in (78, 80, 100, 120, 160):
                await pilot.resize_terminal(width, 24)
                await _settle(pilot)
                assert app_.screen.query_one("#message").region.right <= width  # the whole frame is on screen
                lines, text_width = _page_text(app_)
                assert max(len(line) for line in lines) <= text_width
                assert _wrapped_twice(lines, text_width) == [], f"{name} at {width} columns"
                page = " ".join(" ".join(lines).split())
                for paragraph in "\n".join(rules_summary(table.session.rules)).split("\n\n"):
                    assert paragraph in page  # every word, in order
                assert _keys_listed(lines) == working, f"{name}: {_keys_listed(lines) ^ working}"


def test_stats_add_up_the_finished_games_and_skip_what_they_cannot_read(data: Path) -> None:
    empty = runner.invoke(app, ["stats"])
    assert empty.exit_code == 0 and "No finished games yet" in empty.output
    play("--bots", "easy", "--no-two-player-rule", "--target", "75", "--seed", "1", input="draw\nx\n" * 400)
    (data / "games" / "broken.json").write_text("{")
    result = runner.invoke(app, ["stats", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["total"]["games"] == 1 and stats["total"]["won"] == 0  # easy won that game
    assert stats["by_variant"]["Classic Rack-O"]["rounds"] == stats["total"]["rounds"] >= 1
    assert stats["by_opponent"]["easy"]["games"] == 1
    assert list(stats["skipped"]) == [str(data / "games" / "broken.json")]
    table = runner.invoke(app, ["stats"]).output
    assert "All games" in table and "against easy" in table and "1 record(s) not counted" in table


@app_test
async def test_the_stats_screen_in_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RACKO_DATA_DIR", str(tmp_path))
    rules = racko.variant("classic").rules(2)
    app_ = RackoApp(setup=(rules, [SeatSpec("You"), SeatSpec("easy", "easy")]), save_path=None, seed=3, pace=0)
    async with app_.run_test(size=(80, 24)) as pilot:
        session = app_.session
        assert session is not None
        await _until_a_person_acts(pilot, session)
        await pilot.press("s")
        await _settle(pilot)
        assert isinstance(app_.screen, MessageScreen)
        assert "No finished games yet" in str(app_.screen.query_one("#message-text").render())


# --- the keys panel, names for every person, remembered settings, the table's cards -----------------


def _panel_open(app: RackoApp) -> bool:
    return bool(app.screen.query("HelpPanel"))


async def _check_the_keys_panel(app: RackoApp, pilot: object) -> None:
    """The keys panel lists only keys with a description, and Escape closes it."""
    app.action_show_help_panel()  # what Ctrl+P's "Keys" does
    await _settle(pilot)
    assert _panel_open(app)
    shown = {key: active.binding for key, active in app.screen.active_bindings.items() if not active.binding.system}
    assert {key: binding.action for key, binding in shown.items() if not binding.description} == {}
    await pilot.press("escape")  # type: ignore[attr-defined]
    await _settle(pilot)
    assert not _panel_open(app)


@app_test
async def test_every_key_in_the_keys_panel_is_described_and_escape_closes_it(tmp_path: Path) -> None:
    app = RackoApp(save_path=None, seed=3, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        assert isinstance(app.screen, StartScreen)
        await _check_the_keys_panel(app, pilot)
        assert isinstance(app.screen, StartScreen)
    for name, players, seats in (
        ("classic", 2, [SeatSpec("You"), SeatSpec("easy", "easy")]),
        ("highlow", 3, [SeatSpec("You"), SeatSpec("easy 2", "easy"), SeatSpec("easy 3", "easy")]),
    ):
        app = RackoApp(setup=(racko.variant(name).rules(players), seats), save_path=None, seed=3, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            table = await _at_the_table(app, pilot)
            await _check_the_keys_panel(app, pilot)
            slot = table.active_bindings["0"].binding.description
            assert slot == ("Position 10" if name == "highlow" else "Slot 50")
            assert app.screen is table
            # Escape closes the rules and the statistics pages too, and a keys panel on them first.
            for key in ("h", "s"):
                await pilot.press(key)
                await _settle(pilot)
                assert isinstance(app.screen, MessageScreen)
                await _check_the_keys_panel(app, pilot)
                assert isinstance(app.screen, MessageScreen)
                await pilot.press("escape")
                await _settle(pilot)
                assert app.screen is table


def a_rack_with_marks() -> PlaySession:
    """Your rack in order from slot 5 to 30 with a run of three (19, 20, 21), broken at slot 35 by 14; the 37 turned
    up goes into slot 45 with t then 9 (the 2-player rule, against easy)."""
    rules = racko.variant("classic").rules(2)
    mine = [3, 8, 12, 19, 20, 21, 14, 30, 33, 39]
    others = [card for card in range(1, 41) if card not in mine and card != 37]
    deck = racko.round.arrange_deck([mine, others[9::-1]], 1, 37, others[10:], deck_size=40)
    record = GameRecord(rules, (racko.RoundRecord(1, tuple(deck), ()),), first_dealer=1, seed=0)
    return PlaySession(replay(record), [SeatSpec("You"), SeatSpec("easy", "easy")])


def _faces(table: TableScreen) -> list[tuple[str, str]]:
    """Each slot's corner (its label and marks) and number, as written on the card."""
    lines = [str(table.query_one(f"#slot-{index}", Button).label).split("\n") for index in range(10)]
    return [(corner, number) for corner, number in lines]


@app_test
async def test_the_rack_marks_the_scoring_start_the_break_the_run_and_the_card_just_placed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from racko.terminal.cards import tint

    for no_color in (False, True):
        if no_color:
            monkeypatch.setenv("NO_COLOR", "1")
        session = a_rack_with_marks()
        app = RackoApp(session=session, save_path=None, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot)
            await pilot.press("enter")  # resume
            await _until_a_person_acts(pilot, session)
            await pilot.press("t", "9")
            await _until_a_person_acts(pilot, session)
            table = app.screen
            assert isinstance(table, TableScreen)
            faces = _faces(table)
            assert [number for _, number in faces] == [str(card) for card in session.observation(0).rack]
            assert [corner.split()[0] for corner, _ in faces] == [str(label) for label in racko.rules.SLOT_LABELS]
            marks = [corner.split()[1] if len(corner.split()) > 1 else "" for corner, _ in faces]
            assert marks == ["✓", "✓", "✓", "✓»", "✓»", "✓»", "✗", "", "✦", ""]
            slots = [table.query_one(f"#slot-{index}", Button) for index in range(10)]
            # The cards are tinted by value, 3 in slot 5 at the cool end and 39 in slot 50 at the warm end.
            assert slots[0].styles.background == tint(3, 40) != slots[9].styles.background == tint(39, 40)
            top = session.observation(0).public.discard_pile[-1]
            assert table.query_one("#discard").styles.background == tint(top, 40)
            # Without colour the frames say it too: heavy round the card just placed, double where it breaks.
            kinds = [slot.styles.border.top[0] for slot in slots]
            if no_color:
                assert app.no_color and kinds == ["round"] * 6 + ["double", "round", "heavy", "round"]
            else:
                assert kinds[8] == "outer" and slots[8].styles.border.top[1] != slots[7].styles.border.top[1]


@app_test
async def test_a_drawn_card_is_shown_as_a_card_in_hand_and_a_hidden_rack_face_down(tmp_path: Path) -> None:
    from racko.terminal.cards import BACK_TINT, tint

    rules = racko.variant("classic").rules(2, two_player_rule=False)
    app = RackoApp(setup=(rules, [SeatSpec("Ann"), SeatSpec("Bob")]), save_path=None, seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        table = app.screen_stack[1]
        assert isinstance(table, TableScreen)
        # Behind the curtain: every card face down, no mark, and no card in hand.
        assert all(number == "?" and len(corner.split()) == 1 for corner, number in _faces(table))
        assert table.query_one("#slot-0").styles.background == BACK_TINT
        assert not table.query_one("#held").display
        await pilot.press("enter")
        await _settle(pilot)
        await pilot.press("d")
        await _settle(pilot)
        session = app.session
        assert session is not None
        held = session.observation(session.to_act or 0).held
        assert held is not None
        card = table.query_one("#held")
        assert card.display and str(card.render()) == str(held) and card.styles.background == tint(held, 40)


@app_test
async def test_high_low_cards_are_tinted_and_the_card_just_placed_is_marked(tmp_path: Path) -> None:
    from racko.terminal.cards import tint

    rules = racko.variant("highlow").rules(3)
    seats = [SeatSpec("You"), SeatSpec("easy 2", "easy"), SeatSpec("easy 3", "easy")]
    app = RackoApp(setup=(rules, seats), save_path=None, seed=3, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.session
        assert session is not None
        await _until_a_person_acts(pilot, session)
        table = app.screen
        assert isinstance(table, TableScreen)
        observation = session.observation(0)
        assert isinstance(observation, racko.highlow.HighLowObservation)
        if observation.public.phase is HighLowPhase.SWAP:
            await pilot.press("k")
            await _until_a_person_acts(pilot, session)
        held = session.observation(0).held or session.observation(0).public.passed_card  # type: ignore[union-attr]
        assert held is not None and table.query_one("#held").styles.background == tint(held, 50)
        await pilot.press("4")  # position 4
        await _until_a_person_acts(pilot, session)
        faces = _faces(table)
        assert "✦" in faces[3][0] and not any("✦" in corner for corner, _ in faces[:3] + faces[4:])
        assert [corner.split()[0] for corner, _ in faces] == [str(position) for position in range(1, 11)]
        row = session.observation(0).rack
        names = {racko.highlow.WILD: "Wild", racko.highlow.SWAP: "Swap"}
        assert [number for _, number in faces] == [names.get(card, str(card)) for card in row]
        for index, card in enumerate(row):
            assert table.query_one(f"#slot-{index}").styles.background == tint(card, 50)


@app_test
async def test_high_low_s_replacement_of_a_swap_at_the_deal_is_the_rules_not_the_player_s_move(
    tmp_path: Path,
) -> None:
    # Seed 0: a Swap is dealt at position 1 of your row, and the stock's 10 replaces it by the rules.
    table_app = _table_app("highlow", seed=0)
    async with table_app.run_test(size=(80, 24)) as pilot:
        table = await _at_the_table(table_app, pilot)
        log_widget = table.query_one("#log", RichLog)
        assert not log_widget.show_horizontal_scrollbar  # a line longer than the log wraps in it
        log = " ".join(" ".join(line.text for line in log_widget.lines).split())
        assert "At the deal You had a Swap card at position 1; by the rules it went to the discard pile." in log
        assert "By the rules You got 10 from the stock in its place (position 1)." in log
        assert "You put" not in log and "You discarded" not in log
        faces = _faces(table)
        assert faces[0][1] == "10" and not any("✦" in corner for corner, _ in faces)  # nothing placed by you yet
    # The demo says it the same way (every front end words the same event).
    out = runner.invoke(app, ["demo", "--variant", "highlow", "--seed", "0", "--fast"]).output
    assert "By the rules easy (seat 1) got 10 from the stock in its place (position 1)." in out


@app_test
async def test_the_table_of_five_high_low_rows_fits_the_smallest_terminal(tmp_path: Path) -> None:
    from racko.terminal.app import MIN_SIZE

    rules = racko.variant("highlow").rules(5)
    seats = [SeatSpec("You"), *[SeatSpec(f"easy {seat}", "easy") for seat in range(2, 6)]]
    app = RackoApp(setup=(rules, seats), save_path=None, seed=3, pace=0)
    async with app.run_test(size=MIN_SIZE) as pilot:
        session = app.session
        assert session is not None
        await _until_a_person_acts(pilot, session)
        table = app.screen
        assert isinstance(table, TableScreen) and not table.query_one("#too-small").display
        width, height = MIN_SIZE
        for selector in ["#opponents", "#discard", "#held", "#prompt", *(f"#slot-{index}" for index in range(10))]:
            region = table.query_one(selector).region
            assert region.width > 0 and region.right <= width and region.bottom <= height, selector
        assert table.query_one("#opponents").region.height == 4
        assert table.query_one("#log").region.height >= 5  # its border and three lines at least
        await pilot.resize_terminal(width - 1, height)
        await _settle(pilot)
        assert table.query_one("#too-small").display and not table.query_one("#table").display


def test_card_tints_run_from_cool_to_warm_and_every_number_stands_out() -> None:
    from racko.terminal.cards import contrast, ink, tint

    for highest in (40, 50, 60):
        tints = [tint(card, highest) for card in range(1, highest + 1)]
        assert len({color.rgb for color in tints}) == highest  # every card its own shade
        assert tints[0].b > tints[0].r and tints[-1].r > tints[-1].b  # low blue, high red
        assert min(contrast(ink(color), color) for color in tints) >= 4.5
    for card in (racko.highlow.WILD, racko.highlow.SWAP):
        assert contrast(ink(tint(card, 50)), tint(card, 50)) >= 4.5


def _start_fields(start: StartScreen) -> dict[str, object]:
    """What the start screen's fields show, for the seats at the table (and the people's names)."""
    count = start.query_one("#players", Select).value
    assert isinstance(count, int)
    fields: dict[str, object] = {}
    for field in ("variant", "players", *(f"seat-{seat}" for seat in range(1, count)), "run-rule", "refill"):
        fields[field] = start.query_one(f"#{field}", Select).value
    for field in start.query(Input):
        if field.display and field.id is not None:
            fields[field.id] = field.value
    return fields


def test_names_for_every_person_with_names_and_the_defaults_without(data: Path) -> None:
    _, seats = build_setup("classic", 4, ["human", "medium", "human"], "You", names=["Ann", "Bob"])
    assert seats == [SeatSpec("Ann"), SeatSpec("Bob"), SeatSpec("medium", "medium"), SeatSpec("Player 4")]
    _, seats = build_setup("classic", 3, ["human", "medium"], "You", names=["", "medium"])
    assert [seat.name for seat in seats] == ["Player 1", "medium", "medium 3"]  # a bot never takes a person's name
    _, seats = build_setup("classic", 2, ["human"], "You", names=["[b]Bob[/]", "Cy\x1b[2J"])
    assert [seat.name for seat in seats] == ["[b]Bob[/]", "Cy?[2J"]
    for names, message in ((["Ann", "Bob"], "2 names were given for 1 person"), (["Al", "Al"], "named Al")):
        with pytest.raises(RackoError, match=message):
            build_setup("classic", 2, ["easy" if len(set(names)) == 2 else "human"], "You", names=names)
    out = play("--bots", "human,easy", "--names", "Ann,[b]Bob[/]", "--seed", "3", input="\nquit\n")
    assert "Classic Rack-O: Ann, [b]Bob[/], easy." in out and "--- Pass to Ann; Ann, press Enter" in out
    out = play("--bots", "human", "--new", input="\nquit\n")
    assert "Classic Rack-O: Player 1, Player 2." in out
    result = runner.invoke(app, ["play", "--plain", "--names", "Ann,Bob"], input="quit\n")
    assert result.exit_code == 2 and "2 names were given for 1 person" in result.stderr


@app_test
async def test_the_start_screen_names_each_person_and_shows_names_as_written(tmp_path: Path) -> None:
    app = RackoApp(save_path=None, seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        start = app.screen
        assert isinstance(start, StartScreen)
        assert start.query_one("#name-0").display and not start.query_one("#name-1").display
        start.query_one("#seat-1", Select).value = "human"
        await _settle(pilot)
        assert start.query_one("#name-1").display  # a person's seat has a name field
        start.query_one("#name-0", Input).focus()
        await pilot.press(*"Ann")
        start.query_one("#name-1", Input).focus()
        await pilot.press(*"[b]Bob[/]")
        await pilot.press("enter")
        await _settle(pilot)
        session = app.session
        assert session is not None and session.names == ["Ann", "[b]Bob[/]"]
        assert isinstance(app.screen, MessageScreen)
        first = session.to_act
        assert first is not None  # the name is shown as written, brackets and all
        assert str(app.screen.query_one("#message-text").render()) == f"Pass the screen to {session.names[first]}."
        table = app.screen_stack[1]
        assert isinstance(table, TableScreen)
        assert "[b]Bob[/]: 0" in str(table.query_one("#scores").render())


@app_test
async def test_the_start_screen_opens_with_the_last_settings_and_ignores_a_damaged_file(data: Path) -> None:
    from racko.terminal.settings import SETTINGS_FILE

    app = RackoApp(save_path=data / CURRENT_SAVE, seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        start = app.screen
        assert isinstance(start, StartScreen)
        defaults = _start_fields(start)
        start.query_one("#variant", Select).value = "bonus"
        await _settle(pilot)
        start.query_one("#players", Select).value = 3
        await _settle(pilot)
        start.query_one("#seat-1", Select).value = "human"
        start.query_one("#seat-2", Select).value = "hard"
        start.query_one("#refill", Select).value = "shuffle"
        await _settle(pilot)
        start.query_one("#name-1", Input).value = "Bob"
        start.query_one("#target", Input).value = "250"
        await pilot.press("enter")
        await _settle(pilot)
        assert app.session is not None and app.session.names == ["Player 1", "Bob", "hard"]
    chosen = {
        "variant": "bonus",
        "players": 3,
        "seat-1": "human",
        "seat-2": "hard",
        "run-rule": True,
        "refill": "shuffle",
        "name-0": "",
        "name-1": "Bob",
        "target": "250",
    }
    remembered = json.loads((data / SETTINGS_FILE).read_text())
    assert remembered["names"] == ["Player 1", "Bob"] and remembered["seats"] == ["human", "hard"]
    for text in (None, "{", "[]", '{"format": "racko-play-settings", "version": 1, "variant": "poker"}', "\udcff"):
        if text is not None:
            (data / SETTINGS_FILE).write_text(text, errors="surrogateescape")
        app = RackoApp(save_path=data / CURRENT_SAVE, seed=4, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot)
            if isinstance(app.screen, MessageScreen):  # the game just started is saved: a new one instead
                await pilot.press("n")
                await _settle(pilot)
            start = app.screen
            assert isinstance(start, StartScreen)
            assert _start_fields(start) == (chosen if text is None else defaults)
