"""The first lesson: one round of two-player Rack-O on a prepared deal, step by step, for `/learn` in the browser
and `racko learn` in the terminal.

The script lives here once; the front ends only show a :meth:`Lesson.view` and pass on what the person did
(:meth:`Lesson.attempt`).  A lesson is its answers so far: :meth:`Lesson.replay` plays them again on the same deal,
so that the web server keeps nothing per learner and a reload resumes.  The round is a real round of the engine
(a :class:`~racko.match.Match` on a deck laid out by :func:`~racko.round.arrange_deck`); every move the person
makes is an engine action, checked by the engine too, and the opponent's moves are scripted.

An answer is a word: ``next`` (a page to read), ``draw``, ``take``, ``discard``, ``racko``, ``wait``,
``slot:<index>`` (index 0 is the slot labelled 5) or ``choice:<value>`` (a question's answer).  A step accepts one
answer; anything else is refused with the reason, and nothing changes, so the person can try again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from racko.actions import Action, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.analysis.explain import Sentence, order_chain
from racko.errors import RackoError
from racko.families import AnyAction
from racko.match import Match
from racko.observation import Phase
from racko.play.loop import SEAT_ONLY_ACTIONS
from racko.round import Round, arrange_deck
from racko.rules import POINTS_PER_CARD, RACK_SIZE, SLOT_LABELS, variant
from racko.scoring import longest_run, ordered_prefix, racko_score, run_bonus

LEARNER = 0
OPPONENT = 1
OPPONENT_NAME = "Robin"
RULES = variant("classic").rules(2, auto_racko=False)
"""Two players, so the 2-player rule (a run of three) is on; calling Rack-O is the learner's own move, as in Bonus
Rack-O, so that the lesson can teach it (racko's classic tables call it by themselves)."""

RACK = (3, 9, 31, 14, 17, 22, 5, 27, 28, 38)
"""The learner's rack as dealt, slot 5 first: two cards out of order (31 in slot 15, 5 in slot 35)."""
DRAWN = 19
"""The learner's first card from the stock: it fits no open slot, but in slot 30, in place of 22, it widens what
slot 35 needs from 23-26 to 20-26, which racko's own hint ranks above discarding it (tests/test_lesson.py)."""
OPPONENT_RACK = (29, 8, 13, 18, 16, 30, 35, 20, 36, 37)
TURNED_UP = 12
STOCK = (33, DRAWN, 1, 24)
"""The stock's top cards, in the order they are drawn: the opponent's 33, the learner's 19, the opponent's 1, the
learner's 24."""
DECK = arrange_deck([RACK, OPPONENT_RACK], OPPONENT, TURNED_UP, STOCK, deck_size=RULES.deck_size)

ANSWERS = ("next", "draw", "take", "discard", "racko", "wait")
"""The answers that are plain words; ``slot:N`` and ``choice:V`` name a slot or a choice."""
MOST_ANSWERS = 40
"""A replay longer than this is no lesson (the whole lesson takes 14 answers)."""


@dataclass(frozen=True)
class Step:
    """One step of the lesson: what it says, the answer it accepts, and the opponent's moves that follow.

    Its words are ``lesson:<name>:title``, ``lesson:<name>:text`` and ``lesson:<name>:right``; a wrong answer with a
    reason of its own says ``lesson:<name>:<reason>`` (``wrong`` maps those answers to their reasons), any other
    the general reason for its kind."""

    name: str
    kind: str
    """``read``, ``pick``, ``place``, ``declare``, ``choose`` or ``end``."""
    accepts: str
    values: dict[str, Any] = field(default_factory=dict)
    wrong: dict[str, str] = field(default_factory=dict)
    """Wrong answers with a reason of their own: the answer, and the name of its words."""
    choices: tuple[str, ...] = ()
    then: tuple[Action, ...] = ()
    """The opponent's turn after this step (ended by the script)."""


def out_of_order(rack: Sequence[int]) -> list[int]:
    """The slots (indices) whose cards break the order the rest keeps."""
    kept = set(order_chain(rack, set(range(1, RULES.deck_size + 1)) - set(rack), RULES.deck_size))
    return [slot for slot in range(len(rack)) if slot not in kept]


def rising(rack: Sequence[int]) -> int:
    """How many cards of the rack rise in order, wherever they stand (the longest rising sequence): what a
    beginner may count instead of the cards from slot 5 up to the first break."""
    longest = [1] * len(rack)
    for later in range(len(rack)):
        for earlier in range(later):
            if rack[earlier] < rack[later]:
                longest[later] = max(longest[later], longest[earlier] + 1)
    return max(longest, default=0)


RACKO_POINTS = racko_score(list(range(1, RACK_SIZE + 1)), RULES)
FINAL_RACK = (3, 9, 12, 14, 17, DRAWN, 24, 27, 28, 29)
OPPONENT_FINAL = (5, *OPPONENT_RACK[1:])
OPPONENT_POINTS = POINTS_PER_CARD * ordered_prefix(OPPONENT_FINAL)
OPPONENT_IN_ORDER = POINTS_PER_CARD * rising(OPPONENT_FINAL)
BONUS_POINTS = RACKO_POINTS + run_bonus(longest_run(FINAL_RACK))
LONGER_RUN_POINTS = RACKO_POINTS + run_bonus(longest_run(FINAL_RACK) + 1)
BREAK = ordered_prefix(OPPONENT_FINAL)


def fitting_slots(rack: Sequence[int], card: int) -> list[int]:
    """The slots where ``card`` would stand in order with the cards on either side of it."""
    return [
        slot
        for slot in range(RACK_SIZE)
        if (slot == 0 or rack[slot - 1] < card) and (slot == RACK_SIZE - 1 or card < rack[slot + 1])
    ]


AT_DRAW = (*RACK[:2], 12, *RACK[3:])
"""The learner's rack when the opponent's 33 is the top discard (12 taken into slot 15)."""
_FITS = fitting_slots(AT_DRAW, 33)
assert len(_FITS) == 2, "the step's words name two slots"
AT_DRAW_FITS = {
    "slot": SLOT_LABELS[_FITS[0]],
    "other_slot": SLOT_LABELS[_FITS[1]],
    "kept": AT_DRAW[_FITS[0]],
    "other_kept": AT_DRAW[_FITS[1]],
}
"""Where 33 would fit, and the cards in order it would replace there: what the step says when the learner takes it."""


STEPS: tuple[Step, ...] = (
    Step("rack", "read", "next", {"first": 31, "second": 5}),
    Step("take", "pick", "take", {"card": 12, "low": 9, "high": 14, "out": 31}, wrong={"draw": "draw"}),
    Step(
        "place-taken",
        "place",
        "slot:2",
        {"card": 12, "slot": 15, "out": 31},
        then=(DrawFromStock(OPPONENT), Discard(OPPONENT)),
    ),
    Step("draw", "pick", "draw", {"top": 33, **AT_DRAW_FITS, "out": 5, "low": 23, "high": 26}, wrong={"take": "take"}),
    Step(
        "discard",
        "place",
        "slot:5",
        {"card": DRAWN, "slot": 30, "out": 22, "low": 23, "high": 26, "wider": DRAWN + 1},
        wrong={"discard": "discard"},
        then=(DrawFromStock(OPPONENT), Discard(OPPONENT)),
    ),
    Step("draw-again", "pick", "draw", {"top": 1, "kept": 3}, wrong={"take": "take"}),
    Step(
        "place-drawn",
        "place",
        "slot:6",
        {"card": 24, "low": DRAWN, "high": 27, "slot": 35},
        wrong={"discard": "discard"},
    ),
    Step(
        "run",
        "declare",
        "wait",
        {"cards": [27, 28]},
        wrong={"racko": "racko"},
        then=(TakeDiscard(OPPONENT), Exchange(OPPONENT, 0)),
    ),
    Step("take-run", "pick", "take", {"top": 29}, wrong={"draw": "draw"}),
    Step("place-run", "place", "slot:9", {"card": 29, "out": 38}),
    Step("call", "declare", "racko", {"points": RACKO_POINTS}, wrong={"wait": "wait"}),
    Step(
        "score",
        "choose",
        f"choice:{OPPONENT_POINTS}",
        {
            "points": OPPONENT_POINTS,
            "count": BREAK,
            "cards": list(OPPONENT_FINAL[:BREAK]),
            "breaker": OPPONENT_FINAL[BREAK],
            "breaker_slot": SLOT_LABELS[BREAK],
            "above": OPPONENT_FINAL[BREAK - 1],
            "above_slot": SLOT_LABELS[BREAK - 1],
            "racko": RACKO_POINTS,
            "all_in_order": OPPONENT_IN_ORDER,
            "target": RULES.target,
        },
        wrong={f"choice:{OPPONENT_IN_ORDER}": "every-card", f"choice:{RACKO_POINTS}": "racko"},
        choices=(f"choice:{OPPONENT_POINTS}", f"choice:{OPPONENT_IN_ORDER}", f"choice:{RACKO_POINTS}"),
    ),
    Step(
        "bonus",
        "choose",
        f"choice:{BONUS_POINTS}",
        {
            "points": BONUS_POINTS,
            "racko": RACKO_POINTS,
            "bonus": BONUS_POINTS - RACKO_POINTS,
            "longer": LONGER_RUN_POINTS,
            "cards": [27, 28, 29],
        },
        wrong={f"choice:{RACKO_POINTS}": "classic", f"choice:{LONGER_RUN_POINTS}": "longer"},
        choices=(f"choice:{RACKO_POINTS}", f"choice:{BONUS_POINTS}", f"choice:{LONGER_RUN_POINTS}"),
    ),
    Step("end", "end", ""),
)
STEP_NAMES = tuple(step.name for step in STEPS)


class LessonError(RackoError):
    """Answers that do not replay the lesson (a page's stale or made-up list)."""


@dataclass(frozen=True)
class Feedback:
    """What the lesson says to an answer: whether it was accepted, and why."""

    accepted: bool
    why: tuple[Sentence, ...]

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {"accepted": self.accepted, "why": [sentence.to_json(lang) for sentence in self.why]}


def answer_word(answer: object) -> str | None:
    """The answer in its one spelling (``slot:2``, ``choice:20``, ``draw``), or ``None`` if it is none."""
    if not isinstance(answer, str) or len(answer) > 20:
        return None
    word = answer.strip().lower()
    if word in ANSWERS:
        return word
    kind, _, value = word.partition(":")
    if kind == "slot" and value.isdigit() and value.isascii() and int(value) < RACK_SIZE:
        return f"slot:{int(value)}"
    if kind == "choice" and value.isdigit() and value.isascii() and len(value) <= 4:
        return f"choice:{int(value)}"
    return None


class Lesson:
    """The lesson at one step: a real round of the engine, the learner's answers so far, and what happened since
    the learner's last move."""

    def __init__(self) -> None:
        self.match = Match(RULES, seed=0, first_dealer=OPPONENT, decks=[DECK])
        self.round: Round = self._round()
        self.answers: list[str] = []
        self.happened: list[Sentence] = []

    def _round(self) -> Round:
        played = self.match.rounds[0]
        assert isinstance(played, Round)
        return played

    @classmethod
    def replay(cls, answers: Sequence[object]) -> Lesson:
        """The lesson after these answers; :class:`LessonError` if they are not the lesson's own."""
        if len(answers) > MOST_ANSWERS:
            raise LessonError("That is more answers than the lesson has steps.")
        lesson = cls()
        for number, answer in enumerate(answers, start=1):
            if not lesson.attempt(answer).accepted:
                raise LessonError(f"Answer {number} does not follow the lesson: start it again.")
        return lesson

    @property
    def number(self) -> int:
        """The step's index in :data:`STEPS`."""
        return len(self.answers)

    @property
    def step(self) -> Step:
        return STEPS[self.number]

    @property
    def done(self) -> bool:
        return self.step.kind == "end"

    def attempt(self, answer: object) -> Feedback:
        """Check an answer: accepted, it is played (with the opponent's turn that follows); refused, nothing
        changes and the reason says why."""
        step = self.step
        word = answer_word(answer)
        if word is None or step.kind == "end":
            return Feedback(False, (Sentence("lesson:not-an-answer", {}),))
        if word != step.accepts:
            return Feedback(False, self._why_not(step, word))
        self._play(step, word)
        self.answers.append(word)
        return Feedback(True, (Sentence(f"lesson:{step.name}:right", step_values(step)),))

    def _why_not(self, step: Step, word: str) -> tuple[Sentence, ...]:
        if word in step.wrong:
            return (Sentence(f"lesson:{step.name}:{step.wrong[word]}", step_values(step)),)
        if step.kind == "place" and word.startswith("slot:"):
            return (placement_reason(self.round.observation(LEARNER).rack, int(word[5:]), self._held()),)
        if step.kind == "place" and word == "discard":
            return (Sentence("lesson:why-must-place", {"card": self._held()}),)
        return (Sentence("lesson:not-now", {}), Sentence(f"lesson:prompt:{step.kind}", {}))

    def _held(self) -> int:
        held = self.round.observation(LEARNER).held
        assert held is not None
        return held

    def _play(self, step: Step, word: str) -> None:
        if step.kind in ("read", "choose"):
            return
        self.happened = []
        self._apply(_action(word))
        if self.round.phase is Phase.DECLARE and step.kind == "place":
            if STEPS[self.number + 1].kind == "declare":
                return  # the next step asks whether to call
            self._apply(Wait(LEARNER))  # nothing to call: the turn ends, as the play loop ends it
        if step.then:
            for action in step.then:
                self._apply(action)
            self._apply(Wait(OPPONENT))

    def _apply(self, action: AnyAction) -> None:
        before = self.round.public_view()
        self.match.apply(action)
        if action.seat == OPPONENT:
            self.happened.extend(_told(action, before.discard_pile, self.round))

    def view(self) -> dict[str, Any]:
        """What the learner sees now, ready for JSON: the step, the learner's rack and the piles (never the
        opponent's rack or the stock's order before the round is over), and the opponent's moves since the
        learner's last one."""
        step = self.step
        observation = self.round.observation(LEARNER)
        public = observation.public
        rack = list(observation.rack)
        result = public.result
        view: dict[str, Any] = {
            "step": self.number,
            "steps": len(STEPS),
            "name": step.name,
            "kind": step.kind,
            "values": step_values(step),
            "choices": [choice.split(":", 1)[1] for choice in step.choices],
            "answers": list(self.answers),
            "rack": rack,
            "slots": list(SLOT_LABELS),
            "out_of_order": out_of_order(rack),
            "held": observation.held,
            "discard": public.discard_pile[-1] if public.discard_pile else None,
            "stock": public.stock_size,
            "highest": RULES.deck_size,
            "happened": [sentence.to_json() for sentence in self.happened],
            "result": None,
        }
        if result is not None:
            view["result"] = {
                "scores": list(result.scores),
                "racks": [list(seat_rack) for seat_rack in result.racks],
                "ordered": list(result.ordered),
            }
        return view


def step_words(step: Step, part: str) -> Sentence:
    """A step's own words: its ``title`` or its ``text``."""
    return Sentence(f"lesson:{step.name}:{part}", step_values(step))


def step_values(step: Step) -> dict[str, Any]:
    """The values a step's words name, the opponent's name among them."""
    return {"name": OPPONENT_NAME, **step.values}


def _action(word: str) -> AnyAction:
    if word.startswith("slot:"):
        return Exchange(LEARNER, int(word[5:]))
    return SEAT_ONLY_ACTIONS[word](LEARNER)


def _told(action: AnyAction, pile_before: Sequence[int], played: Round) -> list[Sentence]:
    """The opponent's move as the learner saw it (a card drawn and kept stays unknown)."""
    pile = played.public_view().discard_pile
    if isinstance(action, TakeDiscard):
        return [Sentence("lesson:they-took", {"name": OPPONENT_NAME, "card": pile_before[-1]})]
    if isinstance(action, Exchange):
        return [Sentence("lesson:they-put", {"name": OPPONENT_NAME, "slot": SLOT_LABELS[action.slot], "out": pile[-1]})]
    if isinstance(action, DrawFromStock):
        return [Sentence("lesson:they-drew", {"name": OPPONENT_NAME})]
    if isinstance(action, Discard):
        return [Sentence("lesson:they-discarded", {"name": OPPONENT_NAME, "card": pile[-1]})]
    return []


def placement_reason(rack: Sequence[int], slot: int, card: int) -> Sentence:
    """Why ``card`` in ``slot`` is no good: it is out of order with the nearest cards kept below or above it, or the
    card it would replace is in order already."""
    wrong = set(out_of_order(rack))
    kept = [index for index in range(len(rack)) if index not in wrong and index != slot]
    below = [index for index in kept if index < slot]
    above = [index for index in kept if index > slot]
    values: dict[str, Any] = {"card": card, "slot": SLOT_LABELS[slot], "out": rack[slot]}
    if below and card < rack[below[-1]]:
        return Sentence("lesson:why-too-low", {**values, "low": rack[below[-1]], "low_slot": SLOT_LABELS[below[-1]]})
    if above and card > rack[above[0]]:
        return Sentence("lesson:why-too-high", {**values, "high": rack[above[0]], "high_slot": SLOT_LABELS[above[0]]})
    if slot not in wrong:
        return Sentence("lesson:why-no-gain", values)
    return Sentence("lesson:why-not-best", values)
