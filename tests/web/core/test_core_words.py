"""Words as data (issue 36): every room's words are a JSON file of the package in English, Dutch and French with the
same keys and the same values named in each; no key is said by two rooms; each page carries the words of the rooms
it names in a data block, and every key its page and its scripts say is among them; no word is left in a script;
racko.analysis.words reads its own package's data, and every key Python says is there."""

from __future__ import annotations

import json
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

import racko
from racko.analysis.words import LANGUAGES, ROOMS, placeholders, room_words, words
from racko.web.core import LANGUAGE_COOKIE, WEB, WORDS_MARK, page_language, page_text, page_words, room_words_of

PACKAGE = Path(racko.__file__).parent
WEB_ROOMS = sorted(path.parent.name for path in (PACKAGE / "web").glob("*/words.json"))
ALL_ROOMS = WEB_ROOMS + [f"analysis:{room}" for room in ROOMS]
PAGES = sorted(path.relative_to(WEB).as_posix().replace("/static/", "/") for path in WEB.glob("*/static/[!_]*.html"))
"""Every page as ``room/page.html``."""
LIBRARIES = ("core/i18n.js", "core/people.js")
"""Scripts of functions that other scripts call: a page says the words of those of their functions it calls."""
ANALYSIS_SENTENCES = {
    "table/table.html": {"analysis:hints"},
    "review/review.html": {"analysis:hints", "analysis:review"},
    "puzzles/puzzles.html": {"analysis:hints", "analysis:puzzles"},
    "learn/learn.html": {"analysis:lesson"},
}
"""The analysis rooms whose sentences the server sends a page as keys and values (hints, reviews, puzzles, steps)."""


def test_the_rooms_are_the_ones_the_pages_are_made_of() -> None:
    assert WEB_ROOMS == [
        "bots", "core", "learn", "lobby", "players", "push", "puzzles", "ratings", "review", "table", "tournaments"
    ]  # fmt: skip
    assert sorted(path.stem for path in (PACKAGE / "analysis" / "words").glob("*.json")) == sorted(ROOMS)


@pytest.mark.parametrize("room", ALL_ROOMS)
def test_every_room_says_each_key_in_every_language_with_the_same_values(room: str) -> None:
    said = room_words_of(room)
    assert list(said) == list(LANGUAGES)
    english = said["en"]
    assert english, room
    for language in LANGUAGES:
        assert said[language].keys() == english.keys(), (language, english.keys() ^ said[language].keys())
        for key, template in said[language].items():
            assert template.strip(), (language, key)
            assert placeholders(template) == placeholders(english[key]), (language, key)


def test_no_key_is_said_by_two_rooms() -> None:
    homes: dict[str, list[str]] = {}
    for room in ALL_ROOMS:
        for key in room_words_of(room)["en"]:
            homes.setdefault(key, []).append(room)
    assert {key: rooms for key, rooms in homes.items() if len(rooms) > 1} == {}
    with pytest.raises(ValueError, match="a second time"):
        page_words(("core", "core"))


def test_the_analysis_reads_its_own_words_from_its_package() -> None:
    folder = PACKAGE / "analysis" / "words"
    for room in ROOMS:
        assert room_words(room) == json.loads((folder / f"{room}.json").read_text(encoding="utf-8"))
    assert set(words()) == set(LANGUAGES)
    assert sum(len(room_words(room)["en"]) for room in ROOMS) == len(words()["en"])
    source = (PACKAGE / "analysis" / "words.py").read_text(encoding="utf-8")
    assert not re.search(r"static|\.js\b", source)  # no word is read from the front end's files


def _python_keys() -> set[str]:
    """The keys Python says by name: ``say("…")``, ``words("…")`` and ``Sentence("…")`` with a literal key."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        found |= set(re.findall(r'\b(?:say|words|Sentence)\(\s*"([a-z]+:[\w:-]*\w)"', path.read_text(encoding="utf-8")))
    return found


def test_every_key_python_says_is_among_the_analysis_words() -> None:
    keys = _python_keys()
    assert len(keys) > 50
    assert keys - words()["en"].keys() == set()


def test_the_word_files_are_package_data() -> None:
    config = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["racko"]
    files = [*(PACKAGE / "web").glob("*/words.json"), *(PACKAGE / "analysis" / "words").glob("*.json")]
    for path in files:
        inside = path.relative_to(PACKAGE).as_posix()
        assert any(fnmatch(inside, pattern) for pattern in patterns), inside


# --- the pages ----------------------------------------------------------------------------------------------------


def _file(path: str) -> Path:
    """A file of a room's ``static/`` named ``room/file`` (as it is served under ``/static/``)."""
    room, name = path.split("/")
    return WEB / room / "static" / name


def _served(page: str, language: str = "en") -> str:
    room, name = page.split("/")
    return page_text(room, name, language)


def _rooms_of(page: str) -> list[str]:
    marks = WORDS_MARK.findall(_file(page).read_text(encoding="utf-8"))
    assert len(marks) == 1, f"{page} names the rooms of its words once"
    rooms: list[str] = marks[0].split()
    return rooms


def _embedded(page: str, language: str = "en") -> dict[str, dict[str, str]]:
    """The words the served page carries, read as its i18n.js reads them."""
    text = _served(page, language)
    blocks = re.findall(r'<script type="application/json" id="racko-words"[^>]*>(.*?)</script>', text, flags=re.S)
    assert len(blocks) == 1, page
    assert "<" not in blocks[0]  # nothing in it can end the block early
    said: dict[str, dict[str, str]] = json.loads(blocks[0])
    return said


@pytest.mark.parametrize("page", PAGES)
def test_every_page_carries_the_words_of_the_rooms_it_names(page: str) -> None:
    rooms = _rooms_of(page)
    assert rooms[0] == "core" and set(rooms) <= set(ALL_ROOMS), rooms
    words = page_words(tuple(rooms))
    # English (every language's fallback) and the page's own language: another comes when the person chooses it.
    assert _embedded(page) == {"en": words["en"]}
    assert _embedded(page, "fr") == {"en": words["en"], "fr": words["fr"]}
    assert ANALYSIS_SENTENCES.get(page, set()) == {room for room in rooms if room.startswith("analysis:")}
    assert "<!--words" not in _served(page)
    # Nothing inline is run (the pages' script-src is 'self'): every script is a file, but the words' data block.
    scripts = re.findall(r"<script([^>]*)>", _served(page))
    data = f' type="application/json" id="racko-words" data-rooms="{" ".join(rooms)}"'
    assert all(" src=" in script or script == data for script in scripts)


_CALL = re.compile(r"(?:(?<=\.\.\.)|(?<![\w.$]))(?:t|tNodes)\(")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _first_argument(text: str, start: int) -> str:
    """The source of a call's first argument, the call's opening parenthesis just before ``start``."""
    depth, index, quote = 0, start, ""
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif char in ")]}," and not depth:
            return text[start:index]
        index += 1
    raise AssertionError(f"an unended call: {text[start - 10 : start + 60]!r}")


def _keys_said(code: str) -> tuple[set[str], set[str]]:
    """The keys ``code`` gives t() and tNodes() whole (``t("key")``, ``t(done ? "a" : "b")``), and the beginnings of
    the keys it builds (``"ev:" + kind``)."""
    whole: set[str] = set()
    for call in _CALL.finditer(code):
        argument = _first_argument(code, call.end())
        for string in _STRING.finditer(argument):
            before, after = argument[: string.start()].rstrip(), argument[string.end() :].lstrip()
            if not (before.endswith(("+", "=")) or after.startswith(("+", "=", "!"))):  # built, or compared
                whole.add(string[1])
    built = set(re.findall(r'"([\w:-]+[:-])"\s*\+', code))
    return whole, built


def _functions(code: str) -> dict[str, str]:
    """A script's top-level functions by name: their source."""
    found = re.finditer(r"^(?:async )?function (\w+)\(.*?^\}$", code, flags=re.M | re.S)
    return {function[1]: function[0] for function in found}


def _page_code(page: str) -> str:
    """The code of a page's own scripts, and of the functions of the libraries they call (and those call)."""
    scripts = re.findall(r'<script src="/static/(\w+/[\w-]+\.js)"', _served(page))
    assert all(_file(script).is_file() for script in scripts), scripts
    code = [_file(script).read_text(encoding="utf-8") for script in scripts if script not in LIBRARIES]
    library = {
        name: body
        for script in scripts
        if script in LIBRARIES
        for name, body in _functions(_file(script).read_text(encoding="utf-8")).items()
    }
    called: set[str] = {"translatePage", "watchLanguage"}
    waiting = list(code) + [library[name] for name in called]
    while waiting:
        text = waiting.pop()
        for name, body in library.items():
            if name not in called and re.search(rf"(?:(?<=\.\.\.)|(?<![\w.$])){name}\(", text):
                called.add(name)
                waiting.append(body)
    return "\n".join(code + [library[name] for name in sorted(called)])


@pytest.mark.parametrize("page", PAGES)
def test_every_key_a_page_says_is_in_the_words_it_carries(page: str) -> None:
    said = _embedded(page)["en"]
    whole, built = _keys_said(_page_code(page))
    whole |= set(re.findall(r'data-t="([^"]+)"', _served(page)))
    assert whole - said.keys() == set(), page
    # A key built from a beginning that some room's keys have (not an address or an answer's code) finds some here.
    beginnings = {
        start
        for start in built
        if any(key.startswith(start) for room in ALL_ROOMS for key in room_words_of(room)["en"])
    }
    assert {start for start in beginnings if not any(key.startswith(start) for key in said)} == set(), page


def test_the_key_finder_finds_what_a_page_says() -> None:
    code = 'x(t("a"), tNodes("b", {}), t(on ? "c" : "d"), t(kind === "e" ? "f" : "g"), t("h:" + kind), ...tNodes("i"))'
    whole, built = _keys_said(code)
    assert whole == {"a", "b", "c", "d", "f", "g", "i"} and built == {"h:"}
    assert _rooms_of("table/table.html") == ["core", "table", "analysis:hints"]


def test_no_word_is_left_in_a_script() -> None:
    for script in WEB.glob("*/static/*.js"):
        code = script.read_text(encoding="utf-8")
        assert "Object.assign(WORDS." not in code and "-words:begin" not in code, script.name
        assert not script.name.endswith("-words.js"), script.name
    i18n = _file("core/i18n.js").read_text(encoding="utf-8")
    assert "const WORDS = { en: {}, nl: {}, fr: {} };" in i18n and 'getElementById("racko-words")' in i18n


def test_a_page_comes_in_the_language_chosen_else_the_browser_s_and_another_s_words_are_asked_for() -> None:
    assert page_language("fr", "nl-NL,nl;q=0.9") == "fr"  # chosen on a page (the cookie) beats the browser
    assert page_language(None, "de-DE,de;q=0.9,nl;q=0.8,en;q=0.5") == "nl"
    assert page_language("xx", "de") == "en" and page_language(None, None) == "en"
    from starlette.testclient import TestClient

    from racko.web.app import ServerSettings, create_app
    from racko.web.store import SqliteTables

    with TestClient(create_app(SqliteTables(":memory:"), ServerSettings(pace=0.0))) as client:
        dutch = client.get("/", headers={"Accept-Language": "nl-BE,nl;q=0.9"})
        assert '"nl":{' in dutch.text and '"fr":{' not in dutch.text and "Cookie" in dutch.headers["vary"]
        client.cookies.set(LANGUAGE_COOKIE, "fr")
        assert '"fr":{' in client.get("/").text
        client.cookies.clear()
        answer = client.get("/api/words/fr", params={"rooms": "core table analysis:hints"})
        assert answer.status_code == 200
        assert answer.json() == page_words(("core", "table", "analysis:hints"))["fr"]
        for wrong in ("/api/words/de?rooms=core", "/api/words/fr?rooms=core+nowhere", "/api/words/fr"):
            assert client.get(wrong).status_code == 404, wrong
