"""The actions of a classic Rack-O turn, as frozen values.

A turn is: :class:`TakeDiscard` then :class:`Exchange`; or :class:`DrawFromStock`
then :class:`Exchange` or :class:`Discard`.  :class:`CallRacko` goes out with a
qualifying rack; :class:`Wait` declines to, where calling is a choice (Bonus
Rack-O).  Every action names the seat that takes it.  Slots are indexes 0-9
(0 is the slot labelled 5, 9 the slot labelled 50).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from racko.errors import UnknownActionError
from racko.rules import RACK_SIZE, SLOT_LABELS, is_whole


@dataclass(frozen=True, slots=True)
class DrawFromStock:
    """Take the top card of the stock (you may then exchange it or discard it)."""

    seat: int
    kind: ClassVar[str] = "draw"

    def describe(self) -> str:
        return "draw from the stock"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile (you must then exchange it)."""

    seat: int
    kind: ClassVar[str] = "take"

    def describe(self) -> str:
        return "take the top discard"


@dataclass(frozen=True, slots=True)
class Exchange:
    """Put the card in hand into ``slot``; the card that was there goes face up on the discard pile."""

    seat: int
    slot: int
    kind: ClassVar[str] = "exchange"

    def describe(self) -> str:
        if isinstance(self.slot, int) and 0 <= self.slot < RACK_SIZE:
            return f"exchange into slot {SLOT_LABELS[self.slot]}"
        return f"exchange into slot index {self.slot!r}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put the card drawn from the stock face up on the discard pile."""

    seat: int
    kind: ClassVar[str] = "discard"

    def describe(self) -> str:
        return "discard the card in hand"


@dataclass(frozen=True, slots=True)
class CallRacko:
    """Go Rack-O: the rack reads low to high (with a run of three under the 2-player rule)."""

    seat: int
    kind: ClassVar[str] = "racko"

    def describe(self) -> str:
        return "call Rack-O"


@dataclass(frozen=True, slots=True)
class Wait:
    """Keep playing although the rack qualifies (Bonus Rack-O: hope for a longer run)."""

    seat: int
    kind: ClassVar[str] = "wait"

    def describe(self) -> str:
        return "wait (end the turn without calling Rack-O)"


Action = DrawFromStock | TakeDiscard | Exchange | Discard | CallRacko | Wait
ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls for cls in (DrawFromStock, TakeDiscard, Exchange, Discard, CallRacko, Wait)
}

# The fixed-size action space: one index per distinct move, whoever makes it.
DRAW_INDEX = 0
TAKE_INDEX = 1
EXCHANGE_INDEX = 2  # .. EXCHANGE_INDEX + 9
DISCARD_INDEX = EXCHANGE_INDEX + RACK_SIZE
RACKO_INDEX = DISCARD_INDEX + 1
WAIT_INDEX = RACKO_INDEX + 1
ACTION_SPACE_SIZE = WAIT_INDEX + 1


def action_index(action: Action) -> int:
    """The action's position in the fixed-size action space (the seat is not part of it)."""
    if isinstance(action, Exchange):
        return EXCHANGE_INDEX + action.slot
    if isinstance(action, DrawFromStock):
        return DRAW_INDEX
    if isinstance(action, TakeDiscard):
        return TAKE_INDEX
    if isinstance(action, Discard):
        return DISCARD_INDEX
    if isinstance(action, CallRacko):
        return RACKO_INDEX
    if isinstance(action, Wait):
        return WAIT_INDEX
    raise UnknownActionError(f"{action!r} is not a Rack-O action.")


def action_from_index(seat: int, index: int) -> Action:
    """The action of ``seat`` at ``index`` in the fixed-size action space."""
    if not is_whole(index) or not 0 <= index < ACTION_SPACE_SIZE:
        raise UnknownActionError(f"There is no action number {index!r}; they run from 0 to {ACTION_SPACE_SIZE - 1}.")
    if EXCHANGE_INDEX <= index < DISCARD_INDEX:
        return Exchange(seat, index - EXCHANGE_INDEX)
    simple: dict[int, type[DrawFromStock | TakeDiscard | Discard | CallRacko | Wait]] = {
        DRAW_INDEX: DrawFromStock,
        TAKE_INDEX: TakeDiscard,
        DISCARD_INDEX: Discard,
        RACKO_INDEX: CallRacko,
        WAIT_INDEX: Wait,
    }
    return simple[index](seat)


def action_to_json(action: Action) -> dict[str, Any]:
    """The record form of an action; exchanges name the slot by its label (5-50)."""
    data: dict[str, Any] = {"seat": action.seat, "act": action.kind}
    if isinstance(action, Exchange):
        data["slot"] = SLOT_LABELS[action.slot]
    return data


def action_from_json(data: Any) -> Action:
    """An action from its record form; raises :class:`UnknownActionError` with the reason."""
    if not isinstance(data, dict):
        raise UnknownActionError('An action must be a JSON object such as {"seat": 0, "act": "draw"}.')
    kind = data.get("act")
    seat = data.get("seat")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise UnknownActionError(f"Unknown action {kind!r}; known: {', '.join(ACTION_TYPES)}.")
    if not is_whole(seat):
        raise UnknownActionError(f"The action's seat must be a whole number, not {seat!r}.")
    expected = {"seat", "act", "slot"} if kind == Exchange.kind else {"seat", "act"}
    extra = sorted(set(data) - expected)
    if extra:
        raise UnknownActionError(f"Unexpected field(s) in a {kind!r} action: {', '.join(extra)}.")
    if kind == Exchange.kind:
        label = data.get("slot")
        if not is_whole(label) or label not in SLOT_LABELS:
            raise UnknownActionError(f"An exchange needs a slot 5, 10, ... 50, not {label!r}.")
        return Exchange(seat, SLOT_LABELS.index(label))
    return ACTION_TYPES[kind](seat)  # type: ignore[call-arg]
