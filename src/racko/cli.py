"""The ``racko`` command: a thin tree over the front ends (terminal play, the tools)."""

from __future__ import annotations

from typing import Annotated

import typer

import racko
from racko.terminal import command as play_commands
from racko.terminal.demo import demo_command
from racko.tools import arena_commands, commands

app = typer.Typer(
    name="racko",
    help="Rack-O: the rules engine, computer players and tools around them.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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


app.command("demo")(demo_command)
commands.register(app)
arena_commands.register(app)
play_commands.register(app)


def main() -> None:
    app()
