"""The terminal app of ``racko play`` (apps layer, Textual): a start screen, the table, round and game ends.

Keys at the table: ``d`` draw, ``t`` take the discard, ``1``-``9`` and ``0`` the
slots 5 to 50 (or High-Low positions 1 to 10), ``x`` discard, ``r`` Rack-O,
``w`` wait, ``k`` keep (High-Low), ``?`` hint, ``q`` quit (the game stays saved).
Slots can also be clicked.  Computer moves are shown one at a time at ``pace``.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, RichLog, Select, Static

from racko import bots
from racko.actions import CallRacko, Exchange
from racko.errors import RackoError
from racko.families import AnyAction
from racko.highlow import HighLowObservation, HighLowPhase, KeepOrder, Replace, SwapCards
from racko.highlow_scoring import card_name
from racko.hint import advice
from racko.observation import Observation, Phase
from racko.plain import CLASSIC_COMMANDS
from racko.play_cli import build_setup, default_players
from racko.rules import SLOT_LABELS, VARIANTS, Rules, variant
from racko.session import PlaySession, SeatSpec
from racko.text import round_summary, score_sheet

SLOT_KEYS = "1234567890"
"""Key i picks slot SLOT_LABELS[i] (1 = slot 5 ... 0 = slot 50), or High-Low position i + 1."""


class StartScreen(Screen[tuple[Rules, list[SeatSpec]]]):
    """Choose the variant, the players and the opponents; Enter starts with what is shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "Start", priority=True),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        choices = ["human", *bots.available()]
        with Vertical(id="start"):
            yield Label("Rack-O: a new game", id="title")
            with Horizontal(classes="field"):
                yield Label("Variant", classes="name")
                variants = [(cls.title, name) for name, cls in VARIANTS.items()]
                yield Select(variants, value="classic", allow_blank=False, id="variant")
            with Horizontal(classes="field"):
                yield Label("Players", classes="name")
                yield Select([(str(n), n) for n in (2, 3, 4, 5)], value=2, allow_blank=False, id="players")
            for seat in range(1, 5):
                with Horizontal(classes="field seat", id=f"seat-row-{seat}"):
                    yield Label(f"Seat {seat + 1}", classes="name")
                    yield Select([(c, c) for c in choices], value="medium", allow_blank=False, id=f"seat-{seat}")
            with Horizontal(classes="field"):
                yield Label("Target", classes="name")
                yield Input(placeholder="500 (High-Low 300)", id="target", type="integer")
            with Horizontal(classes="field"):
                yield Checkbox("2-player rule (a run of three)", value=True, id="run-rule")
                yield Checkbox("Shuffle to refill (else flip)", value=False, id="shuffle")
            yield Label("", id="problem")
            yield Button("Start (Enter)", id="start-button", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self._show_seats()

    @on(Select.Changed)
    def _changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant" and isinstance(event.value, str):
            self.query_one("#players", Select).value = default_players(event.value)
        self._show_seats()

    def _show_seats(self) -> None:
        players = self.query_one("#players", Select).value
        count = players if isinstance(players, int) else 2
        for seat in range(1, 5):
            self.query_one(f"#seat-row-{seat}").display = seat < count

    @on(Button.Pressed, "#start-button")
    def _pressed(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        variant_name = str(self.query_one("#variant", Select).value)
        players = self.query_one("#players", Select).value
        count = players if isinstance(players, int) else 2
        others = [str(self.query_one(f"#seat-{seat}", Select).value) for seat in range(1, count)]
        target_text = self.query_one("#target", Input).value.strip()
        try:
            setup = build_setup(
                variant_name,
                count,
                others,
                "You",
                two_player_rule=self.query_one("#run-rule", Checkbox).value if count == 2 else None,
                target=int(target_text) if target_text else None,
                refill="shuffle" if self.query_one("#shuffle", Checkbox).value else None,
            )
        except (RackoError, ValueError) as error:
            self.query_one("#problem", Label).update(str(error))
            return
        self.dismiss(setup)


class MessageScreen(ModalScreen[bool]):
    """A page of text (round end, game end, curtain, resume question); Enter or a click goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "answer(True)", "Continue", priority=True),
        Binding("n", "answer(False)", "No", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, text: str, prompt: str = "Press Enter to continue.", name: str | None = None) -> None:
        super().__init__(name=name)
        self.text = text
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(id="message"):
            yield Static(self.text, id="message-text")
            yield Label(self.prompt, id="message-prompt")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class TableScreen(Screen[None]):
    """The table: opponents' racks as far as seen, the piles, your rack as slot buttons, and what happened."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "act('draw')", "Draw"),
        Binding("t", "act('take')", "Take"),
        Binding("x", "act('discard')", "Discard"),
        Binding("r", "act('racko')", "Rack-O"),
        Binding("w", "act('wait')", "Wait", show=False),
        Binding("k", "act('keep')", "Keep", show=False),
        Binding("question_mark", "hint", "Hint"),
        Binding("q", "app.quit", "Quit"),
        *[Binding(key, f"slot({index})", show=False) for index, key in enumerate(SLOT_KEYS)],
    ]

    def __init__(self, session: PlaySession, pace: float) -> None:
        super().__init__()
        self.session = session
        self.pace = pace
        humans = session.humans
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.seat = humans[0] if humans else 0
        """The seat whose rack is shown (the person to act, in hot-seat play)."""
        self.finished = len(session.match.results)
        self.waiting = False
        """A message screen is up, or a computer move is about to be shown."""
        self.swap_first: int | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            yield Static("", id="scores")
            yield Static("", id="opponents")
            yield Static("", id="piles")
            with Horizontal(id="rack"):
                for index in range(10):
                    yield Button("", id=f"slot-{index}", classes="slot")
            yield Static("", id="prompt")
            yield RichLog(id="log", wrap=True, max_lines=200)
        yield Footer()

    def on_mount(self) -> None:
        self._tell()
        self._refresh()
        self._next()

    # --- the flow of play ------------------------------------------------------------------------

    def _next(self) -> None:
        """After every action: show round and game ends, pass to the next person, or let a bot move."""
        session = self.session
        self._tell()
        if len(session.match.results) > self.finished:
            self.finished = len(session.match.results)
            self._refresh(hidden=len(session.humans) > 1)
            self._round_over()
            return
        if session.match.over:
            self._game_over()
            return
        seat = session.to_act
        assert seat is not None
        if session.human_to_act():
            if len(session.humans) > 1 and seat != self.seat:
                self.seat = seat
                self._curtain(seat)
                return
            self.seat = seat
            self._refresh()
            return
        self._refresh()
        self.waiting = True
        if self.pace > 0:
            self.set_timer(self.pace, self._bot_move)
        else:
            self.call_later(self._bot_move)

    def _bot_move(self) -> None:
        self.waiting = False
        self.session.play_bot()
        self._next()

    def _curtain(self, seat: int) -> None:
        self.waiting = True
        self._refresh(hidden=True)
        name = self.session.names[seat]
        self.app.push_screen(
            MessageScreen(f"Pass the screen to {name}.", f"{name}, press Enter to see your rack."), self._resume
        )

    def _round_over(self) -> None:
        session = self.session
        result = session.match.results[-1]
        lines = [f"Round {len(session.match.results)} is over.", ""]
        lines += round_summary(result, session.names)
        lines += ["", *score_sheet(session.rules, session.names, session.match.results)]
        self.waiting = True
        self.app.push_screen(MessageScreen("\n".join(lines), "Press Enter for the next round."), self._resume)

    def _game_over(self) -> None:
        session = self.session
        outcome = session.match.outcome
        assert outcome is not None
        winners = " & ".join(session.names[seat] for seat in outcome.seats)
        lines = [f"Game over: {winners} won.", "", *score_sheet(session.rules, session.names, session.match.results)]
        if session.finished_path is not None:
            lines += ["", f"Record: {session.finished_path}"]
        self.waiting = True
        self.app.push_screen(MessageScreen("\n".join(lines), "Press Enter to leave."), lambda _: self.app.exit())

    def _resume(self, _: bool | None) -> None:
        self.waiting = False
        self._next()

    # --- the player's actions --------------------------------------------------------------------

    def action_act(self, what: str) -> None:
        observation = self._my_turn()
        if observation is None:
            return
        seat = observation.seat
        action: AnyAction
        if isinstance(observation, HighLowObservation):
            if what != "keep":
                self._say("In High-Low, press the position (1-9, 0 for 10) to put your card at.")
                return
            action = KeepOrder(seat)
        else:
            if what not in CLASSIC_COMMANDS:
                return
            action = CLASSIC_COMMANDS[what](seat)
        self._play(action)

    def action_slot(self, index: int) -> None:
        observation = self._my_turn()
        if observation is None:
            return
        seat = observation.seat
        if isinstance(observation, HighLowObservation):
            if observation.public.phase is HighLowPhase.SWAP:
                if self.swap_first is None or self.swap_first == index:
                    self.swap_first = index
                    self._say(f"Swap position {index + 1} with which? Press another position (k keeps the row).")
                    return
                first, self.swap_first = self.swap_first, None
                self._play(SwapCards(seat, first, index))
                return
            self._play(Replace(seat, index))
            return
        self._play(Exchange(seat, index))

    @on(Button.Pressed, ".slot")
    def _slot_clicked(self, event: Button.Pressed) -> None:
        assert event.button.id is not None
        self.action_slot(int(event.button.id.removeprefix("slot-")))

    def action_hint(self) -> None:
        observation = self._my_turn()
        if observation is None:
            return
        if not isinstance(observation, Observation):
            self._say("Hints are for the classic variants only (not yet High-Low).")
            return
        choices = advice(observation)
        self._say("Hint: " + choices[0].explanation)

    def _my_turn(self) -> Observation | HighLowObservation | None:
        if self.waiting or not self.session.human_to_act():
            return None
        seat = self.session.to_act
        assert seat is not None
        return self.session.observation(seat)

    def _play(self, action: AnyAction) -> None:
        try:
            self.session.play(action)
        except RackoError as error:
            self._say(str(error))
            return
        self._next()

    # --- drawing ---------------------------------------------------------------------------------

    def _tell(self) -> None:
        log = self.query_one("#log", RichLog)
        for line in self.session.news(self.viewer):
            log.write(line)

    def _say(self, text: str) -> None:
        self.query_one("#prompt", Static).update(Text(text, style="bold"))

    def _refresh(self, hidden: bool = False) -> None:
        session = self.session
        seat = self.seat
        observation = session.observation(seat)
        names = session.names
        public = observation.public
        totals = "   ".join(f"{name} {total}" for name, total in zip(names, public.totals, strict=True))
        to_act = session.to_act
        turn = f"{names[to_act]} to play" if to_act is not None else ""
        self.query_one("#scores", Static).update(
            f"{variant(session.rules.variant).title} · round {len(session.match.rounds)} · {turn}\n"
            f"Scores: {totals} (target {session.rules.target})"
        )
        buttons = [self.query_one(f"#slot-{index}", Button) for index in range(10)]
        if isinstance(observation, HighLowObservation):
            table = observation.public
            lines = [
                f"{names[other]:>12}: " + " ".join(f"{card_name(card):>3}" for card in row)
                for other, row in enumerate(table.rows)
                if other != seat
            ]
            self.query_one("#opponents", Static).update("\n".join(lines))
            held = observation.held if observation.held is not None else table.passed_card
            top = table.discard_pile[-1] if table.discard_pile else None
            self.query_one("#piles", Static).update(
                f"Discard pile: {card_name(top) if top is not None else '-'}   Stock: {table.stock_size} cards"
                + (f"   You hold: {card_name(held)}" if held is not None and to_act == seat else "")
            )
            for index, button in enumerate(buttons):
                card = "?" if hidden else card_name(observation.rack[index])
                button.label = f"{index + 1}\n{card}"
            if not hidden and to_act == seat:
                if table.phase is HighLowPhase.SWAP:
                    self._say("A Swap: press two positions to swap them, or k to keep your row.")
                else:
                    self._say(f"Put {card_name(held or 0)} at a position: keys 1-9 and 0, or click.")
            elif not hidden:
                self._say("")
            return
        classic = observation.public
        lines = []
        for other, known in enumerate(classic.known):
            if other != seat:
                cards = " ".join(f"{card:>3}" if card is not None else "  ?" for card in known)
                lines.append(f"{names[other]:>12}: {cards}")
        self.query_one("#opponents", Static).update("\n".join(lines))
        top = classic.discard_top
        held = observation.held if to_act == seat and not hidden else None
        self.query_one("#piles", Static).update(
            f"Discard pile: {top if top is not None else '-'}   Stock: {classic.stock_size} cards"
            + (f"   You hold: {held}" if held is not None else "")
        )
        for index, button in enumerate(buttons):
            card = "?" if hidden else str(observation.rack[index])
            button.label = f"{SLOT_LABELS[index]}\n{card}"
        if hidden:
            self._say("")
        elif to_act == seat:
            self._say(_prompt(observation))
        else:
            self._say("")


def _prompt(observation: Observation) -> str:
    public = observation.public
    if public.phase is Phase.PLACE:
        if public.taken_discard is not None:
            return f"You took {observation.held}: put it in a slot (keys 1-9, 0 = slot 50, or click)."
        return f"You drew {observation.held}: put it in a slot (1-9, 0) or discard it (x)."
    if public.phase is Phase.DECLARE:
        return "Your rack qualifies: r calls Rack-O, w waits for a longer run."
    if CallRacko(observation.seat) in observation.legal_actions():
        return "Your rack qualifies: r calls Rack-O, or draw (d) or take (t) to play on."
    return "Your turn: take the discard (t) or draw (d)."


class RackoApp(App[None]):
    """``racko play``: the start screen (unless the game is set or resumed), then the table."""

    TITLE = "Rack-O"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]
    CSS = """
    #start { padding: 0 2; }
    #title { text-style: bold; padding: 0 0 1 0; }
    .field { height: 3; }
    .name { width: 10; padding: 1 1 0 0; }
    #problem { color: $error; }
    #table { padding: 0 1; }
    #scores { height: 2; }
    #opponents { height: auto; max-height: 4; }
    #piles { height: 1; margin: 1 0 0 0; }
    #rack { height: 4; }
    .slot { width: 7; min-width: 7; height: 4; margin: 0 0 0 0; }
    #prompt { height: 2; }
    #log { height: 1fr; border: round $primary; }
    MessageScreen { align: center middle; }
    #message { width: 76; height: auto; max-height: 22; border: thick $primary; padding: 0 1; background: $surface; }
    #message-prompt { text-style: bold; padding: 1 0 0 0; }
    """

    def __init__(
        self,
        session: PlaySession | None = None,
        setup: tuple[Rules, list[SeatSpec]] | None = None,
        save_path: Path | None = None,
        seed: int | None = None,
        notes: list[str] | None = None,
        pace: float = 0.8,
    ) -> None:
        super().__init__()
        self.session = session
        self.setup = setup
        self.save_path = save_path
        self.seed = seed
        self.notes = notes or []
        self.pace = pace

    def on_mount(self) -> None:
        if self.notes:
            self.push_screen(MessageScreen("\n".join(self.notes)), lambda _: self._begin())
        else:
            self._begin()

    def _begin(self) -> None:
        session = self.session
        if session is not None:
            question = f"A saved game was found: {', '.join(session.names)}, round {len(session.match.rounds)}."
            self.push_screen(MessageScreen(question, "Resume it? Enter: yes, n: a new game."), self._resume_answer)
            return
        self._set_up()

    def _resume_answer(self, resume: bool | None) -> None:
        if resume and self.session is not None:
            self.push_screen(TableScreen(self.session, self.pace))
            return
        if self.session is not None and self.save_path is not None and self.save_path.exists():
            from racko.session import set_aside

            set_aside(self.save_path, "replaced")
        self.session = None
        self._set_up()

    def _set_up(self) -> None:
        if self.setup is not None:
            self._start(self.setup)
        else:
            self.push_screen(StartScreen(), self._start)

    def _start(self, setup: tuple[Rules, list[SeatSpec]] | None) -> None:
        if setup is None:
            self.exit()
            return
        rules, seats = setup
        self.session = PlaySession.new(rules, seats, seed=self.seed, save_path=self.save_path)
        self.push_screen(TableScreen(self.session, self.pace))


def run_app(
    session: PlaySession | None,
    setup: tuple[Rules, list[SeatSpec]] | None,
    save_path: Path,
    seed: int | None,
    notes: list[str],
    pace: float,
) -> None:
    RackoApp(session, setup, save_path, seed, notes, pace).run()
