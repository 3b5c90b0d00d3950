"""Two boards (issue 38): bot accounts are rated on the bots' board, people on the people's, racko's levels on both.
A rated game of bots moves the bots' board only; a rated game of a person and a bot account moves the people's board
for the person, the bot playing at its bots' rating and keeping nothing there."""

from __future__ import annotations

from typing import Any

from people import a_finished_game
from racko.match import Match
from racko.play.session import PlaySession, SeatSpec
from racko.record import GameRecord
from racko.rules import variant
from racko.web.app import people, schema_parts
from racko.web.players import Player
from racko.web.ratings import Ratings
from racko.web.store import SqliteTables


def played(seed: int) -> tuple[dict[str, Any], GameRecord]:
    rules = variant("classic").rules(2, target=50)
    session = PlaySession(Match(rules, seed=seed), [SeatSpec("A", "medium"), SeatSpec("B", "easy")])
    while not session.match.over:
        session.play_bot()
    return {"rules": rules.to_dict(), "seed": seed, "game": 1, "rated": True}, session.record()


def account_seat(bot: Player) -> dict[str, Any]:
    return {"name": bot.name + " (bot)", "bot": None, "player": bot.id, "account": "bot"}


def lines(ratings: Ratings, pool: str) -> dict[str, dict[str, Any]]:
    return {line["name"]: line for line in ratings.board("classic", pool=pool)}


def test_bots_are_rated_on_their_own_board_and_people_on_theirs() -> None:
    store = SqliteTables(":memory:")
    store.prepare(schema_parts())
    players, ratings = people(store)
    robo, _ = players.add_bot("Robo")
    ann, _ = players.create("Ann")
    before = {pool: lines(ratings, pool) for pool in ("people", "bots")}
    assert before["people"]["medium"]["rating"] == before["bots"]["medium"]["rating"]  # both start calibrated

    # A bot account against a level: the bots' board moves, the people's board stays as it was.
    setup, record = played(3)
    setup["seats"] = [{"name": "medium", "bot": "medium"}, account_seat(robo)]
    assert ratings.game_over(a_finished_game("t-bots", setup, record))
    bots_board, people_board = lines(ratings, "bots"), lines(ratings, "people")
    assert bots_board["Robo"]["bot"] is True and bots_board["Robo"]["games"] == 1
    assert bots_board["medium"]["games"] == 1 and bots_board["medium"]["rating"] != before["bots"]["medium"]["rating"]
    assert "Robo" not in people_board and people_board["medium"] == before["people"]["medium"]
    assert ratings.of_player(robo.id)["pool"] == "bots" and ratings.of_player(robo.id)["ratings"]["classic"]["games"]

    # A person against the bot account: the person's rating moves on the people's board; the bot keeps nothing.
    robo_then = bots_board["Robo"]
    setup, record = played(4)
    setup["seats"] = [{"name": "Ann", "bot": None, "player": ann.id}, account_seat(robo)]
    assert ratings.game_over(a_finished_game("t-mixed", setup, record))
    bots_board, people_board = lines(ratings, "bots"), lines(ratings, "people")
    assert people_board["Ann"]["games"] == 1 and "bot" not in people_board["Ann"]
    assert "Robo" not in people_board and bots_board["Robo"] == robo_then and "Ann" not in bots_board
    assert ratings.of_player(ann.id)["pool"] == "people"
    (game,) = ratings.of_player(ann.id)["games"]
    assert [seat["name"] for seat in game["seats"]] == ["Ann", "Robo (bot)"]  # marked on the person's page too

    # Forgetting the bot takes its line off the bots' board.
    assert players.forget(robo.id)
    assert "Robo" not in lines(ratings, "bots")
