"""The words of the hints that explain themselves, the review, the lesson and the puzzles, in English, Dutch and
French: one set of sentence templates that the browser and the terminal share.

They are data of this package, one JSON file a room in ``analysis/words/`` (``hints``, ``review``, ``lesson``,
``puzzles``), each ``{"en": {key: template}, "nl": {...}, "fr": {...}}`` with the same keys in every language.  The
web server puts the rooms a page needs into that page (``racko.web.http.page_text``), so the page and the terminal
say the same sentences from the same keys.  A template names its values in braces (``{card}``), filled in one pass
as the page's ``t()`` does, so that a value that looks like ``{card}`` is never filled in itself.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from racko.errors import RackoError

LANGUAGES = ("en", "nl", "fr")
ROOMS = ("hints", "review", "lesson", "puzzles")
"""The analysis's rooms of words: ``analysis/words/<room>.json``."""
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def room_words(room: str) -> dict[str, dict[str, str]]:
    """One room's templates by language, then key, as its file holds them."""
    if room not in ROOMS:
        raise RackoError(f"The analysis has no words of {room!r}: choose one of {', '.join(ROOMS)}.")
    where = f"racko/analysis/words/{room}.json"
    try:
        text = resources.files("racko.analysis").joinpath("words", f"{room}.json").read_text(encoding="utf-8")
    except OSError as error:  # pragma: no cover - a broken installation
        raise RackoError(f"racko's words are missing ({where}): {error.strerror}.") from None
    return checked_words(json.loads(text), where)


def checked_words(data: Any, where: str) -> dict[str, dict[str, str]]:
    """``data`` as words (``{language: {key: template}}`` with text only); raises, naming ``where``, otherwise."""
    if not isinstance(data, dict) or set(data) != set(LANGUAGES):
        raise RackoError(f"{where} must hold the words of {', '.join(LANGUAGES)}.")
    for templates in data.values():
        if not isinstance(templates, dict) or not all(isinstance(text, str) for text in templates.values()):
            raise RackoError(f"{where} must hold a template of text for each key.")
    checked: dict[str, dict[str, str]] = data
    return checked


@cache
def words() -> dict[str, dict[str, str]]:
    """Every template of the analysis's rooms by language, then key."""
    loaded: dict[str, dict[str, str]] = {code: {} for code in LANGUAGES}
    for room in ROOMS:
        for code, templates in room_words(room).items():
            twice = loaded[code].keys() & templates.keys()
            if twice:  # pragma: no cover - caught by the tests before a release
                raise RackoError(f"The {room} words say {sorted(twice)[0]!r} a second time.")
            loaded[code].update(templates)
    return loaded


def language(code: str) -> str:
    """A language code as the words know it (``en``, ``nl``, ``fr``); raises with the choices otherwise."""
    chosen = code.strip().lower()[:2]
    if chosen not in LANGUAGES:
        raise RackoError(f"Unknown language {code!r}: choose one of {', '.join(LANGUAGES)}.")
    return chosen


def say(key: str, values: dict[str, Any] | None = None, lang: str = "en") -> str:
    """The sentence ``key`` in ``lang`` with its values filled in (English where a language lacks it)."""
    table = words()
    template = table.get(lang, {}).get(key) or table["en"].get(key)
    if template is None:
        raise RackoError(f"No words for {key!r}.")
    given = values or {}
    return _PLACEHOLDER.sub(lambda match: str(given[match[1]]) if match[1] in given else match[0], template)


def placeholders(template: str) -> set[str]:
    """The values a template names."""
    return set(_PLACEHOLDER.findall(template))
