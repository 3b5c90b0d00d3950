"""The ``racko`` command: a thin tree over the front ends (terminal play, the tools, the web server)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
import typer.core

import racko
from racko.errors import RackoError
from racko.terminal import command as play_commands
from racko.terminal.demo import demo_command
from racko.tools import arena_commands, commands, puzzle_commands, review_commands
from racko.tools.review_commands import review_bench_lines, run_review_bench
from racko.web import command as web_commands
from racko.web.command import proxy_config_command, serve_command

app = typer.Typer(
    name="racko",
    help="Rack-O: the rules engine, computer players and tools around them.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _flags_take_no_value() -> None:
    """Typer (0.29) prints "<bool>" beside every on/off flag, as if it took a value: show no type for a flag."""
    show_type = typer.core.TyperOption.display_type_rich

    def display_type_rich(option: typer.core.TyperOption, ctx: Any) -> str | None:
        return None if option.is_flag else show_type(option, ctx)

    typer.core.TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign, assignment]


_flags_take_no_value()


def _version(shown: bool) -> None:
    if shown:
        typer.echo(f"racko {racko.__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    context: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", help="Print racko's version and stop.", callback=_version, is_eager=True)
    ] = False,
) -> None:
    """Rack-O: the rules engine, computer players and tools around them."""
    if context.invoked_subcommand is None:  # bare `racko` is a question, not a mistake: the help, exit 0
        typer.echo(context.get_help())
        raise typer.Exit()


ENGINE_ONLY = ("rounds", "batches")
"""Options of the rules-engine benchmark, which ``--batch`` takes too (with its own default number of rounds)."""
BATCH_ONLY = ("threads",)
SERVER_ONLY = (
    "tables",
    "interval",
    "seconds",
    "warmup",
    "find_max",
    "start_rate",
    "step_seconds",
    "max_steps",
    "limit_ms",
    "sync",
    "players",
    "db_dir",
    "processes",
    "proxy",
    "db",
    "lobbies",
    "quick",
)
PAGE_ONLY = ("loads",)
BATCH_ROUNDS = 4_000_000
"""``racko bench --batch`` plays this many rounds unless ``--rounds`` says otherwise."""


def bench_command(
    context: typer.Context,
    server: Annotated[
        bool,
        typer.Option(
            "--server",
            help="Measure the web server instead: `racko serve` in its own process, loaded with simulated people "
            "(docs/BENCHMARKS.md).",
        ),
    ] = False,
    batch: Annotated[
        bool,
        typer.Option(
            "--batch",
            help="Measure the batch simulator instead (the rl extra): turns per second, bucket vs bucket and gap vs "
            f"gap, on every core ({BATCH_ROUNDS:,} rounds unless --rounds says otherwise).",
        ),
    ] = False,
    page: Annotated[
        bool,
        typer.Option(
            "--page",
            help="Measure the table page instead: how soon Chromium draws its first state (the test extra and "
            "Chromium; docs/BENCHMARKS.md).",
        ),
    ] = False,
    loads: Annotated[int, typer.Option(min=1, max=1000, help="Page loads for --page.")] = 20,
    review: Annotated[
        bool,
        typer.Option(
            "--review",
            help="Measure racko review instead: a whole 500-point 2-player game reviewed on two threads "
            "(docs/BENCHMARKS.md).",
        ),
    ] = False,
    rounds: commands.Rounds = 10_000,
    batches: commands.Batches = 5,
    threads: Annotated[
        int | None,
        typer.Option(min=1, help="Threads for --batch (default: one per core).", show_default=False),
    ] = None,
    tables: web_commands.Tables = 1000,
    interval: web_commands.Interval = 2.0,
    seconds: web_commands.Seconds = 60.0,
    warmup: web_commands.Warmup = 5.0,
    find_max: web_commands.FindMax = False,
    start_rate: web_commands.StartRate = 100.0,
    step_seconds: web_commands.StepSeconds = 10.0,
    max_steps: web_commands.MaxSteps = 14,
    limit_ms: web_commands.LimitMs = 50.0,
    sync: web_commands.Sync = "full",
    players: web_commands.Players = "sorting",
    db_dir: web_commands.DbDir = None,
    processes: web_commands.Processes = 1,
    proxy: web_commands.ThroughProxy = False,
    db: web_commands.BenchDb = "sqlite",
    lobbies: web_commands.Lobbies = 0,
    quick: web_commands.Quick = 0,
    seed: Annotated[int, typer.Option(help="Seed of the first round (with --server: of the simulated people).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Speed: the rules engine (2-player classic rounds, bucket vs bucket, on one core), with --batch the batch
    simulator (the same rounds, thousands at once), with --server the web server under load (concurrent tables,
    actions per second, latency to every seat, memory per table), with --page how soon the table page draws its
    first state in Chromium, or with --review how long racko review takes over a whole 500-point game."""
    chosen = [
        name for name, on in (("--server", server), ("--batch", batch), ("--page", page), ("--review", review)) if on
    ]
    if len(chosen) > 1:
        typer.echo(f"racko: {' and '.join(chosen)} are different benchmarks: choose one.", err=True)
        raise typer.Exit(2)
    mode = f"with {chosen[0]}" if chosen else "without --server, --batch, --page or --review"
    refused = {
        "--server": (*ENGINE_ONLY, *BATCH_ONLY, *PAGE_ONLY),
        "--batch": (*SERVER_ONLY, *PAGE_ONLY),
        "--page": (*ENGINE_ONLY, *BATCH_ONLY, *SERVER_ONLY),
        "--review": (*ENGINE_ONLY, *BATCH_ONLY, *SERVER_ONLY, *PAGE_ONLY, "seed"),
    }.get(chosen[0] if chosen else "", (*SERVER_ONLY, *BATCH_ONLY, *PAGE_ONLY))
    wrong = [name for name in refused if _given(context, name)]
    if wrong:
        options = ", ".join("--" + ("p99-ms" if name == "limit_ms" else name.replace("_", "-")) for name in wrong)
        typer.echo(f"racko: {options} {'is' if len(wrong) == 1 else 'are'} not for the benchmark {mode}.", err=True)
        raise typer.Exit(2)
    if server:
        web_commands.server_bench_command(
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
            db_dir=db_dir,
            processes=processes,
            proxy=proxy,
            db=db,
            lobbies=lobbies,
            quick=quick,
            seed=seed,
            as_json=as_json,
        )
    elif page:
        _page_bench(loads, as_json)
    elif review:
        for line in review_bench_lines(run_review_bench(), as_json):
            typer.echo(line)
    elif batch:
        _batch_bench(rounds if _given(context, "rounds") else BATCH_ROUNDS, batches, seed, threads, as_json)
    else:
        commands.bench_command(rounds=rounds, seed=seed, batches=batches, as_json=as_json)


def _batch_bench(rounds: int, batches: int, seed: int, threads: int | None, as_json: bool) -> None:
    try:
        from racko.envs.batch.bench import batch_bench_lines, run_batch_bench
    except ImportError as error:  # the rl extra is not installed
        typer.echo(f"racko: --batch needs the rl extra (pip install 'racko[rl]'): {error}.", err=True)
        raise typer.Exit(1) from None
    try:
        figures = run_batch_bench(rounds, batches, seed, threads)
    except RackoError as error:
        typer.echo(f"racko: {error}", err=True)
        raise typer.Exit(2) from None
    for line in batch_bench_lines(figures, as_json):
        typer.echo(line)


def _page_bench(loads: int, as_json: bool) -> None:
    from racko.web.pagebench import page_bench, page_bench_lines

    try:
        figures = page_bench(loads)
    except RackoError as error:  # no Playwright, no Chromium: what to install
        typer.echo(f"racko: {error}", err=True)
        raise typer.Exit(1) from None
    for line in page_bench_lines(figures, as_json):
        typer.echo(line)


def _given(context: typer.Context, name: str) -> bool:
    source = context.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


app.command("demo")(demo_command)
app.command("bench")(bench_command)
commands.register(app)
arena_commands.register(app)
review_commands.register(app)
puzzle_commands.register(app)
play_commands.register(app)
app.command("serve")(serve_command)
app.command("proxy-config")(proxy_config_command)
app.add_typer(web_commands.admin_app)


def main() -> None:
    app()
