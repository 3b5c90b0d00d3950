"""Names by Unicode's rules (issue 46: 8 of its 37 look-alikes were taken): the look-alikes an attacker tries, as data,
each refused through the server with its reason and nothing made, while people online are called Anna, Anton, Zed
and Bob; and the names people write in their own scripts and with emoji, each taken.  The rules are UTS #39's
(racko.web.players.names: one script or a "highly restrictive" combination, nothing that shows nothing, no bot's or
level's mark in any bracket, width or look), the key names are compared by its confusables skeleton."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from people import app_in_process, person, until
from racko.web.players import COOKIE, unfit_name
from racko.web.players.names import reserved_like

ONLINE = ("Anna", "Anton", "Zed", "Bob")

LOOK_ALIKES: list[tuple[str, str, str]] = [
    # (the name as typed, the code it is refused with, the reason: ``why`` of name-unfit, else the name it is like)
    ("Anna\U000e0041", "name-unfit", "invisible"),  # a tag character after a name of a player online
    ("An\u03c4on", "name-unfit", "scripts"),  # a Greek tau inside a Latin name
    ("Zed \uff08bot\uff09", "name-reserved", "(bot)"),  # full-width brackets
    ("Zed [bot]", "name-reserved", "(bot)"),
    ("Zed {bot}", "name-reserved", "(bot)"),
    ("Zed \u3010bot\u3011", "name-reserved", "(bot)"),  # CJK lenticular brackets
    ("Zed <bot>", "name-reserved", "(bot)"),
    ("Zed \u00abbot\u00bb", "name-reserved", "(bot)"),  # guillemets
    ("Zed (BOT)", "name-reserved", "(bot)"),
    ("Zed (\uff42\uff4f\uff54)", "name-reserved", "(bot)"),  # full-width letters
    ("Zed (b0t)", "name-reserved", "(bot)"),  # a zero for the o
    ("Zed (robot)", "name-reserved", "(bot)"),
    ("Zed (computer)", "name-reserved", "(bot)"),
    ("Zed bot", "name-reserved", "(bot)"),
    ("Zed_bot", "name-reserved", "(bot)"),
    ("Zed (expert)", "name-reserved", "expert"),  # a computer level's mark
    ("Bo\u200bb", "name-unfit", "invisible"),  # a zero-width space
    ("\u202eannA", "name-unfit", "invisible"),  # a right-to-left override
    ("Anna\u2066", "name-unfit", "invisible"),  # a left-to-right isolate
    ("Anna\u200e", "name-unfit", "invisible"),  # a left-to-right mark
    ("An\u00adna", "name-unfit", "invisible"),  # a soft hyphen
    ("Anna\u3164", "name-unfit", "invisible"),  # a Hangul filler
    ("Anna\u2800", "name-unfit", "invisible"),  # the braille blank
    ("An\u200dna", "name-unfit", "invisible"),  # a zero-width joiner between letters
    ("Anna\ufe0f", "name-unfit", "invisible"),  # an emoji selector after a letter
    ("An\u2060na", "name-unfit", "invisible"),  # a word joiner
    ("Anna\ue000", "name-unfit", "invisible"),  # a private-use character
    ("Anna\t", "name-unfit", "invisible"),  # a control
    ("\u0410nna", "name-unfit", "scripts"),  # a Cyrillic А before Latin letters
    ("Zed Зed", "name-unfit", "scripts"),  # Latin and Cyrillic words
    ("Zed 1\u0661", "name-unfit", "digits"),  # digits of two number systems
    ("Ze\u0301\u0301d", "name-unfit", "marks"),  # the same accent twice
    ("Ze\u0300\u0301\u0302\u0303\u0304d", "name-unfit", "marks"),  # five accents on one letter
    ("\u0391\u039d\u03a4\u039f\u039d", "name-taken", "Anton"),  # Greek capitals, one script, Anton's skeleton
    ("\uff21\uff4e\uff4e\uff41", "name-taken", "Anna"),  # full width
    ("B0b", "name-taken", "Bob"),
    ("\u0392\u039f\u0392", "name-taken", "Bob"),  # Greek capitals
]

TAKEN = [
    "Annabel",
    "José",
    "Zoë",
    "Ελένη",
    "Иван",
    "山田たろう",  # Han and Hiragana: Japanese
    "田中 Taro",  # Latin with Japanese
    "김민준 Kim",  # Latin with Korean
    "李 ㄅ Li",  # Latin with Han and Bopomofo
    "タロー",  # a prolonged sound mark, Common with Katakana
    "شیرین",
    "می\u200cخواهم",  # a zero-width non-joiner between Arabic letters, as Persian writes it
    "क्\u200dष",  # a zero-width joiner after a virama
    "שרה",
    "👩\u200d👩\u200d👧 Fam",  # an emoji ZWJ sequence
    "❤\ufe0f Ann",  # an emoji presentation selector
    "👍🏽 Kim",
    "1\ufe0f\u20e3 One",  # a keycap
    "🏳\ufe0f\u200d🌈",
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Sco",  # a subdivision flag's tags
    "Abbot",
    "Talbot",
    "Hardy",
    "Ann-Marie O'Neil",
    "Zed 2",
]


def test_there_are_the_issue_s_37_look_alikes() -> None:
    assert len(LOOK_ALIKES) == 37
    assert len({name for name, _, _ in LOOK_ALIKES}) == 37


@pytest.mark.parametrize(("name", "code", "reason"), LOOK_ALIKES)
def test_each_look_alike_is_told_by_the_rules(name: str, code: str, reason: str) -> None:
    unfit = unfit_name(name)
    if code == "name-unfit":
        assert unfit is not None and unfit.why == reason, unfit
    else:
        assert unfit is None, unfit
        assert (reserved_like(name) if code == "name-reserved" else None) == (
            reason if code == "name-reserved" else None
        )


@pytest.mark.parametrize("name", TAKEN)
def test_names_in_their_own_scripts_and_emoji_are_fit(name: str) -> None:
    assert unfit_name(name) is None, unfit_name(name)
    assert reserved_like(name) is None


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app_in_process(tmp_path / "tables.sqlite3")) as made:
        yield made


def _names(client: TestClient) -> list[str]:
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    return sorted(str(name) for (name,) in store.read(lambda rows: rows("SELECT name FROM racko_players")))


def test_through_the_server_each_look_alike_is_refused_with_its_reason_and_nothing_is_made(client: TestClient) -> None:
    for name in ONLINE:
        person(client, name)
    refused: dict[str, Any] = {}
    for name, _, _ in LOOK_ALIKES:
        answer = client.post("/api/me", json={"name": name})
        client.cookies.clear()
        assert answer.status_code in (400, 409), (name, answer.text)
        assert COOKIE not in answer.cookies
        said = answer.json()
        refused[name] = (said["code"], said.get("why") or said.get("like"))
        assert said["error"], name
    assert refused == {name: (code, reason) for name, code, reason in LOOK_ALIKES}
    assert _names(client) == sorted(ONLINE)
    for name in TAKEN:
        answer = client.post("/api/me", json={"name": name})
        client.cookies.clear()
        assert answer.status_code == 200, (name, answer.text)


def test_the_refusals_say_why_in_words(client: TestClient) -> None:
    said = {}
    for name in ("Anna\U000e0041", "An\u03c4on", "Zed [bot]", "Zed 1\u0661", "Ze\u0301\u0301d"):
        said[name] = client.post("/api/me", json={"name": name}).json()["error"]
        client.cookies.clear()
    assert said == {
        "Anna\U000e0041": "“Anna?” holds a character that shows nothing or turns the text around (U+E0041 TAG LATIN "
        "CAPITAL LETTER A): write a name with visible characters only.",
        "An\u03c4on": "“Anτon” mixes Greek and Latin letters: write a name in one script (Latin may go with Chinese, "
        "Japanese or Korean).",
        "Zed [bot]": "“Zed [bot]” carries a bot's mark: only a bot account's seat is marked “(bot)”; choose another "
        "name.",
        "Zed 1\u0661": "“Zed 1١” mixes the digits of two number systems: use one.",
        "Ze\u0301\u0301d": "“Ze\u0301\u0301d” piles accents on a letter: at most 4, and never the same one twice.",
    }


def test_a_seat_s_name_at_a_table_is_held_to_the_same_rules(client: TestClient) -> None:
    """A guest who opens a seat's link names themselves at the table: the same refusals, in the table's frames."""
    made = client.post("/api/tables", json={"variant": "classic", "players": 2, "seats": ["person", "person"]}).json()
    client.cookies.clear()
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        ws.send_json({"type": "hello", "token": made["seats"][1]["token"], "version": 0})
        until(ws, "welcome")
        refusals = (("Anna\U000e0041", "name-unfit"), ("An\u03c4on", "name-unfit"), ("Zed [bot]", "name-reserved"))
        for name, code in refusals:
            ws.send_json({"type": "name", "name": name})
            error = until(ws, "error")
            assert error["code"] == code, (name, error)
        ws.send_json({"type": "name", "name": "Ελένη"})
        state = until(ws, "state")
        while state["view"]["names"][1] != "Ελένη":
            state = until(ws, "state")
