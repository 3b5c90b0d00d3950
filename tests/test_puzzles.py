"""Puzzles: every shipped answer is the review's best move with a margin that a second, deeper judgement confirmed
(and a sample confirms again here), first-steps puzzles are marked, a puzzle shows only what its seat saw, generation
is reproducible, a damaged file is refused with the reason, and the terminal and web rooms pose them and judge
moves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from racko.analysis import puzzles
from racko.analysis.evaluate import FIRST_PLAYOUTS, MORE_PLAYOUTS, seat_history
from racko.analysis.puzzles import (
    CONFIRM_DEPTH,
    FIRST_STEPS_SHARE,
    KINDS,
    SHIPPED,
    Puzzle,
    PuzzleError,
    PuzzleSet,
    answer,
    from_json,
    generate,
    goes_out_at_once,
    load,
    margin_for,
    one_fit,
    position,
    recheck,
    verify,
    view_of,
)
from racko.cli import app
from racko.families import family_of
from racko.highlow import HighLowObservation
from racko.record import replay
from racko.rules import SLOT_LABELS, variant
from racko.web.app import ServerSettings, create_app
from racko.web.store import SqliteTables

PRIVATE = ("answer", "answer_slot", "values", "why", "margin", "missed_by", "game", "action", "seed")
"""What a puzzle holds that the solver must not see before answering."""


@pytest.fixture(scope="module")
def shipped() -> PuzzleSet:
    return load()


def wrong_move(puzzle: Puzzle) -> dict[str, Any]:
    return next(move.action for move in puzzle.moves if move.action != puzzle.answer)


def test_every_shipped_puzzle_answer_is_the_reviews_best_move(shipped: PuzzleSet) -> None:
    # All of them, judged again from their replayed games with their seeds (about 20 s of one core).
    assert len(shipped.puzzles) >= 120  # 131 since issue 48 dropped the unmarked first steps (docs/PUZZLES.md)
    problems = [problem for puzzle in shipped.puzzles for problem in verify(shipped, puzzle)]
    assert not problems, "\n".join(problems[:10])


def test_every_shipped_puzzle_carries_its_confirmed_margin_and_kind(shipped: PuzzleSet) -> None:
    deeper = CONFIRM_DEPTH * (FIRST_PLAYOUTS + MORE_PLAYOUTS)
    for puzzle in shipped.puzzles:
        assert puzzle.kind in KINDS, puzzle.id
        row = puzzle.variant == "highlow"
        assert puzzle.measure == ("turns" if row else "game_chance"), puzzle.id
        bound = margin_for(puzzle.measure)
        assert puzzle.margin > bound, puzzle.id  # the first judgement's
        assert bound < puzzle.confirmed_low <= puzzle.confirmed, puzzle.id  # the second's, 95% sure
        # a second judgement of its own: a High-Low rating has no play-outs; the others several times the review's
        assert puzzle.confirm_playouts == 0 if row else puzzle.confirm_playouts > deeper, puzzle.id
        assert 0 < puzzle.stake <= 1 and (puzzle.stake == 1) == row, puzzle.id
        losses = sorted(move.loss for move in puzzle.moves)
        assert losses[0] == 0 and losses[1] > bound and puzzle.best.grade == "best", puzzle.id
        assert all(move.grade in ("mistake", "blunder") for move in puzzle.moves if move != puzzle.best), puzzle.id
    first_steps = [puzzle for puzzle in shipped.puzzles if puzzle.first_steps]
    assert len(first_steps) <= FIRST_STEPS_SHARE * len(shipped.puzzles)
    assert all(puzzle.public_json()["first_steps"] for puzzle in first_steps)


def test_at_most_a_tenth_of_the_shipped_puzzles_are_first_steps_the_rest_need_a_real_choice(
    shipped: PuzzleSet,
) -> None:
    """Issue 48: about half of a random 30 were one obvious fit (puzzle 189: 38 into slot 50), unmarked.  A puzzle
    whose answer goes out at once or puts a card in the one open stretch it fits is marked first steps, and at most
    10 % of the set are."""
    assert FIRST_STEPS_SHARE == 0.10
    marked = 0
    for puzzle in shipped.puzzles:
        observation, _ = position(shipped.games[puzzle.game], puzzle.action)
        family = family_of(variant(puzzle.variant).rules(puzzle.players))
        action = family.action_from_json(puzzle.answer)
        slot = SLOT_LABELS.index(puzzle.answer["slot"]) if puzzle.answer.get("act") == "exchange" else None
        steps = goes_out_at_once(observation, action, slot) or one_fit(observation, action, slot)
        assert puzzle.first_steps == steps, (puzzle.id, puzzle.answer)
        marked += steps
    assert marked <= 0.10 * len(shipped.puzzles)


def test_a_puzzle_states_its_confirmed_lower_bound_as_its_margin(shipped: PuzzleSet) -> None:
    """Issue 48: 18 of 30 measured lower deeper than the margin stated (the mean lead of puzzles chosen for their
    lead); the margin said is the confirmation's lower bound, 95 % sure."""
    puzzle = next(puzzle for puzzle in shipped.puzzles if puzzle.confirm_playouts)
    said = answer(puzzle, puzzle.answer).sentences[1]
    assert said.key == "puzzle:confirmed" and said.values == {
        "playouts": puzzle.confirm_playouts,
        "low": round(100 * puzzle.confirmed_low),
    }
    assert f"behind by at least {round(100 * puzzle.confirmed_low)}%" in said.text("en")


def test_a_sample_of_the_shipped_puzzles_holds_under_a_deeper_judgement(shipped: PuzzleSet) -> None:
    # Judged again as generation confirmed them (3x the play-outs, the answer raced against its rivals on fresh
    # deals), with a seed generation never used: each answer is still first, and its lead past the bound (a few
    # seconds of one core; `racko puzzles check --deeper 30` judges a larger sample, docs/PUZZLES.md).
    two_players = [puzzle for puzzle in shipped.puzzles if puzzle.measure == "game_chance"]
    sample = two_players[:: len(two_players) // 6][:6]
    for puzzle in sample:
        again = recheck(shipped, puzzle, seed=20261127)
        # as racko puzzles check --deeper rules: still first, its lead measured past the bound (a fresh lower bound
        # falls short of it now and then, as a 95 % bound does: puzzle 152, lead 0.071, at least 0.045)
        assert "prefers" not in again.reason, (puzzle.id, again)
        assert again.margin > margin_for(puzzle.measure), (puzzle.id, again)


WAITING = {"en": ("wait", "drawing first"), "nl": ("wacht", "eerst trekken"), "fr": ("attend", "piocher d’abord")}


def test_call_or_wait_puzzles_race_the_wait_and_speak_of_waiting(shipped: PuzzleSet) -> None:
    calls = [puzzle for puzzle in shipped.puzzles if puzzle.kind == "call"]
    assert calls
    for puzzle in calls:
        assert puzzle.playouts > 0 and puzzle.confirm_playouts > 0, puzzle.id  # raced, not a fixed 0.8 for waiting
        assert len({move.value for move in puzzle.moves}) == len(puzzle.moves), puzzle.id
        wrong = answer(puzzle, wrong_move(puzzle))
        assert wrong.sentences[1].key in ("puzzle:cost-wait", "puzzle:cost-call", "puzzle:cost-game"), puzzle.id
        if puzzle.answer["act"] == "take":
            continue  # a card taken: where it goes is the puzzle (the rack still qualifies, or not)
        for lang, words in WAITING.items():  # why the answer is right speaks of waiting (or of drawing first)
            said = " ".join(answer(puzzle, puzzle.answer, lang).texts()).lower()
            assert any(word in said for word in words), (puzzle.id, lang, said)


def test_the_shipped_puzzles_are_a_mix(shipped: PuzzleSet) -> None:
    kinds = {puzzle.kind for puzzle in shipped.puzzles}
    assert {"pick", "place", "place-taken", "row-place"} <= kinds, kinds
    assert {puzzle.variant for puzzle in shipped.puzzles} >= {"classic", "bonus", "highlow"}
    assert sum(1 for puzzle in shipped.puzzles if puzzle.missed_by) >= 30
    # puzzles whose answer goes out at once are few, and marked
    assert 0 < sum(1 for puzzle in shipped.puzzles if puzzle.first_steps) <= FIRST_STEPS_SHARE * len(shipped.puzzles)


def test_a_puzzle_shows_only_what_its_seat_saw(shipped: PuzzleSet) -> None:
    for puzzle in shipped.puzzles:
        match = replay(shipped.games[puzzle.game], stop_after=puzzle.action)
        seat = puzzle.view["seat"]
        observation = match.observation(seat)
        assert puzzle.view == view_of(observation), puzzle.id
        seen = observation.seen_cards()
        shown = [puzzle.view["rack"], [puzzle.view["card"], puzzle.view["discard"]]]
        shown += [other["rack"] for other in puzzle.view["others"]]
        for cards in shown:
            for card in cards:
                if isinstance(card, int):
                    assert card in seen, f"puzzle {puzzle.id} shows {card}, which its seat never saw"
        assert set(puzzle.view) == {"seat", "situation", "rack", "card", "discard", "stock", "others"}
        if not isinstance(observation, HighLowObservation):  # the others' racks: only the cards seen there
            for other in puzzle.view["others"]:
                assert other["rack"] == list(observation.public.known[other["seat"]]), puzzle.id
        public = puzzle.public_json()
        assert not set(PRIVATE) & set(public), puzzle.id


def test_generation_is_reproducible_with_a_seed() -> None:
    first = generate(3, seed=7, games=1)
    again = generate(3, seed=7, games=1)
    assert first.dumps() == again.dumps()
    assert len(first.puzzles) >= 1  # one game's positions: 1 since issue 48 (first steps at most a tenth of 3)
    assert from_json(json.loads(first.dumps())).dumps() == first.dumps()
    for puzzle in first.puzzles:
        assert not verify(first, puzzle)


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda data: data.update(format="something else"), "not a file of racko puzzles"),
        (lambda data: data["puzzles"][0].update(answer={"seat": 0, "act": "fly"}), "answer is not one of its moves"),
        (lambda data: data["puzzles"][0].update(values=[0.5] * len(data["puzzles"][0]["values"])), "about as good"),
        (lambda data: data["puzzles"][0].pop("view"), "missing or wrong field"),
        (lambda data: data["puzzles"][0].update(why=[{"key": "no:such", "values": {}}]), "No words"),
        (lambda data: data["puzzles"][0].update(game=999), "names game 999"),
        (lambda data: data["puzzles"][0].update(confirmed_low=0.01), "not confirmed above the bound"),
        (lambda data: data["puzzles"][0].update(first_steps="yes"), "first-steps"),
        (lambda data: data["puzzles"][1].update(id=data["puzzles"][0]["id"]), "used twice"),
        (lambda data: data["games"][0]["rounds"][0].update(deck=[1, 2, 3]), "Game 0"),
    ],
)
def test_a_damaged_puzzle_file_is_refused_with_the_reason(damage: Any, reason: str) -> None:
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    damage(data)
    with pytest.raises(PuzzleError, match=reason):
        from_json(data)


def test_the_check_command_refuses_a_damaged_file_without_a_traceback(tmp_path: Path) -> None:
    broken = tmp_path / "puzzles.json"
    broken.write_text('{"format": "racko-puzzles", "version": 1, "puzzles": [', encoding="utf-8")
    result = CliRunner().invoke(app, ["puzzles", "check", str(broken)])
    assert result.exit_code == 2
    assert "is not JSON" in result.output and "Traceback" not in result.output


def test_the_check_command_judges_a_sample_again_deeper() -> None:
    result = CliRunner().invoke(app, ["puzzles", "check", "--deeper", "2", "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 3 and lines[0].startswith("puzzle 1 (") and "measured" in lines[0]
    assert " of 2 hold under a deeper judgement with seed 3" in lines[2] and "0 prefer another move" in lines[2]


def test_an_answer_says_right_or_wrong_and_why(shipped: PuzzleSet) -> None:
    puzzle = next(puzzle for puzzle in shipped.puzzles if puzzle.measure == "game_chance" and puzzle.kind != "call")
    right = answer(puzzle, puzzle.answer)
    assert right.right and right.texts()[0].startswith("Right:")
    assert right.texts()[1].startswith("Judged again on other deals with ")  # how sure the margin is
    wrong = answer(puzzle, wrong_move(puzzle))
    assert not wrong.right and wrong.grade in ("mistake", "blunder")
    assert wrong.sentences[1].key == "puzzle:cost-game" and wrong.sentences[1].values["share"] > 5
    assert wrong.sentences[2].key == "puzzle:confirmed"
    assert answer(puzzle, wrong_move(puzzle), "nl").texts()[0].startswith("Je koos")
    missed = next(puzzle for puzzle in shipped.puzzles if puzzle.missed_by)
    said = answer(missed, wrong_move(missed)).texts()
    assert (
        f"The computer player “{missed.missed_by}” plays another move here" in said[3 if missed.confirm_playouts else 2]
    )


def _answer_words(puzzle: Puzzle) -> str:
    action = puzzle.answer
    return str(action.get("slot") or action.get("position") or action["act"])


def test_the_terminal_poses_puzzles_from_piped_input(shipped: PuzzleSet) -> None:
    typed_first = next(p for p in shipped.puzzles if "swap" not in json.dumps(p.answer))
    number = shipped.puzzles.index(typed_first) + 1
    second = shipped.puzzles[number]
    wrong = wrong_move(second)
    lines = ["fly away", _answer_words(typed_first), str(wrong.get("slot") or wrong.get("position") or wrong["act"])]
    result = CliRunner().invoke(app, ["puzzle", "--number", str(number)], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'fly away' is not a move here" in out
    assert "Right:" in out and "Streak: 1" in out
    assert "You chose: " in out and "Streak: 0 (best 1) · 1 of 2 right" in out
    assert out.rstrip().endswith("Goodbye: 1 of 2 right, longest streak 1.")
    dutch = CliRunner().invoke(app, ["puzzle", "--lang", "nl", "--variant", "highlow"], input="q\n")
    assert dutch.exit_code == 0 and "Rij van speler" in dutch.output and "Tot ziens" in dutch.output
    assert CliRunner().invoke(app, ["puzzle", "--lang", "de"]).exit_code == 2


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SqliteTables(":memory:"), ServerSettings(pace=0.0))) as test_client:
        yield test_client


def test_the_web_serves_a_puzzle_without_its_answer_and_judges_moves(client: TestClient, shipped: PuzzleSet) -> None:
    page = client.get("/puzzles")
    assert page.status_code == 200 and 'href="/puzzles" aria-current="page"' in page.text
    served = client.get("/api/puzzles", params={"number": 2}).json()
    puzzle = shipped.puzzles[1]
    assert served["puzzle"] == puzzle.public_json() and served["number"] == 2
    assert not set(PRIVATE) & set(served["puzzle"])
    assert "answer" not in json.dumps(served) and "deck" not in json.dumps(served)
    url = f"/api/puzzles/{puzzle.id}/answer"
    right = client.post(url, json={"move": puzzle.answer, "lang": "fr"}).json()
    assert right["right"] is True and right["why"][0]["text"].startswith("Bien vu")
    wrong = client.post(url, json={"move": wrong_move(puzzle)}).json()
    assert wrong["right"] is False and wrong["answer"] == puzzle.answer and wrong["loss"] > margin_for(puzzle.measure)
    assert client.post(url, json={"move": {"act": "fly"}}).status_code == 400
    assert client.post("/api/puzzles/nope/answer", json={"move": puzzle.answer}).status_code == 404
    foreign = client.post(url, json={"move": puzzle.answer}, headers={"Origin": "https://elsewhere.example"})
    assert foreign.status_code == 403
    highlow = client.get("/api/puzzles", params={"variant": "highlow", "number": 1}).json()
    assert highlow["puzzle"]["variant"] == "highlow"
    assert client.get("/api/puzzles", params={"variant": "chess"}).status_code == 400
    assert client.get("/api/puzzles", params={"number": "-1"}).status_code == 400


def test_a_position_generation_would_keep_is_one_its_file_accepts() -> None:
    """Generation keeps a position when the best move leads every other by the margin, as the file's loader then
    checks.  Game 38 of seed 0, before its 80th action (a taken 19 to place, Bonus): the staged search set slot 25
    aside early, on few play-outs, at a figure nearer the best than the runner-up's; generation measured the lead
    over the runner-up alone, kept it, and wrote a file `racko puzzles check` refused (puzzle 12)."""
    match, players = puzzles.seeded_game(38, 0)
    while len(match.actions) < 79:
        seat = match.to_act
        assert seat is not None
        match.apply(players[seat].act(match.observation(seat)))
    seat = match.to_act
    assert seat is not None
    observation = match.observation(seat)
    evaluation = puzzles.judge(observation, seat_history(match.round, seat), 3594469236727761264)[1]
    stake = puzzles.stake_of(observation)
    kept = puzzles._margin(evaluation) / stake > margin_for(evaluation.measure)
    nearest = min(move.loss for move in puzzles._moves(observation, evaluation) if move.grade != "best")
    assert not kept or nearest > margin_for(evaluation.measure), (kept, nearest)
