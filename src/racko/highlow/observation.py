"""What a seat knows of a High-Low hand: every row is face up, so the public part is nearly everything; the
private part is the card the seat drew, while it holds it.  Also the legal decisions and how a hand ended.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from racko.highlow.actions import SWAP_PAIRS, HighLowAction, KeepOrder, Replace, SwapCards
from racko.highlow.scoring import LOW
from racko.rules import RACK_SIZE, Rules


class HighLowPhase(enum.Enum):
    PLACE = "place"
    """The player to act holds a card (drawn, or passed from the left) and must put it in the row."""
    SWAP = "swap"
    """After a Swap card: the player to act may swap two cards of the row, or keep it."""
    OVER = "over"


@dataclass(frozen=True, slots=True)
class HighLowResult:
    """How a hand ended and what each seat scored."""

    scores: tuple[int, ...]
    winner: int | None
    capped: bool
    racks: tuple[tuple[int, ...], ...]
    """Every row at the end, left end first."""
    ordered: tuple[int, ...]
    """Per seat, cards in order from the left end, in the better direction (10 for the winner)."""
    doubles: tuple[int, ...]
    """Per seat, doubles counted (for the winner, after Wilds used in the run)."""
    direction: int
    """The winner's direction: ``LOW`` (1, rising) or ``HIGH`` (-1, falling); 0 without a winner."""
    run: int
    bonus: int
    turns: int

    def explain(self, seat: int) -> str:
        pairs = self.doubles[seat]
        doubled = f" + {pairs} double{'s' if pairs != 1 else ''} x 5" if pairs else ""
        if seat == self.winner:
            way = "Low" if self.direction == LOW else "High"
            bonus = f" + {self.bonus} for a run of {self.run}" if self.bonus else ""
            return f"went Rack-O ({way}): 75{doubled}{bonus} = {self.scores[seat]}"
        count = self.ordered[seat]
        return f"{count} card{'s' if count != 1 else ''} in order x 5{doubled} = {self.scores[seat]}"


class HighLowView(NamedTuple):
    """What everyone knows in High-Low: every row is face up."""

    rules: Rules
    round_number: int
    dealer: int
    """Who dealt the hand (as in the classic family)."""
    drawer: int
    """Who draws in the current round of play (the deal passes to the right every round of play)."""
    to_act: int | None
    phase: HighLowPhase
    turns: int
    """Cards placed so far in the hand."""
    stock_size: int
    discard_pile: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    passed_card: int | None
    """The card passed to the player to act (it was face up in a row, so everyone knows it)."""
    totals: tuple[int, ...]
    result: HighLowResult | None

    @property
    def over(self) -> bool:
        return self.phase is HighLowPhase.OVER


class HighLowObservation(NamedTuple):
    """One seat's view of a High-Low hand: the public part plus the card it drew, while it holds it."""

    seat: int
    held: int | None
    public: HighLowView

    @property
    def rules(self) -> Rules:
        return self.public.rules

    @property
    def phase(self) -> HighLowPhase:
        return self.public.phase

    @property
    def rack(self) -> tuple[int, ...]:
        """This seat's row (public, like every row)."""
        return self.public.rows[self.seat]

    def legal_actions(self) -> list[HighLowAction]:
        if self.public.to_act != self.seat:
            return []
        return highlow_legal_actions(self.seat, self.public.phase)

    def seen_cards(self) -> frozenset[int]:
        public = self.public
        seen = {card for row in public.rows for card in row}
        seen.update(public.discard_pile)
        if self.held is not None:
            seen.add(self.held)
        if public.passed_card is not None:
            seen.add(public.passed_card)
        return frozenset(seen)


def highlow_legal_actions(seat: int, phase: HighLowPhase) -> list[HighLowAction]:
    if phase is HighLowPhase.PLACE:
        return [Replace(seat, position) for position in range(RACK_SIZE)]
    if phase is HighLowPhase.SWAP:
        swaps: list[HighLowAction] = [SwapCards(seat, first, second) for first, second in SWAP_PAIRS]
        swaps.append(KeepOrder(seat))
        return swaps
    return []
