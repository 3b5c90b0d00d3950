"""Puzzles: positions from the computer players' games where one move is clearly best by the review's measure.

A puzzle is one seat's decision as that seat saw it (its rack, the card in hand or the discard's top, the cards it
has seen in the others' racks: :func:`view_of`), its legal moves, the answer (the move :func:`racko.analysis.
evaluate.evaluate` ranks first), the sentences that say why (:func:`racko.analysis.explain.why`) and the margin:
how far the second-best move is behind.  Two-player moves are judged as the review judges them: by the chance to win
the game, a loss read as a share of the round's stake (:func:`racko.analysis.game_chance.round_stake`).  A position
is a puzzle only where every other move is behind by more than the review's bound of an ``inaccuracy``
(:func:`margin_for`: 0.05 of the round's stake, or a turn in High-Low), so that every wrong answer would be classed
a mistake or a blunder, and only where a second, independent and deeper judgement (:func:`confirm`: another seed,
:data:`CONFIRM_DEPTH` times the play-outs, the answer raced side by side against its rivals on fresh deals)
confirms that margin with :data:`~racko.analysis.review.CONFIDENCE`; the margin said is that confirmation's lower
bound.  A puzzle whose answer goes out at once (the rack it leaves qualifies, or calling Rack-O), or puts a card in
the one open stretch it fits, is a first-steps puzzle, marked so (:attr:`Puzzle.first_steps`), and only
:data:`FIRST_STEPS_SHARE` of a generation may be: the rest need a real choice.

:func:`generate` plays seeded games between computer players (:data:`TABLES`) and keeps a mix of decisions
(:data:`SHARES`), first those where a computer player of :data:`ASKED` would go wrong.  The games' records travel
with the puzzles, so that :func:`verify` can replay each position and judge it again with its seed, whatever the
computer players become; they are never shown to the solver (they hold every hidden card).  :func:`load` refuses
a damaged or hand-edited file with the reason.  :func:`answer` says whether a move is right, why the best move is
best, and what the chosen one costs.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racko import bots
from racko.actions import CallRacko, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.analysis.evaluate import FIRST_PLAYOUTS, MORE_PLAYOUTS, Evaluation, Judge, action_json, seat_history
from racko.analysis.explain import Sentence, card_json, game_percent, move_sentence, order_chain, stretches, why
from racko.analysis.game_chance import round_stake
from racko.analysis.review import CLASSES, CONFIDENCE, Z, class_bounds
from racko.analysis.words import say
from racko.bots.gaps import cards_that_may_come
from racko.errors import RackoError
from racko.families import AnyObservation, family_of
from racko.highlow import HighLowObservation
from racko.match import Match
from racko.observation import Observation
from racko.play.loop import situation_of
from racko.record import GameRecord, replay
from racko.rules import RACK_SIZE, variant
from racko.scoring import qualifies_for_racko

FORMAT = "racko-puzzles"
VERSION = 2
SHIPPED = Path(__file__).parent / "data" / "puzzles.json"
"""The puzzles that come with racko (``racko puzzles generate``: the command that made them is in docs/PUZZLES.md)."""
MEASURES = ("game_chance", "turns")
"""Two players: the chance to win the game (the review's measure); High-Low: turns to go out."""

KINDS = ("pick", "place", "place-taken", "call", "row-place", "row-swap")
"""Kinds of decision: draw or take; where a drawn card goes (or discard it); where a taken card goes; call Rack-O
or wait (Bonus); High-Low's place in the row; High-Low's swap or keep."""
SHARES = {"pick": 0.25, "place": 0.30, "place-taken": 0.22, "call": 0.05, "row-place": 0.12, "row-swap": 0.06}
"""The mix a generation aims for (a kind short of positions leaves its place to the others)."""


@dataclass(frozen=True)
class Table:
    """A kind of game the puzzles come from."""

    variant: str
    players: int
    levels: tuple[str, ...]


TABLES = (
    Table("classic", 2, ("hard", "hard")),
    Table("classic", 2, ("medium", "hard")),
    Table("bonus", 2, ("hard", "medium")),
    Table("highlow", 3, ("hard", "medium", "hard")),
)
"""Games cycle through these tables; a weaker player's games reach positions (racks further from order) that
strong players' games seldom do."""
ROUNDS_PER_GAME = 2
"""Rounds played (and searched) in each game."""
MIN_GAMES = 8
"""Games played at least; at most a game for five puzzles asked (about 13 positions a game have a clear best move,
so that a kind short of positions, calling under Bonus above all, cannot make a generation endless)."""
ASKED = ("expert", "hard", "medium")
"""Computer levels asked, strongest first, what they would play at each position with a clear best move: where one
of them plays another move, a reasonable player may go wrong too, and the position comes first."""
CONFIRM_SEED = 0x5EED
"""The second judgement's seed is the first's mixed with this."""
CONFIRM_DEPTH = 3
"""The second judgement plays this many times the review's play-outs (96 a move, 480 more for the best few)."""
CONFIRM_RACES = (256, 768)
"""Fresh deals on which the answer and each rival are raced side by side, and more where the first are not enough
to tell the margin from the bound."""
CONFIRM_REPEATS = 4
"""Calling or waiting (raced as whole judgements, not move by move): the deeper judgement is made this many times
with independent seeds, and the margin's spread is read from them."""
T_REPEATS = 2.353
"""Student's t quantile of :data:`~racko.analysis.review.CONFIDENCE` (one side) with ``CONFIRM_REPEATS - 1`` degrees of
freedom."""
RIVALS = 3
"""Rivals raced against the answer: the moves the deeper judgement ranks next (the first always)."""
CANDIDATE_MARGIN = 2.0
"""A position is judged again only where the first judgement puts the second-best move behind by this many times
the bound: the first judgement's lead is measured on the deals that chose the best move, which flatters it, and a
lead just past the bound is seldom confirmed (16 of the first 75 tried, with candidates from just past the bound).
High-Low's rating has no play-outs to flatter it: its candidates need the bound alone."""
FIRST_STEPS_SHARE = 0.10
"""At most this share of a generation's puzzles may be first steps (:func:`first_steps`: the answer goes out at once,
or puts a card in the one open stretch it fits); the rest need a real choice."""


class PuzzleError(RackoError):
    """A puzzle file that cannot be used, with the reason."""


def margin_for(measure: str) -> float:
    """How far the second-best move must be behind: the review's largest ``inaccuracy``, so that every other move
    is a mistake or a blunder (0.05 of the round's stake in the chance to win the game, a turn in High-Low)."""
    return class_bounds("game_chance" if measure == "game_chance" else "turns").inaccuracy


def stake_of(observation: AnyObservation) -> float:
    """What the round is worth in the game to this seat (two players; 1 elsewhere): a loss in the chance to win the
    game divided by it is the review's measure of a move."""
    if isinstance(observation, Observation) and observation.rules.players == 2:
        public = observation.public
        seat = observation.seat
        return round_stake(public.totals[seat], public.totals[1 - seat], 2, public.rules.target)
    return 1.0


def judge(
    observation: AnyObservation, history: Sequence[AnyObservation], seed: int, depth: int = 1
) -> tuple[Judge, Evaluation]:
    """The review's judgement of a decision (two players: by the chance to win the game), with ``depth`` times its
    play-outs; the judge is returned too, to race the moves again (:meth:`Judge.compare`)."""
    made = Judge(observation.seat, seed, first=FIRST_PLAYOUTS * depth, more=MORE_PLAYOUTS * depth, game=True)
    for earlier in history:
        made.see(earlier)
    return made, made.evaluate(observation)


def goes_out_at_once(observation: AnyObservation, action: Any, slot: int | None) -> bool:
    """Whether ``action`` goes out at once: calling Rack-O, or a card placed so that the rack qualifies (the round is
    won, or under Bonus may be called, at once)."""
    if not isinstance(observation, Observation):
        return False
    if isinstance(action, CallRacko):
        return True
    card: int | None = None
    if isinstance(action, Exchange):
        card, slot = observation.held, action.slot
    elif isinstance(action, TakeDiscard):
        card = observation.public.discard_top
    if card is None or slot is None:
        return False
    after = (*observation.rack[:slot], card, *observation.rack[slot + 1 :])
    return qualifies_for_racko(after, observation.rules)


def one_fit(observation: AnyObservation, action: Any, slot: int | None) -> bool:
    """Whether ``action`` places a card (or takes the top discard) that fits one open stretch only, and puts it there:
    the order kept (with the card counted among those that may come, :func:`racko.analysis.explain.order_chain`)
    leaves one stretch whose neighbours the card lies between, and the answer's slot is in it (a take's slot is the
    next decision's).  Finding it asks only where the card stands in order: puzzle 189 of the set before issue 48,
    38 into slot 50, was one such."""
    if not isinstance(observation, Observation):
        return False
    card: int | None = None
    if isinstance(action, Exchange):
        card, slot = observation.held, action.slot
    elif isinstance(action, TakeDiscard):
        card, slot = observation.public.discard_top, None
    if card is None:
        return False
    size = observation.rules.deck_size
    kept = order_chain(observation.rack, [*cards_that_may_come(observation), card], size)
    fitting = [stretch for stretch in stretches(observation.rack, kept, size) if stretch.low < card < stretch.high]
    return len(fitting) == 1 and (slot is None or fitting[0].first <= slot <= fitting[0].last)


def first_steps(observation: AnyObservation, action: Any, slot: int | None) -> bool:
    """A puzzle for first steps: its answer goes out at once (:func:`goes_out_at_once`) or is the card's one fit
    (:func:`one_fit`)."""
    return goes_out_at_once(observation, action, slot) or one_fit(observation, action, slot)


def view_of(observation: AnyObservation) -> dict[str, Any]:
    """What the seat sees, and nothing else: its rack (or row), the card in hand, the discard's top, the cards it
    has seen in the other racks (every row in High-Low, where rows lie face up), the stock's size."""
    situation = situation_of(observation)
    seat = observation.seat
    if isinstance(observation, HighLowObservation):
        public = observation.public
        return {
            "seat": seat,
            "situation": situation.kind,
            "rack": [card_json(card) for card in observation.rack],
            "card": card_json(situation.card) if situation.card is not None else None,
            "discard": card_json(public.discard_pile[-1]) if public.discard_pile else None,
            "stock": public.stock_size,
            "others": [
                {"seat": other, "rack": [card_json(card) for card in row]}
                for other, row in enumerate(public.rows)
                if other != seat
            ],
        }
    table = observation.public
    return {
        "seat": seat,
        "situation": situation.kind,
        "rack": list(observation.rack),
        "card": situation.card,
        "discard": table.discard_top,
        "stock": table.stock_size,
        "others": [{"seat": other, "rack": list(known)} for other, known in enumerate(table.known) if other != seat],
    }


def kind_of(observation: AnyObservation) -> str:
    """Which of :data:`KINDS` a decision is."""
    situation = situation_of(observation).kind
    return {
        "pick": "pick",
        "pick-or-call": "call",
        "declare": "call",
        "place-drawn": "place",
        "place-taken": "place-taken",
        "place-in-row": "row-place",
        "swap": "row-swap",
    }[situation]


@dataclass(frozen=True)
class Move:
    """A legal move of a puzzle and its worth by the review's measure."""

    action: dict[str, Any]
    """As records write it."""
    value: float
    loss: float
    grade: str


@dataclass(frozen=True)
class Puzzle:
    id: str
    kind: str
    variant: str
    players: int
    two_player_rule: bool
    view: dict[str, Any]
    moves: tuple[Move, ...]
    """Every legal move, in the order the game lists them (not best first)."""
    answer: dict[str, Any]
    answer_slot: int | None
    """Where the answer puts the top discard when it takes it (a slot index), as the judgement found best."""
    why: tuple[Sentence, ...]
    measure: str
    playouts: int
    margin: float
    """How far the second-best move is behind the answer by the first judgement, in the measure's units divided by
    :attr:`stake` (the review's loss)."""
    stake: float
    """What the round is worth in the game (:func:`stake_of`; 1 in High-Low)."""
    confirmed: float
    """The margin as the second, deeper judgement measured it (:func:`confirm`), divided by :attr:`stake`."""
    confirmed_low: float
    """Its lower bound at :data:`~racko.analysis.review.CONFIDENCE`: above :func:`margin_for`."""
    confirm_playouts: int
    """Play-outs behind the second judgement's margin (0: High-Low's rating, which has none)."""
    first_steps: bool
    """A puzzle for first steps (:func:`first_steps`): its answer goes out at once, or is the card's one fit."""
    missed_by: str | None
    """The strongest computer level of :data:`ASKED` that would play another move here, if one would."""
    game: int
    """The index of the source game in the puzzle file's games."""
    action: int
    """Actions of that game played before the position."""
    seed: int
    """The judgement's seed."""

    def public_json(self) -> dict[str, Any]:
        """What the solver may see before answering: the position and the moves, never the answer, the moves'
        worth, the explanation or the source game (which holds every hidden card)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "variant": self.variant,
            "players": self.players,
            "two_player_rule": self.two_player_rule,
            "first_steps": self.first_steps,
            "view": self.view,
            "moves": [move.action for move in self.moves],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.public_json(),
            "answer": self.answer,
            "answer_slot": self.answer_slot,
            "values": [round(move.value, 4) for move in self.moves],
            "why": [{"key": sentence.key, "values": sentence.values} for sentence in self.why],
            "measure": self.measure,
            "playouts": self.playouts,
            "margin": round(self.margin, 4),
            "stake": round(self.stake, 4),
            "confirmed": round(self.confirmed, 4),
            "confirmed_low": round(self.confirmed_low, 4),
            "confirm_playouts": self.confirm_playouts,
            "missed_by": self.missed_by,
            "game": self.game,
            "action": self.action,
            "seed": self.seed,
        }

    def move_index(self, action: dict[str, Any]) -> int:
        """Which of the moves ``action`` is; :class:`RackoError` if none."""
        for index, move in enumerate(self.moves):
            if move.action == action:
                return index
        raise RackoError(say("puzzle:not-a-move"))

    @property
    def best(self) -> Move:
        return self.moves[self.move_index(self.answer)]

    def move_words(self, action: dict[str, Any], lang: str = "en") -> str:
        """A move of this puzzle in words ("put 23 in slot 35")."""
        family = family_of(variant(self.variant).rules(self.players))
        shown = self.view["card"] if self.view["card"] is not None else self.view["discard"]
        card = family.card_from_json(shown) if shown is not None else None
        slot = self.answer_slot if action == self.answer else None
        return move_sentence(family.action_from_json(action), card, slot).text(lang)


@dataclass(frozen=True)
class Verdict:
    """An answer judged: right or wrong, and the sentences that say why (in the language it was judged in)."""

    right: bool
    answer: dict[str, Any]
    loss: float
    grade: str
    sentences: tuple[Sentence, ...]
    lang: str = "en"

    def texts(self) -> list[str]:
        return [sentence.text(self.lang) for sentence in self.sentences]

    def to_json(self) -> dict[str, Any]:
        return {
            "right": self.right,
            "answer": self.answer,
            "loss": round(self.loss, 4),
            "class": self.grade,
            "why": [sentence.to_json(self.lang) for sentence in self.sentences],
        }


def answer(puzzle: Puzzle, action: dict[str, Any], lang: str = "en") -> Verdict:
    """Judge ``action`` (a move as records write it): right or wrong, why the best move is best, and what the
    chosen one costs by the review's measure.  A move that is not one of the puzzle's raises :class:`RackoError`."""
    chosen = puzzle.moves[puzzle.move_index(action)]
    best = puzzle.best
    best_words = puzzle.move_words(best.action, lang)
    if chosen.action == best.action:
        head = [Sentence("puzzle:right", {"move": best_words}), *_confirmed_sentence(puzzle)]
        return Verdict(True, best.action, 0.0, "best", (*head, *puzzle.why), lang)
    values = {"move": puzzle.move_words(chosen.action, lang), "best": best_words}
    head = [Sentence("puzzle:wrong", values)]
    if puzzle.measure == "game_chance":
        key = "puzzle:cost-game"
        if chosen.action.get("act") == "wait":
            key = "puzzle:cost-wait"
        elif chosen.action.get("act") == "racko":
            key = "puzzle:cost-call"
        cost = Sentence(
            key,
            {
                **values,
                "chosen": game_percent(chosen.value),
                "chance": game_percent(best.value),
                "points": round(game_percent(best.value) - game_percent(chosen.value), 1),
                "share": round(100 * chosen.loss),
            },
        )
    else:
        cost = Sentence(
            "puzzle:cost-turns",
            {**values, "chosen": round(chosen.value, 1), "turns": round(best.value, 1), "more": round(chosen.loss, 1)},
        )
    head += [cost, *_confirmed_sentence(puzzle)]
    if puzzle.missed_by is not None:  # a computer player went wrong here too
        head.append(Sentence("puzzle:missed", {"level": puzzle.missed_by}))
    return Verdict(False, best.action, chosen.loss, chosen.grade, (*head, *puzzle.why), lang)


def _confirmed_sentence(puzzle: Puzzle) -> list[Sentence]:
    """How sure the margin is: the second, deeper judgement's figures (none for High-Low's rating)."""
    if not puzzle.confirm_playouts:
        return []
    # the margin said is the confirmed lower bound: the mean lead of the puzzles kept is flattered by their choosing
    return [
        Sentence("puzzle:confirmed", {"playouts": puzzle.confirm_playouts, "low": round(100 * puzzle.confirmed_low)})
    ]


# --- Making puzzles ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PuzzleSet:
    """Puzzles and the records of the games they come from."""

    puzzles: tuple[Puzzle, ...]
    games: tuple[GameRecord, ...]
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": self.seed,
            "margins": {measure: margin_for(measure) for measure in MEASURES},
            "confidence": CONFIDENCE,
            "puzzles": [puzzle.to_json() for puzzle in self.puzzles],
            "games": [game.to_json() for game in self.games],
        }

    def dumps(self) -> str:
        # One puzzle a line: a file that reads (and diffs) line by line.
        data = self.to_json()
        lines = [json.dumps(puzzle, separators=(",", ":")) for puzzle in data.pop("puzzles")]
        games = [json.dumps(game, separators=(",", ":")) for game in data.pop("games")]
        head = json.dumps(data)[:-1]
        return head + ',\n"puzzles": [\n' + ",\n".join(lines) + '\n],\n"games": [\n' + ",\n".join(games) + "\n]}\n"

    def of_variant(self, name: str | None) -> list[Puzzle]:
        if name is None:
            return list(self.puzzles)
        wanted = variant(name).name
        return [puzzle for puzzle in self.puzzles if puzzle.variant == wanted]

    def by_id(self, puzzle_id: str) -> Puzzle | None:
        return next((puzzle for puzzle in self.puzzles if puzzle.id == puzzle_id), None)


@dataclass
class _Found:
    observation: AnyObservation
    kind: str
    evaluation: Evaluation
    margin: float
    missed_by: str | None
    game: int
    action: int
    seed: int
    first_steps: bool
    confirmation: Confirmation | None = None


@dataclass(frozen=True)
class Confirmation:
    """A second judgement of a position: whether it confirms the answer's margin, and the margin it measured."""

    holds: bool
    margin: float
    """The answer's lead over its nearest rival on fresh deals, divided by the round's stake (:func:`stake_of`)."""
    low: float
    """The lower bound of that lead at :data:`~racko.analysis.review.CONFIDENCE`."""
    playouts: int
    """Play-outs behind it: the deeper judgement's and the side-by-side races' (0: High-Low's rating)."""
    reason: str = ""
    """Why it does not hold (empty when it does)."""


def confirm(observation: AnyObservation, history: Sequence[AnyObservation], answer: Any, seed: int) -> Confirmation:
    """Judge a position again, independently of the first judgement and deeper (``seed``, :data:`CONFIRM_DEPTH`
    times the play-outs): it must rank ``answer`` first, and the answer's lead over every rival, measured side by
    side on fresh deals (:data:`CONFIRM_RACES`), must pass :func:`margin_for` with
    :data:`~racko.analysis.review.CONFIDENCE`.  High-Low's rating has no play-outs: its margin is exact (for the
    model).  Calling or waiting is judged whole (:data:`CONFIRM_REPEATS` deeper judgements, independent seeds)."""
    judged, deep = judge(observation, history, seed, CONFIRM_DEPTH)
    bound = margin_for(deep.measure)
    if deep.best.action != answer:
        return Confirmation(
            False, 0.0, 0.0, deep.playouts, f"the deeper judgement prefers {action_json(deep.best.action)}"
        )
    stake = stake_of(observation)
    if deep.playouts == 0:
        margin = _margin(deep) / stake
        return Confirmation(margin > bound, margin, margin, 0, "" if margin > bound else "too close")
    if not judged.has_lines():
        return _confirm_whole(observation, history, answer, seed, deep)
    rivals = [move for move in deep.moves if move.action != answer][:RIVALS]
    lows: list[float] = []
    means: list[float] = []
    raced = 0
    for number, rival in enumerate(rivals):
        found = judged.side_by_side(
            answer,
            rival.action,
            CONFIRM_RACES,
            f"confirm:{seed}:{number}",
            deep.best.slot,
            clear=lambda lead, error: abs(lead / stake - bound) > 2 * Z * error / stake,  # plainly on one side
        )
        mean, error, total = found.loss, found.error, found.playouts
        raced += total
        means.append(mean / stake)
        lows.append((mean - Z * error) / stake)
    margin, low = min(means), min(lows)
    holds = low > bound
    return Confirmation(
        holds, margin, low, deep.playouts + raced, "" if holds else f"lead {margin:.3f}, at least {low:.3f}"
    )


def _confirm_whole(
    observation: AnyObservation, history: Sequence[AnyObservation], answer: Any, seed: int, deep: Evaluation
) -> Confirmation:
    stake = stake_of(observation)
    bound = margin_for(deep.measure)
    margins = [_margin(deep) / stake]
    for repeat in range(1, CONFIRM_REPEATS):
        again = judge(observation, history, random.Random(f"confirm:{seed}:{repeat}").getrandbits(63), CONFIRM_DEPTH)[1]
        if again.best.action != answer:
            return Confirmation(False, 0.0, 0.0, deep.playouts * (repeat + 1), "a repeat prefers another move")
        margins.append(_margin(again) / stake)
    mean = sum(margins) / len(margins)
    spread = math.sqrt(sum((margin - mean) ** 2 for margin in margins) / (len(margins) - 1))
    low = mean - T_REPEATS * spread / math.sqrt(len(margins))
    holds = low > bound
    return Confirmation(
        holds, mean, low, deep.playouts * CONFIRM_REPEATS, "" if holds else f"lead {mean:.3f}, at least {low:.3f}"
    )


Progress = Callable[[str], None]


def generate(count: int, seed: int = 0, progress: Progress | None = None, games: int | None = None) -> PuzzleSet:
    """``count`` puzzles from games seeded by ``seed`` (the same seed, the same puzzles); ``games`` plays exactly
    that many games instead of as many as the mix needs (fewer puzzles may then come out)."""
    if count < 1:
        raise RackoError("Ask for at least one puzzle.")
    rng = random.Random(f"puzzles:{seed}")
    quotas = _quotas(count)
    found: dict[str, list[_Found]] = {kind: [] for kind in KINDS}
    records: list[GameRecord] = []
    game = 0
    limit = max(MIN_GAMES, count // 5) if games is None else games
    while game < limit and (
        games is not None
        or sum(map(len, found.values())) < 3 * count // 2
        or any(len(found[kind]) < quotas[kind] for kind in KINDS)
    ):
        record = _search_game(game, seed, found)
        records.append(record)
        game += 1
        if progress is not None:
            progress(f"game {game}: {sum(map(len, found.values()))} positions with a clear best move")
    first_steps = int(count * FIRST_STEPS_SHARE)
    confirmed: list[_Found] = []
    tried = 0
    # Each kind up to its quota first, the rest then filled from every kind's spares.  Calling comes first: a call
    # that goes out is first steps by nature, and the first steps' share would otherwise go to plentiful one-fit
    # placements (a generation of 200 had no call-or-wait puzzle at all).
    for kind in sorted(KINDS, key=lambda kind: kind != "call"):
        for candidate in _missed_first(found[kind], rng):
            if sum(1 for item in confirmed if item.kind == kind) == quotas[kind]:
                break
            if _try(candidate, records, confirmed, first_steps):
                tried += 1
                _tell(progress, tried, confirmed, count)
    spare = _missed_first([item for kind in KINDS for item in found[kind] if item.confirmation is None], rng)
    for candidate in spare:
        if len(confirmed) == count:
            break
        if _try(candidate, records, confirmed, first_steps):
            tried += 1
            _tell(progress, tried, confirmed, count)
    rng.shuffle(confirmed)
    used = sorted({found.game for found in confirmed})
    renumber = {old: new for new, old in enumerate(used)}
    puzzles = tuple(
        _puzzle(str(index + 1), found, renumber[found.game], records[found.game])
        for index, found in enumerate(confirmed)
    )
    return PuzzleSet(puzzles, tuple(_trimmed(records[old], confirmed, old) for old in used), seed)


def _try(candidate: _Found, records: Sequence[GameRecord], confirmed: list[_Found], first_steps: int) -> bool:
    """Judge ``candidate`` again (:func:`confirm`) and keep it if its margin holds (and, for a first-steps puzzle,
    while there is room for one); whether it was judged."""
    if candidate.first_steps and sum(1 for item in confirmed if item.first_steps) >= first_steps:
        return False
    observation, history = position(records[candidate.game], candidate.action)
    answer = candidate.evaluation.best.action
    candidate.confirmation = confirm(observation, history, answer, candidate.seed ^ CONFIRM_SEED)
    if candidate.confirmation.holds:
        confirmed.append(candidate)
    return True


def _tell(progress: Progress | None, tried: int, confirmed: Sequence[_Found], count: int) -> None:
    if progress is not None and tried % 25 == 0:
        progress(f"judged again: {tried}, confirmed {len(confirmed)} of {count}")


def _quotas(count: int) -> dict[str, int]:
    quotas = {kind: int(count * SHARES[kind]) for kind in KINDS}
    quotas["place"] += count - sum(quotas.values())
    return quotas


def _missed_first(candidates: list[_Found], rng: random.Random) -> list[_Found]:
    shuffled = list(candidates)
    rng.shuffle(shuffled)
    return sorted(shuffled, key=lambda found: (found.first_steps, found.missed_by is None))


def _game_seed(seed: int, game: int) -> int:
    return random.Random(f"puzzles:{seed}:game:{game}").getrandbits(48)


def seeded_game(game: int, seed: int) -> tuple[Match, list[bots.Bot]]:
    """Game ``game`` of a generation seeded by ``seed``, not yet played: its match and its computer players."""
    table = TABLES[game % len(TABLES)]
    match = Match(variant(table.variant).rules(table.players), seed=_game_seed(seed, game))
    return match, [bots.create(level, seed=match.seed + seat) for seat, level in enumerate(table.levels)]


def _search_game(game: int, seed: int, found: dict[str, list[_Found]]) -> GameRecord:
    """Play one game of :data:`TABLES` and keep its decisions with a clear best move."""
    match, players = seeded_game(game, seed)
    while (
        not match.over
        and len(match.rounds) <= ROUNDS_PER_GAME
        and not (len(match.rounds) == ROUNDS_PER_GAME and match.round.over)
    ):
        seat = match.to_act
        if seat is None:
            break
        observation = match.observation(seat)
        played = players[seat].act(observation)
        if _worth_judging(observation):
            number = len(match.actions)
            judge_seed = random.Random(f"puzzles:{seed}:{game}:{number}").getrandbits(63)
            history = seat_history(match.round, seat)
            evaluation = judge(observation, history, judge_seed)[1]
            margin = _margin(evaluation) / stake_of(observation)
            wanted = margin_for(evaluation.measure) * (CANDIDATE_MARGIN if evaluation.playouts else 1.0)
            if margin > wanted and not _obvious(observation, evaluation):
                best = evaluation.best
                missed = _missed_by(observation, best.action, match.seed + number)
                kind = kind_of(observation)
                out = first_steps(observation, best.action, best.slot)
                found[kind].append(_Found(observation, kind, evaluation, margin, missed, game, number, judge_seed, out))
        match.apply(played)
        if len(match.rounds) > ROUNDS_PER_GAME:
            break
    return GameRecord.of(match, tuple(TABLES[game % len(TABLES)].levels))


def _missed_by(observation: AnyObservation, best: Any, seed: int) -> str | None:
    """The strongest of :data:`ASKED` that would play another move than ``best`` here, if one would."""
    for level in ASKED:
        if bots.create(level, seed=seed).act(observation) != best:
            return level
    return None


def _worth_judging(observation: AnyObservation) -> bool:
    """A real choice: more than one legal move, and not calling a Rack-O where calling is not a choice to weigh
    (without Bonus a qualifying rack simply calls)."""
    legal = observation.legal_actions()
    if len(legal) < 2:
        return False
    if isinstance(observation, Observation) and any(isinstance(action, CallRacko) for action in legal):
        return observation.rules.variant == "bonus"
    return True


def _obvious(observation: AnyObservation, evaluation: Evaluation) -> bool:
    """Nothing to find: the lowest or highest cards of the deck going to their end of the rack."""
    if not isinstance(observation, Observation):
        return False
    best = evaluation.best
    size = observation.rules.deck_size
    card: int | None = None
    slot: int | None = None
    if isinstance(best.action, Exchange):
        card, slot = observation.held, best.action.slot
    elif isinstance(best.action, TakeDiscard):
        card, slot = observation.public.discard_top, best.slot
    if card is None:
        return False
    return (card <= 2 and slot == 0) or (card >= size - 1 and slot == RACK_SIZE - 1)


def _margin(evaluation: Evaluation) -> float:
    """How far the best move leads every other: the least of their losses.  Not the runner-up's alone: a move that
    a staged search set aside early keeps the figure of its few play-outs, which may lie nearer the best."""
    if len(evaluation.moves) < 2:
        return 0.0
    best = evaluation.best.value
    return min(evaluation.difference(best, move.value) for move in evaluation.moves[1:])


def position(record: GameRecord, action: int) -> tuple[AnyObservation, list[AnyObservation]]:
    """The observation of the seat to act after ``action`` actions of ``record``, and its earlier ones this round."""
    match = replay(record, stop_after=action)
    seat = match.to_act
    if seat is None or len(match.actions) != action:
        raise RackoError(f"Nobody is to act after action {action} of this game.")
    return match.observation(seat), seat_history(match.round, seat)


def _puzzle(puzzle_id: str, found: _Found, game: int, record: GameRecord) -> Puzzle:
    observation = found.observation
    evaluation = found.evaluation
    confirmation = found.confirmation
    assert confirmation is not None and confirmation.holds
    return Puzzle(
        id=puzzle_id,
        kind=found.kind,
        variant=record.rules.variant,
        players=record.rules.players,
        two_player_rule=record.rules.two_player_rule,
        view=view_of(observation),
        moves=_moves(observation, evaluation),
        answer=action_json(evaluation.best.action),
        answer_slot=evaluation.best.slot,
        why=tuple(_why(observation, evaluation)),
        measure=evaluation.measure,
        playouts=evaluation.playouts,
        margin=found.margin,
        stake=stake_of(observation),
        confirmed=confirmation.margin,
        confirmed_low=confirmation.low,
        confirm_playouts=confirmation.playouts,
        first_steps=found.first_steps,
        missed_by=found.missed_by,
        game=game,
        action=found.action,
        seed=found.seed,
    )


def _moves(observation: AnyObservation, evaluation: Evaluation) -> tuple[Move, ...]:
    bounds = class_bounds(evaluation.measure)
    stake = stake_of(observation)
    moves = []
    for action in observation.legal_actions():
        value = evaluation.value_of(action).value
        loss = evaluation.loss(action) / stake
        is_best = action == evaluation.best.action
        moves.append(Move(action_json(action), value, loss, bounds.of(loss, is_best)))
    return tuple(moves)


def _why(observation: AnyObservation, evaluation: Evaluation) -> list[Sentence]:
    """The facts of the position that speak for the answer (the figures are the verdict's, :func:`answer`); calling
    or waiting says what the other choice risks."""
    best = evaluation.best
    if isinstance(observation, HighLowObservation):
        return [_row_sentence(evaluation)]
    sentences = why(observation, best.action, best)
    if kind_of(observation) == "call":
        if isinstance(best.action, CallRacko):
            sentences.append(Sentence("puzzle:call-not-wait", {}))
        elif isinstance(best.action, Wait):
            sentences.append(Sentence("puzzle:wait-not-call", {}))
        elif isinstance(best.action, DrawFromStock):
            sentences.append(Sentence("puzzle:play-on-then-call", {}))
    return sentences


def _row_sentence(evaluation: Evaluation) -> Sentence:
    """High-Low: the review rates a row by ``expert``'s gap model, in turns."""
    second = evaluation.moves[1].value
    return Sentence("puzzle:row", {"turns": round(evaluation.best.value, 1), "second": round(second, 1)})


def _trimmed(record: GameRecord, found: Sequence[_Found], game: int) -> GameRecord:
    """The record up to the round of its last puzzle (the rest is never replayed)."""
    last = max(item.action for item in found if item.game == game)
    rounds = []
    seen = 0
    for round_record in record.rounds:
        rounds.append(round_record)
        seen += len(round_record.actions)
        if seen > last:
            break
    return GameRecord(record.rules, tuple(rounds), record.first_dealer, record.seed, record.players)


# --- Checking and loading ------------------------------------------------------------------------------------------


def verify(puzzles: PuzzleSet, puzzle: Puzzle) -> list[str]:
    """Replay the puzzle's game to its position and judge it again with its seed: the problems found (none when
    the view is what the seat saw, the answer is the review's best move and the margin holds)."""
    problems = []
    try:
        observation, history = position(puzzles.games[puzzle.game], puzzle.action)
    except RackoError as error:
        return [f"puzzle {puzzle.id}: its position cannot be replayed: {error}"]
    if view_of(observation) != puzzle.view:
        problems.append(f"puzzle {puzzle.id}: its view is not what the seat saw in its game")
    evaluation = judge(observation, history, puzzle.seed)[1]
    margin = _margin(evaluation) / stake_of(observation)
    if action_json(evaluation.best.action) != puzzle.answer:
        best = action_json(evaluation.best.action)
        problems.append(f"puzzle {puzzle.id}: the review's best move is {best}, not the answer {puzzle.answer}")
    elif margin <= margin_for(evaluation.measure):
        problems.append(f"puzzle {puzzle.id}: the best move is ahead by {margin:.3f} only")
    if puzzle.first_steps != first_steps(observation, evaluation.best.action, evaluation.best.slot):
        problems.append(
            f"puzzle {puzzle.id}: it is marked first steps where its answer neither goes out nor is the card's one fit,"
            " or not"
        )
    return problems


def recheck(puzzles: PuzzleSet, puzzle: Puzzle, seed: int) -> Confirmation:
    """Judge a shipped puzzle again as generation confirmed it (:func:`confirm`), with another ``seed``."""
    observation, history = position(puzzles.games[puzzle.game], puzzle.action)
    family = family_of(variant(puzzle.variant).rules(puzzle.players))
    return confirm(observation, history, family.action_from_json(puzzle.answer), seed)


def load(path: str | Path = SHIPPED) -> PuzzleSet:
    """The puzzles of a file; :class:`PuzzleError` saying what is wrong with a damaged or hand-edited one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise PuzzleError(f"Cannot read the puzzles in {path}: {error.strerror or error}.") from None
    except UnicodeDecodeError:
        raise PuzzleError(f"{path} is not a text file of puzzles.") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise PuzzleError(f"{path} is not JSON: {error}.") from None
    return from_json(data)


def from_json(data: Any) -> PuzzleSet:
    """Puzzles from their JSON value, every field checked; :class:`PuzzleError` with the reason."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f'This is not a file of racko puzzles (its "format" is not {FORMAT!r}).')
    if data.get("version") != VERSION:
        raise PuzzleError(f"Unsupported puzzle file version {data.get('version')!r}; this racko reads {VERSION}.")
    games_data, puzzles_data = data.get("games"), data.get("puzzles")
    if not isinstance(games_data, list) or not isinstance(puzzles_data, list) or not puzzles_data:
        raise PuzzleError("A puzzle file holds a list of puzzles and a list of games.")
    games = []
    for number, game in enumerate(games_data):
        try:
            record = GameRecord.from_json(game)
            replay(record)  # a deck that is no deck, or a move the game refuses, is found here
            games.append(record)
        except RackoError as error:
            raise PuzzleError(f"Game {number} of the puzzle file: {error}") from None
    puzzles = []
    ids: set[str] = set()
    for number, item in enumerate(puzzles_data, start=1):
        try:
            puzzle = _puzzle_from_json(item, games)
        except (RackoError, KeyError, TypeError, ValueError, IndexError) as error:
            reason = error if isinstance(error, RackoError) else f"a missing or wrong field ({error})"
            raise PuzzleError(f"Puzzle {number} of the file: {reason}") from None
        if puzzle.id in ids:
            raise PuzzleError(f"Puzzle {number} of the file: the id {puzzle.id!r} is used twice.")
        ids.add(puzzle.id)
        puzzles.append(puzzle)
    seed = data.get("seed")
    return PuzzleSet(tuple(puzzles), tuple(games), seed if isinstance(seed, int) else 0)


def _puzzle_from_json(item: Any, games: Sequence[GameRecord]) -> Puzzle:
    if not isinstance(item, dict):
        raise PuzzleError("a puzzle is a JSON object")
    rules = variant(_text(item["variant"])).rules(
        _whole(item["players"]), two_player_rule=bool(item["two_player_rule"])
    )
    family = family_of(rules)
    moves_data, values = item["moves"], item["values"]
    if not isinstance(moves_data, list) or not isinstance(values, list) or len(moves_data) != len(values):
        raise PuzzleError("its moves and their values do not match")
    if len(moves_data) < 2:
        raise PuzzleError("it has fewer than two moves: nothing to choose")
    actions = [family.action_to_json(family.action_from_json(move)) for move in moves_data]
    if actions != moves_data or len({json.dumps(move, sort_keys=True) for move in actions}) != len(actions):
        raise PuzzleError("its moves are not moves of the game, each once")
    measure = _text(item["measure"])
    if measure not in MEASURES:
        raise PuzzleError(f"unknown measure {measure!r}")
    stake = _number(item["stake"])
    if not 0.0 < stake <= 1.0:
        raise PuzzleError("its round's stake is not a share of the game")
    numbers = [_number(value) for value in values]
    answer_action = item["answer"]
    if answer_action not in actions:
        raise PuzzleError("its answer is not one of its moves")
    best = numbers[actions.index(answer_action)]
    higher = measure == "game_chance"
    bounds = class_bounds("game_chance" if higher else "turns")
    moves = []
    for action, value in zip(actions, numbers, strict=True):
        loss = (max(0.0, best - value) if higher else max(0.0, value - best)) / stake
        is_best = action == answer_action
        if not is_best and loss <= margin_for(measure) - 1e-9:
            raise PuzzleError("another move is about as good as its answer: no clear best move")
        moves.append(Move(action, value, loss, bounds.of(loss, is_best)))
    view = item["view"]
    _check_view(view, rules.variant == "highlow")
    kind = _text(item["kind"])
    if kind not in KINDS:
        raise PuzzleError(f"unknown kind {kind!r}")
    game = _whole(item["game"])
    if not 0 <= game < len(games):
        raise PuzzleError(f"it names game {game}, which the file lacks")
    if not 0 <= _whole(item["action"]) < games[game].action_count:
        raise PuzzleError(f"its position is not in game {game}")
    why_data = item["why"]
    if not isinstance(why_data, list):
        raise PuzzleError("its explanation is not a list of sentences")
    sentences = []
    for sentence in why_data:
        if not isinstance(sentence, dict) or not isinstance(sentence.get("values"), dict):
            raise PuzzleError("a sentence of its explanation is not a key with values")
        made = Sentence(_text(sentence["key"]), dict(sentence["values"]))
        made.text()  # an unknown key is refused here
        sentences.append(made)
    slot = item["answer_slot"]
    if slot is not None and not (isinstance(slot, int) and 0 <= slot < RACK_SIZE):
        raise PuzzleError("its answer's slot is not a slot")
    missed = item["missed_by"]
    if missed is not None and missed not in bots.available():
        raise PuzzleError(f"unknown computer player {missed!r}")
    if _text(item["id"]) == "":
        raise PuzzleError("its id is empty")
    if rules.variant == "highlow" and measure != "turns":
        raise PuzzleError("High-Low is judged in turns")
    grade = moves[actions.index(answer_action)].grade
    assert grade in CLASSES
    confirmed, low = _number(item["confirmed"]), _number(item["confirmed_low"])
    if not margin_for(measure) < low <= confirmed + 1e-9:
        raise PuzzleError("its margin is not confirmed above the bound")
    first_steps = item["first_steps"]
    if not isinstance(first_steps, bool):
        raise PuzzleError("whether it is a first-steps puzzle is not true or false")
    return Puzzle(
        id=_text(item["id"]),
        kind=kind,
        variant=rules.variant,
        players=rules.players,
        two_player_rule=rules.two_player_rule,
        view=view,
        moves=tuple(moves),
        answer=answer_action,
        answer_slot=slot,
        why=tuple(sentences),
        measure=measure,
        playouts=_whole(item["playouts"]),
        margin=_number(item["margin"]),
        stake=stake,
        confirmed=confirmed,
        confirmed_low=low,
        confirm_playouts=_whole(item["confirm_playouts"]),
        first_steps=first_steps,
        missed_by=missed,
        game=game,
        action=_whole(item["action"]),
        seed=_whole(item["seed"]),
    )


def _check_view(view: Any, row: bool) -> None:
    if not isinstance(view, dict):
        raise PuzzleError("its view is not a JSON object")
    rack = view.get("rack")
    allowed = (int, str) if row else (int,)
    if not isinstance(rack, list) or len(rack) != RACK_SIZE or not all(isinstance(card, allowed) for card in rack):
        raise PuzzleError("its rack is not ten cards")
    if not isinstance(view.get("others"), list) or not isinstance(view.get("stock"), int):
        raise PuzzleError("its view lacks the other racks or the stock")
    if view.get("situation") not in (
        "pick",
        "pick-or-call",
        "place-taken",
        "place-drawn",
        "declare",
        "place-in-row",
        "swap",
    ):
        raise PuzzleError("its view names no situation")


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise PuzzleError(f"{value!r} is not text")
    return value


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PuzzleError(f"{value!r} is not a whole number")
    return value


def _number(value: Any) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise PuzzleError(f"{value!r} is not a number")
    return float(value)
