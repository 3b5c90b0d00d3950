"""What every racko environment shares: the rules of a table, an episode (a whole game or its first round), the
rewards, the legal-action masks, where seeds come from, and the text a render shows.

The environments drive the engine through its public API only: a :class:`~racko.Match`, seat observations, the
family's fixed-size action space and the legal-action mask.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from racko.errors import RulesError, UnknownActionError
from racko.families import AnyObservation, AnyRound, family_of
from racko.highlow import HighLowObservation, card_name
from racko.match import Match
from racko.rules import Rules, slot_label, variant

Reward = Literal["game", "round_win", "round_score"]
REWARDS: tuple[Reward, ...] = ("game", "round_win", "round_score")
"""``game``: a whole game, +1 to the winning side's seats and -1 to the others at its end; ``round_win``: one
round, +1 to the side that went Rack-O and -1 to the others (0 to all when the turn cap ended it);
``round_score``: one round, each seat gets its side's points for the round at its end."""

DEFAULT_TURN_CAP = 200
"""Rounds end after this many turns unless a turn cap is given (random play would rarely go Rack-O)."""

Mask = npt.NDArray[np.int8]


def table_rules(variant_name: str, players: int | None, turn_cap: int | None, options: Mapping[str, Any]) -> Rules:
    """The rules of an environment's table; ``options`` are :class:`~racko.Rules` options (``refill``,
    ``target``, ``two_player_rule`` …)."""
    return variant(variant_name).rules(players, **{"turn_cap": turn_cap, **options})


def check_reward(reward: str) -> Reward:
    if reward not in REWARDS:
        raise RulesError(f"Unknown reward {reward!r}; choose one of {', '.join(REWARDS)}.")
    return reward


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class SeedSource:
    """Where each episode's game seed comes from: the seed given to ``reset``, else the next number from a
    generator seeded by the last seed given (by the system's randomness before any), so that a seeded run of
    episodes repeats exactly."""

    def __init__(self) -> None:
        self._generator = random.Random(random.SystemRandom().randrange(2**63))

    def next(self, seed: int | None) -> int:
        if seed is None:
            return self._generator.randrange(2**63)
        self._generator = random.Random(seed)
        return int(seed)


class Episode:
    """One episode on the engine: the whole game (reward ``game``) or only its first round (the round rewards)."""

    def __init__(self, rules: Rules, reward: Reward, seed: int) -> None:
        self.reward = reward
        self.match = Match(rules, seed=seed)
        self.first_round: AnyRound = self.match.round
        self.family = family_of(rules)

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def round(self) -> AnyRound:
        """The round the episode is at (its only round, when it is one round long)."""
        return self.match.round if self.reward == "game" else self.first_round

    @property
    def over(self) -> bool:
        return self.match.over if self.reward == "game" else self.first_round.over

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.round.to_act

    def observation(self, seat: int) -> AnyObservation:
        return self.round.observation(seat)

    def mask(self, seat: int) -> Mask:
        """The legal actions of ``seat`` over the family's action space: all zero unless it is to act."""
        if seat != self.to_act:
            return np.zeros(self.family.action_space_size, dtype=np.int8)
        return np.array(self.round.legal_mask(), dtype=np.int8)

    def play(self, index: object) -> tuple[float, ...]:
        """Apply the action at ``index`` for the seat to act; returns each seat's reward for it.

        An illegal action raises the engine's typed :class:`~racko.IllegalActionError` and changes nothing.
        """
        seat = self.to_act
        if seat is None:
            raise UnknownActionError("The episode is over: no more moves can be made.")
        try:
            number = operator.index(index)  # type: ignore[arg-type]  # numpy integers pass, floats do not
        except TypeError:
            raise UnknownActionError(f"An action is a whole number, not {index!r}.") from None
        self.match.apply(self.family.action_from_index(seat, number))
        return self.rewards() if self.over else (0.0,) * self.rules.players

    def rewards(self) -> tuple[float, ...]:
        """Each seat's reward at the end of the episode (see :data:`REWARDS`)."""
        rules = self.rules
        seats = range(rules.players)
        if self.reward == "game":
            outcome = self.match.outcome
            assert outcome is not None
            return tuple(1.0 if seat in outcome.seats else -1.0 for seat in seats)
        result = self.first_round.result
        assert result is not None
        if self.reward == "round_score":
            sides = rules.side_totals(result.scores)
            return tuple(float(sides[rules.side_of(seat)]) for seat in seats)
        if result.winner is None:
            return (0.0,) * rules.players
        winning_side = rules.side_of(result.winner)
        return tuple(1.0 if rules.side_of(seat) == winning_side else -1.0 for seat in seats)

    def text(self) -> str:
        """The table in words for a render: what everyone sees, and the cards of the seat to act (its own view)."""
        rules, round_ = self.rules, self.round
        view = round_.public_view()
        to_act = self.to_act
        names = [agent_name(seat) for seat in range(rules.players)]
        lines = [
            f"{variant(rules.variant).title} · {rules.players} players · round {view.round_number} · "
            f"turn {view.turns} · {names[to_act] + ' to act' if to_act is not None else 'over'} "
            f"({view.phase.value})",
            "Totals: "
            + ", ".join(f"{name} {total}" for name, total in zip(names, self.match.seat_totals, strict=True))
            + f" (target {rules.target})",
        ]
        top = view.discard_pile[-1] if view.discard_pile else None
        highlow = self.family.name == "highlow"
        shown = card_name if highlow else str
        lines.append(f"Discard pile: {shown(top) if top is not None else '-'} on top · stock: {view.stock_size} cards")
        result = view.result
        if result is not None:
            for seat, rack in enumerate(result.racks):
                lines.append(f"{names[seat]}: {' '.join(shown(card) for card in rack)} → {result.scores[seat]}")
            return "\n".join(lines)
        if to_act is None:
            return "\n".join(lines)
        observation = round_.observation(to_act)
        if isinstance(observation, HighLowObservation):
            for seat, row in enumerate(observation.public.rows):
                lines.append(f"{names[seat]}'s row: {' '.join(card_name(card) for card in row)}")
        else:
            cards = " ".join(f"{slot_label(slot)}:{card}" for slot, card in enumerate(observation.rack))
            lines.append(f"{names[to_act]}'s rack: {cards}")
        if observation.held is not None:
            lines.append(f"{names[to_act]} holds {shown(observation.held)}")
        return "\n".join(lines)
