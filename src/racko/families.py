"""What differs between the classic family and High-Low: the deck, the cut, the deal's rotation, the round type,
the verbs players use, and how actions and cards are written in records.

A :class:`Family` is a typed interface (a generic protocol over the family's action and round types);
:func:`family_of` gives the one a variant belongs to, as the variant says (:attr:`racko.rules.Variant.family`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import racko.actions as classic_actions
import racko.highlow as highlow
from racko.actions import Action
from racko.errors import SetupError
from racko.events import Event
from racko.highlow import HighLowAction, HighLowEvent, HighLowObservation, HighLowRound
from racko.observation import Observation
from racko.round import Round
from racko.rules import Rules, is_whole, variant

AnyAction = Action | HighLowAction
AnyRound = Round | HighLowRound
AnyObservation = Observation | HighLowObservation
AnyEvent = Event | HighLowEvent

ActionT = TypeVar("ActionT")
RoundT = TypeVar("RoundT")


class Family(Protocol[ActionT, RoundT]):
    """Everything the match, records and front ends need to know that differs between the families."""

    name: str
    action_space_size: int
    cards_in_records: str
    """How a record writes this family's cards, for error messages."""
    round_type: type[Any]
    """The family's round class: it knows the deck and makes the rounds (the families subclass this protocol to
    answer through it)."""

    def full_deck(self, rules: Rules) -> list[int]:
        deck: list[int] = self.round_type.full_deck(rules)
        return deck

    def deck_text(self, rules: Rules) -> str:
        text: str = self.round_type.deck_text(rules)
        return text

    def deck_is_valid(self, rules: Rules, deck: Sequence[int]) -> bool:
        return bool(self.round_type.deck_is_valid(rules, deck))

    def new_round(
        self,
        rules: Rules,
        deck: Sequence[int],
        dealer: int,
        *,
        rng: random.Random,
        reshuffles: Sequence[Sequence[int]] = (),
        totals: Sequence[int] | None = None,
        number: int = 1,
    ) -> RoundT:
        made: RoundT = self.round_type(
            rules, deck, dealer, rng=rng, reshuffles=reshuffles, totals=totals, number=number
        )
        return made

    def cut_for_dealer(self, rules: Rules, rng: random.Random) -> tuple[tuple[int, ...], int]:
        """The cards cut for the first deal (the first cut, if a tie was cut again) and the first dealer."""

    def next_dealer(self, rules: Rules, finished: RoundT) -> int: ...

    def verbs(self, rules: Rules) -> frozenset[str]:
        """The kinds of action a player of these rules ever takes (the ``kind`` of its action types)."""

    def action_to_json(self, action: ActionT) -> dict[str, Any]: ...

    def action_from_json(self, data: object) -> ActionT: ...

    def action_index(self, action: ActionT) -> int: ...

    def action_from_index(self, seat: int, index: int) -> ActionT: ...

    def card_to_json(self, card: int) -> int | str: ...

    def card_from_json(self, value: object) -> int: ...


class ClassicFamily(Family[Action, Round]):
    """Classic, Bonus and Partners Rack-O: cards 1 to N, the lowest cut deals, the deal passes left."""

    name = "classic"
    round_type = Round
    action_space_size = classic_actions.ACTION_SPACE_SIZE
    cards_in_records = "card numbers"

    def cut_for_dealer(self, rules: Rules, rng: random.Random) -> tuple[tuple[int, ...], int]:
        # Each player cuts a card; the lowest deals first (sheet 000, Set-up 4). Cards differ, so no ties.
        cut = tuple(rng.sample(Round.full_deck(rules), rules.players))
        return cut, cut.index(min(cut))

    def next_dealer(self, rules: Rules, finished: Round) -> int:
        return (finished.dealer + 1) % rules.players  # sheet 000, To start a new round

    def verbs(self, rules: Rules) -> frozenset[str]:
        kinds = set(classic_actions.ACTION_TYPES)
        if rules.auto_racko:
            kinds.discard("wait")  # only where calling is a choice (Bonus Rack-O) may a player hold back
        return frozenset(kinds)

    action_to_json = staticmethod(classic_actions.action_to_json)
    action_from_json = staticmethod(classic_actions.action_from_json)
    action_index = staticmethod(classic_actions.action_index)
    action_from_index = staticmethod(classic_actions.action_from_index)

    def card_to_json(self, card: int) -> int | str:
        return card

    def card_from_json(self, value: object) -> int:
        if is_whole(value):
            return value
        raise SetupError(f"{value!r} is not a card number.")


class HighLowFamily(Family[HighLowAction, HighLowRound]):
    """High-Low Rack-O: 112 cards with Wilds and Swaps, the highest cut deals, the winner's right deals next."""

    name = "highlow"
    round_type = HighLowRound
    action_space_size = highlow.HIGHLOW_ACTION_SPACE_SIZE
    cards_in_records = 'cards (numbers 1-50, "W" or "S")'

    def cut_for_dealer(self, rules: Rules, rng: random.Random) -> tuple[tuple[int, ...], int]:
        # Each player takes a card from the top of the deck; the highest deals, Swap and Wild count as 0 (sheet
        # 003). Decision: players tied for the highest cut again, from a fresh shuffle, until one is highest.
        contenders = list(range(rules.players))
        first_cut: tuple[int, ...] | None = None
        while True:
            deck = highlow.highlow_deck()
            rng.shuffle(deck)
            cards = deck[: len(contenders)]
            if first_cut is None:
                first_cut = tuple(cards)
            best = max(highlow.cut_value(card) for card in cards)
            contenders = [seat for seat, card in zip(contenders, cards, strict=True) if highlow.cut_value(card) == best]
            if len(contenders) == 1:
                return first_cut, contenders[0]

    def next_dealer(self, rules: Rules, finished: HighLowRound) -> int:
        # Sheet 003: the player to the right of the hand's winner deals next. Decision: after a capped hand (no
        # winner), the player to the right of that hand's dealer.
        result = finished.result
        anchor = result.winner if result is not None and result.winner is not None else finished.dealer
        return (anchor - 1) % rules.players

    def verbs(self, rules: Rules) -> frozenset[str]:
        return frozenset({highlow.Replace.kind, highlow.SwapCards.kind, highlow.KeepOrder.kind})

    action_to_json = staticmethod(highlow.highlow_action_to_json)
    action_from_json = staticmethod(highlow.highlow_action_from_json)
    action_index = staticmethod(highlow.highlow_action_index)
    action_from_index = staticmethod(highlow.highlow_action_from_index)
    card_to_json = staticmethod(highlow.card_to_json)
    card_from_json = staticmethod(highlow.card_from_json)


CLASSIC: Family[Action, Round] = ClassicFamily()
HIGHLOW: Family[HighLowAction, HighLowRound] = HighLowFamily()
FAMILIES: dict[str, Family[Any, Any]] = {CLASSIC.name: CLASSIC, HIGHLOW.name: HIGHLOW}


def family_of(rules: Rules) -> Family[Any, Any]:
    """The family whose engine plays these rules, as their variant says."""
    return FAMILIES[variant(rules.variant).family]
