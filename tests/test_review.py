"""racko review: every decision graded from the deciding player's own view (racko.analysis)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from racko import bots
from racko.actions import Discard, DrawFromStock, Exchange, TakeDiscard
from racko.analysis.review import CLASSES, GAME_CHANCE_CLASSES, Decision, accuracy, review
from racko.bots.runner import play_match
from racko.cli import app
from racko.match import Match
from racko.observation import Phase, PublicView
from racko.record import GameRecord, replay
from racko.round import arrange_deck, deal_position
from racko.rules import RACK_SIZE, variant
from racko.tools.review_commands import review_lines

runner = CliRunner()


def quick_review(record: GameRecord, **options: Any) -> dict[str, Any]:
    """The review's JSON with fewer play-outs than a real review, for the tests that only need the machinery."""
    return review(record, first=16, more=48, **options).to_json()


def one_round(levels: tuple[str, str], seed: int) -> GameRecord:
    """A finished one-round 2-player game (the 2-player rule) between two computer players."""
    match = Match(variant("classic").rules(2, target=1), seed=seed)
    play_match(match, [bots.create(level, seed=seed + seat) for seat, level in enumerate(levels)])
    return GameRecord.of(match, players=levels)


def planted_blunder(seed: int) -> tuple[GameRecord, int]:
    """Two hard players; the first time seat 0 holds a high card (30 or more) with a rack mostly in order that starts
    low (at most 8 in slot 5), after 20 actions, it throws the card into slot 5; the round is played out.  The record
    and the planted action's number.  Found by looking, not by a fixed deal, so that the bots' own changes keep it."""
    match = Match(variant("classic").rules(2, target=1), seed=seed)
    players = [bots.create("hard", seed=seed), bots.create("hard", seed=seed + 1)]
    while not match.results:
        seat = match.to_act
        assert seat is not None
        view = match.observation(seat)
        rack = view.rack
        in_order = sum(low < high for low, high in itertools.pairwise(rack))
        high_card = view.held is not None and view.held >= 30 and view.public.phase is Phase.PLACE
        if seat == 0 and high_card and rack[0] <= 8 and in_order >= 7 and len(match.actions) >= 20:
            match.apply(Exchange(0, 0))
            planted = len(match.actions)
            play_match(match, players)
            return GameRecord.of(match, players=("you", "hard")), planted
        match.apply(players[seat].act(view))
    raise AssertionError(f"no such moment in the round of seed {seed}")


@pytest.mark.parametrize("seed", [1, 3])
def test_a_high_card_thrown_into_slot_5_of_an_ordered_rack_is_a_blunder(seed: int) -> None:
    record, action = planted_blunder(seed)
    graded = [review(record, seats=[0], seed=judge).to_json()["seats"][0] for judge in range(3)]
    planted = [next(decision for decision in seat["decisions"] if decision["action"] == action) for seat in graded]
    for decision in planted:  # whatever the review's seed
        assert decision["played"] == {"seat": 0, "act": "exchange", "slot": 5}
        assert decision["class"] == "blunder" and decision["best"]["slot"] != 5, decision
        assert decision["win_chance_after"] < decision["win_chance_before"] - 0.3, decision
    assert all(seat["accuracy"] < 100 for seat in graded)


def test_the_top_level_s_own_moves_are_best_or_good_nearly_always() -> None:
    # master against master: 92 % best or good over these two rounds (124 decisions), one blunder; docs/REVIEW.md
    # gives the figures over more games.
    decisions = [
        decision
        for seed in (7, 8)
        for seat in review(one_round(("master", "master"), seed=seed)).seats
        for decision in seat.decisions
    ]
    fair = sum(1 for decision in decisions if decision.grade in ("best", "good"))
    assert len(decisions) >= 60
    assert fair / len(decisions) >= 0.85, [(d.action, d.grade, round(d.loss, 3)) for d in decisions]
    blunders = [(d.action, round(d.loss, 3)) for d in decisions if d.grade == "blunder"]
    assert len(blunders) <= len(decisions) // 50, blunders  # 1 in 124 here (a loss of 0.21, at the bound of 0.20)


def test_the_same_seed_gives_the_same_review() -> None:
    record = one_round(("hard", "medium"), seed=3)
    first = quick_review(record, seed=5, jobs=2)
    again = quick_review(record, seed=5, jobs=1)
    assert first == again
    assert {decision["class"] for seat in first["seats"] for decision in seat["decisions"]} <= set(CLASSES)


def _never_seen_by(record: GameRecord, seat: int) -> tuple[int, int]:
    """Two cards of round 1 that ``seat`` never sees: at the bottom of the stock, never drawn."""
    round_ = replay(record).rounds[0]
    assert not round_.reshuffles and round_.public_view().stock_size >= 2
    return len(round_.deck) - 1, len(round_.deck) - 2


def test_a_seat_s_review_is_the_same_whatever_the_cards_it_cannot_see() -> None:
    record = one_round(("hard", "hard"), seed=11)
    seat = 0
    final = replay(record).rounds[0]
    public = final.public_view()
    assert isinstance(public, PublicView)
    # Swap two cards that stay hidden from seat 0 all round: the bottom two of the stock, and two of the
    # opponent's dealt cards that never leave its rack (unless those would change a Rack-O it called).
    deck = list(record.rounds[0].deck)
    low, high = _never_seen_by(record, seat)
    deck[low], deck[high] = deck[high], deck[low]
    opponent = 1 - seat
    stayed = [
        index
        for index in range(2 * RACK_SIZE)
        for who, slot in [deal_position(index, record.rounds[0].dealer, 2)]
        if who == opponent and not public.left[opponent][slot] and public.known[opponent][slot] is None
    ]
    if final.result is not None and final.result.winner != opponent and len(stayed) >= 2:
        deck[stayed[0]], deck[stayed[1]] = deck[stayed[1]], deck[stayed[0]]
    changed = GameRecord.loads(
        json.dumps({**record.to_json(), "rounds": [{**record.to_json()["rounds"][0], "deck": deck}]})
    )
    assert changed.rounds[0].deck != record.rounds[0].deck
    assert quick_review(changed, seats=[seat]) == quick_review(record, seats=[seat])


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "game.json"
    one_round(("hard", "easy"), seed=2).save(path)
    return path


def test_review_json_has_the_issue_s_keys_and_counts_seats_from_1_on_the_command_line(game_file: Path) -> None:
    result = runner.invoke(app, ["review", str(game_file), "--seat", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["seats"]
    (seat,) = data["seats"]
    assert set(seat) == {"seat", "name", "accuracy", "decisions"} and seat["seat"] == 1 and seat["name"] == "easy"
    assert 0 <= seat["accuracy"] <= 100
    numbers = [decision["action"] for decision in seat["decisions"]]
    assert numbers == sorted(numbers) and numbers[0] >= 1
    for decision in seat["decisions"]:
        assert set(decision) == {
            "action", "played", "best", "loss", "class", "win_chance_before", "win_chance_after",
            "measure", "game_chance_before", "game_chance_after", "loss_error", "stake", "confidence",
        }  # fmt: skip
        assert decision["played"]["seat"] == 1 and decision["loss"] >= 0 and decision["class"] in CLASSES
        assert 0 <= decision["win_chance_after"] <= 1 and 0 <= decision["win_chance_before"] <= 1


def test_review_text_and_plot(game_file: Path, tmp_path: Path) -> None:
    plot = tmp_path / "chances.png"
    result = runner.invoke(app, ["review", str(game_file), "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "hard (seat 1): accuracy" in result.stdout and "easy (seat 2): accuracy" in result.stdout
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_review_refuses_bad_input_in_one_line(game_file: Path, tmp_path: Path) -> None:
    missing = runner.invoke(app, ["review", str(tmp_path / "none.json")])
    no_seat = runner.invoke(app, ["review", str(game_file), "--seat", "3"])
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    unreadable = runner.invoke(app, ["review", str(broken)])
    for result in (missing, no_seat, unreadable):
        assert result.exit_code != 0 and result.stderr.startswith("racko: "), result.output
        assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1
    assert "seat 3" in no_seat.stderr


def drew_instead_of_taking_40() -> GameRecord:
    """The person's first decision: 40 on the pile would fit slot 50 and make the rack nearly whole; they draw (and
    discard the 29 drawn).  The record of a game in progress, up to there."""
    rack = [3, 8, 12, 17, 21, 26, 30, 33, 39, 2]
    rest = [card for card in range(1, 40) if card not in rack]
    other = [rest[index] for index in (5, 0, 9, 2, 14, 1, 7, 3, 11, 4)]  # out of order: no Rack-O from the deal
    stock = [card for card in rest if card not in other]
    random.Random(1).shuffle(stock)
    deck = arrange_deck([rack, other], dealer=1, turned_up=40, stock=stock, deck_size=40)
    match = Match(variant("classic").rules(2, target=1), first_dealer=1, decks=[deck])
    match.apply(DrawFromStock(0))
    match.apply(Discard(0))
    return GameRecord.of(match, players=("you", "hard"))


def test_a_costly_choice_between_two_moves_is_not_scored_as_worse_than_chance() -> None:
    """Issue 37: drawing instead of taking 40, the one decision of a save, showed accuracy 0.0 (measured against a
    move at random, the worse of two moves scored 0 whatever it lost).  Each decision is scored by its own loss."""
    decision = review(drew_instead_of_taking_40(), seats=[0], reveal=True).seats[0].decisions[0]
    assert decision.played == DrawFromStock(0) and decision.best == TakeDiscard(0)
    assert 0.05 < decision.loss < 0.3, decision
    assert decision.grade in ("inaccuracy", "mistake"), decision  # the round decides this game: a stake of 1
    score = accuracy([decision])
    # by the game's measure a loss of a tenth of the stake halves the accuracy (0.10 here: 49.5), never 0
    assert score is not None and 25 < score < 90, score
    assert score == round(100 * 0.5 ** (decision.loss / decision.stake / GAME_CHANCE_CLASSES.mistake), 1)


def graded(loss: float) -> Decision:
    return Decision(
        action=1, round=1, seat=0, measure="win_chance", played=DrawFromStock(0), best=TakeDiscard(0),
        best_slot=9, loss=loss, grade="best", before=0.5, after=0.5 - loss, card=40, replaced=None,
    )  # fmt: skip


@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=30), st.integers(0, 29))
def test_accuracy_is_100_for_no_loss_and_falls_with_every_loss(losses: list[float], which: int) -> None:
    decisions = [graded(loss) for loss in losses]
    score = accuracy(decisions)
    assert score is not None and 0 <= score <= 100
    if not any(losses):
        assert score == 100
    worse = list(decisions)
    index = which % len(decisions)
    worse[index] = graded(losses[index] + 0.1)
    lower = accuracy(worse)
    assert lower is not None and lower <= score and lower < 100
    assert accuracy([]) is None


def test_moves_a_computer_player_made_for_a_person_are_left_out_of_their_review(game_file: Path) -> None:
    """The record's made_by: the clock's, a gone seat's and a left seat's moves are never graded as the person's;
    the review counts them, by why, and the accuracy is over the person's own decisions only."""
    record = GameRecord.load(game_file)
    whole = review(record, seats=[0], first=4, more=4).seats[0]
    numbers = [decision.action for decision in whole.decisions]
    assert len(numbers) >= 6
    marks = {numbers[0]: "clock", numbers[1]: "clock", numbers[2]: "gone", numbers[-1]: "left"}
    other = next(action.seat for action in record.rounds[0].actions if action.seat == 1)
    seat_1 = next(n for n, a in enumerate((a for r in record.rounds for a in r.actions), start=1) if a.seat == other)
    marked = GameRecord.loads(json.dumps({**record.to_json(), "made_by": {**marks, seat_1: "clock"}}))
    result = review(marked, seats=[0], first=4, more=4)
    seat = result.seats[0]
    assert [decision.action for decision in seat.decisions] == [n for n in numbers if n not in marks]
    assert seat.left_out == {"clock": 2, "gone": 1, "left": 1}  # seat 1's move is not seat 0's
    assert seat.accuracy == accuracy(seat.decisions)
    assert sum(seat.counts().values()) == len(numbers) - 4
    assert result.to_json()["seats"][0]["left_out"] == {"clock": 2, "gone": 1, "left": 1}
    assert "left_out" not in review(record, seats=[0], rounds=[1], first=2, more=2).to_json()["seats"][0]
    text = "\n".join(review_lines(result, "Rack-O", 2))  # racko review's text
    assert "Not graded, made by a computer player when the time ran out: 2." in text
    assert "Not graded, made by a computer player while the seat was gone: 1." in text
    assert "after the player left: 1." in text
