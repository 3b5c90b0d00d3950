"""Build tests/hint_positions.json, the positions of tests/test_hint_truth.py, from seeded games of the computer
players: every level in classic Rack-O (two players, the 2-player rule), several in Bonus Rack-O and High-Low, and
classic at three players and alone (where hints are measured in turns).

    .venv/bin/python tests/make_hint_positions.py

The games' records travel with the positions, so that the tests replay each position whatever the computer players
become.  What each position must and must not say follows from the position itself, found here without the
explaining code's sentences: a pair side by side whose third card cannot come (it is in the rack, on the pile, seen
in another rack, or the pair stands against slot 5 or slot 50); a card put into a slot whose card was already in the
order kept; a move that completes the rack.  Every position is also held to the checks every hint must pass
(tests/test_hint_truth.py).
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any

from racko import bots
from racko.actions import Exchange, TakeDiscard
from racko.analysis.evaluate import placed
from racko.analysis.explain import order_chain
from racko.bots.gaps import cards_that_may_come
from racko.families import family_of
from racko.match import Match
from racko.observation import Observation
from racko.record import GameRecord
from racko.rules import RACK_SIZE, variant
from racko.scoring import qualifies_for_racko

OUT = Path(__file__).with_name("hint_positions.json")
TURN_CAP = 200
"""Turns after which a round of weak players ends without a winner (random players seldom go out)."""
GAMES = (
    # (variant, players, level, seed)
    *(
        ("classic", 2, level, seed)
        for level in ("random", "easy", "medium", "hard", "expert", "master")
        for seed in (1, 2)
    ),
    *(("bonus", 2, level, 3) for level in ("random", "easy", "hard", "master")),
    *(("highlow", 3, level, 4) for level in ("random", "expert")),
    ("classic", 3, "medium", 5),
    ("classic", 1, "expert", 6),
)
PER_FEATURE = 2
"""Positions kept per game for each thing a position may show (a run that cannot grow, a slot already in order, a
move that completes the rack)."""
PLAIN = 2
"""Positions kept per game that show none of them (twice as many in High-Low, where none applies)."""


def impossible(observation: Observation, card: int) -> bool:
    """A card that cannot come from the seat's view: in its rack or hand, on the pile, seen in another rack."""
    public = observation.public
    known = {seen for rack in public.known for seen in rack if seen is not None}
    return (
        not 1 <= card <= public.rules.deck_size
        or card in observation.rack
        or card == observation.held
        or card in public.discard_pile
        or card in known
    )


def placements(observation: Observation) -> list[tuple[dict[str, Any], int, int]]:
    """Each placement of the decision (an exchange, or the top discard taken to a slot): the move as records write
    it, the slot, the card."""
    public = observation.public
    family = family_of(public.rules)
    found = []
    for action in observation.legal_actions():
        if isinstance(action, Exchange):
            assert observation.held is not None
            found.append((family.action_to_json(action), action.slot, observation.held))
        elif isinstance(action, TakeDiscard) and public.discard_pile:
            found.extend((family.action_to_json(action), slot, public.discard_pile[-1]) for slot in range(RACK_SIZE))
    return found


def checks(observation: Observation) -> dict[str, list[dict[str, Any]]]:
    """What the position's moves must and must not say, by the feature that calls for it."""
    public = observation.public
    rules = public.rules
    rack = observation.rack
    kept = order_chain(rack, cards_that_may_come(observation), rules.deck_size)
    found: dict[str, list[dict[str, Any]]] = {"run": [], "kept": [], "completes": []}
    for move, slot, card in placements(observation):
        after = placed(rack, slot, card)
        check: dict[str, Any] = {"move": move, "slot": slot, "must": [], "must_not": []}
        if qualifies_for_racko(after, rules):
            check["must"].append({"key": "why:goes-out" if rules.auto_racko else "why:may-call"})
            check["must_not"].append({"key": "why:start-grows"})
            found["completes"].append(check)
            continue
        if slot in kept and rack[slot] != card:
            check["must_not"].append({"key_prefix": "why:fits-"})
            found["kept"].append(check)
        if rules.two_player_rule:
            for index in range(RACK_SIZE - 1):
                low, high = after[index], after[index + 1]
                if high != low + 1:
                    continue
                cannot = []
                if index == 0 or impossible(observation, low - 1):
                    cannot.append(("below", low - 1))
                if index + 1 == RACK_SIZE - 1 or impossible(observation, high + 1):
                    cannot.append(("above", high + 1))
                for side, wanted in cannot:
                    pair = {"low": low, "high": high}
                    check["must_not"].append({"key": "why:run-near", "values": {**pair, side: wanted}})
                    check["must_not"].append({"key": "why:run-near-one", "values": {**pair, "wanted": wanted}})
                if cannot:
                    found["run"].append(check)
    return found


def play(variant_name: str, players: int, level: str, seed: int) -> tuple[GameRecord, list[dict[str, Any]]]:
    """One round between computer players of ``level``, and the positions kept from it."""
    rules = variant(variant_name).rules(players, target=1, turn_cap=TURN_CAP)
    match = Match(rules, seed=seed)
    seats = [bots.create(level, seed=seed * 10 + seat) for seat in range(players)]
    chosen: dict[str, list[dict[str, Any]]] = {"run": [], "kept": [], "completes": [], "plain": []}
    while not match.over:
        seat = match.to_act
        assert seat is not None
        view = match.observation(seat)
        if len(view.legal_actions()) > 1:
            position = {"action": len(match.actions), "seat": seat, "checks": []}
            if isinstance(view, Observation):
                found = checks(view)
                wanted = [feature for feature, some in found.items() if some and len(chosen[feature]) < PER_FEATURE]
                if wanted:
                    every = [check for some in found.values() for check in some[:2]]
                    for feature in wanted:
                        chosen[feature].append({**position, "checks": every})
                elif len(chosen["plain"]) < PLAIN:
                    chosen["plain"].append(position)
            elif len(chosen["plain"]) < 2 * PLAIN:
                chosen["plain"].append(position)
        match.apply(seats[seat].act(view))
    record = GameRecord.of(match, players=tuple(f"{level} {seat + 1}" for seat in range(players)))
    unique = {position["action"]: position for position in itertools.chain.from_iterable(chosen.values())}
    kept = [unique[action] for action in sorted(unique)]
    return record, kept


def main() -> None:
    games = []
    positions = []
    for number, (variant_name, players, level, seed) in enumerate(GAMES):
        record, kept = play(variant_name, players, level, seed)
        games.append(record.to_json())
        for position in kept:
            positions.append({"game": number, "family": variant_name, "players": players, "level": level, **position})
        print(f"{variant_name} {players}p {level}: {len(kept)} positions", file=sys.stderr)
    data = {"games": games, "positions": positions}
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{len(positions)} positions in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
