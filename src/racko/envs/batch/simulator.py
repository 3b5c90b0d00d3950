"""Whole rounds at once: :func:`simulate` shuffles, deals and plays N rounds under table policies;
:func:`play_decks` plays given deck orders (what the agreement test hands the engine too)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from racko.envs.batch import kernel
from racko.errors import RulesError
from racko.rules import RACK_SIZE, STANDARD_DECK_SIZE

POLICIES: dict[str, int] = {"easy": kernel.BUCKET, "bucket": kernel.BUCKET, "medium": kernel.GAP, "gap": kernel.GAP}
"""The table policies by name: ``easy`` (= ``bucket``), exactly the ``easy`` bot; ``medium`` (= ``gap``), exactly
the ``medium`` bot (classic rounds)."""

DEFAULT_TURN_CAP = 1000
"""The arena's turn cap (racko.tools.arena.DEFAULT_TURN_CAP): every round ends."""

MASK64 = (1 << 64) - 1

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Table:
    """The rules of the simulated rounds: classic Rack-O (auto Rack-O, no bonus) for 2-4 players."""

    players: int = 2
    deck_size: int = 0
    """0: the standard deck for the player count (40, 50, 60)."""
    two_player_rule: bool | None = None
    """None: on with two players, as the rules say."""
    turn_cap: int = DEFAULT_TURN_CAP
    refill: str = "flip"

    def resolved(self) -> Table:
        """With the defaults filled in and checked; raises :class:`~racko.errors.RulesError`."""
        if self.players not in (2, 3, 4):
            raise RulesError(f"The batch simulator plays classic rounds of 2 to 4 players, not {self.players!r}.")
        deck_size = self.deck_size or STANDARD_DECK_SIZE[self.players]
        if deck_size < RACK_SIZE * self.players + 2 or deck_size > 1000:
            raise RulesError(f"A deck of {deck_size} cards does not fit {self.players} players (at most 1000).")
        if self.refill not in ("flip", "shuffle"):
            raise RulesError(f"Unknown refill rule {self.refill!r}: use 'flip' or 'shuffle'.")
        if isinstance(self.turn_cap, bool) or not isinstance(self.turn_cap, int) or self.turn_cap < 1:
            raise RulesError(f"The turn cap must be a positive whole number, not {self.turn_cap!r}.")
        rule = self.players == 2 if self.two_player_rule is None else self.two_player_rule
        return Table(self.players, deck_size, rule, self.turn_cap, self.refill)

    @property
    def needs_run(self) -> bool:
        return bool(self.resolved().two_player_rule)


def policy_codes(policies: Sequence[str | None], players: int) -> npt.NDArray[np.int64]:
    """The kernel's policy per seat (-1: the caller plays that seat)."""
    if len(policies) != players:
        raise RulesError(f"Give one policy per seat ({players}), not {len(policies)}.")
    codes = []
    for name in policies:
        if name is None:
            codes.append(-1)
        elif name in POLICIES:
            codes.append(POLICIES[name])
        else:
            raise RulesError(f"Unknown table policy {name!r}; known: {', '.join(POLICIES)}.")
    return np.array(codes, dtype=np.int64)


@dataclass(frozen=True)
class Outcomes:
    """What became of each round: ``winners`` (-1 when the turn cap ended it), ``turns``; from :func:`play_decks`
    also ``scores`` (N, P) and the final ``racks`` (N, P, 10) and the first shuffle refills' orders (N, R, D)."""

    winners: Ints
    turns: Ints
    scores: Ints | None = None
    racks: Ints | None = None
    refills: Ints | None = None

    @property
    def capped(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.winners < 0)


def simulate(
    count: int, seed: int = 0, policies: Sequence[str] = ("easy", "easy"), table: Table | None = None, dealer: int = 0
) -> Outcomes:
    """Shuffle, deal and play ``count`` rounds; round ``i`` is dealt by seat ``(dealer + i) % players`` and draws
    its deck (and shuffle refills) from a generator seeded by (``seed``, i) alone, so the results are the same for
    any number of threads."""
    rules = (table or Table(players=len(policies))).resolved()
    codes = policy_codes(policies, rules.players)
    if (codes < 0).any():
        raise RulesError("simulate plays every seat with a table policy.")
    winners = np.empty(count, np.int64)
    turns = np.empty(count, np.int64)
    nothing = np.zeros((0, rules.players), np.int64)
    kernel.play_rounds(
        count, np.zeros((0, rules.deck_size), np.int32), np.zeros(0, np.int64), dealer % rules.players,
        rules.players, rules.deck_size, bool(rules.two_player_rule), rules.turn_cap, codes, rules.refill == "shuffle",
        np.uint64(seed & MASK64), winners, turns, nothing, np.zeros((0, rules.players, RACK_SIZE), np.int32),
        np.zeros((0, 0, rules.deck_size), np.int32),
    )  # fmt: skip
    return Outcomes(winners, turns)


def play_decks(
    decks: npt.ArrayLike,
    dealers: npt.ArrayLike,
    policies: Sequence[str] = ("easy", "easy"),
    table: Table | None = None,
    seed: int = 0,
    keep_refills: int = 0,
) -> Outcomes:
    """Play round ``i`` from ``decks[i]`` (the whole deck in dealing order, as :class:`racko.Round` takes it), dealt
    by ``dealers[i]``.  Shuffle refills draw from the generator of (``seed``, i); the first ``keep_refills`` orders
    of each round are returned (top card first, zero-padded) so that the engine can replay them."""
    rules = (table or Table(players=len(policies))).resolved()
    codes = policy_codes(policies, rules.players)
    if (codes < 0).any():
        raise RulesError("play_decks plays every seat with a table policy.")
    deck_array = np.ascontiguousarray(decks, dtype=np.int32)
    count = deck_array.shape[0]
    expected = np.arange(1, rules.deck_size + 1)
    if (
        deck_array.ndim != 2
        or deck_array.shape[1] != rules.deck_size
        or (count and not (np.sort(deck_array, axis=1) == expected).all())
    ):
        raise RulesError(f"Each deck must hold each card from 1 to {rules.deck_size} exactly once.")
    dealer_array = np.ascontiguousarray(dealers, dtype=np.int64)
    if dealer_array.shape != (count,) or ((dealer_array < 0) | (dealer_array >= rules.players)).any():
        raise RulesError(f"Give one dealer per deck, a seat from 0 to {rules.players - 1}.")
    winners = np.empty(count, np.int64)
    turns = np.empty(count, np.int64)
    scores = np.empty((count, rules.players), np.int64)
    racks = np.empty((count, rules.players, RACK_SIZE), np.int32)
    refills = np.zeros((count, keep_refills, rules.deck_size), np.int32)
    kernel.play_rounds(
        count, deck_array, dealer_array, 0, rules.players, rules.deck_size, bool(rules.two_player_rule),
        rules.turn_cap, codes, rules.refill == "shuffle", np.uint64(seed & MASK64), winners, turns, scores, racks,
        refills,
    )  # fmt: skip
    return Outcomes(winners, turns, scores, racks.astype(np.int64), refills.astype(np.int64))
