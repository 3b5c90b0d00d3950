"""``racko play`` (apps layer): set up or resume a game for people, then hand it to the terminal app or plain mode."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from racko import bots
from racko.errors import RackoError
from racko.rules import VARIANTS, Rules, variant
from racko.session import CURRENT_SAVE, PlaySession, SeatSpec, data_dir, set_aside

DEFAULT_OPPONENT = "medium"
HUMAN = "human"


def _fail(message: str) -> None:
    typer.echo(f"racko: {message}", err=True)
    raise typer.Exit(2)


def default_players(variant_name: str) -> int:
    return {"partners": 4, "highlow": 3}.get(variant_name, 2)


def build_setup(
    variant_name: str,
    players: int | None,
    opponents: list[str],
    your_name: str,
    two_player_rule: bool | None = None,
    target: int | None = None,
    refill: str | None = None,
) -> tuple[Rules, list[SeatSpec]]:
    """The rules and seats of a new game: you in seat 0, then ``opponents`` (bots, or ``human`` for hot-seat)."""
    count = players if players is not None else max(default_players(variant_name), 1 + len(opponents))
    options: dict[str, object] = {}
    if two_player_rule is not None:
        options["two_player_rule"] = two_player_rule
    if target is not None:
        options["target"] = target
    if refill is not None:
        options["refill"] = refill
    rules = variant(variant_name).rules(count, **options)
    others = opponents or [DEFAULT_OPPONENT]
    others = (others * count)[: count - 1]
    seats = [SeatSpec(your_name)]
    taken = {your_name}
    for index, name in enumerate(others, start=2):
        if name == HUMAN:
            label = f"Player {index}"
            seats.append(SeatSpec(label))
        else:
            if name not in bots.available():
                raise RackoError(f"Unknown bot {name!r}; available: {', '.join(bots.available())}, or human.")
            label = name if name not in taken else f"{name} {index}"
            seats.append(SeatSpec(label, name))
        taken.add(label)
    return rules, seats


def play_command(
    variant_name: Annotated[
        str | None, typer.Option("--variant", help=f"One of: {', '.join(VARIANTS)} (default classic).")
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players (default 2; Partners 4; High-Low 3).")] = None,
    bot_names: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="The other seats, comma-separated: bot names (e.g. hard,expert) or human for hot-seat play.",
        ),
    ] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    two_player_rule: Annotated[
        bool | None, typer.Option(help="With 2 players, a Rack-O needs a run of three (default: on).")
    ] = None,
    target: Annotated[
        int | None, typer.Option(help="The score that wins the game (default 500; High-Low 300).")
    ] = None,
    refill: Annotated[
        str | None, typer.Option(help="When the stock runs out: flip (turn the pile over) or shuffle.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    plain: Annotated[bool, typer.Option("--plain", help="Line-by-line text mode (screen readers, pipes).")] = False,
    fast: Annotated[bool, typer.Option("--fast", help="Show computer moves instantly.")] = False,
    pace: Annotated[float, typer.Option(help="Seconds to show each computer move in the terminal app.")] = 0.8,
    new: Annotated[bool, typer.Option("--new", help="Start a new game even if one is saved.")] = False,
) -> None:
    """Play Rack-O against computer players or friends: the terminal app, or --plain for text."""
    save_path = data_dir() / CURRENT_SAVE
    chosen = any(value is not None for value in (variant_name, players, bot_names, two_player_rule, target, refill))
    session: PlaySession | None = None
    notes: list[str] = []
    if save_path.exists() and not new and not chosen:
        try:
            session = PlaySession.load(save_path)
        except RackoError as error:
            moved = set_aside(save_path, "damaged")
            notes.append(f"The saved game could not be read ({error}) and was moved to {moved}; starting a new game.")
    elif save_path.exists():
        moved = set_aside(save_path, "replaced")  # never lose a game: the old save is kept beside
        notes.append(f"The saved game was moved to {moved}.")
    setup: tuple[Rules, list[SeatSpec]] | None = None
    if session is None and (chosen or plain or not sys.stdin.isatty()):
        try:
            setup = build_setup(
                variant_name or "classic",
                players,
                [part.strip() for part in (bot_names or "").split(",") if part.strip()],
                name,
                two_player_rule,
                target,
                refill,
            )
        except RackoError as error:
            _fail(str(error))
    if plain or not sys.stdin.isatty():
        _play_plain(session, setup, save_path, seed, notes)
        return
    from racko.tui import run_app  # Textual is only imported for the full-screen app

    run_app(session=session, setup=setup, save_path=save_path, seed=seed, notes=notes, pace=0.0 if fast else pace)


def _play_plain(
    session: PlaySession | None,
    setup: tuple[Rules, list[SeatSpec]] | None,
    save_path: Path,
    seed: int | None,
    notes: list[str],
) -> None:
    from racko.plain import run_plain

    def read() -> str | None:
        line = sys.stdin.readline()
        return line if line else None

    for note in notes:
        typer.echo(note)
    if session is not None:
        typer.echo(f"A saved game was found ({', '.join(session.names)}, round {len(session.match.rounds)}).")
        typer.echo("Resume it? [Y/n]")
        answer = read()
        if answer is not None and answer.strip().lower().startswith("n"):
            typer.echo(f"The saved game was moved to {set_aside(save_path, 'replaced')}.")
            session = None
            setup = build_setup("classic", None, [], "You")
    if session is None:
        assert setup is not None
        rules, seats = setup
        session = PlaySession.new(rules, seats, seed=seed, save_path=save_path)
    run_plain(session, read, typer.echo)


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
