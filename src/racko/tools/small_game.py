"""A bound at a small size: the open-rack 2-player game with 3 slots and 12 cards, solved exactly
(``racko solve-small``; needs numba and numpy, the ``rl`` extra).

The game (a decision, not a rule of any sheet: a small game whose every position can be valued):

- cards 1 to 12, two racks of 3 slots, both open (each player sees both racks); one card face up on the discard pile;
- a turn: take the face-up card and put it into a slot (the card it replaces goes face up), or draw a card and put it
  into a slot or throw it away (face up); a rack in order after its owner's turn wins (no run of three is asked);
- a card drawn is any card not in a rack and not face up, all as likely: the cards under the face-up one go back into
  the stock at once, so that a position is the two racks and the face-up card, nothing more;
- a deal: 3 cards to each rack, one face up; a rack dealt in order is dealt again.

Its value, the chance that the player to move wins with both playing their best, is found by value iteration over
every position (1,320 racks each and the face-up card).  Players are then measured against that best player: their
chance to win against it (seats alternating), and the chance their own choices give away (for each of their
decisions, the best move's value less their move's, both by the solved values, summed over a round):

- ``hard``: the gap valuation of :mod:`racko.bots.gaps` (the plain model) on 3 slots, its cards that may come those not
  in a rack and not face up; it takes the face-up card only when that beats both its rack now and the average draw;
- ``master``: ``master``'s way of choosing at this size: every move rated by the chance to win after it, the opponent
  to move with the card handed on, which it takes when that lowers its cost (racks are open: no guess is needed).  The
  chance to win is a logistic in ``log(1 + cost)`` of the two racks and of the mover's rack after taking the face-up
  card, fitted on rounds of two ``medium`` players of this size, as ``racko fit-win-chance`` fits the 10-slot one;
- ``best``: the solved player (50 % against itself); among moves of equal value it goes out at once when it can
  (a sure win is valued 1 like going out; without this it played on: its turns counted too high, more rounds capped).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from racko.errors import RackoError

SLOTS = 3
CARDS = 12
BEST, HARD, MASTER, MEDIUM = 0, 1, 2, 3
PLAYERS = {"best": BEST, "hard": HARD, "master": MASTER}


def _jit(function: Any) -> Any:
    """Compiled by numba, the machine code kept on disk."""
    return njit(cache=True, nogil=True)(function)


def rack_tables() -> tuple[Any, Any]:
    """``racks[r]``: the r-th rack (3 distinct cards, slot order); ``index[a, b, c]``: r for the rack a b c."""
    racks: list[tuple[int, int, int]] = []
    index = np.full((CARDS + 1, CARDS + 1, CARDS + 1), -1, np.int64)
    for a in range(1, CARDS + 1):
        for b in range(1, CARDS + 1):
            for c in range(1, CARDS + 1):
                if len({a, b, c}) == SLOTS:
                    index[a, b, c] = len(racks)
                    racks.append((a, b, c))
    return np.array(racks, np.int64), index


# --- Positions --------------------------------------------------------------------------------------------------------


@_jit
def _ordered(racks: Any, r: int) -> bool:
    return bool(racks[r, 0] < racks[r, 1] < racks[r, 2])


@_jit
def _placed(racks: Any, index: Any, r: int, slot: int, card: int) -> int:
    """The rack ``r`` with ``card`` in ``slot``."""
    a, b, c = racks[r, 0], racks[r, 1], racks[r, 2]
    if slot == 0:
        a = card
    elif slot == 1:
        b = card
    else:
        c = card
    return int(index[a, b, c])


@_jit
def _apart(racks: Any, mover: int, other: int) -> bool:
    for i in range(SLOTS):
        for j in range(SLOTS):
            if racks[mover, i] == racks[other, j]:
                return False
    return True


@_jit
def _free(racks: Any, mover: int, other: int, top: int, out: Any) -> int:
    """The cards a draw may bring (not in a rack, not face up) into ``out``; how many."""
    used = np.zeros(CARDS + 1, np.bool_)
    for k in range(SLOTS):
        used[racks[mover, k]] = True
        used[racks[other, k]] = True
    used[top] = True
    count = 0
    for card in range(1, CARDS + 1):
        if not used[card]:
            out[count] = card
            count += 1
    return count


@_jit
def _after(values: Any, racks: Any, index: Any, mover: int, other: int, slot: int, card: int) -> float:
    """The mover's chance to win (by ``values``) after putting ``card`` into ``slot`` (-1: throwing it away)."""
    if slot < 0:
        return float(1.0 - values[other, mover, card])
    placed = _placed(racks, index, mover, slot, card)
    if _ordered(racks, placed):
        return 1.0
    return float(1.0 - values[other, placed, racks[mover, slot]])


@_jit
def _best_place(values: Any, racks: Any, index: Any, mover: int, other: int, card: int) -> tuple[float, int]:
    best, where = _after(values, racks, index, mover, other, -1, card), -1
    for slot in range(SLOTS):
        value = _after(values, racks, index, mover, other, slot, card)
        if value > best:
            best, where = value, slot
    return best, where


@_jit
def _winning_slot(racks: Any, index: Any, mover: int, card: int) -> int:
    """The slot where ``card`` puts the mover's rack in order, or -1."""
    for slot in range(SLOTS):
        if _ordered(racks, _placed(racks, index, mover, slot, card)):
            return slot
    return -1


@_jit
def _best_value(values: Any, racks: Any, index: Any, mover: int, other: int, top: int, scratch: Any) -> float:
    """The best player's chance to win from this position (one step of value iteration)."""
    best = 0.0
    for slot in range(SLOTS):
        best = max(best, _after(values, racks, index, mover, other, slot, top))
    count = _free(racks, mover, other, top, scratch)
    total = 0.0
    for n in range(count):
        total += _best_place(values, racks, index, mover, other, scratch[n])[0]
    return float(max(best, total / count))


@_jit
def _sweep(values: Any, racks: Any, index: Any) -> float:
    """One Gauss-Seidel sweep of value iteration over every position; the largest change."""
    count = racks.shape[0]
    scratch = np.empty(CARDS, np.int64)
    change = 0.0
    for mover in range(count):
        if _ordered(racks, mover):
            continue
        for other in range(count):
            if _ordered(racks, other) or not _apart(racks, mover, other):
                continue
            for top in range(1, CARDS + 1):
                if top == racks[mover, 0] or top == racks[mover, 1] or top == racks[mover, 2]:
                    continue
                if top == racks[other, 0] or top == racks[other, 1] or top == racks[other, 2]:
                    continue
                value = _best_value(values, racks, index, mover, other, top, scratch)
                change = max(change, abs(value - values[mover, other, top]))
                values[mover, other, top] = value
    return change


# --- The gap valuation at this size, and the players ------------------------------------------------------------------


@_jit
def _gap_cost(a: int, b: int, c: int, pool: Any) -> float:
    """``RackValuer.gap_cost`` of the rack a b c with the plain model (``pool[v]``: whether card v may come)."""
    counts = np.zeros(CARDS + 2, np.int64)
    for value in range(1, CARDS + 1):
        counts[value] = counts[value - 1] + (1 if pool[value] else 0)
    counts[CARDS + 1] = counts[CARDS]
    size = counts[CARDS + 1]
    values = np.array([0, a, b, c, CARDS + 1])
    best = np.full(5, np.inf)
    best[0] = 0.0
    for j in range(1, 5):
        for i in range(j):
            if best[i] == np.inf or values[i] >= values[j]:
                continue
            open_slots = j - i - 1
            cost = best[i]
            if open_slots:
                fits = counts[values[j] - 1] - counts[values[i]]
                if fits < open_slots:
                    continue
                cost += max(float(open_slots), size / fits * open_slots * (open_slots + 1) / 2)
            if cost < best[j]:
                best[j] = cost
    return float(best[4])


@_jit
def _rack_cost(racks: Any, r: int, pool: Any) -> float:
    return float(_gap_cost(racks[r, 0], racks[r, 1], racks[r, 2], pool))


@_jit
def _pool(racks: Any, mine: int, others: Any, count: int, face_up: Any, faces: int) -> Any:
    """The cards that may come: not in ``mine``, nor in the first ``count`` racks of ``others``, nor face up."""
    pool = np.ones(CARDS + 1, np.bool_)
    pool[0] = False
    for k in range(SLOTS):
        pool[racks[mine, k]] = False
    for n in range(count):
        for k in range(SLOTS):
            pool[racks[others[n], k]] = False
    for n in range(faces):
        pool[face_up[n]] = False
    return pool


@_jit
def _cheapest(racks: Any, index: Any, r: int, card: int, pool: Any) -> tuple[float, int]:
    best, where = np.inf, 0
    for slot in range(SLOTS):
        cost = _rack_cost(racks, _placed(racks, index, r, slot, card), pool)
        if cost < best:
            best, where = cost, slot
    return best, where


@_jit
def _chance(coefficients: Any, mover: float, taking: float, other: float) -> float:
    """The fitted chance that the player to move wins (as racko.bots.win_chance)."""
    if taking <= 0:
        return 1.0
    if other <= 0:
        return 0.0
    z = coefficients[0] + coefficients[1] * np.log1p(mover) + coefficients[2] * np.log1p(taking)
    z += coefficients[3] * np.log1p(other)
    return float(1.0 / (1.0 + np.exp(-z)))


@_jit
def _master_after(
    racks: Any, index: Any, mover: int, other: int, slot: int, card: int, top: int, coefficients: Any
) -> float:
    """``master``'s chance to win after putting ``card`` into ``slot`` (-1: throwing it away), ``top`` being the card
    face up before the move: the opponent to move, taking the card handed on when that lowers its cost."""
    rack, handed = mover, card
    if slot >= 0:
        rack = _placed(racks, index, mover, slot, card)
        handed = racks[mover, slot]
        if _ordered(racks, rack):
            return 1.0
    face = np.array([handed])
    no_other = np.empty(0, np.int64)
    own = _rack_cost(racks, rack, _pool(racks, rack, no_other, 0, face, 1))
    theirs_pool = _pool(racks, other, no_other, 0, face, 1)
    theirs = _rack_cost(racks, other, theirs_pool)
    taking, _ = _cheapest(racks, index, other, handed, theirs_pool)
    if taking > theirs:
        taking = theirs
    return float(1.0 - _chance(coefficients, theirs, taking, own))


@_jit
def _policy_pick(
    kind: int, values: Any, racks: Any, index: Any, mover: int, other: int, top: int, coefficients: Any, scratch: Any
) -> int:
    """A player's pick: a slot (0-2) to take the face-up card into, or -1 to draw."""
    count = _free(racks, mover, other, top, scratch)
    if kind == BEST:
        winning = _winning_slot(racks, index, mover, top)
        if winning >= 0:  # a sure win elsewhere is worth as much: going out now keeps the turns counted true
            return int(winning)
        take, where = -1.0, 0
        for slot in range(SLOTS):
            value = _after(values, racks, index, mover, other, slot, top)
            if value > take:
                take, where = value, slot
        total = 0.0
        for n in range(count):
            total += _best_place(values, racks, index, mover, other, scratch[n])[0]
        return where if take >= total / count else -1
    if kind == MASTER:
        take, where = -1.0, 0
        for slot in range(SLOTS):
            value = _master_after(racks, index, mover, other, slot, top, top, coefficients)
            if value > take:
                take, where = value, slot
        total = 0.0
        for n in range(count):
            card = scratch[n]
            best = _master_after(racks, index, mover, other, -1, card, top, coefficients)
            for slot in range(SLOTS):
                best = max(best, _master_after(racks, index, mover, other, slot, card, top, coefficients))
            total += best
        return where if take >= total / count else -1
    others = np.array([other])
    face = np.array([top])
    pool = _pool(racks, mover, others, 1, face, 1)
    now = _rack_cost(racks, mover, pool)
    take, where = _cheapest(racks, index, mover, top, pool)
    if kind == MEDIUM:
        return where if take < now else -1
    draw = 0.0
    for n in range(count):
        draw += min(now, _cheapest(racks, index, mover, scratch[n], pool)[0])
    return where if take < now and take < draw / count else -1


@_jit
def _policy_place(
    kind: int, values: Any, racks: Any, index: Any, mover: int, other: int, top: int, card: int, coefficients: Any
) -> int:
    """A player's place for a card it drew: a slot, or -1 to throw it away."""
    if kind == BEST:
        winning = _winning_slot(racks, index, mover, card)
        if winning >= 0:
            return int(winning)
        return int(_best_place(values, racks, index, mover, other, card)[1])
    if kind == MASTER:
        best, where = _master_after(racks, index, mover, other, -1, card, top, coefficients), -1
        for slot in range(SLOTS):
            value = _master_after(racks, index, mover, other, slot, card, top, coefficients)
            if value > best:
                best, where = value, slot
        return where
    others = np.array([other])
    face = np.array([top, card])
    pool = _pool(racks, mover, others, 1, face, 2)
    now = _rack_cost(racks, mover, pool)
    cost, where = _cheapest(racks, index, mover, card, pool)
    return where if cost < now else -1


@_jit
def _play(
    kinds: Any,
    values: Any,
    racks: Any,
    index: Any,
    first: int,
    second: int,
    top: int,
    seed: int,
    coefficients: Any,
    lost: Any,
    record: Any,
) -> int:
    """One round from a deal, seat 0 (rack ``first``) moving first: the winner.  ``lost[seat]`` adds the chance each
    seat's choices gave away by the solved values, ``lost[2 + seat]`` its turns; with a ``record`` (rows of the
    mover's cost, its cost after taking, the other's cost, the mover, 1) the positions are written for fitting."""
    np.random.seed(seed)
    racks_of = np.array([first, second])
    scratch = np.empty(CARDS, np.int64)
    seat = 0
    for turn in range(400):
        mover, other = racks_of[seat], racks_of[1 - seat]
        if record.shape[0] > turn:
            no_other = np.empty(0, np.int64)
            face = np.array([top])
            own_pool = _pool(racks, mover, no_other, 0, face, 1)
            own = _rack_cost(racks, mover, own_pool)
            taking, _ = _cheapest(racks, index, mover, top, own_pool)
            record[turn, 0] = own
            record[turn, 1] = min(own, taking)
            record[turn, 2] = _rack_cost(racks, other, _pool(racks, other, no_other, 0, face, 1))
            record[turn, 3] = seat
            record[turn, 4] = 1.0
        best = _best_value(values, racks, index, mover, other, top, scratch)
        lost[2 + seat] += 1
        slot = _policy_pick(kinds[seat], values, racks, index, mover, other, top, coefficients, scratch)
        if slot >= 0:
            lost[seat] += best - _after(values, racks, index, mover, other, slot, top)
            card = top
        else:
            count = _free(racks, mover, other, top, scratch)
            expected = 0.0
            for n in range(count):
                drawn = scratch[n]
                place = _policy_place(kinds[seat], values, racks, index, mover, other, top, drawn, coefficients)
                expected += _after(values, racks, index, mover, other, place, drawn)
            lost[seat] += best - expected / count
            card = scratch[np.random.randint(count)]
            slot = _policy_place(kinds[seat], values, racks, index, mover, other, top, card, coefficients)
        if slot < 0:
            top = card
        else:
            top = racks[mover, slot]
            mover = _placed(racks, index, mover, slot, card)
            racks_of[seat] = mover
            if _ordered(racks, mover):
                return seat
        seat = 1 - seat
    return -1


def solve(tolerance: float = 1e-9, most: int = 1000) -> tuple[Any, Any, Any, int]:
    """The values of every position for the player to move, both playing their best: (values, racks, index, sweeps)."""
    racks, index = rack_tables()
    count = len(racks)
    values = np.full((count, count, CARDS + 1), 0.5)
    for sweep in range(1, most + 1):
        if _sweep(values, racks, index) < tolerance:
            return values, racks, index, sweep
    raise RackoError(f"The small game's values did not settle in {most} sweeps.")


def deals(racks: Any, index: Any, count: int, seed: int) -> list[tuple[int, int, int]]:
    """Random deals (first mover's rack, the other's, the face-up card); a rack dealt in order is dealt again."""
    generator = random.Random(seed)
    found: list[tuple[int, int, int]] = []
    while len(found) < count:
        cards = generator.sample(range(1, CARDS + 1), 2 * SLOTS + 1)
        first, second = int(index[tuple(cards[:3])]), int(index[tuple(cards[3:6])])
        if not (_ordered(racks, first) or _ordered(racks, second)):
            found.append((first, second, cards[6]))
    return found


def fit_chance(values: Any, racks: Any, index: Any, rounds: int, seed: int) -> Any:
    """``master``'s chance to win at this size: a logistic regression on rounds of two ``medium`` players."""
    rows, outcomes = [], []
    kinds = np.array([MEDIUM, MEDIUM])
    lost = np.zeros(4)
    for number, (first, second, top) in enumerate(deals(racks, index, rounds, seed)):
        record = np.zeros((400, 5))
        winner = _play(kinds, values, racks, index, first, second, top, seed + number, np.zeros(4), lost, record)
        if winner < 0:
            continue
        for row in record[record[:, 4] > 0]:
            rows.append(row[:3])
            outcomes.append(1.0 if int(row[3]) == winner else 0.0)
    data = np.log1p(np.array(rows))
    inputs = np.column_stack([np.ones(len(data)), data])
    target = np.array(outcomes)
    coefficients = np.zeros(4)
    for _ in range(50):  # Newton's method on the log-likelihood
        chances = 1 / (1 + np.exp(-inputs @ coefficients))
        hessian = (inputs * (chances * (1 - chances))[:, None]).T @ inputs + 1e-9 * np.eye(4)
        step = np.linalg.solve(hessian, inputs.T @ (target - chances))
        coefficients += step
        if np.abs(step).max() < 1e-10:
            break
    return coefficients


@dataclass(frozen=True)
class Match:
    """One player against another over the same deals, seats alternating."""

    first: str
    second: str
    rounds: int
    first_wins: int
    first_lost: float
    """The chance the first player's choices gave away, per round, by the solved values."""
    second_lost: float
    first_turns: float
    """The first player's turns per round."""

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            "rounds": self.rounds,
            "first_win_rate": round(self.first_wins / self.rounds, 4),
            "first_lost_per_round": round(self.first_lost, 4),
            "second_lost_per_round": round(self.second_lost, 4),
            "first_turns_per_round": round(self.first_turns, 3),
            "first_lost_per_turn": round(self.first_lost / self.first_turns, 5) if self.first_turns else 0.0,
        }


def play_match(
    first: str, second: str, rounds: int, seed: int, values: Any, racks: Any, index: Any, coefficients: Any
) -> Match:
    """``first`` against ``second`` over ``rounds`` deals (each dealt twice, each player moving first once)."""
    wins, lost, turns = 0, np.zeros(2), 0.0
    played = 0
    for number, (rack_a, rack_b, top) in enumerate(deals(racks, index, rounds // 2, seed)):
        for flip in (0, 1):
            kinds = np.array([PLAYERS[first], PLAYERS[second]])
            seat_lost = np.zeros(4)
            racks_in = (rack_a, rack_b)
            if flip:
                kinds = kinds[::-1].copy()
            winner = _play(
                kinds, values, racks, index, racks_in[0], racks_in[1], top, seed + 2 * number + flip, coefficients,
                seat_lost, np.zeros((0, 5)),
            )  # fmt: skip
            first_seat = 1 if flip else 0
            wins += winner == first_seat
            lost += [seat_lost[first_seat], seat_lost[1 - first_seat]]
            turns += seat_lost[2 + first_seat]
            played += 1
    return Match(first, second, played, int(wins), float(lost[0] / played), float(lost[1] / played), turns / played)


@dataclass(frozen=True)
class SmallGame:
    """The solved small game and the players measured against it."""

    sweeps: int
    first_mover: float
    """The best player's chance to win moving first, over random deals."""
    coefficients: tuple[float, ...]
    matches: tuple[Match, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "slots": SLOTS,
            "cards": CARDS,
            "sweeps": self.sweeps,
            "first_mover_win_chance": round(self.first_mover, 4),
            "master_chance_coefficients": [round(value, 4) for value in self.coefficients],
            "matches": [match.to_json() for match in self.matches],
        }


def solve_small(rounds: int = 20_000, seed: int = 0, values_file: Path | None = None) -> SmallGame:
    """Solve the small game and measure ``hard`` and ``master`` against the best player and each other.  With
    ``values_file`` the solved values are read from it when it holds them (an ``.npy`` file this wrote; sweeps 0),
    else written to it."""
    if values_file is not None and values_file.is_file():
        racks, index = rack_tables()
        values = np.load(values_file)
        if values.shape != (len(racks), len(racks), CARDS + 1):
            raise RackoError(f"{values_file} does not hold the small game's values.")
        sweeps = 0
    else:
        values, racks, index, sweeps = solve()
        if values_file is not None:
            np.save(values_file, values)
    first_mover = float(np.mean([values[a, b, top] for a, b, top in deals(racks, index, 20_000, seed)]))
    coefficients = fit_chance(values, racks, index, rounds, seed + 1)
    pairs = [("best", "best"), ("hard", "best"), ("master", "best"), ("master", "hard"), ("hard", "hard")]
    matches = tuple(play_match(a, b, rounds, seed + 2, values, racks, index, coefficients) for a, b in pairs)
    return SmallGame(sweeps, first_mover, tuple(float(value) for value in coefficients), matches)
