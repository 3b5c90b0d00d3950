"""``racko puzzle``: the puzzles one at a time, line by line as in ``racko play --plain``: the position as the seat
saw it, a typed move, right or wrong with the reason, and a streak.  Works from a pipe; the end of the input, quit
or Ctrl+C end it quietly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from racko.analysis.puzzles import Puzzle, PuzzleSet, answer, load
from racko.analysis.words import LANGUAGES, language, say
from racko.errors import RackoError
from racko.rules import SLOT_LABELS

Reader = Callable[[], str | None]
Writer = Callable[[str], None]

VERBS = {"d": "draw", "t": "take", "x": "discard", "r": "racko", "w": "wait", "k": "keep"}
"""Typed verbs by their keys; the words are the verbs themselves."""


def typed_move(puzzle: Puzzle, words: list[str]) -> dict[str, Any] | None:
    """The move (as records write it) that typed words mean in this puzzle, if they mean one of its moves."""
    seat = puzzle.view["seat"]
    verb = VERBS.get(words[0], words[0])
    numbers = [int(word) for word in words[1:3] if word.isdigit() and len(word) <= 2]
    row = puzzle.variant == "highlow"
    wanted: dict[str, Any]
    if verb == "swap" and len(numbers) == 2:
        wanted = {"seat": seat, "act": "swap", "positions": numbers}
    elif words[0].isdigit() and len(words[0]) <= 3:
        number = int(words[0])
        wanted = (
            {"seat": seat, "act": "replace", "position": number}
            if row
            else {"seat": seat, "act": "exchange", "slot": number}
        )
    else:
        wanted = {"seat": seat, "act": verb}
    return next((move.action for move in puzzle.moves if move.action == wanted), None)


def typed_forms(puzzle: Puzzle) -> str:
    """What may be typed for this puzzle's moves ("draw, take"; "5, 10, ... 50, discard")."""
    forms: list[str] = []
    for move in puzzle.moves:
        action = move.action
        act = action["act"]
        form = {"exchange": str(action.get("slot")), "replace": str(action.get("position")), "swap": "swap A B"}
        text = form.get(act, act)
        if text not in forms:
            forms.append(text)
    return ", ".join(forms)


def _rack_lines(cards: list[Any], lang: str) -> list[str]:
    slot, card = say("puzzle:slot", lang=lang), say("puzzle:card", lang=lang)
    width = max(len(slot), len(card))
    labels = " ".join(f"{label:>3}" for label in SLOT_LABELS)
    values = " ".join(f"{value if value is not None else '?':>3}" for value in cards)
    return [f"  {slot:<{width}} {labels}", f"  {card:<{width}} {values}"]


def _row_line(cards: list[Any]) -> str:
    return "  " + " ".join(f"{card:>3}" for card in cards)


def show(puzzle: Puzzle, number: int, count: int, write: Writer, lang: str) -> None:
    """The position as the seat saw it, and what it is asked."""
    view = puzzle.view
    write("")
    write(
        say("puzzle:number", {"number": number, "count": count}, lang)
        + " · "
        + say(f"puzzle:kind-{puzzle.kind}", lang=lang)
    )
    if puzzle.two_player_rule and puzzle.players == 2:
        write(say("puzzle:two-player-rule", lang=lang))
    row = puzzle.variant == "highlow"
    for other in view["others"]:
        key = "puzzle:other-row" if row else "puzzle:other-rack"
        write(say(key, {"seat": other["seat"] + 1}, lang))
        for line in [_row_line(other["rack"])] if row else _rack_lines(other["rack"], lang):
            write(line)
    discard = view["discard"] if view["discard"] is not None else say("puzzle:empty", lang=lang)
    write(say("puzzle:discard", {"card": discard}, lang) + " · " + say("puzzle:stock", {"count": view["stock"]}, lang))
    write(say("puzzle:your-row" if row else "puzzle:your-rack", lang=lang))
    own = [_row_line(list(range(1, len(view["rack"]) + 1))), _row_line(view["rack"])]  # the positions above the row
    for line in own if row else _rack_lines(view["rack"], lang):
        write(line)
    write(say(f"puzzle:ask-{view['situation']}", {"card": view["card"]}, lang))


class _Stop(Exception):
    pass


def run_puzzles(puzzles: list[Puzzle], read: Reader, write: Writer, lang: str = "en", start: int = 1) -> int:
    """Pose the puzzles from number ``start`` until they run out or the person stops; the number solved."""
    right = done = streak = longest = 0
    count = len(puzzles)
    write(say("puzzle:start", {"count": count}, lang))
    try:
        for number in range(start, count + 1):
            puzzle = puzzles[number - 1]
            show(puzzle, number, count, write, lang)
            chosen = _read_move(puzzle, number, count, read, write, lang)
            if chosen is None:  # skipped
                write(say("puzzle:skipped", {"best": puzzle.move_words(puzzle.answer, lang)}, lang))
                streak = 0
                continue
            verdict = answer(puzzle, chosen, lang)
            done += 1
            right += verdict.right
            streak = streak + 1 if verdict.right else 0
            longest = max(longest, streak)
            for text in verdict.texts():
                write(text)
            write(
                say("puzzle:streak", {"streak": streak}, lang)
                + f" ({say('puzzle:best-streak', {'best': longest}, lang)}) · "
                + say("puzzle:score", {"right": right, "done": done}, lang)
            )
    except (_Stop, KeyboardInterrupt):
        pass
    write(say("puzzle:bye", {"right": right, "done": done, "best": longest}, lang))
    return right


def _read_move(
    puzzle: Puzzle, number: int, count: int, read: Reader, write: Writer, lang: str
) -> dict[str, Any] | None:
    """Read lines until one is a move of the puzzle (or skip: ``None``)."""
    while True:
        line = read()
        if line is None:
            raise _Stop
        words = line.strip().lower().split()
        if not words:
            continue
        command = words[0]
        if command in ("quit", "q", "exit"):
            raise _Stop
        if command in ("help", "h"):
            write(say("puzzle:help", lang=lang))
            continue
        if command in ("show", "s"):
            show(puzzle, number, count, write, lang)
            continue
        if command in ("skip", "n"):
            return None
        move = typed_move(puzzle, words)
        if move is not None:
            return move
        write(say("puzzle:bad-input", {"text": repr(line.strip()[:20]), "moves": typed_forms(puzzle)}, lang))


def puzzle_command(
    lang: Annotated[str, typer.Option("--lang", help=f"The language: {', '.join(LANGUAGES)}.")] = "en",
    variant_name: Annotated[
        str | None,
        typer.Option(
            "--variant",
            help="Only puzzles of this variant (those shipped are classic, bonus and highlow); default: all.",
        ),
    ] = None,
    number: Annotated[int, typer.Option("--number", min=1, help="Start at this puzzle.")] = 1,
) -> None:
    """Puzzles: find the best move in positions from computer players' games; right or wrong with the reason, and
    your streak.  Type help for the commands."""
    try:
        chosen_lang = language(lang)
        every: PuzzleSet = load()
        puzzles = every.of_variant(variant_name)
    except RackoError as error:
        typer.echo(f"racko: {error}", err=True)
        raise typer.Exit(2) from None
    if not puzzles:
        typer.echo(f"racko: {say('puzzle:none', lang=chosen_lang)}", err=True)
        raise typer.Exit(2)
    if number > len(puzzles):
        typer.echo(f"racko: {say('puzzle:bad-number', {'count': len(puzzles)}, chosen_lang)}", err=True)
        raise typer.Exit(2)

    def read() -> str | None:
        try:
            return input()
        except EOFError:
            return None

    run_puzzles(puzzles, read, typer.echo, chosen_lang, number)
