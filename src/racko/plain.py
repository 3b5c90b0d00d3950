"""``racko play --plain``: Rack-O line by line, for screen readers and pipes (apps layer).

Everything is text: after every move the player's rack is shown with its slot
labels 5 to 50, and the player types a command (``help`` lists them).  The game
is saved after every action; ``quit`` (or the end of the input, or Ctrl+C) leaves it saved.
"""

from __future__ import annotations

from collections.abc import Callable

from racko.actions import CallRacko, Discard, DrawFromStock, Exchange, TakeDiscard, Wait
from racko.errors import RackoError
from racko.families import AnyAction
from racko.highlow import HighLowObservation, HighLowPhase, KeepOrder, Replace, SwapCards
from racko.match import side_totals
from racko.observation import Observation, Phase
from racko.rules import SLOT_LABELS, variant
from racko.session import PlaySession, card_words, hint_lines
from racko.text import rack_lines, round_summary, row_line, score_sheet, side_names

CLASSIC_HELP = """Commands:
  draw (d)        draw the top card of the stock
  take (t)        take the top card of the discard pile
  5, 10, ... 50   put the card you hold in that slot (its card goes on the discard pile)
  discard (x)     discard the card you drew and keep your rack as it is
  racko (r)       call Rack-O when your rack qualifies
  wait (w)        Bonus Rack-O: play on instead of calling, hoping for a longer run
  hint (?)        what the expert would do, from your own view
  show (s)        show the table again
  help (h)        this list
  quit (q)        leave; the game stays saved and `racko play` offers to resume it"""

HIGHLOW_HELP = """Commands:
  1 ... 10        put the card you hold at that position of your row (1 = left end); the card there moves on
  swap A B        after a Swap card: swap the cards at positions A and B of your row
  keep            after a Swap card: keep your row as it is
  hint (?)        what the expert would do, from your own view
  show (s)        show the table again
  help (h)        this list
  quit (q)        leave; the game stays saved and `racko play` offers to resume it"""

CLASSIC_COMMANDS: dict[str, Callable[[int], AnyAction]] = {
    "draw": DrawFromStock,
    "d": DrawFromStock,
    "take": TakeDiscard,
    "t": TakeDiscard,
    "discard": Discard,
    "x": Discard,
    "racko": CallRacko,
    "r": CallRacko,
    "wait": Wait,
    "w": Wait,
}
"""Classic commands by their words and keys (shared with the terminal app's keys)."""

Reader = Callable[[], str | None]
Writer = Callable[[str], None]


class _Quit(Exception):
    pass


def run_plain(session: PlaySession, read: Reader, write: Writer) -> bool:
    """Play until the game ends (True) or the player quits or the input ends (False; the game stays saved)."""
    humans = session.humans
    viewer = humans[0] if len(humans) == 1 else None  # hot-seat: narrate only what everyone sees
    finished = len(session.match.results)
    last_human: int | None = None
    told_problem: str | None = None
    write(f"{variant(session.rules.variant).title}: {', '.join(session.names)}. Type help for the commands.")
    try:
        while True:
            for line in session.news(viewer):
                write(line)
            if session.save_problem is not None and session.save_problem != told_problem:
                write(session.save_problem)
            told_problem = session.save_problem
            if len(session.match.results) > finished:
                finished = len(session.match.results)
                last_human = None
                _round_over(session, write)
            if session.match.over:
                _game_over(session, write)
                return True
            seat = session.to_act
            assert seat is not None
            if not session.human_to_act():
                session.play_bot()
                continue
            if len(humans) > 1 and seat != last_human:
                # A new round deals new racks, so the curtain comes down even for the same player.
                write(f"--- Pass to {session.names[seat]}; {session.names[seat]}, press Enter to see your rack. ---")
                if read() is None:
                    raise _Quit
            last_human = seat
            _show(session, seat, write)
            _turn(session, seat, read, write)
    except (_Quit, KeyboardInterrupt):  # quit, the end of the input, or Ctrl+C: all leave the game saved
        write(session.save_problem or "Game saved. Run racko play again to resume it.")
        return False


def _turn(session: PlaySession, seat: int, read: Reader, write: Writer) -> None:
    """Read commands until one of them is a legal action, and apply it."""
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
            highlow = isinstance(session.observation(seat), HighLowObservation)
            write(HIGHLOW_HELP if highlow else CLASSIC_HELP)
            continue
        if command in ("show", "s"):
            _show(session, seat, write)
            continue
        if command in ("hint", "?"):
            _hint(session, seat, write)
            continue
        try:
            action = parse_command(session.observation(seat), words)
            session.play(action)
        except RackoError as error:
            write(str(error))
            continue
        return


def parse_command(observation: Observation | HighLowObservation, words: list[str]) -> AnyAction:
    """The action a typed command means for this seat; an unknown command raises with a hint."""
    seat = observation.seat
    command = words[0]
    if isinstance(observation, HighLowObservation):
        if command == "swap" and len(words) == 3 and all(word.isdigit() for word in words[1:]):
            return SwapCards(seat, int(words[1]) - 1, int(words[2]) - 1)
        if command == "keep":
            return KeepOrder(seat)
        if command.isdigit() and 1 <= int(command) <= 10:
            return Replace(seat, int(command) - 1)
        raise RackoError(f"Unknown command {command!r}: type a position 1-10, swap A B, keep or help.")
    if command in CLASSIC_COMMANDS:
        return CLASSIC_COMMANDS[command](seat)
    if command.isdigit() and int(command) in SLOT_LABELS:
        return Exchange(seat, SLOT_LABELS.index(int(command)))
    raise RackoError(f"Unknown command {command!r}: type draw, take, a slot 5-50, discard, racko or help.")


def _show(session: PlaySession, seat: int, write: Writer) -> None:
    observation = session.observation(seat)
    names = session.names
    rules = session.rules
    sides = zip(side_names(rules, names), side_totals(rules, observation.public.totals), strict=True)
    write(f"Scores: {', '.join(f'{side} {total}' for side, total in sides)} (target {rules.target}).")
    if isinstance(observation, HighLowObservation):
        table = observation.public
        for other, row in enumerate(table.rows):
            if other != seat:
                write(f"{names[other]}'s row:")
                write(row_line(row))
        write(f"Stock: {table.stock_size} cards. Your row (positions 1-10, left to right):")
        write(row_line(observation.rack))
        if table.phase is HighLowPhase.SWAP:
            write("A Swap card: type swap A B to swap two cards of your row, or keep.")
        else:
            held = observation.held if observation.held is not None else table.passed_card
            write(f"You hold {card_words(held or 0)}: type the position (1-10) to put it at.")
        return
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
    write(_prompt(observation))


def _prompt(observation: Observation) -> str:
    public = observation.public
    legal = observation.legal_actions()
    seat = observation.seat
    if public.phase is Phase.PLACE:
        if public.taken_discard is not None:
            return f"You took {observation.held}: type the slot (5-50) to put it in."
        return f"You drew {observation.held}: type a slot (5-50) to put it in, or discard."
    if public.phase is Phase.DECLARE:
        return "Your rack qualifies: racko to call Rack-O, or wait to play on for a longer run."
    if CallRacko(seat) in legal:
        return "Your turn: racko, or draw or take to play on."
    return "Your turn: draw or take."


def _hint(session: PlaySession, seat: int, write: Writer) -> None:
    best, *others = hint_lines(session.observation(seat))
    write(f"Hint: {best}")
    for line in others:
        write(f"  or: {line}")


def _round_over(session: PlaySession, write: Writer) -> None:
    result = session.match.results[-1]
    write("")
    write(f"Round {len(session.match.results)} is over.")
    for line in round_summary(result, session.names):
        write(line)
    for line in score_sheet(session.rules, session.names, session.match.results):
        write(line)
    write("")


def _game_over(session: PlaySession, write: Writer) -> None:
    outcome = session.match.outcome
    assert outcome is not None
    winners = " & ".join(session.names[seat] for seat in outcome.seats)
    write(f"Game over: {winners} won.")
    if session.finished_path is not None:
        write(f"The game's record is in {session.finished_path} (racko replay and racko hint read it).")
