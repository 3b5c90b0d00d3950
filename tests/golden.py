"""Golden playthroughs: one seeded game per variant, every step written down as each seat saw it.

For every action of the game, the file holds the action, then for every seat (and the spectator) the log lines
that viewer was told since the step before, then the public view once and each seat's private part (its rack and
the card it holds).  ``tests/test_golden.py`` replays the games and compares them byte for byte; the files change
only when this is run as a program, the explicit command::

    .venv/bin/python tests/golden.py

The players are a fixed policy written here (not racko's bots, whose play is meant to change): a bucket policy for
the classic family that waits once a round in Bonus Rack-O, and a position-by-value policy for High-Low.  Seats see
only their observation, as a bot would.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import racko
from racko.highlow import SWAP, WILD, HighLowObservation, KeepOrder, Replace, SwapCards

GOLDEN = Path(__file__).resolve().parent / "golden"

CASES: dict[str, tuple[str, int, dict[str, Any], int]] = {
    # name: (variant, players, options, seed); targets are low so that each game has a few rounds, not ten.
    "classic-2p": ("classic", 2, {"two_player_rule": False, "target": 150}, 11),
    "classic-2p-run-rule": ("classic", 2, {"target": 60, "turn_cap": 30}, 12),
    "classic-3p": ("classic", 3, {"target": 150, "refill": "shuffle"}, 13),
    "classic-4p": ("classic", 4, {"target": 120}, 14),
    "bonus-2p-waiting": ("bonus", 2, {"two_player_rule": False, "target": 150}, 15),
    "bonus-3p-waiting": ("bonus", 3, {"target": 150}, 16),
    "partners": ("partners", 4, {"target": 150}, 17),
    "highlow-3p": ("highlow", 3, {"target": 120}, 18),
    "highlow-4p": ("highlow", 4, {"target": 120, "bonus": True}, 19),
    "highlow-5p": ("highlow", 5, {"target": 100}, 20),
}

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")


def _classic_policy(observation: racko.Observation, waited: set[int]) -> Any:
    """Bucket play: each card has a home slot by value; take or keep a card whose home holds a stranger."""
    seat = observation.seat
    public = observation.public
    legal = observation.legal_actions()
    size = public.rules.deck_size

    def home(card: int) -> int:
        return min(9, (card - 1) * 10 // size)

    def stranger(slot: int) -> bool:
        return home(observation.rack[slot]) != slot

    if legal == [racko.Wait(seat)]:
        return racko.Wait(seat)  # the end of a Bonus turn with nothing to call
    if racko.Wait(seat) in legal:
        if public.round_number not in waited:  # wait once a round, then call
            waited.add(public.round_number)
            return racko.Wait(seat)
        return racko.CallRacko(seat)
    if racko.CallRacko(seat) in legal:
        return racko.CallRacko(seat)
    if public.phase is racko.Phase.PICK:
        top = public.discard_top
        if top is not None and racko.TakeDiscard(seat) in legal and stranger(home(top)):
            return racko.TakeDiscard(seat)
        if racko.DrawFromStock(seat) in legal:
            return racko.DrawFromStock(seat)
        return legal[0]
    held = observation.held
    assert held is not None
    slot = home(held)
    if stranger(slot) or racko.Discard(seat) not in legal:
        return racko.Exchange(seat, slot)
    return racko.Discard(seat)


def _highlow_policy(observation: HighLowObservation) -> Any:
    """Rising rows: a card goes to the position its value points at; after a Swap, fix the first pair out of order."""
    seat = observation.seat
    row = observation.rack
    if observation.held is None and observation.public.passed_card is None:  # a Swap card: swap or keep
        for first in range(9):
            if row[first] not in (WILD, SWAP) and row[first + 1] not in (WILD, SWAP) and row[first] > row[first + 1]:
                return SwapCards(seat, first, first + 1)
        return KeepOrder(seat)
    held = observation.held if observation.held is not None else observation.public.passed_card
    assert held is not None
    if held == WILD:
        for position in range(1, 10):
            neighbours = (row[position - 1], row[position])
            if WILD not in neighbours and SWAP not in neighbours and neighbours[1] < neighbours[0]:
                return Replace(seat, position)
        return Replace(seat, 0)
    return Replace(seat, min(9, (held - 1) // 5))


def _cards(cards: Any) -> str:
    if cards is None:
        return "-"
    return "[" + " ".join("?" if card is None else str(card) for card in cards) + "]"


def _value(value: Any) -> str:
    if isinstance(value, tuple) and value and all(isinstance(part, tuple) for part in value):
        return "{" + " | ".join(_value(part) for part in value) + "}"
    if isinstance(value, tuple):
        return _cards(value)
    if hasattr(value, "value") and hasattr(value, "name"):  # an enum
        return str(value.value)
    return repr(value)


def _public_text(public: Any) -> str:
    fields = [name for name in public._fields if name != "rules"]
    return "; ".join(f"{name}={_value(getattr(public, name))}" for name in fields)


def _private_text(observation: Any) -> str:
    rack = _cards(observation.rack)
    return f"rack={rack} held={observation.held!r}"


def playthrough(case: str) -> str:
    """The golden text of one case: the game played by the fixed policy, step by step, as each viewer saw it."""
    variant_name, players, options, seed = CASES[case]
    rules = racko.variant(variant_name).rules(players, **options)
    match = racko.Match(rules, seed=seed)
    names = list(NAMES[:players])
    viewers: list[int | None] = [*range(players), None]
    told = {viewer: 0 for viewer in viewers}
    waited: dict[int, set[int]] = {seat: set() for seat in range(players)}
    lines = [f"# {case}: {variant_name}, {players} players, seed {seed}", f"rules: {rules.to_dict()}"]

    def write_step(heading: str) -> None:
        lines.append(heading)
        log = match.log
        for viewer in viewers:
            label = "spectator" if viewer is None else f"seat {viewer}"
            for event in log[told[viewer] :]:
                told_line = event.visible_to(viewer).describe(names)
                if told_line:
                    lines.append(f"  {label} told: {told_line}")
            told[viewer] = len(log)
        public = match.public_view()
        lines.append(f"  public: {_public_text(public)}")
        for seat in range(players):
            observation = match.observation(seat)
            if observation.public != public:
                raise AssertionError(f"seat {seat}'s public view differs from the spectator's")
            lines.append(f"  seat {seat}: {_private_text(observation)}")

    write_step("step 0: the deal")
    step = 0
    while not match.over:
        seat = match.to_act
        assert seat is not None
        observation = match.observation(seat)
        if isinstance(observation, HighLowObservation):
            action = _highlow_policy(observation)
        else:
            action = _classic_policy(observation, waited[seat])
        match.apply(action)
        step += 1
        write_step(f"step {step}: {names[seat]} (seat {seat}) chose to {action.describe()}")
    outcome = match.outcome
    assert outcome is not None
    lines.append(f"game over: {outcome}")
    return "\n".join(lines) + "\n"


def path_of(case: str) -> Path:
    return GOLDEN / f"{case}.txt"


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        text = playthrough(case)
        path_of(case).write_text(text, encoding="utf-8")
        print(f"{path_of(case)}: {text.count(chr(10))} lines")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    regenerate()
