"""The review of a table's game over HTTP: who sees what (a seat its own decisions of ended rounds while the game is
on, everyone everything after its end, a spectator nothing), nothing in an answer its asker could not see, clear
refusals, progress while the worker reviews, and a table that keeps answering moves meanwhile."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from browsing import played_game
from racko.actions import Discard, DrawFromStock
from racko.analysis.review import review
from racko.families import family_of
from racko.match import Match
from racko.record import GameRecord, replay
from racko.round import arrange_deck
from racko.rules import variant
from racko.web.review.reviews import SEED, review_json
from racko.web.store import TableStore
from racko.web.table import token_hash
from tables import hello, hub_of, make_table, table_app, until_frame

PLUMBING_PLAYOUTS = 2
"""The play-outs a move of the reviews that only test the plumbing (the server's own setting is the review's)."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(table_app(review_playouts=PLUMBING_PLAYOUTS)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def game() -> tuple[Any, list[dict[str, Any]], str]:
    """A whole game of two rounds or more (150 points), hard against easy: rules, journal, record."""
    rules, actions, record = played_game("classic", ["Ann", "Bob"], ["hard", "easy"], seed=5, target=150)
    assert len(GameRecord.loads(record).rounds) >= 2
    return rules, actions, record


def _store(client: TestClient) -> TableStore:
    store: TableStore = client.app.state.hub.store  # type: ignore[attr-defined]
    return store


def _file(client: TestClient, rules: Any, actions: list[dict[str, Any]], finished: str | None = None) -> dict[str, Any]:
    """A table of two people at the position ``actions`` bring its game to, kept as the server keeps tables."""
    table_id = "r" + secrets.token_urlsafe(8)
    tokens = [secrets.token_urlsafe(24) for _ in range(2)]
    setup = {
        "rules": rules.to_dict(),
        "seed": 5,
        "game": 1,
        "seats": [
            {"name": name, "bot": None, "token": token_hash(token), "joined": True}
            for name, token in zip(["Ann", "Bob"], tokens, strict=True)
        ],
    }
    store = _store(client)
    store.create(table_id, setup)
    store.append(table_id, 0, actions)
    if finished is not None:
        store.finish(table_id, finished)
    store.commit()
    return {"table": table_id, "tokens": tokens}


def _actions_until(rules: Any, actions: list[dict[str, Any]], rounds_ended: int, more: int = 0) -> list[dict[str, Any]]:
    """The journal up to the end of round ``rounds_ended`` and ``more`` actions into the next round."""
    match = Match(rules, seed=5)
    family = family_of(rules)
    for number, raw in enumerate(actions):
        if len(match.results) == rounds_ended:
            return actions[: number + more]
        match.apply(family.action_from_json(raw))
    raise AssertionError("the game is shorter than that")


def _ask(client: TestClient, table: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{table}/review", json=body)


def _reviewed(client: TestClient, table: str, **body: Any) -> dict[str, Any]:
    """The review, once done (the reviews here are quick: a few play-outs a move)."""
    for _ in range(600):
        answer = _ask(client, table, **body)
        assert answer.status_code == 200, answer.text
        state = answer.json()
        assert state["state"] in ("waiting", "running", "done"), state
        if state["state"] == "done":
            return dict(state)
        time.sleep(0.1)  # the worker's progress is polled, as the page polls it
    raise AssertionError("the review did not end")


def _decisions(review: dict[str, Any]) -> list[dict[str, Any]]:
    return [decision for seat in review["seats"] for decision in seat["decisions"]]


# --- who sees what ---------------------------------------------------------------------------------------------


def test_during_the_game_a_seat_sees_only_its_own_decisions_of_the_rounds_that_ended(
    client: TestClient, game: tuple[Any, list[dict[str, Any]], str]
) -> None:
    rules, actions, _ = game
    table = _file(client, rules, _actions_until(rules, actions, 1, more=9))
    state = _reviewed(client, table["table"], token=table["tokens"][1])
    assert state["over"] is False and state["you"] == 1 and state["game"] == 1
    review = state["review"]
    assert [seat["seat"] for seat in review["seats"]] == [1] and review["rounds"] == [1]
    decisions = _decisions(review)
    assert decisions and {decision["round"] for decision in decisions} == {1}
    assert {decision["seat"] for decision in decisions} == {1}
    classes = {"best", "good", "inaccuracy", "mistake", "blunder"}
    for decision in decisions:
        assert decision["class"] in classes and decision["loss"] >= 0
        assert decision["played"]["seat"] == 1 and decision["played_words"]["key"].startswith("move:")
        # graded by the chance to win the game from the scores, as racko review grades (issue 37), the round's beside it
        assert decision["measure"] == "game_chance" and 0 < decision["stake"] <= 1
        assert 0 <= decision["game_chance_after"] <= decision["game_chance_before"] + 1e-9 <= 1 + 1e-9
        assert 0 <= decision["win_chance_after"] <= 1 and 0 <= decision["win_chance_before"] <= 1
    seat = review["seats"][0]
    assert seat["name"] == "Bob" and sum(seat["counts"].values()) == len(decisions)
    assert seat["rounds"][0]["round"] == 1 and 0 <= seat["accuracy"] <= 100
    # The round under way is not reviewed, even by the seat; the same review is given for the same round.
    refused = _ask(client, table["table"], token=table["tokens"][1], round=2)
    assert refused.status_code == 409 and "has not ended" in refused.json()["error"]
    again = _reviewed(client, table["table"], token=table["tokens"][1], round=1)
    assert again["review"] == review


def test_during_the_game_a_spectator_and_a_wrong_link_see_nothing(
    client: TestClient, game: tuple[Any, list[dict[str, Any]], str]
) -> None:
    rules, actions, _ = game
    table = _file(client, rules, _actions_until(rules, actions, 1, more=3))
    spectator = _ask(client, table["table"])
    assert spectator.status_code == 403 and "own moves" in spectator.json()["error"]
    wrong = _ask(client, table["table"], token=secrets.token_urlsafe(24))
    assert wrong.status_code == 403 and "not a seat" in wrong.json()["error"]
    other = _file(client, rules, _actions_until(rules, actions, 1, more=3))
    assert _ask(client, table["table"], token=other["tokens"][0]).status_code == 403  # worthless at another table


def test_after_the_game_anyone_sees_every_seat_s_decisions(
    client: TestClient, game: tuple[Any, list[dict[str, Any]], str]
) -> None:
    rules, actions, record = game
    table = _file(client, rules, actions, finished=record)
    state = _reviewed(client, table["table"], round=2)
    assert state["over"] is True and state["you"] is None
    review = state["review"]
    assert [seat["seat"] for seat in review["seats"]] == [0, 1] and review["rounds"] == [2]
    assert {decision["round"] for decision in _decisions(review)} == {2}
    assert review["measure"] == "game_chance" and review["playouts"] == PLUMBING_PLAYOUTS * 6
    costly = [decision for decision in _decisions(review) if decision["class"] != "best"]
    assert costly and all(decision["why"] for decision in costly)  # why the best move is, where it was not played
    for decision in costly:
        # how far the move played is behind, in the game's chance against what its round is worth (as it grades)
        behind, worth = decision["why"][-2:]
        share = decision["loss"] / decision["stake"]
        assert behind["key"] == ("why:close-game" if share <= 0.02 else "why:behind-game"), (share, behind)
        assert behind["values"]["points"] == pytest.approx(100 * decision["loss"], abs=0.11), behind
        assert worth["key"] in ("why:stake-game", "why:stake-least-game"), worth
        assert worth["values"]["stake"] == max(5, round(100 * decision["stake"])), (worth, decision["stake"])


def test_a_seat_may_be_named_by_the_player_s_cookie_as_at_the_table(client: TestClient) -> None:
    named = client.post("/api/me", json={"name": "Cleo"}, headers={"origin": "http://testserver"})
    assert named.status_code == 200, named.text
    links = make_table(client, seats=["me", "easy"], target=50)
    refused = _ask(client, links["table"])  # no round has ended yet: refused, but as a seat, not as a spectator
    assert refused.status_code == 409 and "No round" in refused.json()["error"]
    client.cookies.clear()
    assert _ask(client, links["table"]).status_code == 403


# --- nothing hidden ----------------------------------------------------------------------------------------------

CARD_VALUES = {"card", "held", "out", "taken", "top", "low", "high", "cards"}
"""The values of the review's sentences that are cards somewhere (``below``, ``above`` and ``wanted`` are numbers a
run would want, wherever they are)."""


def _cards(values: dict[str, Any]) -> set[int]:
    found: set[int] = set()
    for key, value in values.items():
        if key in CARD_VALUES:
            found |= {value} if isinstance(value, int) else {card for card in value if isinstance(card, int)}
    return found


def test_nothing_in_a_review_is_a_card_its_asker_could_not_see(
    client: TestClient, game: tuple[Any, list[dict[str, Any]], str]
) -> None:
    """Every card a review names (in its moves and its reasons) is one the deciding seat had seen by then, by the
    engine's knowledge model; and the answer holds no rack, stock, deck or seed."""
    rules, actions, record = game
    table = _file(client, rules, _actions_until(rules, actions, 1, more=4))
    state = _reviewed(client, table["table"], token=table["tokens"][0])
    text = json.dumps(state)
    for secret in ("seed", "deck", "stock", "rack", "racks", "order"):
        assert f'"{secret}"' not in text
    decisions = {decision["action"]: decision for decision in _decisions(state["review"])}
    assert {decision["seat"] for decision in decisions.values()} == {0} and len(decisions) > 10
    match = replay(GameRecord.loads(record), stop_after=0)
    family = family_of(rules)
    named = 0
    for number, raw in enumerate(actions, start=1):
        decision = decisions.get(number)
        if decision is not None:
            seen = match.observation(0).seen_cards()
            sentences = [decision["played_words"], decision["best_words"], *decision["why"]]
            cards = set().union(*(_cards(sentence["values"]) for sentence in sentences))
            cards &= set(range(1, rules.deck_size + 1))  # a stretch open to the rack's end is bounded by 0 or 41
            assert cards <= seen, (number, cards - seen)
            named += len(cards)
        match.apply(family.action_from_json(raw))
    assert named > 10


# --- bad input ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"round": "two"}, 400, "A round is a number"),
        ({"round": 0}, 400, "A round is a number"),
        ({"round": True}, 400, "A round is a number"),
        ({"round": 9}, 400, "There is no round 9"),
        ({"game": -1}, 400, "A game is a number"),
        ({"game": 7}, 404, "no such game"),
        ({"token": 5}, 400, "token is text"),
    ],
)
def test_bad_requests_get_a_clear_error_and_the_right_status(
    client: TestClient, game: tuple[Any, list[dict[str, Any]], str], body: dict[str, Any], status: int, words: str
) -> None:
    rules, actions, record = game
    table = _file(client, rules, actions, finished=record)
    answer = _ask(client, table["table"], **body)
    assert answer.status_code == status and words in answer.json()["error"], answer.text


def test_an_unknown_table_a_body_that_is_not_json_and_another_site_are_refused(client: TestClient) -> None:
    assert _ask(client, "nosuchtable").status_code == 404
    assert "no such table" in _ask(client, "nosuchtable").json()["error"]
    assert _ask(client, "x" * 41).status_code == 404
    answer = client.post("/api/tables/nosuchtable/review", content=b"{", headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error"]
    other_site = client.post("/api/tables/nosuchtable/review", json={}, headers={"origin": "https://elsewhere.example"})
    assert other_site.status_code == 403
    assert client.get("/t/anything/review").status_code == 200  # the page itself says what the answer says


def test_a_game_not_started_says_so(client: TestClient) -> None:
    links = make_table(client, seats=["me", "person"], target=50)
    answer = _ask(client, links["table"], token=links["seats"][0]["token"])
    assert answer.status_code == 409 and "No round of this game has ended" in answer.json()["error"]


# --- a review's progress, and a table that keeps playing meanwhile ------------------------------------------------


def test_progress_is_reported_and_a_table_keeps_answering_moves_while_a_review_runs() -> None:
    """At the review's own setting, a whole 500-point game takes seconds: the page is told how far it is, a second
    request joins it, and another table's moves are answered meanwhile."""
    rules, actions, record = played_game("classic", ["Ann", "Bob"], ["easy", "easy"], seed=3, target=500)
    with TestClient(table_app()) as client:
        table = _file(client, rules, actions, finished=record)
        first = _ask(client, table["table"]).json()
        assert first["state"] in ("waiting", "running"), first
        state = first
        for _ in range(600):
            state = _ask(client, table["table"]).json()
            if state["state"] == "running" and state["done"] > 0:
                break
            time.sleep(0.1)
        assert state["state"] == "running" and 0 < state["done"] < state["total"], state
        assert len(client.app.state.reviews.jobs) == 1  # type: ignore[attr-defined]  # the second asker joined it
        links = make_table(client, seats=["me", "person"], names=["Ann", "Bob"])
        to_act = hub_of(client).tables[links["table"]].session.to_act
        with client.websocket_connect(f"/ws/{links['table']}") as player:
            welcome, now = hello(player, links["seats"][to_act]["token"])
            if not welcome["joined"]:  # the invited seat sits down first
                player.send_json({"type": "name", "name": "Bob"})
                now = until_frame(player, "state")
            player.send_json({"type": "act", "version": now["version"], "action": {"act": "draw"}})
            moved = until_frame(player, "state")
            assert moved["version"] == now["version"] + 1 and moved["view"]["held"] is not None
        later = _ask(client, table["table"]).json()
        assert later["state"] == "running" and later["done"] >= state["done"], later  # the move came in between


# --- the measure: racko review's ---------------------------------------------------------------------------------


def test_the_browser_s_review_grades_as_racko_review_does_by_the_chance_to_win_the_game() -> None:
    """Issue 37's example: 3 drawn, and 3 into slot 5 goes Rack-O at once; thrown away instead, for a rack that still
    wins the round nearly always.  The round's measure called it good; the page grades it as racko review does, by
    what it costs in the chance to win the game, and says so against what the round is worth."""
    mine = [15, 14, 16, 18, 20, 21, 22, 30, 34, 38]
    theirs = [4, 8, 11, 12, 19, 27, 25, 33, 39, 40]
    deck = arrange_deck([mine, theirs], dealer=1, turned_up=1, stock=[3], deck_size=40)
    match = Match(variant("classic").rules(2), first_dealer=1, decks=[deck])
    match.apply(DrawFromStock(0))
    match.apply(Discard(0))
    record = GameRecord.of(match, players=("Ann", "Bob"))
    page = review_json(record, [0], [1], threads=1)
    command = review(record, seats=[0], rounds=[1], reveal=True, seed=SEED, jobs=1).to_json()
    assert page["measure"] == "game_chance"
    (decision,) = [found for found in page["seats"][0]["decisions"] if found["action"] == 2]
    (graded,) = [found for found in command["seats"][0]["decisions"] if found["action"] == 2]
    assert {key: decision[key] for key in graded} == graded  # every figure and class of racko review --json
    assert decision["class"] not in ("best", "good") and decision["win_chance_after"] > 0.9, decision
    behind, worth = decision["why"][-2:]
    assert behind["key"] == "why:behind-game" and behind["values"]["share"] > 2, behind
    assert worth == {
        "key": "why:stake-game",
        "values": {"stake": 26},
        "text": "Winning this round rather than losing it changes your chance to win the game by about 26 percentage "
        "points.",
    }
