"""The chance to win a 2-player round from the two racks: ``master``'s measure of a position.

A logistic in ``log(1 + cost)`` of three costs by the gap model (:mod:`racko.bots.gaps`): the rack of the player to
move, that rack after taking the top discard (as the player would: its cost now when it would not), and the other
rack.  Fitted on the batch simulator's rounds of two ``medium`` players (``racko fit-win-chance``,
:mod:`racko.envs.batch.win_chances`); the numbers ship as data (``data/win_chance.json``), read with the standard
library.  A player who goes out by taking wins; one whose opponent has gone out has lost.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

from racko.errors import RackoError

DATA = "win_chance.json"
RULES = {False: "no_two_player_rule", True: "two_player_rule"}


@dataclass(frozen=True)
class WinChance:
    """The fitted logistic: ``bias + mover * log(1 + mover's cost) + taking * log(1 + its cost after taking) + other *
    log(1 + the other rack's cost)``."""

    bias: float
    mover: float
    taking: float
    other: float

    def kernel_row(self) -> tuple[float, float, float, float]:
        return (self.bias, self.mover, self.taking, self.other)

    def chance(self, mover: float, taking: float, other: float) -> float:
        """The chance that the player to move goes out first."""
        if taking <= 0:
            return 1.0
        if other <= 0:
            return 0.0
        z = self.bias + self.mover * math.log1p(mover) + self.taking * math.log1p(taking)
        z += self.other * math.log1p(other)
        return 1 / (1 + math.exp(-z))


def load_chances(document: object) -> dict[bool, WinChance]:
    """The fits of a document like ``data/win_chance.json``, per 2-player rule; a clear error for a bad one."""
    if not isinstance(document, dict) or document.get("features") != "log1p":
        raise RackoError("The chance-to-win file holds an object with log1p features.")
    result = {}
    for rule, key in RULES.items():
        row = document.get(key)
        try:
            fitted = WinChance(*(float(row[name]) for name in ("bias", "mover", "taking", "other")))  # type: ignore[index]
        except (KeyError, TypeError, ValueError):
            raise RackoError(f"The chance-to-win file has no complete fit under {key!r}.") from None
        if not all(math.isfinite(value) for value in fitted.kernel_row()):
            raise RackoError(f"The chance-to-win fit under {key!r} is not finite.")
        result[rule] = fitted
    return result


@cache
def fitted_chance(two_player_rule: bool) -> WinChance:
    """The chance to win as fitted (``data/win_chance.json``)."""
    text = resources.files("racko.bots").joinpath("data", DATA).read_text(encoding="utf-8")
    return load_chances(json.loads(text))[two_player_rule]
