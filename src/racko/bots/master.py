"""``master``: ``expert``, with its 2-player moves rated by the chance to win against a model of the opponent it meets
(a guess of its hidden rack, :mod:`racko.bots.guess`, and of its style), the best checked by races.

In a 2-player round (classic rules, with or without the 2-player rule's run of three;
and Bonus Rack-O, where the first rack to qualify usually calls at once) the winner is
whoever goes out first.  From its own observation:

- **One model of the opponent met** (:mod:`racko.bots.opponents`): a mixture of styles of
  player (gap, band, sequence), each style's chance for this opponent learnt from the
  turns watched over the match; the guess of the hidden rack (the kernel's ``posterior``),
  the rating and the races all deal with the opponent through it.
- **The chance to win as the measure** (:mod:`racko.bots.win_chance`, the kernel's
  ``rate``): every legal move is rated over :attr:`MasterBot.judged` sampled opponents (a
  rack by the guess, a style by the belief), the opponent to move with the card handed
  on, which it takes as its style would; a blind draw by each card it may bring, put
  where it rates best.  This replaces ``expert``'s draws and hand-set denial weights.
- **Races cut at a horizon** (the kernel's ``race``): the best :attr:`MasterBot.raced`
  moves are raced :attr:`MasterBot.races` times from the same samples and stock orders,
  both seats playing :attr:`MasterBot.horizon` turns each (the opponent as its sampled
  style), the leaf scored by the chance to win; the best rated move stands unless another
  beats it by :attr:`MasterBot.margin` standard errors of the paired difference.

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
from dataclasses import dataclass, replace
from typing import ClassVar

from racko.actions import Action, Discard, DrawFromStock, Exchange, TakeDiscard
from racko.bots.base import register
from racko.bots.expert import ExpertBot
from racko.bots.gaps import cards_that_may_come
from racko.bots.guess import MASK, Turn, guess_applies, hidden_cards
from racko.bots.guess import kernel as _kernel
from racko.bots.opponents import GAP, StyleBelief, fitted_styles
from racko.bots.rollout import Candidate, World, estimate, kernel_available
from racko.bots.win_chance import fitted_chance
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowObservation
from racko.observation import Observation, Phase
from racko.rules import RACK_SIZE
from racko.scoring import qualifies_for_racko


@register
class MasterBot(ExpertBot):
    name = "master"
    level = 5
    description = (
        "expert that rates its moves by the chance to win against a model of the opponent it meets, and races the "
        "best (2 players): against hard about 57 % of rounds; alone, about 9.1 turns to Rack-O (expert 9.3)."
    )
    race_cap: ClassVar[int] = 40
    """Turns per seat after which a race to the end counts as neither won nor lost (the review's races,
    :mod:`racko.analysis.evaluate`)."""
    judged: ClassVar[int] = 48
    """2 players: sampled opponents (rack and style) every move is rated over (:meth:`rate_by_chance`)."""
    races: ClassVar[int] = 64
    """2 players: races per candidate (the same samples and stock orders for all)."""
    horizon: ClassVar[int] = 3
    """2 players: turns per seat after which a race is cut and scored by the chance to win."""
    raced: ClassVar[int] = 5
    """2 players: candidates raced, the best by the rating."""
    margin: ClassVar[float] = 1.0
    """2 players: standard errors of the paired difference by which a raced candidate must beat the best rated to
    replace it (1.5 until 2026-11-30; 1.0 won 1.6 points more against ``hard`` over 2,000 paired deals:
    docs/STRENGTH.md)."""
    race_moves: ClassVar[bool] = True
    """2 players: whether the best rated moves are checked by races at all."""
    styles_weighed: ClassVar[bool] = True
    """2 players: whether the opponent is a mixture of styles (off: a ``hard``-like player, as for ``expert``)."""
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

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._belief: StyleBelief | None = None
        self._oldest: tuple[Turn, list[float]] | None = None

    def act(self, observation: AnyObservation) -> AnyAction:
        self.follow(observation)
        if (
            _kernel is None
            or isinstance(observation, HighLowObservation)
            or not guess_applies(observation)
            or observation.public.phase not in (Phase.PICK, Phase.PLACE)
            or qualifies_for_racko(observation.rack, observation.public.rules)
        ):
            return super().act(observation)  # includes Bonus Rack-O's call or wait, and the turns while waiting
        assert isinstance(observation, Observation)
        rated = self.rate_by_chance(observation)
        if not self.race_moves or rated[0].chance >= 1.0:
            return rated[0].action  # goes out now, or no races
        return self.race_choice(observation, rated)

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

    # --- 2 players: the opponent met, and the chance to win --------------------------------------------------------

    def belief(self, observation: Observation) -> StyleBelief:
        """How likely each style is for the opponent of this match (:mod:`racko.bots.opponents`), kept across its
        rounds."""
        rule = observation.public.rules.two_player_rule
        if self._belief is None or self._belief.styles != fitted_styles(rule):
            self._belief = StyleBelief(fitted_styles(rule))
            self._oldest = None
        if self._belief.round_number != observation.public.round_number:
            self._belief.new_round(observation.public.round_number)
            self._oldest = None
        return self._belief

    def opponent_styles(
        self, observation: Observation, window: list[Turn]
    ) -> list[tuple[int, float, float, float, float, float, float]]:
        """The mixture of styles, with a turn that left the window weighed folded into the belief first."""
        if not self.styles_weighed:
            return super().opponent_styles(observation, window)
        belief = self.belief(observation)
        if self._oldest is not None:
            oldest, likelihoods = self._oldest
            if not any(turn is oldest for turn in window):
                belief.fold(likelihoods)
            self._oldest = None
        return belief.kernel_rows()

    def saw_styles(self, chances: list[float], oldest: Turn, likelihoods: list[float]) -> None:
        if self.styles_weighed and self._belief is not None:
            self._belief.seen(chances)
            self._oldest = (oldest, likelihoods)

    def current_styles(self, observation: Observation) -> list[tuple[int, float, float, float, float, float, float]]:
        """The styles with their chances now (given the turns weighed at this decision), as the kernel takes them."""
        if not self.styles_weighed:
            take_spread, place_spread, take_margin = self.leaning
            return [(GAP, 1.0, take_spread, place_spread, take_margin, 0.0, 0.0)]
        belief = self.belief(observation)
        return [style.kernel_row(chance) for style, chance in zip(belief.styles, belief.current(), strict=True)]

    def rate_by_chance(self, observation: Observation) -> list[Judged]:
        """Every legal move by this seat's chance to win after it, best first: over :attr:`judged` sampled opponents
        (a rack dealt by the guess, a style by the belief), the opponent to move with the card handed on before it,
        which it takes as its style would (:func:`racko.bots.win_chance`, the kernel's ``rate``).  A blind draw is
        rated by each card it may bring, put where it rates best."""
        public = observation.public
        seat = observation.seat
        rack = observation.rack
        legal = observation.legal_actions()
        positions: list[tuple[tuple[int, ...], int, int]] = []
        moves: list[tuple[Action, int | None, int]] = []  # (move, slot, card drawn) per position
        if public.phase is Phase.PICK:
            top = public.discard_pile[-1] if public.discard_pile else 0
            if top and TakeDiscard(seat) in legal:
                for slot in range(RACK_SIZE):
                    positions.append((_placed(rack, slot, top), rack[slot], 0))
                    moves.append((TakeDiscard(seat), slot, 0))
            if DrawFromStock(seat) in legal:
                upcoming = public.known_stock_order[:1] or tuple(cards_that_may_come(observation))
                for card in upcoming:
                    for slot in range(RACK_SIZE):
                        positions.append((_placed(rack, slot, card), rack[slot], card))
                        moves.append((DrawFromStock(seat), slot, card))
                    positions.append((rack, card, card))
                    moves.append((DrawFromStock(seat), None, card))
        else:
            held = observation.held
            assert held is not None
            for slot in range(RACK_SIZE):
                positions.append((_placed(rack, slot, held), rack[slot], 0))
                moves.append((Exchange(seat, slot), slot, 0))
            if Discard(seat) in legal:
                positions.append((rack, held, 0))
                moves.append((Discard(seat), None, 0))
        values = self._chances(observation, positions)
        judged: list[Judged] = []
        drawn: dict[int, tuple[float, int, int | None]] = {}  # card -> (best chance, samples, its slot)
        for (action, where, card), (total, samples) in zip(moves, values, strict=True):
            chance = total / samples if samples else 0.0
            if card:
                best = drawn.get(card)
                if best is None or chance > best[0]:
                    drawn[card] = (chance, samples, where)
            else:
                judged.append(Judged(action, chance, where))
        if drawn:
            weight = sum(samples for _, samples, _ in drawn.values())
            chance = sum(value * samples for value, samples, _ in drawn.values()) / weight if weight else 0.0
            judged.append(Judged(DrawFromStock(seat), chance, None))
        judged.sort(key=lambda entry: -entry.chance)  # stable: the order above among equals
        return judged

    def _chances(
        self, observation: Observation, positions: list[tuple[tuple[int, ...], int, int]]
    ) -> list[tuple[float, int]]:
        """The kernel's ``rate`` of ``positions`` (rack after, card handed on, card drawn) for this observation."""
        public = observation.public
        seat = observation.seat
        opponent_seat = 1 - seat
        hidden = hidden_cards(observation)
        unseen = [card for card, shown in zip(observation.rack, public.known[seat], strict=True) if shown is None]
        result: list[tuple[float, int]] = _kernel.rate(
            public.rules.deck_size,
            public.rules.two_player_rule,
            hidden,
            self.guess_weights(observation, hidden),
            [card or 0 for card in public.known[opponent_seat]],
            self.current_styles(observation),
            unseen,
            cards_that_may_come(observation),
            positions,
            self.judged,
            self.rng.getrandbits(63) & MASK,
            fitted_chance(public.rules.two_player_rule).kernel_row(),
        )
        return result

    def race_choice(self, observation: Observation, rated: list[Judged]) -> Action:
        """The best rated move, unless a raced alternative clearly wins more: races of both seats cut after
        :attr:`horizon` turns each and scored by the chance to win, the opponent playing its sampled style."""
        candidates = self._candidates(observation, rated)
        if len(candidates) < 2:
            return rated[0].action
        public = observation.public
        hidden = hidden_cards(observation)
        pile = public.discard_pile if public.phase is Phase.PLACE else public.discard_pile[:-1]
        tallies = _kernel.race(
            public.rules.deck_size,
            public.rules.two_player_rule,
            hidden,
            self.guess_weights(observation, hidden),
            [card or 0 for card in public.known[1 - observation.seat]],
            public.known_stock_order,
            pile,
            [(rack, top, first) for _, rack, top, first in candidates],
            self.races,
            self.rng.getrandbits(63) & MASK,
            self.horizon,
            None,
            self.current_styles(observation),
            fitted_chance(public.rules.two_player_rule).kernel_row(),
            self.horizon,
        )
        chosen, best_edge = 0, 0.0
        for index in range(1, len(candidates)):
            _, _, _, _, _, total, squares = tallies[index]
            mean = total / self.races
            spread = math.sqrt(max(squares / self.races - mean * mean, 0.0) / self.races)
            if mean > best_edge and mean > self.margin * spread:
                chosen, best_edge = index, mean
        return candidates[chosen][0]

    def _candidates(
        self, observation: Observation, rated: list[Judged]
    ) -> list[tuple[Action, tuple[int, ...], int, int]]:
        """The best rated moves (at most :attr:`raced`), as races start from them: (move, rack after it, top discard
        after it, whether the seat still draws)."""
        rack = observation.rack
        public = observation.public
        result: list[tuple[Action, tuple[int, ...], int, int]] = []
        for judged in rated[: self.raced]:
            action = judged.action
            if isinstance(action, DrawFromStock):
                result.append((action, rack, public.discard_pile[-1] if public.discard_pile else 0, 1))
            elif isinstance(action, TakeDiscard):
                assert judged.slot is not None
                top = public.discard_pile[-1]
                result.append((action, _placed(rack, judged.slot, top), rack[judged.slot], 0))
            elif isinstance(action, Exchange):
                held = observation.held
                assert held is not None
                result.append((action, _placed(rack, action.slot, held), rack[action.slot], 0))
            elif isinstance(action, Discard):
                held = observation.held
                assert held is not None
                result.append((action, rack, held, 0))
        return result


@dataclass(frozen=True)
class Judged:
    """A move with this seat's chance to win after it; for taking the discard, the slot it goes to."""

    action: Action
    chance: float
    slot: int | None = None


def _placed(rack: tuple[int, ...], slot: int, card: int) -> tuple[int, ...]:
    return (*rack[:slot], card, *rack[slot + 1 :])
