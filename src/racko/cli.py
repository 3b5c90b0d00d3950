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
from racko.tools.bench import commands as bench_commands
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


def _batch_bench(rounds: int, batches: int, seed: int, threads: int | None, as_json: bool) -> None:
    """``racko bench batch``: the batch simulator lives in the envs front end, which the bench room may not import."""
    try:
        from racko.envs.batch.bench import batch_bench_lines, run_batch_bench
    except ImportError as error:  # the rl extra is not installed
        typer.echo(f"racko: bench batch needs the rl extra (pip install 'racko[rl]'): {error}.", err=True)
        raise typer.Exit(1) from None
    try:
        figures = run_batch_bench(rounds, batches, seed, threads)
    except RackoError as error:
        typer.echo(f"racko: {error}", err=True)
        raise typer.Exit(2) from None
    for line in batch_bench_lines(figures, as_json):
        typer.echo(line)


def _tournament_bench(swiss_players: int, arena_players: int, minutes: int, seed: int, as_json: bool) -> None:
    """``racko bench tournament``: it measures the web server's tournaments room, which the bench room may not
    import."""
    import json

    from racko.web.tournaments.bench import tournament_bench, tournament_bench_lines

    figures = tournament_bench(
        swiss_players, arena_players, minutes, seed, say=lambda line: typer.echo(f"racko bench: {line}", err=True)
    )
    for line in [json.dumps(figures)] if as_json else tournament_bench_lines(figures):
        typer.echo(line)


def _make_game_chances(rounds: int, seed: int, games: int) -> dict[str, Any]:
    """``racko game-chances``: the table is made from the batch simulator's rounds (the envs front end)."""
    try:
        from racko.envs.batch.game_chances import make_table
    except ImportError as error:  # the rl extra is not installed
        raise RackoError(f"game-chances needs the rl extra (pip install 'racko[rl]'): {error}.") from None
    return make_table(rounds, seed, games=games)


app.command("demo")(demo_command)
bench_commands.register(app, run_batch=_batch_bench, run_tournament=_tournament_bench)
commands.register(app)
arena_commands.register(app)
review_commands.register(app, make_table=_make_game_chances)
puzzle_commands.register(app)
play_commands.register(app)
app.command("serve")(serve_command)
app.command("proxy-config")(proxy_config_command)
app.add_typer(web_commands.admin_app)


def _env_agent_policy(agent: Any) -> Any:
    """``racko bot connect --policy env:…``: an agent of the environments' encoding, made a policy by the envs front
    end's adapter (which the tools may not import)."""
    try:
        from racko.envs.agent import agent_policy
    except ImportError as error:  # the rl extra is not installed
        raise ValueError(f"env: agents need the rl extra (pip install 'racko[rl]'): {error}") from None
    return agent_policy(agent)


bot_app = typer.Typer(name="bot", help="Play at a racko server as a bot account (docs/BOTS.md).", no_args_is_help=True)
app.add_typer(bot_app)


@bot_app.command("connect")
def bot_connect(
    url: Annotated[str, typer.Argument(help="The server, such as http://127.0.0.1:8000.")],
    token: Annotated[str, typer.Option(help="The bot account's token (racko admin bot add).")],
    policy: Annotated[
        str,
        typer.Option(
            help="racko:LEVEL (racko's own, such as racko:expert), module:callable (an observation to an action) "
            "or env:module:callable (an agent of racko.envs: the encoded observation and action mask to an index)."
        ),
    ] = "racko:expert",
    games: Annotated[int | None, typer.Option(help="Stop after this many games (default: play on).", min=1)] = None,
    seed: Annotated[int | None, typer.Option(help="The seed of racko's levels.")] = None,
    challenges: Annotated[
        str, typer.Option(help="accept: the challenges the policy can play (the others declined); decline: all.")
    ] = "accept",
    seek: Annotated[
        list[str] | None,
        typer.Option(
            help="Ask quick play for a game of this variant (repeat for more), again after each game: with the "
            "people who welcome bots and the other bots seeking.",
        ),
    ] = None,
    seek_clock: Annotated[str, typer.Option(help="The speed of the games sought (--seek).")] = "normal",
    seek_rated: Annotated[bool, typer.Option("--seek-rated", help="Seek rated games (default: casual).")] = False,
    tournament: Annotated[
        list[str] | None,
        typer.Option(help="Join this tournament (its id; repeat for more) and play its games (docs/TOURNAMENTS.md)."),
    ] = None,
) -> None:
    """Play every game the bot is seated at, with a policy from an observation to an action; answers challenges,
    seeks quick play's games and joins tournaments if asked; reconnects and resumes by sequence number when the
    connection breaks, and waits as long as the server asks (429, Retry-After) before asking again. A policy that
    fails, or chooses what the rules refuse, stops it (exit status 1)."""
    from racko.play.session import bots_for
    from racko.tools.botclient import BotClient, PolicyFailed, load_policy

    if challenges not in ("accept", "decline"):
        typer.echo(f"racko: --challenges is accept or decline, not {challenges!r}.", err=True)
        raise typer.Exit(2)

    try:
        make = load_policy(policy, seed, adapt_agent=_env_agent_policy)
    except (ValueError, ImportError, AttributeError) as error:
        typer.echo(f"racko: {error}", err=True)
        raise typer.Exit(2) from None
    level = policy.partition(":")[2] if policy.startswith("racko:") else None
    client = BotClient(
        url,
        token,
        make,
        say=lambda line: typer.echo(line, err=True),
        plays=lambda variant: level is None or level in bots_for(variant),
        accept_challenges=challenges == "accept",
        seeks=tuple(
            {"variant": name, "players": "any", "clock": seek_clock, "rated": seek_rated} for name in seek or ()
        ),
        tournaments=tuple(tournament or ()),
    )
    try:
        finished = client.run(games)
    except KeyboardInterrupt:
        client.stop.set()
        raise typer.Exit(130) from None
    except (OSError, PolicyFailed):  # the client said why
        raise typer.Exit(1) from None
    typer.echo(f"{finished} games played.", err=True)


def main() -> None:
    app()
