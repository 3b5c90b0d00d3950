"""What every kind of round shares: the deck, the stock and discard pile, the card in hand, the log, the
questions about legality, and refilling the stock.  :class:`~racko.round.Round` (classic) and
:class:`~racko.highlow.HighLowRound` build on it.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, Self, TypeVar

from racko.errors import IllegalActionError, NoSuchSeatError, RecordError, SetupError
from racko.rules import Rules, is_whole

ActionT = TypeVar("ActionT")
ResultT = TypeVar("ResultT")
EventT = TypeVar("EventT")


class Table(ABC, Generic[ActionT, ResultT, EventT]):
    """The state every round has, and the questions every round answers the same way."""

    action_space_size: int
    action_index: Callable[[Any], int]

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
        """Deal a round from ``deck`` (the whole deck in dealing order) by ``dealer``; ``rng`` draws the shuffles
        of a shuffle refill, ``reshuffles`` replays recorded ones instead (top card first); ``totals`` are the
        match's totals per seat before this round, and ``number`` its number in the match."""
        players = rules.players
        if not self.deck_is_valid(rules, deck):
            raise SetupError(f"The deck must hold {self.deck_text(rules)} (got {len(deck)} cards).")
        if not is_whole(dealer) or not 0 <= dealer < players:
            raise SetupError(f"The dealer must be a seat from 0 to {players - 1}, not {dealer!r}.")
        self.rules = rules
        self._public_rules = copy.copy(rules)  # what views hand out: even forced changes to it never reach the game
        self.dealer = dealer
        self.number = number
        self.deck: tuple[int, ...] = tuple(deck)
        """The whole deck in dealing order."""
        self.totals: tuple[int, ...] = tuple(totals) if totals is not None else (0,) * players
        """Match totals per seat before this round."""
        self._rng = rng if rng is not None else random.Random()
        self._scripted_reshuffles = [tuple(order) for order in reshuffles]
        self.reshuffles: list[tuple[int, ...]] = []
        """The new stock orders (top first) made by shuffle refills so far, for the record."""
        self._stock: list[int] = []  # the top of the stock is the last item
        self._discard: list[int] = []  # bottom first
        self._held: int | None = None
        self._racks: list[list[int]] = []  # per seat: a classic rack, slot 5 first, or a High-Low row, left end first
        self._to_act = dealer
        self._turns = 0
        self._result: ResultT | None = None
        self.actions: list[ActionT] = []
        """Every action applied, in order."""
        self.log: list[EventT] = []
        """Every event, actions and chance alike, with every card (see :meth:`public_log`)."""
        self._deal()

    @abstractmethod
    def _deal(self) -> None:
        """Deal the racks or rows and set up the first turn (the family's own deal)."""

    @classmethod
    @abstractmethod
    def full_deck(cls, rules: Rules) -> list[int]:
        """Every card of the game's deck, in order."""

    @classmethod
    @abstractmethod
    def deck_text(cls, rules: Rules) -> str:
        """What a deck must hold, for the player who wrote a bad one ("each card from 1 to 40 exactly once")."""

    @classmethod
    def deck_is_valid(cls, rules: Rules, deck: Sequence[int]) -> bool:
        """Whether ``deck`` holds exactly the game's cards, in any order."""
        return all(is_whole(card) for card in deck) and sorted(deck) == sorted(cls.full_deck(rules))

    @classmethod
    def deal(cls, rules: Rules, *, seed: int | None = None, dealer: int = 0) -> Self:
        """A freshly shuffled round with its own random generator."""
        rng = random.Random(seed)
        deck = cls.full_deck(rules)
        rng.shuffle(deck)
        return cls(rules, deck, dealer, rng=rng)

    # --- Questions -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self._result is not None

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the round is over."""
        return None if self._result is not None else self._to_act

    def rack(self, seat: int) -> tuple[int, ...]:
        """A seat's cards, first card first: a classic rack (slot 5 first; hidden information, to show only to its
        owner) or a High-Low row (left end first; public)."""
        return tuple(self._racks[seat])

    @property
    def turns(self) -> int:
        """Turns completed so far."""
        return self._turns

    @property
    def result(self) -> ResultT | None:
        return self._result

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def discard_pile(self) -> tuple[int, ...]:
        """Bottom first; the last card is the top discard."""
        return tuple(self._discard)

    @property
    def held(self) -> int | None:
        """The card the player to act holds, if any."""
        return self._held

    def stock(self) -> tuple[int, ...]:
        """The stock, top card first.  Hidden from every player: for tests and analysis only."""
        return tuple(reversed(self._stock))

    def check(self, action: ActionT) -> None:
        """Raise the :class:`IllegalActionError` that says why ``action`` is not allowed now, if it is not."""
        error = self._why_illegal(action)
        if error is not None:
            raise error

    def can(self, action: ActionT) -> bool:
        """Whether ``action`` is allowed now."""
        return self._why_illegal(action) is None

    @abstractmethod
    def legal_actions(self) -> list[ActionT]:
        """The actions the seat to act may take now."""

    def legal_mask(self) -> list[bool]:
        """The legal actions as a fixed-size mask over the variant's action space."""
        mask = [False] * self.action_space_size
        index = type(self).action_index
        for action in self.legal_actions():
            mask[index(action)] = True
        return mask

    def public_log(self, seat: int | None = None) -> list[EventT]:
        """The event log as ``seat`` saw it (``None``: as a spectator saw it)."""
        return [event.visible_to(seat) for event in self.log]  # type: ignore[attr-defined]

    def _check_seat(self, seat: object) -> int:
        if not is_whole(seat) or not 0 <= seat < self.rules.players:
            raise NoSuchSeatError(f"There is no seat {seat!r} at a table of {self.rules.players}.")
        return seat

    # --- The one entry point that changes the round ----------------------------------------

    def apply(self, action: ActionT) -> tuple[EventT, ...]:
        """Apply ``action`` and return the events it logged; raise a typed :class:`IllegalActionError` and change
        nothing if it is illegal (the one legality check).

        A round replaying recorded reshuffles can only find out at the end of a turn that a recorded order does
        not fit the pile; then the round is put back as it was before the action and the :class:`RecordError`
        raised, so that it is never left half-changed.
        """
        error = self._why_illegal(action)
        if error is not None:
            raise error
        saved = copy.deepcopy(self.__dict__) if self._scripted_reshuffles else None
        logged = len(self.log)
        try:
            self._apply(action)
        except RecordError:
            if saved is not None:
                self.__dict__.clear()
                self.__dict__.update(saved)
            raise
        return tuple(self.log[logged:])

    @abstractmethod
    def _apply(self, action: ActionT) -> None:
        """Make the change of a legal action (the family's own rules)."""

    @abstractmethod
    def _why_illegal(self, action: ActionT) -> IllegalActionError | None: ...

    # --- Refilling the stock ---------------------------------------------------------------

    def _new_stock(self, pile: tuple[int, ...]) -> tuple[int, ...]:
        """The new stock's order (top first) made from the discard pile, by the refill rule."""
        if self.rules.refill == "flip":
            return pile  # turned over: the bottom discard becomes the top of the new stock
        # Shuffle even when a recorded order is replayed, so the generator ends where the original's did.
        shuffled = list(pile)
        self._rng.shuffle(shuffled)
        order = tuple(shuffled)
        if self._scripted_reshuffles:
            order = self._scripted_reshuffles.pop(0)
            if sorted(order) != sorted(pile):
                raise RecordError(
                    f"The recorded reshuffle in round {self.number} does not hold the cards of the discard pile."
                )
        self.reshuffles.append(order)
        return order
