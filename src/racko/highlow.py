"""High-Low Rack-O (sheet 003): 3-5 players, 112 cards, public rows, a card passed to the right.

A hand is a :class:`HighLowRound`.  Like the classic round it changes only
through :meth:`HighLowRound.apply`, which raises a typed
:class:`~racko.errors.IllegalActionError` and changes nothing when the action
is not allowed.  The only decisions are where to put the card in hand
(:class:`Replace`) and, after a Swap card, which two cards to swap
(:class:`SwapCards`) or none (:class:`KeepOrder`); draws, Swap discards,
passing and Rack-O happen by themselves.  Positions are indexes 0-9 from the
left end of the row.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, NamedTuple

from racko.errors import (
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    SetupError,
    SlotOutOfRangeError,
    UnknownActionError,
    WrongPhaseError,
)
from racko.highlow_scoring import (
    HIGH,
    LOW,
    SWAP,
    WILD,
    best_prefix,
    card_name,
    doubles,
    in_order_prefix,
    is_racko,
    winner_extras,
)
from racko.rules import RACK_SIZE, Rules, is_whole
from racko.table import Table

# --- Cards ------------------------------------------------------------------------------------

HIGHLOW_DECK_SIZE = 112


def highlow_deck() -> list[int]:
    """The 112 cards: two of each number 1-50, six Wild, six Swap (sheet 003, Contents)."""
    return [n for n in range(1, 51) for _ in range(2)] + [WILD] * 6 + [SWAP] * 6


def card_to_json(card: int) -> int | str:
    """Numbers stay numbers; the Wild is written ``"W"`` and the Swap ``"S"``."""
    return card if card > 0 else card_name(card)


def card_from_json(value: Any) -> int:
    if value == "W":
        return WILD
    if value == "S":
        return SWAP
    if is_whole(value) and 1 <= value <= 50:
        return value
    raise SetupError(f'{value!r} is not a High-Low card (a number 1-50, "W" or "S").')


def cut_value(card: int) -> int:
    """A card's value when cutting for the deal: Swap and Wild count as 0."""
    return max(card, 0)


# --- Actions ----------------------------------------------------------------------------------


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
    """After a Swap card: swap the cards at two positions of your own row."""

    seat: int
    first: int
    second: int
    kind: ClassVar[str] = "swap"

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


# --- What a seat sees -------------------------------------------------------------------------


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
    hand_dealer: int
    """Who dealt the hand."""
    dealer: int
    """Who draws in the current round of play."""
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


# --- Events -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HighLowEvent:
    """One thing that happened in a High-Low hand.  ``card`` is hidden from those who may not see it."""

    what: str
    """dealt, swap-discarded, drew, placed, passed, discarded, swapped, kept, refilled, racko, capped."""
    seat: int | None = None
    card: int | None = None
    position: int | None = None
    other: int | None = None
    """The second position of a swap, or the card removed by a placement."""
    private_to: int | None = None
    """When set, only this seat (and the record) sees ``card``."""
    rows: tuple[tuple[int, ...], ...] | None = None

    def visible_to(self, seat: int | None) -> HighLowEvent:
        if self.private_to is not None and seat != self.private_to:
            return HighLowEvent(self.what, self.seat, None, self.position, self.other, self.private_to, self.rows)
        return self

    def describe(self, names: list[str]) -> str:
        who = names[self.seat] if self.seat is not None else ""
        card = card_name(self.card) if self.card is not None else "a card"
        where = f"position {self.position + 1}" if self.position is not None else ""
        texts = {
            "dealt": "Ten cards each were dealt and turned face up.",
            "swap-discarded": f"{who} discarded a Swap card from {where}.",
            "drew": f"{who} drew {card}.",
            "placed": f"{who} put {card} in {where}"
            + (f", taking out {card_name(self.other)}." if self.other is not None else "."),
            "passed": f"{who} received {card}.",
            "discarded": f"{card} went to the discard pile.",
            "swapped": f"{who} swapped positions {_position_text(self.position)} and {_position_text(self.other)}.",
            "kept": f"{who} kept the row as it was.",
            "refilled": "The stock ran out: the discard pile became the new stock.",
            "racko": f"{who} went Rack-O!",
            "capped": "The hand reached the turn cap.",
        }
        return texts.get(self.what, self.what)


# --- The hand ---------------------------------------------------------------------------------


class HighLowRound(Table[HighLowAction, HighLowResult, HighLowEvent]):
    """A hand of High-Low Rack-O, from the deal to the scoring.

    ``deck`` is the whole deck in dealing order: the first card goes to the
    dealer's right and each player's cards fill the row from the left end.
    """

    action_space_size = HIGHLOW_ACTION_SPACE_SIZE
    action_index = staticmethod(highlow_action_index)

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[int],
        dealer: int = 0,
        *,
        rng: random.Random | None = None,
        reshuffles: Iterable[Sequence[int]] = (),
        totals: Sequence[int] | None = None,
        number: int = 1,
    ) -> None:
        super().__init__(
            rules,
            deck,
            dealer,
            full_deck=highlow_deck(),
            deck_text="the 112 High-Low cards: two of each number 1-50, six Wild and six Swap",
            rng=rng,
            reshuffles=reshuffles,
            totals=totals,
            number=number,
        )
        players = rules.players
        # Deal to the right (the way play goes), each card filling the row from the left end.
        rows = [[0] * RACK_SIZE for _ in range(players)]
        for index in range(RACK_SIZE * players):
            rows[(dealer - 1 - index) % players][index // players] = self.deck[index]
        self._rows = rows
        self.dealt: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in rows)
        """Every row as dealt, before any Swap was replaced."""
        self._stock = list(reversed(self.deck[RACK_SIZE * players :]))
        self._play_dealer = dealer
        self._placed_this_round = 0
        self._to_act = dealer
        self._phase = HighLowPhase.PLACE
        self._held_drawn = False
        self._pending_swaps: list[int] = []
        self._setup_done = False
        self._public: HighLowView | None = None
        self.log.append(HighLowEvent("dealt", dealer, rows=self.dealt))
        for seat in self._play_order(dealer):
            if self._check_racko(seat):
                return
        self._advance()

    @classmethod
    def full_deck(cls, rules: Rules) -> list[int]:
        return highlow_deck()

    # --- Questions -------------------------------------------------------------------------

    @property
    def phase(self) -> HighLowPhase:
        return self._phase

    @property
    def to_act(self) -> int | None:
        return None if self._phase is HighLowPhase.OVER else self._to_act

    def rack(self, seat: int) -> tuple[int, ...]:
        """A seat's row, left end first (rows are public in High-Low)."""
        return tuple(self._rows[seat])

    def legal_actions(self) -> list[HighLowAction]:
        if self._phase is HighLowPhase.OVER:
            return []
        return highlow_legal_actions(self._to_act, self._phase)

    def public_view(self) -> HighLowView:
        view = self._public
        if view is None:
            over = self._phase is HighLowPhase.OVER
            view = HighLowView(
                rules=self.rules,
                round_number=self.number,
                hand_dealer=self.dealer,
                dealer=self._play_dealer,
                to_act=None if over else self._to_act,
                phase=self._phase,
                turns=self._turns,
                stock_size=len(self._stock),
                discard_pile=tuple(self._discard),
                rows=tuple(tuple(row) for row in self._rows),
                passed_card=self._held if self._held is not None and not self._held_drawn else None,
                totals=self.totals,
                result=self._result,
            )
            self._public = view
        return view

    def observation(self, seat: int) -> HighLowObservation:
        self._check_seat(seat)
        held = self._held if seat == self._to_act and self._phase is HighLowPhase.PLACE else None
        return HighLowObservation(seat, held, self.public_view())

    # --- The one entry point ---------------------------------------------------------------

    def apply(self, action: HighLowAction) -> tuple[HighLowEvent, ...]:
        """Apply ``action`` and return the events it logged; raise a typed :class:`IllegalActionError` and change
        nothing if it is illegal (the one legality check)."""
        error = self._why_illegal(action)
        if error is not None:
            raise error
        logged = len(self.log)
        self._apply(action)
        return tuple(self.log[logged:])

    def _apply(self, action: HighLowAction) -> None:
        self._public = None
        self.actions.append(action)
        seat = self._to_act
        if isinstance(action, Replace):
            self._replace(seat, action.position)
        elif isinstance(action, SwapCards):
            row = self._rows[seat]
            row[action.first], row[action.second] = row[action.second], row[action.first]
            self.log.append(HighLowEvent("swapped", seat, position=action.first, other=action.second))
            self._pending_swaps.pop(0)
            if not self._check_racko(seat):
                self._advance()
        else:
            self.log.append(HighLowEvent("kept", seat))
            self._pending_swaps.pop(0)
            self._advance()

    # --- Inside ----------------------------------------------------------------------------

    def _play_order(self, first: int) -> list[int]:
        """Seats from ``first`` going right (play passes to the right in High-Low)."""
        players = self.rules.players
        return [(first - offset) % players for offset in range(players)]

    def _why_illegal(self, action: HighLowAction) -> IllegalActionError | None:
        if not isinstance(action, Replace | SwapCards | KeepOrder):
            return UnknownActionError(f"{action!r} is not a High-Low Rack-O action.")
        if self._phase is HighLowPhase.OVER:
            return RoundOverError("The hand is over: no more moves can be made.")
        if not is_whole(action.seat):
            return UnknownActionError(f"An action's seat is a whole number, not {action.seat!r}.")
        if action.seat != self._to_act:
            return NotYourTurnError(f"It is not your turn: seat {self._to_act} is to play, not seat {action.seat}.")
        if isinstance(action, Replace):
            if not _is_index(action.position):
                return SlotOutOfRangeError(
                    f"There is no position {action.position!r}: positions are 0 (left end) to 9 (right end)."
                )
            if self._phase is not HighLowPhase.PLACE:
                return WrongPhaseError("You have no card to place: a Swap card was drawn; swap two cards or keep.")
            return None
        if self._phase is not HighLowPhase.SWAP:
            held = card_name(self._held) if self._held is not None else "a card"
            return WrongPhaseError(f"You cannot swap now: you hold {held}, which must replace a card in your row.")
        if isinstance(action, SwapCards):
            if not _is_index(action.first) or not _is_index(action.second):
                return SlotOutOfRangeError("Positions are 0 (left end) to 9 (right end).")
            if action.first == action.second:
                return WrongPhaseError("Choose two different cards to swap (or keep the row as it is).")
        return None

    def _replace(self, seat: int, position: int) -> None:
        held = self._held
        assert held is not None
        row = self._rows[seat]
        removed = row[position]
        row[position] = held
        self._held = None
        self._turns += 1
        self._placed_this_round += 1
        self.log.append(HighLowEvent("placed", seat, held, position, removed))
        if self._check_racko(seat, removed):
            return
        if self._placed_this_round < self.rules.players:
            # Passed to the right; everyone saw the card face up in the row.
            self._to_act = (seat - 1) % self.rules.players
            self._held = removed
            self._held_drawn = False
            self.log.append(HighLowEvent("passed", self._to_act, removed))
            return
        self._discard.append(removed)
        self.log.append(HighLowEvent("discarded", seat, removed))
        cap = self.rules.turn_cap
        if cap is not None and self._turns >= cap:
            self.log.append(HighLowEvent("capped"))
            self._finish(None)
            return
        # The deal passes to the right; the prior dealer plays last.
        self._play_dealer = (self._play_dealer - 1) % self.rules.players
        self._placed_this_round = 0
        self._advance()

    def _check_racko(self, seat: int, loose: int | None = None) -> bool:
        """Go Rack-O if this row now reads in order; ``loose`` is a card in transit, put on the discard pile."""
        row = self._rows[seat]
        if SWAP in row or not is_racko(row):
            return False
        if loose is not None:
            self._discard.append(loose)
            self.log.append(HighLowEvent("discarded", seat, loose))
        self.log.append(HighLowEvent("racko", seat))
        self._finish(seat)
        return True

    def _draw(self) -> int:
        if not self._stock:
            self._refill()
        return self._stock.pop()

    def _refill(self) -> None:
        self._stock = list(reversed(self._new_stock(tuple(self._discard))))
        self._discard = []
        self.log.append(HighLowEvent("refilled"))

    def _advance(self) -> None:
        """Carry out everything that needs no decision, up to the next decision or the end of the hand."""
        while self._phase is not HighLowPhase.OVER:
            if self._pending_swaps:
                self._to_act = self._pending_swaps[0]
                self._phase = HighLowPhase.SWAP
                return
            if not self._setup_done:
                if self._resolve_starting_swap():
                    continue
                self._setup_done = True
            card = self._draw()
            dealer = self._play_dealer
            if card == SWAP:
                # Discarded at once; everyone, the drawer first, may swap; then the drawer draws again.
                self._discard.append(card)
                self.log.append(HighLowEvent("drew", dealer, card))
                self.log.append(HighLowEvent("discarded", dealer, card))
                self._pending_swaps = self._play_order(dealer)
                continue
            self._held = card
            self._held_drawn = True
            self._to_act = dealer
            self._phase = HighLowPhase.PLACE
            self.log.append(HighLowEvent("drew", dealer, card, private_to=dealer))
            return

    def _resolve_starting_swap(self) -> bool:
        """Replace the Swaps dealt into the next row that has any (in play order); return whether there was one.

        Every Swap of the row is replaced first, left to right (a replacement that is a Swap is discarded
        too), then the owner gets one swap decision per Swap discarded.
        """
        for seat in self._play_order(self.dealer):
            row = self._rows[seat]
            if SWAP not in row:
                continue
            chances = 0
            while SWAP in row:
                position = row.index(SWAP)
                card = SWAP
                while card == SWAP:
                    self._discard.append(SWAP)
                    self.log.append(HighLowEvent("swap-discarded", seat, SWAP, position))
                    chances += 1
                    card = self._draw()
                row[position] = card
                self.log.append(HighLowEvent("placed", seat, card, position))
            if not self._check_racko(seat):
                self._pending_swaps = [seat] * chances
            return True
        return False

    def _finish(self, winner: int | None) -> None:
        rows = tuple(tuple(row) for row in self._rows)
        scores, ordered, pairs_by_seat = [], [], []
        run = bonus = direction = 0
        for seat, row in enumerate(rows):
            if seat == winner:
                pairs, run, bonus = winner_extras(row, self.rules.bonus)
                direction = LOW if in_order_prefix(row, LOW) == RACK_SIZE else HIGH
                scores.append(75 + 5 * pairs + bonus)
                ordered.append(RACK_SIZE)
            else:
                pairs = doubles(row)
                count = best_prefix(row)
                scores.append(5 * count + 5 * pairs)
                ordered.append(count)
            pairs_by_seat.append(pairs)
        self._result = HighLowResult(
            scores=tuple(scores),
            winner=winner,
            capped=winner is None,
            racks=rows,
            ordered=tuple(ordered),
            doubles=tuple(pairs_by_seat),
            direction=direction,
            run=run,
            bonus=bonus,
            turns=self._turns,
        )
        self._phase = HighLowPhase.OVER
        self._held = None
        self._pending_swaps = []
        self._public = None


def _is_index(value: object) -> bool:
    return is_whole(value) and 0 <= value < RACK_SIZE
