"""One round of classic Rack-O: the deal, the turns, the stock refills and the scoring.

:class:`Round` is changed only by :meth:`Round.apply`, which first runs the
same check as :meth:`Round.check` and raises a typed
:class:`~racko.errors.IllegalActionError` (leaving the round untouched) when
the action is not allowed.
"""

from __future__ import annotations

from collections.abc import Sequence

from racko import actions, errors, events, scoring
from racko.observation import Observation, Phase, PublicView, RoundResult, legal_actions
from racko.rules import RACK_SIZE, SLOT_LABELS, Rules, is_whole
from racko.table import Table

_NO_LEFT: tuple[tuple[int, ...], ...] = ((),) * RACK_SIZE
_NOTHING_KNOWN: tuple[int | None, ...] = (None,) * RACK_SIZE


def standard_deck(size: int) -> list[int]:
    """The cards 1 to ``size``, in order."""
    return list(range(1, size + 1))


def deal_position(index: int, dealer: int, players: int) -> tuple[int, int]:
    """Where the ``index``-th dealt card goes: (seat, slot index).

    Dealing starts at the dealer's left, one card at a time; each player's
    first card goes into slot 50, the next into 45, ... the tenth into slot 5.
    """
    return (dealer + 1 + index) % players, RACK_SIZE - 1 - index // players


def arrange_deck(
    racks: Sequence[Sequence[int]], dealer: int, turned_up: int, stock: Sequence[int] = (), *, deck_size: int
) -> list[int]:
    """The deck order that deals exactly these racks (slot 5 first), turns up ``turned_up``,
    and leaves ``stock`` (top first).  Cards not named go to the bottom of the stock in order;
    this is how a hand-written record reproduces a rule situation.
    """
    players = len(racks)
    dealt = [0] * (RACK_SIZE * players)
    for index in range(len(dealt)):
        seat, slot = deal_position(index, dealer, players)
        dealt[index] = racks[seat][slot]
    named = [*dealt, turned_up, *stock]
    rest = sorted(set(range(1, deck_size + 1)) - set(named))
    return named + rest


class Round(Table[actions.Action, RoundResult, events.Event]):
    """A round of classic Rack-O, from the deal to the scoring.

    ``deck`` is the whole deck in the order it is dealt (the first card goes to
    the dealer's left); a hand-written order reproduces a rule situation.
    ``rng`` draws the shuffles when ``refill="shuffle"``; ``reshuffles``
    replays recorded ones instead (top card first).
    """

    action_space_size = actions.ACTION_SPACE_SIZE
    action_index = staticmethod(actions.action_index)

    def _deal(self) -> None:
        rules, dealer = self.rules, self.dealer
        players = rules.players
        # Deal one card at a time from the dealer's left; each player's k-th card goes into slot 50 - 5k.
        racks = [[0] * RACK_SIZE for _ in range(players)]
        for index in range(RACK_SIZE * players):
            seat, slot = deal_position(index, dealer, players)
            racks[seat][slot] = self.deck[index]
        self._racks = racks
        self.dealt: tuple[tuple[int, ...], ...] = tuple(tuple(rack) for rack in racks)
        """Every rack as dealt (hidden information: for records, replays and demos)."""
        rest = self.deck[RACK_SIZE * players :]
        self._discard = [rest[0]]
        self._stock = list(reversed(rest[1:]))
        self._to_act = (dealer + 1) % players
        self._phase = Phase.PICK
        self._held_from_discard = False
        self._known: list[tuple[int | None, ...]] = [_NOTHING_KNOWN] * players
        self._left: list[tuple[tuple[int, ...], ...]] = [_NO_LEFT] * players
        self._turned_over: tuple[int, ...] | None = None
        self._public: PublicView | None = None
        self.log.extend([events.Dealt(dealer, self.dealt), events.TurnedUp(rest[0])])
        if rules.auto_racko:
            # A rack that qualifies straight from the deal goes out at once, first in play order.
            for offset in range(1, players + 1):
                seat = (dealer + offset) % players
                if scoring.qualifies_for_racko(racks[seat], rules):
                    self._go_racko(seat)
                    break

    @classmethod
    def full_deck(cls, rules: Rules) -> list[int]:
        return standard_deck(rules.deck_size)

    @classmethod
    def deck_text(cls, rules: Rules) -> str:
        return f"each card from 1 to {rules.deck_size} exactly once"

    # --- Questions -------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    def legal_actions(self) -> list[actions.Action]:
        """The actions the seat to act may take now."""
        if self._phase is Phase.OVER:
            return []
        return legal_actions(
            self._to_act,
            self._phase,
            self._racks[self._to_act],
            self.rules,
            stock_size=len(self._stock),
            discard_size=len(self._discard),
            held_from_discard=self._held_from_discard,
        )

    def public_view(self) -> PublicView:
        """What everyone knows (a spectator's view)."""
        view = self._public
        if view is None:
            over = self._phase is Phase.OVER
            view = PublicView(
                rules=self._public_rules,
                round_number=self.number,
                dealer=self.dealer,
                to_act=None if over else self._to_act,
                phase=self._phase,
                turns=self._turns,
                stock_size=len(self._stock),
                discard_pile=tuple(self._discard),
                taken_discard=self._held if self._held_from_discard else None,
                known=tuple(self._known),
                left=tuple(self._left),
                turned_over_pile=self._turned_over,
                totals=self.totals,
                result=self._result,
            )
            self._public = view
        return view

    def observation(self, seat: int) -> Observation:
        """Exactly what ``seat`` may know now."""
        self._check_seat(seat)
        held = self._held if seat == self._to_act and self._phase is Phase.PLACE else None
        return Observation(seat, tuple(self._racks[seat]), held, self.public_view())

    # --- The one entry point that changes the round ----------------------------------------

    def _apply(self, action: actions.Action) -> None:
        self._public = None
        self.actions.append(action)
        seat = self._to_act
        kind = type(action)
        if kind is actions.DrawFromStock or kind is actions.TakeDiscard:
            from_discard = kind is actions.TakeDiscard
            card = (self._discard if from_discard else self._stock).pop()
            self._held = card
            self._held_from_discard = from_discard
            self._phase = Phase.PLACE
            self.log.append(events.Took(seat, card) if from_discard else events.Drew(seat, card))
        elif kind is actions.Exchange:
            assert isinstance(action, actions.Exchange) and self._held is not None
            slot = action.slot
            rack = self._racks[seat]
            card_out = rack[slot]
            card_in = self._held
            rack[slot] = card_in
            self._discard.append(card_out)
            known = list(self._known[seat])
            known[slot] = card_in if self._held_from_discard else None
            self._known[seat] = tuple(known)
            left = list(self._left[seat])
            left[slot] = left[slot] + (card_out,)
            self._left[seat] = tuple(left)
            self.log.append(events.Exchanged(seat, slot, card_in, card_out, self._held_from_discard))
            self._end_turn(seat)
        elif kind is actions.Discard:
            assert self._held is not None
            self._discard.append(self._held)
            self.log.append(events.Discarded(seat, self._held))
            self._end_turn(seat)
        elif kind is actions.CallRacko:
            self._go_racko(seat)
        else:  # actions.Wait
            self.log.append(events.Waited(seat, could_call=scoring.qualifies_for_racko(self._racks[seat], self.rules)))
            self._next_turn()

    # --- Inside ----------------------------------------------------------------------------

    def _why_illegal(self, action: actions.Action) -> errors.IllegalActionError | None:
        kind = type(action)
        if kind not in _ACTION_KINDS:
            return errors.UnknownActionError(f"{action!r} is not a Rack-O action.")
        phase = self._phase
        if phase is Phase.OVER:
            return errors.RoundOverError("The round is over: no more moves can be made.")
        seat = action.seat
        if not is_whole(seat):
            return errors.UnknownActionError(f"An action's seat is a whole number, not {seat!r}.")
        if seat != self._to_act:
            return errors.NotYourTurnError(f"It is not your turn: seat {self._to_act} is to play, not seat {seat}.")
        if kind is actions.Exchange:
            assert isinstance(action, actions.Exchange)
            slot = action.slot
            if not is_whole(slot) or not 0 <= slot < RACK_SIZE:
                return errors.SlotOutOfRangeError(
                    f"There is no slot {slot!r}: slots are numbered 0 (the slot labelled 5) "
                    f"to 9 (the slot labelled 50)."
                )
            if phase is not Phase.PLACE:
                return errors.WrongPhaseError(self._phase_hint("exchange a card"))
            return None
        if kind is actions.Discard:
            if phase is not Phase.PLACE:
                return errors.WrongPhaseError(self._phase_hint("discard"))
            if self._held_from_discard:
                return errors.MustPlaceDiscardError(
                    f"You took {self._held} from the discard pile, so you must place it in your rack."
                )
            return None
        if kind is actions.DrawFromStock or kind is actions.TakeDiscard:
            if phase is not Phase.PICK:
                wanted = "draw from the stock" if kind is actions.DrawFromStock else "take the top discard"
                return errors.WrongPhaseError(self._phase_hint(wanted))
            if kind is actions.DrawFromStock and not self._stock:
                return errors.EmptyPileError("The stock is empty.")
            if kind is actions.TakeDiscard and not self._discard:
                return errors.EmptyPileError("The discard pile is empty.")
            return None
        if kind is actions.CallRacko:
            if phase is Phase.PLACE:
                return errors.WrongPhaseError(self._phase_hint("call Rack-O"))
            rack = self._racks[seat]
            if not scoring.is_ordered(rack):
                first_break = scoring.ordered_prefix(rack)
                return errors.NotRackoError(
                    f"Your rack is not in order: {rack[first_break]} in slot {SLOT_LABELS[first_break]} "
                    f"is not higher than {rack[first_break - 1]} in slot {SLOT_LABELS[first_break - 1]}."
                )
            if not scoring.qualifies_for_racko(rack, self.rules):
                return errors.NotRackoError(
                    "Your rack is in order, but with two players a Rack-O needs a run of at least three "
                    "consecutive numbers in adjacent slots (like 28, 29, 30)."
                )
            return None
        # actions.Wait
        if phase is not Phase.DECLARE:
            if self.rules.auto_racko:
                return errors.WrongPhaseError("There is no waiting in this game: a rack in order goes Rack-O at once.")
            return errors.WrongPhaseError(
                "You can only wait (end your turn without calling Rack-O) at the end of a turn."
            )
        return None

    def _phase_hint(self, wanted: str) -> str:
        if self._phase is Phase.PLACE:
            if self._held_from_discard:
                return f"You cannot {wanted} now: you took {self._held} from the discard pile, so you must place it."
            return f"You cannot {wanted} now: place the card you drew in a slot, or discard it."
        if self._phase is Phase.DECLARE:
            return f"You cannot {wanted} now: your turn is over; call Rack-O or play on."
        return f"You cannot {wanted} now: first draw from the stock or take the top discard."

    def _end_turn(self, seat: int) -> None:
        self._held = None
        self._held_from_discard = False
        self._turns += 1
        if not self._stock:
            self._refill()
        if not self.rules.auto_racko:
            # Where calling is a choice, every turn ends in the moment to call or play on, whether the rack
            # qualifies or not: a moment that came only with a qualifying rack would tell the table so.
            self._phase = Phase.DECLARE
            return
        if scoring.qualifies_for_racko(self._racks[seat], self.rules):
            self._go_racko(seat)
            return
        self._next_turn()

    def _next_turn(self) -> None:
        cap = self.rules.turn_cap
        if cap is not None and self._turns >= cap:
            self._finish(winner=None, capped=True)
            return
        self._to_act = (self._to_act + 1) % self.rules.players
        self._phase = Phase.PICK

    def _refill(self) -> None:
        pile = tuple(self._discard)
        self._turned_over = pile
        order = self._new_stock(pile)
        self._stock = list(reversed(order))
        turned_up = self._stock.pop()
        self._discard = [turned_up]
        self.log.append(events.Refilled(self.rules.refill, pile, order))
        self.log.append(events.TurnedUp(turned_up))

    def _go_racko(self, seat: int) -> None:
        self.log.append(events.Called(seat))
        self._finish(winner=seat, capped=False)

    def _finish(self, *, winner: int | None, capped: bool) -> None:
        racks = tuple(tuple(rack) for rack in self._racks)
        scores = []
        ordered = []
        for seat, rack in enumerate(racks):
            if seat == winner:
                scores.append(scoring.racko_score(rack, self.rules))
                ordered.append(RACK_SIZE)
            else:
                scores.append(scoring.prefix_score(rack))
                ordered.append(scoring.ordered_prefix(rack))
        run = scoring.longest_run(racks[winner]) if winner is not None else 0
        bonus = scoring.run_bonus(run) if winner is not None and self.rules.bonus else 0
        self._result = RoundResult(
            scores=tuple(scores),
            winner=winner,
            capped=capped,
            racks=racks,
            ordered=tuple(ordered),
            run=run,
            bonus=bonus,
            turns=self._turns,
        )
        self._phase = Phase.OVER
        self._held = None
        self._held_from_discard = False
        self._public = None
        self.log.append(events.RoundEnded(self._result))


_ACTION_KINDS = frozenset(
    {actions.DrawFromStock, actions.TakeDiscard, actions.Exchange, actions.Discard, actions.CallRacko, actions.Wait}
)
