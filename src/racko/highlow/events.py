"""What happens in a High-Low hand, as typed frozen events (like the classic family's, :mod:`racko.events`).

The log holds the whole truth.  Rows are face up, so nearly everything is public; only a card drawn from the
stock is private to its drawer until it is placed (:meth:`CardDrawn.visible_to`).  Every event has a ``kind``
(the same word records and tests use) and says itself in words with :meth:`describe`.  The hand's end is the
classic family's :class:`~racko.events.RoundEnded`, with a :class:`~racko.highlow.observation.HighLowResult`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from racko.events import RoundEnded
from racko.highlow.cards import card_name


def _card(card: int | None) -> str:
    return card_name(card) if card is not None else "a card"


@dataclass(frozen=True, slots=True)
class RowsDealt:
    """Ten cards each, dealt to the right and turned face up (Swaps among them are replaced next)."""

    dealer: int
    rows: tuple[tuple[int, ...], ...]
    kind: ClassVar[str] = "dealt"

    def visible_to(self, seat: int | None) -> RowsDealt:
        return self

    def describe(self, names: list[str]) -> str:
        return "Ten cards each were dealt and turned face up."


@dataclass(frozen=True, slots=True)
class SwapDiscardedAtDeal:
    """A Swap dealt into a row (or drawn to replace one) went to the discard pile."""

    seat: int
    card: int
    position: int
    kind: ClassVar[str] = "swap-discarded"

    def visible_to(self, seat: int | None) -> SwapDiscardedAtDeal:
        return self

    def describe(self, names: list[str]) -> str:
        # The rules' own step, not a move of the player's: a Swap may not stay in a starting row.
        return (
            f"At the deal {names[self.seat]} had a Swap card at position {self.position + 1}; by the rules it went "
            "to the discard pile."
        )


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """The drawer took the stock's top card: private to the drawer, unless it is a Swap (discarded face up)."""

    seat: int
    card: int | None
    private: bool
    kind: ClassVar[str] = "drew"

    def visible_to(self, seat: int | None) -> CardDrawn:
        return self if not self.private or seat == self.seat else replace(self, card=None)

    def describe(self, names: list[str]) -> str:
        return f"{names[self.seat]} drew {_card(self.card)}."


@dataclass(frozen=True, slots=True)
class CardPlaced:
    """A card went into a row; ``removed`` is the card it replaced (``None``: the rules' replacement of a Swap at
    the deal, from the stock, which is no move of the player's)."""

    seat: int
    card: int
    position: int
    removed: int | None
    kind: ClassVar[str] = "placed"

    def visible_to(self, seat: int | None) -> CardPlaced:
        return self

    def describe(self, names: list[str]) -> str:
        if self.removed is None:  # the stock's card the rules put in place of a Swap at the deal
            return (
                f"By the rules {names[self.seat]} got {card_name(self.card)} from the stock in its place "
                f"(position {self.position + 1})."
            )
        return (
            f"{names[self.seat]} put {card_name(self.card)} in position {self.position + 1}, "
            f"taking out {card_name(self.removed)}."
        )


@dataclass(frozen=True, slots=True)
class CardPassed:
    """The card a placement removed passed to the player on the right (face up: everyone saw it)."""

    seat: int
    card: int
    kind: ClassVar[str] = "passed"

    def visible_to(self, seat: int | None) -> CardPassed:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{names[self.seat]} received {card_name(self.card)}."


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """A card went to the discard pile (the last of a round of play's passes, a drawn Swap, a card in transit)."""

    seat: int
    card: int
    kind: ClassVar[str] = "discarded"

    def visible_to(self, seat: int | None) -> CardDiscarded:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{card_name(self.card)} went to the discard pile."


@dataclass(frozen=True, slots=True)
class CardsSwapped:
    """After a Swap card, a player swapped two cards of their row."""

    seat: int
    first: int
    second: int
    kind: ClassVar[str] = "swapped"

    def visible_to(self, seat: int | None) -> CardsSwapped:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{names[self.seat]} swapped positions {self.first + 1} and {self.second + 1}."


@dataclass(frozen=True, slots=True)
class RowKept:
    """After a Swap card, a player kept their row as it was."""

    seat: int
    kind: ClassVar[str] = "kept"

    def visible_to(self, seat: int | None) -> RowKept:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{names[self.seat]} kept the row as it was."


@dataclass(frozen=True, slots=True)
class StockRefilled:
    """The stock ran out: the discard pile was shuffled into a new stock (its order known to nobody)."""

    kind: ClassVar[str] = "refilled"

    def visible_to(self, seat: int | None) -> StockRefilled:
        return self

    def describe(self, names: list[str]) -> str:
        return "The stock ran out: the discard pile became the new stock."


@dataclass(frozen=True, slots=True)
class WentRackO:
    """A row reads in order, Low or High: its owner went Rack-O."""

    seat: int
    kind: ClassVar[str] = "racko"

    def visible_to(self, seat: int | None) -> WentRackO:
        return self

    def describe(self, names: list[str]) -> str:
        return f"{names[self.seat]} went Rack-O!"


@dataclass(frozen=True, slots=True)
class HandCapped:
    """The hand reached the turn cap without a Rack-O."""

    kind: ClassVar[str] = "capped"

    def visible_to(self, seat: int | None) -> HandCapped:
        return self

    def describe(self, names: list[str]) -> str:
        return "The hand reached the turn cap."


HighLowEvent = (
    RowsDealt
    | SwapDiscardedAtDeal
    | CardDrawn
    | CardPlaced
    | CardPassed
    | CardDiscarded
    | CardsSwapped
    | RowKept
    | StockRefilled
    | WentRackO
    | HandCapped
    | RoundEnded
)
