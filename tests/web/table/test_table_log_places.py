"""The log names a rack's place as actions do (issue 52): a classic slot by its label (5 … 50), a High-Low position
1 … 10 from the left end, in the table's frames, the Bot API's and the replays' (all made by ``log_entries``)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import racko
from racko.families import family_of
from racko.match import Match
from racko.web.table import log_entries


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("bonus", 3), ("highlow", 3), ("highlow", 5)])
def test_the_log_names_each_place_as_the_action_that_filled_it(variant: str, players: int) -> None:
    rules = racko.variant(variant).rules(players)
    family = family_of(rules)
    names = [f"P{seat}" for seat in range(players)]
    rng = random.Random(7)
    seen: Counter[str] = Counter()
    for seed in range(4):
        match = Match(rules, seed=seed)
        for _ in range(400):
            if match.over:
                break
            action = rng.choice(match.legal_actions())
            said = family.action_to_json(action)
            for entry in log_entries(list(match.apply(action)), names):
                kind = entry["kind"]
                # The sentence the engine words names the same place, the action too where it made the entry.
                if kind == "exchanged":
                    assert f"into slot {entry['slot']} " in entry["text"], entry
                    assert entry["slot"] == said["slot"] and entry["seat"] == said["seat"], (entry, said)
                elif kind in ("placed", "swap-discarded"):
                    assert re.search(rf"\bposition {entry['position']}\b", entry["text"]), entry
                    if kind == "placed" and entry["removed"] is not None:
                        assert entry["position"] == said["position"], (entry, said)
                elif kind == "swapped":
                    assert f"positions {entry['first']} and {entry['second']}." in entry["text"], entry
                    assert sorted(said["positions"]) == [entry["first"], entry["second"]], (entry, said)
                else:
                    assert {"slot", "position", "first", "second"}.isdisjoint(entry), entry
                    continue
                seen[kind] += 1
    wanted = {"exchanged"} if family.name == "classic" else {"placed", "swapped"}
    assert wanted <= set(seen), seen
