"""``racko bench batch``: the batch simulator's speed in turns per second, shuffling and dealing included."""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import asdict, dataclass

import numba

from racko.envs.batch.simulator import Table, simulate
from racko.errors import RackoError

BENCH_TABLE = Table(players=2, two_player_rule=False)
"""The engine benchmark's table: 2-player classic, 40 cards, the 2-player rule off (``racko bench``); the arena's
turn cap."""


@dataclass(frozen=True)
class BatchBench:
    """The figures of ``racko bench batch`` (its ``--json`` keys)."""

    benchmark: str
    rounds: int
    threads: int
    seconds: float
    turns_per_second: float
    turns_per_cpu_second: float
    """Turns per second of one core's time (the process's CPU time over all batches): what a shared machine's
    other work does not change."""
    rounds_per_second: float
    batch_rates: list[float]
    mean_turns: float
    capped: int
    compile_seconds: float
    gap_rounds: int
    gap_turns_per_second: float
    gap_mean_turns: float


def run_batch_bench(rounds: int, batches: int, seed: int, threads: int | None) -> BatchBench:
    """Time ``rounds`` bucket-vs-bucket rounds in ``batches`` (the median batch's rate), then a hundredth as many
    gap-vs-gap rounds.  The first call compiles (or loads the compiled code from numba's cache): timed apart."""
    available = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set from the cores at import
    if threads is not None and not 1 <= threads <= available:
        raise RackoError(f"--threads must be from 1 to {available} (numba's threads on this machine).")
    numba.set_num_threads(threads or available)
    started = time.perf_counter()
    simulate(100, seed, ("easy", "easy"), BENCH_TABLE)
    simulate(10, seed, ("medium", "medium"), BENCH_TABLE)
    compile_seconds = time.perf_counter() - started
    batches = min(batches, rounds)
    sizes = [rounds // batches + (1 if batch < rounds % batches else 0) for batch in range(batches)]
    rates, turns, capped, played = [], 0, 0, 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for size in sizes:
        batch_start = time.perf_counter()
        outcomes = simulate(size, seed + played, ("easy", "easy"), BENCH_TABLE)
        elapsed = time.perf_counter() - batch_start
        batch_turns = int(outcomes.turns.sum())
        rates.append(batch_turns / elapsed)
        turns += batch_turns
        capped += int(outcomes.capped.sum())
        played += size
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    gap_rounds = max(1, rounds // 100)
    gap_start = time.perf_counter()
    gap = simulate(gap_rounds, seed, ("medium", "medium"), BENCH_TABLE)
    gap_seconds = time.perf_counter() - gap_start
    gap_turns = int(gap.turns.sum())
    rate = statistics.median(rates)
    return BatchBench(
        benchmark="classic-2p-batch",
        rounds=played,
        threads=numba.get_num_threads(),
        seconds=round(seconds, 3),
        turns_per_second=round(rate),
        turns_per_cpu_second=round(turns / cpu_seconds),
        rounds_per_second=round(rate * played / turns),
        batch_rates=[round(value) for value in rates],
        mean_turns=round(turns / played, 2),
        capped=capped,
        compile_seconds=round(compile_seconds, 2),
        gap_rounds=gap_rounds,
        gap_turns_per_second=round(gap_turns / gap_seconds),
        gap_mean_turns=round(gap_turns / gap_rounds, 2),
    )


def batch_bench_lines(figures: BatchBench, as_json: bool) -> list[str]:
    """What ``racko bench batch`` prints."""
    if as_json:
        return [json.dumps(asdict(figures))]
    return [
        f"2-player classic, bucket vs bucket, batch simulator: {figures.turns_per_second:,.0f} turns/s "
        f"({figures.rounds_per_second:,.0f} rounds/s) on {figures.threads} thread(s); "
        f"{figures.turns_per_cpu_second:,.0f} turns per second of one core's time",
        f"({figures.rounds:,} rounds in {figures.seconds:.1f} s, median of {len(figures.batch_rates)} batches, "
        f"shuffling and dealing included; {figures.mean_turns:.1f} turns a round; compiling or loading the compiled "
        f"code took {figures.compile_seconds:.1f} s, not counted)",
        f"Gap policy (medium vs medium): {figures.gap_turns_per_second:,.0f} turns/s "
        f"({figures.gap_rounds:,} rounds, {figures.gap_mean_turns:.1f} turns a round)",
    ]
