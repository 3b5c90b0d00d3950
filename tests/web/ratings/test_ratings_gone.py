"""Leaving costs (issue 39): a seat that was gone at the end of a rated game is rated last, whatever the computer
player that stood in for it scored; the others are placed by their totals."""

from __future__ import annotations

from people import a_finished_game
from racko.match import Match
from racko.play.session import PlaySession, SeatSpec
from racko.rules import variant
from racko.web.app import people, schema_parts
from racko.web.store import SqliteTables


def test_a_seat_gone_at_the_end_of_a_rated_game_is_rated_last_whatever_its_stand_in_did() -> None:
    store = SqliteTables(":memory:")
    store.prepare(schema_parts())
    players, ratings = people(store)
    ann, _ = players.create("Ann")
    bob, _ = players.create("Bob")
    rules = variant("classic").rules(2, target=50)
    session = PlaySession(Match(rules, seed=11), [SeatSpec("Ann", "medium"), SeatSpec("Bob", "easy")])
    while not session.match.over:
        session.play_bot()
    totals = session.match.seat_totals
    winner = max(range(2), key=lambda seat: totals[seat])
    seats = [{"name": "Ann", "bot": None, "player": ann.id}, {"name": "Bob", "bot": None, "player": bob.id}]
    setup = {"rules": rules.to_dict(), "seed": 11, "game": 1, "rated": True, "seats": seats}
    gone = [seat == winner for seat in range(2)]
    assert ratings.game_over(a_finished_game("t-gone", {**setup, "gone": gone}, session.record()))
    places = {row["seat"]: row["place"] for row in ratings.of_player(ann.id)["games"][0]["seats"]}
    assert places == {winner: 2, 1 - winner: 1}
    board = {line["name"]: line["rating"] for line in ratings.board("classic") if line["subject"].startswith("p:")}
    loser_name, stayer_name = ("Ann", "Bob") if winner == 0 else ("Bob", "Ann")
    assert board[stayer_name] > board[loser_name]
