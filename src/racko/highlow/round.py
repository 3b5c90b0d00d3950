"""A hand of High-Low Rack-O (sheet 003): 3-5 players, 112 cards, public rows, a card passed to the right.

Like the classic round it changes only through :meth:`HighLowRound.apply`, which raises a typed
:class:`~racko.errors.IllegalActionError` and changes nothing when the action is not allowed.  The only decisions
are where to put the card in hand and, after a Swap card, which two cards to swap or none; draws, Swap discards,
passing and Rack-O happen by themselves.
"""

from __future__ import annotations

from racko.errors import (
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    SlotOutOfRangeError,
    UnknownActionError,
    WrongPhaseError,
)
from racko.events import RoundEnded
from racko.highlow import events
from racko.highlow.actions import (
    HIGHLOW_ACTION_SPACE_SIZE,
    HighLowAction,
    KeepOrder,
    Replace,
    SwapCards,
    highlow_action_index,
)
from racko.highlow.cards import SWAP, card_name, highlow_deck
from racko.highlow.observation import (
    HighLowObservation,
    HighLowPhase,
    HighLowResult,
    HighLowView,
    highlow_legal_actions,
)
from racko.highlow.scoring import is_racko, score_row
from racko.rules import RACK_SIZE, Rules, is_whole
from racko.table import Table


class HighLowRound(Table[HighLowAction, HighLowResult, events.HighLowEvent]):
    """A hand of High-Low Rack-O, from the deal to the scoring.

    ``deck`` is the whole deck in dealing order: the first card goes to the
    dealer's right and each player's cards fill the row from the left end.
    """

    action_space_size = HIGHLOW_ACTION_SPACE_SIZE
    action_index = staticmethod(highlow_action_index)

    def _deal(self) -> None:
        rules, dealer = self.rules, self.dealer
        players = rules.players
        # Deal to the right (the way play goes), each card filling the row from the left end.
        rows = [[0] * RACK_SIZE for _ in range(players)]
        for index in range(RACK_SIZE * players):
            rows[(dealer - 1 - index) % players][index // players] = self.deck[index]
        self._racks = rows
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
        self.log.append(events.RowsDealt(dealer, self.dealt))
        for seat in self._play_order(dealer):
            if self._check_racko(seat):
                return
        self._advance()

    @classmethod
    def full_deck(cls, rules: Rules) -> list[int]:
        return highlow_deck()

    @classmethod
    def deck_text(cls, rules: Rules) -> str:
        return "the 112 High-Low cards: two of each number 1-50, six Wild and six Swap"

    # --- Questions -------------------------------------------------------------------------

    @property
    def phase(self) -> HighLowPhase:
        return self._phase

    def legal_actions(self) -> list[HighLowAction]:
        if self._phase is HighLowPhase.OVER:
            return []
        return highlow_legal_actions(self._to_act, self._phase)

    def public_view(self) -> HighLowView:
        view = self._public
        if view is None:
            over = self._phase is HighLowPhase.OVER
            view = HighLowView(
                rules=self._public_rules,
                round_number=self.number,
                dealer=self.dealer,
                drawer=self._play_dealer,
                to_act=None if over else self._to_act,
                phase=self._phase,
                turns=self._turns,
                stock_size=len(self._stock),
                discard_pile=tuple(self._discard),
                rows=tuple(tuple(row) for row in self._racks),
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

    def _apply(self, action: HighLowAction) -> None:
        self._public = None
        self.actions.append(action)
        seat = self._to_act
        if isinstance(action, Replace):
            self._replace(seat, action.position)
        elif isinstance(action, SwapCards):
            row = self._racks[seat]
            row[action.first], row[action.second] = row[action.second], row[action.first]
            self.log.append(events.CardsSwapped(seat, action.first, action.second))
            self._pending_swaps.pop(0)
            if not self._check_racko(seat):
                self._advance()
        else:
            self.log.append(events.RowKept(seat))
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
        row = self._racks[seat]
        removed = row[position]
        row[position] = held
        self._held = None
        self._turns += 1
        self._placed_this_round += 1
        self.log.append(events.CardPlaced(seat, held, position, removed))
        if self._check_racko(seat, removed):
            return
        if self._placed_this_round < self.rules.players:
            # Passed to the right; everyone saw the card face up in the row.
            self._to_act = (seat - 1) % self.rules.players
            self._held = removed
            self._held_drawn = False
            self.log.append(events.CardPassed(self._to_act, removed))
            return
        self._discard.append(removed)
        self.log.append(events.CardDiscarded(seat, removed))
        cap = self.rules.turn_cap
        if cap is not None and self._turns >= cap:
            self.log.append(events.HandCapped())
            self._finish(None)
            return
        # The deal passes to the right; the prior dealer plays last.
        self._play_dealer = (self._play_dealer - 1) % self.rules.players
        self._placed_this_round = 0
        self._advance()

    def _check_racko(self, seat: int, loose: int | None = None) -> bool:
        """Go Rack-O if this row now reads in order; ``loose`` is a card in transit, put on the discard pile."""
        row = self._racks[seat]
        if SWAP in row or not is_racko(row):
            return False
        if loose is not None:
            self._discard.append(loose)
            self.log.append(events.CardDiscarded(seat, loose))
        self.log.append(events.WentRackO(seat))
        self._finish(seat)
        return True

    def _draw(self) -> int:
        if not self._stock:
            self._refill()
        return self._stock.pop()

    def _refill(self) -> None:
        self._stock = list(reversed(self._new_stock(tuple(self._discard))))
        self._discard = []
        self.log.append(events.StockRefilled())

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
                self.log.append(events.CardDrawn(dealer, card, private=False))
                self.log.append(events.CardDiscarded(dealer, card))
                self._pending_swaps = self._play_order(dealer)
                continue
            self._held = card
            self._held_drawn = True
            self._to_act = dealer
            self._phase = HighLowPhase.PLACE
            self.log.append(events.CardDrawn(dealer, card, private=True))
            return

    def _resolve_starting_swap(self) -> bool:
        """Replace the Swaps dealt into the next row that has any (in play order); return whether there was one.

        Every Swap of the row is replaced first, left to right (a replacement that is a Swap is discarded
        too), then the owner gets one swap decision per Swap discarded.
        """
        for seat in self._play_order(self.dealer):
            row = self._racks[seat]
            if SWAP not in row:
                continue
            chances = 0
            while SWAP in row:
                position = row.index(SWAP)
                card = SWAP
                while card == SWAP:
                    self._discard.append(SWAP)
                    self.log.append(events.SwapDiscardedAtDeal(seat, SWAP, position))
                    chances += 1
                    card = self._draw()
                row[position] = card
                self.log.append(events.CardPlaced(seat, card, position, None))
            if not self._check_racko(seat):
                self._pending_swaps = [seat] * chances
            return True
        return False

    def _finish(self, winner: int | None) -> None:
        rows = tuple(tuple(row) for row in self._racks)
        scored = [
            score_row(row, winner=seat == winner, with_run_bonus=self.rules.bonus) for seat, row in enumerate(rows)
        ]
        best = scored[winner] if winner is not None else None
        self._result = HighLowResult(
            scores=tuple(score.points for score in scored),
            winner=winner,
            capped=winner is None,
            racks=rows,
            ordered=tuple(score.ordered for score in scored),
            doubles=tuple(score.doubles for score in scored),
            direction=best.direction if best is not None else 0,
            run=best.run if best is not None else 0,
            bonus=best.bonus if best is not None else 0,
            turns=self._turns,
        )
        self._phase = HighLowPhase.OVER
        self._held = None
        self._pending_swaps = []
        self._public = None
        self.log.append(RoundEnded(self._result))


def _is_index(value: object) -> bool:
    return is_whole(value) and 0 <= value < RACK_SIZE
