"""Hints that explain themselves: the terminal table, plain mode, `racko hint` (the page: test_table_browser.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import racko
from racko import bots
from racko.actions import DrawFromStock, Exchange, TakeDiscard, Wait
from racko.analysis import evaluate as evaluate_module
from racko.analysis.evaluate import MoveValue
from racko.analysis.explain import explained_choices, hint_text, order_chain, why
from racko.analysis.game_chance import game_chance, round_stake
from racko.analysis.review import review
from racko.analysis.words import LANGUAGES, placeholders, say, words
from racko.bots.runner import play_match
from racko.cli import app
from racko.families import AnyObservation
from racko.match import Match
from racko.observation import Observation
from racko.play.session import SAVE_KEY, SeatSpec
from racko.record import GameRecord, replay
from racko.round import Round, arrange_deck
from racko.rules import variant
from racko.terminal.app import MessageScreen, RackoApp

runner = CliRunner()
ISSUE_RACK = [19, 20, 4, 16, 14, 38, 9, 32, 24, 2]
"""The rack of the issue's example, 30 drawn into the hand."""


def issue_position(stock: list[int]) -> Match:
    """The issue's position: seat 0 has drawn 30 with :data:`ISSUE_RACK`; ``stock`` are the cards under it."""
    other = [13, 1, 3, 5, 7, 10, 12, 6, 11, 8]  # out of order: no Rack-O from the deal
    deck = arrange_deck([ISSUE_RACK, other], dealer=1, turned_up=40, stock=[30, *stock], deck_size=40)
    match = Match(variant("classic").rules(2, target=1), first_dealer=1, decks=[deck])
    match.apply(DrawFromStock(0))
    return match


def test_every_sentence_is_in_english_dutch_and_french_with_the_same_values() -> None:
    table = words()
    assert set(table) == set(LANGUAGES)
    assert table["en"].keys() == table["nl"].keys() == table["fr"].keys()
    for key, english in table["en"].items():
        for language in ("nl", "fr"):
            assert placeholders(table[language][key]) == placeholders(english), (language, key)
    # The keys the explanations build from parts all exist.
    source = (Path(racko.__file__).parent / "analysis" / "explain.py").read_text()
    shapes = [f"{where}-{count}" for where in ("below", "above", "between") for count in ("one", "many")]
    built = {f"why:{part}{shape}" for part in ("fits-", "room-") for shape in shapes}
    literal = set(re.findall(r'Sentence\("((?:why|move):[\w-]*\w)"', source))
    literal |= {key + "-one" for key in ("why:draw-over-take", "why:discard-fits")}
    assert literal and built | literal <= table["en"].keys(), sorted((built | literal) - table["en"].keys())
    # A value that looks like a placeholder is never filled in itself.
    assert say("why:gives-wanted", {"out": 5, "name": "{taken}", "taken": 6}).startswith("5 goes to {taken}, who")


def test_a_hint_is_the_same_whatever_the_cards_its_seat_cannot_see() -> None:
    one = issue_position([17, 18])
    other = issue_position([18, 17])  # the stock under the drawn card in another order
    assert one.rounds[0].deck != other.rounds[0].deck
    first = explained_choices(one.observation(0), names=["you", "bot"])
    second = explained_choices(other.observation(0), names=["you", "bot"])
    assert first == second


@pytest.fixture(scope="module")
def issue_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hints") / "issue.json"
    GameRecord.of(issue_position([]), players=("you", "bot")).save(path)
    return path


def test_racko_hint_says_why_with_the_chance_to_win_the_game(issue_record: Path) -> None:
    result = runner.invoke(app, ["hint", str(issue_record), "--reveal"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    best = next(index for index, line in enumerate(lines) if line.startswith("Best: Put 30 in slot"))
    why = lines[best + 1 : best + 10]
    # Why it is best comes first: its chance to win the game, as racko review grades, and the round's from the same
    # play-outs; then how far ahead of the next move it is (issue 37).
    assert re.fullmatch(
        r"From what you can see, this move wins the game about \d+(\.\d)?% of the time from the scores "
        r"\(320 play-outs, in which it wins the round \d+%\): no other move wins the game more often\.",
        why[0],
    ), why
    ahead_or_close = r"(: this one is|, [\d.]+ percentage points less:)"
    assert re.fullmatch(r"The next best move wins the game about \d+(\.\d)?%" + ahead_or_close + r" .*\.", why[1]), why
    assert any("fits" in line or "out of order" in line for line in why), why
    assert any(re.search(r"are in order and stay in place\.$", line) for line in why), why
    others = [line for line in lines if line.startswith("  or: Put 30 in slot")]
    assert len(others) == 2 and all(re.search(r"\(\d+(\.\d)?% to win the game\)$", line) for line in others), others


def test_racko_hint_json_gives_the_sentences_by_key_with_their_values(issue_record: Path) -> None:
    result = runner.invoke(app, ["hint", str(issue_record), "--reveal", "--json", "--count", "3"])
    assert result.exit_code == 0, result.output
    choices = json.loads(result.stdout)["choices"]
    chances = [choice["game_chance"] for choice in choices]
    assert len(choices) == 3 and chances == sorted(chances, reverse=True) and 0 <= chances[-1] <= chances[0] <= 1
    assert all(0 <= choice["win_chance"] <= 1 for choice in choices)  # the round's, from the same play-outs
    for choice in choices:
        assert choice["why"], choice
        for sentence in choice["why"]:
            assert set(sentence) == {"key", "values", "text"}
            assert sentence["key"] in words()["nl"] and sentence["text"].endswith(".")
    # The same sentence in Dutch and French, from the key and the values alone.
    first = choices[0]["why"][0]
    values = {
        key: ", ".join(map(str, value)) if isinstance(value, list) else value for key, value in first["values"].items()
    }
    assert say(first["key"], values, "en") == first["text"]
    assert say(first["key"], values, "nl") != first["text"] and "{" not in say(first["key"], values, "fr")


def test_plain_mode_hint_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RACKO_DATA_DIR", str(tmp_path))
    result = runner.invoke(app, ["play", "--plain", "--bots", "easy", "--seed", "2"], input="?\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    hinted = result.output.split("Your turn: draw or take.", 1)[1]
    assert re.search(r"^Hint: (Draw|Take \d+ for slot \d+)\.$", hinted, re.M), hinted
    assert re.search(r"wins the game about \d+(\.\d)?% of the time from the scores", hinted) and "  or: " in hinted


def test_the_app_s_hint_shows_why_on_a_page_that_enter_closes() -> None:
    async def scenario() -> None:
        rules = racko.variant("classic").rules(2)
        app_ = RackoApp(setup=(rules, [SeatSpec("Ann"), SeatSpec("easy", bot="easy")]), save_path=None, seed=2, pace=0)
        async with app_.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            session = app_.session
            assert session is not None
            for _ in range(50):  # answer the opening pages until it is Ann's turn
                if session.to_act == 0 and not isinstance(app_.screen, MessageScreen):
                    break
                if isinstance(app_.screen, MessageScreen):
                    await pilot.press("enter")
                await pilot.pause()
            table = app_.screen
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app_.screen, MessageScreen)
            text = str(app_.screen.query_one("#message-text").render())
            assert text.startswith("Hint: ") and "% of the time" in text and "Or: " in text, text
            await pilot.press("enter")
            await pilot.pause()
            assert app_.screen is table and session.to_act == 0  # the hint played nothing

    asyncio.run(scenario())


def test_racko_hint_where_there_is_nothing_to_decide_says_so_in_one_line(tmp_path: Path) -> None:
    # Bonus Rack-O: after placing a card into a rack that does not qualify, waiting is the only move.
    match = Match(variant("bonus").rules(2, target=1), seed=3)
    play_match(match, [bots.create("hard", seed=0), bots.create("hard", seed=1)])
    path = tmp_path / "bonus.json"
    GameRecord.of(match).save(path)
    record = GameRecord.load(path)

    def only_move(at: int) -> list[type]:
        position = replay(record, stop_after=at)
        return [type(move) for move in position.observation(position.to_act or 0).legal_actions()]

    forced = next(at for at in range(record.action_count) if only_move(at) == [Wait])
    result = runner.invoke(app, ["hint", str(path), "--at", str(forced)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.count("\n") == 1 and "nothing to decide" in result.stderr, result.stderr


def test_the_order_a_hint_names_keeps_the_card_just_placed_where_an_order_as_long_holds_it() -> None:
    rack = (3, 8, 6, 12, 16, 20, 24, 28, 32, 36)  # 8 or 6 in slot 10 or 15: orders of nine cards either way
    everything = range(1, 41)
    assert order_chain(rack, everything, 40) == [0, 1, 3, 4, 5, 6, 7, 8, 9]
    assert order_chain(rack, everything, 40, keep=2) == [0, 2, 3, 4, 5, 6, 7, 8, 9]
    assert 1 not in order_chain((5, 30, 12, 14, 18, 22, 26, 29, 35, 38), everything, 40)  # 30 breaks it


def test_a_bonus_rack_that_may_go_out_gets_a_hint_to_call_with_a_place_for_a_taken_card() -> None:
    rack = [2, 6, 10, 14, 18, 22, 23, 24, 30, 38]  # in order with a run of three: Rack-O may be called
    other = [13, 1, 3, 5, 7, 11, 12, 9, 4, 8]
    deck = arrange_deck([rack, other], dealer=1, turned_up=40, stock=[39], deck_size=40)
    match = Match(variant("bonus").rules(2, target=1), first_dealer=1, decks=[deck])
    lines = hint_text(match.observation(0)).lines()
    # Calling and playing on are raced as the review races them (issue 37): in a one-round game calling wins it.
    assert lines[0] == "Best: Call Rack-O.", lines
    assert lines[1].startswith("From what you can see, this move wins the game about 100% of the time"), lines
    assert "Your rack qualifies: going out now wins the round." in lines[2:5], lines
    taken = r"  or: Take 40 for slot 50\. \(\d+(\.\d)?% to win the game\)"
    assert any(re.fullmatch(taken, line) for line in lines), lines


def test_a_hint_asked_again_at_the_same_position_is_the_same_answer_without_new_play_outs() -> None:
    observation = issue_position([]).observation(0)
    first = explained_choices(observation, names=["you", "bot"])
    assert explained_choices(observation, names=["you", "bot"]) is first  # kept, not judged again
    assert explained_choices(observation, names=["Ann", "bot"]) is not first  # other names, other sentences


def test_the_hint_and_the_review_never_put_the_issue_s_30_into_slot_5_or_10() -> None:
    """Issue 27's example (19 20 in slots 5 and 10, 30 drawn, the 2-player rule on): the bots' run estimate once
    broke the pair for it (issue 29); the hint's first choice and the review's best move keep the pair, and the
    review does not call slot 5 the best move."""
    match = issue_position([17, 18, 21, 22])
    assert match.rules.two_player_rule
    advised = explained_choices(match.observation(0), names=["you", "bot"])[0].action
    assert isinstance(advised, Exchange) and advised.slot not in (0, 1), advised
    match.apply(Exchange(0, 0))  # the move the issue found: 30 into slot 5, 19 to the discard pile
    record = GameRecord.of(match, players=("you", "bot"))
    graded = review(record, seats=[0], seed=0, reveal=True).to_json()["seats"][0]["decisions"]
    into_slot_5 = next(decision for decision in graded if decision["played"].get("slot") == 5)
    assert into_slot_5["class"] != "best" and into_slot_5["best"]["slot"] not in (5, 10), into_slot_5


# --- issue 37: every sentence of a hint true ------------------------------------------------------------------------


def placing_position(rack: list[int], top: int, drawn: int | None = None, target: int = 1) -> Match:
    """Seat 0 to play with ``rack``, ``top`` on the pile, and ``drawn`` in hand if given (the 2-player rule)."""
    rest = [card for card in range(1, 41) if card not in (*rack, top, drawn)]
    other = [rest[index] for index in (5, 0, 9, 2, 14, 1, 7, 3, 11, 4)]  # out of order: no Rack-O from the deal
    stock = [card for card in rest if card not in other]
    if drawn is not None:
        stock = [drawn, *stock]
    deck = arrange_deck([rack, other], dealer=1, turned_up=top, stock=stock, deck_size=40)
    match = Match(variant("classic").rules(2, target=target), first_dealer=1, decks=[deck])
    if drawn is not None:
        match.apply(DrawFromStock(0))
    return match


def texts(observation: AnyObservation, action: Exchange | TakeDiscard, slot: int) -> list[str]:
    """What a move says, without its worth (the sentences about the rack alone)."""
    assert isinstance(observation, Observation)
    return [sentence.text() for sentence in why(observation, action, MoveValue(action, 0.0, slot))]


def test_a_run_is_within_reach_only_through_cards_that_may_come_beside_it() -> None:
    """(a) 13 and 14 in slots 5 and 10, 12 and 15 in the player's own rack: nothing goes below slot 5, and 12 and
    15 cannot come, so no sentence offers them."""
    match = placing_position([13, 14, 12, 20, 22, 25, 15, 30, 35, 38], top=40, drawn=17)
    observation = match.observation(0)
    for slot in (2, 3, 4, 5):  # the pair stays where it is
        said = texts(observation, Exchange(0, slot), slot)
        assert not any("13 and 14 sit side by side" in text for text in said), said
        assert not any(re.search(r"\b(12|15) (or \d+ )?beside them", text) for text in said), said
    # A pair that may grow says which card may come, and on the open side only.
    match = placing_position([13, 14, 2, 20, 22, 25, 16, 30, 35, 38], top=40, drawn=17)
    said = texts(match.observation(0), Exchange(0, 2), 2)
    assert (
        "13 and 14 sit side by side: 15 beside them would make the run of three a Rack-O needs with two players."
        in said
    )


def test_a_slot_whose_card_was_in_order_is_not_said_to_need_one() -> None:
    """(b) 15 in slot 20 is in order between 13 and 19: taking 17 there does not fill a slot that needed a card."""
    match = placing_position([4, 5, 13, 15, 19, 20, 25, 11, 36, 39], top=17)
    said = texts(match.observation(0), TakeDiscard(0), 3)
    assert not any(text.startswith("Slot 20 needs a card") for text in said), said
    assert said[0] == "17 takes the place of 15 in slot 20, which was in the order you keep too.", said


def test_a_move_that_goes_out_is_the_best_and_says_so_not_what_it_scores_if_somebody_else_goes_out() -> None:
    """(c) and (d) 38 in slot 50 completes the rack: the hint's best move, a certain win, explained as one."""
    match = placing_position([2, 6, 10, 14, 18, 22, 23, 24, 30, 5], top=40, drawn=38)
    best, *others = explained_choices(match.observation(0), names=["you", "bot"])
    assert best.action == Exchange(0, 9), best
    said = [sentence["text"] for sentence in best.why]
    assert said == ["It completes your rack: Rack-O at once, and the round is yours."], said
    assert not any(
        "if somebody else goes out first" in s["text"] for other in others for s in other.why if "50" in s["text"]
    )


@pytest.fixture(scope="module")
def finished_round(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-round record that went out at action 2, with no next round recorded (a racko play save)."""
    match = placing_position([2, 6, 10, 14, 18, 22, 23, 24, 30, 5], top=40, drawn=38, target=500)
    match.apply(Exchange(0, 9))
    assert match.rounds[0].over and not match.over
    record = GameRecord.of(match, players=("Ann", "easy"))
    seats = [{"name": "Ann"}, {"name": "easy", "bot": "easy"}]
    record = dataclasses.replace(record, rounds=record.rounds[:1], extra={SAVE_KEY: {"seats": seats}})
    path = tmp_path_factory.mktemp("finished") / "round.json"
    record.save(path)
    return path


def test_racko_hint_on_a_round_over_with_no_next_round_advises_its_last_decision(finished_round: Path) -> None:
    result = runner.invoke(app, ["hint", str(finished_round)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "The round is over after action 2, and the record holds no next round: here is the advice for its last "
        "decision."
    ), lines
    assert lines[1].startswith("After action 1: Ann to play"), lines
    assert "Best: Put 38 in slot 50." in lines, lines


def test_racko_hint_at_a_point_with_nothing_to_advise_says_which_points_have_one(finished_round: Path) -> None:
    result = runner.invoke(app, ["hint", str(finished_round), "--at", "2"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.count("\n") == 1 and "choose --at from 0 to 1" in result.stderr, result.stderr


# --- issue 37: the hint measures what racko review measures: the chance to win the game ------------------------------


def scored_position(totals: tuple[int, int], drawn: bool = True, turned_up: int = 1) -> Observation:
    """The review's example (tests/test_review_game.py) at these scores, to 500: 3 drawn, and 3 into slot 5 goes
    Rack-O at once, while the rack without it still goes out nearly always (it needs a card below 14 in slot 5)."""
    mine = [15, 14, 16, 18, 20, 21, 22, 30, 34, 38]
    theirs = [4, 8, 11, 12, 19, 27, 25, 33, 39, 40]
    deck = arrange_deck([mine, theirs], dealer=1, turned_up=turned_up, stock=[3], deck_size=40)
    round_ = Round(variant("classic").rules(2), deck, 1, totals=totals)
    if drawn:
        round_.apply(DrawFromStock(0))
    observation = round_.observation(0)
    assert isinstance(observation, Observation)
    return observation


@pytest.mark.parametrize("totals", [(0, 0), (400, 420)])
def test_a_hint_weighs_each_move_by_the_game_against_what_the_round_is_worth(totals: tuple[int, int]) -> None:
    """By the round's measure every move here wins about as often (each was "within the noise"); the hint now says
    what each costs in the chance to win the game, weighed against what the round is worth at these scores."""
    best, *others = explained_choices(scored_position(totals))
    assert best.action == Exchange(0, 0) and [sentence["key"] for sentence in best.why] == ["why:goes-out"]
    stake = round_stake(*totals)
    assert best.game_chance is not None and others
    for choice in others:
        assert choice.game_chance is not None and choice.game_chance <= best.game_chance, choice
        assert choice.win_chance is not None and choice.win_chance > 0.9  # the round is won nearly always either way
        worth, distance, worth_of_round = choice.why[-3:]
        assert worth["key"] == "why:chance-game" and worth["values"]["chance"] == round(100 * choice.game_chance, 1)
        assert worth_of_round == {
            "key": "why:stake-game",
            "values": {"stake": round(100 * stake)},
            "text": f"Winning this round rather than losing it changes your chance to win the game by about "
            f"{round(100 * stake)} percentage points.",
        }
        share = 100 * (best.game_chance - choice.game_chance) / stake
        if distance["key"] == "why:behind-game":
            assert share > 1.9 and distance["values"]["share"] == pytest.approx(share, abs=0.2), (share, distance)
        else:
            assert distance["key"] == "why:close-game" and share < 2.1, (share, distance)
    assert (stake > 0.5) == (totals != (0, 0))  # the same slip costs more of the game near its end


def test_a_hint_at_a_lopsided_score_gives_the_chance_to_win_the_game_not_the_round() -> None:
    """At 0 to 300 the round is won nearly always by the best move, the game seldom: the hint says the game's chance
    (to a tenth of a point) and the round's beside it, as they are, never 100 % (issue 48). Here no move goes out (23
    on the pile fits no slot) and the round is won about as often whatever is played, so nothing tells the two best
    moves apart and the hint says no more than that: not that the round ranked them (it did not), and the round's
    worth to the game as the least the review weighs a loss against. (The round ranking moves in a game all but
    decided is tests/test_review_game.py's planted blunder.)"""
    far_behind = explained_choices(scored_position((0, 300), drawn=False, turned_up=23))[0]
    level = explained_choices(scored_position((0, 0), drawn=False, turned_up=23))[0]
    first = far_behind.why[0]
    assert first["key"] == "why:best-game", far_behind.why
    assert far_behind.game_chance is not None and far_behind.game_chance < game_chance(0, 300) + 0.05
    assert first["values"]["chance"] == round(100 * far_behind.game_chance, 1) < 10
    assert first["values"]["round"] == min(99, round(100 * (far_behind.win_chance or 0))) > 80  # never said 100 %
    chance = first["values"]["chance"]
    assert first["text"].startswith(f"From what you can see, this move wins the game about {chance}%"), first
    assert level.game_chance is not None and level.game_chance > 0.5 > far_behind.game_chance
    # The game all but decided: the least the review weighs a loss against, said as such.
    keys = [sentence["key"] for sentence in far_behind.why]
    assert "why:stake-game" not in keys and "why:stake-least-game" in keys and "why:best-close-game" in keys, keys


class _KernelBeforeTheGame:
    """The compiled kernel as built before issue 37: its races take no table of the game's values."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel

    def race(self, *arguments: Any) -> Any:
        if len(arguments) > 11:
            raise TypeError("race() takes at most 11 arguments (12 given)")
        return self.kernel.race(*arguments)


def test_a_kernel_built_before_the_game_s_values_still_hints_by_the_round_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(evaluate_module, "_kernel", _KernelBeforeTheGame(evaluate_module._kernel))
    choices = explained_choices(scored_position((0, 0), drawn=False), names=["old", "kernel"])
    assert all(choice.game_chance is None and choice.win_chance is not None for choice in choices)
    said = [sentence for choice in choices for sentence in choice.why]
    assert not any(sentence["key"].endswith("-game") for sentence in said), said
    assert any(sentence["key"] == "why:chance" and "wins the round" in sentence["text"] for sentence in said), said
