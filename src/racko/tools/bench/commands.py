"""``racko bench``: one subcommand per benchmark, each with its own options (docs/BENCHMARKS.md).

``engine`` the rules engine, ``batch`` the batch simulator, ``server`` the web server under load, ``clocks`` its
clocks at scale (many turn-based tables, deadlines falling due), ``page`` the table
page in Chromium, ``review`` a game's review (``--browser``: as the browser asks a real server for it),
``tournament`` a Swiss round's pairing and an arena's seating.  Added to the main app by :func:`register`.  Every
error is one ``racko: ...`` line on stderr.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from racko.errors import RackoError
from racko.tools.bench.engine import engine_bench, engine_bench_lines

BATCH_ROUNDS = 4_000_000
"""``racko bench batch`` plays this many rounds unless ``--rounds`` says otherwise."""

TournamentRunner = Callable[[int, int, int, int, bool], None]
"""Runs the tournaments' benchmark and prints its figures: ``(swiss_players, arena_players, minutes, seed,
as_json)``; it measures the web server's tournaments room, which the tools may not import: the command above hands
it in."""
BatchRunner = Callable[[int, int, int, int | None, bool], None]
"""Runs the batch simulator's benchmark and prints its figures: ``(rounds, batches, seed, threads, as_json)``.  The
simulator is the ``envs`` front end's, which the tools may not import: the command above both hands it in."""

Seed = Annotated[int, typer.Option(help="Seed of the first round.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")]
Batches = Annotated[int, typer.Option(min=1, help="Time the rounds in this many batches and report the median.")]
Figures = TypeVar("Figures")


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"racko: {message}", err=True)
    return typer.Exit(code)


def _measured(what: str, run: Callable[[], Figures]) -> Figures:
    """``run()``, a benchmark that starts servers (they are stopped when it ends): Ctrl+C, or a server that failed,
    ends the command with one line."""
    try:
        return run()
    except KeyboardInterrupt:
        raise _fail("stopped; the server was stopped too.", 130) from None
    except (OSError, RuntimeError) as error:
        raise _fail(f"the {what} benchmark failed: {error}") from None


def _say(line: str) -> None:
    """A benchmark's progress, on standard error (standard output is for its figures)."""
    typer.echo(f"racko bench: {line}", err=True)


def _print_figures(figures: Figures, lines: Callable[[Figures], list[str]], as_json: bool) -> None:
    """A benchmark's figures, as JSON or as the lines that say them."""
    if as_json:
        typer.echo(json.dumps(figures))
        return
    for line in lines(figures):
        typer.echo(line)


def engine_command(
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play.")] = 10_000,
    batches: Batches = 5,
    seed: Seed = 0,
    as_json: AsJson = False,
) -> None:
    """The rules engine: 2-player classic rounds (40 cards, 2-player rule off), bucket vs bucket, on one core."""
    figures = engine_bench(rounds, seed, batches)
    for line in [json.dumps(figures)] if as_json else engine_bench_lines(figures):
        typer.echo(line)


def server_command(
    tables: Annotated[int, typer.Option(min=1, max=5000, help="Tables, two person seats each.")] = 1000,
    interval: Annotated[
        float, typer.Option(min=0.05, help="Seconds between two actions at a table (±50 % at random).")
    ] = 2.0,
    seconds: Annotated[float, typer.Option(min=1, max=3600, help="Seconds measured, after the warm-up.")] = 60.0,
    warmup: Annotated[float, typer.Option(min=0, max=600, help="Seconds played before measuring.")] = 5.0,
    find_max: Annotated[
        bool,
        typer.Option(
            "--find-max",
            help="Raise the rate of actions step by step until p99 passes the limit; print the highest that did not.",
        ),
    ] = False,
    start_rate: Annotated[
        float, typer.Option(min=1, help="--find-max: actions per second offered at the first step.")
    ] = 100.0,
    step_seconds: Annotated[
        float, typer.Option(min=1, max=600, help="--find-max: seconds measured at each step.")
    ] = 10.0,
    max_steps: Annotated[int, typer.Option(min=1, max=40, help="--find-max: at most this many steps.")] = 14,
    limit_ms: Annotated[
        float, typer.Option("--p99-ms", min=1, help="The p99 latency (ms) an action may take to reach every seat.")
    ] = 50.0,
    sync: Annotated[str, typer.Option(help="The server's --sync: full or normal.")] = "full",
    players: Annotated[
        str,
        typer.Option(
            help="sorting: people who keep cards near their slots (rounds end as usual); random: any legal move."
        ),
    ] = "sorting",
    db_dir: Annotated[
        Path | None,
        typer.Option(help="Folder for the server's temporary database (default: the system's temporary folder)."),
    ] = None,
    processes: Annotated[
        int,
        typer.Option(min=1, max=16, help="Server processes, behind HAProxy when more than one (needs --db postgres)."),
    ] = 1,
    proxy: Annotated[bool, typer.Option("--proxy", help="Through HAProxy even with one process.")] = False,
    port: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=65535,
            help="The port of 127.0.0.1 the server listens on (HAProxy's, in front of several processes); default: "
            "a free one. On a shared machine, one agreed on beforehand.",
            show_default=False,
        ),
    ] = None,
    db: Annotated[
        str,
        typer.Option(
            help="sqlite (a temporary file), postgres (a PostgreSQL server started for the run, Debian's "
            "postgresql), or a postgresql:// URL."
        ),
    ] = "sqlite",
    lobbies: Annotated[
        int,
        typer.Option(
            min=0,
            max=5000,
            help="Lobby connections open while measuring; the tables are then public, and a public table made each "
            "second is timed to every lobby connection.",
        ),
    ] = 0,
    quick: Annotated[
        int,
        typer.Option(
            min=0,
            max=20000,
            help="People arriving over the measured stretch who press quick play (classic, 2 players): their waits.",
        ),
    ] = 0,
    clock: Annotated[
        str | None,
        typer.Option(help="Give every table this real-time clock (fast, normal or slow); default: no clock."),
    ] = None,
    bots: Annotated[
        int,
        typer.Option(
            min=0,
            max=5000,
            help="Bot accounts (an even number) playing in pairs through the Bot API instead: move acknowledgement, "
            "events per second, CPU per move; then the browser's sockets (--tables is not used; --seconds and "
            "--warmup are theirs) at the bots' rate, for their CPU per move.",
        ),
    ] = 0,
    games: Annotated[int, typer.Option(min=1, max=1000, help="--bots: games each bot plays, a table each.")] = 10,
    think: Annotated[
        float,
        typer.Option(
            min=0,
            max=60,
            help="--bots: seconds each bot thinks before each move (0: it moves at once, and the server runs flat "
            "out: the acknowledgement is then its queue).",
        ),
    ] = 0.25,
    target: Annotated[
        int, typer.Option(min=5, max=1000, help="--bots: the tables' target score (75: mostly one round).")
    ] = 75,
    seed: Annotated[int, typer.Option(help="Seed of the simulated people.")] = 0,
    as_json: AsJson = False,
) -> None:
    """The web server under load: a racko serve process (or several behind HAProxy) started here on 127.0.0.1,
    loaded with simulated people: actions per second, latency to every seat, memory per table.  With --bots: bot
    accounts playing through the Bot API (docs/BENCHMARKS.md)."""
    from racko.tools.bench.server import PLAYERS, SYNC_LEVELS, BenchSettings, server_bench, server_bench_lines

    if sync not in SYNC_LEVELS:
        raise _fail(f"--sync is {' or '.join(SYNC_LEVELS)}, not {sync!r}.", 2)
    if bots:
        from racko.tools.bench.bots import BotBenchSettings, bots_bench, bots_bench_lines

        if bots < 2 or bots % 2:
            raise _fail("the bots play in pairs: --bots is an even number, 2 or more.", 2)
        if find_max or processes > 1 or proxy or db != "sqlite" or lobbies or quick or clock:
            raise _fail("--bots is measured on one process and SQLite, at the bots' own pace, on its own.", 2)
        settings_of_bots = BotBenchSettings(
            bots=bots,
            games=games,
            target=target,
            think=think,
            seconds=seconds,
            warmup=warmup,
            sync=sync,
            seed=seed,
            db_dir=db_dir,
            port=port or 0,
        )
        _print_figures(_measured("bots", lambda: bots_bench(settings_of_bots, _say)), bots_bench_lines, as_json)
        return
    if players not in PLAYERS:
        raise _fail(f"--players is {' or '.join(PLAYERS)}, not {players!r}.", 2)
    if db not in ("sqlite", "postgres") and not db.startswith(("postgresql://", "postgres://")):
        raise _fail(f"--db is sqlite, postgres or a postgresql:// URL, not {db!r}.", 2)
    if processes > 1 and db == "sqlite":
        raise _fail("several server processes share a PostgreSQL database: add --db postgres.", 2)
    if clock is not None and clock not in ("fast", "normal", "slow"):
        raise _fail(f"--clock is fast, normal or slow, not {clock!r}.", 2)
    if find_max and (lobbies or quick):
        raise _fail("--lobbies and --quick are measured at a steady pace, not with --find-max.", 2)
    settings = BenchSettings(
        tables=tables,
        interval=interval,
        seconds=seconds,
        warmup=warmup,
        find_max=find_max,
        start_rate=start_rate,
        step_seconds=step_seconds,
        max_steps=max_steps,
        limit_ms=limit_ms,
        sync=sync,
        players=players,
        seed=seed,
        db_dir=db_dir,
        processes=processes,
        proxy=proxy,
        db=db,
        lobbies=lobbies,
        quick=quick,
        clock=clock,
        port=port or 0,
    )
    _print_figures(_measured("server", lambda: server_bench(settings, _say)), server_bench_lines, as_json)


def clocks_command(
    turn_based: Annotated[
        int, typer.Option(min=1, max=100_000, help="Idle turn-based tables (1 day a move) open in the server.")
    ] = 10_000,
    real_time: Annotated[
        int, typer.Option(min=0, max=5000, help="Real-time tables, both seats connected, whose people never move.")
    ] = 1000,
    due: Annotated[
        int,
        typer.Option(min=1, max=100_000, help="Turn-based tables filed while the server runs, due within --window."),
    ] = 1000,
    preset: Annotated[str, typer.Option(help="The real-time tables' clock: fast, normal or slow.")] = "fast",
    window: Annotated[
        float, typer.Option(min=1, max=3600, help="Seconds over which the due tables' deadlines are spread.")
    ] = 60.0,
    rest: Annotated[float, typer.Option(min=1, max=600, help="Seconds over which CPU at rest is measured.")] = 10.0,
    db_dir: Annotated[
        Path | None,
        typer.Option(help="Folder for the server's temporary database (default: the system's temporary folder)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the filed tables' deals and deadlines.")] = 0,
    as_json: AsJson = False,
) -> None:
    """The server's clocks at scale: a racko serve started here with many idle turn-based tables and real-time
    tables nobody moves at: how late each timeout is played, memory per idle table, CPU at rest."""
    from racko.tools.bench.clocks import ClockSettings, clocks_bench, clocks_bench_lines

    if preset not in ("fast", "normal", "slow"):
        raise _fail(f"--preset is fast, normal or slow, not {preset!r}.", 2)
    settings = ClockSettings(
        turn_based=turn_based,
        real_time=real_time,
        due=due,
        preset=preset,
        window=window,
        rest=rest,
        db_dir=db_dir,
        seed=seed,
    )
    _print_figures(_measured("clocks", lambda: clocks_bench(settings, _say)), clocks_bench_lines, as_json)


def page_command(
    loads: Annotated[int, typer.Option(min=1, max=1000, help="Page loads, each in a fresh browser context.")] = 20,
    as_json: AsJson = False,
) -> None:
    """The table page: how soon Chromium draws its first state, from a racko serve started here (the test extra and
    Chromium)."""
    from racko.tools.bench.page import page_bench, page_bench_lines

    try:
        figures = page_bench(loads)
    except RackoError as error:  # no Playwright, no Chromium: what to install
        raise _fail(str(error)) from None
    for line in page_bench_lines(figures, as_json):
        typer.echo(line)


def review_command(
    browser: Annotated[
        bool,
        typer.Option(
            "--browser",
            help="Time the browser's review instead: a game played at a racko serve started here, its first round's "
            "review and the whole game's, asked as the page asks.",
        ),
    ] = False,
    as_json: AsJson = False,
) -> None:
    """A game's review: racko review over a whole 500-point 2-player game (hard against hard) on two threads, or
    with --browser the server's review of a game played at it."""
    if not browser:
        from racko.tools.review_commands import review_bench_lines, run_review_bench

        for line in review_bench_lines(run_review_bench(), as_json):
            typer.echo(line)
        return
    from racko.tools.bench.review import browser_review_bench, browser_review_lines

    figures = _measured("review", browser_review_bench)
    for line in browser_review_lines(figures, as_json):
        typer.echo(line)


def _bare_bench(context: typer.Context) -> None:
    """Speed: the rules engine, the batch simulator, the web server, the table page, a game's review, tournaments
    (docs/BENCHMARKS.md)."""
    if context.invoked_subcommand is None:  # a bare `racko bench` asks which there are: the help, exit 0
        typer.echo(context.get_help())
        raise typer.Exit()


def register(app: typer.Typer, run_batch: BatchRunner, run_tournament: TournamentRunner) -> None:
    """Add ``bench`` and its subcommands to the ``racko`` app; ``run_batch`` runs the batch simulator's benchmark,
    ``run_tournament`` the tournaments'."""

    def batch_command(
        rounds: Annotated[int, typer.Option(min=1, help="Rounds to play, bucket vs bucket.")] = BATCH_ROUNDS,
        batches: Batches = 5,
        threads: Annotated[
            int | None, typer.Option(min=1, help="Threads (default: one per core).", show_default=False)
        ] = None,
        seed: Seed = 0,
        as_json: AsJson = False,
    ) -> None:
        """The batch simulator (the rl extra): turns per second, the same rounds as engine thousands at once, bucket
        vs bucket and gap vs gap, on every core."""
        run_batch(rounds, batches, seed, threads, as_json)

    def tournament_command(
        players: Annotated[
            int, typer.Option(min=4, max=20000, help="Players of the Swiss whose fifth round is paired.")
        ] = 2000,
        arena_players: Annotated[int, typer.Option(min=4, max=5000, help="Players of the simulated arena.")] = 500,
        minutes: Annotated[int, typer.Option(min=5, max=1440, help="The arena's simulated minutes.")] = 60,
        seed: Seed = 0,
        as_json: AsJson = False,
    ) -> None:
        """Tournaments: the seconds a Swiss round of many players takes to pair (tables of 2 and of 4), and how soon
        an arena's players are seated again (simulated players, the server's runner and store)."""
        run_tournament(players, arena_players, minutes, seed, as_json)

    bench = typer.Typer(name="bench", invoke_without_command=True)
    bench.callback()(_bare_bench)
    bench.command("engine")(engine_command)
    bench.command("batch")(batch_command)
    bench.command("server")(server_command)
    bench.command("clocks")(clocks_command)
    bench.command("page")(page_command)
    bench.command("review")(review_command)
    bench.command("tournament")(tournament_command)
    app.add_typer(bench)
