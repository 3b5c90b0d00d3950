"""Rack-O as an OpenSpiel game (the ``openspiel`` extra): ``import racko.envs.openspiel_game`` registers
``python_racko``, then ``pyspiel.load_game("python_racko", {"variant": "bonus", "players": 3})``.

One round of any variant (classic, Bonus, Partners, High-Low), dealt by seat 0.  Chance is explicit: every card
the round takes from the deck (the deal, the card turned up, every blind draw) and from a shuffled stock is a
chance node over the cards it could be, in proportion to their copies.  A shuffled stock is decided card by card
as the round takes its cards: the same distribution as shuffling it at once, where one node would have k!
outcomes.  After a ``flip`` refill the stock's order is public, so its cards are not chance.

The engine's rounds take their whole deck at the deal, and High-Low draws inside its moves; so a state keeps the
chance outcomes and the moves, deals the round again from them (cards chance has not decided are put in any
order), replays the moves, and asks chance whenever the round has taken a card chance has not decided yet.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from racko.envs import encoding
from racko.errors import IllegalActionError
from racko.events import Refilled
from racko.families import AnyRound, family_of
from racko.highlow import SWAP, HighLowView, StockRefilled
from racko.rules import Rules, variant

GAME_NAME = "python_racko"
DEALER = 0
RESAMPLE_TRIES = 50
"""How many times :meth:`RackoState.resample_from_infostate` deals the hidden cards again before it gives up."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Rack-O (one round of any variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
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
        "refill": "variant",
    },
)


class RackoGame(pyspiel.Game):  # type: ignore[misc]
    """The game's parameters: ``variant``, ``players``, ``turn_cap``, ``refill`` (``flip``, ``shuffle``, or
    ``variant``: the variant's own) and ``reward``: ``round_win`` (+1 to the side that went Rack-O, -1 to the
    others, 0 to all at the turn cap) or ``round_score`` (each seat its side's points)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_GAME_TYPE.parameter_specification, **(params or {})}
        options: dict[str, Any] = {"turn_cap": int(settings["turn_cap"])}
        if settings["refill"] != "variant":
            options["refill"] = str(settings["refill"])
        self.rules: Rules = variant(str(settings["variant"])).rules(int(settings["players"]), **options)
        self.reward = str(settings["reward"])
        if self.reward not in ("round_win", "round_score"):
            raise pyspiel.SpielError(f"Unknown reward {self.reward!r}; use round_win or round_score.")
        family = family_of(self.rules)
        highlow = family.name == "highlow"
        cap, players = self.rules.turn_cap or 0, self.rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=family.action_space_size,
            max_chance_outcomes=encoding.CARD_CODES if highlow else self.rules.deck_size,
            num_players=players,
            min_utility=-1.0 if self.reward == "round_win" else 0.0,
            max_utility=1.0 if self.reward == "round_win" else 1000.0,
            utility_sum=None,
            # Classic: three moves a turn at most (Bonus) and a card from chance.  High-Low: a placement and a card,
            # and after a Swap card a decision for everyone.
            max_game_length=(players + 3 if highlow else 5) * cap + self.rules.deck_size,
        )
        super().__init__(_GAME_TYPE, info, settings)

    def new_initial_state(self) -> RackoState:
        return RackoState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RackoObserver:
        return RackoObserver(self.rules)


class RackoState(pyspiel.State):  # type: ignore[misc]
    """A round in progress: the chance outcomes so far, the moves, and the engine's round dealt from them."""

    def __init__(self, game: RackoGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.reward = game.reward
        self.family = family_of(game.rules)
        self.decided: list[list[int]] = [[]]
        """Per source of cards (the deck, then each shuffle refill's stock): the cards chance has decided, in the
        order the round takes them."""
        self.actions: list[int] = []
        """The players' moves, as indexes of the family's action space."""
        self._dealt = _DealtRound()

    # --- The engine's round --------------------------------------------------------------------

    @property
    def round(self) -> AnyRound:
        """The engine's round dealt from the chance outcomes so far, the moves replayed on it."""
        if self._dealt.round is None:
            self._deal_again()
        assert self._dealt.round is not None
        return self._dealt.round

    def _deal_again(self) -> None:
        full = self.family.full_deck(self.rules)
        deck = [*self.decided[0], *sorted((Counter(full) - Counter(self.decided[0])).elements())]
        shuffles = _ChosenShuffles(self.decided[1:])
        round_: AnyRound = self.family.new_round(self.rules, deck, DEALER, rng=shuffles)
        for index in self.actions:
            to_act = round_.to_act
            assert to_act is not None
            round_.apply(self.family.action_from_index(to_act, index))
        self._dealt.round, self._dealt.piles = round_, shuffles.piles

    def _undecided(self) -> tuple[int, Counter[int]] | None:
        """The source of the card the round took that chance has not decided, and the cards it could be."""
        round_ = self.round
        if not self._dealt.checked:
            self._dealt.undecided, self._dealt.checked = self._find_undecided(round_), True
        return self._dealt.undecided

    def _find_undecided(self, round_: AnyRound) -> tuple[int, Counter[int]] | None:
        refills = sum(isinstance(event, Refilled | StockRefilled) for event in round_.log)
        if refills == 0:
            cards = self.family.full_deck(self.rules)
            source = 0
        elif self.rules.refill == "flip":
            return None  # the order of a turned-over pile is public
        else:
            cards = self._dealt.piles[refills - 1]
            source = refills
        taken = len(cards) - round_.stock_size
        decided = self.decided[source] if source < len(self.decided) else []
        if taken <= len(decided):
            return None
        return source, Counter(cards) - Counter(decided)

    # --- Who moves, and what they may do -------------------------------------------------------

    def current_player(self) -> int:
        if self._undecided() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        to_act = self.round.to_act
        return int(pyspiel.PlayerId.TERMINAL) if to_act is None else to_act

    def is_terminal(self) -> bool:
        return self.round.over and self._undecided() is None

    def _legal_actions(self, player: int) -> list[int]:
        return [index for index, legal in enumerate(self.round.legal_mask()) if legal]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        undecided = self._undecided()
        assert undecided is not None
        cards = undecided[1]
        total = cards.total()
        return sorted((self._outcome(card), count / total) for card, count in cards.items())

    def _outcome(self, card: int) -> int:
        return encoding.card_code(card) if self.family.name == "highlow" else card - 1

    def _card(self, outcome: int) -> int:
        if self.family.name != "highlow":
            return outcome + 1
        return SWAP if outcome == encoding.card_code(SWAP) else outcome

    def _apply_action(self, index: int) -> None:
        undecided = self._undecided()
        if undecided is not None:
            source = undecided[0]
            while len(self.decided) <= source:
                self.decided.append([])
            self.decided[source].append(self._card(index))
            self._dealt = _DealtRound()
            return
        to_act = self.round.to_act
        assert to_act is not None
        self.actions.append(index)
        self.round.apply(self.family.action_from_index(to_act, index))
        self._dealt.checked = False

    def _action_to_string(self, player: int, index: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {self._card(index)}"
        described: str = self.family.action_from_index(player, index).describe()
        return described

    def returns(self) -> list[float]:
        rules = self.rules
        result = self.round.result
        if result is None or not self.is_terminal():
            return [0.0] * rules.players
        seats = range(rules.players)
        if self.reward == "round_score":
            sides = rules.side_totals(result.scores)
            return [float(sides[rules.side_of(seat)]) for seat in seats]
        if result.winner is None:
            return [0.0] * rules.players
        winning = rules.side_of(result.winner)
        return [1.0 if rules.side_of(seat) == winning else -1.0 for seat in seats]

    def __str__(self) -> str:
        round_ = self.round
        rows = " | ".join(" ".join(map(str, round_.rack(seat))) for seat in range(self.rules.players))
        waiting = " (chance to decide a card)" if self._undecided() is not None else ""
        return f"{round_.phase.value}{waiting} · discard {round_.discard_pile[-1:]} · racks {rows}"

    # --- Hidden information ----------------------------------------------------------------------

    def resample_from_infostate(self, player: int, sampler: Any) -> RackoState:
        """A state ``player`` cannot tell from this one: the cards it never saw dealt again among their places, and
        the cards of each reshuffled stock that it cannot place now (still in the stock, or drawn blind into another
        rack since) shuffled again among their places in that stock.  (In High-Low every card placed is face up:
        nothing the round has taken is hidden from the player to act.)

        The same moves are replayed on the new deal; a deal on which they cannot be replayed (another rack
        would have gone Rack-O earlier) is drawn again, up to :data:`RESAMPLE_TRIES` times, then this state is
        returned.
        """
        if self.family.name == "highlow":
            same: RackoState = self.clone()
            return same
        generator = random.Random(int(sampler() * 2**52))
        unseen, reshuffled = self._hidden_from(player)
        for _ in range(RESAMPLE_TRIES):
            moved = _moved_among(unseen, generator)
            candidate: RackoState = self.clone()
            candidate.decided = [[moved.get(card, card) for card in self.decided[0]]]
            for order, hidden in zip(self.decided[1:], reshuffled, strict=True):
                within = _moved_among(hidden, generator)
                # The turned-up card was seen where it is; the cards not yet drawn follow the list, in any order.
                candidate.decided.append([order[0], *(within.get(card, card) for card in order[1:])])
            candidate._dealt = _DealtRound()
            try:
                candidate.round  # noqa: B018  # deal it now, to find out whether the moves replay on it
            except IllegalActionError:
                continue
            if candidate.is_terminal() == self.is_terminal():
                return candidate
        unchanged: RackoState = self.clone()
        return unchanged

    def _hidden_from(self, player: int) -> tuple[list[int], list[list[int]]]:
        """The cards ``player`` never saw, and per shuffle refill the cards of that stock it cannot place now."""
        observation = self.round.observation(player)
        assert not isinstance(observation.public, HighLowView)
        public = observation.public
        seen = observation.seen_cards()
        placed = {*observation.rack, *public.discard_pile, *public.known_stock_order}
        placed.update(card for slots in public.known for card in slots if card is not None)
        if observation.held is not None:
            placed.add(observation.held)
        # A seen card that cannot be placed went into a reshuffled stock: the last one whose pile held it.
        last_pile = {card: number for number, pile in enumerate(self._dealt.piles) for card in pile}
        reshuffled: list[list[int]] = [[] for _ in self.decided[1:]]
        for card in sorted(seen - placed):
            if card in last_pile and last_pile[card] < len(reshuffled):
                reshuffled[last_pile[card]].append(card)
        return sorted(set(self.family.full_deck(self.rules)) - seen), reshuffled


def _moved_among(cards: list[int], generator: random.Random) -> dict[int, int]:
    """A random permutation of ``cards``, as where each card goes."""
    shuffled = cards[:]
    generator.shuffle(shuffled)
    return dict(zip(cards, shuffled, strict=True))


class _ChosenShuffles(random.Random):
    """The generator a round shuffles its refills with: each shuffle puts first the cards chance decided for that
    stock, in their order, then the others in any order; it keeps the piles it was given."""

    def __init__(self, decided: list[list[int]]) -> None:
        super().__init__(0)
        self._decided = decided
        self.piles: list[list[int]] = []

    def shuffle(self, cards: Any) -> None:
        chosen = self._decided[len(self.piles)] if len(self.piles) < len(self._decided) else []
        self.piles.append(list(cards))
        cards[:] = [*chosen, *sorted((Counter(cards) - Counter(chosen)).elements())]


class _DealtRound:
    """Holds a state's engine round.  OpenSpiel clones a state by deep-copying its attributes; a copy of this
    holds nothing, and the clone deals its round again when it needs it (far cheaper than copying its log)."""

    def __init__(self) -> None:
        self.round: AnyRound | None = None
        self.piles: list[list[int]] = []
        """The discard piles the round's shuffle refills shuffled."""
        self.checked = False
        self.undecided: tuple[int, Counter[int]] | None = None
        """Once checked: the source and cards of a card the round took that chance has not decided."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _DealtRound:
        return _DealtRound()


class RackoObserver:
    """OpenSpiel's view of a player: the vector of :mod:`racko.envs.encoding` and its observation in words.  While
    chance decides a card nobody decides anything, and the view is empty."""

    def __init__(self, rules: Rules) -> None:
        self.tensor = np.zeros(encoding.size(rules), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RackoState, player: int) -> None:
        if state.is_chance_node():
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encoding.encode(state.round.observation(player))

    def string_from(self, state: RackoState, player: int) -> str:
        if state.is_chance_node():
            return f"seat {player}: chance decides a card"
        return repr(state.round.observation(player))


pyspiel.register_game(_GAME_TYPE, RackoGame)

__all__ = ["GAME_NAME", "RackoGame", "RackoObserver", "RackoState"]
