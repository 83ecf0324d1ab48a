"""The ``termarcade`` command (also ``python -m tui``; both start in :mod:`tui.entry`).

With no sub-command it starts the Textual app. Sub-commands are loaded lazily: the group
knows the shell's own commands from :data:`LAZY_COMMANDS` and every game's group from the
registry (:mod:`core.registry`, the game's ``cli`` reference and tagline), and imports a
module only when its command runs, so ``termarcade termcraft ...`` or ``termarcade parse ...``
never import Textual and start quickly. A sub-command whose module is missing or broken is
still listed; running it prints a clean error (exit 2) without affecting the other commands.

The group is also the one place where errors become messages and exit statuses
(:func:`tui.cli.output.report_exception`): whatever a command raises, the person sees one
``error:`` line (or a parse error's caret block), never a traceback, and the status is the
documented one (docs/cli.md, "The shell"). Set ``TERMARCADE_DEBUG=1`` to see tracebacks.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from core import registry
from tui.cli.options import level_option, numbered_levels
from tui.cli.output import (
    choose_levels,
    debug_mode,
    did_you_mean,
    fail,
    report_exception,
    silence_closed_stdout,
    user_errors,
)
from tui.store import (
    ENV_DATA_DIR,
    ENV_PASSWORD,
    ENV_STORE,
    PASSWORD_ON_COMMAND_LINE,
    has_password,
    parse_store_url,
    read_password_file,
)

__all__ = ["LAZY_COMMANDS", "LazyGroup", "launch_app", "main"]

LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "parse": ("tui.cli.parse:parse", "Parse, check and pretty-print terms."),
    "keymap": ("tui.cli.keymap:keymap", "Show or change the key remapping."),
    "id": ("tui.cli.ids:level_id_command", "Print the IDs of a file's levels, to share them."),
    "serve": ("tui.serve.cli:serve", "Run an arcade for many players over SSH or the web."),
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


@contextmanager
def _reported_errors() -> Iterator[None]:
    """Turn anything but click's own exceptions into a message and ``Exit(status)``.

    Used around parsing and running commands, so that click's main loop never sees a
    BrokenPipeError (it would exit 1), a KeyboardInterrupt (it would print "Aborted!" and
    exit 1) or any other exception (a traceback). click's exceptions pass through: the
    group's :meth:`LazyGroup.main` reports them, once.
    """
    try:
        yield
    except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
        raise
    except SystemExit as exit_:
        status = report_exception(exit_)  # re-raises unless rich saw a closed pipe
        raise click.exceptions.Exit(status) from None
    except (Exception, KeyboardInterrupt) as error:
        raise click.exceptions.Exit(report_exception(error)) from None


def _flushed(status: int) -> int:
    """Flush stdout before exiting, so that a closed pipe is noticed here (status 141).

    Otherwise the interpreter's final flush would fail after the status was chosen and
    print "Exception ignored ... BrokenPipeError".
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return silence_closed_stdout()
    except (OSError, ValueError):  # stdout already closed: nothing left to lose
        pass
    return status


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported only when used, and that reports errors.

    Args:
        lazy_commands: Name -> ("module:attribute", short help), or a function returning
            such a dict; a function is asked each time, so games registered at run time
            appear too.
        **kwargs: Passed to :class:`click.Group`.
    """

    def __init__(
        self,
        *args: Any,
        lazy_commands: dict[str, tuple[str, str]]
        | Callable[[], dict[str, tuple[str, str]]]
        | None = None,
        **kwargs: Any,
    ) -> None:
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
            if debug_mode():
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

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Find the sub-command; an unknown name is a usage error naming the closest ones."""
        name = args[0] if args else ""
        if (
            name
            and not name.startswith("-")
            and not ctx.resilient_parsing
            and self.get_command(ctx, name) is None
        ):
            ctx.fail(f"no such command {name!r}{did_you_mean(name, self.list_commands(ctx))}")
        return super().resolve_command(ctx, args)

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

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """Parse the group's own options (``--help`` and ``--version`` print here)."""
        with _reported_errors():
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; whatever it raises becomes a message and a status."""
        with _reported_errors():
            return super().invoke(ctx)

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line and exit with the documented status.

        click's standalone mode would print usage errors as a three-line block and turn
        ctrl+c into "Aborted!" with status 1; here every error is one line
        (:func:`tui.cli.output.report_exception`) and ctrl+c is status 130.

        Args:
            args: The arguments (default ``sys.argv[1:]``).
            prog_name: The program name shown in messages.
            complete_var: click's shell-completion variable.
            standalone_mode: False to get click's exceptions raised instead (embedding).
            **extra: Passed to :meth:`click.Command.make_context`.

        Raises:
            SystemExit: In standalone mode, always, with the exit status.
        """
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
            # In this mode click returns an Exit's code as the result (commands return None).
            status = result if type(result) is int else 0
        except click.exceptions.Exit as exit_:
            status = exit_.exit_code
        except SystemExit as exit_:
            status = report_exception(exit_)  # re-raises unless rich saw a closed pipe
        except (Exception, KeyboardInterrupt) as error:
            status = report_exception(error)
        sys.exit(_flushed(status))


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
        # Issue 27: a command line is visible to every local user (ps); the value is not
        # echoed back either.
        if has_password(value):
            raise click.BadParameter(PASSWORD_ON_COMMAND_LINE)
        os.environ[ENV_STORE] = value
    return value


def _set_store_password(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--store-password-file``: the store's password from a file, into libpq's variable."""
    if value:
        try:
            os.environ[ENV_PASSWORD] = read_password_file(value)
        except ValueError as error:
            raise click.BadParameter(str(error)) from None


def _set_ascii(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    """``--ascii``: draw with ASCII only (read by tui.terminal; not imported here, it loads
    Textual)."""
    if value:
        os.environ["TERMARCADE_GLYPHS"] = "ascii"
    return value


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``: print the version (looked up only now; it costs an import)."""
    if not value or ctx.resilient_parsing:
        return
    from tui import __version__

    click.echo(f"termarcade, version {__version__}")
    ctx.exit()


def launch_app(
    *,
    start_game: str | None = None,
    level_file: str | None = None,
    level: int | None = None,
    start_id: str | None = None,
) -> None:
    """Start the Textual app: the one terminal check and the one place that imports it.

    Args:
        start_game: Game id to open straight away, or None for the home screen.
        level_file: A level file to play (already validated), or None.
        level: The 1-based level of ``level_file`` to start with.
        start_id: A level ID to play (already resolved once), or None.

    Raises:
        click.exceptions.Exit: Status 2 when stdin or stdout is not a terminal.
    """
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        fail(
            "the arcade needs an interactive terminal (stdin and stdout must be a "
            "terminal; over SSH use: ssh -t HOST termarcade)"
        )
    options: dict[str, Any] = {
        name: value
        for name, value in (
            ("start_game", start_game),
            ("level_file", level_file),
            ("level", level),
            ("start_id", start_id),
        )
        if value is not None
    }
    from tui.app import ArcadeApp

    ArcadeApp(**options).run()


@click.group(
    name="termarcade",
    cls=LazyGroup,
    lazy_commands=all_lazy_commands,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "-V",
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False),
    callback=_set_data_dir,
    expose_value=False,
    is_eager=True,
    help=f"Directory for progress, saves and scores (default: the user data dir; env {ENV_DATA_DIR}).",
)
@click.option(
    "--ascii",
    is_flag=True,
    callback=_set_ascii,
    expose_value=False,
    is_eager=True,
    help="Draw with ASCII only, for old terminals (default: chosen from TERM; "
    "env TERMARCADE_GLYPHS=ascii|cp437|unicode).",
)
@click.option(
    "--store",
    metavar="URL",
    callback=_set_store,
    expose_value=False,
    is_eager=True,
    help="Database for progress and leaderboards: postgresql://user@host/db (needs "
    "termarcade[postgres]) shared by several servers, or a SQLite file path (default: "
    f"termarcade.sqlite3 in the data dir; env {ENV_STORE}). A URL holding a password is "
    f"refused (ps shows it): use {ENV_STORE} or --store-password-file.",
)
@click.option(
    "--store-password-file",
    metavar="FILE",
    callback=_set_store_password,
    expose_value=False,
    is_eager=True,
    help=f"Read the PostgreSQL store's password from the first line of FILE (kept out of the "
    f"command line; env {ENV_PASSWORD}).",
)
@click.pass_context
def main(ctx: click.Context) -> None:
    """termarcade: a terminal arcade of formal puzzle games.

    Run without a command to open the arcade. The commands below query and script the games;
    query commands take --json and exit 0 on success, 1 on a negative answer, 2 on bad input.
    """
    if ctx.invoked_subcommand is None:
        launch_app()


def _playable_game(game: str) -> registry.GameInfo:
    """The registration of ``game``; exit 2 when it is unknown or not playable yet."""
    entry = registry.get(game)
    if entry is None:
        known = registry.ids()
        fail(f"unknown game {game!r}{did_you_mean(game, known)} (the games: {', '.join(known)})")
    if not entry.playable:
        fail(f"{entry.title} is coming soon; it cannot be played yet")
    return entry


def _load_levels(path: str, entry: registry.GameInfo) -> Any:
    """Load and check a level file for ``entry``'s game; exit 2 with the reason if unusable.

    Unlike the query commands (:func:`tui.cli.options.load_level_pack`), ``play`` needs a
    file by name: the app reopens it to save progress against it.

    Returns:
        The level pack (a :class:`core.levelpack.LevelPack`).
    """
    if path == "-":
        fail("play needs a level file by name: while you play, stdin is the keyboard")
    from grammar.levels import load_pack_file

    with user_errors():  # a ParseError is shown as its caret block
        pack = load_pack_file(path, game=entry.id)
    if pack.game and pack.game != entry.id:
        other = registry.get(pack.game)
        fail(f"{path} holds {other.title if other else pack.game} levels, not {entry.title} levels")
    if not pack.levels:
        fail(f"{path} holds no level")
    return pack


def _level_number(pack: Any, spec: str | None, path: str) -> int:
    """The 1-based number of the level ``--level`` names in ``pack`` (1 without it).

    Args:
        pack: The loaded pack.
        spec: The ``--level`` value: a number or a title (see :func:`choose_levels`).
        path: The file, for messages.

    Returns:
        The number.
    """
    ((number, _),) = choose_levels(numbered_levels(pack), spec or "1", path)
    return number


def resolve_level_id(text: str, game: str | None = None, *, generate: bool = True) -> Any:
    """Resolve a level ID for a command (:func:`tui.ids.resolve_id`); exit 2 with the reason.

    Args:
        text: The ID.
        game: The game the command is about (the ID must name one of its levels), or None.
        generate: False: do not make a generated level (its ``level`` is None).

    Returns:
        The :class:`tui.ids.Resolved` level.
    """
    from core.ids import IdError
    from tui.ids import resolve_id

    try:
        resolved = resolve_id(text, generate=generate)
    except IdError as error:
        fail(str(error))
    if game is not None and resolved.info.id != game:
        entry = registry.get(game)
        fail(
            f"{resolved.id} names a {resolved.info.title} level, "
            f"not a {entry.title if entry else game} level"
        )
    return resolved


def play_level_id(text: str, game: str | None = None, level: str | None = None) -> None:
    """``play ID``: check the ID here (a bad one exits 2 before the app starts), then play it.

    A generated level is made once, by the app (in the background: it may take seconds).
    """
    if level is not None:
        raise click.UsageError("--level goes with a level FILE; an ID names one level")
    resolved = resolve_level_id(text, game, generate=False)
    _playable_game(resolved.info.id)
    launch_app(start_game=resolved.info.id, start_id=resolved.id)


@main.command()
@click.argument("game", required=False, metavar="[GAME | ID]")
@click.argument("level_file", required=False, metavar="[FILE | ID]")
@level_option("1")
def play(game: str | None, level_file: str | None, level: str | None) -> None:
    """Open the arcade, straight into GAME if given, playing the levels of FILE if given.

    GAME is a game id (see `termarcade --help`); FILE is a level file of that game. An ID
    (`longcat:arduboy/17`, `longcat:sd-8x8-hard#48213`, `carving:L1...`; see the docs'
    "Sharing levels") opens the level it names: `termarcade play ID`. An argument with a
    colon is an ID unless a file of that name exists.
    """
    if game is not None and ":" in game:  # no game id has a colon: this is an ID
        if level_file is not None:
            raise click.UsageError("an ID names its game and level: give no FILE after it")
        play_level_id(game, None, level)
        return
    entry = _playable_game(game) if game is not None else None
    if entry is not None and level_file is not None and not os.path.exists(level_file):
        from tui.ids import looks_like_id

        if looks_like_id(level_file):
            play_level_id(level_file, entry.id, level)
            return
    if level is not None and level_file is None:
        raise click.UsageError("--level needs a level FILE")
    if entry is None or level_file is None:
        launch_app(start_game=game)
        return
    pack = _load_levels(level_file, entry)
    number = _level_number(pack, level, level_file)
    launch_app(start_game=entry.id, level_file=os.path.abspath(level_file), level=number)
