"""``master``: ``expert`` with a guess of the opponent's hidden rack, used to price the cards it hands on and to
check its best moves by racing both seats of a 2-player round to the end.

In a 2-player round (classic rules, with or without the 2-player rule's run of three;
and Bonus Rack-O, where the first rack to qualify usually calls at once) the winner is
whoever goes out first.  From its own observation:

- **The opponent's rack, sampled.**  A slot filled from the discard pile holds a
  card everyone saw; the other slots hold cards this seat has not seen.  Each
  sample deals those slots cards it has not seen, each slot weighted by where
  the card should sit (:func:`slot_weights`): a card drawn blind and kept sits
  where it fits between its known neighbours; a dealt card that was never replaced
  may be anything at first, and more and more probably fits as turns go by
  without it being replaced.
- **What the opponent did**, to sharpen that guess (:class:`Watch`, the C kernel
  ``racko.bots._rollout.posterior``): between its own turns this seat reads the
  opponent's last turn from the public view (the discard it was offered, whether it
  took it, which slot changed and what left it, the card it threw away).  A guess of
  the whole hidden rack fixes the rack the opponent held before each of those turns,
  so each guess can be weighed by how likely a ``hard``-like player was to play as it
  did (it takes a discard that lowers its rack's cost, puts a card where the cost is
  lowest; both softened, :attr:`MasterBot.leaning`).  A Gibbs sampler carried from turn
  to turn redraws each hidden slot from slot weight x that likelihood
  (:attr:`MasterBot.sweeps` sweeps a decision); the share of each card in each slot over
  the sweeps, mixed with the slot weights, is what the samples below are dealt by.
- **Sampled denial** (the C kernel ``racko.bots._rollout.wants``): every card is
  offered to each sampled rack played by a ``hard``-like opponent; handing a card on
  costs the draws it saves the opponent, plus :attr:`MasterBot.going_out` draws times
  the chance that it goes out with it.  This replaces ``expert``'s fixed denial cost
  in ``expert``'s one-ply search (:meth:`MasterBot.denial`).
- **Races** (the C kernel ``racko.bots._rollout.race``): ``expert``'s best move and
  a few alternatives are played out from sampled racks; the rest of the unseen
  cards make the stock, in a random order (the known order first after a turned
  over pile); both seats then play a ``medium``-like turn each in turn (take the
  top discard when it lowers the rack's cost, else draw and keep the card where it
  lowers the cost) until one rack is in order.  The card this seat hands on is
  taken by the sampled opponent when it helps, so denial is counted by the races
  themselves.
- **Common random numbers and a guard.**  Every candidate meets the same sampled
  racks and stock orders.  ``expert``'s choice stands unless another candidate wins
  clearly more of the same races: more won-where-expert's-lost than the reverse by
  :attr:`MasterBot.margin` standard errors.  (Play-outs are noisy: ``expert``'s
  earlier play-outs at the table, by turns alone, lost to its one-ply search;
  docs/STRENGTH.md.)

Alone (solitaire) it plays ``expert``'s play-outs with a better player in them, and as
many as each decision needs:

- **The seat in the play-outs** weighs the top discard against the average blind draw
  (``hard``'s rule, :attr:`MasterBot.weighs_draw`) instead of taking it whenever it
  helps; the player the play-outs are made by bounds how good the best move they
  find can be.
- **A race of the candidates** (:meth:`MasterBot.play_out`): the best placements by the
  gap model and keeping the card are played out in batches, the same stock orders for
  all in a batch; one that trails the leader clearly is dropped, so that a plain
  decision costs a few batches and a close one up to :attr:`MasterBot.most_rollouts`
  play-outs.

Bonus Rack-O's call or wait, and the turns spent waiting, are ``expert``'s.  Everywhere
else (3 or more players, Partners, High-Low) it plays as ``expert``; without the
compiled kernel it plays as ``expert`` too.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field, replace
from typing import ClassVar

from racko.actions import Action, Discard, DrawFromStock, Exchange, TakeDiscard
from racko.bots.base import register
from racko.bots.expert import ExpertBot, Rating
from racko.bots.gaps import cards_that_may_come
from racko.bots.rollout import Candidate, World, estimate, kernel_available
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowObservation
from racko.observation import Observation, Phase
from racko.rules import RACK_SIZE
from racko.scoring import qualifies_for_racko

try:  # the compiled kernel; absent when the package was installed without a C compiler
    from racko.bots import _rollout as _kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _kernel = None

MASK = (1 << 64) - 1


@register
class MasterBot(ExpertBot):
    name = "master"
    level = 5
    description = (
        "expert that guesses the opponent's hidden rack from what it took, kept and was seen doing, keeps from it "
        "the cards it would take and races its best moves (2 players): against hard about 58 % of rounds, with the "
        "2-player rule or without it; alone, about 9.1 turns to Rack-O (expert 9.3)."
    )
    races: ClassVar[int] = 200
    """Play-outs per candidate."""
    race_cap: ClassVar[int] = 40
    """Turns per seat after which a race counts as neither won nor lost."""
    margin: ClassVar[float] = 1.5
    """Standard errors by which a candidate must beat ``expert``'s choice in the same races to replace it."""
    placements: ClassVar[int] = 3
    """Exchanges of the card in hand that are raced (``expert``'s best), besides discarding it."""
    race_moves: ClassVar[bool] = True
    """Whether moves are checked by races at all (off: ``expert``'s one-ply search with the sampled denial)."""
    samples: ClassVar[int] = 32
    """Opponent racks sampled to price the cards handed on (:meth:`denial`)."""
    saved_weight: ClassVar[float] = 1.0
    """What a draw saved by the opponent costs this seat, in draws."""
    going_out: ClassVar[float] = 10.0
    """What handing the opponent the card that takes it out costs, in draws."""
    weighs_draw: ClassVar[bool] = True
    """Alone: the seat in the play-outs takes the discard only when that beats the average draw (``hard``'s rule)."""
    batch: ClassVar[int] = 16
    """Alone: play-outs per candidate between two looks at who leads."""
    first_batches: ClassVar[int] = 2
    """Alone: batches played before any candidate is dropped."""
    most_rollouts: ClassVar[int] = 320
    """Alone: play-outs per candidate at most."""
    drop_margin: ClassVar[float] = 2.5
    """Alone: standard errors by which a candidate must trail the leader in the same play-outs to be dropped."""
    sweeps: ClassVar[int] = 8
    """Gibbs sweeps over the guess of the opponent's hidden slots per decision (0: the slot weights alone)."""
    turns_weighed: ClassVar[int] = 8
    """The opponent's last turns whose likelihood weighs a guess."""
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
        if _kernel is not None and races_apply(observation) and self.sweeps:
            assert isinstance(observation, Observation)
            self.watch = watched(self.watch, observation)
        if (
            _kernel is None
            or isinstance(observation, HighLowObservation)
            or not races_apply(observation)
            or observation.public.phase not in (Phase.PICK, Phase.PLACE)
            or qualifies_for_racko(observation.rack, observation.public.rules)
        ):
            return super().act(observation)  # includes Bonus Rack-O's call or wait, and the turns while waiting
        ratings = self.rate(observation)
        best = ratings[0]
        if not self.race_moves or (best.turns <= 1.0 and best.action.kind != DrawFromStock.kind):
            return best.action  # goes out now
        return self.race_choice(observation, ratings)

    def play_out(self, world: World, candidates: list[Candidate], every_move: bool) -> list[float]:
        """Solitaire: the candidates race in batches of play-outs (the same stock orders for all in a batch);
        after :attr:`first_batches`, one that trails the leader clearly (:attr:`drop_margin` standard errors of
        the paired difference) is dropped, until one is left or :attr:`most_rollouts` are played.

        Each estimate is the last leader's mean plus the candidate's mean difference from it in the batches both
        played.  Hints (``every_move``) get ``expert``'s play-outs, and so does a build without the compiled kernel.
        """
        if every_move or len(candidates) < 2 or not kernel_available():
            # Hints, and play-outs in the (much slower) Python reference: expert's.
            return super().play_out(replace(world, weighs_draw=ExpertBot.weighs_draw), candidates, every_move)
        means: list[list[float]] = [[] for _ in candidates]  # per candidate, its mean in each batch it played
        racing = list(range(len(candidates)))
        while len(racing) > 1 and len(means[racing[0]]) * self.batch < self.most_rollouts:
            batch = estimate(world, [candidates[i] for i in racing], self.batch, self.rng.getrandbits(63), self.cap)
            for index, mean in zip(racing, batch, strict=True):
                means[index].append(mean)
            if len(means[racing[0]]) >= self.first_batches:
                racing = self._still_racing(means, racing)
        leader = min(racing, key=lambda index: statistics.fmean(means[index]))
        lead = means[leader]
        result = []
        for own in means:
            shared = len(own)  # a dropped candidate played only the first batches, which the leader played too
            result.append(statistics.fmean(lead) + statistics.fmean(own) - statistics.fmean(lead[:shared]))
        return result

    def _still_racing(self, means: list[list[float]], racing: list[int]) -> list[int]:
        """The racing candidates less those that trail the leader clearly in the batches played so far."""
        leader = min(racing, key=lambda index: statistics.fmean(means[index]))
        kept = []
        for index in racing:
            differences = [own - lead for own, lead in zip(means[index], means[leader], strict=True)]
            spread = statistics.stdev(differences) / math.sqrt(len(differences))
            if index == leader or statistics.fmean(differences) <= self.drop_margin * spread:
                kept.append(index)
        return kept

    def denial(self, observation: Observation) -> tuple[float, ...]:
        """Per card: the draws it costs to hand it to the next player, from sampled racks of that player, else
        ``expert``'s."""
        if _kernel is None or not races_apply(observation) or self.samples < 1:
            return super().denial(observation)
        public = observation.public
        size = public.rules.deck_size
        seat = observation.seat
        receiver = (seat + 1) % public.rules.players
        hidden = hidden_cards(observation)
        receiving = [card or 0 for card in public.known[receiver]]
        mine_unseen = [card for card, shown in zip(observation.rack, public.known[seat], strict=True) if shown is None]
        tallies = _kernel.wants(
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
        if _kernel is None or not self.sweeps or watch is None or not watch.turns:
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
        guess, shares = _kernel.posterior(
            size,
            public.rules.two_player_rule,
            hidden,
            prior,
            self._carried_guess(watch, known, slots, hidden, prior, size),
            slots,
            watch.turns[-self.turns_weighed :],
            self.sweeps,
            0,
            self.leaning,
            self.rng.getrandbits(63) & MASK,
        )
        watch.guess = guess
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

    def race_choice(self, observation: Observation, ratings: list[Rating]) -> Action:
        """``expert``'s best move, unless a raced alternative clearly wins more races."""
        candidates = self._candidates(observation, ratings)
        if len(candidates) < 2:
            return ratings[0].action
        public = observation.public
        opponent_seat = 1 - observation.seat
        known_order = public.known_stock_order
        hidden = hidden_cards(observation)
        opponent = [card or 0 for card in public.known[opponent_seat]]
        weights = self.guess_weights(observation, hidden)
        pile = public.discard_pile if public.phase is Phase.PLACE else public.discard_pile[:-1]
        tallies = _kernel.race(
            public.rules.deck_size,
            public.rules.two_player_rule,
            hidden,
            weights,
            opponent,
            known_order,
            pile,
            [(rack, top, first) for _, rack, top, first in candidates],
            self.races,
            self.rng.getrandbits(63) & MASK,
            self.race_cap,
        )
        chosen, best_edge = 0, 0.0
        for index in range(1, len(candidates)):
            _, _, better, worse = tallies[index]
            edge = better - worse
            if edge > best_edge and edge > self.margin * math.sqrt(better + worse):
                chosen, best_edge = index, edge
        return candidates[chosen][0]

    def _candidates(
        self, observation: Observation, ratings: list[Rating]
    ) -> list[tuple[Action, tuple[int, ...], int, bool]]:
        """``expert``'s best move first, then the alternatives raced: (move, rack after it, top discard after it,
        whether the seat still draws)."""
        rack = observation.rack
        public = observation.public
        result: list[tuple[Action, tuple[int, ...], int, bool]] = []
        exchanges = 0
        for rating in ratings:
            action = rating.action
            if isinstance(action, DrawFromStock):
                result.append((action, rack, public.discard_pile[-1] if public.discard_pile else 0, True))
            elif isinstance(action, TakeDiscard):
                slot = rating.slot
                assert slot is not None
                top = public.discard_pile[-1]
                result.append((action, _placed(rack, slot, top), rack[slot], False))
            elif isinstance(action, Exchange):
                if exchanges >= self.placements:
                    continue
                exchanges += 1
                held = observation.held
                assert held is not None
                result.append((action, _placed(rack, action.slot, held), rack[action.slot], False))
            elif isinstance(action, Discard):
                held = observation.held
                assert held is not None
                result.append((action, rack, held, False))
        return result


def races_apply(observation: AnyObservation) -> bool:
    """Whether the races and the sampled racks model the round: classic 2-player play, with or without the 2-player
    rule (the kernels then ask for a run of three as well), and Bonus Rack-O, where the first rack to qualify
    usually calls at once (the races count it as out; whether to call or wait stays ``expert``'s decision).

    Not with 3 or 4 players: the sampled denial of the next player was measured level with ``expert``'s there
    (docs/STRENGTH.md), and the races play out two seats only.
    """
    if not isinstance(observation, Observation):
        return False
    rules = observation.public.rules
    return rules.players == 2 and not rules.partners


def hidden_cards(observation: Observation) -> list[int]:
    """The cards whose place this seat does not know: those that may come, less a turned-over stock's known order."""
    known_order = set(observation.public.known_stock_order)
    return [card for card in cards_that_may_come(observation) if card not in known_order]


Turn = tuple[int, int, int, int, int, list[int]]
"""One turn of the opponent as the kernel reads it: (the discard it was offered or 0, whether it took it, the slot
that changed or -1, the card that left it or 0, the card it held when that is public or 0, the cards it saw face
up)."""


@dataclass
class Watch:
    """What this seat saw the opponent do in the current round, read between its own turns."""

    round_number: int
    turns_seen: int = -1
    """The round's turn count at this seat's last pick (-1: none yet)."""
    lefts: tuple[int, ...] = (0,) * RACK_SIZE
    """How many cards had left each of the opponent's slots then."""
    turns: list[Turn] = field(default_factory=list)
    """The opponent's turns read since the last gap in what this seat could follow, oldest first."""
    guess: list[int] | None = None
    """The sampler's rack after the last decision (the opponent's known cards and a guess for each hidden slot)."""


def watched(watch: Watch | None, observation: Observation) -> Watch:
    """``watch`` brought up to ``observation`` (2 players): at each of this seat's picks, the opponent's turn since
    the last one is read and added.  A new round starts a new watch; a turn that cannot be read (the discard pile
    was turned over, or this seat did not see the turn before) starts the list of turns again."""
    public = observation.public
    opponent_seat = 1 - observation.seat
    if watch is None or watch.round_number != public.round_number or public.turns < watch.turns_seen:
        watch = Watch(public.round_number)
    if public.phase is not Phase.PICK or watch.turns_seen == public.turns:
        return watch
    lefts = tuple(len(cards) for cards in public.left[opponent_seat])
    follows = watch.turns_seen < 0 or public.turns == watch.turns_seen + 2
    turn = read_turn(observation, watch.lefts) if follows and public.turns > 0 else None
    if turn is None:
        watch.turns = []
    else:
        watch.turns.append(turn)
    watch.lefts = lefts
    watch.turns_seen = public.turns
    return watch


def read_turn(observation: Observation, lefts_before: tuple[int, ...]) -> Turn | None:
    """The opponent's turn just played, from this seat's view at its pick and how many cards had left each of the
    opponent's slots before it; ``None`` when the view does not tell (a turned-over pile, or more than one change).

    The opponent took the top discard when the slot that changed now holds a known card; otherwise it drew, and the
    card it was offered lies under its discard.  When no slot changed, it threw away the card it drew.
    """
    public = observation.public
    if public.turned_over_pile is not None:
        return None
    opponent_seat = 1 - observation.seat
    pile = public.discard_pile
    mine = {card for card in public.known[observation.seat] if card is not None}
    lefts = [len(cards) for cards in public.left[opponent_seat]]
    changed = [slot for slot in range(RACK_SIZE) if lefts[slot] != lefts_before[slot]]
    if not changed:
        if len(pile) < 2:
            return None
        return (pile[-2], 0, -1, 0, pile[-1], sorted({*pile[:-1], *mine}))
    if len(changed) != 1 or lefts[changed[0]] != lefts_before[changed[0]] + 1:
        return None
    slot = changed[0]
    left = public.left[opponent_seat][slot][-1]
    taken = public.known[opponent_seat][slot]
    if taken is not None:
        return (taken, 1, slot, left, taken, sorted({*pile[:-1], taken, *mine}))
    if len(pile) < 2:
        return None
    return (pile[-2], 0, slot, left, 0, sorted({*pile[:-1], *mine}))


def turns_taken(observation: Observation, seat: int) -> int:
    """The turns ``seat`` has played in this round (the player after the dealer plays first)."""
    public = observation.public
    players = public.rules.players
    position = (seat - public.dealer - 1) % players
    return max(0, (public.turns - position + players - 1) // players)


DRAWN_SPREAD = 1.0
"""The spread of a card drawn blind and kept, in slot widths around where it fits between its known neighbours."""
DEALT_SETTLING = 0.12
"""Per opponent turn, how much more a dealt card that was never replaced is taken to fit where it sits."""
DEALT_SETTLED = 0.8
"""At most that much."""


def slot_weights(observation: Observation, hidden: list[int], opponent_seat: int) -> list[float]:
    """Per slot of ``opponent_seat``'s rack, per card (``deck_size + 1`` each, card 0 unused): how likely the card is
    to be in that slot, up to a factor.  Only the hidden slots' rows are read."""
    public = observation.public
    size = public.rules.deck_size
    known = public.known[opponent_seat]
    left = public.left[opponent_seat]
    settled = min(DEALT_SETTLED, DEALT_SETTLING * turns_taken(observation, opponent_seat))
    weights = [0.0] * (RACK_SIZE * (size + 1))
    for slot in range(RACK_SIZE):
        if known[slot] is not None:
            continue
        below_slot, below = -1, 0
        for other in range(slot - 1, -1, -1):
            card = known[other]
            if card is not None:
                below_slot, below = other, card
                break
        above_slot, above = RACK_SIZE, size + 1
        for other in range(slot + 1, RACK_SIZE):
            card = known[other]
            if card is not None:
                above_slot, above = other, card
                break
        width = (above - below) / (above_slot - below_slot)
        if width <= 0:  # known neighbours out of order: no guidance from them
            below_slot, below, above_slot, above = -1, 0, RACK_SIZE, size + 1
            width = (size + 1) / (RACK_SIZE + 1)
        centre = below + width * (slot - below_slot)
        spread = max(1.0, DRAWN_SPREAD * width)
        fits = 1.0 if left[slot] else settled
        row = slot * (size + 1)
        for card in hidden:
            fit = math.exp(-0.5 * ((card - centre) / spread) ** 2)
            weights[row + card] = (1 - fits) + fits * fit
    return weights


def _placed(rack: tuple[int, ...], slot: int, card: int) -> tuple[int, ...]:
    return (*rack[:slot], card, *rack[slot + 1 :])
