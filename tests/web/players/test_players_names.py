"""Names that pose as others (issue 35): a name that looks like a player's online or rated now, a computer level's
or a forgotten player's is refused with the reason and changes nothing; the key two names are compared by is
Unicode's confusables skeleton; and transfer codes are tried from one address no faster than new players are made.
On SQLite and on PostgreSQL (a real server, started for the tests)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from people import get_as, person
from racko import bots
from racko.web.players import COOKIE, FORGOTTEN
from racko.web.players.names import FORGOTTEN_WORDS, name_key, posing_as, reserved_like
from tables import table_app

# --- the key two names are compared by ------------------------------------------------------------------------


def test_names_that_look_alike_have_one_key() -> None:
    # Latin, its cases, its full-width forms, Cyrillic А, white space, a joiner that shows nothing
    assert {name_key(name) for name in ("Ann", "ann", "ANN", "\u0410nn", "Ａｎｎ", "  Ann ", "An\u200dn")} == {
        name_key("Ann")
    }
    assert name_key("Jo  Ann") == name_key("jo\tann") == name_key("Jo Ann")
    assert name_key("B0b") == name_key("Bob")  # a zero for an o
    assert name_key("Ｅｘｐｅｒｔ") == name_key("expert") == name_key("Ехреrt")  # full width; Cyrillic е, х, р, е
    assert name_key("l1l") == name_key("|||")  # the table's prototype of 1, |, l is l


def test_names_that_do_not_look_alike_have_keys_of_their_own() -> None:
    for one, other in [("Ann", "Anne"), ("Ann", "Ana"), ("Jo Ann", "JoAnn"), ("Bob", "Rob"), ("Ann", "Änn")]:
        assert name_key(one) != name_key(other), (one, other)


def test_a_long_name_is_keyed_in_one_pass() -> None:
    """No spelling of the name is tried (the package's own ``normalize`` would try 2**24 of these): one look-up a
    character.  Keying such a name takes a few microseconds."""
    for character in "|1l":
        assert name_key(character * 24) == "l" * 24
        assert posing_as(character * 24, ["l" * 24]) == "l" * 24
    assert reserved_like("|" * 24) is None and reserved_like("1" * 24) is None


# --- names nobody may take -----------------------------------------------------------------------------------


def test_a_computer_level_s_name_is_reserved_plain_or_decorated() -> None:
    for level in bots.available():
        assert posing_as(level, []) == level
        assert posing_as(level.upper(), []) == level
    decorated = {
        "hard (computer)": "hard",
        "Expert 2": "expert",
        "Expert 1": "expert",  # a digit, though the key makes it an "l"
        "hard2bot": "hard",
        "ｅｘｐｅｒｔ": "expert",
        "bot: master": "master",
        "HardBot": "hard",
        "robot_hard": "hard",
        "Computer - Medium 10": "medium",
        "AI easy": "easy",
        "cpu-random-1": "random",
        "expert eager": "expert-eager",
        "Ехреrt": "expert",  # Cyrillic
        "ordinateur : master": "master",
    }
    assert {name: posing_as(name, []) for name in decorated} == decorated


def test_the_forgotten_player_s_name_is_reserved_in_every_language_of_the_pages() -> None:
    assert FORGOTTEN_WORDS == {"en": FORGOTTEN, "nl": "een vergeten speler", "fr": "un joueur oublié"}
    for words in FORGOTTEN_WORDS.values():
        assert posing_as(words, []) == words
        assert posing_as(words.upper(), []) == words
    assert posing_as("A forgotten-player", []) == FORGOTTEN
    assert posing_as("un joueur oublie", []) == "un joueur oublié"


def test_names_that_only_begin_like_a_reserved_one_are_free() -> None:
    for name in ("Hardy", "Mastermind", "Easy Rider", "Randomness", "Medium Rare", "Experto", "Ann", "Ai", "Robert"):
        assert posing_as(name, []) is None, name
        assert reserved_like(name) is None, name


def test_a_name_poses_as_the_first_other_with_its_key() -> None:
    assert posing_as("\u0410nn", ["Bob", "ann", "ANN"]) == "ann"
    assert posing_as("Ann", ["Bob", "Anne"]) is None
    assert posing_as("hard", ["Hard"]) == "hard"  # the reserved name comes first


# --- through the server ---------------------------------------------------------------------------------------


def _post(client: TestClient, path: str, body: dict[str, Any], who: dict[str, str] | None = None) -> Any:
    answer = client.post(path, json=body, headers=who or {})
    client.cookies.clear()
    return answer


def _rows(client: TestClient, sql: str, params: tuple[Any, ...] = ()) -> Any:
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    return store.run(lambda rows: rows(sql, params))


def _players(client: TestClient) -> list[str]:
    return sorted(str(name) for (name,) in _rows(client, "SELECT name FROM racko_players"))


def _away(client: TestClient, player_id: str) -> None:
    """The player was last seen a day ago: not online (and no request of theirs may follow, which would see them)."""
    _rows(client, "UPDATE racko_players SET seen = ? WHERE id = ?", (0.0, player_id))


def _rate(client: TestClient, player_id: str) -> None:
    _rows(
        client,
        "INSERT INTO racko_ratings (subject, variant, mu, sigma, games) VALUES (?, ?, ?, ?, ?)",
        ("p:" + player_id, "classic", 27.0, 7.5, 1),
    )


def test_a_name_like_a_player_s_online_now_is_refused_and_nothing_is_made(any_client: TestClient) -> None:
    client = any_client
    person(client, "Ann")
    for name in ("Ann", "ANN", "\u0391\u039d\u039d", "Ａｎｎ"):  # Greek capitals Alpha, Nu, Nu
        answer = _post(client, "/api/me", {"name": name})
        assert answer.status_code == 409, (name, answer.text)
        assert answer.json()["code"] == "name-taken" and answer.json()["like"] == "Ann"
        assert answer.json()["error"] == f"“{name}” looks like “Ann”, a name someone plays under now: choose another."
        assert COOKIE not in answer.cookies
    assert _players(client) == ["Ann"]
    person(client, "Anne")  # another name
    assert _players(client) == ["Ann", "Anne"]


def test_a_computer_level_s_name_is_refused(any_client: TestClient) -> None:
    client = any_client
    for name, level in (("expert", "expert"), ("hard (computer)", "hard"), ("Bot: Master", "master")):
        answer = _post(client, "/api/me", {"name": name})
        assert answer.status_code == 409, answer.text
        assert answer.json() == {
            "error": f"“{name}” looks like the computer player {level}: choose another name.",
            "code": "name-reserved",
            "like": level,
        }
    answer = _post(client, "/api/me", {"name": "Een Vergeten Speler"})
    assert answer.status_code == 409 and answer.json()["like"] == "een vergeten speler"
    assert "forgotten player" in answer.json()["error"]
    assert _players(client) == []


def test_a_player_renames_within_their_own_name_but_not_to_another_s(any_client: TestClient) -> None:
    client = any_client
    ann, bob = person(client, "Ann"), person(client, "Bob")
    assert _post(client, "/api/me", {"name": "ANN"}, ann).json()["name"] == "ANN"  # their own, in capitals
    assert _post(client, "/api/me", {"name": "Ann"}, ann).status_code == 200
    refused = _post(client, "/api/me", {"name": "\u0391\u039d\u039d"}, bob)
    assert refused.status_code == 409 and refused.json()["code"] == "name-taken" and refused.json()["like"] == "Ann"
    refused = _post(client, "/api/me", {"name": "medium 2"}, bob)
    assert refused.status_code == 409 and refused.json()["code"] == "name-reserved"
    assert get_as(client, "/api/me", bob).json()["name"] == "Bob"
    assert _players(client) == ["Ann", "Bob"]
    assert _post(client, "/api/me", {"name": "Bobby"}, bob).json()["name"] == "Bobby"


def test_a_rated_player_holds_their_name_while_away_and_one_neither_online_nor_rated_does_not(
    any_client: TestClient,
) -> None:
    client = any_client
    ann, cy = person(client, "Ann"), person(client, "Cy")
    ann_id, cy_id = get_as(client, "/api/me", ann).json()["id"], get_as(client, "/api/me", cy).json()["id"]
    _rate(client, ann_id)
    _away(client, ann_id)
    _away(client, cy_id)
    players, ratings = client.app.state.hub.players, client.app.state.ratings  # type: ignore[attr-defined]
    assert players.online_names(None) == [] and ratings.rated_names(None) == ["Ann"]
    assert ratings.rated_names(ann_id) == []
    refused = _post(client, "/api/me", {"name": "ann"})
    assert refused.status_code == 409 and refused.json()["like"] == "Ann"
    person(client, "CY")  # Cy is away and has no rating: the name is free again
    assert _players(client) == ["Ann", "CY", "Cy"]


def test_the_checks_come_in_order_an_empty_name_the_limit_then_the_look_alike() -> None:
    with TestClient(table_app(new_tables_per_address=2)) as client:
        person(client, "Ann")
        assert _post(client, "/api/me", {"name": "  "}).status_code == 400  # not a try
        assert _post(client, "/api/me", {"name": "ann"}).status_code == 409  # a try
        assert _post(client, "/api/me", {"name": "Bob"}).status_code == 429
        assert _players(client) == ["Ann"]


# --- transfer codes ---------------------------------------------------------------------------------------------


def test_transfer_codes_from_one_address_are_limited_as_new_players_are() -> None:
    with TestClient(table_app(new_tables_per_address=2)) as client:
        codes = [_post(client, "/api/me/claim", {"code": f"guess-{number}"}) for number in range(3)]
        assert [answer.status_code for answer in codes] == [400, 400, 429]
        assert "used already" in codes[0].json()["error"]
        assert codes[2].json()["error"] == "Too many tries at once: wait a minute, then try again."
        assert codes[2].headers["Retry-After"] == "60"
    with TestClient(table_app(new_tables_per_address=2)) as client:  # a code that works, within the limit
        ann = person(client, "Ann")
        code = _post(client, "/api/me/transfer", {}, ann).json()["code"]
        claimed = _post(client, "/api/me/claim", {"code": code})
        assert claimed.status_code == 200 and claimed.json()["name"] == "Ann"


def test_a_capital_that_looks_like_another_letter_counts_as_that_letter_whatever_the_case() -> None:
    assert posing_as("lan", ["Ian"]) == "Ian"  # a capital I for an l
    assert posing_as("\u0392\u0435a", ["Bea"]) == "Bea"  # Greek capital beta, Cyrillic e: their small letters differ
    assert posing_as("IAN", ["ian"]) == "ian" and posing_as("UN JOUEUR OUBLIÉ", []) == "un joueur oublié"
    assert posing_as("Ivan", ["Evan", "Iris"]) is None
