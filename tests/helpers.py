"""What the test modules share: the table of variants they run over, a round's whole state, and card counting.

One place for each, so that a suite for one family and a suite for the other check the same things the same way.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import typer

import racko
from racko import CallRacko, Discard, DrawFromStock, Exchange, IllegalActionError, Phase
from racko.families import AnyRound, family_of
from racko.highlow import HighLowRound, KeepOrder, Replace
from racko.tools.arena_commands import register as register_arena_commands

Expected = type[IllegalActionError]

CLASSIC_CASES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "classic-2p": ("classic", 2, {}),
    "classic-2p-no-run-rule": ("classic", 2, {"two_player_rule": False}),
    "classic-3p": ("classic", 3, {}),
    "classic-4p": ("classic", 4, {}),
    "bonus-2p": ("bonus", 2, {}),
    "bonus-3p": ("bonus", 3, {}),
    "bonus-4p": ("bonus", 4, {}),
    "partners": ("partners", 4, {}),
}
"""Every rule set of the classic family the property and fuzz suites play: name -> (variant, players, options)."""

HIGHLOW_CASES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "highlow-3p": ("highlow", 3, {}),
    "highlow-4p-run-bonus": ("highlow", 4, {"bonus": True}),
    "highlow-5p": ("highlow", 5, {}),
}
"""The same for High-Low."""

CASES = {**CLASSIC_CASES, **HIGHLOW_CASES}

CLASSIC_ONLY_BOT = "classic-only"
"""A bot that plays classic Rack-O only, for the tests of refusing a bot a variant: every real level plays every
variant.  Register it with :func:`register_classic_only_bot`."""


def register_classic_only_bot(monkeypatch: pytest.MonkeyPatch) -> str:
    """Make :data:`CLASSIC_ONLY_BOT` known to the registry for one test (``monkeypatch`` takes it away again; a
    worker process forked meanwhile knows it too).  Asked to play High-Low it raises a :class:`RackoError`."""
    from racko.bots import BucketBot
    from racko.bots.base import _REGISTRY
    from racko.families import AnyAction, AnyObservation
    from racko.highlow import HighLowObservation

    class ClassicOnlyBot(BucketBot):
        name = CLASSIC_ONLY_BOT
        variants = frozenset({"classic"})

        def act(self, observation: AnyObservation) -> AnyAction:
            if isinstance(observation, HighLowObservation):
                raise racko.RackoError(f"The {self.name} bot plays classic Rack-O only (not High-Low).")
            return super().act(observation)

    monkeypatch.setitem(_REGISTRY, CLASSIC_ONLY_BOT, ClassicOnlyBot)
    return CLASSIC_ONLY_BOT


def case_rules(name: str, **changes: Any) -> racko.Rules:
    """The rules of a case of :data:`CASES`, with options changed."""
    variant_name, players, options = CASES[name]
    return racko.variant(variant_name).rules(players, **{**options, **changes})


def snapshot(round_: AnyRound) -> tuple[Any, ...]:
    """Everything an action could change, hidden or not (for "an illegal action changes nothing")."""
    seats = range(round_.rules.players)
    return (
        tuple(round_.rack(seat) for seat in seats),
        round_.stock(),
        round_.stock_size,
        round_.discard_pile,
        round_.held,
        round_.phase,
        round_.to_act,
        round_.turns,
        round_.result,
        tuple(round_.log),
        tuple(round_.actions),
        tuple(round_.reshuffles),
        round_.public_view(),
        tuple(round_.observation(seat) for seat in seats),
        tuple(round_.legal_actions()),
        tuple(round_.legal_mask()),
    )


def check_conservation(round_: AnyRound) -> None:
    """Every card is in exactly one place (racks or rows, stock, discard pile, the card in hand), ten to a rack."""
    racks = [round_.rack(seat) for seat in range(round_.rules.players)]
    assert all(len(rack) == racko.RACK_SIZE for rack in racks)
    held = [] if round_.held is None else [round_.held]
    cards = [card for rack in racks for card in rack] + [*round_.stock(), *round_.discard_pile, *held]
    assert Counter(cards) == Counter(type(round_).full_deck(round_.rules)), "every card is in exactly one place"
    assert round_.stock_size == len(round_.stock())


def refusal(call: Callable[[Any], object], action: object) -> IllegalActionError | None:
    """The error ``call(action)`` raises, if any (``pytest.raises`` is too slow for thousands of calls)."""
    try:
        call(action)
    except IllegalActionError as error:
        return error
    return None


def check_legality(game: AnyRound | racko.Match) -> None:
    """legal_actions() is exactly what can() and check() accept over the family's whole action space, for every
    seat; observations list the same actions for the seat to act and none for the others; the mask agrees."""
    family = family_of(game.rules)
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal)
    to_act = game.to_act
    if to_act is None:
        assert legal == []
    assert all(action.seat == to_act for action in legal)
    for seat in range(game.rules.players):
        observation = game.observation(seat)
        assert observation.legal_actions() == (legal if seat == to_act else [])
        for index in range(family.action_space_size):
            action = family.action_from_index(seat, index)
            assert family.action_index(action) == index
            allowed = game.can(action)
            assert allowed == (action in legal), f"can({action}) is {allowed} but legal_actions() is {legal}"
            assert (refusal(game.check, action) is None) == allowed
    mask = game.legal_mask()
    assert len(mask) == family.action_space_size
    assert mask == [to_act is not None and family.action_from_index(to_act, i) in legal for i in range(len(mask))]


class NotAnAction:
    seat = 0
    slot = 0
    position = 0


def _placing(round_: AnyRound, seat: Any, where: Any) -> Any:
    """The family's action that puts a card somewhere (an exchange into a slot, a replacement at a position)."""
    return Replace(seat, where) if isinstance(round_, HighLowRound) else Exchange(seat, where)


def illegal_candidates(round_: AnyRound, rng: random.Random) -> Iterator[tuple[object, Expected]]:
    """Illegal actions for the current state, each with the error it must raise (either family)."""
    family = family_of(round_.rules)
    players = round_.rules.players
    legal = round_.legal_actions()
    if round_.over:
        for seat in range(players):
            for index in range(family.action_space_size):
                yield family.action_from_index(seat, index), racko.RoundOverError
        yield _placing(round_, 0, -1), racko.RoundOverError
        return
    seat = round_.to_act
    assert seat is not None
    for other in range(players):  # the right move by the wrong seat
        if other != seat:
            action = rng.choice(legal)
            yield family.action_from_index(other, family.action_index(action)), racko.NotYourTurnError
    for bad_seat in (-1, players):
        yield family.action_from_index(bad_seat, family.action_index(legal[0])), racko.NotYourTurnError
    for bad_seat in ("0", None, True, 1.0):
        yield _placing(round_, bad_seat, 0), racko.UnknownActionError
    for where in (-1, 10, 11, "3", 3.0, True, None):  # slots and positions that do not exist, whatever the phase
        yield _placing(round_, seat, where), racko.SlotOutOfRangeError
    for index in range(family.action_space_size):  # every other move of the seat to act
        action = family.action_from_index(seat, index)
        if action in legal:
            continue
        expected: type[IllegalActionError] = racko.WrongPhaseError
        if isinstance(action, Discard) and round_.phase is Phase.PLACE:
            assert round_.public_view().taken_discard is not None
            expected = racko.MustPlaceDiscardError
        elif isinstance(action, CallRacko) and round_.phase in (Phase.PICK, Phase.DECLARE):
            assert not racko.qualifies_for_racko(round_.rack(seat), round_.rules)
            expected = racko.NotRackoError
        yield action, expected
    other_family = KeepOrder(seat) if isinstance(round_, racko.Round) else DrawFromStock(seat)
    for thing in (None, "draw", 3, NotAnAction(), (seat, "draw"), other_family):
        yield thing, racko.UnknownActionError


def check_illegal_actions(round_: AnyRound, rng: random.Random, limit: int | None) -> int:
    """Illegal actions raise the typed error they should, the same from check() and apply(), with a reason, and
    change nothing at all; returns how many were tried."""
    candidates = list(illegal_candidates(round_, rng))
    if limit is not None and len(candidates) > limit:
        candidates = rng.sample(candidates, limit)
    before = snapshot(round_)
    for action, expected in candidates:
        assert not round_.can(action)  # type: ignore[arg-type]
        checked = refusal(round_.check, action)
        applied = refusal(round_.apply, action)
        assert isinstance(applied, expected), f"{action!r} raised {applied!r}, expected {expected}"
        assert type(checked) is type(applied)
        assert str(applied), "an illegal action is refused with a reason"
        assert snapshot(round_) == before, f"the illegal {action!r} changed the round"
    return len(candidates)


def arena_app() -> typer.Typer:
    """A Typer app with just the arena's commands (``arena``, ``solo``), as the tests invoke them."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """Test app."""

    register_arena_commands(app)
    return app
