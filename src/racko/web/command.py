"""``racko serve``: start the web server on this machine; ``racko bench --server``: measure one under load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from racko.play.library import data_dir
from racko.web.store import SYNC_LEVELS


def serve_command(
    host: Annotated[
        str, typer.Option(help="The address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 lets others join.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    db: Annotated[
        Path | None,
        typer.Option(help="The SQLite file that keeps the tables (default: racko.sqlite3 in racko's data folder)."),
    ] = None,
    pace: Annotated[float, typer.Option(help="Seconds a computer player waits before its move.", min=0)] = 0.8,
    away: Annotated[
        float,
        typer.Option(help="Seconds a person may be away before the others can hand the seat to a computer.", min=1),
    ] = 60.0,
    sync: Annotated[
        str, typer.Option(help="full: a power cut loses no committed move; normal: faster, may lose the last ones.")
    ] = "full",
) -> None:
    """Play Rack-O in the browser, with friends and computer players: start the server and print its address."""
    import uvicorn

    from racko.web.app import create_app
    from racko.web.store import SqliteTables

    if sync not in SYNC_LEVELS:
        typer.echo(f"racko: --sync is {' or '.join(SYNC_LEVELS)}, not {sync!r}.", err=True)
        raise typer.Exit(2)
    path = db if db is not None else data_dir() / "racko.sqlite3"
    try:
        store = SqliteTables(path, sync=sync, grouped=True)
    except Exception as error:  # a folder that cannot be written, a file that is not a database
        typer.echo(f"racko: cannot open the database {path}: {error}", err=True)
        raise typer.Exit(2) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"racko serve: open http://{shown}:{port}/ (tables are kept in {path}); Ctrl+C stops.")
    if host in ("0.0.0.0", "::"):
        typer.echo("Others on your network join with this machine's address instead of 127.0.0.1.")
    uvicorn.run(
        create_app(store, pace=pace, away_seconds=away, short_collections=True),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        proxy_headers=True,
    )


SERVER_PANEL = "With --server (a racko serve process under simulated people)"
Tables = Annotated[
    int, typer.Option(min=1, max=5000, help="Tables, two person seats each.", rich_help_panel=SERVER_PANEL)
]
Interval = Annotated[
    float,
    typer.Option(
        min=0.05, help="Seconds between two actions at a table (±50 % at random).", rich_help_panel=SERVER_PANEL
    ),
]
Seconds = Annotated[
    float, typer.Option(min=1, max=3600, help="Seconds measured, after the warm-up.", rich_help_panel=SERVER_PANEL)
]
Warmup = Annotated[
    float, typer.Option(min=0, max=600, help="Seconds played before measuring.", rich_help_panel=SERVER_PANEL)
]
FindMax = Annotated[
    bool,
    typer.Option(
        "--find-max",
        help="Raise the rate of actions step by step until p99 passes the limit; print the highest that did not.",
        rich_help_panel=SERVER_PANEL,
    ),
]
StartRate = Annotated[
    float,
    typer.Option(min=1, help="--find-max: actions per second offered at the first step.", rich_help_panel=SERVER_PANEL),
]
StepSeconds = Annotated[
    float,
    typer.Option(min=1, max=600, help="--find-max: seconds measured at each step.", rich_help_panel=SERVER_PANEL),
]
MaxSteps = Annotated[
    int, typer.Option(min=1, max=40, help="--find-max: at most this many steps.", rich_help_panel=SERVER_PANEL)
]
LimitMs = Annotated[
    float,
    typer.Option(
        "--p99-ms",
        min=1,
        help="The p99 latency (ms) an action may take to reach every seat.",
        rich_help_panel=SERVER_PANEL,
    ),
]
Sync = Annotated[str, typer.Option(help="The server's --sync: full or normal.", rich_help_panel=SERVER_PANEL)]
Players = Annotated[
    str,
    typer.Option(
        help="sorting: people who keep cards near their slots (rounds end as usual); random: any legal move.",
        rich_help_panel=SERVER_PANEL,
    ),
]
DbDir = Annotated[
    Path | None,
    typer.Option(
        help="Folder for the server's temporary database (default: the system's temporary folder).",
        rich_help_panel=SERVER_PANEL,
    ),
]


def server_bench_command(
    tables: Tables = 1000,
    interval: Interval = 2.0,
    seconds: Seconds = 60.0,
    warmup: Warmup = 5.0,
    find_max: FindMax = False,
    start_rate: StartRate = 100.0,
    step_seconds: StepSeconds = 10.0,
    max_steps: MaxSteps = 14,
    limit_ms: LimitMs = 50.0,
    sync: Sync = "full",
    players: Players = "sorting",
    db_dir: DbDir = None,
    seed: int = 0,
    as_json: bool = False,
) -> None:
    """Load a `racko serve` process (started here, on 127.0.0.1) with simulated people and print what it carried."""
    from racko.web.loadtest import PLAYERS, BenchSettings, server_bench

    if sync not in SYNC_LEVELS:
        typer.echo(f"racko: --sync is {' or '.join(SYNC_LEVELS)}, not {sync!r}.", err=True)
        raise typer.Exit(2)
    if players not in PLAYERS:
        typer.echo(f"racko: --players is {' or '.join(PLAYERS)}, not {players!r}.", err=True)
        raise typer.Exit(2)
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
    )

    def say(line: str) -> None:
        typer.echo(f"racko bench: {line}", err=True)

    try:
        figures = server_bench(settings, say)
    except KeyboardInterrupt:
        typer.echo("racko: stopped; the server was stopped too.", err=True)
        raise typer.Exit(130) from None
    except (OSError, RuntimeError) as error:
        typer.echo(f"racko: the server benchmark failed: {error}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(figures))
        return
    for line in server_bench_lines(figures):
        typer.echo(line)


def server_bench_lines(figures: dict[str, Any]) -> list[str]:
    """The figures in words."""

    def mb(kb: int | None) -> str:
        return "?" if kb is None else f"{kb / 1024:,.1f} MB"

    def share(value: float | None) -> str:
        return "?" if value is None else f"{value:.0%}"

    lines = [
        f"{figures['tables']:,} tables, 2 person seats each, one server process (sync {figures['sync']}; "
        f"{figures['cores']} cores, shared with the load; load average {figures['load_average_before']} before, "
        f"{figures['load_average_after']} after)."
    ]
    limit = figures["p99_limit_ms"]
    if figures["benchmark"] == "server-pace":
        lines += [
            f"An action every {figures['interval']} s a table: {figures['actions']:,} actions in "
            f"{figures['seconds']:g} s, {figures['actions_per_second']:,.1f}/s "
            f"(offered {figures['offered_per_second']:,.1f}/s).",
            f"From an action to the last seat's state: p50 {figures['p50_ms']} ms, p90 {figures['p90_ms']} ms, "
            f"p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms "
            f"(p99 within {limit:g} ms: {'yes' if figures['met'] else 'no'}).",
            f"CPU: server {share(figures['server_cpu'])} of a core, load {share(figures['client_cpu'])}.",
        ]
    else:
        for step in figures["steps"]:
            lines.append(
                f"  offered {step['offered_per_second']:>8,.0f}/s  played {step['actions_per_second']:>8,.1f}/s  "
                f"p50 {step['p50_ms']:>7} ms  p99 {step['p99_ms']:>8} ms  server CPU {share(step['server_cpu'])}  "
                f"load CPU {share(step['client_cpu'])}  {'passed' if step['passed'] else 'failed'}"
            )
        best = figures["max_actions_per_second"]
        lines.append(
            f"Most actions a second with p99 within {limit:g} ms: "
            + (
                f"{best:,.1f} (p99 {figures['p99_at_max_ms']} ms)."
                if best is not None
                else "none (the first step failed)."
            )
        )
    lines.append(
        f"Server memory: {mb(figures['server_rss_before_kb'])} before the tables, "
        f"{mb(figures['server_rss_open_kb'])} with them open ({figures['memory_per_table_kb']} KB a table), "
        f"{mb(figures['server_rss_after_kb'])} at the end."
    )
    errors = figures["error_codes"]
    lines.append("Errors: " + (", ".join(f"{code} {count}" for code, count in errors.items()) if errors else "none."))
    return lines
