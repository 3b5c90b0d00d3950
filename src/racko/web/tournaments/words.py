"""The tournaments room's words where the server says them itself (its pushes), in a device's language."""

from __future__ import annotations

import functools

from racko.web.core import room_words_of


@functools.cache
def _words() -> dict[str, dict[str, str]]:
    return room_words_of("tournaments")


def push_words(lang: str) -> dict[str, str]:
    """The room's words in ``lang`` (English for a language racko does not speak)."""
    words = _words()
    return {**words["en"], **words.get(lang, {})}


def words_languages() -> tuple[str, ...]:
    """The languages the room's words are in."""
    return tuple(_words())
