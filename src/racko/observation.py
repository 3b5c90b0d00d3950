"""What one seat may know of a round, split into a public part and a private part.

The public part (:class:`PublicView`) is what every seat and every spectator
knows: the discard pile, the stock's size, which cards were seen going into
and leaving each slot, scores.  The private part of an :class:`Observation`
is the seat's own rack and, while it holds one, the card it drew.  Neither
ever holds the stock's order or a card nobody showed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from racko.actions import Action, CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.rules import RACK_SIZE, SLOT_LABELS, Rules
from racko.scoring import qualifies_for_racko


class Phase(enum.Enum):
    """Where the round stands."""

    PICK = "pick"
    """The player to act draws from the stock or takes the top discard (or calls Rack-O if the rack qualifies)."""
    PLACE = "place"
    """The player holds a card: exchange it into a slot (or discard it, if it came from the stock)."""
    DECLARE = "declare"
    """Where calling is a choice (Bonus Rack-O), every turn ends here: call Rack-O if the rack qualifies, or play
    on.  Every turn passes through it, qualifying or not, so that it tells the table nothing."""
    OVER = "over"
    """The round has ended."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended and what each seat scored."""

    scores: tuple[int, ...]
    """Points per seat for this round."""
    winner: int | None
    """The seat that went Rack-O, or ``None`` when the turn cap ended the round."""
    capped: bool
    """The round reached the turn cap without a Rack-O."""
    racks: tuple[tuple[int, ...], ...]
    """Every rack at the end, slot 5 first (all racks are shown for scoring)."""
    ordered: tuple[int, ...]
    """Per seat, how many cards from slot 5 were in rising order (10 for the winner)."""
    run: int
    """The winner's longest run (0 without a winner)."""
    bonus: int
    """The winner's Bonus Rack-O points (0 outside Bonus Rack-O)."""
    turns: int
    """Turns played in the round."""

    def explain(self, seat: int) -> str:
        """How the seat's score was counted, in a sentence."""
        if seat == self.winner:
            text = "went Rack-O: 75 points"
            if self.bonus:
                text += f" + {self.bonus} bonus for a run of {self.run} = {self.scores[seat]}"
            return text
        count = self.ordered[seat]
        if count == RACK_SIZE:
            where = "all ten cards in order"
        else:
            where = f"in order up to slot {SLOT_LABELS[count - 1]}, broken at slot {SLOT_LABELS[count]}"
        return f"{where}: {count} x 5 = {self.scores[seat]} points"


class PublicView(NamedTuple):
    """What everyone at the table (and any spectator) knows.

    (A named tuple rather than a frozen dataclass: it is built after every
    action, and this is several times faster to build.)
    """

    rules: Rules
    round_number: int
    dealer: int
    to_act: int | None
    """The seat to act, ``None`` once the round is over."""
    phase: Phase
    turns: int
    """Turns completed in this round."""
    stock_size: int
    discard_pile: tuple[int, ...]
    """Bottom first: the last card is the top discard."""
    taken_discard: int | None
    """The card the player to act took from the discard pile and must place."""
    known: tuple[tuple[int | None, ...], ...]
    """Per seat, per slot: the card everyone knows is there (taken face up from the discard pile), else ``None``."""
    left: tuple[tuple[tuple[int, ...], ...], ...]
    """Per seat, per slot: the cards seen leaving that slot, oldest first."""
    turned_over_pile: tuple[int, ...] | None
    """The discard pile (bottom first) as it was when last turned over to make a new stock."""
    totals: tuple[int, ...]
    """Match totals per seat before this round."""
    result: RoundResult | None
    """How the round ended, once it has."""

    @property
    def discard_top(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def known_stock_order(self) -> tuple[int, ...]:
        """The stock, top card first, when a "flip" refill made its order public; else empty.

        Everyone saw the discard pile that was turned over (bottom first): it is the new stock, top first, after its
        first card was turned up to start the new discard pile.  Public knowledge, for every seat and the hints.
        """
        order = self.turned_over_pile
        if self.rules.refill != "flip" or order is None or self.stock_size == 0:
            return ()
        start = len(order) - self.stock_size
        return tuple(order[start:]) if 0 < start < len(order) else ()

    @property
    def next_stock_card(self) -> int | None:
        """The stock's top card when a "flip" refill made its order public, else ``None``."""
        order = self.known_stock_order
        return order[0] if order else None


class Observation(NamedTuple):
    """One seat's view: the public part plus its own rack and the card it holds."""

    seat: int
    rack: tuple[int, ...]
    """This seat's rack, slot 5 first."""
    held: int | None
    """The card this seat holds during its turn (drawn or taken), else ``None``."""
    public: PublicView

    @property
    def rules(self) -> Rules:
        return self.public.rules

    @property
    def phase(self) -> Phase:
        return self.public.phase

    @property
    def my_turn(self) -> bool:
        return self.public.to_act == self.seat

    @property
    def discard_top(self) -> int | None:
        return self.public.discard_top

    def legal_actions(self) -> list[Action]:
        """The actions this seat may take now (empty when it is not its turn)."""
        public = self.public
        if public.to_act != self.seat:
            return []
        return legal_actions(
            self.seat,
            public.phase,
            self.rack,
            public.rules,
            stock_size=public.stock_size,
            discard_size=len(public.discard_pile),
            held_from_discard=public.taken_discard is not None,
        )

    def seen_cards(self) -> frozenset[int]:
        """Every card this seat has seen: its rack, the card it holds, face-up cards, cards seen in other racks."""
        public = self.public
        seen: set[int] = set(self.rack)
        seen.update(public.discard_pile)
        if self.held is not None:
            seen.add(self.held)
        if public.turned_over_pile:
            seen.update(public.turned_over_pile)
        for slots in public.known:
            seen.update(card for card in slots if card is not None)
        for slots_left in public.left:
            for cards in slots_left:
                seen.update(cards)
        if public.result is not None:
            for rack in public.result.racks:
                seen.update(rack)
        return frozenset(seen)


def legal_actions(
    seat: int,
    phase: Phase,
    rack: tuple[int, ...] | list[int],
    rules: Rules,
    *,
    stock_size: int,
    discard_size: int,
    held_from_discard: bool,
) -> list[Action]:
    """The legal actions of the seat to act.  The one definition the round and observations share."""
    if phase is Phase.PICK:
        actions: list[Action] = []
        if stock_size:
            actions.append(DrawFromStock(seat))
        if discard_size:
            actions.append(TakeDiscard(seat))
        if not rules.auto_racko and qualifies_for_racko(rack, rules):
            actions.append(CallRacko(seat))
        return actions
    if phase is Phase.PLACE:
        placed: list[Action] = [Exchange(seat, slot) for slot in range(RACK_SIZE)]
        if not held_from_discard:
            placed.append(Discard(seat))
        return placed
    if phase is Phase.DECLARE:
        return [CallRacko(seat), Wait(seat)] if qualifies_for_racko(rack, rules) else [Wait(seat)]
    return []
