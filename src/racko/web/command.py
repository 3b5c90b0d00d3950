"""``racko serve``: start the web server on this machine; ``racko proxy-config``: HAProxy in front of several;
``racko admin``: the operator's commands over the server's store."""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

import typer

from racko.play.library import data_dir
from racko.web.bots import GAMES_AT_ONCE, OPEN_CHALLENGES, REQUESTS_PER_MINUTE
from racko.web.core import NEW_TABLES_PER_ADDRESS
from racko.web.lobby import FILL_SECONDS
from racko.web.ops import LOG_FORMATS
from racko.web.store import SYNC_LEVELS
from racko.web.tournaments import ROUND_PAUSE

T = TypeVar("T")


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
    push_keys: Annotated[
        Path | None,
        typer.Option(
            help='The file of the VAPID keys that sign "your turn" notifications, made on the first start (mode '
            "0600; default: beside the SQLite file, or push-keys.pem in racko's data folder with PostgreSQL: give "
            "every process of one PostgreSQL database the same file).",
        ),
    ] = None,
    push_contact: Annotated[
        str,
        typer.Option(help="The operator's contact the notifications name to the push services (mailto: or https:)."),
    ] = "mailto:racko@localhost",
    push_service: Annotated[
        list[str] | None,
        typer.Option(
            "--push-service",
            help="A push service besides the browsers' own (Google's, Mozilla's, Apple's, Microsoft's) that "
            "notifications may go to, as HOST or HOST:PORT (repeat for more): the operator's own, which may stand "
            "inside their network (docs/DEPLOY.md).",
        ),
    ] = None,
    push_ca: Annotated[
        Path | None,
        typer.Option(help="Certificates (PEM) trusted for the push services besides the system's: an own service's."),
    ] = None,
    bot_ladder: Annotated[
        bool,
        typer.Option(
            "--bot-ladder",
            help="Run the bot ladder: bot accounts online (an open event stream) are seated in rated 2-player games "
            "round the clock, against each other and racko's levels, rated on the bots' board (docs/BOTS.md); give "
            "every process of one PostgreSQL database the same ladder options (one of them pairs at a time).",
        ),
    ] = False,
    ladder_games_per_day: Annotated[
        int, typer.Option(help="Ladder games each bot (and level) starts in any 24 hours, at most.", min=1)
    ] = 100,
    ladder_games_at_once: Annotated[
        int,
        typer.Option(help="Games under way a bot (or level) may have when the ladder seats it, at most.", min=1),
    ] = 1,
    ladder_variant: Annotated[
        str, typer.Option(help="The ladder's variant: classic or bonus (2 players).")
    ] = "classic",
    ladder_clock: Annotated[str, typer.Option(help="The ladder's clock: fast, normal or slow.")] = "fast",
    ladder_levels: Annotated[
        str, typer.Option(help="racko's levels on the ladder, its anchors (comma-separated; empty: none).")
    ] = "easy,medium,hard",
    ladder_target: Annotated[
        int | None, typer.Option(help="The ladder games' target score (default: the variant's own).", min=5)
    ] = None,
    bot_requests_per_minute: Annotated[
        int,
        typer.Option(
            help="Requests a minute each bot's token may make to the Bot API (more are refused with 429).", min=1
        ),
    ] = REQUESTS_PER_MINUTE,
    bot_games_at_once: Annotated[
        int,
        typer.Option(
            help="Games not over a bot may play at once before its challenges and seeks are refused (429).", min=1
        ),
    ] = GAMES_AT_ONCE,
    bot_open_challenges: Annotated[
        int,
        typer.Option(
            help="Challenges that may wait for one bot's answer at once, from everybody together (more: 429).", min=1
        ),
    ] = OPEN_CHALLENGES,
    round_pause: Annotated[
        float,
        typer.Option(
            help="Seconds from the end of a Swiss tournament's round to the next round (docs/TOURNAMENTS.md).",
            min=0,
        ),
    ] = ROUND_PAUSE,
) -> None:
    """Play Rack-O in the browser, with friends and computer players: start the server and print its address."""
    import uvicorn

    from racko.web.app import ServerSettings, create_app
    from racko.web.ops import LoggedServer, configure_logging, report_crashes

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
    ladder = None
    if bot_ladder:
        from racko.web.bots import LadderLimits

        ladder = LadderLimits(
            games_per_day=ladder_games_per_day,
            games_at_once=ladder_games_at_once,
            variant=ladder_variant,
            clock=ladder_clock,
            levels=tuple(level.strip() for level in ladder_levels.split(",") if level.strip()),
            target=ladder_target,
        )
        try:
            ladder.check()
        except ValueError as error:
            typer.echo(f"racko: {error}.", err=True)
            raise typer.Exit(2) from None
    from racko.web.push import PushReach

    try:
        reach = PushReach.of(tuple(push_service or ()), push_ca)
    except ValueError as error:
        typer.echo(f"racko: --push-service: {error}.", err=True)
        raise typer.Exit(2) from None
    if push_ca is not None and not push_ca.is_file():
        typer.echo(f"racko: --push-ca: there is no file {push_ca}.", err=True)
        raise typer.Exit(2)
    os.umask(0o077)  # every file this process makes (database, journal, lock, logs) is its owner's only
    name = node or f"{socket.gethostname().split('.')[0] or 'racko'}-{port}"
    configure_logging(log_format, name)
    report_crashes()
    store = store_or_exit(db, "cannot keep the tables there", sync=sync, node=name)
    keys = push_keys_or_exit(push_keys, db)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"racko serve: open http://{shown}:{port}/ (tables are kept in {store.describe()}); Ctrl+C stops.")
    if host in ("0.0.0.0", "::"):
        typer.echo("Others on your network join with this machine's address instead of 127.0.0.1.")
    settings = ServerSettings(
        pace=pace,
        away_seconds=away,
        short_collections=True,
        allow_origins=origins,
        new_tables_per_address=new_tables_per_minute,
        fill_seconds=quick_wait,
        quick_target=quick_target,
        review_playouts=review_playouts,
        rate_shared_addresses=rate_shared_addresses,
        push_keys=keys,
        push_contact=push_contact,
        push_reach=reach,
        bot_ladder=ladder,
        bot_requests_per_minute=bot_requests_per_minute,
        bot_games_at_once=bot_games_at_once,
        bot_open_challenges=bot_open_challenges,
        round_pause=round_pause,
    )
    config = uvicorn.Config(
        create_app(store, settings),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        proxy_headers=True,
        timeout_graceful_shutdown=5,
    )
    # SIGTERM and SIGINT each leave a line in the log, a fatal signal its stack (racko.web.ops.life).
    LoggedServer(config).run()


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
    check_seconds: Annotated[
        float,
        typer.Option(
            min=0.1,
            max=60,
            help="Seconds between HAProxy's health checks of each process (a stopped one is passed over after two).",
        ),
    ] = 1.0,
) -> None:
    """Print the HAProxy configuration that sends every request about a table to one of several racko serve
    processes sharing a PostgreSQL database (docs/DEPLOY.md)."""
    from racko.web.ops import haproxy_config, parse_backend

    try:
        backends = [parse_backend(text) for text in server]
        typer.echo(haproxy_config(backends, listen, check_seconds=check_seconds, connections=connections), nl=False)
    except ValueError as error:
        typer.echo(f"racko: {error}.", err=True)
        raise typer.Exit(2) from None


def _is_origin(text: str) -> bool:
    parts = urlsplit(text.rstrip("/"))
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not parts.path and not parts.query


# --- racko admin: the operator's commands over the server's store -------------------------------------------------

DB_HELP = "The server's store, as racko serve's --db (default: racko.sqlite3 in racko's data folder)."

admin_app = typer.Typer(
    name="admin",
    help="The operator's commands for racko serve's players: list, rename or remove a player; bot accounts; "
    "tournaments; calibrate the computer levels' ratings.",
    no_args_is_help=True,
)


def push_keys_or_exit(path: Path | None, db: str | None) -> Any:
    """The server's VAPID keys, made on the first start: at ``path`` (``--push-keys``), or beside the SQLite file,
    or in racko's data folder with PostgreSQL; what is wrong (never the key) and exit code 2 if they cannot be kept."""
    from racko.web.push import keys_at, keys_beside
    from racko.web.store import POSTGRES_SCHEMES

    if path is None:
        location = db if db is not None else str(data_dir() / "racko.sqlite3")
        postgres = location.startswith(POSTGRES_SCHEMES)
        path = data_dir() / "push-keys.pem" if postgres else keys_beside(Path(location).expanduser())
    try:
        return keys_at(path.expanduser())
    except (OSError, ValueError) as error:
        typer.echo(f"racko: cannot keep the push keys at {path}: {error}", err=True)
        raise typer.Exit(2) from None


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


def _players(store: Any) -> Any:
    """The players room over the server's store, wired as the server wires it (forgetting a player reaches every
    room that keeps something of them), its rooms' tables made first where missing."""
    from racko.web.app import people, schema_parts

    store.prepare(schema_parts())
    players, _ = people(store)
    return players


@admin_app.command("list")
def admin_list(
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    limit: Annotated[int, typer.Option(help="At most this many players, most recently seen first.", min=1)] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the players the server knows: id, name, when first and last seen."""

    from racko.play.text import plain_name

    store = _admin_store(db)
    try:
        everyone = _players(store).everyone(limit)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"players": everyone}))
        return
    for player in everyone:
        seen = time.strftime("%Y-%m-%d %H:%M", time.localtime(player["seen"]))
        typer.echo(f"{player['id']}  {seen}  {plain_name(player['name'])}{' (bot)' if player['bot'] else ''}")
    typer.echo(f"{len(everyone)} players.")


@admin_app.command("rename")
def admin_rename(
    player: Annotated[str, typer.Argument(help="The player's id (racko admin list).")],
    name: Annotated[str, typer.Argument(help="Their new name (plain text, as players' names are).")],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
) -> None:
    """Give a player another name (in the lobby, the ratings and their games from now on)."""
    from racko.web.players import clean_name, unfit_name

    unfit = unfit_name(name)
    if unfit is not None:
        typer.echo(f"racko: {unfit.message}", err=True)
        raise typer.Exit(2)
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
    store = _admin_store(db)
    try:
        done = change(_players(store))
    finally:
        store.close()
    if not done:
        typer.echo(f"racko: there is no player {player[:40]!r}.", err=True)
        raise typer.Exit(1)


bot_admin = typer.Typer(
    name="bot",
    help="Bot accounts, which play through the Bot API with a token (docs/BOTS.md): add one, revoke its token.",
    no_args_is_help=True,
)
admin_app.add_typer(bot_admin)


@bot_admin.command("add")
def admin_bot_add(
    names: Annotated[
        list[str], typer.Argument(help="The bot's name (plain text, as players' names are); several: one token each.")
    ],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
) -> None:
    """Make a bot account and print its token, once (the server keeps only its hash); several names, a token a line
    in their order, all of them made or, if one cannot be, none.

    The same name again gives that bot a new token: the old one stops working. A bot's name may hold a computer
    level's ("EasyBot"), since its seat is marked as a bot; a level's own name ("Easy") is refused."""
    from racko.web.players import bot_name_reserved, clean_name, unfit_name

    cleaned: list[str] = []
    for name in names:
        unfit = unfit_name(name)
        if unfit is not None:
            typer.echo(f"racko: nothing was made: {unfit.message}", err=True)
            raise typer.Exit(2)
        clean = clean_name(name)
        reserved = bot_name_reserved(clean) if clean is not None else None
        if clean is None or reserved is not None:
            why = f"{reserved!r} is reserved" if reserved is not None else "it says nothing"
            typer.echo(f"racko: {name[:40]!r} cannot be a bot's name ({why}); nothing was made.", err=True)
            raise typer.Exit(2)
        if clean in cleaned:
            typer.echo(f"racko: {clean!r} is named twice; nothing was made.", err=True)
            raise typer.Exit(2)
        cleaned.append(clean)
    store = _admin_store(db)
    try:
        try:
            made = _players(store).add_bots(cleaned)
        except ValueError as error:
            typer.echo(f"racko: {error}; nothing was made.", err=True)
            raise typer.Exit(1) from None
        for bot, token in made:
            typer.echo(f"Bot {bot.name} ({bot.id}); its token, shown only now:", err=True)
            typer.echo(token)
    finally:
        store.close()


@bot_admin.command("revoke")
def admin_bot_revoke(
    name: Annotated[str, typer.Argument(help="The bot's name.")],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
) -> None:
    """Revoke a bot account's token: the Bot API refuses it from now on (its games stay; ``add`` gives a new one)."""
    _change_player(db, name, lambda players: players.revoke_bot(name))
    typer.echo(f"The token of the bot {name} is revoked.")


tournament_admin = typer.Typer(
    name="tournament",
    help="Tournaments (docs/TOURNAMENTS.md): add one, start one now, list them.",
    no_args_is_help=True,
)
admin_app.add_typer(tournament_admin)


def _on_tournaments(db: str | None, work: Callable[[Any], T], refused: int) -> T:
    """``work(store)`` on the server's store, its rooms' tables made first where missing; a refusal of the
    tournaments room is one line and exit code ``refused``."""
    from racko.web.tournaments import Refusal

    store = _admin_store(db)
    try:
        _players(store)
        return work(store)
    except Refusal as refusal:
        typer.echo(f"racko: {refusal}", err=True)
        raise typer.Exit(refused) from None
    finally:
        store.close()


@tournament_admin.command("add")
def admin_tournament_add(
    name: Annotated[str, typer.Argument(help="The tournament's name, as its pages show it.")],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    kind: Annotated[str, typer.Option(help="swiss (set rounds) or arena (a set time).")] = "swiss",
    variant: Annotated[str, typer.Option(help="The variant played at every table.")] = "classic",
    seats: Annotated[int, typer.Option(help="Seats at each table, 2 to 5 as the variant is played.")] = 2,
    rounds: Annotated[int | None, typer.Option(help="A Swiss's rounds.", min=1)] = None,
    minutes: Annotated[int | None, typer.Option(help="An arena's minutes.", min=1)] = None,
    clock: Annotated[str, typer.Option(help="The games' speed: fast, normal, slow, or days-1/2/3/7 (a Swiss).")] = (
        "normal"
    ),
    target: Annotated[int | None, typer.Option(help="The games' target score (default: the variant's).", min=1)] = None,
    levels: Annotated[str, typer.Option(help="racko's levels entered as players, comma-separated.")] = "",
    starts_in: Annotated[float, typer.Option(help="Seconds until it starts.", min=0)] = 300.0,
    rated: Annotated[bool, typer.Option("--rated", help="Rated games (default: casual).")] = False,
    entry: Annotated[str, typer.Option(help="Who may enter: anyone, people, or bots (bot accounts).")] = "anyone",
    finishers: Annotated[
        bool, typer.Option("--finishers", help="Only players who finish 80% of their games may join.")
    ] = False,
    no_run_rule: Annotated[
        bool, typer.Option("--no-run-rule", help="At tables of two: a Rack-O needs no run of three.")
    ] = False,
) -> None:
    """Add a tournament to the server's store; prints its id as the last word (its page is /tournaments/ID)."""
    from racko.web.tournaments import TournamentSettings, make_tournament

    form = {
        "name": name,
        "kind": kind,
        "variant": variant,
        "seats": seats,
        "rounds": rounds,
        "minutes": minutes,
        "clock": clock,
        "target": target,
        "levels": [level.strip() for level in levels.split(",") if level.strip()],
        "rated": rated,
        "entry": entry,
        "finishers": finishers,
        "two_player_rule": not no_run_rule,
    }
    kept = _on_tournaments(
        db, lambda store: make_tournament(store, TournamentSettings.of(form), starts_in, None, time.time()), 2
    )
    typer.echo(f"Tournament {kept.name} ({kept.kind}) starts in {round(starts_in)} s: {kept.id}")


@tournament_admin.command("start")
def admin_tournament_start(
    tournament: Annotated[str, typer.Argument(help="The tournament's id (racko admin tournament list).")],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
) -> None:
    """Start a tournament now rather than at its time (the server starts it within a second)."""
    from racko.web.tournaments import start_now

    kept = _on_tournaments(db, lambda store: start_now(store, tournament, time.time()), 1)
    typer.echo(f"Tournament {kept.name} starts now.")


@tournament_admin.command("list")
def admin_tournament_list(
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the tournaments not finished and the last finished: id, status, kind, players, name."""
    from racko.web.tournaments import listed_now

    found = _on_tournaments(db, lambda store: listed_now(store, time.time()), 1)
    if as_json:
        typer.echo(json.dumps(found))
        return
    for line in found["tournaments"]:
        typer.echo(f"{line['id']}  {line['status']:8}  {line['kind']:5}  {line['entrants']:4} players  {line['name']}")
    typer.echo(f"{len(found['tournaments'])} tournaments.")


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
    (racko ships the result as web/ratings/data/bot_ratings.json)."""
    from racko.web.ratings import calibrate

    result = calibrate(rounds, seed, say=lambda line: typer.echo(line, err=True))
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    out.write_text(text, encoding="utf-8")
    typer.echo(f"Wrote {out}.", err=True)
