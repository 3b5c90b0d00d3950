"""The compiled core of the batch simulator: the random generator, the deal, a turn, the refill, and the two table
policies, as numba functions on plain integer arrays.

Everything here follows the engine (:mod:`racko.round`) and the bots (:mod:`racko.bots.bucket`,
:mod:`racko.bots.medium`, :mod:`racko.bots.gaps`) step for step, so that the same deck gives the same round; the
tests in tests/test_batch.py hold them to it.  Cards are numbers 1..D; a rack is slot 5 first; the stock is kept
top card first (``stock[top:size]``), the discard pile bottom card first (``pile[:length]``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit, prange

Function = TypeVar("Function", bound=Callable[..., Any])


def jit(function: Function) -> Function:
    """Compiled by numba on first use; the machine code is kept on disk (cache=True), so the compile is paid once."""
    return cast(Function, njit(cache=True, nogil=True, error_model="numpy")(function))


def inline_jit(function: Function) -> Function:
    """Compiled like :func:`jit`, and put in place of each call (no call, no reference counting of its arrays)."""
    return cast(Function, njit(cache=True, nogil=True, error_model="numpy", inline="always")(function))


def parallel_jit(function: Function) -> Function:
    """Compiled like :func:`jit`, with its ``prange`` loops spread over threads."""
    return cast(Function, njit(cache=True, nogil=True, parallel=True, error_model="numpy")(function))


RACK = 10
BUCKET = 0
GAP = 1
"""Policy codes: ``easy``'s bucket policy and ``medium``'s gap-model policy."""

PICK = 0
PLACE = 1
OVER = 2
"""Phases of the stepwise simulator (the engine's PICK and PLACE; OVER once the round has ended)."""

INFINITE = np.inf
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


# --- The random generator: SplitMix64, seeded per round from (seed, round index) --------------------------------


@inline_jit
def mix64(value: Any) -> Any:
    """SplitMix64's finaliser: a bijection of 64-bit numbers that scatters nearby seeds."""
    z = value
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@inline_jit
def round_state(seed: Any, index: Any) -> Any:
    """The generator state of round ``index`` of a run seeded ``seed``: a function of the two numbers alone, so that
    the rounds come out the same whatever the number of threads or the order they run in."""
    return mix64(mix64(np.uint64(seed)) + np.uint64(index) * _GOLDEN)


@inline_jit
def next_random(state: Any) -> Any:
    """The next 64-bit number of the stream whose state is ``state[0]`` (SplitMix64: one add, three mixes)."""
    state[0] += _GOLDEN
    return mix64(state[0])


@inline_jit
def below32(bits: Any, bound: int, state: Any) -> int:
    """A uniform whole number in ``[0, bound)`` from 32 random ``bits`` (Lemire's multiply-and-shift, rejecting the
    few biased draws with fresh bits)."""
    limit = np.uint64(bound)
    product = bits * limit
    low = product & _LOW32
    if low < limit:
        threshold = (np.uint64(4294967296) - limit) % limit
        while low < threshold:
            product = (next_random(state) >> _S32) * limit
            low = product & _LOW32
    return int(product >> _S32)


@inline_jit
def shuffle(cards: Any, length: int, state: Any) -> None:
    """Fisher-Yates on ``cards[:length]``, two swaps from each 64-bit random number."""
    last = length - 1
    while last > 0:
        bits = next_random(state)
        other = below32(bits >> _S32, last + 1, state)
        card = cards[last]
        cards[last] = cards[other]
        cards[other] = card
        last -= 1
        if last > 0:
            other = below32(bits & _LOW32, last + 1, state)
            card = cards[last]
            cards[last] = cards[other]
            cards[other] = card
            last -= 1


@inline_jit
def new_deck(deck: Any, deck_size: int, state: Any) -> None:
    """A freshly shuffled deck 1..D in ``deck``."""
    for index in range(deck_size):
        deck[index] = index + 1
    shuffle(deck, deck_size, state)


# --- Rack questions (racko.scoring), with an optional card put in one slot -------------------------------------------


@inline_jit
def card_at(rack: Any, slot: int, card: int, index: int) -> int:
    return card if index == slot else rack[index]


# Each takes the rack as ``racks[base:base + 10]``: a rack of its own with base 0, or one seat of the bucket fast
# path's flat racks, read in place (no view).


@inline_jit
def is_ordered(racks: Any, base: int, slot: int, card: int) -> bool:
    """Whether the rack (with ``card`` in ``slot``; slot -1: as it is) rises from slot 5 to slot 50."""
    previous = card if slot == 0 else racks[base]
    for index in range(1, RACK):
        current = card if index == slot else racks[base + index]
        if current <= previous:
            return False
        previous = current
    return True


@inline_jit
def longest_run(racks: Any, base: int, slot: int, card: int) -> int:
    best = 1
    current = 1
    previous = card if slot == 0 else racks[base]
    for index in range(1, RACK):
        value = card if index == slot else racks[base + index]
        current = current + 1 if value == previous + 1 else 1
        if current > best:
            best = current
        previous = value
    return best


@jit
def ordered_prefix(rack: Any) -> int:
    count = 1
    for index in range(1, RACK):
        if rack[index] <= rack[index - 1]:
            break
        count += 1
    return count


@inline_jit
def qualifies(rack: Any, needs_run: bool) -> bool:
    """Whether the rack goes Rack-O: in order, and with a run of three under the 2-player rule."""
    if not is_ordered(rack, 0, -1, 0):
        return False
    return not needs_run or longest_run(rack, 0, -1, 0) >= 3


# --- easy: the bucket policy (racko.bots.bucket) ----------------------------------------------------------------------


@inline_jit
def bucket_slot(card: int, deck_size: int) -> int:
    return (card - 1) * RACK // deck_size


@inline_jit
def sorted_run_slot(racks: Any, base: int, card: int) -> int:
    """:func:`run_slot` for a rack known to be sorted."""
    best_run = longest_run(racks, base, -1, 0)
    if best_run >= 3:
        return -1
    best = -1
    for slot in range(RACK):
        if is_ordered(racks, base, slot, card):
            run = longest_run(racks, base, slot, card)
            if run > best_run:
                best = slot
                best_run = run
    return best


@inline_jit
def run_slot(rack: Any, card: int) -> int:
    """``racko.bots.bucket.run_slot``: a sorted rack without a run of three: the slot where ``card`` keeps it sorted
    and makes its longest run longer (the longest such run, the lowest slot among equals); -1 for none."""
    return sorted_run_slot(rack, 0, card) if is_ordered(rack, 0, -1, 0) else -1


@inline_jit
def bucket_takes(rack: Any, top: int, deck_size: int, needs_run: bool) -> bool:
    slot = bucket_slot(top, deck_size)
    if bucket_slot(rack[slot], deck_size) != slot:
        return True
    return needs_run and run_slot(rack, top) >= 0


@inline_jit
def bucket_places(rack: Any, held: int, from_discard: bool, deck_size: int, needs_run: bool) -> int:
    """The slot to put ``held`` in, or -1 to discard it."""
    if needs_run:
        lengthening = run_slot(rack, held)
        if lengthening >= 0:
            return lengthening
    slot = bucket_slot(held, deck_size)
    if from_discard or bucket_slot(rack[slot], deck_size) != slot:
        return slot
    return -1


# --- medium: the gap model (racko.bots.gaps, the PLAIN model) ------------------------------------------------------


@jit
def pool_counts(
    counts: Any, racks: Any, known: Any, seat: int, pile: Any, pile_size: int, held: int, deck_size: int
) -> None:
    """``counts_below(cards_that_may_come(...))``: ``counts[v]`` = how many cards that may still come are at most v.

    The cards that may come are those not in the seat's rack, not face up on the discard pile, not in hand and not
    known (taken from the discard pile) in any rack."""
    for value in range(deck_size + 2):
        counts[value] = 1
    counts[0] = 0
    counts[deck_size + 1] = 0
    for index in range(RACK):
        counts[racks[seat, index]] = 0
    for index in range(pile_size):
        counts[pile[index]] = 0
    if held > 0:
        counts[held] = 0
    for other in range(racks.shape[0]):
        for index in range(RACK):
            if known[other, index]:
                counts[racks[other, index]] = 0
    for value in range(1, deck_size + 2):
        counts[value] += counts[value - 1]


@jit
def gap_draws(open_slots: int, fits: int, pool: int) -> float:
    """``GapModel.draws`` of the plain model, with the same float operations in the same order."""
    cost = (pool / fits) * open_slots * (open_slots + 1) / 2
    floor = float(open_slots)
    return floor if floor >= cost else cost


@jit
def gap_table(deck_size: int) -> Any:
    """``gap_tables`` for every size of the pool: ``table[pool, open_slots, fits]``, infinite where too few cards fit,
    0 for no open slot."""
    table = np.full((deck_size + 1, RACK + 1, deck_size + 1), INFINITE)
    for pool in range(deck_size + 1):
        table[pool, 0, :] = 0.0
        for open_slots in range(1, RACK + 1):
            for fits in range(open_slots, pool + 1):
                table[pool, open_slots, fits] = gap_draws(open_slots, fits, pool)
    return table


@jit
def gap_cost(
    rack: Any, slot: int, card: int, counts: Any, gaps: Any, deck_size: int, best: Any, values: Any, first: int = 1
) -> float:
    """``RackValuer.gap_cost`` of the rack with ``card`` in ``slot`` (``gaps``: :func:`gap_table`).  ``best[j]`` is
    the cheapest cost up to the j-th value (0 below the rack, the slots, the card above it); those below ``first``
    are taken as they are (from the same rack and pool: they do not depend on the slots above)."""
    draws = gaps[counts[deck_size + 1]]
    values[0] = 0
    for index in range(RACK):
        values[index + 1] = card_at(rack, slot, card, index)
    last = RACK + 1
    values[last] = deck_size + 1
    best[0] = 0.0
    for j in range(first, last + 1):
        # Without branches (a wrong guess costs more than the sums): every (i, j) is costed, the infinite entries
        # of the table and the check below stand for the pairs that RackValuer skips.
        value = values[j]
        under = counts[value - 1]
        cheapest = INFINITE
        for i in range(j):
            fits = max(under - counts[values[i]], 0)
            cost = best[i] + draws[j - i - 1, fits]
            cost = INFINITE if values[i] >= value else cost
            cheapest = cost if cost < cheapest else cheapest
        best[j] = cheapest
    return float(best[last])


@jit
def may_come(counts: Any, card: int, top: int) -> bool:
    return 1 <= card < top and counts[card] > counts[card - 1]


@jit
def add_distinct(found: Any, size: int, card: int) -> int:
    for index in range(size):
        if found[index] == card:
            return size
    found[size] = card
    return size + 1


RUN_FIT = 5
RUN_FROM_SCRATCH = 2.0
"""As ``gaps.RUN_FIT`` and ``gaps.RUN_FROM_SCRATCH`` (literals here: numba's cache follows this file only)."""


@jit
def has_room(first: int, low: int, deck_size: int) -> bool:
    """``gaps._has_room``."""
    return first >= 0 and first + 2 < RACK and low >= first + 1 and low + 2 <= deck_size - (RACK - 3 - first)


@jit
def run_fits(rack: Any, slot: int, card: int, first: int, low: int, deck_size: int) -> bool:
    """``gaps.run_fits``."""
    if not has_room(first, low, deck_size):
        return False
    below_in_order = first == 0 or card_at(rack, slot, card, first - 1) < low
    if below_in_order and (first + 3 == RACK or card_at(rack, slot, card, first + 3) > low + 2):
        return True
    return abs((2 * low + 1) * RACK - deck_size - 2 * deck_size * (first + 1)) <= deck_size * RUN_FIT


@jit
def two_away(pool: int, pairs: int) -> float:
    """``gaps._two_away``."""
    scratch = RUN_FROM_SCRATCH * pool
    if pairs == 0:
        return scratch
    return 1 / (1 / (pool / pairs + pool / 2) + 1 / scratch)


@jit
def neighbour_fixes(rack: Any, slot: int, card: int, first: int, counts: Any, deck_size: int) -> int:
    """``gaps._neighbour_fixes``."""
    low = card_at(rack, slot, card, first)
    if (
        card_at(rack, slot, card, first + 1) != low + 1
        or card_at(rack, slot, card, first + 2) != low + 2
        or not has_room(first, low, deck_size)
    ):
        return 0
    below_in_order = first == 0 or card_at(rack, slot, card, first - 1) < low
    above_in_order = first + 3 == RACK or card_at(rack, slot, card, first + 3) > low + 2
    if below_in_order == above_in_order:
        return 0
    if below_in_order:
        return int(counts[deck_size] - counts[low + 2])
    return int(counts[low - 1])


@jit
def has_run(rack: Any, slot: int, card: int, deck_size: int) -> bool:
    """``gaps.has_run``."""
    for i in range(RACK - 2):
        a = card_at(rack, slot, card, i)
        if (
            card_at(rack, slot, card, i + 1) == a + 1
            and card_at(rack, slot, card, i + 2) == a + 2
            and run_fits(rack, slot, card, i, a, deck_size)
        ):
            return True
    return longest_run(rack, 0, slot, card) >= 3 and is_ordered(rack, 0, slot, card)


@jit
def run_cost(rack: Any, slot: int, card: int, counts: Any, deck_size: int, found: Any) -> float:
    """``gaps.run_cost``: under the 2-player rule, the draws still needed for a run of three."""
    if has_run(rack, slot, card, deck_size):
        return 0.0
    pool: int = counts[deck_size + 1]
    top = deck_size + 1
    completions = 0
    for i in range(RACK - 2):
        a = card_at(rack, slot, card, i)
        b = card_at(rack, slot, card, i + 1)
        c = card_at(rack, slot, card, i + 2)
        if b == a + 1 and may_come(counts, a + 2, top) and run_fits(rack, slot, card, i, a, deck_size):
            completions = add_distinct(found, completions, a + 2)
        if c == b + 1 and may_come(counts, b - 1, top) and run_fits(rack, slot, card, i, b - 1, deck_size):
            completions = add_distinct(found, completions, b - 1)
        if c == a + 2 and may_come(counts, a + 1, top) and run_fits(rack, slot, card, i, a, deck_size):
            completions = add_distinct(found, completions, a + 1)
    pairs = 0  # found is filled again: the completions are already counted
    for i in range(RACK - 1):
        a = card_at(rack, slot, card, i)
        b = card_at(rack, slot, card, i + 1)
        if may_come(counts, a + 1, top) and (
            run_fits(rack, slot, card, i - 1, a - 1, deck_size) or run_fits(rack, slot, card, i, a, deck_size)
        ):
            pairs = add_distinct(found, pairs, a + 1)
        if may_come(counts, b - 1, top) and (
            run_fits(rack, slot, card, i - 1, b - 2, deck_size) or run_fits(rack, slot, card, i, b - 1, deck_size)
        ):
            pairs = add_distinct(found, pairs, b - 1)
    ways = completions
    for i in range(RACK - 2):
        ways += neighbour_fixes(rack, slot, card, i, counts, deck_size)
    if ways == 0:
        return two_away(pool, pairs)
    rate = min(ways, pool) / pool + 1 / two_away(pool, pairs)
    return min(1 / rate, two_away(pool, min(pool, 2 * (RACK - 1))))


@jit
def rack_cost(
    rack: Any, slot: int, card: int, counts: Any, gaps: Any, deck_size: int, needs_run: bool, best: Any, values: Any
) -> float:
    """``RackValuer.cost``: the gap cost, plus the run cost under the 2-player rule."""
    cost = gap_cost(rack, slot, card, counts, gaps, deck_size, best, values)
    if needs_run:
        return cost + run_cost(rack, slot, card, counts, deck_size, values)
    return cost


@jit
def best_placement(
    rack: Any, card: int, counts: Any, gaps: Any, deck_size: int, needs_run: bool, best: Any, values: Any
) -> tuple[float, int]:
    """``RackValuer.best_placement``: the cheapest (cost, slot) after putting ``card`` in some slot.  The dynamic
    program of the rack as it is (in the upper half of ``best``) gives each trial its costs below the slot."""
    best_cost = INFINITE
    best_slot = 0
    size = RACK + 2
    gap_cost(rack, -1, 0, counts, gaps, deck_size, best, values)
    for index in range(size):
        best[size + index] = best[index]
    for slot in range(RACK):
        for index in range(slot + 1):
            best[index] = best[size + index]
        cost = gap_cost(rack, slot, card, counts, gaps, deck_size, best, values, slot + 1)
        if needs_run:
            cost = cost + run_cost(rack, slot, card, counts, deck_size, values)
        if cost < best_cost:
            best_cost = cost
            best_slot = slot
    return best_cost, best_slot


@jit
def drop_from_pool(counts: Any, card: int, deck_size: int) -> None:
    for value in range(card, deck_size + 2):
        counts[value] -= 1


# --- One turn of the engine, chosen by a policy -------------------------------------------------------------------


@jit
def policy_picks(
    policy: int,
    racks: Any,
    known: Any,
    seat: int,
    pile: Any,
    pile_size: int,
    deck_size: int,
    needs_run: bool,
    counts: Any,
    gaps: Any,
    best: Any,
    values: Any,
) -> bool:
    """Whether the policy takes the top discard (else it draws).  Leaves the seat's pool in ``counts`` for the
    gap policy."""
    rack = racks[seat]
    top = pile[pile_size - 1]
    if policy == BUCKET:
        return bucket_takes(rack, top, deck_size, needs_run)
    pool_counts(counts, racks, known, seat, pile, pile_size, 0, deck_size)
    now = rack_cost(rack, -1, 0, counts, gaps, deck_size, needs_run, best, values)
    take_cost, _ = best_placement(rack, top, counts, gaps, deck_size, needs_run, best, values)
    return take_cost < now


@jit
def policy_places(
    policy: int,
    rack: Any,
    held: int,
    from_discard: bool,
    deck_size: int,
    needs_run: bool,
    counts: Any,
    gaps: Any,
    best: Any,
    values: Any,
) -> int:
    """The slot the policy puts ``held`` in, or -1 to discard it; for the gap policy ``counts`` must hold the pool
    as :func:`policy_picks` left it (the held card is taken out of it here when it was drawn)."""
    if policy == BUCKET:
        return bucket_places(rack, held, from_discard, deck_size, needs_run)
    if not from_discard:
        drop_from_pool(counts, held, deck_size)
    cost, slot = best_placement(rack, held, counts, gaps, deck_size, needs_run, best, values)
    if from_discard:
        return slot
    now = rack_cost(rack, -1, 0, counts, gaps, deck_size, needs_run, best, values)
    return slot if cost < now else -1


@jit
def deal(deck: Any, dealer: int, players: int, racks: Any, pile: Any, stock: Any, known: Any) -> tuple[int, int]:
    """``Round._deal``: one card at a time from the dealer's left, each player's first card into slot 50; the next
    card turned up; the rest the stock.  Returns the stock's and the pile's sizes."""
    dealt = RACK * players
    for index in range(dealt):
        racks[(dealer + 1 + index) % players, RACK - 1 - index // players] = deck[index]
    for seat in range(players):
        for slot in range(RACK):
            known[seat, slot] = False
    pile[0] = deck[dealt]
    size = 0
    for index in range(dealt + 1, deck.shape[0]):
        stock[size] = deck[index]
        size += 1
    return size, 1


@jit
def dealt_winner(racks: Any, dealer: int, players: int, needs_run: bool) -> int:
    """A rack that qualifies straight from the deal goes out at once, first in play order; -1 for none."""
    for offset in range(1, players + 1):
        seat = (dealer + offset) % players
        if qualifies(racks[seat], needs_run):
            return seat
    return -1


@inline_jit
def refill(pile: Any, pile_size: int, stock: Any, shuffled: bool, state: Any) -> int:
    """``Table._refill``: the discard pile becomes the stock, turned over (``flip``: the bottom discard on top) or
    shuffled with the round's generator; its top card is turned up.  Returns the new stock's size (the pile
    then holds one card)."""
    if shuffled:
        shuffle(pile, pile_size, state)
    for index in range(1, pile_size):
        stock[index - 1] = pile[index]
    return pile_size - 1


@inline_jit
def refill_when_empty(
    pile: Any,
    pile_size: int,
    stock: Any,
    stock_top: int,
    stock_size: int,
    shuffled: bool,
    state: Any,
    refills: Any,
    refilled: int,
) -> tuple[int, int, int, int]:
    """A turn's end in :func:`play_round` and :func:`play_bucket_round`: once the stock has run out, :func:`refill`
    it, and keep a shuffled pile's new order as refill ``refilled`` of ``refills`` while there is room (the engine
    replays a flip without it).  Returns (stock top, stock size, pile size, refills so far)."""
    if stock_top < stock_size:
        return stock_top, stock_size, pile_size, refilled
    new_size = refill(pile, pile_size, stock, shuffled, state)
    if shuffled and refilled < refills.shape[0]:
        for index in range(pile_size):
            refills[refilled, index] = pile[index]
    return 0, new_size, 1, refilled + 1


@jit
def score_round(racks: Any, winner: int, scores: Any) -> None:
    """75 for Rack-O (no bonus in classic), else 5 a card up to the first break."""
    for seat in range(racks.shape[0]):
        scores[seat] = 75 if seat == winner else 5 * ordered_prefix(racks[seat])


@inline_jit
def play_turn(
    policy: int,
    seat: int,
    racks: Any,
    known: Any,
    pile: Any,
    pile_size: int,
    stock: Any,
    stock_top: int,
    stock_size: int,
    deck_size: int,
    needs_run: bool,
    shuffled: bool,
    state: Any,
    refills: Any,
    refilled: int,
    counts: Any,
    gaps: Any,
    best: Any,
    values: Any,
) -> tuple[int, int, int, int]:
    """One turn of ``seat`` under its policy: it takes the top discard or draws, places or discards, and the stock
    is refilled if that emptied it.  (stock_top, stock_size, pile_size, refilled) after it."""
    rack = racks[seat]
    from_discard = policy_picks(
        policy, racks, known, seat, pile, pile_size, deck_size, needs_run, counts, gaps, best, values
    )
    if from_discard:
        pile_size -= 1
        held = pile[pile_size]
    else:
        held = stock[stock_top]
        stock_top += 1
    slot = policy_places(policy, rack, held, from_discard, deck_size, needs_run, counts, gaps, best, values)
    if slot >= 0:
        pile[pile_size] = rack[slot]
        rack[slot] = held
        known[seat, slot] = from_discard
    else:
        pile[pile_size] = held
    pile_size += 1
    return refill_when_empty(pile, pile_size, stock, stock_top, stock_size, shuffled, state, refills, refilled)


@jit
def play_round(
    deck: Any,
    dealer: int,
    players: int,
    needs_run: bool,
    turn_cap: int,
    policies: Any,
    shuffled: bool,
    state: Any,
    racks: Any,
    pile: Any,
    stock: Any,
    known: Any,
    counts: Any,
    gaps: Any,
    best: Any,
    values: Any,
    refills: Any,
) -> tuple[int, int]:
    """Play one round from ``deck`` to its end under the seats' policies: (winner or -1 when capped, turns).

    ``refills`` (R, D) receives the first R shuffle refills' new stock orders, top card first (an empty array: none
    kept), so that the engine can replay them."""
    deck_size = deck.shape[0]
    stock_size, pile_size = deal(deck, dealer, players, racks, pile, stock, known)
    winner = dealt_winner(racks, dealer, players, needs_run)
    if winner >= 0:
        return winner, 0
    stock_top = 0
    seat = (dealer + 1) % players
    turns = 0
    refilled = 0
    while True:
        stock_top, stock_size, pile_size, refilled = play_turn(
            policies[seat],
            seat,
            racks,
            known,
            pile,
            pile_size,
            stock,
            stock_top,
            stock_size,
            deck_size,
            needs_run,
            shuffled,
            state,
            refills,
            refilled,
            counts,
            gaps,
            best,
            values,
        )
        turns += 1
        if qualifies(racks[seat], needs_run):
            return seat, turns
        if turns >= turn_cap:
            return -1, turns
        seat = (seat + 1) % players


# --- The fast path: every seat plays the bucket policy ---------------------------------------------------------------
# The same rules and policy as play_round, written out on a flat array of racks (seat s's slot k at s * 10 + k) with
# the buckets looked up: no views, and only inlined calls, so that the loop stays in registers.


@inline_jit
def breaks_around(racks: Any, base: int, slot: int) -> int:
    """How many of the two neighbouring pairs of ``slot`` do not rise (without a branch: the neighbours outside the
    rack are read, and not counted)."""
    card = racks[base + slot]
    below_breaks = (slot > 0) & (card <= racks[base + slot - 1])
    above_breaks = (slot < RACK - 1) & (racks[base + slot + 1] <= card)
    return int(below_breaks) + int(above_breaks)


@inline_jit
def play_bucket_round(
    deck: Any,
    dealer: int,
    players: int,
    needs_run: bool,
    turn_cap: int,
    shuffled: bool,
    state: Any,
    buckets: Any,
    racks: Any,
    breaks: Any,
    pile: Any,
    stock: Any,
    refills: Any,
) -> tuple[int, int]:
    """:func:`play_round` with every seat on the bucket policy (``buckets[card]``: the card's slot); ``racks`` is
    flat, (players * 10,); ``breaks[seat]`` counts the neighbouring pairs of its rack that do not rise (0: in order),
    kept up to date at each exchange instead of looking over the whole rack."""
    deck_size = deck.shape[0]
    dealt = RACK * players
    seat = dealer  # deal_position without a division per card
    slot = RACK - 1
    for index in range(dealt):
        seat += 1
        if seat == players:
            seat = 0
        racks[seat * RACK + slot] = deck[index]
        if seat == dealer:
            slot -= 1
    pile[0] = deck[dealt]
    pile_size = 1
    stock_size = 0
    for index in range(dealt + 1, deck_size):
        stock[stock_size] = deck[index]
        stock_size += 1
    for seat in range(players):
        count = 0
        for index in range(1, RACK):
            if racks[seat * RACK + index] <= racks[seat * RACK + index - 1]:
                count += 1
        breaks[seat] = count
    for offset in range(1, players + 1):
        seat = (dealer + offset) % players
        if breaks[seat] == 0 and (not needs_run or longest_run(racks, seat * RACK, -1, 0) >= 3):
            return seat, 0
    stock_top = 0
    seat = (dealer + 1) % players
    turns = 0
    refilled = 0
    while True:
        base = seat * RACK
        top = pile[pile_size - 1]
        slot = buckets[top]
        take = buckets[racks[base + slot]] != slot
        if needs_run and breaks[seat] == 0:  # a sorted rack under the 2-player rule: look for a longer run
            lengthening = sorted_run_slot(racks, base, top)
            if take or lengthening >= 0:
                take = True
                place = True
                card = top
                if lengthening >= 0:
                    slot = lengthening
            else:
                card = stock[stock_top]
                lengthening = sorted_run_slot(racks, base, card)
                slot = lengthening if lengthening >= 0 else buckets[card]
                place = lengthening >= 0 or buckets[racks[base + slot]] != slot
        else:
            # Both outcomes of the pick and the place are computed and chosen without a branch: they depend on the
            # cards, and a wrongly guessed branch costs more than the work.
            card = top if take else stock[stock_top]
            slot = buckets[card]
            place = take | (buckets[racks[base + slot]] != slot)
        stock_top += 0 if take else 1
        pile_size -= 1 if take else 0
        current = racks[base + slot]
        breaks[seat] -= breaks_around(racks, base, slot)
        racks[base + slot] = card if place else current
        breaks[seat] += breaks_around(racks, base, slot)
        pile[pile_size] = current if place else card
        pile_size += 1
        turns += 1
        stock_top, stock_size, pile_size, refilled = refill_when_empty(
            pile, pile_size, stock, stock_top, stock_size, shuffled, state, refills, refilled
        )
        if breaks[seat] == 0 and (not needs_run or longest_run(racks, base, -1, 0) >= 3):
            return seat, turns
        if turns >= turn_cap:
            return -1, turns
        seat = seat + 1 if seat + 1 < players else 0


@jit
def bucket_table(deck_size: int) -> Any:
    buckets = np.empty(deck_size + 1, np.int64)
    for card in range(deck_size + 1):
        buckets[card] = bucket_slot(card, deck_size)
    return buckets


CHUNK = 512
"""Rounds a thread plays in a row with the same scratch arrays (a fixed number, so that no result depends on how
the chunks are spread over threads)."""


@parallel_jit
def play_rounds(
    count: int,
    decks: Any,
    dealers: Any,
    first_dealer: int,
    players: int,
    deck_size: int,
    needs_run: bool,
    turn_cap: int,
    policies: Any,
    shuffled: bool,
    seed: Any,
    winners: Any,
    turns: Any,
    scores: Any,
    final_racks: Any,
    refills: Any,
) -> None:
    """Play ``count`` rounds.  Round ``i`` is played from ``decks[i]`` dealt by ``dealers[i]`` or, when ``decks`` is
    empty, from a deck shuffled by the generator of (``seed``, i) dealt by ``(first_dealer + i) % players``; shuffle
    refills draw from that generator.  Fills ``winners`` (-1: capped) and ``turns`` and, unless they are empty,
    ``scores`` (N, P), ``final_racks`` (N, P, 10) and ``refills`` (N, R, D: the first R refill orders of each
    round, top card first)."""
    chunks = (count + CHUNK - 1) // CHUNK
    all_bucket = (policies == BUCKET).all()
    given = decks.shape[0] > 0
    keep = scores.shape[0] > 0
    buckets = bucket_table(deck_size)
    gaps = gap_table(deck_size)
    for chunk in prange(chunks):
        state = np.empty(1, np.uint64)
        deck = np.empty(deck_size, np.int32)
        flat = np.empty(players * RACK + 1, np.int32)  # one more: breaks_around reads past the last slot
        breaks = np.empty(players, np.int64)
        racks = np.empty((players, RACK), np.int32)
        pile = np.empty(deck_size, np.int32)
        stock = np.empty(deck_size, np.int32)
        known = np.empty((players, RACK), np.bool_)
        counts = np.empty(deck_size + 2, np.int64)
        best = np.empty(2 * (RACK + 2), np.float64)
        values = np.empty(3 * RACK, np.int64)
        no_refills = np.zeros((0, deck_size), np.int32)
        for index in range(chunk * CHUNK, min(count, (chunk + 1) * CHUNK)):
            state[0] = round_state(seed, index)
            if given:
                deck[:] = decks[index]
                dealer = dealers[index]
            else:
                new_deck(deck, deck_size, state)
                dealer = (first_dealer + index) % players
            kept = refills[index] if refills.shape[0] > 0 else no_refills
            if all_bucket:
                winner, played = play_bucket_round(
                    deck,
                    dealer,
                    players,
                    needs_run,
                    turn_cap,
                    shuffled,
                    state,
                    buckets,
                    flat,
                    breaks,
                    pile,
                    stock,
                    kept,
                )
                if keep:
                    for seat in range(players):
                        for slot in range(RACK):
                            racks[seat, slot] = flat[seat * RACK + slot]
            else:
                winner, played = play_round(
                    deck,
                    dealer,
                    players,
                    needs_run,
                    turn_cap,
                    policies,
                    shuffled,
                    state,
                    racks,
                    pile,
                    stock,
                    known,
                    counts,
                    gaps,
                    best,
                    values,
                    kept,
                )
            winners[index] = winner
            turns[index] = played
            if keep:
                score_round(racks, winner, scores[index])
                final_racks[index] = racks


# --- The stepwise simulator: rounds that stop where a caller's seat decides ---------------------------------------
# Each round's small numbers live in one row of an (N, FIELDS) table, with these columns:
PILE_SIZE, STOCK_TOP, STOCK_SIZE, HELD, FROM_DISCARD, PHASE, TO_ACT, TURNS, WINNER, DEALER, EPISODE = range(11)
FIELDS = 11


@jit
def legal(phase: int, from_discard: int, action: int) -> bool:
    """The classic round's legal actions (the stock is never empty at a pick: it is refilled at the end of a turn,
    and the discard pile then holds a card)."""
    if phase == PICK:
        return action == 0 or action == 1
    if phase == PLACE:
        return 2 <= action < 2 + RACK or (action == 2 + RACK and not from_discard)
    return False


@jit
def apply_action(
    row: Any,
    action: int,
    racks: Any,
    known: Any,
    pile: Any,
    stock: Any,
    state: Any,
    needs_run: bool,
    turn_cap: int,
    shuffled: bool,
) -> None:
    """Apply a legal action (an index of racko.actions' action space) of the seat to act to one round: ``row`` is
    its row of the table, the arrays its own (``racks`` (P, 10), ``pile`` and ``stock`` (D,), ``state`` (1,))."""
    seat = row[TO_ACT]
    if action == 0:  # draw
        row[HELD] = stock[row[STOCK_TOP]]
        row[STOCK_TOP] += 1
        row[FROM_DISCARD] = 0
        row[PHASE] = PLACE
        return
    if action == 1:  # take the top discard
        row[PILE_SIZE] -= 1
        row[HELD] = pile[row[PILE_SIZE]]
        row[FROM_DISCARD] = 1
        row[PHASE] = PLACE
        return
    size = row[PILE_SIZE]
    rack = racks[seat]
    if action < 2 + RACK:  # exchange into slot action - 2
        slot = action - 2
        pile[size] = rack[slot]
        rack[slot] = row[HELD]
        known[seat, slot] = row[FROM_DISCARD] != 0
    else:  # discard
        pile[size] = row[HELD]
    row[PILE_SIZE] = size + 1
    row[HELD] = 0
    row[FROM_DISCARD] = 0
    # Round._end_turn: refill, Rack-O, the turn cap, the next seat.
    row[TURNS] += 1
    if row[STOCK_TOP] == row[STOCK_SIZE]:
        row[STOCK_SIZE] = refill(pile, row[PILE_SIZE], stock, shuffled, state)
        row[STOCK_TOP] = 0
        row[PILE_SIZE] = 1
    if qualifies(rack, needs_run):
        row[WINNER] = seat
        row[PHASE] = OVER
    elif row[TURNS] >= turn_cap:
        row[WINNER] = -1
        row[PHASE] = OVER
    else:
        row[TO_ACT] = (seat + 1) % racks.shape[0]
        row[PHASE] = PICK


@jit
def start_episode(
    index: int,
    seed: Any,
    first_dealer: int,
    row: Any,
    deck: Any,
    racks: Any,
    known: Any,
    pile: Any,
    stock: Any,
    state: Any,
    needs_run: bool,
) -> None:
    """Shuffle and deal round ``index``'s next episode: its deck from the generator of (seed, index, episode), dealt
    by seat (first_dealer + index + episode) % players, so that the seats take turns to start."""
    players = racks.shape[0]
    episode = row[EPISODE]
    state[0] = round_state(round_state(seed, index), episode)
    new_deck(deck, deck.shape[0], state)
    dealer = (first_dealer + index + episode) % players
    row[DEALER] = dealer
    row[STOCK_SIZE], row[PILE_SIZE] = deal(deck, dealer, players, racks, pile, stock, known)
    row[STOCK_TOP] = 0
    row[HELD] = 0
    row[FROM_DISCARD] = 0
    row[TURNS] = 0
    row[TO_ACT] = (dealer + 1) % players
    winner = dealt_winner(racks, dealer, players, needs_run)
    row[WINNER] = winner
    row[PHASE] = OVER if winner >= 0 else PICK


@jit
def policy_turn(
    row: Any,
    policy: int,
    racks: Any,
    known: Any,
    pile: Any,
    stock: Any,
    state: Any,
    deck_size: int,
    needs_run: bool,
    turn_cap: int,
    shuffled: bool,
    counts: Any,
    gaps: Any,
    best: Any,
    values: Any,
) -> None:
    """A whole turn of the seat to act, chosen by a table policy."""
    seat = row[TO_ACT]
    takes = policy_picks(
        policy, racks, known, seat, pile, row[PILE_SIZE], deck_size, needs_run, counts, gaps, best, values
    )
    apply_action(row, 1 if takes else 0, racks, known, pile, stock, state, needs_run, turn_cap, shuffled)
    slot = policy_places(policy, racks[seat], row[HELD], takes, deck_size, needs_run, counts, gaps, best, values)
    apply_action(
        row, slot + 2 if slot >= 0 else 2 + RACK, racks, known, pile, stock, state, needs_run, turn_cap, shuffled
    )


@parallel_jit
def settle(
    seed: Any,
    first_dealer: int,
    table: Any,
    decks: Any,
    racks: Any,
    known: Any,
    pile: Any,
    stock: Any,
    states: Any,
    policies: Any,
    needs_run: bool,
    turn_cap: int,
    shuffled: bool,
    recording: bool,
    done: Any,
    results: Any,
    final_scores: Any,
    final_racks: Any,
    unplayed: Any,
) -> None:
    """Play every round on with the table policies until a seat without a policy (-1) is to act.

    A round that ends is recorded (when ``recording``: ``done``, ``results`` = (winner, turns, dealer),
    ``final_scores``, ``final_racks``) and the next episode dealt; a later round that ends before the caller acts
    again is counted in ``unplayed`` only.  With ``recording`` off (a reset), every round that ends is unplayed."""
    count, deck_size = decks.shape
    gaps = gap_table(deck_size)
    for index in prange(count):
        counts = np.empty(deck_size + 2, np.int64)
        best = np.empty(2 * (RACK + 2), np.float64)
        values = np.empty(3 * RACK, np.int64)
        row = table[index]
        state = states[index : index + 1]
        recorded = not recording
        while True:
            if row[PHASE] == OVER:
                if recorded:
                    unplayed[index] += 1
                else:
                    done[index] = True
                    results[index, 0] = row[WINNER]
                    results[index, 1] = row[TURNS]
                    results[index, 2] = row[DEALER]
                    score_round(racks[index], row[WINNER], final_scores[index])
                    final_racks[index] = racks[index]
                    recorded = True
                row[EPISODE] += 1
                start_episode(
                    index,
                    seed,
                    first_dealer,
                    row,
                    decks[index],
                    racks[index],
                    known[index],
                    pile[index],
                    stock[index],
                    state,
                    needs_run,
                )
                continue
            policy = policies[row[TO_ACT]]
            if policy < 0:
                break
            policy_turn(
                row,
                policy,
                racks[index],
                known[index],
                pile[index],
                stock[index],
                state,
                deck_size,
                needs_run,
                turn_cap,
                shuffled,
                counts,
                gaps,
                best,
                values,
            )


@parallel_jit
def act(
    actions: Any,
    table: Any,
    racks: Any,
    known: Any,
    pile: Any,
    stock: Any,
    states: Any,
    needs_run: bool,
    turn_cap: int,
    shuffled: bool,
) -> None:
    """Apply each round's action for its seat to act (legal: checked before)."""
    for index in prange(actions.shape[0]):
        apply_action(
            table[index],
            actions[index],
            racks[index],
            known[index],
            pile[index],
            stock[index],
            states[index : index + 1],
            needs_run,
            turn_cap,
            shuffled,
        )


@parallel_jit
def observe(
    seats: Any,
    table: Any,
    racks: Any,
    known: Any,
    pile: Any,
    rack_out: Any,
    pile_out: Any,
    known_out: Any,
    unseen: Any,
    mask: Any,
) -> None:
    """What seat ``seats[i]`` of round i knows: its rack, the discard pile, the cards known in racks (taken from the
    discard pile), the cards that may still come (``unseen``: medium's pool) and, when it is to act, the legal mask."""
    count, players, _ = racks.shape
    deck_size = pile.shape[1]
    for index in prange(count):
        row = table[index]
        seat = seats[index]
        rack_out[index] = racks[index, seat]
        size = row[PILE_SIZE]
        for position in range(deck_size):
            pile_out[index, position] = pile[index, position] if position < size else 0
        flags = unseen[index]
        for card in range(deck_size + 1):
            flags[card] = card > 0
        for slot in range(RACK):
            flags[racks[index, seat, slot]] = False
        for position in range(size):
            flags[pile[index, position]] = False
        to_act = row[TO_ACT] == seat and row[PHASE] != OVER
        if to_act and row[HELD] > 0:
            flags[row[HELD]] = False
        for other in range(players):
            for slot in range(RACK):
                if known[index, other, slot]:
                    known_out[index, other, slot] = racks[index, other, slot]
                    flags[racks[index, other, slot]] = False
                else:
                    known_out[index, other, slot] = 0
        for action in range(mask.shape[1]):
            mask[index, action] = to_act and legal(row[PHASE], row[FROM_DISCARD], action)
