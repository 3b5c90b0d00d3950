"""``racko serve``: start the web server on this machine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

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
        store = SqliteTables(path, sync=sync)
    except Exception as error:  # a folder that cannot be written, a file that is not a database
        typer.echo(f"racko: cannot open the database {path}: {error}", err=True)
        raise typer.Exit(2) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"racko serve: open http://{shown}:{port}/ (tables are kept in {path}); Ctrl+C stops.")
    if host in ("0.0.0.0", "::"):
        typer.echo("Others on your network join with this machine's address instead of 127.0.0.1.")
    uvicorn.run(
        create_app(store, pace=pace, away_seconds=away),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        proxy_headers=True,
    )
