"""The ``racko arena``, ``solo``, ``sanity``, ``ranking``, ``compare`` and ``headroom`` commands (:func:`register`).

Every error is one ``racko: ...`` line on stderr and exit code 2.  A progress
bar with an ETA goes to stderr when it is a terminal; results go to stdout as a
table, or as JSON with ``--json``.  ``--backend ray [--address A]`` plays the
deals on a Ray cluster instead of local worker processes (docs/SCALING.md).  A
bot named ``NAME@DIR`` is the bot ``NAME`` of another racko source tree
(:mod:`racko.tools.builds`), to measure a change against the build before it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, NoReturn, TypeVar

import typer

from racko.bots.opponents import fitted_styles
from racko.bots.runner import time_quantile
from racko.errors import RackoError
from racko.rules import VARIANTS, variant
from racko.tools import arena, sanity, strength, table_rating
from racko.tools.builds import is_other_build, register_other_builds

T = TypeVar("T")


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"racko: {' '.join(message.split())}", err=True)
    raise typer.Exit(code)


def time_left(elapsed: float, done: int, total: int) -> str:
    """The time still to go, from the average pace so far (the work is made of equal parts: deals or rounds);
    before the first part is done there is nothing honest to say."""
    if done <= 0 or elapsed <= 0:
        return "ETA: estimating"
    if done >= total:
        return "ETA: 0:00"
    return "ETA: " + clock(elapsed * (total - done) / done)


def clock(seconds: float) -> str:
    """A duration as a clock shows it: m:ss, or h:mm:ss from an hour."""
    minutes, whole = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{whole:02}" if hours else f"{minutes}:{whole:02}"


LOGGED_EVERY = 60.0
"""Seconds between two progress lines when stderr is not a terminal (a long run under nohup, into a log file)."""


def logged_progress(what: str, write: Callable[[str], None], every: float = LOGGED_EVERY) -> arena.Progress:
    """Progress for a log: one line through ``write`` at most every ``every`` seconds, with the parts done and the
    time to go; nothing for a run shorter than that, and no line at the end (the result follows)."""
    started = last = time.monotonic()

    def update(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last < every or done >= total:
            return
        last = now
        left = time_left(now - started, done, total)
        write(f"racko: {what.lower()} {done} of {total} done in {clock(now - started)}, {left}")

    return update


@contextmanager
def _progress(what: str) -> Iterator[arena.Progress | None]:
    """A Rich progress bar with an ETA on stderr, or, when stderr is not a terminal, a line now and then
    (:func:`logged_progress`)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn
    from rich.text import Text

    class TimeLeft(ProgressColumn):
        # Rich's own column extrapolates from the last 30 seconds of updates, which jump as chunks finish
        # together on several workers; the average since the start is steadier and never shows a stale figure.
        def render(self, task: Task) -> Text:
            total = int(task.total) if task.total is not None else 0
            return Text(time_left(task.elapsed or 0.0, int(task.completed), total), style="progress.remaining")

    console = Console(stderr=True)
    if not console.is_terminal:
        yield logged_progress(what, lambda line: typer.echo(line, err=True))
        return
    # No refresh thread (auto_refresh off): worker processes are forked while the bar is shown.
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeLeft(),
        console=console,
        auto_refresh=False,
        transient=True,
    ) as bar:
        task = bar.add_task(what, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
            bar.refresh()

        yield update


def _run(what: str, work: Callable[[arena.Progress | None], T]) -> T:
    try:
        with _progress(what) as progress:
            return work(progress)
    except RackoError as error:
        _fail(str(error))
    except KeyboardInterrupt:
        _fail("interrupted.", 130)


def _backend(name: str, address: str | None) -> arena.Backend:
    for backend in arena.BACKENDS:
        if name == backend:
            if address is not None and backend != "ray":
                _fail("--address is the Ray cluster's: give it with --backend ray.")
            return backend
    _fail(f"--backend must be one of {', '.join(arena.BACKENDS)}, not {name!r}.")


def _jobs(jobs: int | None, backend: arena.Backend) -> int | None:
    """The number of jobs to ask for: by default every CPU here, or (``None``) every CPU of the Ray cluster."""
    if jobs is not None and jobs < 1:
        _fail(f"--jobs must be at least 1, not {jobs}.")
    if jobs is None and backend == "local":
        return os.cpu_count() or 1
    return jobs


def _ran_on(backend: str, jobs: int) -> str:
    """How the deals ran, for the summary line: ``2 jobs``, or ``Ray, 8 tasks at a time``."""
    if backend == "ray":
        return f"Ray, {jobs} task{'s' * (jobs != 1)} at a time"
    return f"{jobs} job{'s' * (jobs != 1)}"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}"


JOBS_HELP = (
    "Worker processes (default: one per CPU); with --backend ray, Ray tasks at a time (default: the cluster's CPUs)."
)
BACKEND_HELP = "Where the deals are played: local (worker processes here) or ray (a Ray cluster; needs racko\\[ray])."
ADDRESS_HELP = "The Ray cluster's host:port (default: RAY_ADDRESS, a cluster started on this machine, or a new one)."


def arena_command(
    bot_list: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bots, one per seat, e.g. expert,easy; NAME@DIR is the bot NAME of the racko source "
            "tree DIR (another build, to compare with this one: docs/STRENGTH.md).",
        ),
    ] = "easy,random",
    variant_name: Annotated[str, typer.Option("--variant", help=f"One of: {', '.join(VARIANTS)}.")] = "classic",
    players: Annotated[int | None, typer.Option(help="Number of players (default: one per bot named).")] = None,
    rounds: Annotated[int | None, typer.Option(help="Single rounds to play (default 10,000).")] = None,
    games: Annotated[int | None, typer.Option(help="Play this many whole games to the target instead.")] = None,
    jobs: Annotated[int | None, typer.Option(help=JOBS_HELP)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the run: the same seed gives the same figures.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(help="Draw win rates and score distributions to this PNG (needs racko\\[plot]).", dir_okay=False),
    ] = None,
    two_player_rule: Annotated[
        bool | None,
        typer.Option(
            "--two-player-rule/--no-two-player-rule",
            help="With 2 players, a Rack-O needs a run of three (default: the variant's rule).",
            show_default=False,
        ),
    ] = None,
    turn_cap: Annotated[int, typer.Option(help="End a round after this many turns, with no winner (0: no cap).")] = (
        arena.DEFAULT_TURN_CAP
    ),
    target: Annotated[int | None, typer.Option(help="The score that wins a game (default: the variant's).")] = None,
    backend: Annotated[str, typer.Option(help=BACKEND_HELP)] = "local",
    address: Annotated[str | None, typer.Option(help=ADDRESS_HELP, show_default=False)] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Also write which bot won each deal to this JSON file, to compare runs on the same deals "
            "(racko compare).",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Bots against bots: win rates with 95 % intervals over many rounds or games, seats rotating.

    Besides the levels, the playing styles band and sequence may sit at the table (arena opponents)."""
    names = [name.strip() for name in bot_list.split(",")]
    if rounds is not None and games is not None:
        _fail("give --rounds or --games, not both.")
    if turn_cap < 0:
        _fail(f"--turn-cap must be 0 (no cap) or more, not {turn_cap}.")
    if plot is not None and importlib.util.find_spec("matplotlib") is None:
        _fail("--plot needs matplotlib: install it with pip install 'racko[plot]'.")
    options: dict[str, object] = {"turn_cap": turn_cap or None}
    if two_player_rule is not None:
        options["two_player_rule"] = two_player_rule
    if target is not None:
        options["target"] = target
    where = _backend(backend, address)
    count = _jobs(jobs, where)
    _seat_other_builds(names, where)
    unit = "games" if games is not None else "rounds"
    if games is None and rounds is None:
        rounds = 10_000
    report = _run(
        unit.capitalize(),
        lambda progress: arena.run_arena(
            names,
            variant_name,
            players,
            rounds=rounds,
            games=games,
            seed=seed,
            jobs=count,
            options=options,
            progress=progress,
            backend=where,
            address=address,
        ),
    )
    if not report.balanced:
        typer.echo(
            f"racko: note: {report.deals:,} {unit} is not a multiple of {report.players} players, "
            f"so the bots did not sit in every seat equally often.",
            err=True,
        )
    if plot is not None:
        try:
            arena.plot_report(report, plot)
        except (RackoError, OSError) as error:
            _fail(str(error))
    if record is not None:
        _write_record(record, strength.record_of(report, names, options))
    if as_json:
        typer.echo(json.dumps(report.to_json()))
        return
    _print_arena(report)
    if plot is not None:
        typer.echo(f"Plot written to {plot}.")


def _print_arena(report: arena.ArenaReport) -> None:
    from rich.console import Console
    from rich.table import Table

    unit = "rounds" if report.mode == "rounds" else "games"
    title = f"{variant(report.variant).title}, {report.players} players: {report.deals:,} {unit}, seed {report.seed}"
    table = Table(title=title, title_justify="left")
    table.add_column("Bot", no_wrap=True, min_width=max(len(row.bot) for row in report.results))
    table.add_column(f"{unit.capitalize()} won", justify="right")
    table.add_column("Win %", justify="right")
    table.add_column("95 % CI", justify="right")
    table.add_column("Mean score" if unit == "rounds" else "Mean total", justify="right")
    table.add_column("Mean turns", justify="right")
    for row in report.results:
        lo, hi = row.ci95
        table.add_row(
            row.bot,
            f"{row.wins:,} / {row.played:,}",
            _percent(row.win_rate),
            f"{_percent(lo)}–{_percent(hi)}",
            f"{row.mean_score:.1f}",
            f"{row.mean_turns:.1f}",
        )
    capped = "rounds" if report.capped != 1 else "round"
    turn_cap = report.rules.turn_cap
    cap = f" at {turn_cap:,} turns" if turn_cap else ""
    within = " (within the games)" if unit == "games" else ""
    times = ", ".join(
        f"{row.bot} {time_quantile(row.decision_times, 0.5):.2f}/{time_quantile(row.decision_times, 0.99):.2f}"
        for row in report.results
    )
    table.caption = (
        f"{report.capped:,} {capped} capped{cap}{within}; "
        f"{report.seconds:.1f} s with {_ran_on(report.backend, report.jobs)}\n"
        f"Decision time in ms (median/99th percentile): {times}"
    )
    table.caption_justify = "left"
    Console(highlight=False).print(table)


def solo_command(
    bot: Annotated[str, typer.Option(help="The bot to time.")] = "easy",
    cards: Annotated[int, typer.Option(help="Cards in the deck.")] = 40,
    rounds: Annotated[int, typer.Option(help="Rounds to play.")] = 10_000,
    seed: Annotated[int, typer.Option(help="Seed of the run: the same seed gives the same figures.")] = 0,
    jobs: Annotated[int | None, typer.Option(help=JOBS_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    turn_cap: Annotated[int, typer.Option(help="End a round after this many turns.")] = arena.SOLO_TURN_CAP,
    backend: Annotated[str, typer.Option(help=BACKEND_HELP)] = "local",
    address: Annotated[str | None, typer.Option(help=ADDRESS_HELP, show_default=False)] = None,
) -> None:
    """Solitaire: how many turns a bot needs to go Rack-O alone (2-player rule off), and how long it takes to decide."""
    where = _backend(backend, address)
    count = _jobs(jobs, where)
    report = _run(
        "Rounds",
        lambda progress: arena.run_solo(
            bot,
            cards=cards,
            rounds=rounds,
            seed=seed,
            jobs=count,
            progress=progress,
            turn_cap=turn_cap,
            backend=where,
            address=address,
        ),
    )
    if as_json:
        typer.echo(json.dumps(report.to_json()))
        return
    lo, hi = report.ci95
    typer.echo(f"{report.bot} alone with {report.cards} cards: {report.rounds:,} rounds, seed {report.seed}.")
    typer.echo(f"Mean turns to Rack-O: {report.mean_turns:.2f} (95 % CI {lo:.2f}–{hi:.2f}).")
    typer.echo(f"Median {report.median_turns:g}, 90th percentile {report.p90_turns}.")
    speed = arena.decision_ms(report.decision_times)
    typer.echo(f"Decision time: median {speed['median']:.2f} ms, 99th percentile {speed['p99']:.2f} ms.")
    capped = f"{report.capped:,} round{'s' * (report.capped != 1)} capped at {turn_cap:,} turns"
    typer.echo(f"{capped}; {report.seconds:.1f} s with {_ran_on(report.backend, report.jobs)}.")


def _seat_other_builds(names: list[str], where: arena.Backend) -> None:
    """Make the bots of other builds (``NAME@DIR``) known; they play in local processes only."""
    if not any(is_other_build(name) for name in names):
        return
    if where != "local":
        _fail("bots of another build (NAME@DIR) play with --backend local only.")
    try:
        register_other_builds(names)
    except RackoError as error:
        _fail(str(error))


def sanity_command(
    bot_list: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bots to check; NAME@DIR is the bot NAME of the racko source tree DIR.",
        ),
    ] = "medium,hard,expert,master",
    positions: Annotated[int, typer.Option(help="Judged positions of each kind.")] = 50,
    seed: Annotated[int, typer.Option(help="Seed of the positions: the same seed gives the same positions.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Blunders: positions of the default 2-player game where one move is clearly worse by play-outs (a high card
    into a low slot, a low card into a high slot, breaking a run of three, discarding the one card that completes
    one), and how often each bot makes that move."""
    names = [name.strip() for name in bot_list.split(",") if name.strip()]
    if not names:
        _fail("--bots names no bot.")
    _seat_other_builds(names, "local")
    report = _run("Positions", lambda progress: sanity.run_sanity(names, positions, seed, progress))
    if as_json:
        typer.echo(json.dumps(report.to_json()))
        return
    counts = ", ".join(f"{report.count(kind)} {kind}" for kind in sanity.KINDS)
    typer.echo(f"{len(report.positions)} positions (seed {report.seed}): {counts}.")
    for tally in report.tallies:
        kinds = ", ".join(f"{kind} {tally.blunders[kind]}" for kind in sanity.KINDS)
        typer.echo(f"{tally.bot}: {tally.total} blunders ({kinds}).")
        for example in tally.examples[:3]:
            rack = " ".join(str(card) for card in example["rack"])
            typer.echo(
                f"  {example['kind']}: rack {rack}, drew {example['held']}: {example['move']}, "
                f"{example['move_turns']:.1f} turns to Rack-O in the play-outs "
                f"(the best move {example['best_turns']:.1f})."
            )


def ranking_command(
    positions: Annotated[int, typer.Option(help="Positions to deal and play out.")] = 2000,
    play_outs: Annotated[int, typer.Option(help="Play-outs per move (the same stock orders for every move).")] = (
        sanity.RANKING_PLAY_OUTS
    ),
    seed: Annotated[int, typer.Option(help="Seed of the positions and the play-outs.")] = 0,
    against: Annotated[
        list[str] | None,
        typer.Option(
            metavar="DIR", help="Also rank with the racko source tree DIR (another build), on the same positions."
        ),
    ] = None,
    judged_by: Annotated[
        str | None,
        typer.Option(
            "--judged-by",
            metavar="DIR",
            help="Play out with the racko source tree DIR's play-outs (default: this build's).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """How well the bots' cost of a rack (its gaps and, under the 2-player rule, the run of three) ranks the moves
    with a drawn card, against play-outs of every move: first turns of the default 2-player game."""
    trees = against or []
    reports = _run(
        "Positions", lambda progress: sanity.ranking_agreement(positions, seed, play_outs, trees, progress, judged_by)
    )
    if as_json:
        builds = [report.to_json() for report in reports]
        typer.echo(json.dumps({"seed": seed, "play_outs": play_outs, "judged_by": judged_by, "builds": builds}))
        return
    judge = "this build's" if judged_by is None else f"{judged_by}'s"
    typer.echo(f"{positions} positions (seed {seed}), {play_outs} play-outs per move ({judge}):")
    for report in reports:
        typer.echo(
            f"{report.build}: Kendall tau {report.tau:.3f}, the play-outs' best move {_percent(report.same_choice)} %, "
            f"{report.turns_lost:.3f} turns lost a move."
        )


def _write_record(path: Path, document: dict[str, object]) -> None:
    try:
        path.write_text(json.dumps(document) + "\n", encoding="utf-8")
    except OSError as error:
        _fail(f"cannot write {path}: {error.strerror or error}.")


def compare_command(
    first: Annotated[Path, typer.Argument(help="A record of racko arena --record.", dir_okay=False)],
    second: Annotated[Path, typer.Argument(help="Another record of the same deals.", dir_okay=False)],
    first_row: Annotated[int, typer.Option(help="Which bot of the first record, from 1.")] = 1,
    second_row: Annotated[int, typer.Option(help="Which bot of the second record, from 1.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Two bots on the same deals (two records of racko arena --record, the same seed and rules): both win rates and
    their difference deal by deal, with its 95 % interval."""
    try:
        comparison = strength.compare_records(
            strength.read_record(first), strength.read_record(second), first_row - 1, second_row - 1
        )
    except RackoError as error:
        _fail(str(error))
    _print_comparison(comparison, as_json)


def _print_comparison(comparison: strength.Comparison, as_json: bool) -> None:
    figures = comparison.to_json()
    if as_json:
        typer.echo(json.dumps(figures))
        return
    low, high = figures["difference_ci95"]
    typer.echo(
        f"{comparison.deals:,} deals: {comparison.first} won {_percent(figures['first_win_rate'])} %, "
        f"{comparison.second} {_percent(figures['second_win_rate'])} %; difference "
        f"{100 * comparison.difference:+.1f} points ({100 * low:+.1f} to {100 * high:+.1f}), from "
        f"{comparison.only_first} deals only the first won and {comparison.only_second} only the second."
    )


def headroom_command(
    baseline: Annotated[
        Path, typer.Argument(help="A record of master (first) in 2-player rounds (racko arena --record).")
    ],
    jobs: Annotated[int | None, typer.Option(help=JOBS_HELP)] = None,
    record: Annotated[
        Path | None, typer.Option(help="Write the record of master-peek's run to this file.", dir_okay=False)
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """What a perfect guess of the opponent's hidden rack is worth: the record's master dealing the opponent's hidden
    slots their true cards (research only), on the deals of the record, and the difference."""
    try:
        document = strength.read_record(baseline)
        new_record, comparison = _run("Rounds", lambda progress: strength.headroom(document, jobs, progress))
    except RackoError as error:
        _fail(str(error))
    if record is not None:
        _write_record(record, new_record)
    _print_comparison(comparison, as_json)


def fit_opponents_command(
    rounds: Annotated[
        int, typer.Option(help="Rounds each style's player plays against hard, per 2-player rule.")
    ] = 300,
    seed: Annotated[int, typer.Option(help="Seed of the rounds.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(help="Write the styles to this file (racko/bots/data/opponents.json ships them).", dir_okay=False),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Fit master's model of the opponent: each style of player (gap: hard; band; sequence) by maximum likelihood
    on the turns its arena player played against hard, as the other seat read them and with the racks the arena
    knows; half the turns fit, the other half say how well the styles are told apart."""
    if rounds < 2:
        _fail("--rounds must be at least 2.")
    try:
        fits = _run(
            "Styles",
            lambda progress: [
                strength.fit_opponents(fitted_styles(rule), rounds, seed, rule) for rule in (False, True)
            ],
        )
    except RackoError as error:
        _fail(str(error))
    document = strength.styles_document(fits)
    if out is not None:
        _write_record(out, document)
    if as_json:
        typer.echo(json.dumps({"styles": document, "fits": [fit.to_json() for fit in fits]}))
        return
    for fit in fits:
        rule = "with the 2-player rule" if fit.two_player_rule else "without the 2-player rule"
        typer.echo(f"{rule}:")
        for style in fit.styles:
            typer.echo(
                f"  {style.name}: take spread {style.take_spread:.3f}, margin {style.take_margin:.3f}, place spread "
                f"{style.place_spread:.3f}, floor {style.floor:.4f} ({fit.turns[style.name]} turns)"
            )
        for player, row in fit.held_out.items():
            scores = ", ".join(f"{name} {value:.3f}" for name, value in row.items())
            typer.echo(f"  held-out turns of {strength.STYLE_PLAYERS[player]}, mean log-likelihood: {scores}")


def fit_table_rating_command(
    players: Annotated[int, typer.Option(help="Players at the table (3 to 5).")] = 3,
    positions: Annotated[int, typer.Option(help="Positions of hard players (a fifth held out).")] = 1000,
    rounds: Annotated[
        int, typer.Option(help="Times the positions are labelled by play-outs and the rating fitted.")
    ] = (table_rating.ROUNDS),
    seed: Annotated[int, typer.Option(help="Seed of the positions and the play-outs.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Fit the one-move rating (the gap model's power, slack and end factor) at a table of 3 to 5 players to deep
    play-outs with the other seats in them, by a ranking loss, label again with the fitted player in the play-outs,
    and say how many play-out turns each rating loses against the best move on held-out positions."""
    if not 3 <= players <= 5 or positions < 10 or rounds < 1:
        _fail("--players 3 to 5, --positions at least 10, --rounds at least 1.")
    try:
        fitted = _run(
            "Positions", lambda progress: table_rating.fit_table_rating(players, positions, seed, rounds, progress)
        )
    except RackoError as error:
        _fail(str(error))
    if as_json:
        typer.echo(json.dumps(fitted.to_json()))
        return
    for model, lost in zip(fitted.models, fitted.held_out_lost, strict=True):
        typer.echo(
            f"power {model.power:.3f}, slack {model.slack:.3f}, end factor {model.edge:.3f}: "
            f"{lost:.3f} turns lost a move"
        )
    typer.echo(f"expert's table model: {fitted.table_model_lost:.3f} turns lost a move")


def solve_small_command(
    rounds: Annotated[int, typer.Option(help="Rounds of each match against the best player (seats alternating).")] = (
        20_000
    ),
    seed: Annotated[int, typer.Option(help="Seed of the deals and the draws.")] = 0,
    values: Annotated[
        Path | None,
        typer.Option(
            help="Keep the solved values in this .npy file (180 MB): read when it exists, else written.", dir_okay=False
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """A bound at a small size: solve the open-rack 2-player game with 3 slots and 12 cards exactly, and say how
    far hard and master's way of choosing are from the best player there (needs the rl extra: numba)."""
    try:
        from racko.tools.small_game import solve_small
    except ImportError as error:  # the rl extra is not installed
        _fail(f"solve-small needs the rl extra (pip install 'racko[rl]'): {error}.", 1)
    if rounds < 2:
        _fail("--rounds must be at least 2.")
    try:
        solved = solve_small(rounds, seed, values)
    except (RackoError, OSError, ValueError) as error:
        _fail(str(error))
    if as_json:
        typer.echo(json.dumps(solved.to_json()))
        return
    typer.echo(
        f"3 slots, 12 cards, open racks: solved in {solved.sweeps} sweeps; moving first, the best player wins "
        f"{_percent(solved.first_mover)} % of deals."
    )
    for match in solved.matches:
        typer.echo(
            f"{match.first} against {match.second}: {_percent(match.first_wins / match.rounds)} % of "
            f"{match.rounds:,} rounds; choices give away {100 * match.first_lost:.2f} and "
            f"{100 * match.second_lost:.2f} points of the chance to win a round."
        )


def register(app: typer.Typer) -> None:
    """Add ``arena``, ``solo``, ``sanity``, ``ranking``, ``compare`` and ``headroom`` to the ``racko`` app."""
    app.command("arena")(arena_command)
    app.command("solo")(solo_command)
    app.command("sanity")(sanity_command)
    app.command("ranking")(ranking_command)
    app.command("compare")(compare_command)
    app.command("headroom")(headroom_command)
    app.command("fit-opponents")(fit_opponents_command)
    app.command("fit-table-rating")(fit_table_rating_command)
    app.command("solve-small")(solve_small_command)
