"""The words of the review, the hints that explain themselves, the lesson and the puzzles, in English, Dutch and
French: one set of sentence templates that the browser and the terminal share.

They live where the browser loads its words, in blocks of their own (plain JSON between two marker lines,
``// <room>-words:begin`` and ``// <room>-words:end``, one block a room): the analysis's and the review's at the end
of the package's ``web/static/i18n.js``, which every page loads, the lesson's and the puzzles' in files of their own
beside it, which only their pages load.  They are read from those files here: the page and the terminal say the
same sentences from the same keys.  (A file read, not an import: this room stays below the web
server.)  A template names its values in braces (``{card}``), filled in one pass as the page's ``t()`` does, so that
a value that looks like ``{card}`` is never filled in itself.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import racko
from racko.errors import RackoError

LANGUAGES = ("en", "nl", "fr")
WORDS_FOLDER = Path(racko.__file__).parent / "web" / "static"
WORDS_FILES = tuple(WORDS_FOLDER / name for name in ("i18n.js", "lesson-words.js", "puzzles-words.js"))
# One block a room; its name is repeated in its end line, so that two blocks can never be read as one.
_BLOCK = re.compile(r"^// ([a-z]+)-words:begin$(.*?)^// \1-words:end$", re.MULTILINE | re.DOTALL)
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def words() -> dict[str, dict[str, str]]:
    """Every template by language, then key."""
    loaded: dict[str, dict[str, str]] = {code: {} for code in LANGUAGES}
    blocks: list[tuple[str, str]] = []
    for path in WORDS_FILES:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:  # pragma: no cover - a broken installation
            raise RackoError(f"racko's words are missing ({path}): {error.strerror}.") from None
        found = _BLOCK.findall(text)
        if not found:  # pragma: no cover - a broken installation
            raise RackoError(f"racko's words are missing from {path}.")
        blocks.extend(found)
    for room, block in blocks:
        for code, templates in json.loads(block).items():
            twice = loaded.setdefault(code, {}).keys() & templates.keys()
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
