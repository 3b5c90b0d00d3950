"""The terminal app of ``racko play`` (apps layer, Textual): a start screen, the table, round and game ends.

Keys at the table: ``d`` draw, ``t`` take the discard, ``1``-``9`` and ``0`` the
slots 5 to 50 (or High-Low positions 1 to 10), ``x`` discard, ``r`` Rack-O,
``w`` wait (Bonus), ``k`` keep the row (High-Low), ``?`` hint, ``h`` or F1 the
rules page, ``s`` statistics, ``+``/``-`` the pace, ``q`` quit (the game stays
saved); :func:`table_keys` lists them for the rules page.  Slots can also be
clicked, and the footer's keys too.  Computer moves are shown one at a time at
``pace``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, RichLog, Select, Static

from racko.actions import Exchange
from racko.analysis.evaluate import seat_history
from racko.analysis.explain import hint_text
from racko.errors import RackoError
from racko.families import AnyAction
from racko.highlow import HighLowObservation, Replace, SwapCards
from racko.play.library import data_dir, finished_games, game_stats, stats_lines
from racko.play.loop import (
    COMPUTER_PACE,
    SEAT_ONLY_ACTIONS,
    ComputerToAct,
    GameOver,
    HandOver,
    Notice,
    PersonToAct,
    RoundOver,
    Told,
    game_verbs,
)
from racko.play.loop import Screen as LoopScreen
from racko.play.session import PlaySession, SeatSpec, bots_for, default_opponent
from racko.play.setup import DEFAULT_NAME, HUMAN, build_setup, describe_save, describe_setup
from racko.play.text import (
    highest_card,
    last_placed,
    rack_marks,
    round_report,
    rules_summary,
    score_table,
    scores_line,
)
from racko.rules import RACK_SIZE, SLOT_LABELS, VARIANTS, Rules, variant
from racko.terminal.cards import MARK_BREAK, MARK_IN_ORDER, MARK_PLACED, MARK_RUN, Face, card_face, chip
from racko.terminal.saves import FileStore, aside_note, set_aside
from racko.terminal.settings import Settings, load_settings, save_settings

SLOT_KEYS = "1234567890"
"""Key i picks slot SLOT_LABELS[i] (1 = slot 5 ... 0 = slot 50), or High-Low position i + 1."""

MAX_OPPONENTS = 4
"""The most other seats at a table (High-Low with five players): one start-screen row each."""

CLASSIC_KEYS = {"d": "draw", "t": "take", "x": "discard", "r": "racko", "w": "wait"}
HIGHLOW_KEYS = {"k": "keep"}
ELSEWHERE = {
    "d": "Draw (not in High-Low)",
    "t": "Take (not in High-Low)",
    "x": "Discard (not in High-Low)",
    "r": "Rack-O (not in High-Low)",
    "w": "Wait (Bonus Rack-O only)",
    "k": "Keep row (High-Low only)",
}
"""What the keys panel says of a key that belongs to another variant (pressed, it is explained)."""


class StartScreen(Screen[tuple[Rules, list[SeatSpec]]]):
    """Choose the variant, the players, who sits where (and the people's names), the target and the refill rule;
    Enter starts.  It opens with the settings of the last game started, if they were kept."""

    AUTO_FOCUS = "#variant"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "Start", priority=True),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, last: Settings | None = None) -> None:
        super().__init__()
        self.last = last
        self.variant_name = last.variant if last is not None else "classic"
        """The variant the other fields are set for."""

    def compose(self) -> ComposeResult:
        last = self.last
        name = self.variant_name
        rules = variant(name).rules()
        players = last.players if last is not None else rules.players
        seats = list(last.seats) if last is not None else []
        seats += [default_opponent(name)] * (MAX_OPPONENTS - len(seats))
        names = list(last.names) if last is not None else []
        with VerticalScroll(id="start"):
            yield Label("Rack-O: a new game. You sit in seat 1; Enter starts.", id="title")
            with Horizontal(classes="field"):
                yield Label("Variant", classes="name")
                variants = [(cls.title, value) for value, cls in VARIANTS.items()]
                yield Select(variants, value=name, allow_blank=False, compact=True, id="variant")
            yield Static(VARIANTS[name].description, id="about")
            with Horizontal(classes="field"):
                yield Label("Players", classes="name")
                yield Select(_player_choices(name), value=players, allow_blank=False, compact=True, id="players")
            with Horizontal(classes="field"):
                yield Label("Seat 1", classes="name")
                yield Label("you", classes="seat")
                yield Input(
                    _name_shown(names[0] if names else ""), id="name-0", max_length=40, compact=True, classes="person"
                )
            people = iter(names[1:])
            for seat in range(1, MAX_OPPONENTS + 1):
                choice = seats[seat - 1]
                given = next(people, "") if choice == HUMAN and seat < players else ""
                with Horizontal(classes="field seat-field", id=f"seat-row-{seat}"):
                    yield Label(f"Seat {seat + 1}", classes="name")
                    yield Select(_seat_choices(name), value=choice, allow_blank=False, compact=True, id=f"seat-{seat}")
                    yield Input(_name_shown(given), id=f"name-{seat}", max_length=40, compact=True, classes="person")
            with Horizontal(classes="field group"):
                yield Label("Target", classes="name")
                target = str(last.target) if last is not None and last.target != rules.target else ""
                yield Input(target, placeholder=f"{rules.target} points", id="target", type="integer", compact=True)
            with Horizontal(classes="field", id="run-rule-row"):
                yield Label("2 players", classes="name")
                run_rule = [("a Rack-O needs a run of three (the 2-player rule)", True), ("no run needed", False)]
                chosen = last.two_player_rule or last.players != 2 if last is not None else True
                yield Select(run_rule, value=chosen, allow_blank=False, compact=True, id="run-rule")
            with Horizontal(classes="field"):
                yield Label("Refill", classes="name")
                refills = [("turn the discard pile over", "flip"), ("shuffle the discard pile", "shuffle")]
                refill = last.refill if last is not None else rules.refill
                yield Select(refills, value=refill, allow_blank=False, compact=True, id="refill")
            yield Label("", id="problem", markup=False)
            yield Button("Start (Enter)", id="start-button", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._show_seats()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While a list is open, Enter picks from it instead of starting the game.
        return not (action == "start" and any(select.expanded for select in self.query(Select)))

    @on(Select.Changed, "#variant")
    def _variant_changed(self, event: Select.Changed) -> None:
        if not isinstance(event.value, str) or event.value == self.variant_name:
            return  # the value it was composed with, not a change
        name = self.variant_name = event.value
        self.query_one("#about", Static).update(VARIANTS[name].description)
        players = self.query_one("#players", Select)
        players.set_options(_player_choices(name))
        players.value = VARIANTS[name].player_counts[0]
        # Offer only the bots that play this variant, keeping each seat's choice where it can.
        choices = _seat_choices(name)
        for seat in range(1, MAX_OPPONENTS + 1):
            select = self.query_one(f"#seat-{seat}", Select)
            kept = select.value
            select.set_options(choices)
            select.value = kept if kept in [value for _, value in choices] else default_opponent(name)
        rules = variant(name).rules()
        self.query_one("#refill", Select).value = rules.refill
        self.query_one("#target", Input).placeholder = f"{rules.target} points"
        self._show_seats()

    @on(Select.Changed, "#players")
    @on(Select.Changed, ".seat-field Select")
    def _seats_changed(self) -> None:
        self._show_seats()

    def _show_seats(self) -> None:
        """Rows for the seats at the table, a name field for each person (seat 1 is always one)."""
        count = self._count()
        humans = [seat for seat in range(1, count) if self.query_one(f"#seat-{seat}", Select).value == HUMAN]
        for seat in range(1, MAX_OPPONENTS + 1):
            self.query_one(f"#seat-row-{seat}").display = seat < count
            field = self.query_one(f"#name-{seat}", Input)
            field.display = seat in humans
            field.placeholder = f"name (Player {seat + 1})"
        self.query_one("#name-0", Input).placeholder = f"your name ({'Player 1' if humans else DEFAULT_NAME})"
        self.query_one("#run-rule-row").display = count == 2

    def _count(self) -> int:
        players = self.query_one("#players", Select).value
        return players if isinstance(players, int) else 2

    @on(Button.Pressed, "#start-button")
    def _pressed(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        variant_name = str(self.query_one("#variant", Select).value)
        count = self._count()
        others = [str(self.query_one(f"#seat-{seat}", Select).value) for seat in range(1, count)]
        people = [0, *(seat for seat, choice in enumerate(others, start=1) if choice == HUMAN)]
        names = [self.query_one(f"#name-{seat}", Input).value for seat in people]
        target_text = self.query_one("#target", Input).value.strip()
        try:
            setup = build_setup(
                variant_name,
                count,
                others,
                DEFAULT_NAME,
                two_player_rule=self.query_one("#run-rule", Select).value is True if count == 2 else None,
                target=int(target_text) if target_text else None,
                refill=str(self.query_one("#refill", Select).value),
                names=names,
            )
        except (RackoError, ValueError) as error:
            self.query_one("#problem", Label).update(str(error))
            return
        self.dismiss(setup)


def _name_shown(name: str) -> str:
    """A remembered name as its field shows it: a default name ("You", "Player 2") stays a default."""
    return "" if name == DEFAULT_NAME or re.fullmatch(r"Player \d", name) else name


def _player_choices(variant_name: str) -> list[tuple[str, int]]:
    return [(str(count), count) for count in VARIANTS[variant_name].player_counts]


def _seat_choices(variant_name: str) -> list[tuple[str, str]]:
    return [("a person (hot-seat)", HUMAN), *[(f"computer: {name}", name) for name in bots_for(variant_name)]]


class MessageScreen(ModalScreen[bool]):
    """A page of text (round end, game end, curtain, resume question); Enter goes on, arrows scroll a long one.

    Its text is plain (never markup): it holds players' names, which may contain brackets.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "answer(True)", "Continue", priority=True),
        Binding("n", "answer(False)", "No", show=False),
        # A modal screen hides the app's bindings, so Escape is this screen's: the keys panel, then a page.
        Binding("escape", "escape", "Close the keys panel, or this page", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(
        self,
        text: str | RenderableType,
        prompt: str = "Press Enter to continue.",
        name: str | None = None,
        *,
        page: bool = False,
    ) -> None:
        """``page``: a page to read (the rules, the statistics), which Escape closes too."""
        super().__init__(name=name)
        self.text = text
        self.prompt = prompt
        self.page = page

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "escape":
            return self.page or bool(self.query("HelpPanel"))
        return True

    def action_escape(self) -> None:
        if self.query("HelpPanel"):
            self.app.action_hide_help_panel()
        else:
            self.dismiss(True)

    def compose(self) -> ComposeResult:
        with Vertical(id="message"):
            with VerticalScroll(id="message-body"):
                yield Static(self.text, id="message-text", markup=False)
            yield Label(self.prompt, id="message-prompt", markup=False)

    def on_mount(self) -> None:
        self.query_one("#message-body").focus()  # so the arrow keys scroll a page taller than the screen

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class TableScreen(Screen[None]):
    """The table: opponents' racks as far as seen, the piles, your rack as slot buttons, and what happened.

    The flow of the game is the play loop's (:class:`racko.play.loop.Screen`): this screen renders its steps and
    turns keys and clicks into actions.
    """

    AUTO_FOCUS = ""  # nothing: a focused slot would take a stray Enter as "put the card here"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "act('draw')", "Draw"),
        Binding("t", "act('take')", "Take"),
        Binding("x", "act('discard')", "Discard"),
        Binding("r", "act('racko')", "Rack-O"),
        Binding("w", "act('wait')", "Wait"),
        Binding("k", "act('keep')", "Keep row"),
        # The same keys where they mean nothing in this variant: say so rather than ignore them.
        *[Binding(key, f"not_in_this_game('{key}')", ELSEWHERE[key], show=False) for key in ELSEWHERE],
        Binding("question_mark", "hint", "Hint"),
        Binding("h,f1", "rules", "Rules"),
        Binding("s", "stats", "Stats", show=False),
        Binding("plus,equals_sign", "pace(-1)", "Faster", show=False),
        Binding("minus", "pace(1)", "Slower", show=False),
        Binding("q", "app.quit", "Quit"),
        # Described again in __init__ for the variant played: slots in the classic family, positions in High-Low.
        *[
            Binding(key, f"slot({index})", f"Slot {SLOT_LABELS[index]}", show=False)
            for index, key in enumerate(SLOT_KEYS)
        ],
    ]
    KNOWN_KEYS = frozenset(
        [*CLASSIC_KEYS, *HIGHLOW_KEYS, *SLOT_KEYS, "question_mark", "f1", "h", "s", "plus", "equals_sign", "minus", "q"]
    )
    """Every key the table answers; any other printable key is explained rather than ignored."""

    def __init__(self, session: PlaySession, pace: float) -> None:
        super().__init__()
        self.session = session
        self.loop = LoopScreen(session)
        self.pace = pace
        self.verbs = game_verbs(session.rules)
        """What players of this variant ever do: the footer offers exactly these keys."""
        self.turn: PersonToAct | None = None
        """The person's turn being waited for; ``None`` while a message is up or a computer player moves."""
        self.swap_first: int | None = None
        if "replace" in self.verbs:
            # The keys panel lists this screen's own bindings: name the keys as this variant uses them.
            for index, key in enumerate(SLOT_KEYS):
                self._bindings.key_to_bindings[key] = [
                    Binding(key, f"slot({index})", f"Position {index + 1}", show=False)
                ]

    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            yield Static("", id="scores", markup=False)
            yield Static("", id="opponents", markup=False)
            with Horizontal(id="piles"):
                yield Static("Discard pile", classes="pile-name", markup=False)
                yield Static("", id="discard", classes="card pile", markup=False)
                yield Static("", id="stock", classes="pile-name", markup=False)
                yield Static("You hold", id="held-name", classes="pile-name", markup=False)
                yield Static("", id="held", classes="card pile", markup=False)
            with Horizontal(id="rack"):
                for index in range(RACK_SIZE):
                    slot = Button("", id=f"slot-{index}", classes="card slot")
                    slot.styles.line_pad = 0  # CSS takes no 0 for it; the card's inside is all for its face
                    yield slot
            yield Static("", id="prompt", markup=False)
            # Lines wrap at the log's own width (by default at least 78 columns, wider than the log: a sideways scroll).
            yield RichLog(id="log", wrap=True, max_lines=200, min_width=1)
        yield Static("", id="too-small", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._fit(self.app.size.width, self.app.size.height)
        self._refresh()
        self._next()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The footer shows only this variant's keys; the others fall through to not_in_this_game.
        if action == "act":
            return parameters[0] in self.verbs
        if action == "not_in_this_game":
            return _key_verb(str(parameters[0])) not in self.verbs
        return True

    # --- the flow of play ------------------------------------------------------------------------

    def _next(self) -> None:
        """Render the loop's steps until one needs a person (a key, or Enter on a message) or a timer."""
        self.turn = None
        while True:
            step = self.loop.next_step()
            if isinstance(step, Told):
                log = self.query_one("#log", RichLog)
                for line in step.lines:
                    log.write(line)
            elif isinstance(step, Notice):
                self.query_one("#log", RichLog).write(Text(step.text, style="bold"))
            elif isinstance(step, RoundOver):
                self._refresh()
                self._round_over(step)
                return
            elif isinstance(step, GameOver):
                self._game_over(step)
                return
            elif isinstance(step, HandOver):
                self._refresh()
                self.app.push_screen(
                    MessageScreen(f"Pass the screen to {step.name}.", f"{step.name}, press Enter to see your rack."),
                    functools.partial(self._lift_curtain, step.seat),
                )
                return
            elif isinstance(step, ComputerToAct):
                self._refresh()
                if self.pace > 0:
                    self.set_timer(self.pace, self._computer_move)
                else:
                    self.call_later(self._computer_move)
                return
            else:
                assert isinstance(step, PersonToAct)
                self.turn = step
                self._refresh()
                return

    def _computer_move(self) -> None:
        try:
            self.loop.computer_move()
        except RackoError as error:  # a save from an older version may seat a bot that cannot play this variant
            self.app.push_screen(
                MessageScreen(f"The computer player cannot go on: {error}", "Press Enter to leave."),
                lambda _: self.app.exit(),
            )
            return
        self._next()

    def _lift_curtain(self, seat: int, _: bool | None = None) -> None:
        self.loop.at_screen(seat)
        self._next()

    def _round_over(self, step: RoundOver) -> None:
        session = self.session
        lines = round_report(step.result, session.names, step.number)
        lines += ["", *score_table(session.rules, session.names, session.match.results[: step.number])]
        prompt = "Press Enter for the final scores." if step.last else "Press Enter for the next round."
        self.app.push_screen(MessageScreen("\n".join(lines), prompt), self._resume)

    def _game_over(self, step: GameOver) -> None:
        session = self.session
        lines = [
            f"Game over: {step.winners} won.",
            "",
            *score_table(session.rules, session.names, session.match.results),
        ]
        if session.finished_at is not None:
            lines += ["", f"Record: {session.finished_at}", "(racko replay and racko hint read it)"]
        prompt = "Enter: play again with the same seats.  n: choose the game again.  q: quit."
        self.app.push_screen(MessageScreen("\n".join(lines), prompt), self._after_the_game)

    def _after_the_game(self, same_seats: bool | None) -> None:
        app = self.app
        assert isinstance(app, RackoApp)
        app.play_again(self.session, same_seats=bool(same_seats))

    def _resume(self, _: bool | None) -> None:
        self._next()

    # --- help, pace, keys that mean nothing, a terminal too small ----------------------------------

    def action_rules(self) -> None:
        """The variant's rules in short, its scoring, and the keys (F1 or h)."""
        page = rules_page(self.session.rules, self.verbs)
        self.app.push_screen(MessageScreen(page, BACK_TO_THE_TABLE, page=True))

    def action_stats(self) -> None:
        """Statistics of the finished games kept in the data directory (s)."""
        lines = stats_lines(game_stats(finished_games(data_dir())))
        self.app.push_screen(MessageScreen("\n".join(lines), BACK_TO_THE_TABLE, page=True))

    def action_pace(self, step: int) -> None:
        """Computer moves faster (+) or slower (-): the pace is kept for the rest of the game."""
        index = min(range(len(PACES)), key=lambda i: abs(PACES[i] - self.pace))
        self.pace = PACES[max(0, min(len(PACES) - 1, index + step))]
        shown = "at once" if self.pace == 0 else f"{self.pace:g} s apart"
        self._say(f"Computer moves are now shown {shown} (+ faster, - slower).")

    def on_key(self, event: events.Key) -> None:
        if event.key in self.KNOWN_KEYS or not event.is_printable or event.character in (None, " "):
            return
        self._say(f"The key {event.character!r} does nothing here: h or F1 shows the rules and the keys.")

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Below the size the table needs, say so instead of hiding slots."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.query_one("#table").display = not small
        notice = self.query_one("#too-small", Static)
        notice.display = small
        notice.update(
            f"This terminal is {width} x {height}; the table needs at least {MIN_SIZE[0]} x {MIN_SIZE[1]}. "
            "Make the window larger (the game waits)."
        )

    # --- the player's actions --------------------------------------------------------------------

    def action_act(self, what: str) -> None:
        turn = self.turn
        if turn is None:
            return
        seat = turn.seat
        self.swap_first = None
        self._play(SEAT_ONLY_ACTIONS[what](seat))

    def action_not_in_this_game(self, key: str) -> None:
        if self.turn is None:
            return
        if "replace" in self.verbs:
            self._say("In High-Low you only choose positions: keys 1-9 and 0 (10), or click; k keeps your row.")
        elif key == "k":
            self._say("k keeps a row after a Swap card, in High-Low only. Here: t takes the discard, d draws.")
        else:
            self._say("Waiting is for Bonus Rack-O: here a rack in order goes Rack-O at once.")

    def action_slot(self, index: int) -> None:
        turn = self.turn
        if turn is None:
            return
        seat = turn.seat
        if turn.situation.kind == "swap":
            if self.swap_first is None or self.swap_first == index:
                self.swap_first = index
                self._say(f"Swap position {index + 1} with which? Press another position (k keeps the row).")
                return
            first, self.swap_first = self.swap_first, None
            self._play(SwapCards(seat, first, index))
        elif turn.situation.kind == "place-in-row":
            self._play(Replace(seat, index))
        else:
            self._play(Exchange(seat, index))

    @on(Button.Pressed, ".slot")
    def _slot_clicked(self, event: Button.Pressed) -> None:
        assert event.button.id is not None
        self.action_slot(int(event.button.id.removeprefix("slot-")))

    def action_hint(self) -> None:
        if self.turn is None:
            return
        # Never in the log: in hot-seat play the log stays on screen for the next player.  The move goes in the
        # prompt; why it is best, on a page of its own that Enter or Escape closes.
        session = self.session
        seen = seat_history(session.match.round, self.turn.seat)
        hint = hint_text(self.turn.observation, seen=seen, names=session.names)
        self._say("Hint: " + hint.best)
        if hint.why:
            lines = [f"Hint: {hint.best}", "", *hint.why, "", *(f"Or: {other}" for other in hint.others)]
            self.app.push_screen(MessageScreen("\n".join(lines), "Press Enter to go back to the table.", page=True))

    def _play(self, action: AnyAction) -> None:
        try:
            self.loop.play(action)
        except RackoError as error:
            self._say(str(error))
            return
        self._next()

    # --- drawing ---------------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.query_one("#prompt", Static).update(Text(text, style="bold"))

    def _refresh(self) -> None:
        session = self.session
        shown = self.loop.shown_seat
        seat = shown if shown is not None else (self.turn.seat if self.turn is not None else session.humans[0])
        hidden = shown is None
        observation = session.observation(seat)
        names = session.names
        rules = session.rules
        to_act = session.to_act
        highest = highest_card(rules)
        headline = [variant(rules.variant).title, f"round {len(session.match.rounds)}"]
        if to_act is not None:
            headline.append(f"{names[to_act]} to play")
        # The match's totals, not the round's: at the game's end they include its last round.
        scores = scores_line(rules, names, session.match.seat_totals, "   " if rules.sides <= 3 else "  ")
        self.query_one("#scores", Static).update(f"{' · '.join(headline)}\nScores: {scores} (target {rules.target})")
        yours = self.turn is not None and self.turn.seat == seat and not hidden
        prompt = self._to_you(self.turn.situation.worded(PROMPTS)) if yours and self.turn is not None else ""
        lines: list[Text] = []
        held: int | None
        if isinstance(observation, HighLowObservation):
            table = observation.public
            for other, row in enumerate(table.rows):
                if other != seat:
                    lines.append(_rack_line(names[other], row, highest))
            held = observation.held if observation.held is not None else table.passed_card
            held = held if yours else None
            top = table.discard_pile[-1] if table.discard_pile else None
            stock = table.stock_size
            labels = [str(position) for position in range(1, RACK_SIZE + 1)]
        else:
            classic = observation.public
            for other, known in enumerate(classic.known):
                if other != seat:
                    partner = " (partner)" if rules.partners and rules.side_of(other) == rules.side_of(seat) else ""
                    lines.append(_rack_line(names[other], known, highest).append(partner))
            held = observation.held if yours else None
            top = classic.discard_top
            stock = classic.stock_size
            labels = [str(label) for label in SLOT_LABELS]
        self.query_one("#opponents", Static).update(Text("\n").join(lines))
        theme = self.app.theme_variables
        face = functools.partial(
            card_face,
            highest=highest,
            table=Color.parse(theme["background"]),
            frame=Color.parse(theme["foreground"]),
            no_color=self.app.no_color,
        )
        _paint(self.query_one("#discard", Static), face(top))
        self.query_one("#stock", Static).update(f"Stock: {stock} cards")
        self.query_one("#held-name").display = held is not None
        held_card = self.query_one("#held", Static)
        held_card.display = held is not None
        _paint(held_card, face(held))
        rack = None if hidden else observation.rack
        marks = None if rack is None else rack_marks(rules, rack)
        placed = frozenset() if rack is None else last_placed(session.match.round.log, seat)
        for index in range(RACK_SIZE):
            button = self.query_one(f"#slot-{index}", Button)
            if rack is None or marks is None:
                _paint(button, face(None, label=labels[index], face_down=True))
                continue
            signs = ""
            if index < marks.in_order:
                signs += MARK_IN_ORDER
            if index == marks.broken_at:
                signs += MARK_BREAK
            if index in marks.run:
                signs += MARK_RUN
            if index in placed:
                signs += MARK_PLACED
            card = face(
                rack[index],
                label=labels[index],
                signs=signs,
                placed=index in placed,
                broken=index == marks.broken_at,
            )
            _paint(button, card)
        self._say(prompt)

    def _to_you(self, prompt: str) -> str:
        """In hot-seat play, the prompt names who it speaks to."""
        shown = self.loop.shown_seat
        return f"{self.session.names[shown]}: {prompt}" if self.loop.shared and shown is not None else prompt


BACK_TO_THE_TABLE = "Enter or Escape: back to the table."
PACES = (0.0, 0.3, 0.8, 1.5, 2.5)
"""The paces of computer moves that + and - step through, in seconds."""
MIN_SIZE = (78, 22)
"""The smallest terminal that shows the whole table (every slot and the log)."""


def _rack_line(name: str, cards: Sequence[int | None], highest: int) -> Text:
    """Another player's rack or row in a line: the name, then each card as seen, tinted."""
    line = Text(f"{name:>12}:")
    for card in cards:
        line.append(" ")
        line.append_text(chip(card, highest))
    return line


def _paint(widget: Static | Button, face: Face) -> None:
    """Show a card's face on a widget (a slot's button, or a pile)."""
    styles = widget.styles
    if face.background is None or face.color is None:
        styles.clear_rule("background")
        styles.clear_rule("color")
    else:
        styles.background = face.background
        styles.color = face.color
    styles.border = face.border
    if isinstance(widget, Button):
        widget.label = face.text
    else:
        widget.update(face.text)


def rules_page(rules: Rules, verbs: frozenset[str]) -> Group:
    """The rules page (h or F1): the variant's rules in short with its scoring, the keys that work at its table, and
    what the cards' tints and marks say.

    Nothing is wrapped here: the page wraps each paragraph once, at its own width, and the keys and the marks are two
    columns whose second wraps under itself (each meaning fits on a line of the narrowest page, 78 columns).
    """
    highlow = "replace" in verbs
    start = "the left end" if highlow else "slot 5"
    marks = [
        (MARK_IN_ORDER, f"in order from {start}: these cards score"),
        (MARK_BREAK, "where the order breaks"),
        *([] if highlow else [(MARK_RUN, "a run of three, where runs count (the 2-player rule, Bonus Rack-O)")]),
        (MARK_PLACED, "the card you placed last"),
    ]
    return Group(
        Text("\n".join(rules_summary(rules))),
        Text(""),
        Text("Keys:"),
        _two_columns(table_keys(verbs)),
        Text(""),
        Text("Cards are tinted from blue (low) through green to red (high)."),
        Text(""),
        Text("Marks on your own cards:"),
        _two_columns(marks),
    )


def table_keys(verbs: frozenset[str]) -> list[tuple[str, str]]:
    """The keys that work at the table of a variant whose players take these ``verbs``, with what each does."""
    if "replace" in verbs:
        keys = [
            # Two sentences, two lines: the second never left as a word or two on a line of its own.
            (
                "1-9,0",
                "put the card you hold at position 1-10 (0 is 10), or click it\n"
                "after a Swap card: press two positions to swap them",
            ),
            ("k", "keep your row as it is after a Swap card"),
        ]
    else:
        keys = [
            ("d", "draw from the stock"),
            ("t", "take the top discard"),
            ("1-9,0", "put the card you hold in slot 5 to 50 (0 is 50), or click it"),
            ("x", "discard the card you drew"),
        ]
        if "wait" in verbs:
            keys += [("r", "call Rack-O when your rack qualifies"), ("w", "wait instead, hoping for a longer run")]
        else:
            keys.append(("r", "Rack-O comes by itself here; r tells what your rack lacks"))
    return [
        *keys,
        ("?", "a hint from your own view: the best move and why"),
        ("h/F1", "this page (Enter or Escape goes back)"),
        ("s", "your statistics from the games you finished"),
        ("+/-", "computer moves faster (+ or =) or slower (-)"),
        ("q", "quit (Ctrl+C too); the game stays saved for racko play"),
        ("Ctrl+P", "the command palette: its Keys lists every key, and themes"),
    ]


def _two_columns(rows: Sequence[tuple[str, str]]) -> Padding:
    """Indented rows of a short name and its meaning, the meaning wrapping under itself."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column()
    for name, meaning in rows:
        table.add_row(name, meaning)
    return Padding(table, (0, 0, 0, 2))


def _key_verb(key: str) -> str:
    return {**CLASSIC_KEYS, **HIGHLOW_KEYS}[key]


PROMPTS = {
    "pick": "Your turn: take the discard (t) or draw (d).",
    "pick-or-call": "Your rack qualifies: r calls Rack-O, or draw (d) or take (t) to play on.",
    "place-taken": "You took {card}: put it in a slot (keys 1-9, 0 = slot 50, or click).",
    "place-drawn": "You drew {card}: put it in a slot (1-9, 0) or discard it (x).",
    "declare": "Your rack qualifies: r calls Rack-O, w waits for a longer run.",
    "place-in-row": "Put {card} at a position: keys 1-9 and 0 (10), or click.",
    "swap": "A Swap: press two positions to swap them, or k to keep your row.",
}
"""What a person is asked to do, by situation, in the app's keys (plain mode words it with commands)."""


class RackoApp(App[None]):
    """``racko play``: the start screen (unless the game is set or resumed), then the table."""

    TITLE = "Rack-O"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding("escape", "hide_help_panel", "Close the keys panel", show=False),
    ]
    CSS = """
    #start { padding: 0 2; }
    #title { text-style: bold; padding: 0 0 1 0; }
    #about { color: $text-muted; padding: 0 0 0 12; height: auto; margin: 0 0 1 0; }
    .field { height: 1; }
    .group { margin: 1 0 0 0; }
    .field Select { width: 56; }
    .field Input { width: 16; }
    .field Input.person { width: 24; margin: 0 0 0 1; }
    .field .seat { width: 27; color: $text-muted; }
    .seat-field Select { width: 27; }
    .name { width: 12; }
    Select:focus > SelectCurrent, Input:focus { text-style: reverse; }
    #problem { color: $error; height: auto; margin: 1 0 0 0; }
    #table { padding: 0 1; }
    #scores { height: 2; }
    #opponents { height: auto; max-height: 4; }
    #piles { height: 3; }
    .pile-name { width: auto; height: 3; content-align: left middle; padding: 0 1 0 0; }
    #stock { padding: 0 3 0 2; }
    .card { text-style: none; }
    .pile { width: 8; height: 3; content-align: center middle; text-align: center; }
    #rack { height: 4; }
    .slot { width: 7; min-width: 7; height: 4; margin: 0; padding: 0; }

    #prompt { height: 2; }
    #log { height: 1fr; border: round $primary; }
    #too-small { display: none; padding: 1 2; text-style: bold; }
    MessageScreen { align: center middle; }
    #message {
        width: 80; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary; padding: 0 1; background: $surface;
    }
    #message-body { height: auto; max-height: 20; }
    #message-prompt { text-style: bold; padding: 1 0 0 0; }
    """

    def __init__(
        self,
        session: PlaySession | None = None,
        setup: tuple[Rules, list[SeatSpec]] | None = None,
        save_path: Path | None = None,
        seed: int | None = None,
        notes: list[str] | None = None,
        pace: float = COMPUTER_PACE,
        *,
        ask: bool = True,
    ) -> None:
        """``ask``: offer ``session`` (a saved game) to be resumed or set aside for a new game; without it, the
        game opens at once (``racko play --resume``)."""
        super().__init__()
        self.session = session
        self.ask = ask
        self.setup = setup
        self.save_path = save_path
        self.seed = seed
        self.notes = notes or []
        self.pace = pace

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hide_help_panel":  # Escape closes the keys panel (Ctrl+P, Keys) where it is open
            return bool(self.screen.query("HelpPanel"))
        return True

    def on_mount(self) -> None:
        if self.notes:
            self.push_screen(MessageScreen("\n\n".join(self.notes)), lambda _: self._begin())
        else:
            self._begin()

    def _begin(self) -> None:
        session = self.session
        if session is not None and not self.ask:
            self.push_screen(TableScreen(session, self.pace))
        elif session is not None:
            # Options given on the command line are a new game of their own: the question says so.
            question = f"A saved game was found: {describe_save(session)}."
            if self.setup is not None:
                question += f"\nThe options given are for a new game: {describe_setup(*self.setup)}."
            instead = "start the new game" if self.setup is not None else "choose a new game"
            prompt = f"Enter: resume it.  n: set it aside and {instead}."
            self.push_screen(MessageScreen(question, prompt), self._resume_answer)
        else:
            self._set_up()

    def _resume_answer(self, resume: bool | None) -> None:
        if resume and self.session is not None:
            self.push_screen(TableScreen(self.session, self.pace))
            return
        note = None
        if self.session is not None and self.save_path is not None and self.save_path.exists():
            try:
                note = aside_note(set_aside(self.save_path, "replaced"))
            except RackoError as error:  # the save stays as it was, and no new game overwrites it
                self.push_screen(MessageScreen(str(error), "Press Enter to leave."), lambda _: self.exit())
                self.session = None
                return
        self.session = None
        if note is not None:  # where the game went, and how to play it again
            self.push_screen(MessageScreen(note), lambda _: self._set_up())
        else:
            self._set_up()

    def _set_up(self) -> None:
        if self.setup is not None:
            self._start(self.setup)
        else:
            self._choose()

    def _choose(self) -> None:
        """The start screen, with the settings of the last game started where they are kept."""
        last = load_settings(self.save_path.parent) if self.save_path is not None else None
        self.push_screen(StartScreen(last), self._start)

    def _start(self, setup: tuple[Rules, list[SeatSpec]] | None) -> None:
        if setup is None:
            self.exit()
            return
        rules, seats = setup
        if self.save_path is not None:  # beside the save: the data directory (tests without one remember nothing)
            save_settings(self.save_path.parent, Settings.of(rules, seats))
        store = FileStore(self.save_path) if self.save_path is not None else None
        self.session = PlaySession.new(rules, seats, seed=self.seed, store=store)
        self.push_screen(TableScreen(self.session, self.pace))

    def play_again(self, finished: PlaySession, *, same_seats: bool) -> None:
        """After a game: the same rules and seats again (a new deal), or the start screen to choose again."""
        self.pop_screen()  # the finished table
        self.seed = None  # a new game is a new shuffle, even after a seeded one
        if same_seats:
            self._start((finished.rules, list(finished.seats)))
        else:
            self._choose()


def run_app(
    session: PlaySession | None,
    ask: bool,
    setup: tuple[Rules, list[SeatSpec]] | None,
    save_path: Path,
    seed: int | None,
    notes: list[str],
    pace: float,
) -> PlaySession | None:
    """Run the app until the player leaves; returns the game played, if one was started or resumed.

    ``ask``: offer the saved game ``session`` to be resumed or set aside for a new game (``setup`` where options
    chose it, else the start screen's); without it, the game opens at once.
    """
    app = RackoApp(session, setup, save_path, seed, notes, pace, ask=ask)
    app.run()
    return app.session
