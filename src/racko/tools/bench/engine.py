"""The rules engine's speed: 2-player classic rounds (40 cards, 2-player rule off), bucket against bucket, on one
core, timed in batches (the median batch's rate is the figure)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from racko import bots
from racko.bots.runner import play_round
from racko.round import Round
from racko.rules import variant


def engine_bench(rounds: int, seed: int, batches: int) -> dict[str, Any]:
    """Exactly ``rounds`` rounds from ``seed`` on, in ``batches`` batches that differ by one round at most: the
    figures ``racko bench engine --json`` prints."""
    rules = variant("classic").rules(2, two_player_rule=False, turn_cap=10_000)
    players = [bots.create("easy", seed=1), bots.create("easy", seed=2)]
    batches = min(batches, rounds)
    sizes = [rounds // batches + (1 if batch < rounds % batches else 0) for batch in range(batches)]
    rates = []
    turns = capped = played = 0
    started = time.perf_counter()
    for size in sizes:
        batch_start = time.perf_counter()
        for number in range(seed + played, seed + played + size):
            result = play_round(Round.deal(rules, seed=number, dealer=number % 2), players)
            turns += result.turns
            capped += result.capped
        rates.append(size / (time.perf_counter() - batch_start))
        played += size
    return {
        "benchmark": "classic-2p-bucket",
        "rounds": played,
        "seconds": round(time.perf_counter() - started, 3),
        "rounds_per_second": round(statistics.median(rates), 1),
        "batch_rates": [round(rate, 1) for rate in rates],
        "mean_turns": round(turns / played, 2),
        "capped": capped,
    }


def engine_bench_lines(figures: dict[str, Any]) -> list[str]:
    """What ``racko bench engine`` prints."""
    batches = len(figures["batch_rates"])
    return [
        f"2-player classic, bucket vs bucket: {figures['rounds_per_second']:,.0f} rounds/s",
        f"({figures['rounds']:,} rounds in {figures['seconds']:.1f} s, median of {batches} batches; "
        f"{figures['mean_turns']:.1f} turns a round)",
    ]
