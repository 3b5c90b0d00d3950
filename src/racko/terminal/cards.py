"""How the terminal app draws a card: tinted along a scale by its number, so that a rack's order shows at a glance.

Low cards are a cool blue, high cards a warm red, through teal, green and amber; the number on a card is black or
white, whichever stands out more from its tint (at least 4.5 : 1, the contrast asked of text on the web).  Colour
is never the only sign: the number is always written, and the marks on a card are symbols (with ``NO_COLOR`` set,
Textual drops every colour and the symbols remain).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.css.types import EdgeType

from racko.highlow import SWAP, WILD, card_name

SCALE = (
    (0.0, Color(38, 84, 166)),  # blue
    (0.25, Color(32, 150, 160)),  # teal
    (0.5, Color(118, 184, 82)),  # green
    (0.75, Color(240, 184, 56)),  # amber
    (1.0, Color(222, 76, 56)),  # red
)
"""The tint scale from the lowest card (0) to the highest (1)."""

WILD_TINT = Color(236, 236, 236)
SWAP_TINT = Color(142, 68, 173)
BACK_TINT = Color(70, 74, 96)
"""A card face down (a hidden rack behind the curtain)."""

BLACK = Color(0, 0, 0)
WHITE = Color(255, 255, 255)

MARK_IN_ORDER = "✓"
"""On a card of the start of the rack that is in order: it scores now."""
MARK_BREAK = "✗"
"""On the first card out of order."""
MARK_RUN = "»"
"""On a card of a run of three consecutive numbers (where the rules count runs)."""
MARK_PLACED = "✦"
"""On the card just placed."""


def tint(card: int, highest: int) -> Color:
    """The colour of a card: its place between 1 and ``highest`` along :data:`SCALE`; the Wild and the Swap apart."""
    if card == WILD:
        return WILD_TINT
    if card == SWAP:
        return SWAP_TINT
    where = min(max((card - 1) / max(highest - 1, 1), 0.0), 1.0)
    for (start, low), (stop, high) in pairwise(SCALE):
        if where <= stop:
            return low.blend(high, (where - start) / (stop - start))
    return SCALE[-1][1]


def contrast(first: Color, second: Color) -> float:
    """The contrast ratio of two colours (1 to 21), as WCAG defines it from their relative luminance."""
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def ink(background: Color) -> Color:
    """Black or white, whichever contrasts more with ``background``."""
    return BLACK if contrast(BLACK, background) >= contrast(WHITE, background) else WHITE


def _luminance(color: Color) -> float:
    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b)


def chip(card: int | None, highest: int, width: int = 3) -> Text:
    """A card in a line of text (another player's rack or row): its number on its tint; ``?`` where unknown."""
    if card is None:
        return Text(f"{'?':>{width}}")
    background = tint(card, highest)
    style = Style(color=ink(background).rich_color, bgcolor=background.rich_color)
    return Text(f"{card_name(card):>{width}}", style=style)


CARD_WIDTH = 5
"""The inside of a card on the rack, in columns (its border is round it)."""


@dataclass(frozen=True)
class Face:
    """A card as a widget shows it: the text on it, its colours and its border."""

    text: Text
    background: Color | None
    """``None``: no card (an empty discard pile), the table shows through."""
    color: Color | None
    border: tuple[EdgeType, Color]


def card_face(
    card: int | None,
    highest: int,
    table: Color,
    frame: Color,
    *,
    label: str | None = None,
    signs: str = "",
    face_down: bool = False,
    placed: bool = False,
    broken: bool = False,
    no_color: bool = False,
) -> Face:
    """How a card looks: its number on its tint, inset from the ``table`` colour by half-block borders (the card just
    ``placed`` by a ``frame`` of that colour instead); a slot's ``label`` and marks (``signs``) above the number.

    Without colour (``no_color``) the border's shape says more: a heavy frame for the card just placed, a double one
    where the order is ``broken``, a round one for the others.
    """
    if face_down or card is None:
        background = BACK_TINT if face_down else None
        number = "?" if face_down else ""
    else:
        background = tint(card, highest)
        number = {WILD: "Wild", SWAP: "Swap"}.get(card, card_name(card))
    text = Text(number, style="bold")
    if label is not None:
        corner = Text(label.ljust(CARD_WIDTH - len(signs)), style="dim" if face_down else "")
        text = Text.assemble(corner, signs, "\n", text)
    color = None if background is None else ink(background)
    border: tuple[EdgeType, Color]
    if no_color:
        border = ("heavy" if placed else "double" if broken else "round", WHITE)
    elif background is None:
        border = ("round", BACK_TINT)
    else:
        border = ("outer", frame if placed else table)
    return Face(text, background, color, border)
