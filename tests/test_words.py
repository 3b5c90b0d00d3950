"""The Dutch and French words read as a native speaker writes them (issue 37): the rule sheets' own words for the game's
things (rekje, gleuf, stok, aflegstapel; the French sheet's Rack), the plural where a sentence names several slots,
one label for one command, a small letter after a colon, and the typography each language keeps throughout.
(That every language says every key with the English values is tests/web/core/test_core_words.py's.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import racko
from racko.analysis.words import ROOMS, say
from racko.web.core import room_words_of

WEB_ROOMS = sorted(path.parent.name for path in (Path(racko.__file__).parent / "web").glob("*/words.json"))
ALL_ROOMS = WEB_ROOMS + [f"analysis:{room}" for room in ROOMS]
SLOT = r"(?:\d+|\{\w*(?:slot|from|to|upto|broken)\w*\})"
"""A slot as a template says it: its label (5 … 50) or a value named for a slot."""
SEVERAL_SLOTS = {
    "nl": re.compile(rf"\bgleuf\s+{SLOT}(?:\s*(?:,|en|tot|t/m|–|-)\s*{SLOT})+", re.IGNORECASE),
    "fr": re.compile(rf"\bcase\s+{SLOT}(?:\s*(?:,|et|à|–|-)\s*{SLOT})+", re.IGNORECASE),
}
"""One slot's word before two or more slots ("gleuf 5 tot 30", "in gleuf 40, 45 en 50"): the plural is wanted."""
KEY_LISTS = ("keys_help", "puzzle:keys", "lesson:keys", "lesson:term-help")
"""The sentences that list the keys or commands of a page or of the terminal, as "key what it does, …"."""
LESSON_BUTTONS = ("lesson:continue", "lesson:play-on", "lesson:restart")
"""The lesson's buttons of a step, shown together."""


def _said(language: str) -> list[tuple[str, str, str]]:
    """Every template of ``language`` as (room, key, template)."""
    return [(room, key, text) for room in ALL_ROOMS for key, text in room_words_of(room)[language].items()]


def _templates(language: str) -> dict[str, str]:
    return {key: text for _, key, text in _said(language)}


@pytest.mark.parametrize("language", ["nl", "fr"])
def test_several_slots_take_the_plural(language: str) -> None:
    assert SEVERAL_SLOTS["nl"].search("de gleuf 5 tot 30 lopen op") and SEVERAL_SLOTS["nl"].search(
        "in gleuf 40, 45 en 50"
    )
    assert not SEVERAL_SLOTS["nl"].search(
        "{first} in gleuf 15 en {second} in gleuf 35, of gleuf {slot} of {other_slot}"
    )
    wrong = [(key, match[0]) for _, key, text in _said(language) for match in SEVERAL_SLOTS[language].finditer(text)]
    assert wrong == []


def test_the_rack_is_called_as_the_rule_sheets_call_it() -> None:
    dutch = [(key, text) for _, key, text in _said("nl") if re.search(r"\b(?:rek|rekken)\b", text, re.IGNORECASE)]
    assert dutch == []  # "rekje", "rekjes" as the Dutch sheet says
    french = [(key, text) for _, key, text in _said("fr") if re.search(r"\bsupports?\b", text, re.IGNORECASE)]
    assert french == []  # "Rack" as the French sheet says (« Les classeurs en plastique ou 'Rack' »)
    assert _templates("fr")["rack_of"].startswith("Rack ") and _templates("nl")["rack_of"].startswith("Rekje ")


def _first_words(listing: str) -> list[str]:
    """The first word of what each key of a list like "Keys: d draw, 1-9 and 0 a slot, …" does."""
    items = listing.split(":", 1)[1].rstrip(".").split(",")
    key = re.compile(r"^\s*(?:1-9 (?:and|en|et) 0|5 10 … 50|\S+)\s+")
    return [key.sub("", item).split()[0].lower() for item in items]


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_no_two_commands_share_a_label(language: str) -> None:
    said = _templates(language)
    for listing in KEY_LISTS:
        words = _first_words(said[listing])
        assert len(words) == len(set(words)), (listing, words)
    buttons = [said[key].split()[0].lower() for key in LESSON_BUTTONS]
    assert len(buttons) == len(set(buttons)), buttons
    assert _first_words("Commandes : w continuer à jouer, Entrée continuer.") == ["continuer", "continuer"]


@pytest.mark.parametrize(("language", "not_quite"), [("nl", "Niet helemaal"), ("fr", "Pas tout à fait")])
def test_a_sentence_after_not_quite_is_not_put_after_a_colon(language: str, not_quite: str) -> None:
    # The terminal's lesson puts a whole sentence, capital and all, after "Not quite"; after a colon Dutch and French
    # go on in small letters, so the sentence comes after a full stop.
    why = say("lesson:why-must-place", {"card": 19}, language)
    assert why[0].isupper()
    said = say("lesson:term-wrong", {"why": why}, language)
    assert said.startswith(not_quite) and not re.search(r":\s*[A-ZÀ-Ý]", said), said


def test_french_and_dutch_keep_one_typography() -> None:
    for _, key, text in _said("fr"):
        # A space before ? ! ; : (as every French string here has it), curly apostrophes, « » with their spaces.
        assert not re.search(r"\S[?!;:](?=\s|$)", text), (key, text)
        assert "'" not in text and "«" not in re.sub(r"« ", "", text) and "»" not in re.sub(r" »", "", text), (
            key,
            text,
        )
    for _, key, text in _said("nl"):
        assert not re.search(r"\s[?!;:]\S", text) and "'" not in text, (key, text)


# --- Numbers and plurals by the language's rules (issue 48) -------------------------------------------------------


def test_numbers_and_percentages_are_written_as_each_language_writes_them() -> None:
    values = {"chance": 60.9, "playouts": 2112, "round": 93}
    assert "60.9% of the time" in say("why:best-game", values, "en") and "2,112 play-outs" in say(
        "why:best-game", values
    )
    dutch, french = say("why:best-game", values, "nl"), say("why:best-game", values, "fr")
    assert "60,9%" in dutch and "2.112 nagespeelde" in dutch and "60.9" not in dutch
    assert "60,9\u00a0%" in french and "2\u202f112" in french and "60.9" not in french


def test_counts_take_the_plural_the_language_gives_them() -> None:
    """CLDR's rules: 1 is singular in English and Dutch, 0 and 1 in French; "(1 daarvan kunnen …)" and
    "(1 peuvent …)" were what the hand-written words said."""
    one = {"from": 35, "low": 22, "high": 27, "may": 1}
    assert "(1 daarvan kan nog komen)" in say("why:room-between-one", one, "nl")
    assert "(1 peut encore venir)" in say("why:room-between-one", one, "fr")
    assert "(0 peut encore venir)" in say("why:room-between-one", {**one, "may": 0}, "fr")
    assert "(2 daarvan kunnen nog komen)" in say("why:room-between-one", {**one, "may": 2}, "nl")
    draw = {"top": 3, "fit": 1, "may": 1}
    assert say("why:draw-empty", draw) == "1 of the 1 card that may come fits an open slot."


def test_a_difference_of_chances_is_said_in_percentage_points() -> None:
    """ "9.7 points ahead" read as Rack-O's score points."""
    for key in ("why:best-ahead", "why:best-ahead-game", "why:behind-game", "why:stake-game"):
        english, french = say(key, {"points": 9.7, "second": 50, "share": 20, "stake": 26}), say(key, {}, "fr")
        assert "percentage points" in english, key
        assert "points de pourcentage" in french, key


def test_the_dutch_hints_call_the_discard_pile_as_the_dutch_sheet_does() -> None:
    """The Dutch sheet's "stapel" is the stock ("de stok of stapel"); the discard pile is the aflegstapel."""
    for room in ALL_ROOMS:
        for key, text in room_words_of(room)["nl"].items():
            assert not re.search(r"\bstapel\b", text, re.IGNORECASE), (room, key, text)
