"""``racko serve``: start the web server on this machine; ``racko bench --server``: measure one under load."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer

from racko.play.library import data_dir
from racko.web.limits import NEW_TABLES_PER_ADDRESS
from racko.web.lobby import FILL_SECONDS
from racko.web.logs import LOG_FORMATS
from racko.web.store.base import SYNC_LEVELS


def serve_command(
    host: Annotated[
        str, typer.Option(help="The address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 lets others join.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Where the tables are kept: a SQLite file (default: racko.sqlite3 in racko's data folder; one "
            "process), or postgresql://USER@HOST:PORT/DB (any number of processes, docs/DEPLOY.md).",
        ),
    ] = None,
    pace: Annotated[float, typer.Option(help="Seconds a computer player waits before its move.", min=0)] = 0.8,
    away: Annotated[
        float,
        typer.Option(help="Seconds a person may be away before the others can hand the seat to a computer.", min=1),
    ] = 60.0,
    sync: Annotated[
        str, typer.Option(help="full: a power cut loses no committed move; normal: faster, may lose the last ones.")
    ] = "full",
    node: Annotated[
        str | None,
        typer.Option(
            help="This process's name among several sharing a PostgreSQL database (the proxy routes ?node= by it; "
            "default: the host's name and the port).",
        ),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            help="The origin of pages served from another address that may use this server, such as "
            "https://example.org (repeat for more); this server's own pages always may.",
        ),
    ] = None,
    log_format: Annotated[
        str, typer.Option(help="The log on standard error: plain (a line of text per event) or json (an object).")
    ] = "plain",
    new_tables_per_minute: Annotated[
        int,
        typer.Option(
            help="New tables a minute from one client address (from all of them together: 30 times as many).", min=1
        ),
    ] = NEW_TABLES_PER_ADDRESS,
    quick_wait: Annotated[
        float,
        typer.Option(help="Seconds a player waits in quick play before computer players may fill the seats.", min=0),
    ] = FILL_SECONDS,
    quick_target: Annotated[
        int | None,
        typer.Option(help="The target score of quick play's tables (default: the variant's own).", min=5),
    ] = None,
    review_playouts: Annotated[
        int | None,
        typer.Option(
            help="Play-outs a review gives each move at first (default: the review's own, 32, and 160 more for the "
            "best moves); fewer make the browser's reviews quicker and rougher.",
            min=1,
        ),
    ] = None,
    rate_shared_addresses: Annotated[
        bool,
        typer.Option(
            "--rate-shared-addresses",
            help="Rate games between people who play from one network address (a school or a club behind one "
            "address); by default such a game is casual, so that nobody rates themselves with two browsers.",
        ),
    ] = False,
) -> None:
    """Play Rack-O in the browser, with friends and computer players: start the server and print its address."""
    import uvicorn

    from racko.web.app import create_app
    from racko.web.logs import configure_logging

    if sync not in SYNC_LEVELS:
        typer.echo(f"racko: --sync is {' or '.join(SYNC_LEVELS)}, not {sync!r}.", err=True)
        raise typer.Exit(2)
    if log_format not in LOG_FORMATS:
        typer.echo(f"racko: --log-format is {' or '.join(LOG_FORMATS)}, not {log_format!r}.", err=True)
        raise typer.Exit(2)
    origins = tuple(allow_origin or ())
    for origin in origins:
        if not _is_origin(origin):
            typer.echo(f"racko: --allow-origin takes an origin such as https://example.org, not {origin!r}.", err=True)
            raise typer.Exit(2)
    os.umask(0o077)  # every file this process makes (database, journal, lock, logs) is its owner's only
    name = node or f"{socket.gethostname().split('.')[0] or 'racko'}-{port}"
    configure_logging(log_format, name)
    store = store_or_exit(db, "cannot keep the tables there", sync=sync, node=name)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"racko serve: open http://{shown}:{port}/ (tables are kept in {store.describe()}); Ctrl+C stops.")
    if host in ("0.0.0.0", "::"):
        typer.echo("Others on your network join with this machine's address instead of 127.0.0.1.")
    uvicorn.run(
        create_app(
            store,
            pace=pace,
            away_seconds=away,
            short_collections=True,
            allow_origins=origins,
            new_tables_per_address=new_tables_per_minute,
            fill_seconds=quick_wait,
            quick_target=quick_target,
            review_playouts=review_playouts,
            rate_shared_addresses=rate_shared_addresses,
        ),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        proxy_headers=True,
        timeout_graceful_shutdown=5,
    )


def proxy_config_command(
    server: Annotated[
        list[str],
        typer.Option(
            "--server",
            help="A racko serve process as NODE=HOST:PORT (its --node name and address); repeat for each one.",
        ),
    ],
    listen: Annotated[str, typer.Option(help="Where HAProxy listens, HOST:PORT.")] = "127.0.0.1:8080",
    connections: Annotated[
        int, typer.Option(min=100, help="Client connections HAProxy takes at once (it needs twice as many files).")
    ] = 4000,
) -> None:
    """Print the HAProxy configuration that sends every request about a table to one of several racko serve
    processes sharing a PostgreSQL database (docs/DEPLOY.md)."""
    from racko.web.proxy import haproxy_config, parse_backend

    try:
        backends = [parse_backend(text) for text in server]
        typer.echo(haproxy_config(backends, listen, connections=connections), nl=False)
    except ValueError as error:
        typer.echo(f"racko: {error}.", err=True)
        raise typer.Exit(2) from None


def _is_origin(text: str) -> bool:
    parts = urlsplit(text.rstrip("/"))
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not parts.path and not parts.query


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
Processes = Annotated[
    int,
    typer.Option(
        min=1,
        max=16,
        help="Server processes, behind HAProxy when more than one (needs --db postgres).",
        rich_help_panel=SERVER_PANEL,
    ),
]
ThroughProxy = Annotated[
    bool,
    typer.Option("--proxy", help="Through HAProxy even with one process.", rich_help_panel=SERVER_PANEL),
]
BenchDb = Annotated[
    str,
    typer.Option(
        help="sqlite (a temporary file), postgres (a PostgreSQL server started for the run, Debian's postgresql), "
        "or a postgresql:// URL.",
        rich_help_panel=SERVER_PANEL,
    ),
]

Lobbies = Annotated[
    int,
    typer.Option(
        min=0,
        max=5000,
        help="Lobby connections open while measuring; the tables are then public, and a public table made each "
        "second is timed to every lobby connection.",
        rich_help_panel=SERVER_PANEL,
    ),
]
Quick = Annotated[
    int,
    typer.Option(
        min=0,
        max=20000,
        help="People arriving over the measured stretch who press quick play (classic, 2 players): their waits.",
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
    processes: Processes = 1,
    proxy: ThroughProxy = False,
    db: BenchDb = "sqlite",
    lobbies: Lobbies = 0,
    quick: Quick = 0,
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
    if db not in ("sqlite", "postgres") and not db.startswith(("postgresql://", "postgres://")):
        typer.echo(f"racko: --db is sqlite, postgres or a postgresql:// URL, not {db!r}.", err=True)
        raise typer.Exit(2)
    if processes > 1 and db == "sqlite":
        typer.echo("racko: several server processes share a PostgreSQL database: add --db postgres.", err=True)
        raise typer.Exit(2)
    if find_max and (lobbies or quick):
        typer.echo("racko: --lobbies and --quick are measured at a steady pace, not with --find-max.", err=True)
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
        processes=processes,
        proxy=proxy,
        db=db,
        lobbies=lobbies,
        quick=quick,
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

    processes = figures["processes"]
    servers = "one server process" if processes == 1 else f"{processes} server processes"
    proxy = " behind HAProxy" if figures["through_proxy"] else ""
    lines = [
        f"{figures['tables']:,} tables, 2 person seats each, {servers}{proxy} on {figures['database']} (sync "
        f"{figures['sync']}; {figures['cores']} cores, shared with the load; load average "
        f"{figures['load_average_before']} before, {figures['load_average_after']} after)."
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
            f"CPU: servers {share(figures['server_cpu'])} of a core, proxy {share(figures['proxy_cpu'])}, "
            f"database {share(figures['database_cpu'])}, load {share(figures['client_cpu'])}.",
        ]
    else:
        for step in figures["steps"]:
            lines.append(
                f"  offered {step['offered_per_second']:>8,.0f}/s  played {step['actions_per_second']:>8,.1f}/s  "
                f"p50 {step['p50_ms']:>7} ms  p99 {step['p99_ms']:>8} ms  servers' CPU {share(step['server_cpu'])}  "
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
    if figures.get("lobby_connections"):
        lines.append(
            f"The lobby in {figures['lobby_connections']:,} connections: a new public table reached each of them "
            f"in p50 {figures['lobby_update_p50_ms']} ms, p99 {figures['lobby_update_p99_ms']} ms, max "
            f"{figures['lobby_update_max_ms']} ms ({figures['lobby_probes']} tables; missed "
            f"{figures['lobby_updates_missed']})."
        )
    if figures.get("quick_people"):
        lines.append(
            f"Quick play: {figures['quick_people']:,} people arriving over the stretch, {figures['quick_seated']:,} "
            f"seated, waiting p50 {figures['quick_wait_p50_ms']} ms, p99 {figures['quick_wait_p99_ms']} ms, max "
            f"{figures['quick_wait_max_ms']} ms; not seated {figures['quick_unseated']}"
            + (f"; errors {figures['quick_errors']}" if figures["quick_errors"] else "")
            + "."
        )
    errors = figures["error_codes"]
    lines.append("Errors: " + (", ".join(f"{code} {count}" for code, count in errors.items()) if errors else "none."))
    return lines


# --- racko admin: the operator's commands over the server's store -------------------------------------------------

DB_HELP = "The server's store, as racko serve's --db (default: racko.sqlite3 in racko's data folder)."

admin_app = typer.Typer(
    name="admin",
    help="The operator's commands for racko serve's players: list, rename or remove a player; calibrate the "
    "computer levels' ratings.",
    no_args_is_help=True,
)


def store_or_exit(db: str | None, problem: str, **options: Any) -> Any:
    """The server's store (``--db``, or racko.sqlite3 in racko's data folder); what is wrong, in one line and exit
    code 2, if it cannot be opened."""
    from racko.web.store import StoreError, open_store

    location = db if db is not None else str(data_dir() / "racko.sqlite3")
    try:
        return open_store(location, **options)
    except StoreError as error:
        typer.echo(f"racko: {problem}: {error}", err=True)
        raise typer.Exit(2) from None
    except ImportError:
        typer.echo("racko: PostgreSQL needs the postgres extra: pip install 'racko[postgres]'.", err=True)
        raise typer.Exit(2) from None


def _admin_store(db: str | None) -> Any:
    """The store that racko serve uses, opened beside a running server (SQLite's own locking keeps the two apart)."""
    if db is None and not (data_dir() / "racko.sqlite3").exists():
        typer.echo(
            f"racko: there is no server store at {data_dir() / 'racko.sqlite3'} yet (racko serve makes it).", err=True
        )
        raise typer.Exit(2)
    return store_or_exit(db, "cannot open the store", node="admin", exclusive=False)


@admin_app.command("list")
def admin_list(
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    limit: Annotated[int, typer.Option(help="At most this many players, most recently seen first.", min=1)] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the players the server knows: id, name, when first and last seen."""
    import time

    from racko.play.text import plain_name
    from racko.web.players import Players

    store = _admin_store(db)
    try:
        everyone = Players(store).everyone(limit)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"players": everyone}))
        return
    for player in everyone:
        seen = time.strftime("%Y-%m-%d %H:%M", time.localtime(player["seen"]))
        typer.echo(f"{player['id']}  {seen}  {plain_name(player['name'])}")
    typer.echo(f"{len(everyone)} players.")


@admin_app.command("rename")
def admin_rename(
    player: Annotated[str, typer.Argument(help="The player's id (racko admin list).")],
    name: Annotated[str, typer.Argument(help="Their new name (plain text, as players' names are).")],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
) -> None:
    """Give a player another name (in the lobby, the ratings and their games from now on)."""
    from racko.web.players import clean_name

    clean = clean_name(name)
    if clean is None:
        typer.echo("racko: a name is some text, such as Ann.", err=True)
        raise typer.Exit(2)
    _change_player(db, player, lambda players: players.rename(player, clean))
    typer.echo(f"Player {player} is now called {clean}.")


@admin_app.command("remove")
def admin_remove(
    player: Annotated[str, typer.Argument(help="The player's id (racko admin list).")],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
) -> None:
    """Remove a player: name, keys, ratings and history, as the player's own "Forget me" does.

    Their seats in finished games become a forgotten player's."""
    _change_player(db, player, lambda players: players.forget(player))
    typer.echo(f"Player {player} is removed.")


def _change_player(db: str | None, player: str, change: Any) -> None:
    """``change(players)`` on the server's store; exit 1 with the reason if there is no such player."""
    from racko.web.players import Players

    store = _admin_store(db)
    try:
        done = change(Players(store))
    finally:
        store.close()
    if not done:
        typer.echo(f"racko: there is no player {player[:40]!r}.", err=True)
        raise typer.Exit(1)


@admin_app.command("calibrate")
def admin_calibrate(
    rounds: Annotated[int, typer.Option(help="Rounds per variant between computer levels.", min=10)] = 500,
    seed: Annotated[int, typer.Option(help="The seed of the deals and of the levels drawn for the seats.")] = 0,
    out: Annotated[
        Path | None, typer.Option(help="Write the ratings file here (default: print it).", dir_okay=False)
    ] = None,
) -> None:
    """Rate the computer levels against each other, the ratings racko serve starts them from.

    OpenSkill, each round ranked by its scores, so that the levels' ratings mean something before they meet people
    (racko ships the result as web/data/bot_ratings.json)."""
    from racko.web.ratings import calibrate

    result = calibrate(rounds, seed, say=lambda line: typer.echo(line, err=True))
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    out.write_text(text, encoding="utf-8")
    typer.echo(f"Wrote {out}.", err=True)
