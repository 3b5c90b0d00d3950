"""High-Low Rack-O's decisions, as frozen values: where the card in hand goes (:class:`Replace`) and, after a
Swap card, which two cards of the row to swap (:class:`SwapCards`) or none (:class:`KeepOrder`).  Positions are
indexes 0-9 from the left end of the row; records write them 1-10.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

from racko.errors import UnknownActionError
from racko.rules import RACK_SIZE, is_whole


@dataclass(frozen=True, slots=True)
class Replace:
    """Put the card in hand in place of the card at ``position`` (0 = left end); that card moves on."""

    seat: int
    position: int
    kind: ClassVar[str] = "replace"

    def describe(self) -> str:
        if isinstance(self.position, int) and 0 <= self.position < RACK_SIZE:
            return f"replace card {self.position + 1} of the row"
        return f"replace card at index {self.position!r}"


@dataclass(frozen=True, slots=True)
class SwapCards:
    """After a Swap card: swap the cards at two positions of your own row.

    A swap is a pair of positions: named in either order it is the same move, kept lowest first (so that it
    equals the one :func:`highlow_legal_actions` lists, and is written one way in records).
    """

    seat: int
    first: int
    second: int
    kind: ClassVar[str] = "swap"

    def __post_init__(self) -> None:
        if is_whole(self.first) and is_whole(self.second) and self.first > self.second:
            first, second = self.second, self.first
            object.__setattr__(self, "first", first)
            object.__setattr__(self, "second", second)

    def describe(self) -> str:
        return f"swap cards {_position_text(self.first)} and {_position_text(self.second)}"


@dataclass(frozen=True, slots=True)
class KeepOrder:
    """After a Swap card: swap nothing."""

    seat: int
    kind: ClassVar[str] = "keep"

    def describe(self) -> str:
        return "keep the row as it is"


def _position_text(position: object) -> str:
    return str(position + 1) if isinstance(position, int) else repr(position)


HighLowAction = Replace | SwapCards | KeepOrder
SWAP_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(RACK_SIZE), 2))
REPLACE_INDEX = 0
SWAP_INDEX = REPLACE_INDEX + RACK_SIZE
KEEP_INDEX = SWAP_INDEX + len(SWAP_PAIRS)
HIGHLOW_ACTION_SPACE_SIZE = KEEP_INDEX + 1


def highlow_action_index(action: HighLowAction) -> int:
    """The action's position in High-Low's fixed-size action space (56 moves)."""
    if isinstance(action, Replace):
        return REPLACE_INDEX + action.position
    if isinstance(action, SwapCards):
        pair = (min(action.first, action.second), max(action.first, action.second))
        return SWAP_INDEX + SWAP_PAIRS.index(pair)
    return KEEP_INDEX


def highlow_action_from_index(seat: int, index: int) -> HighLowAction:
    if not is_whole(index) or not 0 <= index < HIGHLOW_ACTION_SPACE_SIZE:
        raise UnknownActionError(f"There is no action number {index!r}; they run from 0 to {KEEP_INDEX}.")
    if index < SWAP_INDEX:
        return Replace(seat, index - REPLACE_INDEX)
    if index < KEEP_INDEX:
        first, second = SWAP_PAIRS[index - SWAP_INDEX]
        return SwapCards(seat, first, second)
    return KeepOrder(seat)


def highlow_action_to_json(action: HighLowAction) -> dict[str, Any]:
    """The record form; positions are written 1-10 from the left end."""
    data: dict[str, Any] = {"seat": action.seat, "act": action.kind}
    if isinstance(action, Replace):
        data["position"] = action.position + 1
    elif isinstance(action, SwapCards):
        data["positions"] = [action.first + 1, action.second + 1]
    return data


def highlow_action_from_json(data: Any) -> HighLowAction:
    if not isinstance(data, dict):
        raise UnknownActionError('An action must be a JSON object such as {"seat": 0, "act": "replace"}.')
    kind, seat = data.get("act"), data.get("seat")
    fields = {"replace": {"position"}, "swap": {"positions"}, "keep": set()}
    if not isinstance(kind, str) or kind not in fields:
        raise UnknownActionError(f"Unknown High-Low action {kind!r}; known: replace, swap, keep.")
    if not is_whole(seat):
        raise UnknownActionError(f"The action's seat must be a whole number, not {seat!r}.")
    extra = sorted(set(data) - {"seat", "act"} - fields[kind])
    if extra:
        raise UnknownActionError(f"Unexpected field(s) in a {kind!r} action: {', '.join(extra)}.")
    if kind == "replace":
        position = data.get("position")
        if not isinstance(position, int) or not _is_position(position):
            raise UnknownActionError(f"A replace needs a position 1-10, not {position!r}.")
        return Replace(seat, position - 1)
    if kind == "swap":
        positions = data.get("positions")
        if not isinstance(positions, list) or len(positions) != 2 or not all(_is_position(p) for p in positions):
            raise UnknownActionError(f"A swap needs two positions 1-10, not {positions!r}.")
        return SwapCards(seat, positions[0] - 1, positions[1] - 1)
    return KeepOrder(seat)


def _is_position(value: Any) -> bool:
    return is_whole(value) and 1 <= value <= RACK_SIZE
