"""``expert``: weighs every move by the rack it leaves and the card it hands the next player; alone, it plays
its best few moves out to the end.

How it chooses, all from its own observation:

- **At a table: one-ply expectimax with denial.**  Every legal move is rated by the
  cost of the rack it leaves (:mod:`racko.bots.gaps`, with :data:`TABLE_GAPS`, tuned
  against ``hard``), plus the denial cost of the card it discards; a blind draw by the
  average over the cards that may come of the best thing to do with each.
- **Denial**: a card it discards goes to the next player.  With 2 players (classic, with
  or without the 2-player rule, and Bonus Rack-O) it guesses the opponent's hidden rack
  (:mod:`racko.bots.guess`): each hidden slot weighted by where its card should sit, the
  guess sharpened by a Gibbs sampler that weighs it by how likely a ``hard``-like player
  was to play the turns this seat watched (the C kernel's ``posterior``,
  :attr:`ExpertBot.sweeps` sweeps a decision).  Every card is offered to
  :attr:`ExpertBot.samples` racks dealt by that guess (the kernel's ``wants``): handing
  it on costs the draws it saves the opponent, plus :attr:`ExpertBot.going_out` draws
  times the chance that it goes out with it.  With more players, in Partners and
  without the compiled kernel it estimates what the next player wants from what it has
  seen of that rack: a slot it has not yet changed probably still wants a card of that
  slot's share of the deck (card ``c`` of ``N`` belongs near slot ``10 (c - 1) / N``); a
  slot it has already changed probably does not.  Each discard costs its chance of being
  wanted times :attr:`ExpertBot.deny` draws.  Going out costs nothing: the round ends.
- **Alone (solitaire): rollouts** (:mod:`racko.bots.rollout`).  The best few moves by
  the gap model (:data:`SOLITAIRE_GAPS`) are each played out to a Rack-O many times,
  with the cards that may come in fresh random orders (the same orders for every
  move), and the move with the fewest turns to go wins.  A formula judges a rack by
  its gaps one by one; a play-out sees how they compete for the same draws.  At a
  table the play-outs were measured to be too noisy to beat the one-ply rating
  (docs/STRENGTH.md).
- **A turned-over stock's order**: after a "flip" refill everyone saw the old pile,
  so the next card is known and a draw is rated by that card alone.
- **A stock about to run out** brings the discard pile back into play: its cards
  count among those that may come.
- **The match level**: near the target, a rack whose ordered start (5 points a card
  from slot 5) would win the game if somebody else went out is worth
  :data:`INSURANCE` draws more (:func:`insured_start`).
- **Bonus Rack-O**: whether to call at once or wait for a longer run (see
  :func:`calls_now`); while waiting it only makes exchanges that keep the rack in
  order and lengthen its run.
- **High-Low**: the gap idea for rows that may read up or down, with Wilds and
  duplicates (:mod:`racko.bots.expert_highlow`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from racko.actions import Action, CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.bots.base import Bot, register
from racko.bots.bucket import bucket_slot
from racko.bots.expert_highlow import highlow_action
from racko.bots.gaps import GapModel, RackValuer, cards_that_may_come, counts_below
from racko.bots.guess import MASK, Turn, Watch, guess_applies, hidden_cards, kernel, slot_weights, watched
from racko.bots.opponents import GAP
from racko.bots.rollout import Candidate, World, estimate
from racko.errors import RackoError
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowObservation
from racko.observation import Observation, Phase
from racko.rules import POINTS_PER_CARD, RACK_SIZE, RACKO_SCORE, Rules
from racko.scoring import longest_run, ordered_prefix, qualifies_for_racko, run_bonus

SOLITAIRE_GAPS = GapModel(slack=-1.5)
"""The gap model tuned on solitaire (docs/STRENGTH.md): it ranks candidates and plays on in the rollouts."""
TABLE_GAPS = GapModel(power=0.9)
"""The gap model tuned at the table, against ``hard`` (docs/STRENGTH.md)."""

RETURN_HORIZON = 5
"""Turns per player within which a stock that runs out brings the discard pile back into play."""

ORDERED_SCORE = 50
"""What a rack fully in order scores when somebody else goes out (5 per card)."""

INSURANCE = 3.0
"""Draws a rack is worth when its ordered start alone wins the game if somebody else goes out."""

WANTED_OPEN = 0.9
"""The chance that the next player takes a card for a slot it has not changed yet."""
WANTED_SETTLED = 0.2
"""The chance that it takes one for a slot it has already changed."""


@dataclass(frozen=True)
class Rating:
    """A move with the turns the seat is expected to need to go Rack-O after it, counting this turn: from the
    play-outs alone, from the gap model's cost at a table (:func:`turns_from_draws`), with the denial cost of the
    card handed on counted as turns."""

    action: Action
    turns: float
    slot: int | None = None
    """Where the card goes: the planned slot for the top discard when the move is to take it."""
    insured: bool = False
    """The rack kept has an ordered start that wins the game if somebody else goes out (see :func:`insured_start`).
    Not counted in :attr:`turns`; the order of the ratings credits it :data:`INSURANCE` draws."""


@register
class ExpertBot(Bot):
    name = "expert"
    level = 4
    description = (
        "Also keeps useful cards from the next player, with two players from a guess of its hidden rack: against "
        "hard about 55 % of rounds with the 2-player rule, 53 % without it; level with it with three or four."
    )
    rollouts: ClassVar[int] = 24
    """Play-outs per candidate when playing."""
    advice_rollouts: ClassVar[int] = 96
    """Play-outs per move when rating every legal move for a hint."""
    candidates: ClassVar[int] = 3
    """Placements of the card in hand that are played out (the best by the gap model), besides keeping it."""
    deny: ClassVar[float] = 0.6
    """Draws a discard costs when the next player surely wants it."""
    cap: ClassVar[int] = 60
    """Turns after which a play-out stops."""
    weighs_draw: ClassVar[bool] = False
    """Alone: whether the seat in the play-outs takes the discard only when that beats the average blind draw
    (``hard``'s rule, several times slower) rather than whenever it helps (``medium``'s)."""
    waits: ClassVar[bool] = True
    """Whether it may wait for a longer run in Bonus Rack-O (off: it calls as soon as it may)."""
    samples: ClassVar[int] = 32
    """2 players: opponent racks sampled to price the cards handed on (:meth:`denial`)."""
    saved_weight: ClassVar[float] = 1.0
    """2 players: what a draw saved by the opponent costs this seat, in draws."""
    going_out: ClassVar[float] = 10.0
    """2 players: what handing the opponent the card that takes it out costs, in draws."""
    sweeps: ClassVar[int] = 8
    """2 players: Gibbs sweeps over the guess of the opponent's hidden slots per decision (0: the slot weights
    alone)."""
    turns_weighed: ClassVar[int] = 8
    """2 players: the opponent's last turns whose likelihood weighs a guess."""
    leaning: ClassVar[tuple[float, float, float]] = (2.0, 1.0, 0.5)
    """How the opponent is taken to play, in draws of the gap model: the spread of its choice to take the discard
    (a logistic in how much it lowers the cost, less the margin, the third value), and of where it puts a card (a
    softmax over the slots' costs)."""
    prior_share: ClassVar[float] = 0.1
    """The share of the slot weights in the weights the samples are dealt by (the rest: the Gibbs sweeps')."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.watch: Watch | None = None
        self._guessed: tuple[object, list[float]] | None = None

    def act(self, observation: AnyObservation) -> AnyAction:
        if isinstance(observation, HighLowObservation):
            return highlow_action(observation)
        self.follow(observation)
        seat = observation.seat
        public = observation.public
        rules = public.rules
        if CallRacko(seat) in observation.legal_actions():
            if self._should_call(observation):
                return CallRacko(seat)
            return Wait(seat) if public.phase is Phase.DECLARE else self._lengthen_run(observation)
        if public.phase is Phase.DECLARE:
            return Wait(seat)  # the end of a Bonus turn with nothing to call
        if public.phase is Phase.PLACE and not rules.auto_racko and qualifies_for_racko(observation.rack, rules):
            return self._lengthen_run(observation)  # drawn while waiting
        return self.rate(observation)[0].action

    def rate(self, observation: AnyObservation, every_move: bool = False) -> list[Rating]:
        """Moves with the turns expected after each, best first (the bot plays the first), from the observation
        alone.

        At a table: every legal move, by the gap model and the denial cost (one-ply expectimax).  Alone
        (solitaire): the promising moves are played out; with ``every_move`` (hints) every legal move is,
        with more play-outs.
        """
        if not isinstance(observation, Observation):
            raise RackoError("Rating moves is for the classic variants only (High-Low has its own player).")
        seat = observation.seat
        public = observation.public
        legal = observation.legal_actions()
        if not legal:
            raise RackoError("It is not this seat's turn.")
        if CallRacko(seat) in legal and public.phase is not Phase.PLACE:
            others = [Rating(action, 1.0) for action in legal if action != CallRacko(seat)]
            return [Rating(CallRacko(seat), 0.0), *others]
        may_come = cards_that_may_come(observation)
        if public.rules.players == 1:
            return self._rate_by_rollouts(observation, may_come, every_move)
        return self._rate_one_ply(observation, may_come)

    def _rate_one_ply(self, observation: Observation, may_come: list[int]) -> list[Rating]:
        """Every legal move rated by the rack it leaves: the gap model's cost, plus the denial cost of the card
        handed to the next player; a draw by the average over the cards that may come (or the card that will
        come, when a turned-over stock's order is known)."""
        seat = observation.seat
        public = observation.public
        legal = observation.legal_actions()
        costs = MoveCosts(self.valuer(observation, may_come), self.denial(observation), insured_start(observation))
        rack = observation.rack
        now = costs.rack(rack)
        valued: list[tuple[float, Action, int | None, bool]] = []  # (draws, move, slot, insured)
        if public.phase is Phase.PICK:
            top = public.discard_top
            if DrawFromStock(seat) in legal:
                upcoming = public.known_stock_order[:1] or may_come
                value = (
                    sum(min(now + costs.handed_on(card), costs.best_slot(rack, card)[0]) for card in upcoming)
                    / len(upcoming)
                    if upcoming
                    else now
                )
                valued.append((value, DrawFromStock(seat), None, costs.insures(rack)))
            if top is not None and TakeDiscard(seat) in legal:
                cost, slot = costs.best_slot(rack, top)
                valued.append((cost, TakeDiscard(seat), slot, costs.insures(_placed(rack, slot, top))))
        else:
            held = observation.held
            assert held is not None
            for slot in range(RACK_SIZE):
                cost = costs.placement(rack, slot, held)
                valued.append((cost, Exchange(seat, slot), slot, costs.insures(_placed(rack, slot, held))))
            if Discard(seat) in legal:
                valued.append((now + costs.handed_on(held), Discard(seat), None, costs.insures(rack)))
        valued.sort(key=lambda entry: entry[0])  # stable: a draw before an equal take
        return [
            Rating(action, turns_from_draws(value + (INSURANCE if insured else 0.0)), slot, insured)
            for value, action, slot, insured in valued
        ]

    def _rate_by_rollouts(self, observation: Observation, may_come: list[int], every_move: bool) -> list[Rating]:
        """Solitaire: the best few moves by the gap model, each played out to a Rack-O many times."""
        seat = observation.seat
        public = observation.public
        legal = observation.legal_actions()
        valuer = self.valuer(observation, may_come)
        rack = observation.rack
        now = valuer.cost(rack)
        moves: list[tuple[Action, Candidate, int | None]] = []
        if public.phase is Phase.PICK:
            top = public.discard_top
            if top is not None and TakeDiscard(seat) in legal:
                out = _going_out_slot(rack, top, public.rules)
                if out is not None and not every_move:
                    return [Rating(TakeDiscard(seat), 1.0, out)]  # goes out now: nothing can be better
                cost, slot = MoveCosts(valuer).best_slot(rack, top) if out is None else (0.0, out)
                if every_move or cost < now or DrawFromStock(seat) not in legal:
                    moves.append((TakeDiscard(seat), Candidate(_placed(rack, slot, top), rack[slot]), slot))
            if DrawFromStock(seat) in legal:
                moves.append((DrawFromStock(seat), Candidate(rack, top or 0, draws_first=True), None))
        else:
            held = observation.held
            assert held is not None
            out = _going_out_slot(rack, held, public.rules)
            if out is not None and not every_move:
                return [Rating(Exchange(seat, out), 1.0, out)]  # goes out now: nothing can be better
            ranked = sorted(range(RACK_SIZE), key=lambda slot: valuer.cost(_placed(rack, slot, held)))
            chosen = ranked if every_move else ranked[: self.candidates]
            for slot in chosen:
                moves.append((Exchange(seat, slot), Candidate(_placed(rack, slot, held), rack[slot]), slot))
            if Discard(seat) in legal:
                moves.append((Discard(seat), Candidate(rack, held), None))
        if len(moves) == 1 and not every_move:
            only, _, where = moves[0]
            return [Rating(only, turns_from_draws(now), where)]
        world = World(
            deck_size=public.rules.deck_size,
            may_come=tuple(may_come),
            known_order=public.known_stock_order,
            needs_run=public.rules.two_player_rule,
            model=SOLITAIRE_GAPS,
            weighs_draw=self.weighs_draw,
        )
        turns = self.play_out(world, [candidate for _, candidate, _ in moves], every_move)
        rated = [Rating(action, value, slot) for (action, _, slot), value in zip(moves, turns, strict=True)]
        rated.sort(key=lambda rating: rating.turns)
        return rated

    def play_out(self, world: World, candidates: list[Candidate], every_move: bool) -> list[float]:
        """Solitaire: the turns each candidate still needs, from :attr:`rollouts` play-outs each (for hints,
        :attr:`advice_rollouts`), the same stock orders for all (best first is the lowest)."""
        rollouts = self.advice_rollouts if every_move else self.rollouts
        return estimate(world, candidates, rollouts, self.rng.getrandbits(63), self.cap)

    def follow(self, observation: AnyObservation) -> None:
        """With 2 players, read the opponent's turn since this seat's last pick (for :meth:`guess_weights`); reading
        the same observation twice changes nothing."""
        if kernel is not None and guess_applies(observation) and self.sweeps:
            assert isinstance(observation, Observation)
            self.watch = watched(self.watch, observation)

    def denial(self, observation: Observation) -> tuple[float, ...]:
        """Per card (index 0 unused): the draws it costs to hand it to the next player.  With 2 players, from sampled
        racks of the opponent (:meth:`guess_weights`): the draws the card saves it, and :attr:`going_out` draws times
        the chance it goes out with it; else, and without the compiled kernel, :func:`denial_costs`."""
        if kernel is None or not guess_applies(observation) or self.samples < 1:
            return denial_costs(observation, self.deny)
        public = observation.public
        size = public.rules.deck_size
        seat = observation.seat
        receiver = (seat + 1) % public.rules.players
        hidden = hidden_cards(observation)
        receiving = [card or 0 for card in public.known[receiver]]
        mine_unseen = [card for card, shown in zip(observation.rack, public.known[seat], strict=True) if shown is None]
        tallies = kernel.wants(
            size,
            public.rules.two_player_rule,
            hidden,
            self.guess_weights(observation, hidden),
            receiving,
            range(1, size + 1),
            mine_unseen,
            self.samples,
            self.rng.getrandbits(63) & MASK,
        )
        costs = [0.0]
        for _takes, saved, outs in tallies:
            costs.append((self.saved_weight * saved + self.going_out * outs) / self.samples)
        return tuple(costs)

    def guess_weights(self, observation: Observation, hidden: list[int]) -> list[float]:
        """Per slot of the opponent's rack, per card: the weights its hidden slots are dealt by (see
        :func:`slot_weights`); sharpened by what the opponent was seen doing (:attr:`sweeps`), once per turn."""
        public = observation.public
        opponent_seat = 1 - observation.seat
        watch = self.watch
        if kernel is None or not self.sweeps or watch is None or not watch.turns:
            return slot_weights(observation, hidden, opponent_seat)
        key = (public.round_number, public.turns, public.discard_pile, public.left, public.known)
        if self._guessed is not None and self._guessed[0] == key:
            return self._guessed[1]  # the denial and the races of one decision, and often its pick and placement
        prior = slot_weights(observation, hidden, opponent_seat)
        size = public.rules.deck_size
        known = public.known[opponent_seat]
        slots = [slot for slot in range(RACK_SIZE) if known[slot] is None]
        if not slots or len(hidden) < len(slots):
            return prior
        window = watch.turns[-self.turns_weighed :]
        guess, shares, chances, oldest = kernel.posterior(
            size,
            public.rules.two_player_rule,
            hidden,
            prior,
            self._carried_guess(watch, known, slots, hidden, prior, size),
            slots,
            window,
            self.sweeps,
            0,
            self.opponent_styles(observation, window),
            self.rng.getrandbits(63) & MASK,
        )
        watch.guess = guess
        self.saw_styles(chances, window[0], oldest)
        weights = list(prior)
        for slot in slots:
            row = slot * (size + 1)
            total = sum(prior[row + card] for card in hidden) or 1.0
            for card in hidden:
                weights[row + card] = (1 - self.prior_share) * shares[row + card] + self.prior_share * (
                    prior[row + card] / total
                )
        self._guessed = (key, weights)
        return weights

    def opponent_styles(
        self, observation: Observation, window: list[Turn]
    ) -> list[tuple[int, float, float, float, float, float, float]]:
        """The styles of player the opponent is taken to be, with their chances, as the kernel's ``posterior`` takes
        them: for ``expert`` one, a ``hard``-like player leaning as :attr:`leaning` says."""
        take_spread, place_spread, take_margin = self.leaning
        return [(GAP, 1.0, take_spread, place_spread, take_margin, 0.0, 0.0)]

    def saw_styles(self, chances: list[float], oldest: Turn, likelihoods: list[float]) -> None:
        """What the posterior found about the styles: each one's chance given the turns weighed, and the likelihood
        of the oldest of them under each (``expert`` has one style: nothing to learn)."""

    def _carried_guess(
        self,
        watch: Watch,
        known: tuple[int | None, ...],
        slots: list[int],
        hidden: list[int],
        prior: list[float],
        size: int,
    ) -> list[int]:
        """The sampler's rack from the last decision, with the known cards in place and a fresh draw by the slot
        weights for each hidden slot whose card is no longer a hidden card (or is another slot's)."""
        guess = [card if card is not None else 0 for card in known]
        unseen = set(hidden)
        used: set[int] = set()
        for slot in slots:
            card = watch.guess[slot] if watch.guess is not None else 0
            if card in unseen and card not in used:
                guess[slot] = card
                used.add(card)
        for slot in slots:
            if guess[slot] == 0:
                free = [card for card in hidden if card not in used]
                row = slot * (size + 1)
                guess[slot] = self.rng.choices(free, [prior[row + card] + 1e-12 for card in free])[0]
                used.add(guess[slot])
        return guess

    def valuer(self, observation: Observation, may_come: list[int]) -> RackValuer:
        """The gap model that ranks the candidates, with the cards that may come."""
        public = observation.public
        returning: list[int] = []
        if public.stock_size <= RETURN_HORIZON * public.rules.players:
            # The stock runs out soon: the discard pile under the top card becomes the next stock.
            returning = list(public.discard_pile[:-1])
        counts = counts_below([*may_come, *returning], public.rules.deck_size)
        model = SOLITAIRE_GAPS if public.rules.players == 1 else self.table_gaps(public.rules)
        return RackValuer(counts, public.rules.two_player_rule, model)

    def table_gaps(self, rules: Rules) -> GapModel:
        """The gap model that rates moves at a table of these rules: :data:`TABLE_GAPS`."""
        return TABLE_GAPS

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


def turns_from_draws(draws: float) -> float:
    """The turns, counting this one, that the gap model's cost (in draws) means at a table: measured in play
    between ``expert`` players (2 to 4), a cost of 3 draws is about 2 turns, 10 about 4, 20 about 6, 40 about
    10 (docs/STRENGTH.md).  At a table cards also come from the discard pile, and the gap model overestimates
    long waits."""
    return 1 + TURNS_SCALE * float(max(draws, 0.0) ** TURNS_POWER)


TURNS_SCALE = 0.55
TURNS_POWER = 0.77


def _placed(rack: tuple[int, ...], slot: int, card: int) -> tuple[int, ...]:
    return (*rack[:slot], card, *rack[slot + 1 :])


def _going_out_slot(rack: tuple[int, ...], card: int, rules: Rules) -> int | None:
    """A slot where ``card`` makes the rack qualify for Rack-O, if there is one."""
    return next((slot for slot in range(RACK_SIZE) if qualifies_for_racko(_placed(rack, slot, card), rules)), None)


@dataclass(frozen=True)
class MoveCosts:
    """What a move leaves behind, in draws: the rack's cost by the gap model, plus what the card handed to the next
    player is worth to it, minus :data:`INSURANCE` for a rack whose ordered start alone would win the game."""

    valuer: RackValuer
    denial: tuple[float, ...] = ()
    """Per card (index 0 unused), see :func:`denial_costs`; empty for none."""
    insured_from: int | None = None
    """The ordered start, in cards, that wins the game if somebody else goes out (see :func:`insured_start`)."""

    def rack(self, rack: Sequence[int]) -> float:
        cost = self.valuer.cost(rack)
        return cost - INSURANCE if cost > 0 and self._insured(rack) else cost

    def handed_on(self, card: int) -> float:
        return self.denial[card] if self.denial else 0.0

    def placement(self, rack: tuple[int, ...], slot: int, card: int) -> float:
        """With ``card`` in ``slot``; the card it replaces is handed on (worth nothing if the rack goes out)."""
        after = _placed(rack, slot, card)
        cost = self.valuer.cost(after)
        if cost == 0:
            return 0.0
        return cost - (INSURANCE if self._insured(after) else 0.0) + self.handed_on(rack[slot])

    def best_slot(self, rack: tuple[int, ...], card: int) -> tuple[float, int]:
        return min((self.placement(rack, slot, card), slot) for slot in range(RACK_SIZE))

    def insures(self, rack: Sequence[int]) -> bool:
        """Whether ``rack`` is credited for its ordered start (a rack that goes out needs no insurance)."""
        return self._insured(rack) and self.valuer.cost(rack) > 0

    def _insured(self, rack: Sequence[int]) -> bool:
        return self.insured_from is not None and ordered_prefix(rack) >= self.insured_from


def insured_start(observation: Observation) -> int | None:
    """The match level: the fewest cards of ordered start (from slot 5) that win the game outright if somebody
    else goes out this round, or ``None`` when no start can (far from the target, or a rival's Rack-O could top it).

    Somebody else's Rack-O ends the round with this side at its total plus 5 a card of its ordered start: at the
    target and above what any rival can reach (its total and the highest Rack-O score), that is the game.
    """
    public = observation.public
    rules = public.rules
    side = rules.side_of(observation.seat)
    sides = rules.side_totals(public.totals)
    rivals = [total for other, total in enumerate(sides) if other != side]
    if not rivals:  # alone: nobody else goes out
        return None
    highest_rival = max(rivals) + RACKO_SCORE + (run_bonus(RACK_SIZE) if rules.bonus else 0)
    for cards in range(1, RACK_SIZE + 1):
        total = sides[side] + POINTS_PER_CARD * cards
        if total >= rules.target and total > highest_rival:
            return cards
    return None


def denial_costs(observation: Observation, weight: float) -> tuple[float, ...]:
    """Per card (index 0 unused): the turns it costs to hand it to the next player; empty when that is nobody's
    gain (alone at the table, or the next player is a partner).

    The next player probably wants card ``c`` if the slot where a card of that height belongs has not been
    changed since the deal (nothing was seen leaving it).
    """
    public = observation.public
    rules = public.rules
    following = (observation.seat + 1) % rules.players
    if weight == 0 or following == observation.seat or rules.side_of(following) == rules.side_of(observation.seat):
        return ()
    changed = [bool(cards) for cards in public.left[following]]
    size = rules.deck_size
    wanted = [0.0] * (size + 1)
    for card in range(1, size + 1):
        wanted[card] = weight * (WANTED_SETTLED if changed[bucket_slot(card, size)] else WANTED_OPEN)
    return tuple(wanted)


def calls_now(observation: Observation) -> bool:
    """Bonus Rack-O: call now rather than wait for a longer run?

    Waiting plays on until the run grows, then calls.  Per lap of the table the run
    grows with probability ``p`` (the share of cards that may come and would lengthen
    it, two cards a lap), and with probability ``h`` an opponent goes out first, leaving
    this seat 50 for its ordered rack while the opponent scores; ``h`` rises lap by lap
    (:func:`opponent_hazard`).  The outcomes are compared by the chance they give of
    winning the game (:func:`game_chance`), planned lap by lap from the last lap back,
    at each run length up to six: far from the target that is the same as comparing points;
    near it, a side that is behind needs the long run more and a side ahead calls
    sooner.  Never waits when calling wins the game or an opponent could win it by
    going out.
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
    sides = rules.side_totals(public.totals)
    mine = sides[side]
    rival = max(total for other, total in enumerate(sides) if other != side)
    if mine + RACKO_SCORE + run_bonus(run) >= rules.target:
        return True  # calling reaches the target (and going out, nobody else scores more than 50)
    if rival + RACKO_SCORE >= rules.target:
        return True  # an opponent going out would end the game
    may_come = cards_that_may_come(observation)
    lengthening = sum(1 for card in may_come if _lengthening_slot(rack, card) is not None)
    share = lengthening / len(may_come) if may_come else 0.0
    p = 1 - (1 - share) ** 2  # a lap shows two cards: the previous player's discard, then a draw
    opponents = sum(1 for other in range(rules.players) if rules.side_of(other) != side)
    turns_each = public.turns / rules.players * HAZARD_DECK / rules.deck_size

    def chance(points: int, rival_points: int) -> float:
        return game_chance(mine + points, rival + rival_points, rules.target)

    # An opponent who goes out scores a Rack-O and its run's bonus; one who does not, an ordered start.
    lose = chance(
        ORDERED_SCORE, RACKO_SCORE + (OPPONENT_RUN_BONUS_RULE if rules.two_player_rule else OPPONENT_RUN_BONUS)
    )
    calls = {length: chance(RACKO_SCORE + run_bonus(length), OPPONENT_START) for length in range(run, 7)}
    # best[length]: the chance with that run when deciding at the end of a lap, waiting as long as it pays.
    # Decisions are valued from the last one back, because the hazard rises lap by lap: after WAIT_LAPS laps,
    # call.  Waiting from decision lap - 1 risks the opponents' turns of lap ``lap``.
    best = dict(calls)
    for lap in range(WAIT_LAPS, 0, -1):
        h = 1 - (1 - opponent_hazard(turns_each + lap)) ** opponents
        best = {
            length: max(
                calls[length],
                h * lose + (1 - h) * (p * best[min(length + 1, 6)] + (1 - p) * best[length]),
            )
            for length in calls
        }
    return best[run] <= calls[run]  # now: waiting is worth no more than calling


WAIT_LAPS = 12
"""How many laps ahead a Bonus wait is planned (after that, it calls)."""
OPPONENT_START = 25
"""What an opponent's ordered start scores, about, when this seat goes out."""
OPPONENT_RUN_BONUS_RULE = 56
"""The mean run bonus of a rack that just qualified under the 2-player rule (a run of 3 is required): measured
on 600 rounds of ``expert`` players, runs of 3, 4, 5 and 6 in 89, 9, 1.3 and 0.2 % of them."""
OPPONENT_RUN_BONUS = 10
"""The same without the 2-player rule (3 players, 450 racks): a run of 3 or more in 18 % of them."""
ROUND_POINTS = 70
"""About how many points the leader gains a round, for counting the rounds left (Bonus Rack-O, expert play)."""
ROUND_SPREAD = 100
"""About the spread (standard deviation) of one round's points between two sides in Bonus Rack-O."""


def game_chance(mine: int, rival: int, target: int) -> float:
    """The chance, roughly, that a side with ``mine`` points beats one with ``rival`` in a game to ``target``.

    A normal approximation: the lead against its spread over the rounds still to play (the leader's distance to
    the target at :data:`ROUND_POINTS` a round).  Once a side has reached the target the game is over.
    """
    if max(mine, rival) >= target:
        return 1.0 if mine > rival else 0.0 if mine < rival else 0.5
    rounds_left = (target - max(mine, rival)) / ROUND_POINTS
    return 0.5 * (1 + math.erf((mine - rival) / (ROUND_SPREAD * math.sqrt(2 * (rounds_left + 0.25)))))


HAZARD_DECK = 40
"""The deck size at which :func:`opponent_hazard` was measured; larger decks take proportionally more turns."""


def opponent_hazard(turns_each: float) -> float:
    """The chance that an opponent goes out on its turn, after ``turns_each`` turns each.

    Measured on 600 Bonus Rack-O rounds of two ``expert`` players who never call (2 players, 40 cards): the share
    of racks first qualifying at each turn among those not yet qualified is about 1 % at turn 6, 3.5 % at 7, 8 % at
    8, 12 % at 9, 18 % at 10, 21 % at 11 and 27 % from 12 on; a logistic curve through those points.
    """
    return 0.28 / (1 + math.exp((9.3 - turns_each) / 1.1))


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
