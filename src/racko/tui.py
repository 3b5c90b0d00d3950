"""The terminal app of ``racko play`` (apps layer, Textual): a start screen, the table, round and game ends.

Keys at the table: ``d`` draw, ``t`` take the discard, ``1``-``9`` and ``0`` the
slots 5 to 50 (or High-Low positions 1 to 10), ``x`` discard, ``r`` Rack-O,
``w`` wait (Bonus), ``k`` keep the row (High-Low), ``?`` hint, ``q`` quit (the
game stays saved).  Slots can also be clicked, and the footer's keys too.
Computer moves are shown one at a time at ``pace``.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, RichLog, Select, Static

from racko.actions import CallRacko, Exchange
from racko.errors import RackoError
from racko.families import AnyAction
from racko.highlow import HighLowObservation, HighLowPhase, HighLowResult, KeepOrder, Replace, SwapCards
from racko.highlow_scoring import card_name
from racko.match import side_totals
from racko.observation import Observation, Phase, RoundResult
from racko.plain import CLASSIC_COMMANDS
from racko.play_cli import DEFAULT_NAME, HUMAN, build_setup, default_players, describe_save
from racko.rules import RACK_SIZE, SLOT_LABELS, VARIANTS, Rules, variant
from racko.session import PlaySession, SeatSpec, bots_for, card_words, default_opponent, hint_lines
from racko.text import side_names

SLOT_KEYS = "1234567890"
"""Key i picks slot SLOT_LABELS[i] (1 = slot 5 ... 0 = slot 50), or High-Low position i + 1."""

MAX_OPPONENTS = 4
"""The most other seats at a table (High-Low with five players): one start-screen row each."""

CLASSIC_KEYS = {"d": "draw", "t": "take", "x": "discard", "r": "racko", "w": "wait"}
HIGHLOW_KEYS = {"k": "keep"}


class StartScreen(Screen[tuple[Rules, list[SeatSpec]]]):
    """Choose the variant, the players, who sits where, the target and the refill rule; Enter starts."""

    AUTO_FOCUS = "#variant"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "Start", priority=True),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="start"):
            yield Label("Rack-O: a new game. You sit in seat 1; Enter starts.", id="title")
            with Horizontal(classes="field"):
                yield Label("Variant", classes="name")
                variants = [(cls.title, name) for name, cls in VARIANTS.items()]
                yield Select(variants, value="classic", allow_blank=False, compact=True, id="variant")
            yield Static(VARIANTS["classic"].description, id="about")
            with Horizontal(classes="field"):
                yield Label("Players", classes="name")
                yield Select(_player_choices("classic"), value=2, allow_blank=False, compact=True, id="players")
            for seat in range(1, MAX_OPPONENTS + 1):
                with Horizontal(classes="field", id=f"seat-row-{seat}"):
                    yield Label(f"Seat {seat + 1}", classes="name")
                    yield Select(
                        _seat_choices("classic"),
                        value=default_opponent("classic"),
                        allow_blank=False,
                        compact=True,
                        id=f"seat-{seat}",
                    )
            with Horizontal(classes="field group"):
                yield Label("Target", classes="name")
                yield Input(placeholder="500 points", id="target", type="integer", compact=True)
            with Horizontal(classes="field", id="run-rule-row"):
                yield Label("2 players", classes="name")
                run_rule = [("a Rack-O needs a run of three (the 2-player rule)", True), ("no run needed", False)]
                yield Select(run_rule, value=True, allow_blank=False, compact=True, id="run-rule")
            with Horizontal(classes="field"):
                yield Label("Refill", classes="name")
                refills = [("turn the discard pile over", "flip"), ("shuffle the discard pile", "shuffle")]
                yield Select(refills, value="flip", allow_blank=False, compact=True, id="refill")
            yield Label("", id="problem")
            yield Button("Start (Enter)", id="start-button", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._show_seats()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While a list is open, Enter picks from it instead of starting the game.
        return not (action == "start" and any(select.expanded for select in self.query(Select)))

    @on(Select.Changed, "#variant")
    def _variant_changed(self, event: Select.Changed) -> None:
        if not isinstance(event.value, str):
            return
        name = event.value
        self.query_one("#about", Static).update(VARIANTS[name].description)
        players = self.query_one("#players", Select)
        players.set_options(_player_choices(name))
        players.value = default_players(name)
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
    def _players_changed(self) -> None:
        self._show_seats()

    def _show_seats(self) -> None:
        count = self._count()
        for seat in range(1, MAX_OPPONENTS + 1):
            self.query_one(f"#seat-row-{seat}").display = seat < count
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
            )
        except (RackoError, ValueError) as error:
            self.query_one("#problem", Label).update(str(error))
            return
        self.dismiss(setup)


def _player_choices(variant_name: str) -> list[tuple[str, int]]:
    return [(str(count), count) for count in VARIANTS[variant_name].player_counts]


def _seat_choices(variant_name: str) -> list[tuple[str, str]]:
    return [("a person (hot-seat)", HUMAN), *[(f"computer: {name}", name) for name in bots_for(variant_name)]]


class MessageScreen(ModalScreen[bool]):
    """A page of text (round end, game end, curtain, resume question); Enter goes on, arrows scroll a long one."""

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
            with VerticalScroll(id="message-body"):
                yield Static(self.text, id="message-text")
            yield Label(self.prompt, id="message-prompt")

    def on_mount(self) -> None:
        self.query_one("#message-body").focus()  # so the arrow keys scroll a page taller than the screen

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class TableScreen(Screen[None]):
    """The table: opponents' racks as far as seen, the piles, your rack as slot buttons, and what happened."""

    AUTO_FOCUS = ""  # nothing: a focused slot would take a stray Enter as "put the card here"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "act('draw')", "Draw"),
        Binding("t", "act('take')", "Take"),
        Binding("x", "act('discard')", "Discard"),
        Binding("r", "act('racko')", "Rack-O"),
        Binding("w", "act('wait')", "Wait"),
        Binding("k", "act('keep')", "Keep row"),
        # The same keys where they mean nothing in this variant: say so rather than ignore them.
        *[Binding(key, f"not_in_this_game('{key}')", show=False) for key in [*CLASSIC_KEYS, *HIGHLOW_KEYS]],
        Binding("question_mark", "hint", "Hint"),
        Binding("q", "app.quit", "Quit"),
        *[Binding(key, f"slot({index})", show=False) for index, key in enumerate(SLOT_KEYS)],
    ]

    def __init__(self, session: PlaySession, pace: float) -> None:
        super().__init__()
        self.session = session
        self.pace = pace
        humans = session.humans
        self.hot_seat = len(humans) > 1
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        """Whose view the narration takes: the one person, or only what everyone sees in hot-seat play."""
        self.seat = humans[0] if humans else 0
        """The seat whose rack is shown (the person to act, in hot-seat play)."""
        self.revealed = not self.hot_seat
        """Whether that rack may be shown: in hot-seat play, only once its player has lifted the curtain."""
        self.finished = len(session.match.results)
        self.waiting = False
        """A message screen is up, or a computer move is about to be shown."""
        self.swap_first: int | None = None
        self.told_problem: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            yield Static("", id="scores")
            yield Static("", id="opponents")
            yield Static("", id="piles")
            with Horizontal(id="rack"):
                for index in range(RACK_SIZE):
                    yield Button("", id=f"slot-{index}", classes="slot")
            yield Static("", id="prompt")
            yield RichLog(id="log", wrap=True, max_lines=200)
        yield Footer()

    def on_mount(self) -> None:
        self._tell()
        self._refresh()
        self._next()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The footer shows only this variant's keys; the others fall through to not_in_this_game.
        if action == "act":
            return parameters[0] in self._actions_here()
        if action == "not_in_this_game":
            return _key_action(str(parameters[0])) not in self._actions_here()
        return True

    def _actions_here(self) -> set[str]:
        rules = self.session.rules
        if rules.variant == "highlow":
            return set(HIGHLOW_KEYS.values())
        actions = set(CLASSIC_KEYS.values())
        if rules.auto_racko:
            actions.discard("wait")  # only Bonus Rack-O lets a player hold back a Rack-O
        return actions

    # --- the flow of play ------------------------------------------------------------------------

    def _next(self) -> None:
        """After every action: show round and game ends, pass to the next person, or let a bot move."""
        session = self.session
        self._tell()
        if len(session.match.results) > self.finished:
            self.finished = len(session.match.results)
            if self.hot_seat:
                self.revealed = False  # the next round's racks are new: each player lifts the curtain again
            self._refresh()
            self._round_over()
            return
        if session.match.over:
            self._game_over()
            return
        seat = session.to_act
        assert seat is not None
        if session.human_to_act():
            if self.hot_seat and (seat != self.seat or not self.revealed):
                self.seat = seat
                self._curtain(seat)
                return
            self._refresh()
            return
        self._refresh()
        self.waiting = True
        if self.pace > 0:
            self.set_timer(self.pace, self._bot_move)
        else:
            self.call_later(self._bot_move)

    def _bot_move(self) -> None:
        try:
            self.session.play_bot()
        except RackoError as error:  # a save from an older version may seat a bot that cannot play this variant
            self.app.push_screen(
                MessageScreen(f"The computer player cannot go on: {error}", "Press Enter to leave."),
                lambda _: self.app.exit(),
            )
            return
        self.waiting = False
        self._next()

    def _curtain(self, seat: int) -> None:
        self.waiting = True
        self.revealed = False
        self._refresh()
        name = self.session.names[seat]
        self.app.push_screen(
            MessageScreen(f"Pass the screen to {name}.", f"{name}, press Enter to see your rack."),
            self._lift_curtain,
        )

    def _lift_curtain(self, _: bool | None) -> None:
        self.revealed = True
        self._resume(None)

    def _round_over(self) -> None:
        session = self.session
        result = session.match.results[-1]
        lines = round_report(result, session.names, len(session.match.results))
        lines += ["", *score_table(session.rules, session.names, session.match.results)]
        self.waiting = True
        self.app.push_screen(MessageScreen("\n".join(lines), "Press Enter for the next round."), self._resume)

    def _game_over(self) -> None:
        session = self.session
        outcome = session.match.outcome
        assert outcome is not None
        winners = " & ".join(session.names[seat] for seat in outcome.seats)
        lines = [f"Game over: {winners} won.", "", *score_table(session.rules, session.names, session.match.results)]
        if session.finished_path is not None:
            lines += ["", f"Record: {session.finished_path}", "(racko replay and racko hint read it)"]
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
            self.swap_first = None
            action = KeepOrder(seat)
        else:
            action = CLASSIC_COMMANDS[what](seat)
        self._play(action)

    def action_not_in_this_game(self, key: str) -> None:
        if self._my_turn() is None:
            return
        if self.session.rules.variant == "highlow":
            self._say("In High-Low you only choose positions: keys 1-9 and 0 (10), or click; k keeps your row.")
        elif key == "k":
            self._say("k keeps a row after a Swap card, in High-Low only. Here: t takes the discard, d draws.")
        else:
            self._say("Waiting is for Bonus Rack-O: here a rack in order goes Rack-O at once.")

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
        # Only in the prompt, never the log: in hot-seat play the log stays on screen for the next player.
        self._say("Hint: " + hint_lines(observation, count=1)[0])

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
        problem = self.session.save_problem
        if problem is not None and problem != self.told_problem:
            log.write(Text(problem, style="bold"))
        self.told_problem = problem

    def _say(self, text: str) -> None:
        self.query_one("#prompt", Static).update(Text(text, style="bold"))

    def _refresh(self) -> None:
        session = self.session
        seat = self.seat
        hidden = not self.revealed
        observation = session.observation(seat)
        names = session.names
        rules = session.rules
        public = observation.public
        sides = side_names(rules, names)
        totals = "   ".join(
            f"{side} {total}" for side, total in zip(sides, side_totals(rules, public.totals), strict=True)
        )
        to_act = session.to_act
        turn = f"{names[to_act]} to play" if to_act is not None else ""
        self.query_one("#scores", Static).update(
            f"{variant(rules.variant).title} · round {len(session.match.rounds)} · {turn}\n"
            f"Scores: {totals} (target {rules.target})"
        )
        buttons = [self.query_one(f"#slot-{index}", Button) for index in range(RACK_SIZE)]
        yours = to_act == seat and not hidden
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
                f"Discard pile: {card_words(top) if top is not None else 'empty'}   Stock: {table.stock_size} cards"
                + (f"   You hold: {card_words(held)}" if held is not None and yours else "")
            )
            for index, button in enumerate(buttons):
                card = "?" if hidden else card_name(observation.rack[index])
                button.label = f"{index + 1}\n{card}"
            if not yours:
                self._say("")
            elif table.phase is HighLowPhase.SWAP:
                self._say(self._to_you("A Swap: press two positions to swap them, or k to keep your row."))
            else:
                self._say(self._to_you(f"Put {card_words(held or 0)} at a position: keys 1-9 and 0 (10), or click."))
            return
        classic = observation.public
        lines = []
        for other, known in enumerate(classic.known):
            if other != seat:
                cards = " ".join(f"{card:>3}" if card is not None else "  ?" for card in known)
                partner = " (partner)" if rules.partners and rules.side_of(other) == rules.side_of(seat) else ""
                lines.append(f"{names[other]:>12}: {cards}{partner}")
        self.query_one("#opponents", Static).update("\n".join(lines))
        top = classic.discard_top
        held = observation.held if yours else None
        self.query_one("#piles", Static).update(
            f"Discard pile: {top if top is not None else 'empty'}   Stock: {classic.stock_size} cards"
            + (f"   You hold: {held}" if held is not None else "")
        )
        for index, button in enumerate(buttons):
            card = "?" if hidden else str(observation.rack[index])
            button.label = f"{SLOT_LABELS[index]}\n{card}"
        self._say(self._to_you(_prompt(observation)) if yours else "")

    def _to_you(self, prompt: str) -> str:
        """In hot-seat play, the prompt names who it speaks to."""
        return f"{self.session.names[self.seat]}: {prompt}" if self.hot_seat else prompt


def _key_action(key: str) -> str:
    return {**CLASSIC_KEYS, **HIGHLOW_KEYS}[key]


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


def round_report(result: RoundResult | HighLowResult, names: list[str], number: int) -> list[str]:
    """The round's end on one screen: every rack, a bar where its order broke, and how each score was counted."""
    highlow = isinstance(result, HighLowResult)
    corner = "position" if highlow else "slot"
    width = max(len(corner), *(len(name) for name in names)) + 1
    headline = f"Round {number} is over"
    headline += f": {names[result.winner]} went Rack-O." if result.winner is not None else "."
    labels = [str(position) for position in range(1, RACK_SIZE + 1)] if highlow else [str(s) for s in SLOT_LABELS]
    header = f"{corner:<{width}}" + " ".join(f"{label:>3}" for label in labels)
    lines = [headline, header + "  points"]
    for seat, rack in enumerate(result.racks):
        cells = [f"{card_name(card):>3}" for card in rack]
        gaps = [" "] * (RACK_SIZE - 1)
        in_order = result.ordered[seat]
        if 1 <= in_order < RACK_SIZE:
            gaps[in_order - 1] = "|"  # the order breaks after the last card in order
        row = cells[0] + "".join(gap + cell for gap, cell in zip(gaps, cells[1:], strict=True))
        lines.append(f"{names[seat]:<{width}}{row}  {result.scores[seat]:>6}")
    lines.append("")
    points = " points" if highlow else ""  # High-Low's sentence ends on the bare number
    lines += [f"{names[seat]}: {result.explain(seat)}{points}" for seat in range(len(result.racks))]
    return lines


def score_table(
    rules: Rules, names: list[str], results: list[RoundResult | HighLowResult], width: int = 74
) -> list[str]:
    """The running score sheet sideways, a column per round, so it stays a few lines however long the game.

    When the rounds do not fit across ``width``, the earliest are added up in one column ("1-6").
    """
    sides = side_names(rules, names)
    name_width = max(len("Round"), *(len(side) for side in sides)) + 1
    columns: list[tuple[str, list[int]]] = []
    for number, result in enumerate(results, start=1):
        points = [0] * len(sides)
        for seat, score in enumerate(result.scores):
            points[rules.side_of(seat)] += score
        columns.append((str(number), points))
    totals = [sum(points[side] for _, points in columns) for side in range(len(sides))]
    room = max(2, (width - name_width - 7) // 5)
    if len(columns) > room:
        merged = len(columns) - room + 1
        earlier = [sum(column[1][side] for column in columns[:merged]) for side in range(len(sides))]
        columns = [(f"1-{merged}", earlier), *columns[merged:]]
    lines = [f"{'Round':<{name_width}}" + "".join(f"{label:>5}" for label, _ in columns) + f"{'Total':>7}"]
    for side, name in enumerate(sides):
        row = "".join(f"{points[side]:>5}" for _, points in columns)
        lines.append(f"{name:<{name_width}}{row}{totals[side]:>7}")
    return lines


class RackoApp(App[None]):
    """``racko play``: the start screen (unless the game is set or resumed), then the table."""

    TITLE = "Rack-O"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]
    CSS = """
    #start { padding: 0 2; }
    #title { text-style: bold; padding: 0 0 1 0; }
    #about { color: $text-muted; padding: 0 0 0 12; height: auto; margin: 0 0 1 0; }
    .field { height: 1; }
    .group { margin: 1 0 0 0; }
    .field Select { width: 56; }
    .field Input { width: 16; }
    .name { width: 12; }
    Select:focus > SelectCurrent, Input:focus { text-style: reverse; }
    #problem { color: $error; height: auto; margin: 1 0 0 0; }
    #table { padding: 0 1; }
    #scores { height: 2; }
    #opponents { height: auto; max-height: 4; }
    #piles { height: 1; margin: 1 0 0 0; }
    #rack { height: 4; }
    .slot { width: 7; min-width: 7; height: 4; margin: 0 0 0 0; }
    #prompt { height: 2; }
    #log { height: 1fr; border: round $primary; }
    MessageScreen { align: center middle; }
    #message { width: 80; height: auto; max-height: 100%; border: thick $primary; padding: 0 1; background: $surface; }
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
            question = f"A saved game was found: {describe_save(session)}."
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
) -> PlaySession | None:
    """Run the app until the player leaves; returns the game played, if one was started or resumed."""
    app = RackoApp(session, setup, save_path, seed, notes, pace)
    app.run()
    return app.session
