"""Hints that say why, in words a player understands: which cards are in order and stay so, what a move leaves
room for, what it hands the next player, and its chance to win as the review measures it.

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
from racko.analysis.evaluate import Evaluation, MoveValue, evaluate, placed
from racko.analysis.review import class_bounds
from racko.analysis.words import say
from racko.bots.gaps import cards_that_may_come
from racko.families import AnyAction, AnyObservation
from racko.highlow import SWAP, WILD, HighLowObservation, Replace, SwapCards
from racko.observation import Observation
from racko.play.hint import Choice, advice, choices_for
from racko.rules import POINTS_PER_CARD, RACK_SIZE, SLOT_LABELS
from racko.scoring import longest_run, ordered_prefix

LISTS = ("cards",)
"""Values that are lists of cards, said as "4, 14, 24"."""
MOST_ROOM_SENTENCES = 2
"""Open stretches of the rack named after a move, the largest first."""


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


def why(
    observation: Observation,
    action: AnyAction,
    move: MoveValue | None = None,
    evaluation: Evaluation | None = None,
    names: Sequence[str] | None = None,
) -> list[Sentence]:
    """The sentences that explain ``action`` from this seat's view (classic family)."""
    rack = observation.rack
    may_come = cards_that_may_come(observation)
    sentences: list[Sentence] = []
    if isinstance(action, CallRacko):
        sentences.append(Sentence("why:call", {}))
    elif isinstance(action, Wait):
        sentences.append(Sentence("why:wait", {"run": longest_run(rack)}))
    else:
        sentences += _placement_sentences(observation, action, move, may_come, names)
    if evaluation is not None and move is not None:
        sentences += _worth_sentences(evaluation, move)
    return sentences


def _placement_sentences(
    observation: Observation,
    action: AnyAction,
    move: MoveValue | None,
    may_come: list[int],
    names: Sequence[str] | None,
) -> list[Sentence]:
    public = observation.public
    rules = public.rules
    size = rules.deck_size
    rack = observation.rack
    before_chain = order_chain(rack, may_come, size)
    sentences: list[Sentence] = []
    card: int | None = None
    slot: int | None = None
    handed: int | None = None
    if isinstance(action, Exchange):
        card, slot = observation.held, action.slot
    elif isinstance(action, TakeDiscard):
        card = public.discard_top
        slot = move.slot if move is not None else None
    elif isinstance(action, Discard):
        handed = observation.held
    if card is not None and slot is not None:
        handed = rack[slot]
        after = placed(rack, slot, card)
        after_chain = order_chain(after, may_come, size)
        if slot not in after_chain:
            # As many cards in order with the new card among them: the move keeps that order.
            with_card = order_chain(after, may_come, size, keep=slot)
            if slot in with_card and len(with_card) >= len(after_chain):
                after_chain = with_card
        sentences += _fits(after, after_chain, slot, card, size, may_come)
        if slot in before_chain and slot not in after_chain:
            sentences.append(Sentence("why:gives-up-kept", {"out": handed, "slot": SLOT_LABELS[slot]}))
        sentences += _order(after, after_chain, slot, size)
        sentences += _start(rack, after)
        sentences += _run(rules.two_player_rule, rack, after, size)
        sentences += _room(after, after_chain, slot, size, may_come)
    elif isinstance(action, DrawFromStock):
        sentences += _draw(rack, before_chain, public.discard_top, size, may_come)
        sentences += _order(rack, before_chain, None, size)
    elif isinstance(action, Discard):
        held = observation.held
        assert held is not None
        fitting = [s for s in stretches(rack, before_chain, size) if s.low < held < s.high]
        if fitting:
            sentences.append(Sentence("why:discard-fits" + _one(fitting[0]), {"held": held, **_labels(fitting[0])}))
        else:
            sentences.append(Sentence("why:discard-nowhere", {"held": held}))
        sentences += _order(rack, before_chain, None, size)
    if handed is not None:
        sentences += _gives(observation, handed, names)
    return sentences


def _one(stretch: Stretch) -> str:
    """The key suffix of a sentence about one open slot ("slot 50", not "slots 50–50")."""
    return "-one" if stretch.size == 1 else ""


def _labels(stretch: Stretch) -> dict[str, Any]:
    return {"from": SLOT_LABELS[stretch.first], "to": SLOT_LABELS[stretch.last]}


def _fits(
    after: tuple[int, ...], chain: list[int], slot: int, card: int, size: int, may_come: list[int]
) -> list[Sentence]:
    """Where the card goes: the open stretch it fills, as it was before it came."""
    if slot not in chain:
        return [Sentence("why:out-of-order", {"card": card, "slot": SLOT_LABELS[slot]})]
    rest = [kept for kept in chain if kept != slot]
    for stretch in stretches(after, rest, size):
        if stretch.first <= slot <= stretch.last:
            values = {**stretch.values(size), "card": card}
            return [Sentence("why:fits-" + stretch.shape(size), values)]
    return []  # pragma: no cover - the slot is in the chain, so a stretch holds it


def _order(rack: tuple[int, ...], chain: list[int], placed_slot: int | None, size: int) -> list[Sentence]:
    kept = [rack[slot] for slot in chain if slot != placed_slot]
    if len(kept) < 2:
        return []
    return [Sentence("why:in-order", {"cards": kept, "count": len(kept)})]


def _start(before: tuple[int, ...], after: tuple[int, ...]) -> list[Sentence]:
    """The start in order from slot 5, what the rack scores if somebody else goes out: grown or broken."""
    was, now = ordered_prefix(before), ordered_prefix(after)
    if now > was and now >= 2:
        return [Sentence("why:start-grows", {"upto": SLOT_LABELS[now - 1], "points": POINTS_PER_CARD * now})]
    if now < was and was >= 2:
        return [Sentence("why:start-breaks", {"upto": SLOT_LABELS[was - 1], "points": POINTS_PER_CARD * now})]
    return []


def _run(needed: bool, before: tuple[int, ...], after: tuple[int, ...], size: int) -> list[Sentence]:
    """Under the 2-player rule: the run of three a Rack-O needs."""
    if not needed:
        return []
    run_after = _run_cards(after, 3)
    if run_after and not _run_cards(before, 3):
        return [Sentence("why:run-made", {"cards": run_after})]
    if run_after:
        return []
    pairs_before, pairs_after = _pairs(before), _pairs(after)
    lost = [pair for pair in pairs_before if pair not in pairs_after]
    if lost and not pairs_after:
        low, high = lost[0]
        return [Sentence("why:run-lost", {"low": low, "high": high})]
    if pairs_after:
        low, high = pairs_after[0]
        wanted = [card for card in (low - 1, high + 1) if 1 <= card <= size]
        if len(wanted) == 2:
            return [Sentence("why:run-near", {"low": low, "high": high, "below": wanted[0], "above": wanted[1]})]
        return [Sentence("why:run-near-one", {"low": low, "high": high, "wanted": wanted[0]})]
    return [Sentence("why:run-none", {})]


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


def _room(after: tuple[int, ...], chain: list[int], slot: int | None, size: int, may_come: list[int]) -> list[Sentence]:
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


def _draw(rack: tuple[int, ...], chain: list[int], top: int | None, size: int, may_come: list[int]) -> list[Sentence]:
    open_stretches = stretches(rack, chain, size)
    fitting = sum(1 for card in may_come if any(s.low < card < s.high for s in open_stretches))
    values = {"fit": fitting, "may": len(may_come)}
    if top is not None:
        where = [s for s in open_stretches if s.low < top < s.high]
        if where:
            return [Sentence("why:draw-over-take" + _one(where[0]), {"top": top, **_labels(where[0]), **values})]
        return [Sentence("why:draw", {"top": top, **values})]
    return [Sentence("why:draw-empty", values)]


def _gives(observation: Observation, card: int, names: Sequence[str] | None) -> list[Sentence]:
    """What the card handed on may do for the next player: a card it took from the pile near this one suggests it
    collects cards there."""
    public = observation.public
    rules = public.rules
    following = (observation.seat + 1) % rules.players
    if following == observation.seat or rules.side_of(following) == rules.side_of(observation.seat):
        return []
    near = max(2, rules.deck_size // 10)
    taken = [known for known in public.known[following] if known is not None and abs(known - card) <= near]
    if not taken:
        return []
    closest = min(taken, key=lambda known: abs(known - card))
    name = names[following] if names is not None else None
    values: dict[str, Any] = {"out": card, "taken": closest, "player": following}
    if name is not None:
        values["name"] = name
        return [Sentence("why:gives-wanted", values)]
    return [Sentence("why:gives-wanted-next", values)]


def _worth_sentences(evaluation: Evaluation, move: MoveValue) -> list[Sentence]:
    """The move's worth as the review measures it, and how far it is behind the best move: a difference within the
    noise of the estimate (the review's bound of a good move) is said to be one."""
    chances = evaluation.measure == "win_chance"
    if chances and not evaluation.playouts:
        return []  # calling or playing on in Bonus: expert's plan, not an estimate to quote (see evaluate.py)
    sentences = []
    if chances:
        sentences.append(Sentence("why:chance", {"chance": round(100 * move.value), "playouts": evaluation.playouts}))
    else:
        sentences.append(Sentence("why:turns", {"turns": round(move.value, 1)}))
    if move.action == evaluation.best.action:
        return sentences
    loss = evaluation.loss(move.action)
    if loss <= class_bounds(evaluation.measure).good:
        sentences.append(Sentence("why:close", {}))
    elif chances:
        sentences.append(Sentence("why:behind", {"points": round(100 * loss)}))
    else:
        sentences.append(Sentence("why:behind-turns", {"turns": round(loss, 1)}))
    return sentences


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


def explained_choices(
    observation: AnyObservation,
    *,
    seen: Iterable[AnyObservation] = (),
    names: Sequence[str] | None = None,
    seed: int = 0,
) -> tuple[Choice, ...]:
    """The advisor's choices for the seat to act, best first by the review's measure, each with its chance to win
    (2 players) and the sentences that say why (:attr:`Choice.why`), judged from the seat's own view.  ``seen`` are
    the seat's earlier observations of the round (see :func:`racko.analysis.evaluate.evaluate`); ``names`` name the
    players in the sentences.  The same position gets the same answer, kept for a while: a hint asked again (a
    second press of ``?``, another window of the same seat) costs no play-outs."""
    return _explained(observation, tuple(seen), None if names is None else tuple(names), seed)


HINTS_KEPT = 256
"""Recent hints kept, by position (:func:`explained_choices`)."""


@functools.lru_cache(maxsize=HINTS_KEPT)
def _explained(
    observation: AnyObservation, seen: tuple[AnyObservation, ...], names: tuple[str, ...] | None, seed: int
) -> tuple[Choice, ...]:
    legal = observation.legal_actions()
    if isinstance(observation, HighLowObservation) or len(legal) < 2:
        return tuple(choices_for(observation))
    evaluation = evaluate(observation, seen=seen, seed=seed, first=HINT_FIRST, more=HINT_MORE)
    rated = {choice.action: choice for choice in advice(observation, seed=seed)}
    chosen = []
    for move in evaluation.moves:
        choice = rated[move.action]
        if isinstance(move.action, TakeDiscard) and move.slot is not None:
            choice = dataclasses.replace(choice, values={**choice.values, "slot": SLOT_LABELS[move.slot]})
        sentences = why(observation, move.action, move, evaluation, names)
        chance = move.value if evaluation.measure == "win_chance" and evaluation.playouts else None
        chosen.append(
            dataclasses.replace(
                choice,
                win_chance=None if chance is None else round(chance, 3),
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
    ``count - 1`` choices, each with its chance to win where the review measures one (``choices``: those of
    :func:`explained_choices` when they are at hand)."""
    if choices is None:
        choices = explained_choices(observation, seen=seen, names=names)
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
    if with_chance and choice.win_chance is not None:
        text += " " + say("why:chance-short", {"chance": round(100 * choice.win_chance)})
    return text
