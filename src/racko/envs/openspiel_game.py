"""Rack-O as an OpenSpiel game (the ``openspiel`` extra): ``import racko.envs.openspiel_game`` registers
``python_racko``, then ``pyspiel.load_game("python_racko", {"variant": "bonus", "players": 3})``.

One round of the classic family (classic, Bonus, Partners; High-Low draws inside the engine's own moves, so it is
not offered here), dealt by seat 0.  Chance is explicit: every card of the deal, every blind draw from the stock,
and the card turned up by a shuffle refill are chance nodes, each uniform over the cards it could be.  A shuffled
stock is drawn card by card: each draw from it is a chance node over the cards of that stock not yet drawn, which
is the same distribution as shuffling it at once (one node with k! outcomes would be unusable).  After a ``flip``
refill the stock's order is public, so its draws are not chance.

The engine's :class:`~racko.Round` takes the whole deck at the deal, so a state keeps the chance outcomes and the
actions, and deals the round again from them (replaying the actions) whenever chance adds a card.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from racko.actions import Action, Discard, DrawFromStock, Exchange, action_from_index, action_index
from racko.envs import encoding
from racko.errors import IllegalActionError
from racko.round import Round
from racko.rules import RACK_SIZE, SLOT_LABELS, Rules, variant

GAME_NAME = "python_racko"
DEALER = 0
ACTIONS = 15
MAX_DECK = 60
MAX_PLAYERS = 4
RESAMPLE_TRIES = 50
"""How many times :meth:`RackoState.resample_from_infostate` deals the unseen cards again before it gives up."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Rack-O (one round of classic, Bonus or Partners Rack-O)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "variant": "classic",
        "players": 2,
        "turn_cap": 200,
        "reward": "round_win",
        "refill": "flip",
    },
)


class RackoGame(pyspiel.Game):  # type: ignore[misc]
    """The game's parameters: ``variant``, ``players``, ``turn_cap``, ``refill`` (``flip`` or ``shuffle``) and
    ``reward``: ``round_win`` (+1 to the side that went Rack-O, -1 to the others, 0 to all at the turn cap) or
    ``round_score`` (each seat its side's points)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_GAME_TYPE.parameter_specification, **(params or {})}
        found = variant(str(settings["variant"]))
        if found.family != "classic":
            raise pyspiel.SpielError(f"{found.title} is not offered in OpenSpiel: its draws happen inside moves.")
        self.rules: Rules = found.rules(
            int(settings["players"]), turn_cap=int(settings["turn_cap"]), refill=str(settings["refill"])
        )
        self.reward = str(settings["reward"])
        if self.reward not in ("round_win", "round_score"):
            raise pyspiel.SpielError(f"Unknown reward {self.reward!r}; use round_win or round_score.")
        cap = self.rules.turn_cap or 0
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=self.rules.deck_size,
            num_players=self.rules.players,
            min_utility=-1.0 if self.reward == "round_win" else 0.0,
            max_utility=1.0 if self.reward == "round_win" else 1000.0,
            utility_sum=None,
            # Three moves a turn at most (Bonus), a blind draw and a refill a turn, and the deal.
            max_game_length=5 * cap + RACK_SIZE * self.rules.players + 1,
        )
        super().__init__(_GAME_TYPE, info, settings)

    def new_initial_state(self) -> RackoState:
        return RackoState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RackoObserver:
        return RackoObserver(self.rules)


class RackoState(pyspiel.State):  # type: ignore[misc]
    """A round in progress: the chance outcomes so far, the actions, and the engine's round dealt from them."""

    def __init__(self, game: RackoGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.reward = game.reward
        self.dealt: list[int] = []
        """The cards of the deal in dealing order, the turned-up card last."""
        self.draws: list[int] = []
        """The cards drawn blind from the stock of the deal, in order."""
        self.refills: list[list[int]] = []
        """Per shuffle refill: its new stock's order as far as chance has decided it (the turned-up card first)."""
        self.refill_piles: list[list[int]] = []
        """Per shuffle refill: the discard pile that was shuffled."""
        self.actions: list[int] = []
        """The players' moves, as indexes of the action space."""
        self.pending: Action | None = None
        """A player's move that waits for chance: a blind draw, or the move that makes a shuffle refill."""
        self._dealt_round = _DealtRound()

    @property
    def round(self) -> Round | None:
        """The engine's round, dealt from the chance outcomes so far (``None`` while the deal goes on)."""
        if len(self.dealt) <= RACK_SIZE * self.rules.players:
            return None
        if self._dealt_round.round is None:
            self._dealt_round.round = self._deal_again()
        return self._dealt_round.round

    # --- Who moves, and what they may do -------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.round is None or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        to_act = self.round.to_act
        assert to_act is not None
        return to_act

    def is_terminal(self) -> bool:
        return self.round is not None and self.round.over

    def _legal_actions(self, player: int) -> list[int]:
        assert self.round is not None
        return [index for index, legal in enumerate(self.round.legal_mask()) if legal]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self._chance_cards()
        return [(card - 1, 1.0 / len(cards)) for card in cards]

    def _chance_cards(self) -> list[int]:
        """The cards the next chance node may give."""
        deck = range(1, self.rules.deck_size + 1)
        if self.round is None:
            return [card for card in deck if card not in self.dealt]
        assert self.pending is not None
        if isinstance(self.pending, DrawFromStock):
            if self.refills:
                return sorted(set(self.refill_piles[-1]) - set(self.refills[-1]))
            return sorted(set(deck) - set(self.dealt) - set(self.draws))
        return sorted(self._pile_after(self.pending))

    def _pile_after(self, action: Action) -> list[int]:
        """The discard pile once ``action`` (an exchange or a discard) has put its card on it."""
        round_ = self.round
        assert round_ is not None
        card = round_.rack(action.seat)[action.slot] if isinstance(action, Exchange) else round_.held
        assert card is not None
        return [*round_.discard_pile, card]

    # --- Moves ---------------------------------------------------------------------------------

    def _apply_action(self, index: int) -> None:
        if self.round is None:
            self.dealt.append(index + 1)
            return
        pending = self.pending
        if pending is not None:
            card = index + 1
            if isinstance(pending, DrawFromStock):
                (self.refills[-1] if self.refills else self.draws).append(card)
            else:
                self.refill_piles.append(self._pile_after(pending))
                self.refills.append([card])
            self.pending = None
            self.actions.append(action_index(pending))
            self._dealt_round.round = None
            return
        to_act = self.round.to_act
        assert to_act is not None
        action = action_from_index(to_act, index)
        if self._waits_for_chance(action):
            self.pending = action
            return
        self.actions.append(index)
        self.round.apply(action)

    def _waits_for_chance(self, action: Action) -> bool:
        round_ = self.round
        assert round_ is not None
        if isinstance(action, DrawFromStock):
            return not round_.public_view().known_stock_order  # after a flip the stock's order is public
        refills = self.rules.refill == "shuffle" and round_.stock_size == 0
        return refills and isinstance(action, Exchange | Discard)

    def _deal_again(self) -> Round:
        """Deal the round from the chance outcomes so far and replay the actions (cards chance has not decided yet
        are put in any order: nobody sees them before chance decides them)."""
        taken = set(self.dealt) | set(self.draws)
        deck = [*self.dealt, *self.draws, *(card for card in range(1, self.rules.deck_size + 1) if card not in taken)]
        orders = [
            [*order, *sorted(set(pile) - set(order))]
            for order, pile in zip(self.refills, self.refill_piles, strict=True)
        ]
        round_ = Round(self.rules, deck, DEALER, rng=_ChosenShuffles(orders))
        for index in self.actions:
            to_act = round_.to_act
            assert to_act is not None
            round_.apply(action_from_index(to_act, index))
        return round_

    def _action_to_string(self, player: int, index: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {index + 1}"
        action = action_from_index(player, index)
        if isinstance(action, Exchange):
            return f"exchange into slot {SLOT_LABELS[action.slot]}"
        return action.describe()

    def returns(self) -> list[float]:
        round_ = self.round
        if round_ is None or round_.result is None:
            return [0.0] * self.rules.players
        result, rules = round_.result, self.rules
        seats = range(rules.players)
        if self.reward == "round_score":
            sides = rules.side_totals(result.scores)
            return [float(sides[rules.side_of(seat)]) for seat in seats]
        if result.winner is None:
            return [0.0] * rules.players
        winning = rules.side_of(result.winner)
        return [1.0 if rules.side_of(seat) == winning else -1.0 for seat in seats]

    def __str__(self) -> str:
        if self.round is None:
            return f"dealing: {len(self.dealt)} cards dealt"
        racks = " | ".join(" ".join(str(card) for card in self.round.rack(seat)) for seat in range(self.rules.players))
        return f"{self.round.phase.value} · discard {self.round.discard_pile[-1:]} · racks {racks}"

    # --- Hidden information ----------------------------------------------------------------------

    def resample_from_infostate(self, player: int, sampler: Any) -> RackoState:
        """A state ``player`` cannot tell from this one: the cards it never saw dealt again among their places.

        The same actions are replayed on the new deal; a deal on which they cannot be replayed (another rack
        would have gone Rack-O earlier) is drawn again, up to :data:`RESAMPLE_TRIES` times, then this state is
        returned.  Under the shuffle refill the order of a reshuffled stock is kept (its cards were all seen).
        """
        generator = random.Random(int(sampler() * 2**52))
        unseen = sorted(set(range(1, self.rules.deck_size + 1)) - self._seen_by(player))
        for _ in range(RESAMPLE_TRIES):
            shuffled = unseen[:]
            generator.shuffle(shuffled)
            moved = dict(zip(unseen, shuffled, strict=True))
            candidate: RackoState = self.clone()
            candidate.dealt = [moved.get(card, card) for card in self.dealt]
            candidate.draws = [moved.get(card, card) for card in self.draws]
            candidate._dealt_round = _DealtRound()
            try:
                candidate.round  # noqa: B018  # deal it now, to find out whether the actions replay on it
            except IllegalActionError:
                continue
            if candidate.is_terminal() == self.is_terminal():
                return candidate
        unchanged: RackoState = self.clone()
        return unchanged

    def _seen_by(self, player: int) -> set[int]:
        if self.round is None:
            return {card for index, card in enumerate(self.dealt) if self._dealt_to(index) == player}
        return set(self.round.observation(player).seen_cards())

    def _dealt_to(self, index: int) -> int | None:
        players = self.rules.players
        if index >= RACK_SIZE * players:
            return None
        return (DEALER + 1 + index) % players


class _ChosenShuffles(random.Random):
    """The generator a round shuffles its refills with: each shuffle gives the next order chance chose."""

    def __init__(self, orders: list[list[int]]) -> None:
        super().__init__(0)
        self._orders = orders

    def shuffle(self, cards: Any) -> None:
        order = self._orders.pop(0)
        assert sorted(order) == sorted(cards)
        cards[:] = order


class _DealtRound:
    """Holds a state's engine round.  OpenSpiel clones a state by deep-copying its attributes; a copy of this
    holds nothing, and the clone deals its round again when it needs it (far cheaper than copying its log)."""

    def __init__(self) -> None:
        self.round: Round | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _DealtRound:
        return _DealtRound()


class RackoObserver:
    """OpenSpiel's view of a player: the vector of :mod:`racko.envs.encoding` and its observation in words."""

    def __init__(self, rules: Rules) -> None:
        self.tensor = np.zeros(encoding.size(rules), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RackoState, player: int) -> None:
        if state.round is None:
            self.tensor.fill(0.0)  # nobody decides during the deal
        else:
            self.tensor[:] = encoding.encode(state.round.observation(player))

    def string_from(self, state: RackoState, player: int) -> str:
        if state.round is None:
            mine = [card for index, card in enumerate(state.dealt) if state._dealt_to(index) == player]
            return f"seat {player} dealt {mine}"
        waiting = " (waiting for chance)" if state.pending is not None else ""
        return repr(state.round.observation(player)) + waiting


pyspiel.register_game(_GAME_TYPE, RackoGame)

__all__ = ["GAME_NAME", "RackoGame", "RackoObserver", "RackoState"]
