"""High-Low Rack-O's cards (sheet 003): numbers 1-50 twice, six Wild and six Swap; how they are named and written."""

from __future__ import annotations

from typing import Any

from racko.errors import SetupError
from racko.rules import HIGHLOW_DECK_SIZE, is_whole

WILD = 0
"""The Wild card: any number, chosen at the end of the hand."""
SWAP = -1
"""The Swap card: never stays in a row; it lets players swap two cards of their row."""
HIGHEST = 50


def card_name(card: int) -> str:
    """How a card is written: its number, ``W`` or ``S``."""
    if card == WILD:
        return "W"
    if card == SWAP:
        return "S"
    return str(card)


def highlow_deck() -> list[int]:
    """The 112 cards: two of each number 1-50, six Wild, six Swap (sheet 003, Contents)."""
    deck = [n for n in range(1, HIGHEST + 1) for _ in range(2)] + [WILD] * 6 + [SWAP] * 6
    assert len(deck) == HIGHLOW_DECK_SIZE
    return deck


def card_to_json(card: int) -> int | str:
    """Numbers stay numbers; the Wild is written ``"W"`` and the Swap ``"S"``."""
    return card if card > 0 else card_name(card)


def card_from_json(value: Any) -> int:
    if value == "W":
        return WILD
    if value == "S":
        return SWAP
    if is_whole(value) and 1 <= value <= HIGHEST:
        return value
    raise SetupError(f'{value!r} is not a High-Low card (a number 1-50, "W" or "S").')


def cut_value(card: int) -> int:
    """A card's value when cutting for the deal: Swap and Wild count as 0."""
    return max(card, 0)
