"""``racko play``: set up or resume a game for people, then hand it to the terminal app or plain mode."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from racko.errors import RackoError
from racko.play.library import data_dir, finished_games
from racko.play.loop import COMPUTER_PACE
from racko.play.session import PlaySession, SeatSpec
from racko.play.setup import DEFAULT_NAME, build_setup, describe_save, describe_setup
from racko.record import GameRecord
from racko.rules import VARIANTS, Rules
from racko.terminal.learn import learn_command
from racko.terminal.puzzle import puzzle_command
from racko.terminal.saves import (
    CURRENT_SAVE,
    FileStore,
    FolderLock,
    aside_note,
    bring_back,
    file_if_finished,
    load_save,
    set_aside,
)

MAX_PACE = 60.0
"""The slowest pace of computer moves, in seconds (beyond it, a watcher would think the program stuck)."""


def seconds(value: float) -> float:
    """A pace option's check: 0 to :data:`MAX_PACE` seconds (shown in the help as a plain number)."""
    if not 0 <= value <= MAX_PACE:  # negative, too long, or not a number at all
        raise typer.BadParameter(f"a pace is 0 to {MAX_PACE:g} seconds, not {value:g}.")
    return value


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
    plain: Annotated[
        bool,
        typer.Option(
            "--plain",
            help="Line-by-line text mode (screen readers, pipes; also when standard input is not a terminal, "
            "where nothing is asked: a saved game is resumed, and options that start another game need --new).",
        ),
    ] = False,
    fast: Annotated[bool, typer.Option("--fast", help="Show computer moves instantly.")] = False,
    pace: Annotated[
        float, typer.Option(callback=seconds, help="Seconds to show each computer move in the terminal app.")
    ] = COMPUTER_PACE,
    new: Annotated[
        bool,
        typer.Option(
            "--new",
            help="Start a new game without asking: a saved game is set aside (racko play --resume opens it again).",
        ),
    ] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar="FILE",
            help="Open a game that was set aside (racko play names its file when it sets one aside); a game in "
            "progress is set aside in its place.",
            show_default=False,
        ),
    ] = None,
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
        if resume is not None:
            _fail("--export writes a record and stops, --resume opens a game to play: choose one.")
        _export(folder, export, reveal)
        return
    choices = NewGame(variant_name, players, bot_names, name, people, two_player_rule, target, refill, seed)
    if resume is not None and (choices.given or new or seed is not None or name != DEFAULT_NAME):
        _fail("--resume opens a game as it was set aside: it takes no --new, nor options for a new game.")
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
        _play(folder / CURRENT_SAVE, choices, plain, 0.0 if fast else pace, new, resume)
    finally:
        lock.release()


@dataclass(frozen=True)
class NewGame:
    """What the options say of a new game (all ``None``, and the default name, when none was given)."""

    variant_name: str | None
    players: int | None
    bot_names: str | None
    name: str
    people: str | None
    two_player_rule: bool | None
    target: int | None
    refill: str | None
    seed: int | None

    @property
    def given(self) -> bool:
        """Whether options set up a game of their own (a seed or a name alone do not: they go with either)."""
        options = (self.variant_name, self.players, self.bot_names, self.people, self.two_player_rule)
        return any(value is not None for value in (*options, self.target, self.refill))

    def setup(self) -> tuple[Rules, list[SeatSpec]]:
        """The rules and seats of the new game; options that do not fit raise :class:`RackoError`."""
        return build_setup(
            self.variant_name or "classic",
            self.players,
            [part for part in _listed(self.bot_names) if part],
            self.name,
            self.two_player_rule,
            self.target,
            self.refill,
            _listed(self.people),
        )


def _input_is_a_terminal() -> bool:
    """Whether a person types the input (a question may be asked), rather than a pipe or a file feeding it."""
    return sys.stdin.isatty()


def _play(save_path: Path, choices: NewGame, plain: bool, pace: float, new: bool, resume: Path | None) -> None:
    asked = _input_is_a_terminal()
    text_mode = plain or not asked
    setup: tuple[Rules, list[SeatSpec]] | None = None
    if choices.given or text_mode:
        # Checked before a saved game is touched, so a mistyped option never moves it aside.
        try:
            setup = choices.setup()
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
    question = False  # whether the saved game is offered to the player: resume it, or set it aside for a new game
    try:
        if resume is not None:
            session = _take_back(resume, save_path, notes)
        elif save_path.exists():
            try:
                saved = load_save(save_path)
            except RackoError as error:
                moved = set_aside(save_path, "damaged")
                notes.append(
                    f"The saved game could not be read ({error}) and was moved to {moved}; starting a new game."
                )
            else:
                if new:  # the flag is the answer: set it aside, as the player said
                    notes.append(aside_note(set_aside(save_path, "replaced")))
                elif choices.given and not asked:
                    _fail(
                        f"A game is saved in {save_path} ({describe_save(saved)}). Input that is not a terminal is "
                        "not asked whether to resume it: run racko play without options to resume it, or add --new "
                        "to set it aside and start the game of these options."
                    )
                else:
                    session, question = saved, True
    except RackoError as error:  # a save that could not be moved aside is left as it is, and nothing starts
        _fail(str(error))
    if text_mode:
        assert setup is not None  # built above for text mode, from the defaults where no option was given
        _play_plain(session, question, asked, setup, save_path, choices.seed, notes, options_given=choices.given)
        return
    from racko.terminal.app import run_app  # Textual is only imported for the full-screen app

    played = run_app(session, question, setup, save_path, choices.seed, notes, pace)
    if played is not None:
        typer.echo(_goodbye(played))


def _take_back(file: Path, save_path: Path, notes: list[str]) -> PlaySession:
    """The game set aside in ``file``, made the game in progress again (a game in progress set aside in its place).

    A file that is not a game racko play can resume stops everything, and nothing is moved.
    """
    try:
        record = GameRecord.load(file)
        resumed = PlaySession.from_record(record)
    except RackoError as error:
        _fail(f"{file} cannot be resumed: {error}")
    if resumed.match.over:
        _fail(f"{file} holds a finished game: racko replay reads it; racko play --resume opens a game in progress.")
    if save_path.exists() and save_path.resolve() == file.resolve():
        return load_save(save_path)  # the game in progress itself
    replaced = set_aside(save_path, "replaced") if save_path.exists() else None
    try:
        moved = bring_back(file, record, save_path)
    except OSError as error:
        aside = f" {aside_note(replaced, 'The game that was in progress')}" if replaced is not None else ""
        _fail(f"{file} could not be made the game in progress: {error.strerror or error}.{aside}")
    how = "it is the game in progress again" if moved else "the file is left as it was, and a copy is played"
    notes.append(f"Resumed the game of {file}: {how}.")
    if replaced is not None:
        notes.append(aside_note(replaced, "The game that was in progress"))
    return load_save(save_path)


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
    question: bool,
    asked: bool,
    setup: tuple[Rules, list[SeatSpec]],
    save_path: Path,
    seed: int | None,
    notes: list[str],
    *,
    options_given: bool,
) -> None:
    """Plain mode.  The saved game is offered (``question``) in a line of its own where a person types the input
    (``asked``); input that is not a terminal is never asked, since its first line is a command, not an answer: the
    saved game is resumed (options for another game stopped earlier, unless --new set the save aside)."""
    from racko.terminal.plain import run_plain

    def read() -> str | None:
        line = sys.stdin.readline()
        return line if line else None

    for note in notes:
        typer.echo(note)
    if session is not None and question:
        typer.echo(f"A saved game was found: {describe_save(session)}.")
        if not asked:
            typer.echo("Input that is not a terminal is not asked: resuming it (--new sets it aside instead).")
        else:
            if options_given:
                typer.echo(f"The options given are for a new game: {describe_setup(*setup)}.")
            new_one = "the new game" if options_given else "a new game"
            if not _yes(read, f"Resume the saved game? [Y/n] (n sets it aside and starts {new_one})"):
                try:
                    typer.echo(aside_note(set_aside(save_path, "replaced")))
                except RackoError as error:
                    _fail(str(error))
                session = None
    if session is None:
        session = PlaySession.new(*setup, seed=seed, store=FileStore(save_path))
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
    app.command("learn")(learn_command)
    app.command("puzzle")(puzzle_command)
