"""``master``: ``expert``, which prices the cards it hands on from a guess of the opponent's hidden rack
(:mod:`racko.bots.guess`), with its best moves checked by racing both seats of a 2-player round to the end.

In a 2-player round (classic rules, with or without the 2-player rule's run of three;
and Bonus Rack-O, where the first rack to qualify usually calls at once) the winner is
whoever goes out first.  From its own observation, besides ``expert``'s one-ply search
with the sampled denial:

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
from dataclasses import replace
from typing import ClassVar

from racko.actions import Action, Discard, DrawFromStock, Exchange, TakeDiscard
from racko.bots.base import register
from racko.bots.expert import ExpertBot, Rating
from racko.bots.guess import MASK, guess_applies, hidden_cards
from racko.bots.guess import kernel as _kernel
from racko.bots.rollout import Candidate, World, estimate, kernel_available
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowObservation
from racko.observation import Observation, Phase
from racko.scoring import qualifies_for_racko


@register
class MasterBot(ExpertBot):
    name = "master"
    level = 5
    description = (
        "expert that races its best moves to the end from guesses of the opponent's hidden rack (2 players): "
        "against hard about 58 % of rounds, with the 2-player rule or without it; alone, about 9.1 turns to Rack-O "
        "(expert 9.3)."
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


def _placed(rack: tuple[int, ...], slot: int, card: int) -> tuple[int, ...]:
    return (*rack[:slot], card, *rack[slot + 1 :])
