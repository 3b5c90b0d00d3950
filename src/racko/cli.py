"""The ``racko`` command: a thin tree over the front ends (terminal play, the tools, the web server)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
import typer.core

import racko
from racko.terminal import command as play_commands
from racko.terminal.demo import demo_command
from racko.tools import arena_commands, commands
from racko.web import command as web_commands
from racko.web.command import serve_command

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
)


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
    rounds: commands.Rounds = 10_000,
    batches: commands.Batches = 5,
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
    seed: Annotated[int, typer.Option(help="Seed of the first round (with --server: of the simulated people).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Speed: the rules engine (2-player classic rounds, bucket vs bucket, on one core), or with --server the web
    server under load (concurrent tables, actions per second, latency to every seat, memory per table)."""
    wrong = [name for name in (ENGINE_ONLY if server else SERVER_ONLY) if _given(context, name)]
    if wrong:
        options = ", ".join("--" + ("p99-ms" if name == "limit_ms" else name.replace("_", "-")) for name in wrong)
        typer.echo(
            f"racko: {options} {'is' if len(wrong) == 1 else 'are'} for the benchmark "
            f"{'without' if server else 'with'} --server.",
            err=True,
        )
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
            seed=seed,
            as_json=as_json,
        )
    else:
        commands.bench_command(rounds=rounds, seed=seed, batches=batches, as_json=as_json)


def _given(context: typer.Context, name: str) -> bool:
    source = context.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


app.command("demo")(demo_command)
app.command("bench")(bench_command)
commands.register(app)
arena_commands.register(app)
play_commands.register(app)
app.command("serve")(serve_command)


def main() -> None:
    app()
