"""The stepwise batch simulator: N classic rounds that stop wherever a seat the caller plays is to decide.

>>> import numpy as np
>>> from racko.envs.batch import BatchEnv
>>> env = BatchEnv(4, opponent="easy", seed=7)        # the caller plays seat 0, easy plays seat 1
>>> view = env.reset()
>>> view.rack.shape, view.mask.shape, view.phase.tolist()
((4, 10), (4, 15), [0, 0, 0, 0])
>>> view.mask[0].nonzero()[0].tolist()                # pick: draw (0) or take the top discard (1)
[0, 1]
>>> view, rewards, done = env.step(np.zeros(4, dtype=np.int64))[:3]   # everyone draws
>>> view.phase.tolist(), bool(view.held.all())
([1, 1, 1, 1], True)

See :class:`BatchEnv` for the whole interface and docs/ENVS.md ("Batch simulator").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from racko.actions import ACTION_SPACE_SIZE
from racko.envs.batch import kernel
from racko.envs.batch.simulator import MASK64, Table, policy_codes
from racko.errors import IllegalActionError, RulesError, UnknownActionError
from racko.rules import RACK_SIZE

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]

PICK = kernel.PICK
PLACE = kernel.PLACE
REWARDS = ("round_win", "round_score")
"""``round_win``: +1 to the seat that went Rack-O, -1 to the others, 0 to all when the turn cap ended the round;
``round_score``: each seat's points for the round (75 for Rack-O, else 5 a card up to the first break)."""


@dataclass(frozen=True)
class BatchView:
    """What one seat of each round knows when it is to act (all arrays have the N rounds first).

    Built from that seat's own knowledge only, as in the engine's :class:`racko.Observation`: never the stock's
    order, never another rack's cards except those everyone saw taken from the discard pile (``known``).
    """

    seat: Ints
    """(N,) the seat whose view this is (the seat to act)."""
    rack: Ints
    """(N, 10) its rack, slot 5 first."""
    phase: Ints
    """(N,) 0: pick (draw or take), 1: place (exchange or discard the card in hand)."""
    held: Ints
    """(N,) the card in hand in the place phase, else 0."""
    taken: Flags
    """(N,) the card in hand was taken from the discard pile (it must be placed)."""
    top: Ints
    """(N,) the top discard, 0 when the pile is empty (after a take)."""
    discard_pile: Ints
    """(N, D) the discard pile, bottom card first, zero-padded; ``discard_size`` (N,) cards long."""
    discard_size: Ints
    unseen: Flags
    """(N, D + 1) by card number (index 0 unused): the cards that may still come to this seat — not in its rack, not
    in hand, not on the discard pile, not known in a rack: exactly the pool ``medium`` counts."""
    known: Ints
    """(N, P, 10) every rack's cards that were seen taken from the discard pile (0 where unknown)."""
    stock_size: Ints
    """(N,) cards in the stock."""
    turns: Ints
    """(N,) turns completed in the round."""
    mask: Flags
    """(N, 15) the legal actions over racko.actions' action space (0 draw, 1 take, 2-11 exchange into slot
    index 0-9, 12 discard; Rack-O is automatic in classic rounds, so 13 and 14 are never legal)."""

    @property
    def unseen_count(self) -> Ints:
        """(N,) how many cards may still come."""
        return np.asarray(self.unseen.sum(axis=1), dtype=np.int64)


@dataclass(frozen=True)
class Finished:
    """The rounds that ended during a step (rows where ``done``; other rows hold stale values)."""

    done: Flags
    """(N,) a round ended in this step (the view is already the next round's)."""
    winner: Ints
    """(N,) the seat that went Rack-O, -1 when the turn cap ended the round."""
    turns: Ints
    dealer: Ints
    scores: Ints
    """(N, P) each seat's points for the round."""
    racks: Ints
    """(N, P, 10) the racks at the end (shown to everyone at the end of a round)."""
    unplayed: Ints
    """(N,) rounds dealt afterwards that ended before a caller's seat was to act (counted, not reported)."""

    @property
    def capped(self) -> Flags:
        return np.asarray(self.done & (self.winner < 0))


class BatchEnv:
    """N classic rounds played together; the caller chooses the actions of its seats, table policies play the rest.

    - ``opponent``: the table policy of every other seat, ``"easy"`` (exactly the ``easy`` bot) or ``"medium"``
      (exactly the ``medium`` bot); ``None`` for self-play: the caller acts for every seat (``view.seat`` says
      which seat is to act in each round, and the view is that seat's).
    - ``seat``: the caller's seat when there are opponents.  ``players``, ``deck_size``, ``two_player_rule``,
      ``turn_cap``, ``refill``: the rules (:class:`~racko.envs.batch.Table`; the standard deck, the 2-player rule
      on with two players, the arena's cap of 1000 turns, ``flip`` refills, by default).
    - Round ``i``'s ``k``-th episode is shuffled from a generator of (``seed``, i, k) and dealt by seat
      ``(i + k) % players``: every seat starts in turn, and the same seed gives the same rounds.

    :meth:`reset` and :meth:`step` return a :class:`BatchView` for the seat to act in each round.  A step takes one
    action per round (an index of ``racko.actions``' action space; a turn is two steps: pick, then place); an
    illegal action raises :class:`~racko.errors.IllegalActionError` naming the round, and nothing changes.  Rounds
    reset automatically: when a round ends, the step reports it in :class:`Finished` and the view is already the
    next round's first decision.
    """

    def __init__(
        self,
        count: int,
        *,
        opponent: str | None = "easy",
        seat: int = 0,
        players: int = 2,
        deck_size: int = 0,
        two_player_rule: bool | None = None,
        turn_cap: int = 1000,
        refill: str = "flip",
        reward: str = "round_win",
        seed: int = 0,
    ) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RulesError(f"The number of rounds must be a positive whole number, not {count!r}.")
        self.table = Table(players, deck_size, two_player_rule, turn_cap, refill).resolved()
        if not 0 <= seat < players:
            raise RulesError(f"The caller's seat must be from 0 to {players - 1}, not {seat!r}.")
        if reward not in REWARDS:
            raise RulesError(f"Unknown reward {reward!r}; choose one of {', '.join(REWARDS)}.")
        self.count = count
        self.players = players
        self.deck_size = self.table.deck_size
        self.seat = seat
        self.opponent = opponent
        self.reward = reward
        names = [None if other == seat or opponent is None else opponent for other in range(players)]
        self.policies = policy_codes(names, players)
        self._seed = seed
        shape = (count, self.deck_size)
        self._table = np.zeros((count, kernel.FIELDS), np.int64)
        self._decks = np.zeros(shape, np.int32)
        self._racks = np.zeros((count, players, RACK_SIZE), np.int32)
        self._known = np.zeros((count, players, RACK_SIZE), np.bool_)
        self._pile = np.zeros(shape, np.int32)
        self._stock = np.zeros(shape, np.int32)
        self._states = np.zeros(count, np.uint64)
        self._started = False

    # --- The two calls ---------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> BatchView:
        """Deal every round afresh (``seed``: a new seed) and play on to the caller's first decision in each."""
        if seed is not None:
            self._seed = seed
        self._table[:] = 0
        self._table[:, kernel.EPISODE] = -1
        self._table[:, kernel.PHASE] = kernel.OVER  # so that settling deals episode 0 everywhere
        self._settle(recording=False)
        self._started = True
        return self.view()

    def step(self, actions: npt.ArrayLike) -> tuple[BatchView, npt.NDArray[np.float64], Finished]:
        """Apply one action per round for its seat to act; returns the new view, each round's reward for the seat
        that acted (0 unless its round ended) and what ended.  Rewards of every seat: :meth:`rewards`."""
        if not self._started:
            raise RulesError("Call reset() before step().")
        chosen = np.asarray(actions)
        if chosen.shape != (self.count,) or not np.issubdtype(chosen.dtype, np.integer):
            raise UnknownActionError(f"Give one whole-number action per round: an array of shape ({self.count},).")
        chosen = chosen.astype(np.int64)
        acting = self._table[:, kernel.TO_ACT].copy()
        legal = self._legal_mask(acting)
        inside = (chosen >= 0) & (chosen < ACTION_SPACE_SIZE)
        ok = np.zeros(self.count, np.bool_)
        ok[inside] = legal[np.flatnonzero(inside), chosen[inside]]
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(
                f"Action {int(chosen[bad])} is not legal in round {bad} (seat {int(acting[bad])} may take "
                f"{np.flatnonzero(legal[bad]).tolist()}); nothing was changed."
            )
        kernel.act(
            chosen, self._table, self._racks, self._known, self._pile, self._stock, self._states,
            bool(self.table.two_player_rule), self.table.turn_cap, self.table.refill == "shuffle",
        )  # fmt: skip
        finished = self._settle(recording=True)
        rewards = self.rewards(finished)[np.arange(self.count), acting]
        return self.view(), rewards, finished

    # --- Views ------------------------------------------------------------------------------------------------------

    def view(self) -> BatchView:
        """The seat to act's view of each round."""
        seats = self._table[:, kernel.TO_ACT].copy()
        count, size = self.count, self.deck_size
        rack = np.empty((count, RACK_SIZE), np.int64)
        pile = np.empty((count, size), np.int64)
        known = np.empty((count, self.players, RACK_SIZE), np.int64)
        unseen = np.empty((count, size + 1), np.bool_)
        mask = np.empty((count, ACTION_SPACE_SIZE), np.bool_)
        kernel.observe(seats, self._table, self._racks, self._known, self._pile, rack, pile, known, unseen, mask)
        table = self._table
        sizes = table[:, kernel.PILE_SIZE].copy()
        top = np.where(sizes > 0, pile[np.arange(count), np.maximum(sizes - 1, 0)], 0)
        return BatchView(
            seat=seats,
            rack=rack,
            phase=table[:, kernel.PHASE].copy(),
            held=table[:, kernel.HELD].copy(),
            taken=table[:, kernel.FROM_DISCARD] != 0,
            top=top,
            discard_pile=pile,
            discard_size=sizes,
            unseen=unseen,
            known=known,
            stock_size=table[:, kernel.STOCK_SIZE] - table[:, kernel.STOCK_TOP],
            turns=table[:, kernel.TURNS].copy(),
            mask=mask,
        )

    def rewards(self, finished: Finished) -> npt.NDArray[np.float64]:
        """(N, P) every seat's reward for the rounds that ended (0 elsewhere), by the ``reward`` chosen."""
        out = np.zeros((self.count, self.players), np.float64)
        done = finished.done
        if self.reward == "round_score":
            out[done] = finished.scores[done]
            return out
        won = done & (finished.winner >= 0)
        out[won] = -1.0
        out[np.flatnonzero(won), finished.winner[won]] = 1.0
        return out

    def deal_orders(self) -> Ints:
        """(N, D) each round's deck as it was dealt.  Hidden from every player: for tests and analysis only."""
        return self._decks.astype(np.int64)

    @property
    def dealers(self) -> Ints:
        return self._table[:, kernel.DEALER].copy()

    # --- Inside -----------------------------------------------------------------------------------------------------

    def _legal_mask(self, seats: Ints) -> Flags:
        count, size = self.count, self.deck_size
        mask = np.empty((count, ACTION_SPACE_SIZE), np.bool_)
        kernel.observe(
            seats, self._table, self._racks, self._known, self._pile,
            np.empty((count, RACK_SIZE), np.int64), np.empty((count, size), np.int64),
            np.empty((count, self.players, RACK_SIZE), np.int64), np.empty((count, size + 1), np.bool_), mask,
        )  # fmt: skip
        return mask

    def _settle(self, recording: bool) -> Finished:
        count, players = self.count, self.players
        done = np.zeros(count, np.bool_)
        results = np.zeros((count, 3), np.int64)
        scores = np.zeros((count, players), np.int64)
        racks = np.zeros((count, players, RACK_SIZE), np.int32)
        unplayed = np.zeros(count, np.int64)
        kernel.settle(
            np.uint64(self._seed & MASK64), 0, self._table, self._decks, self._racks, self._known, self._pile,
            self._stock, self._states, self.policies, bool(self.table.two_player_rule), self.table.turn_cap,
            self.table.refill == "shuffle", recording, done, results, scores, racks, unplayed,
        )  # fmt: skip
        return Finished(
            done=done,
            winner=results[:, 0],
            turns=results[:, 1],
            dealer=results[:, 2],
            scores=scores,
            racks=racks.astype(np.int64),
            unplayed=unplayed,
        )


OBSERVED = ("seat", "rack", "phase", "held", "taken", "top", "discard_pile", "discard_size", "unseen", "known",
            "stock_size", "turns")  # fmt: skip
"""The :class:`BatchView` fields a :class:`BatchVectorEnv` observation holds (with ``"action_mask"``)."""


class BatchVectorEnv(gymnasium.vector.VectorEnv):
    """:class:`BatchEnv` as a Gymnasium vector environment (same-step autoreset: the observation after a round ends
    is the next round's; the finished round's figures are in ``infos``).

    Observations are dicts of the :class:`BatchView` arrays (plus ``"action_mask"``); the action space is
    ``racko.actions``' (Discrete(15) per round); the reward is the acting seat's (``reward``: ``round_win`` or
    ``round_score``); a round ended by Rack-O is terminated, one ended by the turn cap truncated.  ``infos`` holds
    ``"action_mask"`` and, for the rounds that ended, ``"winner"``, ``"scores"``, ``"turns"``.  Arguments: those of
    :class:`BatchEnv`, with ``num_envs`` rounds.
    """

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012  # Gymnasium's convention

    def __init__(self, num_envs: int, **options: Any) -> None:
        self.env = BatchEnv(num_envs, **options)
        size, players = self.env.deck_size, self.env.players
        self.num_envs = num_envs
        self.single_action_space = spaces.Discrete(ACTION_SPACE_SIZE)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, ACTION_SPACE_SIZE))
        self.single_observation_space = spaces.Dict(
            {
                "seat": spaces.Discrete(players),
                "rack": spaces.Box(1, size, (RACK_SIZE,), np.int64),
                "phase": spaces.Discrete(2),
                "held": spaces.Discrete(size + 1),
                "taken": spaces.MultiBinary(1),
                "top": spaces.Discrete(size + 1),
                "discard_pile": spaces.Box(0, size, (size,), np.int64),
                "discard_size": spaces.Discrete(size + 1),
                "unseen": spaces.MultiBinary(size + 1),
                "known": spaces.Box(0, size, (players, RACK_SIZE), np.int64),
                "stock_size": spaces.Discrete(size + 1),
                "turns": spaces.Discrete(self.env.table.turn_cap + 1),
                "action_mask": spaces.MultiBinary(ACTION_SPACE_SIZE),
            }
        )
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self._mask = np.zeros((num_envs, ACTION_SPACE_SIZE), np.int8)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        view = self.env.reset(seed)
        return self._observation(view), {"action_mask": self._mask.copy()}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        view, rewards, finished = self.env.step(np.asarray(actions))
        infos: dict[str, Any] = {
            "winner": finished.winner,
            "_winner": finished.done,
            "scores": finished.scores,
            "_scores": finished.done,
            "turns": finished.turns,
            "_turns": finished.done,
        }
        observation = self._observation(view)
        infos["action_mask"] = self._mask.copy()
        return observation, rewards, finished.done & ~finished.capped, finished.capped, infos

    def action_masks(self) -> npt.NDArray[np.int8]:
        """(N, 15) the legal actions of the seat to act in each round."""
        return self._mask.copy()

    def _observation(self, view: BatchView) -> dict[str, Any]:
        self._mask = view.mask.astype(np.int8)
        fields = {name: getattr(view, name) for name in OBSERVED}
        fields["taken"] = view.taken.astype(np.int8)[:, None]
        fields["unseen"] = view.unseen.astype(np.int8)
        fields["action_mask"] = self._mask.copy()
        return fields
