"""Rollouts: how many turns a rack still needs, found by playing the rest of the round many times.

Alone at the deck (solitaire), ``expert`` judges its few best candidate moves (see
:mod:`racko.bots.expert`) by simulation rather than by a formula.  The play-outs also
model a table (opponents who draw and discard, the denial cost of a discard), for
research: there they proved too noisy to beat ``expert``'s one-ply rating
(docs/STRENGTH.md).  For each candidate the seat's position after
the move is played out ``rollouts`` times to a Rack-O, each time with the cards that
may come in a fresh random order (the same orders for every candidate, so that their
differences are not drowned in luck).  In these play-outs:

- the stock is every card the seat has not seen in a known place, in random order,
  except that cards whose order is known (a stock made by turning the pile over)
  come first, in that order;
- each opponent in turn draws the stock's top card and discards it (so the seat sees
  one fresh card on the discard pile per turn, as at a real table);
- the seat plays like ``medium`` with the world's gap model: it takes the top discard
  when that lowers the cost of its rack (:mod:`racko.bots.gaps`), else draws and keeps
  the card where it lowers the cost; with ``weighs_draw`` it plays like ``hard``: it
  takes the discard only when that also beats the average over the stock's cards of
  the best it could do with each;
- a turn that finds the stock empty turns the discard pile over first.

The estimate of a candidate is the mean number of the seat's turns, counting the
current one, until its rack qualifies (capped at ``cap``), plus the ``denial`` cost of
the card the seat discards this turn (what that card is worth to the next player, in
turns; see :mod:`racko.bots.expert`).

Two implementations make the same moves with the same numbers: :func:`estimate_python`,
the reference written for reading, and the C kernel ``racko.bots._rollout`` built with
the package, about a hundred times faster.  :func:`estimate` uses the kernel when it
was built and the reference otherwise.  Both draw their random orders from one
splitmix64 generator, seeded by the caller, so a seed gives the same estimates in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from racko.bots.gaps import INFINITE, PLAIN, GapModel, RackValuer, counts_below
from racko.errors import RackoError
from racko.rules import RACK_SIZE
from racko.scoring import is_ordered, longest_run

try:  # the compiled kernel; absent when the package was installed without a C compiler
    from racko.bots import _rollout as _kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _kernel = None

MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Candidate:
    """A position to play out: the seat's rack and the top discard after its move.

    With ``draws_first`` the seat's turn is not over: it still draws from the stock and
    keeps or discards the card (the move "draw" before the card is known).
    """

    rack: tuple[int, ...]
    top: int
    """The top discard (0 when the pile is empty)."""
    draws_first: bool = False


@dataclass(frozen=True)
class World:
    """What the seat knows that the play-outs need, shared by all candidates of one decision."""

    deck_size: int
    may_come: tuple[int, ...]
    """Cards that may still be drawn (in the stock or in hidden rack slots), the seat's own view."""
    known_order: tuple[int, ...] = ()
    """The stock's next cards when they are known (a turned-over pile), top first; all are in ``may_come``."""
    needs_run: bool = False
    opponents: int = 0
    model: GapModel = PLAIN
    """The gap model the seat plays by in the play-outs (see :class:`racko.bots.gaps.GapModel`)."""
    weighs_draw: bool = False
    """Whether the seat takes the top discard only when that also beats the average blind draw, as ``hard`` does
    (off: whenever it lowers the cost, as ``medium`` does)."""
    denial: tuple[float, ...] = ()
    """Per card (index 0 unused): added to a candidate's estimate when the seat discards that card this turn;
    empty for none."""


def kernel_available() -> bool:
    """Whether the compiled kernel was built with this installation."""
    return _kernel is not None


def estimate(world: World, candidates: Sequence[Candidate], rollouts: int, seed: int, cap: int = 60) -> list[float]:
    """The mean turns to Rack-O of each candidate (see the module's description)."""
    _check(world, candidates, rollouts, cap)
    if _kernel is not None:
        result: list[float] = _kernel.estimate(
            world.deck_size,
            world.may_come,
            world.known_order,
            world.needs_run,
            world.opponents,
            world.model.slack,
            world.model.power,
            world.model.edge,
            world.weighs_draw,
            world.denial,
            [(c.rack, c.top, c.draws_first) for c in candidates],
            rollouts,
            seed & MASK,
            cap,
        )
        return result
    return estimate_python(world, candidates, rollouts, seed, cap)


def _check(world: World, candidates: Sequence[Candidate], rollouts: int, cap: int) -> None:
    if rollouts < 1 or cap < 1:
        raise RackoError("Rollouts need at least one play-out and a cap of at least one turn.")
    if len(set(world.may_come)) != len(world.may_come) or len(set(world.known_order)) != len(world.known_order):
        raise RackoError("The cards that may come, and a known stock order, name each card once at most.")
    if not set(world.known_order) <= set(world.may_come):
        raise RackoError("Cards of a known stock order must be among the cards that may come.")
    if world.denial and len(world.denial) != world.deck_size + 1:
        raise RackoError(f"Denial costs are given per card: {world.deck_size + 1} values, not {len(world.denial)}.")
    deck = range(1, world.deck_size + 1)
    for card in world.may_come:
        if card not in deck:
            raise RackoError(f"{card!r} is not a card of the deck (1 to {world.deck_size}).")
    for candidate in candidates:
        if len(candidate.rack) != RACK_SIZE:
            raise RackoError(f"A rack holds {RACK_SIZE} cards, not {len(candidate.rack)}.")
        for card in (*candidate.rack, *([candidate.top] if candidate.top else [])):
            if card not in deck:
                raise RackoError(f"{card!r} is not a card of the deck (1 to {world.deck_size}).")


class SplitMix64:
    """The small 64-bit generator both implementations share (Steele, Lea and Flood's splitmix64)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def shuffle(self, cards: list[int]) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self.next() % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def estimate_python(
    world: World, candidates: Sequence[Candidate], rollouts: int, seed: int, cap: int = 60
) -> list[float]:
    """The reference implementation of :func:`estimate`."""
    _check(world, candidates, rollouts, cap)
    model = world.model
    rng = SplitMix64(seed)
    known = list(world.known_order)
    rest = [card for card in world.may_come if card not in set(known)]
    totals = [0.0] * len(candidates)
    for _ in range(rollouts):
        shuffled = list(rest)
        rng.shuffle(shuffled)
        # The stock as a list with its top at the end.
        stock = shuffled[::-1] + known[::-1]
        for index, candidate in enumerate(candidates):
            totals[index] += _play_out(world, model, candidate, list(stock), cap)
    return [total / rollouts for total in totals]


def _qualifies(rack: Sequence[int], needs_run: bool) -> bool:
    return is_ordered(rack) and (not needs_run or longest_run(rack) >= 3)


def _play_out(world: World, model: GapModel, candidate: Candidate, stock: list[int], cap: int) -> float:
    """The seat's turns, counting the current one, until its rack qualifies (at most ``cap`` + 1),
    plus the denial cost of the card it discards this turn."""
    rack = list(candidate.rack)
    pile = [candidate.top] if candidate.top else []
    if candidate.draws_first and not _draw_and_place(world, model, rack, stock, pile):
        return cap + 1
    # Going out ends the round: the card discarded then is nobody's gain.
    done = _qualifies(rack, world.needs_run)
    denied = world.denial[pile[-1]] if world.denial and pile and not done else 0.0
    return _turns_to_go(world, model, rack, stock, pile, cap) + denied


def _turns_to_go(world: World, model: GapModel, rack: list[int], stock: list[int], pile: list[int], cap: int) -> int:
    turns = 1
    while not _qualifies(rack, world.needs_run):
        if turns > cap:
            return cap + 1
        for _ in range(world.opponents):
            card = _draw(stock, pile)
            if card is None:
                return cap + 1
            pile.append(card)
        turns += 1
        valuer = RackValuer(counts_below(stock, world.deck_size), world.needs_run, model)
        now = valuer.cost(rack)
        if pile:
            take_cost, slot = valuer.best_placement(rack, pile[-1])
            if take_cost < now and (not world.weighs_draw or take_cost < _draw_cost(valuer, rack, stock, now)):
                pile[-1], rack[slot] = rack[slot], pile[-1]
                continue
        if not _draw_and_place(world, model, rack, stock, pile):
            return cap + 1
    return turns


def _draw_cost(valuer: RackValuer, rack: Sequence[int], stock: Sequence[int], now: float) -> float:
    """:meth:`RackValuer.draw_cost` over the stock, found faster: every card's placements are priced from the
    rack's cheapest kept sequences below and above the slot it replaces, computed once."""
    if not stock:
        return now
    if valuer.needs_run:  # the run's cost does not split at a slot: every placement in full
        return valuer.draw_cost(rack, stock, now)
    counts = valuer.counts
    interior, edge = valuer.tables
    values = (0, *rack, len(counts) - 1)
    last = len(values) - 1

    def link(low: int, high: int, open_slots: int, at_edge: bool) -> float:
        if open_slots == 0:
            return 0.0
        fits = counts[high - 1] - counts[low]
        if fits < open_slots:
            return INFINITE
        return (edge if at_edge else interior)[open_slots][fits]

    before = [0.0] + [INFINITE] * last
    for j in range(1, last + 1):
        for i in range(j):
            if values[i] < values[j]:
                before[j] = min(before[j], before[i] + link(values[i], values[j], j - i - 1, i == 0 or j == last))
    after = [INFINITE] * last + [0.0]
    for j in range(last - 1, -1, -1):
        for k in range(j + 1, last + 1):
            if values[j] < values[k]:
                after[j] = min(after[j], link(values[j], values[k], k - j - 1, j == 0 or k == last) + after[k])
    skipping = [INFINITE] * last
    for p in range(1, last):
        for i in range(p):
            for k in range(p + 1, last + 1):
                if values[i] < values[k]:
                    cost = before[i] + link(values[i], values[k], k - i - 1, i == 0 or k == last) + after[k]
                    skipping[p] = min(skipping[p], cost)
    total = 0.0
    for card in stock:
        best = now
        for p in range(1, last):
            into = min(
                (before[i] + link(values[i], card, p - i - 1, i == 0) for i in range(p) if values[i] < card),
                default=INFINITE,
            )
            out = min(
                (
                    link(card, values[k], k - p - 1, k == last) + after[k]
                    for k in range(p + 1, last + 1)
                    if card < values[k]
                ),
                default=INFINITE,
            )
            best = min(best, into + out, skipping[p])
        total += best
    return total / len(stock)


def _draw(stock: list[int], pile: list[int]) -> int | None:
    """The stock's top card, turning the discard pile over first when the stock is empty."""
    if not stock:
        if len(pile) < 2:
            return None
        # The pile turned over: its bottom card becomes the stock's top, and is turned up as the new pile.
        stock.extend(pile[::-1])
        pile.clear()
        pile.append(stock.pop())
    return stock.pop()


def _draw_and_place(world: World, model: GapModel, rack: list[int], stock: list[int], pile: list[int]) -> bool:
    card = _draw(stock, pile)
    if card is None:
        return False
    valuer = RackValuer(counts_below(stock, world.deck_size), world.needs_run, model)
    cost, slot = valuer.best_placement(rack, card)
    if cost < valuer.cost(rack):
        pile.append(rack[slot])
        rack[slot] = card
    else:
        pile.append(card)
    return True
