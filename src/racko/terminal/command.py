"""``racko play``: set up or resume a game for people, then hand it to the terminal app or plain mode."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from racko.errors import RackoError
from racko.play.library import data_dir, finished_games
from racko.play.loop import COMPUTER_PACE
from racko.play.session import PlaySession, SeatSpec
from racko.play.setup import DEFAULT_NAME, build_setup, describe_save
from racko.record import GameRecord
from racko.rules import VARIANTS, Rules
from racko.terminal.saves import (
    CURRENT_SAVE,
    FileStore,
    FolderLock,
    file_if_finished,
    load_save,
    set_aside,
)


def _fail(message: str) -> NoReturn:
    typer.echo(f"racko: {message}", err=True)
    raise typer.Exit(2)


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
    name: Annotated[str, typer.Option(help="Your name at the table.")] = DEFAULT_NAME,
    people: Annotated[
        str | None,
        typer.Option(
            "--names",
            help="The people's names in seat order, comma-separated: yours (seat 1), then each human seat of "
            "--bots (default: You, or Player 1, Player 2 ... at a shared screen).",
        ),
    ] = None,
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
    pace: Annotated[
        float, typer.Option(min=0.0, metavar="SECONDS", help="Seconds to show each computer move in the terminal app.")
    ] = COMPUTER_PACE,
    new: Annotated[bool, typer.Option("--new", help="Start a new game even if one is saved.")] = False,
    export: Annotated[
        Path | None,
        typer.Option(
            "--export",
            help="Write the last finished game to this file as a record, and stop (the game in progress: "
            "add --reveal).",
            dir_okay=False,
        ),
    ] = None,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            help="With --export: write the game in progress, although its record holds every hidden card.",
        ),
    ] = False,
) -> None:
    """Play Rack-O against computer players or friends: the terminal app, or --plain for text."""
    folder = data_dir()
    if export is not None:
        _export(folder, export, reveal)
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        _fail(f"Games cannot be saved in {folder}: {error.strerror or error}. Set RACKO_DATA_DIR to another folder.")
    lock = FolderLock(folder)
    try:
        lock.acquire()
    except RackoError as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"Games cannot be saved in {folder}: {error.strerror or error}. Set RACKO_DATA_DIR to another folder.")
    try:
        _play(
            folder / CURRENT_SAVE,
            variant_name,
            players,
            bot_names,
            name,
            people,
            two_player_rule,
            target,
            refill,
            seed,
            plain,
            0.0 if fast else pace,
            new,
        )
    finally:
        lock.release()


def _play(
    save_path: Path,
    variant_name: str | None,
    players: int | None,
    bot_names: str | None,
    name: str,
    people: str | None,
    two_player_rule: bool | None,
    target: int | None,
    refill: str | None,
    seed: int | None,
    plain: bool,
    pace: float,
    new: bool,
) -> None:
    options = (variant_name, players, bot_names, people, two_player_rule, target, refill)
    chosen = any(value is not None for value in options)
    text_mode = plain or not sys.stdin.isatty()
    setup: tuple[Rules, list[SeatSpec]] | None = None
    if chosen or text_mode:
        # Checked before a saved game is touched, so a mistyped option never moves it aside.
        try:
            setup = build_setup(
                variant_name or "classic",
                players,
                [part for part in _listed(bot_names) if part],
                name,
                two_player_rule,
                target,
                refill,
                _listed(people),
            )
        except RackoError as error:
            _fail(str(error))
    session: PlaySession | None = None
    notes: list[str] = []
    try:
        filed = file_if_finished(save_path) if save_path.exists() else None
    except OSError as error:
        _fail(f"The saved game had ended but could not be filed: {error.strerror or error}.")
    if filed is not None:
        notes.append(f"The saved game had ended; its record was filed in {filed}.")
    try:
        if save_path.exists() and not new and not chosen:
            try:
                session = load_save(save_path)
            except RackoError as error:
                moved = set_aside(save_path, "damaged")
                notes.append(
                    f"The saved game could not be read ({error}) and was moved to {moved}; starting a new game."
                )
        elif save_path.exists():
            moved = set_aside(save_path, "replaced")  # never lose a game: the old save is kept beside
            notes.append(f"The saved game was moved to {moved}.")
    except RackoError as error:  # a save that could not be moved aside is left as it is, and nothing starts
        _fail(str(error))
    if text_mode:
        _play_plain(session, setup, save_path, seed, notes, name)
        return
    from racko.terminal.app import run_app  # Textual is only imported for the full-screen app

    played = run_app(session=session, setup=setup, save_path=save_path, seed=seed, notes=notes, pace=pace)
    if played is not None:
        typer.echo(_goodbye(played))


def _listed(text: str | None) -> list[str]:
    """A comma-separated option's parts, stripped (an empty part stays: a name left at its default)."""
    return [part.strip() for part in text.split(",")] if text else []


def _export(folder: Path, target: Path, reveal: bool) -> None:
    """Copy the last finished game (or, with ``reveal``, the game in progress) to ``target``: a record others read.

    A game in progress is only written on request: its record holds every card, the other racks and the stock's
    order included, which nobody at the table may know yet.
    """
    source = folder / CURRENT_SAVE
    which = "the saved game"
    if not reveal or not source.exists():
        finished = finished_games(folder)
        if not finished:
            in_progress = " (add --reveal to write the game in progress)" if source.exists() else ""
            _fail(f"There is no finished game in {folder} to export{in_progress}.")
        source = finished[-1]
        which = "the last finished game"
    try:
        GameRecord.load(source).save(target)  # loaded first, so a damaged file is refused rather than copied
    except RackoError as error:
        _fail(f"{source} could not be read: {error}")
    except OSError as error:
        _fail(f"{target} could not be written: {error.strerror or error}.")
    typer.echo(f"Wrote {which} to {target}; racko replay and racko hint read it.")


def _goodbye(session: PlaySession) -> str:
    """What is left behind when the app closes: the save to resume, or the finished game's record."""
    if session.save_problem is not None:
        return session.save_problem
    if session.finished_at is not None:
        return f"The game's record is in {session.finished_at} (racko replay and racko hint read it)."
    store = session.store
    if isinstance(store, FileStore) and store.path.exists():
        return f"Game saved in {store.path}. Run racko play again to resume it."
    return "The game was not saved."


def _play_plain(
    session: PlaySession | None,
    setup: tuple[Rules, list[SeatSpec]] | None,
    save_path: Path,
    seed: int | None,
    notes: list[str],
    your_name: str,
) -> None:
    from racko.terminal.plain import run_plain

    def read() -> str | None:
        line = sys.stdin.readline()
        return line if line else None

    for note in notes:
        typer.echo(note)
    if session is not None:
        typer.echo(f"A saved game was found: {describe_save(session)}.")
        if not _yes(read, "Resume it? [Y/n]"):
            try:
                typer.echo(f"The saved game was moved to {set_aside(save_path, 'replaced')}.")
            except RackoError as error:
                _fail(str(error))
            session = None
    if session is None:
        rules, seats = setup if setup is not None else build_setup("classic", None, [], your_name)
        session = PlaySession.new(rules, seats, seed=seed, store=FileStore(save_path))
    clear = _clear_terminal if sys.stdout.isatty() else None
    run_plain(session, read, typer.echo, clear)


def _yes(read: Callable[[], str | None], question: str) -> bool:
    """Ask until the answer is yes or no (Enter, or the end of the input, is yes)."""
    while True:
        typer.echo(question)
        answer = read()
        word = "" if answer is None else answer.strip().lower()
        if word in ("", "y", "yes"):
            return True
        if word in ("n", "no"):
            return False
        typer.echo(f"Please answer y or n, not {word[:20]!r}.")


def _clear_terminal() -> None:
    # Clear the screen and its scrollback, so that the next player cannot scroll up to the last one's rack.
    sys.stdout.write("\033[H\033[2J\033[3J")
    sys.stdout.flush()


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
