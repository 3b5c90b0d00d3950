"""``racko demo``: watch computer players play one round, move by move at the table's pace, every hand shown at the
deal."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from racko import bots
from racko.errors import RackoError
from racko.families import family_of
from racko.match import Match
from racko.play.loop import COMPUTER_PACE, ComputerToAct, RoundOver, Screen, Told
from racko.play.session import PlaySession, SeatSpec, bots_for
from racko.play.setup import check_seat_count
from racko.play.text import rack_lines, round_report, row_line
from racko.rules import VARIANTS, variant
from racko.terminal.command import seconds


def _fail(message: str) -> None:
    typer.echo(f"racko: {message}", err=True)
    raise typer.Exit(2)


def demo_command(
    variant_name: Annotated[str, typer.Option("--variant", help=f"One of: {', '.join(VARIANTS)}.")] = "classic",
    players: Annotated[int | None, typer.Option(help="Number of players (default 3; Partners: 4).")] = None,
    bot_names: Annotated[str, typer.Option("--bots", help="Comma-separated bot per seat, e.g. easy,random.")] = "easy",
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible round.")] = None,
    turn_cap: Annotated[int, typer.Option(help="End the round after this many turns.")] = 500,
    pace: Annotated[
        float,
        typer.Option(callback=seconds, help="Seconds between moves (racko play's pace for computer moves)."),
    ] = COMPUTER_PACE,
    fast: Annotated[bool, typer.Option("--fast", help="Show the moves at once, without pausing.")] = False,
) -> None:
    """Watch computer players play one round, move by move at the table's pace."""
    try:
        chosen = variant(variant_name)
        rules = chosen.rules(players if players is not None else max(3, chosen.player_counts[0]), turn_cap=turn_cap)
        names = [name.strip() for name in bot_names.split(",") if name.strip()] or ["easy"]
        for name in names:
            bots.describe(name)  # an unknown bot is refused before anything is dealt
            if name not in bots_for(chosen.name):
                raise RackoError(
                    f"The {name} bot does not play {chosen.title}; choose from {', '.join(bots_for(chosen.name))}."
                )
        check_seat_count(chosen.title, chosen.player_counts, rules.players, len(names), rules.players, "seats")
        names = (names * rules.players)[: rules.players]
    except RackoError as error:
        _fail(str(error))
        return
    seats = [SeatSpec(f"{name} (seat {seat + 1})", name) for seat, name in enumerate(names)]  # people count from 1
    session = PlaySession(Match(rules, seed=seed), seats, bot_seed=seed)
    highlow = family_of(rules).name == "highlow"
    deck = "112 cards with Wilds and Swaps" if highlow else f"cards 1-{rules.deck_size}"
    typer.echo(f"{chosen.title}, {rules.players} players, {deck}.")
    for seat, rack in enumerate(session.match.round.dealt):  # a demo shows every hand
        typer.echo(f"{session.names[seat]} is dealt:")
        typer.echo(row_line(rack) if highlow else "\n".join(rack_lines(rack)))
    screen = Screen(session)
    try:
        _follow(screen, 0.0 if fast else pace)
    except KeyboardInterrupt:  # Ctrl+C while watching: stop quietly, as a person who has seen enough
        typer.echo("")
        raise typer.Exit(130) from None


def _follow(screen: Screen, pace: float) -> None:
    """Print the round's steps until its end, ``pace`` seconds before each move."""
    session = screen.session
    while True:
        step = screen.next_step()
        if isinstance(step, Told):
            typer.echo("\n".join(step.lines))
        elif isinstance(step, ComputerToAct):
            if pace > 0:
                time.sleep(pace)
            screen.computer_move()
        elif isinstance(step, RoundOver):
            typer.echo("")
            typer.echo("\n".join(round_report(step.result, session.names, step.number)))
            return
        else:  # a game of bots only has no person to ask, and the demo stops at the first round's end
            raise AssertionError(f"unexpected step in a demo: {step!r}")
