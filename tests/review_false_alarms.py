"""How often the review's flags are false alarms (docs/REVIEW.md, issue 37): every move the review flags (inaccuracy,
mistake, blunder) in the benchmark's games (``hard`` against ``hard``, 500 points, seeds 41 and 42) is raced again
against the best move on 4,096 fresh paired play-outs; a flag is a false alarm where that deeper loss is below the
flagged class's lower bound.

Run: ``PYTHONPATH=src .venv/bin/python tests/review_false_alarms.py`` (about 4 minutes on 2 cores).
"""

from __future__ import annotations

import random
from typing import Any

from racko.analysis import review as rv
from racko.tools.review_commands import bench_game

DEEP = 4096


def main() -> None:
    found: dict[int, tuple[float, float, float]] = {}
    checked = rv._check

    def deeper(judge: Any, best: Any, slot: Any, played: Any, number: int, stake: float, *rest: Any) -> Any:
        side = checked(judge, best, slot, played, number, stake, *rest)
        deep = judge.compare(best, played, DEEP, random.Random(f"deep:{number}").getrandbits(63), slot)
        found[number] = (side.loss / stake, deep.value / stake, side.error / stake)
        return side

    rv._check = deeper
    bounds = rv.GAME_CHANCE_CLASSES
    lower = {"inaccuracy": bounds.good, "mistake": bounds.inaccuracy, "blunder": bounds.mistake}
    flags = alarms = good = 0
    for seed in (41, 42):
        result = rv.review(bench_game(seed), jobs=2)
        for seat in result.seats:
            for decision in seat.decisions:
                if decision.grade in lower and decision.measure == "game_chance":
                    flags += 1
                    loss, deep, error = found[decision.action]
                    alarms += deep <= lower[decision.grade]
                    good += deep <= bounds.good
                    print(decision.grade, round(loss, 3), round(deep, 3), round(error, 3), decision.confidence)
    print(f"flagged {flags}; below the class's bound at {DEEP} play-outs: {alarms}; within good: {good}")


if __name__ == "__main__":
    main()
