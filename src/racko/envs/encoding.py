"""One seat's observation as a fixed-length vector of numbers in [0, 1], and the list of what each index means.

The vector is built from the seat's own :class:`~racko.Observation` (or
:class:`~racko.highlow.HighLowObservation`) and nothing else, so it can hold only what that seat may know.
Seats in it are *relative*: block position 0 is the observing seat, 1 the seat that plays after it, and so on in
the order of play (up the seat numbers in the classic family, down them in High-Low), so that one policy can sit
in any seat.  docs/ENVS.md lists the blocks; :func:`layout` gives them with their offsets.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from racko.families import AnyObservation
from racko.highlow import HIGHEST, SWAP, HighLowObservation, HighLowPhase, highlow_deck
from racko.observation import Observation, Phase
from racko.rules import HIGHLOW_DECK_SIZE, RACK_SIZE, Rules, variant
from racko.scoring import longest_run, ordered_prefix, qualifies_for_racko

Vector = npt.NDArray[np.float32]
Part = tuple[str, npt.NDArray[Any]]
"""A block's name and its values, before they are joined into the vector."""

TURN_SCALE = 200
"""Turns are given as a fraction of the turn cap, or of this many turns when the rules have no cap."""

CARD_CODES = HIGHEST + 2
"""High-Low card codes: 0 is the Wild, 1-50 the numbers, 51 the Swap."""

CLASSIC_PHASES = (Phase.PICK, Phase.PLACE, Phase.DECLARE, Phase.OVER)
HIGHLOW_PHASES = (HighLowPhase.PLACE, HighLowPhase.SWAP, HighLowPhase.OVER)


@dataclass(frozen=True, slots=True)
class Block:
    """A run of indexes in the observation vector."""

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


def _blocks(parts: list[tuple[str, int, str]]) -> tuple[Block, ...]:
    blocks: list[Block] = []
    start = 0
    for name, size, meaning in parts:
        blocks.append(Block(name, start, size, meaning))
        start += size
    return tuple(blocks)


def layout(rules: Rules) -> tuple[Block, ...]:
    """The blocks of the observation vector for these rules, in order (N is the deck size, P the players)."""
    players = rules.players
    if variant(rules.variant).family == "highlow":
        codes = CARD_CODES
        return _blocks(
            [
                ("rows", players * RACK_SIZE * codes, "per relative seat, per position: the card's code, one-hot"),
                ("row_values", players * RACK_SIZE, "per relative seat, per position: number / 50 (Wild: 0)"),
                ("held", codes, "the card this seat holds (drawn or passed to it), one-hot"),
                ("passed_card", codes, "the card passed to the player to act (public), one-hot"),
                ("discard_top", codes, "the top discard, one-hot"),
                ("discard_counts", codes, "per card code: copies in the discard pile / copies in the deck"),
                ("unseen_counts", codes, "per card code: copies this seat cannot see / copies in the deck"),
                ("stock_size", 1, "cards in the stock / 112"),
                ("phase", len(HIGHLOW_PHASES), "place, swap, over: one-hot"),
                ("to_act", players, "the relative seat to act, one-hot (all zero once the round is over)"),
                ("drawer", players, "the relative seat that draws in this round of play, one-hot"),
                ("dealer", players, "the relative seat that dealt the hand, one-hot"),
                ("turns", 1, "cards placed this hand / the turn cap"),
                ("totals", players, "per relative seat: game total before this hand / target (at most 1)"),
            ]
        )
    cards = rules.deck_size
    return _blocks(
        [
            ("rack", RACK_SIZE * cards, "per slot (5 first): the card, one-hot over 1..N"),
            ("rack_values", RACK_SIZE, "per slot: card / N"),
            ("held", cards, "the card this seat holds (drawn or taken), one-hot"),
            ("held_value", 1, "that card / N (0: none)"),
            ("held_from_discard", 1, "1 if the card to place was taken from the discard pile"),
            ("discard_top", cards, "the top discard, one-hot"),
            ("discard_pile", cards, "every card in the discard pile"),
            ("unseen", cards, "every card this seat has not seen (in the stock or another rack)"),
            ("next_stock_card", cards, "the stock's top card when a flip refill made it public, one-hot"),
            ("stock_size", 1, "cards in the stock / N"),
            ("phase", len(CLASSIC_PHASES), "pick, place, declare, over: one-hot"),
            ("to_act", players, "the relative seat to act, one-hot (all zero once the round is over)"),
            ("dealer", players, "the relative seat that dealt the round, one-hot"),
            ("known", players * RACK_SIZE, "per relative seat, per slot: card / N everyone knows is there, else 0"),
            ("last_left", players * RACK_SIZE, "per relative seat, per slot: card / N last seen leaving it, else 0"),
            ("rack_facts", 3, "own rack: qualifies for Rack-O (0/1), cards in order from slot 5 / 10, run / 10"),
            ("turns", 1, "turns played this round / the turn cap"),
            ("totals", players, "per relative seat: game total before this round / target (at most 1)"),
        ]
    )


def size(rules: Rules) -> int:
    """The length of the observation vector for these rules."""
    return layout(rules)[-1].stop


def relative_seats(rules: Rules, seat: int) -> list[int]:
    """The seats in the order of play starting from ``seat`` (index = relative seat)."""
    players = rules.players
    step = -1 if variant(rules.variant).family == "highlow" else 1
    return [(seat + step * offset) % players for offset in range(players)]


def encode(observation: AnyObservation) -> Vector:
    """The observation vector of the observing seat (see :func:`layout`)."""
    parts = _highlow_parts(observation) if isinstance(observation, HighLowObservation) else _classic_parts(observation)
    blocks = layout(observation.rules)
    assert [name for name, _ in parts] == [block.name for block in blocks]
    vector = np.concatenate([values for _, values in parts]).astype(np.float32)
    assert vector.shape == (blocks[-1].stop,)
    return vector


def _one_hot(size: int, index: int | None) -> Vector:
    values = np.zeros(size, dtype=np.float32)
    if index is not None:
        values[index] = 1.0
    return values


def _turns(rules: Rules, turns: int) -> Vector:
    return np.array([min(1.0, turns / (rules.turn_cap or TURN_SCALE))], dtype=np.float32)


def _totals(rules: Rules, totals: tuple[int, ...], order: list[int]) -> Vector:
    return np.array([min(1.0, totals[seat] / rules.target) for seat in order], dtype=np.float32)


def _relative_one_hot(order: list[int], seat: int | None) -> Vector:
    return _one_hot(len(order), order.index(seat) if seat is not None else None)


def _classic_parts(observation: Observation) -> list[Part]:
    public = observation.public
    rules = public.rules
    cards = rules.deck_size
    order = relative_seats(rules, observation.seat)
    rack = observation.rack

    rack_one_hot = np.zeros((RACK_SIZE, cards), dtype=np.float32)
    rack_one_hot[np.arange(RACK_SIZE), np.array(rack) - 1] = 1.0
    held = observation.held
    pile = np.zeros(cards, dtype=np.float32)
    pile[np.array(public.discard_pile, dtype=np.int64) - 1] = 1.0
    unseen = np.ones(cards, dtype=np.float32)
    unseen[np.array(sorted(observation.seen_cards()), dtype=np.int64) - 1] = 0.0
    top = public.discard_top
    next_card = public.next_stock_card
    known = np.array([[card or 0 for card in public.known[seat]] for seat in order], dtype=np.float32) / cards
    last_left = np.array(
        [[cards_left[-1] if cards_left else 0 for cards_left in public.left[seat]] for seat in order],
        dtype=np.float32,
    )
    facts = [float(qualifies_for_racko(rack, rules)), ordered_prefix(rack) / RACK_SIZE, longest_run(rack) / RACK_SIZE]
    return [
        ("rack", rack_one_hot.ravel()),
        ("rack_values", np.array(rack, dtype=np.float32) / cards),
        ("held", _one_hot(cards, held - 1 if held is not None else None)),
        ("held_value", np.array([(held or 0) / cards], dtype=np.float32)),
        ("held_from_discard", np.array([float(public.taken_discard is not None)], dtype=np.float32)),
        ("discard_top", _one_hot(cards, top - 1 if top is not None else None)),
        ("discard_pile", pile),
        ("unseen", unseen),
        ("next_stock_card", _one_hot(cards, next_card - 1 if next_card is not None else None)),
        ("stock_size", np.array([public.stock_size / cards], dtype=np.float32)),
        ("phase", _one_hot(len(CLASSIC_PHASES), CLASSIC_PHASES.index(public.phase))),
        ("to_act", _relative_one_hot(order, public.to_act)),
        ("dealer", _relative_one_hot(order, public.dealer)),
        ("known", known.ravel()),
        ("last_left", last_left.ravel() / cards),
        ("rack_facts", np.array(facts, dtype=np.float32)),
        ("turns", _turns(rules, public.turns)),
        ("totals", _totals(rules, public.totals, order)),
    ]


_HIGHLOW_COPIES = Counter(highlow_deck())


def card_code(card: int) -> int:
    """A High-Low card's code: 0 the Wild, 1-50 the numbers, 51 the Swap."""
    return CARD_CODES - 1 if card == SWAP else card


def _code_counts(cards: list[int]) -> Vector:
    counts = np.zeros(CARD_CODES, dtype=np.float32)
    for card, count in Counter(cards).items():
        counts[card_code(card)] = count / _HIGHLOW_COPIES[card]
    return counts


def _highlow_parts(observation: HighLowObservation) -> list[Part]:
    public = observation.public
    rules = public.rules
    order = relative_seats(rules, observation.seat)
    rows = [public.rows[seat] for seat in order]

    rows_one_hot = np.zeros((len(rows) * RACK_SIZE, CARD_CODES), dtype=np.float32)
    codes = [card_code(card) for row in rows for card in row]
    rows_one_hot[np.arange(len(codes)), np.array(codes)] = 1.0
    values = np.array([[max(card, 0) / HIGHEST for card in row] for row in rows], dtype=np.float32)
    held, passed, top = observation.held, public.passed_card, public.discard_pile[-1] if public.discard_pile else None
    visible = [card for row in public.rows for card in row] + list(public.discard_pile)
    if passed is not None:
        visible.append(passed)  # the card to place: passed to the seat to act, whoever observes
    elif held is not None:
        visible.append(held)  # a card this seat drew
    unseen = Counter(highlow_deck())
    unseen.subtract(visible)
    return [
        ("rows", rows_one_hot.ravel()),
        ("row_values", values.ravel()),
        ("held", _one_hot(CARD_CODES, card_code(held) if held is not None else None)),
        ("passed_card", _one_hot(CARD_CODES, card_code(passed) if passed is not None else None)),
        ("discard_top", _one_hot(CARD_CODES, card_code(top) if top is not None else None)),
        ("discard_counts", _code_counts(list(public.discard_pile))),
        ("unseen_counts", _code_counts(list(unseen.elements()))),
        ("stock_size", np.array([public.stock_size / HIGHLOW_DECK_SIZE], dtype=np.float32)),
        ("phase", _one_hot(len(HIGHLOW_PHASES), HIGHLOW_PHASES.index(public.phase))),
        ("to_act", _relative_one_hot(order, public.to_act)),
        ("drawer", _relative_one_hot(order, public.drawer)),
        ("dealer", _relative_one_hot(order, public.dealer)),
        ("turns", _turns(rules, public.turns)),
        ("totals", _totals(rules, public.totals, order)),
    ]
