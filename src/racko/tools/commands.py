"""``racko replay``, ``racko hint``, ``racko bench`` and ``racko variants``: records, advice, speed, the variants.

Added to the main app by :func:`register`.  Every error is one ``racko: ...`` line on stderr.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated

import typer

from racko.analysis.evaluate import seat_history
from racko.analysis.explain import explained_choices, hint_text
from racko.errors import RackoError
from racko.highlow import HighLowObservation
from racko.play.hint import ADVISOR, hint_for
from racko.play.library import data_dir, finished_games, game_stats, stats_lines
from racko.play.text import card_words, rack_lines, record_names, row_line, side_names
from racko.record import GameRecord, replay
from racko.rules import VARIANTS, variant


def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Re-play a game record through the rules engine and print each round's scores and the winner."""
    try:
        record = GameRecord.load(file)
        match = replay(record)
    except RackoError as error:
        if as_json:
            number = getattr(error, "action_number", None)
            typer.echo(json.dumps({"error": str(error), "action_number": number}))
            raise typer.Exit(1) from None
        typer.echo(f"racko: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    rules = match.rules
    results = match.results
    outcome = match.outcome
    if as_json:
        summary = {
            "rounds": [
                {
                    "scores": {str(seat): score for seat, score in enumerate(result.scores)},
                    "winner": result.winner,
                    "capped": result.capped,
                }
                for result in results
            ],
            "totals": {str(side): total for side, total in enumerate(match.totals)},
            "winner": outcome.winner if outcome is not None else None,
            "over": match.over,
            "teams": [list(team) for team in rules.teams] if rules.teams else None,
            "actions": record.action_count,
        }
        typer.echo(json.dumps(summary))
        return
    names = record_names(record.players, rules.players)
    sides = side_names(rules, names)
    typer.echo(f"{variant(rules.variant).title}, {rules.players} players, target {rules.target}.")
    for number, result in enumerate(results, start=1):
        how = f"{names[result.winner]} went Rack-O" if result.winner is not None else "turn cap reached"
        scores = ", ".join(f"{names[seat]} {score}" for seat, score in enumerate(result.scores))
        turns = "1 turn" if result.turns == 1 else f"{result.turns} turns"
        typer.echo(f"Round {number}: {how} after {turns}; {scores}.")
    totals = ", ".join(f"{sides[side]} {total}" for side, total in enumerate(match.totals))
    typer.echo(f"Totals: {totals}.")
    if outcome is not None:
        typer.echo(f"Winner: {sides[outcome.winner]}.")
    else:
        typer.echo("The game is not finished.")


def hint_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).", show_default=False)],
    at: Annotated[
        int | None,
        typer.Option(
            help="The position after this many actions (default: the last one; where the game or the round is over, "
            "its last decision)."
        ),
    ] = None,
    count: Annotated[int, typer.Option(min=1, help="How many choices to show (also with --json).")] = 3,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            help="Advise any seat of a game in progress (its record holds every hidden card); without it, only "
            "the one person's seat of a racko play save.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the advice as JSON.")] = False,
) -> None:
    """Advice for the player to act at a point of a game record, from that player's view only: the best move, why,
    and its chance to win the game from the scores as racko review measures it (2 players; turns to go out
    otherwise)."""
    try:
        record = GameRecord.load(file)
        advice = hint_for(record, at, reveal=reveal)
        names = record_names(record.players, record.rules.players)
        seen = seat_history(replay(record, stop_after=advice.at).round, advice.seat)
        choices = explained_choices(advice.observation, seen=seen, names=names, count=count)
        advice = dataclasses.replace(advice, choices=choices)
    except RackoError as error:
        typer.echo(f"racko: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(advice.to_json(count)))
        return
    if advice.note is not None:
        typer.echo(advice.note)
    view = advice.observation
    name = record_names(record.players, record.rules.players)[advice.seat]
    typer.echo(f"After action {advice.at}: {name} to play (advice from {ADVISOR}, seeing only {name}'s view).")
    if isinstance(view, HighLowObservation):
        held = view.held if view.held is not None else view.public.passed_card
        typer.echo(row_line(view.rack))
        holding = f"; in hand: {card_words(held)}" if held is not None else ""
        typer.echo(f"Stock: {view.public.stock_size} cards{holding}.")
    else:
        typer.echo("\n".join(rack_lines(view.rack)))
        holding = f"; in hand: {view.held}" if view.held is not None else ""
        top = view.discard_top if view.discard_top is not None else "none (the pile is empty)"
        typer.echo(f"Top discard: {top}; stock: {view.public.stock_size} cards{holding}.")
    hint = hint_text(view, seen=seen, names=names, count=count, choices=advice.choices)
    for line in hint.lines():
        typer.echo(line)


def variants_command() -> None:
    """List the variants with their player counts and where their rules come from."""
    for name, cls in VARIANTS.items():
        counts = "/".join(str(n) for n in cls.player_counts)
        typer.echo(f"{name:<9} {cls.title} ({counts} players; sheets {', '.join(cls.sheets)})")
        typer.echo(f"          {cls.description}")


def stats_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
) -> None:
    """Your statistics from the finished games racko play kept: games and rounds won, best round, per variant and
    per opponent."""
    stats = game_stats(finished_games(data_dir()))
    if as_json:
        typer.echo(json.dumps(stats.to_json()))
        return
    typer.echo("\n".join(stats_lines(stats)))


def register(app: typer.Typer) -> None:
    """Add ``replay``, ``hint``, ``stats`` and ``variants`` to the ``racko`` app (``bench`` is the bench room's,
    racko.tools.bench)."""
    app.command("stats")(stats_command)
    app.command("replay")(replay_command)
    app.command("hint")(hint_command)
    app.command("variants")(variants_command)
