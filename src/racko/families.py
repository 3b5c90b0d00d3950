"""What differs between the classic family and High-Low: the deck, the cut, the deal's rotation, the round type,
and how actions and cards are written in records.  :func:`family_of` picks one from the rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from racko.actions import (
    ACTION_SPACE_SIZE,
    Action,
    action_from_index,
    action_from_json,
    action_index,
    action_to_json,
)
from racko.errors import SetupError
from racko.highlow import (
    HIGHLOW_ACTION_SPACE_SIZE,
    HighLowAction,
    HighLowObservation,
    HighLowRound,
    card_from_json,
    card_to_json,
    cut_value,
    highlow_action_from_index,
    highlow_action_from_json,
    highlow_action_index,
    highlow_action_to_json,
    highlow_deck,
)
from racko.observation import Observation
from racko.round import Round, standard_deck
from racko.rules import Rules, is_whole

AnyAction = Action | HighLowAction
AnyRound = Round | HighLowRound
AnyObservation = Observation | HighLowObservation


def _classic_card_from_json(value: Any) -> int:
    if is_whole(value):
        return value
    raise SetupError(f"{value!r} is not a card number.")


def _classic_card_to_json(card: int) -> int:
    return card


def _lowest_cut_deals(rules: Rules, rng: random.Random) -> tuple[tuple[int, ...], int]:
    # Each player cuts a card; the lowest deals first (sheet 000, Set-up 4). Cards differ, so no ties.
    cut = tuple(rng.sample(standard_deck(rules.deck_size), rules.players))
    return cut, cut.index(min(cut))


def _highest_cut_deals(rules: Rules, rng: random.Random) -> tuple[tuple[int, ...], int]:
    # Each player takes a card from the top of the deck; the highest deals, Swap and Wild count as 0 (sheet 003).
    # Decision: players tied for the highest cut again, from a fresh shuffle, until one is highest.
    contenders = list(range(rules.players))
    first_cut: tuple[int, ...] | None = None
    while True:
        deck = highlow_deck()
        rng.shuffle(deck)
        cards = deck[: len(contenders)]
        if first_cut is None:
            first_cut = tuple(cards)
        best = max(cut_value(card) for card in cards)
        contenders = [seat for seat, card in zip(contenders, cards, strict=True) if cut_value(card) == best]
        if len(contenders) == 1:
            return first_cut, contenders[0]


def _deal_passes_left(rules: Rules, finished: AnyRound) -> int:
    return (finished.dealer + 1) % rules.players  # sheet 000, To start a new round


def _right_of_the_winner_deals(rules: Rules, finished: AnyRound) -> int:
    # Sheet 003: the player to the right of the hand's winner deals next. Decision: after a capped hand (no winner),
    # the player to the right of that hand's dealer.
    result = finished.result
    anchor = result.winner if result is not None and result.winner is not None else finished.dealer
    return (anchor - 1) % rules.players


@dataclass(frozen=True)
class Family:
    name: str
    round_type: Callable[..., AnyRound]
    full_deck: Callable[[Rules], list[int]]
    cut_for_dealer: Callable[[Rules, random.Random], tuple[tuple[int, ...], int]]
    next_dealer: Callable[[Rules, AnyRound], int]
    action_to_json: Callable[[Any], dict[str, Any]]
    action_from_json: Callable[[Any], AnyAction]
    card_to_json: Callable[[int], int | str]
    card_from_json: Callable[[Any], int]
    action_space_size: int
    action_index: Callable[[Any], int]
    action_from_index: Callable[[int, int], AnyAction]

    def deck_is_valid(self, rules: Rules, deck: Sequence[int]) -> bool:
        return all(is_whole(card) for card in deck) and sorted(deck) == sorted(self.full_deck(rules))


CLASSIC = Family(
    name="classic",
    round_type=Round,
    full_deck=Round.full_deck,
    cut_for_dealer=_lowest_cut_deals,
    next_dealer=_deal_passes_left,
    action_to_json=action_to_json,
    action_from_json=action_from_json,
    card_to_json=_classic_card_to_json,
    card_from_json=_classic_card_from_json,
    action_space_size=ACTION_SPACE_SIZE,
    action_index=action_index,
    action_from_index=action_from_index,
)

HIGHLOW = Family(
    name="highlow",
    round_type=HighLowRound,
    full_deck=HighLowRound.full_deck,
    cut_for_dealer=_highest_cut_deals,
    next_dealer=_right_of_the_winner_deals,
    action_to_json=highlow_action_to_json,
    action_from_json=highlow_action_from_json,
    card_to_json=card_to_json,
    card_from_json=card_from_json,
    action_space_size=HIGHLOW_ACTION_SPACE_SIZE,
    action_index=highlow_action_index,
    action_from_index=highlow_action_from_index,
)


def family_of(rules: Rules) -> Family:
    """The family whose engine plays these rules."""
    return HIGHLOW if rules.variant == "highlow" else CLASSIC
