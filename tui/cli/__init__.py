"""The ``termarcade`` command (also ``python -m tui``).

With no sub-command it starts the Textual app. Sub-commands are loaded lazily: the group
knows the shell's own commands from :data:`LAZY_COMMANDS` and every game's group from the
registry (:mod:`core.registry`, the game's ``cli`` reference and tagline), and imports a
module only when its command runs, so ``termarcade termcraft ...`` or ``termarcade parse ...`` never import
Textual and start quickly. A sub-command whose module is missing or broken is still listed; running
it prints a clean error (exit 2) without affecting the other commands.

Set ``TERMARCADE_DEBUG=1`` to see Python tracebacks instead of the short error messages.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, Callable

import click

from tui import __version__
from tui.cli.output import EXIT_BAD_INPUT, fail, is_parse_error
from core import registry
from tui.store import ENV_DATA_DIR, ENV_STORE, parse_store_url

__all__ = ["LAZY_COMMANDS", "LazyGroup", "main"]

LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "parse": ("tui.cli.parse:parse", "Parse, check and pretty-print terms."),
    "keymap": ("tui.cli.keymap:keymap", "Show or change the key remapping."),
}
"""The shell's own sub-commands: name -> ("module:attribute", one-line help).

Games add theirs through the registry; see :func:`all_lazy_commands`."""


def all_lazy_commands() -> dict[str, tuple[str, str]]:
    """The shell's commands followed by one group per registered game that has a CLI.

    Returns:
        Name -> ("module:attribute", one-line help), in ``--help`` order.
    """
    commands = dict(LAZY_COMMANDS)
    for info in registry.games():
        if info.cli is not None:
            commands.setdefault(info.id, (info.cli, f"{info.title}: {info.tagline}"))
    return commands

EXIT_INTERNAL = 70
"""Exit status for a bug in termarcade itself (EX_SOFTWARE)."""


def _debug() -> bool:
    """True when tracebacks should be shown (``TERMARCADE_DEBUG`` set and not 0)."""
    return os.environ.get("TERMARCADE_DEBUG", "") not in ("", "0")


def _unavailable_command(name: str, reason: str) -> click.Command:
    """A stand-in command that explains why ``name`` cannot run."""

    @click.command(
        name=name,
        help=f"(unavailable: {reason})",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        add_help_option=False,
    )
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def unavailable(args: tuple[str, ...]) -> None:
        fail(f"the '{name}' command is not available in this installation ({reason})")

    return unavailable


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported only when used.

    Args:
        lazy_commands: Name -> ("module:attribute", short help), or a function returning
            such a dict; a function is asked each time, so games registered at run time
            appear too.
        **kwargs: Passed to :class:`click.Group`.
    """

    def __init__(self, *args: Any,
                 lazy_commands: dict[str, tuple[str, str]]
                 | Callable[[], dict[str, tuple[str, str]]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if lazy_commands is None or isinstance(lazy_commands, dict):
            fixed = dict(lazy_commands or {})
            self._lazy_provider: Callable[[], dict[str, tuple[str, str]]] = lambda: fixed
        else:
            self._lazy_provider = lazy_commands

    @property
    def lazy_commands(self) -> dict[str, tuple[str, str]]:
        """Name -> ("module:attribute", short help) of the lazily imported commands."""
        return self._lazy_provider()

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Eager commands first (in definition order), then the lazy ones."""
        eager = [name for name in self.commands if name not in self.lazy_commands]
        return eager + list(self.lazy_commands)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Return a command, importing its module the first time it is asked for."""
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name not in self.lazy_commands:
            return None
        target, _ = self.lazy_commands[cmd_name]
        module_name, _, attribute = target.partition(":")
        try:
            module = importlib.import_module(module_name)
            command = getattr(module, attribute)
        except Exception as error:
            if _debug():
                raise
            if isinstance(error, ModuleNotFoundError) and error.name == module_name:
                reason = f"module {module_name} is not installed"
            else:
                reason = f"{type(error).__name__}: {error}"
            command = _unavailable_command(cmd_name, reason)
        if not isinstance(command, click.Command):
            command = _unavailable_command(cmd_name, f"{target} is not a click command")
        self.commands[cmd_name] = command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List commands using the stored short help, without importing lazy modules."""
        rows: list[tuple[str, str]] = []
        for name in self.list_commands(ctx):
            if name in self.lazy_commands and name not in self.commands:
                rows.append((name, self.lazy_commands[name][1]))
                continue
            command = self.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            rows.append((name, command.get_short_help_str(limit=formatter.width - 20)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; report unexpected errors in one line instead of a traceback."""
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            from tui.cli.output import silence_closed_stdout

            raise click.exceptions.Exit(silence_closed_stdout()) from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(130) from None
        except Exception as error:
            if _debug():
                raise
            if is_parse_error(error):
                click.echo(str(error.render()).rstrip("\n"), err=True)  # type: ignore[attr-defined]
                raise click.exceptions.Exit(EXIT_BAD_INPUT) from None
            click.echo(
                f"termarcade: internal error: {type(error).__name__}: {error}\n"
                "(set TERMARCADE_DEBUG=1 to see the traceback; please report it)",
                err=True,
            )
            raise click.exceptions.Exit(EXIT_INTERNAL) from None


def _set_data_dir(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--data-dir``: point the store at another directory for this run."""
    if value:
        os.environ[ENV_DATA_DIR] = value
    return value


def _set_store(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--store``: the database for this run (checked now, so a typo is a usage error)."""
    if value:
        try:
            parse_store_url(value)
        except ValueError as error:
            raise click.BadParameter(str(error)) from None
        os.environ[ENV_STORE] = value
    return value


def _run_app(start_game: str | None) -> None:
    """Start the Textual app (imported here so the CLI stays light)."""
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        fail(
            "the arcade needs an interactive terminal (stdin and stdout must be a TTY; "
            "over SSH use: ssh -t HOST termarcade)"
        )
    from tui.app import ArcadeApp

    ArcadeApp(start_game=start_game).run()


@click.group(
    cls=LazyGroup,
    lazy_commands=all_lazy_commands,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "-V", "--version", prog_name="termarcade")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False),
    callback=_set_data_dir,
    expose_value=False,
    is_eager=True,
    help=f"Directory for progress, saves and scores (default: the user data dir; env {ENV_DATA_DIR}).",
)
@click.option(
    "--store",
    metavar="URL",
    callback=_set_store,
    expose_value=False,
    is_eager=True,
    help="Database for progress and leaderboards: postgresql://user@host/db (needs "
    "termarcade[postgres]) shared by several servers, or a SQLite file path (default: "
    f"termarcade.sqlite3 in the data dir; env {ENV_STORE}).",
)
@click.pass_context
def main(ctx: click.Context) -> None:
    """termarcade: a terminal arcade of formal puzzle games.

    Run without a command to open the arcade. The commands below query and script the games;
    query commands take --json and exit 0 on success, 1 on a negative answer, 2 on bad input.
    """
    if ctx.invoked_subcommand is None:
        _run_app(None)


@main.command()
@click.argument("game", required=False, metavar="[GAME]")
def play(game: str | None) -> None:
    """Open the arcade, straight into GAME if given.

    GAME is a game id (see `termarcade --help`).
    """
    if game is not None:
        entry = registry.get(game)
        if entry is None:
            known = ", ".join(registry.ids())
            fail(f"unknown game {game!r} (choose from: {known})")
        if not entry.playable:
            fail(f"{entry.title} is coming soon; it cannot be played yet")
    _run_app(game)
