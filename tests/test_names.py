"""Players' names as every front end keeps them (racko.play.text.plain_name): what could disguise a name or drive a
terminal goes, what writes a name in its own script or an emoji sequence stays."""

from __future__ import annotations

import pytest

from racko.play.text import plain_name

FAMILY = "👩\u200d👩\u200d👧"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


@pytest.mark.parametrize(
    "name",
    [
        FAMILY,  # zero-width joiners
        "❤\ufe0f Ann",  # a variation selector (emoji presentation)
        "👍🏽",  # a skin tone modifier
        SCOTLAND,  # tag characters of a subdivision flag
        "می\u200cخواهم",  # a zero-width non-joiner, as Persian writes it
        "שרה",  # right to left: the page isolates it; the name itself is plain
        "Zoë",
    ],
)
def test_joiners_variation_selectors_and_scripts_stay(name: str) -> None:
    assert plain_name(name) == name


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("\u202eboB", "?boB"),  # right-to-left override
        ("A\u2067B\u2069", "A?B?"),  # right-to-left isolate and its end
        ("A\u202aB\u202c", "A?B?"),  # embedding
        ("Ann\u200fX", "Ann?X"),  # right-to-left mark
        ("Bo\u200bb", "Bo?b"),  # an invisible space that could make two names look alike
        ("Cy\x1b[2J", "Cy?[2J"),  # a terminal's escape sequence
        ("Dee\x00\x07", "Dee??"),  # controls
        ("Eve\ud800", "Eve?"),  # a lone surrogate
    ],
)
def test_what_could_disguise_a_name_or_drive_a_terminal_becomes_a_question_mark(name: str, kept: str) -> None:
    assert plain_name(name) == kept


def test_a_name_is_cut_and_never_empty() -> None:
    assert plain_name("x" * 100, limit=24) == "x" * 24
    assert plain_name("   ") == "?"
