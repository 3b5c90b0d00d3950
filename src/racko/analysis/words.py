"""The words of the hints that explain themselves, the review, the lesson and the puzzles, in English, Dutch and
French: one set of sentence templates that the browser and the terminal share.

They are data of this package, one JSON file a room in ``analysis/words/`` (``hints``, ``review``, ``lesson``,
``puzzles``), each ``{"en": {key: template}, "nl": {...}, "fr": {...}}`` with the same keys in every language.  The
web server puts the rooms a page needs into that page (``racko.web.http.page_text``), so the page and the terminal
say the same sentences from the same keys.

A template names its values in braces, a small part of ICU's message format that the page's ``t()`` (the web's core
room) reads the same way, with the browser's ``Intl`` where this reads CLDR through Babel:

- ``{card}``: the value; a number is written by the language's rules ("2,112", "2.112", "2 112"; "9.7", "9,7");
- ``{chance, percent}``: a number given in percent (0 to 100), written as the language writes a percentage, to a
  tenth at most ("60.9%", "60,9%", "60,9 %");
- ``{count, plural, one {# card} other {# cards}}``: the branch of the number's plural category in the language
  (CLDR's: French says 0 and 1 in the singular), ``=N`` for the number N itself; ``#`` is the number, written as
  above;
- ``{bound, select, above {more than} other {about}}``: the branch named by the value (``other`` otherwise).

Values are filled in one pass, so that a value that looks like ``{card}`` is never filled in itself; a value not
given leaves its placeholder as it is.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale
from babel.numbers import format_decimal, parse_pattern

from racko.errors import RackoError

LANGUAGES = ("en", "nl", "fr")
ROOMS = ("hints", "review", "lesson", "puzzles")
"""The analysis's rooms of words: ``analysis/words/<room>.json``."""
_NAME = re.compile(r"\s*(\w+)\s*")
STYLES = ("number", "percent", "plural", "select")
"""The kinds of placeholder a template may hold besides a plain value."""


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
        for key, text in templates.items():
            try:
                parse(text)
            except ValueError as error:
                raise RackoError(f"{where}: the template of {key!r} is malformed ({error}).") from None
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
    return fill(template, values or {}, lang if lang in LANGUAGES else "en")


# --- Templates -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placeholder:
    """One ``{...}`` of a template: the value it names, its style, and the branches of a plural or a select."""

    name: str
    style: str = ""
    branches: tuple[tuple[str, Message], ...] = ()
    raw: str = ""
    """The placeholder as written, kept where its value is not given."""


Message = tuple[str | Placeholder, ...]
"""A template parsed: its text and its placeholders, in order."""


@cache
def parse(template: str) -> Message:
    """A template's parts; raises ``ValueError`` where its braces do not make placeholders (see the module)."""
    parts, _ = _parse(template, 0, top=True)
    return parts


def _parse(text: str, start: int, *, top: bool) -> tuple[Message, int]:
    parts: list[str | Placeholder] = []
    plain = start
    index = start
    while index < len(text):
        char = text[index]
        if char == "}":
            if top:
                raise ValueError(f"a '}}' without its '{{' at {index}")
            break
        if char == "{":
            if index > plain:
                parts.append(text[plain:index])
            placeholder, index = _placeholder(text, index)
            parts.append(placeholder)
            plain = index
            continue
        index += 1
    else:
        if not top:
            raise ValueError("a branch without its closing '}'")
    if index > plain:
        parts.append(text[plain:index])
    return tuple(parts), index


def _placeholder(text: str, start: int) -> tuple[Placeholder, int]:
    """The placeholder opening at ``start`` (its ``{``), and where the text goes on after it."""
    name = _NAME.match(text, start + 1)
    if name is None:
        raise ValueError(f"a '{{' that names no value at {start}")
    index = name.end()
    if text.startswith("}", index):
        return Placeholder(name[1], raw=text[start : index + 1]), index + 1
    if not text.startswith(",", index):
        raise ValueError(f"{{{name[1]} is not closed")
    style = _NAME.match(text, index + 1)
    if style is None or style[1] not in STYLES:
        raise ValueError(f"{{{name[1]}, ...}} has no style of {', '.join(STYLES)}")
    index = style.end()
    if style[1] in ("number", "percent"):
        if not text.startswith("}", index):
            raise ValueError(f"{{{name[1]}, {style[1]} is not closed")
        return Placeholder(name[1], style[1], raw=text[start : index + 1]), index + 1
    if not text.startswith(",", index):
        raise ValueError(f"{{{name[1]}, {style[1]}}} has no branches")
    index += 1
    branches: list[tuple[str, Message]] = []
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        if text.startswith("}", index):
            break
        selector = re.compile(r"=?\w+").match(text, index)
        if selector is None:
            raise ValueError(f"a branch of {{{name[1]}}} has no name at {index}")
        index = selector.end()
        while index < len(text) and text[index].isspace():
            index += 1
        if not text.startswith("{", index):
            raise ValueError(f"the branch {selector[0]} of {{{name[1]}}} has no text")
        branch, index = _parse(text, index + 1, top=False)
        branches.append((selector[0], branch))
        index += 1  # its closing brace
    if not any(selector == "other" for selector, _ in branches):
        raise ValueError(f"{{{name[1]}, {style[1]}}} has no branch 'other'")
    return Placeholder(name[1], style[1], tuple(branches), text[start : index + 1]), index + 1


def placeholders(template: str) -> set[str]:
    """The values a template names."""
    found: set[str] = set()

    def walk(message: Message) -> None:
        for part in message:
            if isinstance(part, Placeholder):
                found.add(part.name)
                for _, branch in part.branches:
                    walk(branch)

    walk(parse(template))
    return found


def fill(template: str, values: dict[str, Any], lang: str = "en") -> str:
    """``template`` with ``values`` filled in by the rules of ``lang`` (see the module)."""
    return _fill(parse(template), values, lang, None)


def _fill(message: Message, values: dict[str, Any], lang: str, count: Any) -> str:
    said: list[str] = []
    for part in message:
        if isinstance(part, str):
            if count is not None and "#" in part:
                part = part.replace("#", number_text(count, lang))
            said.append(part)
            continue
        if part.name not in values:
            said.append(part.raw)
            continue
        value = values[part.name]
        if part.style == "percent":
            said.append(percent_text(value, lang))
        elif part.style in ("plural", "select"):
            chosen = _branch(part, value, lang)
            said.append(_fill(chosen, values, lang, value if part.style == "plural" else count))
        else:
            said.append(number_text(value, lang) if _is_number(value) else str(value))
    return "".join(said)


def _branch(part: Placeholder, value: Any, lang: str) -> Message:
    branches = dict(part.branches)
    if part.style == "plural" and _is_number(value):
        exact = f"={value:g}" if isinstance(value, float) else f"={value}"
        if exact in branches:
            return branches[exact]
        category = Locale.parse(lang).plural_form(value)
        return branches.get(category, branches["other"])
    return branches.get(str(value), branches["other"])


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def number_text(value: Any, lang: str = "en") -> str:
    """A number as ``lang`` writes it (CLDR's decimal format: its decimal mark and grouping), as it is given (up to
    three decimals)."""
    if not _is_number(value):
        return str(value)
    return str(format_decimal(value, locale=lang))


@cache
def _percent_pattern(lang: str) -> Any:
    pattern = copy.copy(parse_pattern(Locale.parse(lang).percent_formats[None]))
    pattern.frac_prec = (0, 1)  # to a tenth at most, as the page's Intl.NumberFormat (maximumFractionDigits 1)
    return pattern


def percent_text(value: Any, lang: str = "en") -> str:
    """A number given in percent (0 to 100) as ``lang`` writes a percentage, to a tenth at most."""
    if not _is_number(value):
        return str(value)
    return str(_percent_pattern(lang).apply(Decimal(str(value)) / 100, Locale.parse(lang)))
