"""The one play loop: the steps a screen is given, in order, and what each may show."""

from __future__ import annotations

import itertools

import racko
from racko.play.loop import (
    ComputerToAct,
    GameOver,
    HandOver,
    PersonToAct,
    RoundOver,
    Screen,
    Step,
    Told,
    game_verbs,
)
from racko.play.session import PlaySession, SeatSpec


def _drive(screen: Screen, limit: int = 5000) -> list[Step]:
    """Follow a game to its end, people drawing and discarding (or placing, in High-Low) and bots playing."""
    steps: list[Step] = []
    for _ in range(limit):
        step = screen.next_step()
        steps.append(step)
        if isinstance(step, GameOver):
            return steps
        if isinstance(step, ComputerToAct):
            screen.computer_move()
        elif isinstance(step, HandOver):
            screen.at_screen(step.seat)
        elif isinstance(step, PersonToAct):
            kinds = {action.kind: action for action in step.observation.legal_actions()}
            assert step.verbs == frozenset(kinds)
            for preferred in ("draw", "discard", "keep", "replace", "exchange", "take", "racko"):
                if preferred in kinds:
                    screen.play(kinds[preferred])
                    break
    raise AssertionError("the game did not end")


def test_hot_seat_hands_over_before_every_change_of_person_and_narrates_only_the_public_log() -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False, turn_cap=8, target=60)
    session = PlaySession(racko.Match(rules, seed=3), [SeatSpec("Ann"), SeatSpec("Bob")])
    screen = Screen(session)
    assert screen.shared and screen.viewer is None and screen.shown_seat is None
    steps = _drive(screen)
    previous_person: int | None = None
    for before, step in itertools.pairwise(steps):
        if isinstance(step, PersonToAct) and step.seat != previous_person:
            assert isinstance(before, HandOver) and before.seat == step.seat  # the curtain came down first
        if isinstance(step, PersonToAct):
            previous_person = step.seat
        if isinstance(step, RoundOver):
            previous_person = None  # a new round: new racks, the curtain again
    told = [line for step in steps if isinstance(step, Told) for line in step.lines]
    assert any("drew from the stock." in line for line in told)
    assert not any("drew from the stock (" in line for line in told)  # nobody's drawn card is named


def test_a_round_is_reported_before_the_next_deal_is_told() -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False, target=200)
    session = PlaySession(racko.Match(rules, seed=5), [SeatSpec("You"), SeatSpec("easy", "easy")])
    steps = _drive(Screen(session))
    reports = [index for index, step in enumerate(steps) if isinstance(step, RoundOver)]
    assert reports and [steps[index].number for index in reports] == list(range(1, len(reports) + 1))  # type: ignore[attr-defined]
    for index in reports:
        before = steps[index - 1]
        assert isinstance(before, Told) and before.lines[-1].startswith("Round over")
        after = steps[index + 1]
        if not isinstance(after, GameOver):
            assert isinstance(after, Told) and "dealt ten cards" in after.lines[0]
    last = steps[reports[-1]]
    assert isinstance(last, RoundOver) and last.last
    assert isinstance(steps[-1], GameOver) and steps[-1].winners in ("You", "easy")


def test_one_person_is_told_their_own_view_and_may_see_their_own_rack() -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False)
    session = PlaySession(racko.Match(rules, seed=1), [SeatSpec("You"), SeatSpec("easy", "easy")])
    screen = Screen(session)
    assert not screen.shared and screen.viewer == 0 and screen.shown_seat == 0
    for _ in range(50):
        step = screen.next_step()
        if isinstance(step, ComputerToAct):
            screen.computer_move()
        elif isinstance(step, PersonToAct):
            drawn = next(action for action in step.observation.legal_actions() if action.kind == "draw")
            screen.play(drawn)
            told = screen.next_step()
            assert isinstance(told, Told) and told.lines == (
                f"You drew from the stock ({session.observation(0).held}).",
            )
            return
    raise AssertionError("no turn for the person")


def test_a_screen_joining_a_game_under_way_is_told_the_current_round_only() -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False, target=500)
    session = PlaySession(racko.Match(rules, seed=2), [SeatSpec("easy", "easy"), SeatSpec("hard", "hard")])
    while len(session.match.rounds) < 2:
        session.play_bot()
    first = Screen(session).next_step()
    assert isinstance(first, Told) and "dealt ten cards" in first.lines[0] and len(session.match.rounds) == 2


def test_the_verbs_of_each_variant() -> None:
    assert game_verbs(racko.variant("classic").rules(2)) == {"draw", "take", "exchange", "discard", "racko"}
    assert "wait" in game_verbs(racko.variant("bonus").rules(2))
    assert game_verbs(racko.variant("highlow").rules(3)) == {"replace", "swap", "keep"}


def test_high_low_situations_are_a_row_to_place_in_or_a_swap() -> None:
    rules = racko.variant("highlow").rules(3, target=80)
    seats = [SeatSpec("You"), SeatSpec("easy", "easy"), SeatSpec("easy 3", "easy")]
    steps = _drive(Screen(PlaySession(racko.Match(rules, seed=4), seats)))
    kinds = {step.situation.kind for step in steps if isinstance(step, PersonToAct)}
    assert kinds <= {"place-in-row", "swap"} and "place-in-row" in kinds
