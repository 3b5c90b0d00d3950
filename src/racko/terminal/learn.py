"""``racko learn``: the first lesson line by line, in English, Dutch or French.

The lesson's script, its checks and its words are the analysis room's (:mod:`racko.analysis.lesson`); this module
shows each step and reads the person's answers.  It reads plain lines, so it works in a pipe as well as at a
terminal; ``q``, the end of the input or Ctrl+C leave quietly.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from racko.analysis.lesson import LEARNER, OPPONENT, OPPONENT_NAME, Lesson, step_words
from racko.analysis.words import language, say
from racko.errors import RackoError
from racko.rules import SLOT_LABELS

Reader = Callable[[], str | None]
Writer = Callable[[str], None]

VERBS = {"t": "take", "d": "draw", "x": "discard", "r": "racko", "w": "wait", "n": "next", "": "next"}
"""Typed commands by their keys (the table's keys); the full words are accepted too."""
LEAVE = ("q", "quit", "exit")
HELP = ("h", "help", "?")


class _Leave(Exception):
    """The person left (q, the end of the input)."""


def learn_command(
    lang: Annotated[str, typer.Option("--lang", help="The lesson's language: en, nl or fr.")] = "en",
) -> None:
    """A first round of Rack-O that teaches the game step by step (about ten minutes).

    Type t to take the discard, d to draw, a slot (5, 10 ... 50), x to discard, r for Rack-O, w to play on, Enter
    to read on, a number to answer a question; q (or the end of the input) leaves.
    """
    try:
        code = language(lang)
    except RackoError as error:
        typer.echo(f"racko: {error}", err=True)
        raise typer.Exit(2) from None

    def read() -> str | None:
        line = sys.stdin.readline()
        return line if line else None

    run_lesson(read, typer.echo, code)


def run_lesson(read: Reader, write: Writer, lang: str = "en") -> bool:
    """Play the lesson through (True), or until the person leaves (False)."""

    def words(key: str, values: dict[str, Any] | None = None) -> str:
        return say(key, values, lang)

    lesson = Lesson()
    try:
        write(words("lesson:term-intro", {"name": OPPONENT_NAME}))
        write(words("lesson:term-help"))
        while True:
            _show(lesson, write, lang)
            if lesson.done:
                write(words("lesson:term-next"))
                return True
            while True:
                line = read()
                if line is None:
                    raise _Leave
                typed = line.strip().lower()
                if typed in LEAVE:
                    raise _Leave
                if typed in HELP:
                    write(words("lesson:term-help"))
                    continue
                answer = _answer(lesson, typed)
                if answer is None or (answer == "next" and lesson.step.kind != "read"):
                    if answer is None:  # (a line left empty only asks for the step's prompt again)
                        shown = "".join(character for character in typed[:20] if character.isprintable())
                        write(words("lesson:term-unknown", {"command": shown}))
                    write(words(f"lesson:prompt:{lesson.step.kind}"))
                    continue
                feedback = lesson.attempt(answer)
                said = " ".join(sentence.text(lang) for sentence in feedback.why)
                write(said if feedback.accepted else words("lesson:term-wrong", {"why": said}))
                if feedback.accepted:
                    break
    except (_Leave, KeyboardInterrupt):
        write(words("lesson:term-bye"))
        return False


def _answer(lesson: Lesson, typed: str) -> str | None:
    """The lesson's answer for what the person typed, or ``None`` if it means nothing here."""
    if typed in VERBS:
        return VERBS[typed]
    if typed in VERBS.values():
        return typed
    if typed.isascii() and typed.isdigit() and len(typed) <= 4:
        number = int(typed)
        if lesson.step.kind == "choose":
            return f"choice:{number}"
        if number in SLOT_LABELS:
            return f"slot:{SLOT_LABELS.index(number)}"
    return None


def _show(lesson: Lesson, write: Writer, lang: str) -> None:
    """The step: what happened since the last move, the rack and the piles (every rack once the round is over),
    and what the step asks."""

    def words(key: str, values: dict[str, Any] | None = None) -> str:
        return say(key, values, lang)

    view = lesson.view()
    name = view["name"]
    write("")
    title = step_words(lesson.step, "title").text(lang)
    step = words("lesson:step-of", {"n": view["step"] + 1, "total": view["steps"]})
    write(f"== {title} ({step}) ==")
    for said in lesson.happened:
        write(said.text(lang))
    result = view["result"]
    if result is None:
        write(words("lesson:term-heading", {"what": words("lesson:your-rack")}))
        for line in _rack_lines(view["rack"], words):
            write(line)
        if view["out_of_order"]:
            slots = ", ".join(str(SLOT_LABELS[index]) for index in view["out_of_order"])
            write(words("lesson:term-out", {"slots": slots}))
        discard = view["discard"] if view["discard"] is not None else "-"
        write(words("lesson:term-piles", {"discard": discard, "stock": view["stock"]}))
        if view["held"] is not None:
            write(words("lesson:term-held", {"card": view["held"]}))
    else:
        for seat, label in ((LEARNER, words("lesson:your-rack")), (OPPONENT, words("lesson:rack-of", view["values"]))):
            write(words("lesson:term-heading", {"what": label}))
            for line in _rack_lines(result["racks"][seat], words):
                write(line)
        scores = {"mine": result["scores"][LEARNER], "name": OPPONENT_NAME, "theirs": "?"}
        if name != "score":  # the question there is Robin's score
            scores["theirs"] = result["scores"][OPPONENT]
        write(words("lesson:scores", scores))
    write(step_words(lesson.step, "text").text(lang))
    if view["choices"]:
        write(words("lesson:term-choose", {"choices": ", ".join(view["choices"])}))


def _rack_lines(cards: list[int], words: Callable[..., str]) -> list[str]:
    """A rack as two aligned lines in the lesson's language: slot labels 5 to 50, and the cards."""
    slot_word, card_word = words("lesson:slot-word"), words("lesson:card-word")
    width = max(len(slot_word), len(card_word))
    labels = " ".join(f"{label:>3}" for label in SLOT_LABELS)
    values = " ".join(f"{card:>3}" for card in cards)
    return [f"  {slot_word:<{width}} {labels}", f"  {card_word:<{width}} {values}"]
