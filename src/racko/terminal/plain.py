"""``racko play --plain``: Rack-O line by line, for screen readers and pipes.

Everything is text: after every move the player's rack is shown with its slot labels 5 to 50, and the player
types a command (``help`` lists them).  The game is saved after every action; ``quit`` (or the end of the input,
or Ctrl+C) leaves it saved.  The flow of the game is the play loop's: this module only words its steps and reads
commands.
"""

from __future__ import annotations

from collections.abc import Callable

from racko.actions import Exchange
from racko.analysis.evaluate import seat_history
from racko.analysis.explain import hint_text
from racko.errors import RackoError
from racko.families import AnyAction, AnyObservation
from racko.highlow import HighLowObservation, KeepOrder, Replace, SwapCards
from racko.play import loop
from racko.play.session import PlaySession
from racko.play.text import rack_lines, round_report, row_line, score_table, scores_line
from racko.rules import SLOT_LABELS, variant

CLASSIC_HELP = """Commands:
  draw (d)        draw the top card of the stock
  take (t)        take the top card of the discard pile
  5, 10, ... 50   put the card you hold in that slot (its card goes on the discard pile)
  discard (x)     discard the card you drew and keep your rack as it is
  racko (r)       call Rack-O when your rack qualifies
  wait (w)        Bonus Rack-O: play on instead of calling, hoping for a longer run
  hint (?)        the best move from your own view, and why
  show (s)        show the table again
  help (h)        this list
  quit (q)        leave; the game stays saved and `racko play` offers to resume it"""

HIGHLOW_HELP = """Commands:
  1 ... 10        put the card you hold at that position of your row (1 = left end); the card there moves on
  swap A B        after a Swap card: swap the cards at positions A and B of your row
  keep (k)        after a Swap card: keep your row as it is
  hint (?)        the best move from your own view, and why
  show (s)        show the table again
  help (h)        this list
  quit (q)        leave; the game stays saved and `racko play` offers to resume it"""

COMMANDS = {"d": "draw", "t": "take", "x": "discard", "r": "racko", "w": "wait"}
"""Classic commands by their keys; the words are the verbs themselves."""

PROMPTS = {
    "pick": "Your turn: draw or take.",
    "pick-or-call": "Your turn: racko, or draw or take to play on.",
    "place-taken": "You took {card}: type the slot (5-50) to put it in.",
    "place-drawn": "You drew {card}: type a slot (5-50) to put it in, or discard.",
    "declare": "Your rack qualifies: racko to call Rack-O, or wait to play on for a longer run.",
    "place-in-row": "You hold {card}: type the position (1-10) to put it at.",
    "swap": "A Swap card: type swap A B to swap two cards of your row, or keep.",
}
"""What a person is asked to do, by situation (see :class:`racko.play.loop.Situation`)."""

Reader = Callable[[], str | None]
Writer = Callable[[str], None]


class _Quit(Exception):
    pass


def run_plain(session: PlaySession, read: Reader, write: Writer, clear: Callable[[], None] | None = None) -> bool:
    """Play until the game ends (True) or the player quits or the input ends (False; the game stays saved).

    ``clear`` wipes the output (a terminal's screen and scrollback); in hot-seat play it runs at every hand-over.
    Where the output cannot be wiped (a pipe), the players are told so once at the start.
    """
    screen = loop.Screen(session)
    write(f"{variant(session.rules.variant).title}: {', '.join(session.names)}. Type help for the commands.")
    if screen.shared and clear is None:
        write(
            "Several people share this game, and this output cannot be cleared: each rack is shown only after "
            "its player presses Enter, but it stays above for anyone who looks back."
        )
    try:
        while True:
            step = screen.next_step()
            if isinstance(step, loop.Told):
                for line in step.lines:
                    write(line)
            elif isinstance(step, loop.Notice):
                write(step.text)
            elif isinstance(step, loop.RoundOver):
                write("")
                for line in round_report(step.result, session.names, step.number):
                    write(line)
                for line in score_table(session.rules, session.names, session.match.results):
                    write(line)
                write("")
            elif isinstance(step, loop.GameOver):
                write(f"Game over: {step.winners} won.")
                if session.finished_at is not None:
                    write(f"The game's record is in {session.finished_at} (racko replay and racko hint read it).")
                return True
            elif isinstance(step, loop.ComputerToAct):
                screen.computer_move()
            elif isinstance(step, loop.HandOver):
                if clear is not None:
                    clear()
                write(f"--- Pass to {step.name}; {step.name}, press Enter to see your rack. ---")
                answer = read()
                if answer is None or answer.strip().lower() in ("quit", "q", "exit"):
                    raise _Quit
                screen.at_screen(step.seat)
            else:
                assert isinstance(step, loop.PersonToAct)
                _show(session, step, write)
                _turn(screen, step, read, write)
    except (_Quit, KeyboardInterrupt):  # quit, the end of the input, or Ctrl+C: all leave the game saved
        write(session.save_problem or "Game saved. Run racko play again to resume it.")
        return False


def _turn(screen: loop.Screen, step: loop.PersonToAct, read: Reader, write: Writer) -> None:
    """Read commands until one of them is a legal action, and play it."""
    while True:
        line = read()
        if line is None:
            raise _Quit
        words = line.strip().lower().split()
        if not words:
            continue
        command = words[0]
        if command in ("quit", "q", "exit"):
            raise _Quit
        if command in ("help", "h"):
            write(HIGHLOW_HELP if isinstance(step.observation, HighLowObservation) else CLASSIC_HELP)
            continue
        if command in ("show", "s"):
            _show(screen.session, step, write)
            continue
        if command in ("hint", "?"):
            session = screen.session
            seen = seat_history(session.match.round, step.seat)
            for line in hint_text(step.observation, seen=seen, names=session.names).lines("Hint"):
                write(line)
            continue
        try:
            screen.play(parse_command(step.observation, words))
        except RackoError as error:
            write(str(error))
            continue
        return


def parse_command(observation: AnyObservation, words: list[str]) -> AnyAction:
    """The action a typed command means for this seat; an unknown command raises with a hint."""
    seat = observation.seat
    command = words[0]
    number = _small_number(command)
    if isinstance(observation, HighLowObservation):
        positions = [_small_number(word) for word in words[1:]]
        if command == "swap" and len(positions) == 2 and None not in positions:
            first, second = positions
            assert first is not None and second is not None
            return SwapCards(seat, first - 1, second - 1)
        if command in ("keep", "k"):
            return KeepOrder(seat)
        if number is not None and 1 <= number <= 10:
            return Replace(seat, number - 1)
        raise RackoError(f"Unknown command {command!r}: type a position 1-10, swap A B, keep (k) or help.")
    verb = COMMANDS.get(command, command)
    if verb in loop.SEAT_ONLY_ACTIONS and verb != "keep":
        return loop.SEAT_ONLY_ACTIONS[verb](seat)
    if number is not None and number in SLOT_LABELS:
        return Exchange(seat, SLOT_LABELS.index(number))
    raise RackoError(f"Unknown command {command!r}: type draw, take, a slot 5-50, discard, racko or help.")


def _small_number(word: str) -> int | None:
    """A slot or position typed in plain digits 0-9 (not "²" or a thousand digits), else ``None``."""
    if 1 <= len(word) <= 3 and all("0" <= character <= "9" for character in word):
        return int(word)
    return None


def _show(session: PlaySession, step: loop.PersonToAct, write: Writer) -> None:
    observation = step.observation
    seat = step.seat
    names = session.names
    rules = session.rules
    write(f"Scores: {scores_line(rules, names, observation.public.totals)} (target {rules.target}).")
    if isinstance(observation, HighLowObservation):
        table = observation.public
        for other, row in enumerate(table.rows):
            if other != seat:
                write(f"{names[other]}'s row:")
                write(row_line(row))
        write(f"Stock: {table.stock_size} cards. Your row (positions 1-10, left to right):")
        write(row_line(observation.rack))
    else:
        public = observation.public
        for other, known in enumerate(public.known):
            if other != seat:
                partner = " (your partner)" if rules.partners and rules.side_of(other) == rules.side_of(seat) else ""
                write(f"{names[other]}'s rack{partner} as far as you have seen it:")
                for line in rack_lines(known):
                    write(line)
        top = public.discard_top
        write(f"Discard pile: {top if top is not None else 'empty'}. Stock: {public.stock_size} cards. Your rack:")
        for line in rack_lines(observation.rack):
            write(line)
    write(step.situation.worded(PROMPTS))
