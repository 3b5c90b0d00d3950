"""``racko puzzles generate`` and ``racko puzzles check``: make the puzzles from computer players' games, and judge
every one of them again (docs/PUZZLES.md).

Added to the main app by :func:`register`.  Every error is one ``racko: ...`` line on stderr.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from racko.analysis.puzzles import (
    FIRST_STEPS_SHARE,
    SHIPPED,
    PuzzleSet,
    generate,
    load,
    margin_for,
    recheck,
    verify,
)
from racko.errors import RackoError

puzzles_app = typer.Typer(
    name="puzzles",
    help="Make puzzles from computer players' games (positions with one clearly best move), and check them.",
    no_args_is_help=True,
)


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"racko: {message}", err=True)
    return typer.Exit(code)


def _note(line: str) -> None:
    # Progress goes to stderr, so that --json's output stays one JSON value.
    print(line, file=sys.stderr, flush=True)


def summary(puzzles: PuzzleSet) -> dict[str, object]:
    """The figures of a set of puzzles: how many of each kind and variant, and how many each computer level of
    :data:`racko.analysis.puzzles.ASKED` is the strongest to get wrong."""
    return {
        "puzzles": len(puzzles.puzzles),
        "games": len(puzzles.games),
        "kinds": dict(Counter(puzzle.kind for puzzle in puzzles.puzzles)),
        "variants": dict(Counter(puzzle.variant for puzzle in puzzles.puzzles)),
        "missed_by": dict(Counter(puzzle.missed_by for puzzle in puzzles.puzzles if puzzle.missed_by is not None)),
        "first_steps": sum(1 for puzzle in puzzles.puzzles if puzzle.first_steps),
    }


@puzzles_app.command("generate")
def generate_command(
    count: Annotated[int, typer.Option(min=1, max=5000, help="How many puzzles.")] = 300,
    seed: Annotated[int, typer.Option(help="Seed of the games and judgements: the same seed, the same puzzles.")] = 0,
    out: Annotated[
        Path,
        typer.Option(
            help="Where to write them (the package's own file is the one racko puzzle and the web server use).",
            show_default="the package's analysis/data/puzzles.json",
        ),
    ] = SHIPPED,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Play seeded games between computer players and keep positions where one move is clearly best by the review's
    measure (every other move is a mistake or a blunder, confirmed by a second, deeper judgement with 95% confidence);
    progress on stderr."""
    started = time.perf_counter()
    try:
        made = generate(count, seed, progress=None if as_json else _note)
        out.write_text(made.dumps(), encoding="utf-8")
    except RackoError as error:
        raise _fail(str(error), 2) from None
    except OSError as error:
        raise _fail(f"Cannot write {out}: {error.strerror or error}.") from None
    figures = {**summary(made), "seed": seed, "seconds": round(time.perf_counter() - started, 1), "out": str(out)}
    figures["load_average"] = round(os.getloadavg()[0], 2)
    if as_json:
        typer.echo(json.dumps(figures))
        return
    typer.echo(
        f"{figures['puzzles']} puzzles from {figures['games']} games in {figures['seconds']} s "
        f"(load average {figures['load_average']}), written to {out}."
    )
    typer.echo(f"Kinds: {figures['kinds']}; variants: {figures['variants']}.")
    typer.echo(f"A computer player goes wrong in some of them (the strongest that does): {figures['missed_by']}.")
    typer.echo(f"First steps (the answer goes out at once, or is the card's one fit): {figures['first_steps']}.")


@puzzles_app.command("check")
def check_command(
    file: Annotated[Path, typer.Argument(help="A puzzle file (default: the package's own).", show_default=False)] = (
        SHIPPED
    ),
    deeper: Annotated[
        int,
        typer.Option(
            min=0,
            help="Instead, judge this many puzzles (every n-th) again as generation confirmed them, deeper and with "
            "another seed, and count those whose margin holds.",
        ),
    ] = 0,
    seed: Annotated[int, typer.Option(help="The seed of the deeper judgements (--deeper).")] = 1,
) -> None:
    """Replay every puzzle's position from its game and judge it again with its seed: the view must be what the
    seat saw, the answer the review's best move, and every other move behind by the margin."""
    started = time.perf_counter()
    try:
        puzzles = load(file)
    except RackoError as error:
        raise _fail(str(error), 2) from None
    if deeper:
        _check_deeper(puzzles, deeper, seed, started)
        return
    problems = [problem for puzzle in puzzles.puzzles for problem in verify(puzzles, puzzle)]
    steps = sum(1 for puzzle in puzzles.puzzles if puzzle.first_steps)
    if steps > FIRST_STEPS_SHARE * len(puzzles.puzzles):
        share = round(100 * FIRST_STEPS_SHARE)
        problems.append(f"{steps} of {len(puzzles.puzzles)} puzzles are first steps: at most {share} % may be")
    for problem in problems:
        typer.echo(problem)
    seconds = time.perf_counter() - started
    if problems:
        raise _fail(f"{len(problems)} problems in {len(puzzles.puzzles)} puzzles ({seconds:.1f} s).")
    typer.echo(f"All {len(puzzles.puzzles)} puzzles check: each answer is the review's best move ({seconds:.1f} s).")


def _check_deeper(puzzles: PuzzleSet, count: int, seed: int, started: float) -> None:
    """``--deeper``: a sample judged again, each line the puzzle's claimed and measured margins (shares of the
    round's stake, or turns), the count of those that hold at the end; exit status 1 if any answer is no longer first
    or its measured lead no longer past the bound (a lead past it but not 95% sure is counted, not failed: a fresh
    measure of a true lead near the bound often falls short of that)."""
    every = puzzles.puzzles
    sample = [every[index * len(every) // count] for index in range(min(count, len(every)))]
    held = other_best = short = below = 0
    bound = margin_for("game_chance")
    for puzzle in sample:
        again = recheck(puzzles, puzzle, seed)
        other_best += int("prefers" in again.reason)
        short += int(again.margin <= margin_for(puzzle.measure))
        held += again.holds
        below += int(again.margin < puzzle.confirmed_low)
        typer.echo(
            f"puzzle {puzzle.id} ({puzzle.kind}): stated at least {puzzle.confirmed_low:.3f} (mean "
            f"{puzzle.confirmed:.3f}), measured {again.margin:.3f} (at least {again.low:.3f}) "
            f"on {again.playouts} play-outs: " + ("holds" if again.holds else again.reason)
        )
    seconds = time.perf_counter() - started
    typer.echo(
        f"{held} of {len(sample)} hold under a deeper judgement with seed {seed} (the answer first, its lead past "
        f"{bound} of the round's stake or a turn, 95% sure); {other_best} prefer another move, {short} measure a "
        f"lead not past the bound, {below} a lead below the margin stated ({seconds:.1f} s)."
    )
    if short:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``puzzles generate`` and ``puzzles check`` to the ``racko`` app."""
    app.add_typer(puzzles_app)
