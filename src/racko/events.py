"""The event log of a classic round: every applied action and every chance event, as frozen values.

The log holds the whole truth (it is what a record is made from).  What one
seat may see of an event is :meth:`visible_to`; a spectator sees
``visible_to(None)``.  Cards a viewer may not know are replaced by ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from racko.rules import SLOT_LABELS

if TYPE_CHECKING:
    from racko.highlow.observation import HighLowResult
    from racko.observation import RoundResult


@dataclass(frozen=True, slots=True)
class Dealt:
    """Ten cards each, dealt one at a time from the dealer's left into slots 50, 45, ... 5."""

    dealer: int
    racks: tuple[tuple[int, ...], ...] | None
    kind: ClassVar[str] = "dealt"

    def visible_to(self, seat: int | None) -> Dealt:
        if self.racks is None:
            return self
        shown = tuple(rack if index == seat else () for index, rack in enumerate(self.racks))
        return replace(self, racks=shown)

    def describe(self, names: list[str]) -> str:
        return f"{names[self.dealer]} dealt ten cards to each player."


@dataclass(frozen=True, slots=True)
class TurnedUp:
    """The top card of the stock was turned up to start the discard pile."""

    card: int
    kind: ClassVar[str] = "turned-up"

    def visible_to(self, seat: int | None) -> TurnedUp:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{self.card} was turned up to start the discard pile."


@dataclass(frozen=True, slots=True)
class Drew:
    """A player drew the top card of the stock; only that player sees it."""

    seat: int
    card: int | None
    kind: ClassVar[str] = "drew"

    def visible_to(self, seat: int | None) -> Drew:
        return self if seat == self.seat else replace(self, card=None)

    def describe(self, names: list[str]) -> str:
        what = f" ({self.card})" if self.card is not None else ""
        return f"{names[self.seat]} drew from the stock{what}."


@dataclass(frozen=True, slots=True)
class Took:
    """A player took the top discard (face up, so everyone sees it)."""

    seat: int
    card: int
    kind: ClassVar[str] = "took"

    def visible_to(self, seat: int | None) -> Took:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{names[self.seat]} took {self.card} from the discard pile."


@dataclass(frozen=True, slots=True)
class Exchanged:
    """A card went into a slot; the card that was there went face up on the discard pile."""

    seat: int
    slot: int
    card_in: int | None
    card_out: int
    from_discard: bool
    kind: ClassVar[str] = "exchanged"

    def visible_to(self, seat: int | None) -> Exchanged:
        if self.from_discard or seat == self.seat:
            return self
        return replace(self, card_in=None)

    def describe(self, names: list[str]) -> str:
        label = SLOT_LABELS[self.slot]
        what = str(self.card_in) if self.card_in is not None else "a card"
        return f"{names[self.seat]} put {what} into slot {label} and discarded {self.card_out}."


@dataclass(frozen=True, slots=True)
class Discarded:
    """A player discarded the card drawn from the stock."""

    seat: int
    card: int
    kind: ClassVar[str] = "discarded"

    def visible_to(self, seat: int | None) -> Discarded:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{names[self.seat]} discarded {self.card}."


@dataclass(frozen=True, slots=True)
class Refilled:
    """The stock ran out and the discard pile became the new stock.

    ``pile`` is the discard pile as everyone saw it (bottom first) before it was
    turned over; ``order`` is the new stock's order, top first, which nobody
    sees (with a shuffle it is known to nobody at all).
    """

    mode: str
    pile: tuple[int, ...]
    order: tuple[int, ...] | None
    kind: ClassVar[str] = "refilled"

    def visible_to(self, seat: int | None) -> Refilled:
        return replace(self, order=None)

    def describe(self, names: list[str]) -> str:
        how = "turned over" if self.mode == "flip" else "shuffled"
        return f"The stock ran out: the discard pile was {how} to make a new stock."


@dataclass(frozen=True, slots=True)
class Called:
    """A player went Rack-O."""

    seat: int
    kind: ClassVar[str] = "racko"

    def visible_to(self, seat: int | None) -> Called:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{names[self.seat]} went Rack-O!"


@dataclass(frozen=True, slots=True)
class Waited:
    """A player ended the turn without calling Rack-O, where calling is a choice (Bonus Rack-O)."""

    seat: int
    could_call: bool
    """Whether the rack qualified: a choice to wait, not a pass with nothing to call."""
    kind: ClassVar[str] = "waited"

    def visible_to(self, seat: int | None) -> Waited:
        # The choice to wait is the player's own secret: at a table nobody announces it.  To everybody else every
        # turn ends alike.
        return self if seat == self.seat else Waited(self.seat, could_call=False)

    def describe(self, names: list[str]) -> str:
        """Said only to the player who chose to wait; a turn ending without a call is not worth a line."""
        return f"{names[self.seat]} could go Rack-O but chose to wait." if self.could_call else ""


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round (a hand, in High-Low) is over; every rack is shown for scoring.  Both families end with it."""

    result: RoundResult | HighLowResult
    kind: ClassVar[str] = "round-ended"

    def visible_to(self, seat: int | None) -> RoundEnded:
        return self

    def describe(self, names: list[str]) -> str:
        result = self.result
        if result.winner is not None:
            return f"Round over: {names[result.winner]} went Rack-O."
        if result.capped:
            return f"Round over: nobody went Rack-O in {result.turns} turns (turn cap)."
        return "Round over."


Event = Dealt | TurnedUp | Drew | Took | Exchanged | Discarded | Refilled | Called | Waited | RoundEnded
