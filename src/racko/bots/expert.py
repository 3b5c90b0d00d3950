"""``expert``: ``hard``'s expectimax with a tuned gap model, the stock's order when it is known, and Bonus waiting.

What it adds to ``hard``, all from its own observation:

- **A gap model tuned on solitaire** (``EXPERT_GAPS``): the plain model charges
  wide gaps too much; the tuned one credits each open slot (see docs/STRENGTH.md
  for the search and its figures).
- **The stock's order after a "flip" refill**: the old discard pile, turned
  over, is the new stock, so every seat knows which card comes next.  Taking
  the discard is then weighed against that very card, not an average.
- **Bonus Rack-O**: whether to call at once or wait for a longer run, weighing
  the chance of lengthening the run before the next turn against the chance that
  an opponent goes out first (see :func:`calls_now`); while waiting it only
  makes exchanges that keep the rack in order and lengthen its run.
- **High-Low**: the same gap idea for rows that may read up or down, with Wilds
  and duplicates (:mod:`racko.bots.expert_highlow`).
"""

from __future__ import annotations

from racko.actions import Action, CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.bots.base import register
from racko.bots.expert_highlow import highlow_action
from racko.bots.gaps import GapModel, RackValuer, cards_that_may_come, counts_below
from racko.bots.hard import HardBot
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowObservation
from racko.match import side_totals
from racko.observation import Observation, Phase, PublicView
from racko.rules import RACKO_SCORE, Rules
from racko.scoring import longest_run, qualifies_for_racko, run_bonus

EXPERT_GAPS = GapModel(slack=-1.5)
"""The gap model tuned on solitaire (docs/STRENGTH.md): 10.61 turns against 10.75 for the plain model."""

RETURN_HORIZON = 5
"""Turns per player within which a stock that runs out brings the discard pile back into play."""

ORDERED_SCORE = 50
"""What a rack fully in order scores when somebody else goes out (5 per card)."""


@register
class ExpertBot(HardBot):
    name = "expert"
    level = 4
    description = "Plans with the odds of every gap, reads a turned-over stock, and knows when to wait for a bonus."
    gap_model = EXPERT_GAPS
    waits = True
    """Whether it may wait for a longer run in Bonus Rack-O (off: it calls as soon as it may)."""

    def act(self, observation: AnyObservation) -> AnyAction:
        if isinstance(observation, HighLowObservation):
            return highlow_action(observation)
        seat = observation.seat
        public = observation.public
        rules = public.rules
        if CallRacko(seat) in observation.legal_actions():
            if self._should_call(observation):
                return CallRacko(seat)
            return Wait(seat) if public.phase is Phase.DECLARE else self._lengthen_run(observation)
        if public.phase is Phase.PLACE and not rules.auto_racko and qualifies_for_racko(observation.rack, rules):
            return self._lengthen_run(observation)  # drawn while waiting
        return super().act(observation)

    def _should_call(self, observation: Observation) -> bool:
        return not self.waits or calls_now(observation)

    def _lengthen_run(self, observation: Observation) -> Action:
        """A turn while waiting: only exchanges that keep the rack qualifying and make its run longer."""
        seat = observation.seat
        public = observation.public
        rack = observation.rack
        if public.phase is Phase.PLACE:
            held = observation.held
            assert held is not None
            slot = _lengthening_slot(rack, held)
            if slot is not None:
                return Exchange(seat, slot)
            if public.taken_discard is not None:  # not reached: the discard is taken only when it lengthens
                return Exchange(seat, _harmless_slot(rack, held, public.rules))
            return Discard(seat)
        if _lengthening_slot(rack, public.discard_pile[-1]) is not None:
            return TakeDiscard(seat)
        return DrawFromStock(seat)

    def draw_value(self, valuer: RackValuer, rack: tuple[int, ...], may_come: list[int], now: float) -> float:
        """The cost after drawing: exact when the stock's next card is known, else the average."""
        upcoming = self._upcoming
        if upcoming is not None:
            return min(now, valuer.best_placement(rack, upcoming)[0])
        return super().draw_value(valuer, rack, may_come, now)

    def valuer(self, observation: Observation, may_come: list[int]) -> RackValuer:
        public = observation.public
        # Remembered for draw_value, which is asked within the same decision.
        self._upcoming = next_stock_card(public)
        returning: list[int] = []
        if public.stock_size <= RETURN_HORIZON * public.rules.players:
            # The stock runs out soon: the discard pile under the top card becomes the next stock.
            returning = list(public.discard_pile[:-1])
        counts = counts_below([*may_come, *returning], public.rules.deck_size)
        return RackValuer(counts, public.rules.two_player_rule, self.gap_model)

    _upcoming: int | None = None


def next_stock_card(public: PublicView) -> int | None:
    """The stock's top card when a "flip" refill made its order public, else ``None``.

    The pile turned over (bottom first) is the new stock, top first, after its first
    card was turned up to start the new discard pile.
    """
    order = public.turned_over_pile
    if public.rules.refill != "flip" or order is None or public.stock_size == 0:
        return None
    index = len(order) - public.stock_size
    return order[index] if 0 < index < len(order) else None


def calls_now(observation: Observation) -> bool:
    """Bonus Rack-O: call now rather than wait for a longer run?

    Waiting plays on until the run grows, then calls.  Per lap of the table the run
    grows with probability ``p`` (the share of cards that may come and would lengthen
    it, plus the top discard if it would), and with probability ``h`` an opponent goes
    out first, leaving this seat 50 for its ordered rack while the opponent scores.
    Compared in points for this seat minus an opponent's, lap after lap, at each run
    length up to six.  Never waits when calling wins the game or an opponent could
    win it by going out.
    """
    public = observation.public
    rules = public.rules
    rack = observation.rack
    if not rules.bonus or rules.auto_racko:
        return True
    run = longest_run(rack)
    if run >= 6:
        return True
    seat = observation.seat
    side = rules.side_of(seat)
    sides = side_totals(rules, public.totals)
    now_score = RACKO_SCORE + run_bonus(run)
    if sides[side] + now_score >= rules.target:
        return True  # calling reaches the target (and going out, nobody else scores more than 50)
    if any(total + RACKO_SCORE >= rules.target for other, total in enumerate(sides) if other != side):
        return True  # an opponent going out would end the game
    may_come = cards_that_may_come(observation)
    lengthening = sum(1 for card in may_come if _lengthening_slot(rack, card) is not None)
    p = lengthening / len(may_come) if may_come else 0.0
    opponents = sum(1 for other in range(rules.players) if rules.side_of(other) != side)
    per_turn = opponent_hazard(public.turns / rules.players)
    h = 1 - (1 - per_turn) ** opponents
    # Points for this seat minus the opponent who went out, if one does: 50 against about 75.
    lose = ORDERED_SCORE - RACKO_SCORE
    ahead = float(RACKO_SCORE + run_bonus(6) - 25)
    for length in range(5, run - 1, -1):
        call = float(RACKO_SCORE + run_bonus(length) - 25)  # an opponent's ordered start scores about 25
        win = ahead
        wait = (h * lose + (1 - h) * p * win) / (h + (1 - h) * p) if h + p > 0 else call
        ahead = max(call, wait)
    call_now = now_score - 25
    return call_now >= ahead


def opponent_hazard(turns_each: float) -> float:
    """The chance that an opponent goes out on a turn, after ``turns_each`` turns each (measured on expert play)."""
    return min(0.3, max(0.02, 0.025 * (turns_each - 3)))


def _lengthening_slot(rack: tuple[int, ...], card: int) -> int | None:
    """The slot where ``card`` keeps the rack qualifying and makes its longest run longer, if any."""
    best_run, best_slot = longest_run(rack), None
    trial = list(rack)
    for slot in range(len(rack)):
        if (slot > 0 and trial[slot - 1] >= card) or (slot + 1 < len(rack) and trial[slot + 1] <= card):
            continue
        previous = trial[slot]
        trial[slot] = card
        run = longest_run(trial)
        trial[slot] = previous
        if run > best_run:
            best_run, best_slot = run, slot
    return best_slot


def _harmless_slot(rack: tuple[int, ...], card: int, rules: Rules) -> int:
    """A slot for a card that must be placed, keeping the rack in order if any slot can."""
    for slot in range(len(rack)):
        trial = list(rack)
        trial[slot] = card
        if qualifies_for_racko(trial, rules):
            return slot
    return 0


@register
class EagerExpertBot(ExpertBot):
    name = "expert-eager"
    level = 4
    description = "expert that calls Rack-O as soon as it may: the baseline that shows what Bonus waiting is worth."
    waits = False
