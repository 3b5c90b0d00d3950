"""Hints that say why, in words a player understands: which cards are in order and stay so, what a move leaves
room for, what it hands the next player, and its worth as ``racko review`` measures it: with 2 players the chance
to win the game from the scores (and the round's, from the same play-outs), a move's distance from the best weighed
against what the round is worth in the game; alone and with 3-4 players the turns to go out.

Every sentence is a key of the shared words (:mod:`racko.analysis.words`) with its values, so that the page says it
in its own language and the terminal in English; :func:`explained_choices` gives the advisor's choices (the play
layer's :class:`~racko.play.hint.Choice`, their ``reason`` as before) ranked by :mod:`racko.analysis.evaluate` and
with these sentences.  Everything is judged from the seat's own view.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from racko.actions import CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.analysis.evaluate import Evaluation, KernelTooOldError, Measure, MoveValue, evaluate, placed
from racko.analysis.game_chance import LEAST_STAKE, round_stake
from racko.analysis.review import GAME_CHANCE_CLASSES, class_bounds
from racko.analysis.words import say
from racko.bots.gaps import cards_that_may_come
from racko.families import AnyAction, AnyObservation
from racko.highlow import SWAP, WILD, HighLowObservation, Replace, SwapCards
from racko.observation import Observation
from racko.play.hint import Choice, advice, choices_for
from racko.rules import POINTS_PER_CARD, RACK_SIZE, RACKO_SCORE, SLOT_LABELS
from racko.scoring import longest_run, ordered_prefix, qualifies_for_racko

LISTS = ("cards",)
"""Values that are lists of cards, said as "4, 14, 24"."""
MOST_ROOM_SENTENCES = 2
"""Open stretches of the rack named after a move, the largest first."""
COMPLETES = ("why:goes-out", "why:may-call")
"""The sentences of a move that completes the rack: the round is won at once, or at the call that ends the turn."""


@dataclass(frozen=True)
class Sentence:
    """One reason in words: a key of the shared words and the values it names."""

    key: str
    values: dict[str, Any]

    def text(self, lang: str = "en") -> str:
        values = {key: ", ".join(map(str, value)) if key in LISTS else value for key, value in self.values.items()}
        return say(self.key, values, lang)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {"key": self.key, "values": dict(self.values), "text": self.text(lang)}


# --- The order a rack keeps -------------------------------------------------------------------------------------


def order_chain(rack: Sequence[int], may_come: Iterable[int], deck_size: int, keep: int | None = None) -> list[int]:
    """The slots (indices) of the cards a player keeps: the most cards in rising order whose open stretches can
    still be filled by cards that may come (each stretch between two kept cards needs as many such cards between
    them as it has slots); among chains as long, the one with the most spare cards.  ``keep``: a slot the chain
    must hold (where a card was just put), if any chain can."""
    coming = sorted(set(may_come))

    def between(low: int, high: int) -> int:
        return sum(1 for card in coming if low < card < high)

    values = (0, *rack, deck_size + 1)
    last = len(values) - 1
    best: list[tuple[int, int] | None] = [None] * (last + 1)
    previous = [0] * (last + 1)
    best[0] = (0, 0)
    for j in range(1, last + 1):
        for i in range(j):
            start = best[i]
            if start is None or values[i] >= values[j] or (keep is not None and i <= keep < j - 1):
                continue  # (a chain from i to j skips the slots between them, and must not skip ``keep``)
            spare = between(values[i], values[j]) - (j - i - 1)
            if spare < 0:
                continue
            score = (start[0] + (1 if j < last else 0), start[1] + spare)
            if best[j] is None or score > best[j]:  # type: ignore[operator]
                best[j], previous[j] = score, i
    chain = []
    j = previous[last] if best[last] is not None else 0
    while j > 0:
        chain.append(j - 1)
        j = previous[j]
    return sorted(chain)


@dataclass(frozen=True)
class Stretch:
    """Open slots between two kept cards (or an end of the rack): slots ``first`` to ``last`` (indices) want cards
    above ``low`` and below ``high`` (0 and deck size + 1 at the ends)."""

    first: int
    last: int
    low: int
    high: int

    @property
    def size(self) -> int:
        return self.last - self.first + 1

    def values(self, deck_size: int) -> dict[str, Any]:
        return {
            "from": SLOT_LABELS[self.first],
            "to": SLOT_LABELS[self.last],
            "count": self.size,
            "low": self.low,
            "high": self.high,
        }

    def shape(self, deck_size: int) -> str:
        """Which words say it: one slot or several, and whether it is bounded above, below or both."""
        count = "one" if self.size == 1 else "many"
        if self.low == 0:
            return f"below-{count}"
        if self.high == deck_size + 1:
            return f"above-{count}"
        return f"between-{count}"


def stretches(rack: Sequence[int], chain: Sequence[int], deck_size: int) -> list[Stretch]:
    """The open stretches a chain of kept slots leaves, left to right."""
    found = []
    bounds = [-1, *chain, RACK_SIZE]
    for below, above in itertools.pairwise(bounds):
        if above - below > 1:
            low = rack[below] if below >= 0 else 0
            high = rack[above] if above < RACK_SIZE else deck_size + 1
            found.append(Stretch(below + 1, above - 1, low, high))
    return found


# --- Why a move -------------------------------------------------------------------------------------------------


@dataclass
class Reasons:
    """A move's sentences in two heaps: what it achieves or keeps, then what it costs.  Every one is a fact of the
    position from the seat's own view; those against the move always come after those for it."""

    achieves: list[Sentence] = dataclasses.field(default_factory=list)
    costs: list[Sentence] = dataclasses.field(default_factory=list)

    def sentences(self) -> list[Sentence]:
        return [*self.achieves, *self.costs]


def why(
    observation: Observation,
    action: AnyAction,
    move: MoveValue | None = None,
    evaluation: Evaluation | None = None,
    names: Sequence[str] | None = None,
) -> list[Sentence]:
    """The sentences that explain ``action`` from this seat's view (classic family).  With its worth measured
    (``move`` and ``evaluation``), the best move says first what it wins and by how much, then what it achieves, then
    what it costs; another move ends with its worth and how far it is behind."""
    rack = observation.rack
    may_come = cards_that_may_come(observation)
    reasons = Reasons()
    if isinstance(action, CallRacko):
        reasons.achieves.append(Sentence("why:call", {}))
    elif isinstance(action, Wait):
        reasons.achieves.append(Sentence("why:wait", {"run": longest_run(rack)}))
    else:
        reasons = _placement_reasons(observation, action, move, may_come, names)
    if evaluation is None or move is None:
        return reasons.sentences()
    if move.action == evaluation.best.action:
        if reasons.achieves and reasons.achieves[0].key in COMPLETES:
            return reasons.sentences()  # a certain win: no estimate to quote
        return [*_best_worth(observation, evaluation, move), *reasons.sentences()]
    return [*reasons.sentences(), *_worth_sentences(observation, evaluation, move)]


def _placement_reasons(
    observation: Observation,
    action: AnyAction,
    move: MoveValue | None,
    may_come: list[int],
    names: Sequence[str] | None,
) -> Reasons:
    public = observation.public
    rules = public.rules
    size = rules.deck_size
    rack = observation.rack
    before_chain = order_chain(rack, may_come, size)
    reasons = Reasons()
    card: int | None = None
    slot: int | None = None
    if isinstance(action, Exchange):
        card, slot = observation.held, action.slot
    elif isinstance(action, TakeDiscard):
        card = public.discard_top
        slot = move.slot if move is not None else None
    if card is not None and slot is not None:
        return _placing(observation, card, slot, before_chain, may_come, names)
    if isinstance(action, DrawFromStock):
        reasons.achieves += _draw(observation, before_chain, may_come)
        reasons.achieves += _order(rack, before_chain, None)
    elif isinstance(action, Discard):
        held = observation.held
        assert held is not None
        if qualifies_for_racko(rack, rules):
            reasons.achieves.append(Sentence("why:may-call", {}))
            return reasons
        fitting = [s for s in stretches(rack, before_chain, size) if s.low < held < s.high]
        if not stretches(rack, before_chain, size) and goes_out_with(rack, held, rules):
            reasons.achieves.append(Sentence("why:discard-run", {"held": held}))
        elif fitting:
            values = {"held": held, **_labels(fitting[0])}
            reasons.achieves.append(Sentence("why:discard-fits" + _one(fitting[0]), values))
        else:
            reasons.achieves.append(Sentence("why:discard-nowhere", {"held": held}))
        reasons.achieves += _order(rack, before_chain, None)
        reasons.costs += _gives(observation, held, names)
    return reasons


def _placing(
    observation: Observation,
    card: int,
    slot: int,
    before_chain: list[int],
    may_come: list[int],
    names: Sequence[str] | None,
) -> Reasons:
    """``card`` into ``slot`` (an exchange, or the top discard taken there)."""
    rules = observation.public.rules
    size = rules.deck_size
    rack = observation.rack
    handed = rack[slot]
    after = placed(rack, slot, card)
    reasons = Reasons()
    if qualifies_for_racko(after, rules):
        # The round is won here (or at the call that ends this turn): nothing else about the rack matters.
        reasons.achieves.append(Sentence("why:goes-out" if rules.auto_racko else "why:may-call", {}))
        return reasons
    after_chain = order_chain(after, may_come, size)
    if slot not in after_chain:
        # As many cards in order with the new card among them: the move keeps that order.
        with_card = order_chain(after, may_come, size, keep=slot)
        if slot in with_card and len(with_card) >= len(after_chain):
            after_chain = with_card
    if slot in after_chain:
        # the stretch the card fills is said of the order the move keeps (its other cards), as every sentence of the
        # hint is: a card that the new one brings into order is kept there, never said to be needed (issue 48)
        filling = [kept for kept in after_chain if kept != slot]
        reasons.achieves += _fits(rack, before_chain, filling, after, after_chain, slot, card, size)
    else:
        reasons.costs.append(Sentence("why:out-of-order", {"card": card, "slot": SLOT_LABELS[slot]}))
    if slot in before_chain and slot not in after_chain:
        reasons.costs.append(Sentence("why:gives-up-kept", {"out": handed, "slot": SLOT_LABELS[slot]}))
    dropped = [kept for kept in before_chain if kept != slot and kept not in after_chain]
    if len(dropped) == 1:
        reasons.costs.append(
            Sentence("why:drops-kept-one", {"card": rack[dropped[0]], "slot": SLOT_LABELS[dropped[0]]})
        )
    elif dropped:
        reasons.costs.append(Sentence("why:drops-kept", {"cards": [rack[kept] for kept in dropped]}))
    run = _run(rules.two_player_rule, rack, before_chain, after, after_chain, may_come, size)
    reasons.achieves += run.achieves
    if rules.players > 1:  # alone, nobody else goes out
        start = _start(rack, after)
        reasons.achieves += start.achieves
        reasons.costs += start.costs
    reasons.achieves += _order(after, after_chain, slot)
    reasons.achieves += _room(after, after_chain, size, may_come)
    reasons.costs += run.costs
    reasons.achieves += _keeps_from_next(observation, card, names)
    reasons.costs += _gives(observation, handed, names)
    return reasons


def _one(stretch: Stretch) -> str:
    """The key suffix of a sentence about one open slot ("slot 50", not "slots 50–50")."""
    return "-one" if stretch.size == 1 else ""


def _labels(stretch: Stretch) -> dict[str, Any]:
    return {"from": SLOT_LABELS[stretch.first], "to": SLOT_LABELS[stretch.last]}


def _fits(
    rack: tuple[int, ...],
    before_chain: list[int],
    filling: list[int],
    after: tuple[int, ...],
    after_chain: list[int],
    slot: int,
    card: int,
    size: int,
) -> list[Sentence]:
    """Where the card goes, in order: the open stretch of the order the move keeps (``filling``: its cards other than
    this one) that the card fills; a card that replaces one already in order says so; where the card it replaces
    stood between the same neighbours, it names its neighbours in that order (the order is rebuilt around it)."""
    if slot in before_chain:
        return [Sentence("why:replaces-kept", {"card": card, "out": rack[slot], "slot": SLOT_LABELS[slot]})]
    for stretch in stretches(rack, filling, size):
        if not stretch.first <= slot <= stretch.last:
            continue
        if stretch.size == 1 and stretch.low < rack[slot] < stretch.high:
            break  # the card it replaces stood between the same two: the slot needed no card, the order is rebuilt
        if stretch.low < card < stretch.high:
            values = {**stretch.values(size), "card": card}
            return [Sentence("why:fits-" + stretch.shape(size), values)]
    lower = [after[kept] for kept in after_chain if kept < slot]
    higher = [after[kept] for kept in after_chain if kept > slot]
    values = {"card": card, "slot": SLOT_LABELS[slot]}
    if lower and higher:
        return [Sentence("why:fits-new-between", {**values, "low": lower[-1], "high": higher[0]})]
    if higher:
        return [Sentence("why:fits-new-below", {**values, "high": higher[0]})]
    if lower:
        return [Sentence("why:fits-new-above", {**values, "low": lower[-1]})]
    return []


def _order(rack: tuple[int, ...], chain: list[int], placed_slot: int | None) -> list[Sentence]:
    kept = [rack[slot] for slot in chain if slot != placed_slot]
    if len(kept) < 2:
        return []
    return [Sentence("why:in-order", {"cards": kept, "count": len(kept)})]


def _start(before: tuple[int, ...], after: tuple[int, ...]) -> Reasons:
    """The start in order from slot 5, what the rack scores if somebody else goes out: grown or broken."""
    was, now = ordered_prefix(before), ordered_prefix(after)
    reasons = Reasons()
    if now > was and now >= 2:
        reasons.achieves.append(
            Sentence("why:start-grows", {"upto": SLOT_LABELS[now - 1], "points": POINTS_PER_CARD * now})
        )
    elif now < was and was >= 2:
        reasons.costs.append(
            Sentence("why:start-breaks", {"upto": SLOT_LABELS[was - 1], "points": POINTS_PER_CARD * now})
        )
    return reasons


def _run(
    needed: bool,
    before: tuple[int, ...],
    before_chain: list[int],
    after: tuple[int, ...],
    after_chain: list[int],
    may_come: list[int],
    size: int,
) -> Reasons:
    """Under the 2-player rule: the run of three a Rack-O needs, made, within reach or broken up.  A pair is within
    reach only through a card that may still come (not in the rack, not seen on the pile or in another rack) and that
    fits the order beside it; a pair against slot 5 or slot 50 can grow on one side only."""
    reasons = Reasons()
    if not needed:
        return reasons
    run_after = _run_cards(after, 3)
    if run_after:
        if not _run_cards(before, 3):
            reasons.achieves.append(Sentence("why:run-made", {"cards": run_after}))
        return reasons
    growing = _growing_pairs(after, after_chain, may_come, size)
    if growing:
        (low, high), wanted = growing[0]
        if len(wanted) == 2:
            values = {"low": low, "high": high, "below": wanted[0], "above": wanted[1]}
            reasons.achieves.append(Sentence("why:run-near", values))
        else:
            reasons.achieves.append(Sentence("why:run-near-one", {"low": low, "high": high, "wanted": wanted[0]}))
    else:
        reasons.achieves.append(Sentence("why:run-none", {}))
    broken = [pair for pair, _ in _growing_pairs(before, before_chain, may_come, size) if pair not in _pairs(after)]
    if broken:
        low, high = broken[0]
        reasons.costs.append(Sentence("why:run-lost", {"low": low, "high": high}))
    return reasons


def _growing_pairs(
    rack: Sequence[int], chain: Sequence[int], may_come: Iterable[int], size: int
) -> list[tuple[tuple[int, int], list[int]]]:
    """The pairs side by side in the kept order that a third card may still make a run, each with those cards."""
    coming = set(may_come)
    kept = set(chain)
    found = []
    for index in range(len(rack) - 1):
        low, high = rack[index], rack[index + 1]
        if high != low + 1 or index not in kept or index + 1 not in kept:
            continue
        wanted = []
        below = index - 1  # the slot left of the pair: the card there must stay above the kept cards before it
        if below >= 0 and low - 1 in coming and all(rack[k] < low - 1 for k in chain if k < below):
            wanted.append(low - 1)
        above = index + 2  # the slot right of the pair: the card there must stay below the kept cards after it
        if above < len(rack) and high + 1 in coming and all(rack[k] > high + 1 for k in chain if k > above):
            wanted.append(high + 1)
        if wanted:
            found.append(((low, high), wanted))
    return found


def _run_cards(rack: Sequence[int], length: int) -> list[int]:
    """The cards of the first run of at least ``length`` rising numbers in neighbouring slots."""
    start = 0
    for index in range(1, len(rack) + 1):
        if index == len(rack) or rack[index] != rack[index - 1] + 1:
            if index - start >= length:
                return list(rack[start:index])
            start = index
    return []


def _pairs(rack: Sequence[int]) -> list[tuple[int, int]]:
    return [(a, b) for a, b in itertools.pairwise(rack) if b == a + 1]


def _room(after: tuple[int, ...], chain: list[int], size: int, may_come: list[int]) -> list[Sentence]:
    """The open stretches left, the largest first: how many cards each still needs, and how many may come."""
    found = sorted(stretches(after, chain, size), key=lambda stretch: -stretch.size)
    sentences = []
    for stretch in found[:MOST_ROOM_SENTENCES]:
        coming = sum(1 for card in may_come if stretch.low < card < stretch.high)
        values = {**stretch.values(size), "may": coming}
        sentences.append(Sentence("why:room-" + stretch.shape(size), values))
    if not found:
        return [Sentence("why:all-in-order", {})]
    return sentences


def _draw(observation: Observation, chain: list[int], may_come: list[int]) -> list[Sentence]:
    """Drawing: what the top discard would have done, how many of the cards that may come fit an open slot, and the
    stock's next card where everyone saw it turned over.  A rack all in order that still needs its run of three (the
    2-player rule) needs a card that makes the run, and the sentences count those instead."""
    public = observation.public
    rules = public.rules
    size = rules.deck_size
    rack = observation.rack
    top = public.discard_top
    open_stretches = stretches(rack, chain, size)
    sentences = []
    upcoming = public.next_stock_card
    if upcoming is not None:
        sentences.append(Sentence("why:draw-next", {"upcoming": upcoming}))
    if not open_stretches and rules.two_player_rule:
        values = {"fit": sum(1 for card in may_come if goes_out_with(rack, card, rules)), "may": len(may_come)}
        if top is None:
            sentences.append(Sentence("why:draw-empty-run", values))
        elif goes_out_with(rack, top, rules):
            sentences.append(Sentence("why:draw-over-run", {"top": top, **values}))
        else:
            sentences.append(Sentence("why:draw-run", {"top": top, **values}))
        return sentences
    fitting = sum(1 for card in may_come if any(s.low < card < s.high for s in open_stretches))
    values = {"fit": fitting, "may": len(may_come)}
    if top is not None:
        where = [s for s in open_stretches if s.low < top < s.high]
        if where:
            sentences.append(
                Sentence("why:draw-over-take" + _one(where[0]), {"top": top, **_labels(where[0]), **values})
            )
        else:
            sentences.append(Sentence("why:draw", {"top": top, **values}))
    else:
        sentences.append(Sentence("why:draw-empty", values))
    return sentences


def goes_out_with(rack: Sequence[int], card: int, rules: Any) -> bool:
    """Whether ``card`` put in some slot of ``rack`` makes it qualify for Rack-O."""
    return any(qualifies_for_racko(placed(tuple(rack), slot, card), rules) for slot in range(RACK_SIZE))


def _wanted_by_next(observation: Observation, card: int) -> tuple[int, int] | None:
    """The next player (of the other side) and a card it took from the pile near ``card``, if any: it probably
    collects cards there."""
    public = observation.public
    rules = public.rules
    following = (observation.seat + 1) % rules.players
    if following == observation.seat or rules.side_of(following) == rules.side_of(observation.seat):
        return None
    near = max(2, rules.deck_size // 10)
    taken = [known for known in public.known[following] if known is not None and abs(known - card) <= near]
    if not taken:
        return None
    return following, min(taken, key=lambda known: abs(known - card))


def _naming(key: str, values: dict[str, Any], player: int, names: Sequence[str] | None) -> Sentence:
    """A sentence about another player: by name where the names are known, else as "the next player"."""
    values = {**values, "player": player}
    if names is not None:
        return Sentence(key, {**values, "name": names[player]})
    return Sentence(key + "-next", values)


def _gives(observation: Observation, card: int, names: Sequence[str] | None) -> list[Sentence]:
    """What the card handed on may do for the next player: a card it took from the pile near this one suggests it
    collects cards there."""
    wanted = _wanted_by_next(observation, card)
    if wanted is None:
        return []
    following, taken = wanted
    return [_naming("why:gives-wanted", {"out": card, "taken": taken}, following, names)]


def _keeps_from_next(observation: Observation, card: int, names: Sequence[str] | None) -> list[Sentence]:
    """Placing a card the next player probably collects keeps it from them (the other choice would put it on the
    pile: discarding it, or leaving the top discard there)."""
    wanted = _wanted_by_next(observation, card)
    if wanted is None:
        return []
    following, taken = wanted
    return [_naming("why:denies", {"card": card, "taken": taken}, following, names)]


def _best_worth(observation: Observation, evaluation: Evaluation, move: MoveValue) -> list[Sentence]:
    """Why the best move is best, first: its worth, no other move's better, and how far ahead of the next move
    measured as deeply it is (within the noise of the estimate, or with the game's measure within the review's bound
    of a good move, it says so).  Where the game's measure cannot tell the best moves apart, the round's chance ranks
    them, and the sentences say so."""
    measure = evaluation.measure
    if measure == "win_chance" and not evaluation.playouts:
        return []  # calling or playing on in Bonus: expert's plan, not an estimate to quote (see evaluate.py)
    following = next(
        (other for other in evaluation.moves if other.action != move.action and other.playouts == move.playouts), None
    )
    if measure == "game_chance":
        # the round ranked it first among moves the game's measure cannot tell apart: one of them may show a higher
        # chance to win the game, within the noise
        # (a move nothing tells from it, decided_by None, was not ranked below it by the round: they are as good)
        by_round = any(
            other.decided_by in ("round", "points") and other.value > move.value
            for other in evaluation.moves
            if other.action != move.action and other.playouts == move.playouts
        ) or (following is not None and following.decided_by in ("round", "points"))
        first = "why:best-round-game" if by_round else "why:best-game"
        sentences = [Sentence(first, _game_values(move, observation))]
    elif measure == "win_chance":
        sentences = [Sentence("why:best", {"chance": round_percent(move.value), "playouts": move.playouts})]
    else:
        sentences = [Sentence("why:best-turns", {"turns": round(move.value, 1), "playouts": move.playouts})]
    if following is None:
        return sentences
    values: dict[str, Any]
    if measure == "game_chance":
        if following.decided_by == "round":
            assert following.round_chance is not None and move.round_chance is not None
            second, best = round_percent(following.round_chance), round_percent(move.round_chance)
            sentences.append(Sentence("why:best-ahead-round", {"second": second, "points": best - second}))
            return sentences
        if following.decided_by == "points":
            points = {"points": _points(move.points), "second": _points(following.points)}
            sentences.append(Sentence("why:best-points", points))
            return sentences
        stake = stake_of(observation)
        close = evaluation.difference(move.value, following.value) / stake <= GAME_CHANCE_CLASSES.good
        values = {"second": game_percent(following.value), "points": _gap(evaluation, move, following)}
        if close:
            bound = {"bound": round(100 * GAME_CHANCE_CLASSES.good)}
            sentences += [Sentence("why:best-close-game", {**values, **bound}), stake_sentence(stake)]
        else:
            sentences.append(Sentence("why:best-ahead-game", {**values, "points": max(values["points"], LEAST_GAP)}))
        return sentences
    close = evaluation.difference(move.value, following.value) <= class_bounds(measure).good
    if measure == "win_chance":
        values = {"second": round_percent(following.value), "points": _gap(evaluation, move, following)}
        sentences.append(Sentence("why:best-close" if close else "why:best-ahead", values))
    else:
        values = {"second": round(following.value, 1), "turns": _gap(evaluation, move, following)}
        sentences.append(Sentence("why:best-close-turns" if close else "why:best-ahead-turns", values))
    return sentences


def _points(points: float | None) -> float:
    """The round's points a move leads to, as said: to a tenth of a point."""
    return round(points or 0.0, 1)


def stake_of(observation: Observation) -> float:
    """What the round is worth in the game to this seat, 2 players (:func:`racko.analysis.game_chance.round_stake`,
    from the scores everyone sees): the review weighs a loss in the chance to win the game against it."""
    public = observation.public
    seat = observation.seat
    return round_stake(public.totals[seat], public.totals[1 - seat], 2, public.rules.target)


LEAST_GAP = 0.1
"""The least gap said between moves the game's measure tells apart (past the review's bound of a good move): its
figures are said to a tenth of a point, and two that round alike are still said to be that far apart, never 0."""


LEAST_SHOWN = 0.1
"""The least chance to win the game a sentence shows, in percent, and 100 less it the most: before the game is over
no chance is said to be 0 % or 100 %, though the table of game chances rounds a game all but decided to it."""


def game_percent(chance: float) -> float:
    """A chance to win the game as the sentences say it, in percent with one decimal (moves seldom differ by more
    than a few points of it, which whole percents would hide), never 0 or 100 (:data:`LEAST_SHOWN`)."""
    return min(100 - LEAST_SHOWN, max(LEAST_SHOWN, round(100 * chance, 1)))


def round_percent(chance: float) -> int:
    """A chance to win the round as the sentences say it, in whole percent, never 0 or 100: an estimate from
    play-outs (a move that goes out at once says so instead of a figure)."""
    return min(99, max(1, round(100 * chance)))


def _game_values(move: MoveValue, observation: Observation) -> dict[str, Any]:
    if move.round_chance is None:  # pragma: no cover - the game's measure always races the round too
        raise ValueError("A move measured by the game's chance carries its chance to win the round.")
    chance = 100.0 if wins_the_game(observation, move.action) else game_percent(move.value)
    return {"chance": chance, "playouts": move.playouts, "round": _move_round_percent(move)}


def wins_the_game(observation: Observation, action: AnyAction) -> bool:
    """Whether ``action`` ends the game won, whatever the cards not seen: calling Rack-O where its 75 points take the
    seat to the target past anything the other player can have (the only chance said to be 100 % before the game is
    over, as it ends it)."""
    public = observation.public
    if not isinstance(action, CallRacko) or public.rules.players != 2:
        return False
    own, other = public.totals[observation.seat], public.totals[1 - observation.seat]
    most_other = other + POINTS_PER_CARD * RACK_SIZE
    return own + RACKO_SCORE >= public.rules.target and own + RACKO_SCORE > most_other


def _move_round_percent(move: MoveValue) -> int:
    """A move's chance to win the round as said: 100 only for calling Rack-O (the round won at once)."""
    assert move.round_chance is not None
    return 100 if isinstance(move.action, CallRacko) else round_percent(move.round_chance)


def stake_sentence(stake: float) -> Sentence:
    """What the round is worth in the game (``stake``, :func:`stake_of`), the yardstick of a move's loss by the game's
    measure; where the game is all but decided, the least the review weighs a loss against, said as such."""
    if stake <= LEAST_STAKE:
        return Sentence("why:stake-least-game", {"stake": round(100 * LEAST_STAKE)})
    return Sentence("why:stake-game", {"stake": round(100 * stake)})


def _gap(evaluation: Evaluation, better: MoveValue, worse: MoveValue) -> float:
    """How far apart two moves are, as the difference of the figures the sentences show (so that "91%" and "82%"
    are said to be 9 points apart, not the 8 of the unrounded figures; a game's chances to a tenth of a point)."""
    if evaluation.measure == "game_chance":
        return round(game_percent(better.value) - game_percent(worse.value), 1)
    if evaluation.measure == "win_chance":
        return round_percent(better.value) - round_percent(worse.value)
    return round(abs(round(worse.value, 1) - round(better.value, 1)), 1)


def _worth_sentences(observation: Observation, evaluation: Evaluation, move: MoveValue) -> list[Sentence]:
    """Another move's worth as the review measures it (on the play-outs it had), and how far it is behind the best
    move (:func:`behind`); where the game's measure cannot tell it from the best, how the round tells them apart."""
    measure = evaluation.measure
    if measure == "win_chance" and not evaluation.playouts:
        return []
    loss = evaluation.loss(move.action)
    if measure == "game_chance":
        worth = Sentence("why:chance-game", _game_values(move, observation))
        if move.decided_by == "round":
            best = evaluation.best
            assert best.round_chance is not None and move.round_chance is not None
            shown = _move_round_percent(move)
            points = _move_round_percent(best) - shown
            return [worth, Sentence("why:behind-round", {"round": shown, "points": points})]
        if move.decided_by == "points":
            return [worth, Sentence("why:behind-points", {})]
        gap = _gap(evaluation, evaluation.best, move)
        return [worth, *behind(measure, loss, gap, stake_of(observation))]
    if measure == "win_chance":
        worth = Sentence("why:chance", {"chance": round_percent(move.value), "playouts": move.playouts})
    else:
        worth = Sentence("why:turns", {"turns": round(move.value, 1)})
    return [worth, *behind(measure, loss, _gap(evaluation, evaluation.best, move))]


def behind(measure: Measure, loss: float, gap: float, stake: float = 1.0) -> list[Sentence]:
    """How far a move is behind the best, ``loss`` in the measure's units and ``gap`` as the figures shown say it
    (points of a chance, or turns).  With the round's measure or turns, a loss within the review's bound of a good
    move is within the noise of the estimate (the bound is three spreads, docs/REVIEW.md) and is said to be; with the
    game's, the loss is weighed against ``stake``, what the round is worth in the game, as the review weighs it, and
    that worth is said too."""
    if measure == "game_chance":
        share = loss / stake
        if share <= GAME_CHANCE_CLASSES.good:
            said = Sentence("why:close-game", {"points": gap, "bound": round(100 * GAME_CHANCE_CLASSES.good)})
        else:
            said = Sentence("why:behind-game", {"points": max(gap, LEAST_GAP), "share": round(100 * share, 1)})
        return [said, stake_sentence(stake)]
    if loss <= class_bounds(measure).good:
        return [Sentence("why:close", {})]
    if measure == "win_chance":
        return [Sentence("why:behind", {"points": gap})]
    return [Sentence("why:behind-turns", {"turns": gap})]


def move_sentence(action: AnyAction, card: int | None, slot: int | None = None) -> Sentence:
    """A move in words: ``card`` is the card in hand (placing) or the top discard (picking); ``slot`` where a taken
    card goes."""
    shown = card_json(card) if card is not None else None
    if isinstance(action, Exchange):
        return Sentence("move:exchange", {"card": shown, "slot": SLOT_LABELS[action.slot]})
    if isinstance(action, TakeDiscard):
        if slot is not None:
            return Sentence("move:take-to", {"card": shown, "slot": SLOT_LABELS[slot]})
        return Sentence("move:take", {"card": shown})
    if isinstance(action, Discard):
        return Sentence("move:discard", {"card": shown})
    if isinstance(action, Replace):
        return Sentence("move:replace", {"card": shown, "position": action.position + 1})
    if isinstance(action, SwapCards):
        return Sentence("move:swap", {"first": action.first + 1, "second": action.second + 1})
    return Sentence("move:" + action.kind, {})  # draw, racko, wait, keep


def card_json(card: int) -> int | str:
    """A card as records and the page write it: a number, or "W" and "S" for High-Low's Wild and Swap."""
    return "W" if card == WILD else "S" if card == SWAP else card


# --- The advisor's choices, explained --------------------------------------------------------------------------


HINT_FIRST = 32
"""Play-outs per legal move in a hint's first stage: a hint is one decision, so it affords more than a review."""
HINT_MORE = 288
"""Play-outs more for each of a hint's finalists."""
HINT_SHOWN = 3
"""Choices a hint shows (the table's, the terminal's, ``racko hint``'s default): each measured with every play-out."""


def explained_choices(
    observation: AnyObservation,
    *,
    seen: Iterable[AnyObservation] = (),
    names: Sequence[str] | None = None,
    seed: int = 0,
    count: int = HINT_SHOWN,
) -> tuple[Choice, ...]:
    """The advisor's choices for the seat to act, best first by the review's measure, each with its chance to win the
    game and the round (2 players: :attr:`Choice.game_chance`, :attr:`Choice.win_chance`) and the sentences that say
    why (:attr:`Choice.why`), judged from the seat's own view.  (A compiled kernel older than the game's values ranks
    them by the round's chance, and the sentences say so.)  ``seen`` are
    the seat's earlier observations of the round (see :func:`racko.analysis.evaluate.evaluate`); ``names`` name the
    players in the sentences.

    Only the choices measured with every play-out are given, at least ``count`` of them (or every legal move, where
    there are fewer): a move left at its first, rough figure is never ranked beside them.  The same position gets the
    same answer, kept for a while: a hint asked again (a second press of ``?``, another window of the same seat)
    costs no play-outs."""
    return _explained(observation, tuple(seen), None if names is None else tuple(names), seed, count)


HINTS_KEPT = 256
"""Recent hints kept, by position (:func:`explained_choices`)."""


@functools.lru_cache(maxsize=HINTS_KEPT)
def _explained(
    observation: AnyObservation, seen: tuple[AnyObservation, ...], names: tuple[str, ...] | None, seed: int, count: int
) -> tuple[Choice, ...]:
    legal = observation.legal_actions()
    if isinstance(observation, HighLowObservation) or len(legal) < 2:
        return tuple(choices_for(observation))
    try:
        evaluation = evaluate(
            observation, seen=seen, seed=seed, first=HINT_FIRST, more=HINT_MORE, shown=count, game=True
        )
    except KernelTooOldError:  # a kernel built before the game's values still races for the round (said as such)
        evaluation = evaluate(observation, seen=seen, seed=seed, first=HINT_FIRST, more=HINT_MORE, shown=count)
    rated = {choice.action: choice for choice in advice(observation, seed=seed)}
    measured = itertools.takewhile(lambda move: move.playouts == evaluation.playouts, evaluation.moves)
    chosen = []
    for move in measured:
        choice = rated[move.action]
        if isinstance(move.action, TakeDiscard) and move.slot is not None:
            choice = dataclasses.replace(choice, values={**choice.values, "slot": SLOT_LABELS[move.slot]})
        sentences = why(observation, move.action, move, evaluation, names)
        chance: float | None = None
        game_chance: float | None = None
        if evaluation.measure == "game_chance":
            chance, game_chance = move.round_chance, move.value
        elif evaluation.measure == "win_chance" and evaluation.playouts:
            chance = move.value
        chosen.append(
            dataclasses.replace(
                choice,
                win_chance=None if chance is None else round(chance, 3),
                game_chance=None if game_chance is None else round(game_chance, 4),
                why=tuple(sentence.to_json() for sentence in sentences),
            )
        )
    return tuple(chosen)


@dataclass(frozen=True)
class HintText:
    """A hint in English: the best move, why, and the next moves."""

    best: str
    why: tuple[str, ...]
    others: tuple[str, ...]

    def lines(self, first: str = "Best") -> list[str]:
        """The hint in lines: ``first`` names the best move (``racko hint`` says Best, the table says Hint)."""
        return [f"{first}: {self.best}", *self.why, *(f"  or: {other}" for other in self.others)]


def hint_text(
    observation: AnyObservation,
    *,
    seen: Iterable[AnyObservation] = (),
    names: Sequence[str] | None = None,
    count: int = 3,
    choices: Sequence[Choice] | None = None,
) -> HintText:
    """The explained hint in English, judged from the seat's own view: the best choice and why, then the next
    ``count - 1`` choices, each with its chance to win the game (or the round) where the review measures one
    (``choices``: those of :func:`explained_choices` when they are at hand)."""
    if choices is None:
        choices = explained_choices(observation, seen=seen, names=names, count=count)
    choices = choices[:count]
    best, *others = choices
    if not best.why:  # High-Low, or a forced move: the advisor's own sentence
        return HintText(best.explanation, (), tuple(choice.explanation for choice in others))
    return HintText(
        _move_text(observation, best),
        tuple(sentence["text"] for sentence in best.why),
        tuple(_move_text(observation, choice, with_chance=True) for choice in others),
    )


def choice_move(observation: AnyObservation, choice: Choice) -> Sentence:
    """An advisor's choice as a move in words, as ``racko hint`` says it (the card in hand, or the top discard and the
    slot it goes to)."""
    public = observation.public
    card = (
        observation.held if observation.held is not None else public.discard_pile[-1] if public.discard_pile else None
    )
    slot = SLOT_LABELS.index(choice.values["slot"]) if isinstance(choice.action, TakeDiscard) else None
    return move_sentence(choice.action, card, slot)


def _move_text(observation: AnyObservation, choice: Choice, with_chance: bool = False) -> str:
    text = choice_move(observation, choice).text()
    text = text[:1].upper() + text[1:] + "."
    by_round = any(sentence["key"] in ("why:behind-round", "why:behind-points") for sentence in choice.why)
    if with_chance and choice.game_chance is not None and by_round and choice.win_chance is not None:
        chances = {"chance": game_percent(choice.game_chance), "round": round_percent(choice.win_chance)}
        text += " " + say("why:chance-short-round", chances)
    elif with_chance and choice.game_chance is not None:
        text += " " + say("why:chance-short-game", {"chance": game_percent(choice.game_chance)})
    elif with_chance and choice.win_chance is not None:
        text += " " + say("why:chance-short", {"chance": round_percent(choice.win_chance)})
    return text
