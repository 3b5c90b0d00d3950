"""The ``racko`` command: a thin tree over the front ends (terminal play, the tools, the web server)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
import typer.core

import racko
from racko.terminal import command as play_commands
from racko.terminal.demo import demo_command
from racko.tools import arena_commands, commands
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


app.command("demo")(demo_command)
commands.register(app)
arena_commands.register(app)
play_commands.register(app)
app.command("serve")(serve_command)


def main() -> None:
    app()
