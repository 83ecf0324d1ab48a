"""One CLI vocabulary: the options every game's commands share, and the one level-pack loader.

Each shared option has one spelling, one type and one help text, whatever game declares it
(docs/cli.md, "One vocabulary"; ``tests/cli/test_cli_vocabulary.py`` walks every registered
game's group and fails on a copy that drifted):

* :func:`json_option` ``--json``: JSON lines instead of text;
* :func:`level_option` ``-l/--level N|TITLE``: a level of the level file, by 1-based number
  or title (read by :func:`tui.cli.output.choose_levels`);
* :func:`time_limit_option` ``--time-limit SECONDS``: the time one search may take;
  :func:`command_started` is when the command began (loading counts against the limit);
* :func:`budget_option` ``--work-budget N``: the work one search may do, in the command's own unit
  (states, nodes, moves): unlike time, the same on an idle and on a busy machine;
* :func:`seed_option` ``-s/--seed``: a seed from 0 to 2**32 - 1, never reduced;
* :func:`output_option` ``-o/--output FILE`` and ``--force``: where a command writes, never
  over an existing file without ``--force``, always through a temporary file and a rename
  (:func:`write_output`).
* :func:`count_option` ``-n/--count N``: how many levels a generator makes;
* :func:`max_states_option` ``--max-states N``: the states one search may keep;
* :func:`title_option` ``--title TEXT``: the title of the pack a command writes.

Options that several commands take together are declared once as an :class:`OptionGroup`
and applied with one decorator; with ``into`` the command receives them as one value
(:func:`level_file_options`: a level-file argument and ``--level``, as a :class:`LevelFile`).

A command may choose the default (and whether the option is required); the words stay the
same. :func:`load_level_pack` is the one reader of a command's level-file argument: a file
path, ``-`` (stdin), a level ID (``longcat:arduboy/17``) or the name of a bundled pack
(``arduboy``, ``01-arduboy``); bad input exits 2 with one ``error:`` line, or the parse
error's ``file:line:col`` block with its caret.

Like :mod:`tui.cli.output`, this module imports only click and the standard library at import
time, so ``termarcade --help`` stays fast.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from core.text import escape_controls
from tui.cli.output import (
    IntBetween,
    Seconds,
    choose_levels,
    did_you_mean,
    fail,
    read_input,
    user_errors,
)

__all__ = [
    "COUNT_HELP",
    "FORCE_HELP",
    "JSON_HELP",
    "LEVEL_HELP",
    "MAX_STATES_HELP",
    "OUTPUT_HELP",
    "SEED_HELP",
    "SEED_MAX",
    "TIME_LIMIT_HELP",
    "TITLE_HELP",
    "LevelDeadlines",
    "LevelFile",
    "OptionGroup",
    "OrderedOptions",
    "OutOfTime",
    "ReadingDeadline",
    "SeedType",
    "SharedOption",
    "budget_option",
    "check_output",
    "check_pack",
    "check_seed_run",
    "command_started",
    "count_option",
    "game_play_command",
    "json_option",
    "level_file_options",
    "level_option",
    "load_level_pack",
    "max_states_option",
    "numbered_levels",
    "options_in_order",
    "output_option",
    "parse_level_pack",
    "pick_levels",
    "read_level_source",
    "seed_option",
    "stack_options",
    "time_limit_option",
    "title_option",
    "write_output",
]

_F = TypeVar("_F", bound=Callable[..., Any])

SEED_MAX = 2**32 - 1
"""The largest seed: every generator in termarcade draws from a 32-bit state."""

JSON_HELP = (
    "Print JSON instead of text: one object per line, with the keys documented for this "
    "command (docs: the game's page)."
)
"""The one help text of ``--json``."""
LEVEL_HELP = "Which level of the level file: its number (from 1) or its title."
"""The one help text of ``--level``."""
TIME_LIMIT_HELP = (
    "Seconds one search may take (each level, hand or move on its own); when time is up "
    "the answer is the best found so far, or unknown."
)
"""The one help text of ``--time-limit``."""
BUDGET_HELP = (
    "The most work one search may do, counted in the command's own unit (states, nodes or "
    "moves: see the command's help); when it is spent the answer is the best found so far, "
    "or unknown, and says which bound was hit. 0: no budget."
)
"""The one help text of ``--work-budget``."""
SEED_HELP = (
    f"Seed, 0 to {SEED_MAX}: the same seed gives the same result; further levels or games "
    "take the next seeds."
)
"""The one help text of ``--seed``."""
OUTPUT_HELP = "Write to FILE (through a temporary file, then a rename) instead of stdout."
"""The one help text of ``--output``."""
FORCE_HELP = "Replace --output FILE when it exists (without --force that is an error)."
"""The one help text of ``--force``."""
COUNT_HELP = "How many levels to generate (one pack)."
"""The one help text of ``--count``."""
MAX_STATES_HELP = (
    "The most states one search may keep (each level on its own); past it the answer is unknown."
)
"""The one help text of ``--max-states``."""
TITLE_HELP = "The title of the pack written."
"""The one help text of ``--title``."""


class SharedOption(click.Option):
    """An option that errors name by its long spelling only (``'--seed'``, not click's
    ``'--seed' / '-s'``): a short alias added for convenience does not change messages
    that scripts and tests read."""

    def __init__(self, *args: Any, default_text: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.default_text = default_text
        """What ``--help`` shows as the default when the command applies it itself
        (``every level``); click would show a string ``show_default`` in parentheses."""

    def get_error_hint(self, ctx: click.Context | None) -> str:
        """The option's name in error messages: its longest spelling, quoted."""
        return repr(max(self.opts, key=len))

    def get_help_extra(self, ctx: click.Context) -> Any:
        """click's ``[default: ...]`` note, with :attr:`default_text` when there is one."""
        extra = super().get_help_extra(ctx)
        if self.default_text is not None:
            extra["default"] = self.default_text
        return extra


def stack_options(func: _F, decorators: Sequence[Callable[[Any], Any]]) -> _F:
    """Apply ``decorators`` (click options and arguments) so that ``--help`` lists them in
    the order given: the one way a game declares an option group its commands share."""
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


class OptionGroup:
    """Click options (and arguments) that several commands take together, declared once and
    applied with one decorator, in the order given (as ``--help`` lists them).

    With ``into``, the command receives the group as one value: the group's parameters are
    taken out of the command's keyword arguments and handed to ``into``, whose result the
    command gets as the parameter called ``name``. A command's signature then names what it
    needs (``position``), not the six options that make it.

    Args:
        name: The group's name (the command's parameter, with ``into``).
        params: The click decorators, in ``--help`` order.
        into: Builds the group's value from its parameters (by their click names), or None
            to pass them one by one.
    """

    def __init__(
        self,
        name: str,
        params: Sequence[Callable[[Any], Any]],
        *,
        into: Callable[..., Any] | None = None,
    ) -> None:
        self.name = name
        self.params = tuple(params)
        self.into = into

    def names(self) -> list[str]:
        """The click names of the group's parameters (``level_file``, ``level`` ...)."""
        probe = stack_options(lambda: None, self.params)
        return [param.name or "" for param in reversed(probe.__click_params__)]  # type: ignore[attr-defined]

    def __call__(self, func: _F) -> _F:
        """Add the group's parameters to a command function (the decorator)."""
        if self.into is None:
            return stack_options(func, self.params)
        into, names, name = self.into, self.names(), self.name

        @functools.wraps(func)
        def gathered(*args: Any, **kwargs: Any) -> Any:
            kwargs[name] = into(**{key: kwargs.pop(key) for key in names})
            return func(*args, **kwargs)

        return stack_options(gathered, self.params)  # type: ignore[return-value]


class OrderedOptions(click.Command):
    """A command that remembers the command-line order of its options.

    click gives each ``multiple`` option its own tuple of values; the order in which the
    options were interleaved (``apply -r 1 -c 4/0=done -r 2``) is recorded from click's
    parser into the context, and :func:`options_in_order` reads it back, so moves are
    played as written.
    """

    def make_parser(self, ctx: click.Context) -> Any:
        """click's parser, noting the order of the parameters it reads."""
        parser = super().make_parser(ctx)
        original = parser.parse_args

        def parse_args(args: list[str]) -> Any:
            opts, largs, order = original(args)
            ctx.meta[_ORDER] = [param.name for param in order]
            return opts, largs, order

        parser.parse_args = parse_args  # type: ignore[method-assign]
        return parser


_ORDER = "termarcade.option_order"
"""Key in click's ``ctx.meta``: the parameters' names in command-line order."""


def options_in_order(ctx: click.Context, **values: Sequence[Any]) -> list[tuple[str, Any]]:
    """The values of some ``multiple`` options, in the order the command line gave them.

    Args:
        ctx: The context of an :class:`OrderedOptions` command.
        **values: Each option's name and its tuple of values.

    Returns:
        ``(name, value)`` pairs, interleaved as written (without a record of the order, as
        when the command is called directly: each option's values in turn).
    """
    order = [name for name in ctx.meta.get(_ORDER, ()) if name in values]
    if len(order) != sum(len(items) for items in values.values()):  # pragma: no cover
        order = [name for name, items in values.items() for _ in items]
    queues = {name: list(items) for name, items in values.items()}
    return [(name, queues[name].pop(0)) for name in order]


# --------------------------------------------------------------------------- --json


def json_option(func: _F) -> _F:
    """Add ``--json`` (the flag arrives as the ``as_json`` parameter).

    Args:
        func: The command function.

    Returns:
        ``func`` with the option.
    """
    return click.option("--json", "as_json", cls=SharedOption, is_flag=True, help=JSON_HELP)(func)


# --------------------------------------------------------------------------- --level


def level_option(default: str = "1", *, name: str = "level") -> Callable[[_F], _F]:
    """``-l/--level N|TITLE``: one level of the level file (a string for
    :func:`tui.cli.output.choose_levels`; None when not given).

    Args:
        default: What the command takes without ``--level``, as ``--help`` shows it
            (``"1"``, ``"every level"``); the command applies it itself.
        name: The command function's parameter.

    Returns:
        The decorator.
    """
    return click.option(
        "--level",
        "-l",
        name,
        cls=SharedOption,
        default=None,
        metavar="N|TITLE",
        default_text=default,
        help=LEVEL_HELP,
    )


@dataclasses.dataclass(frozen=True, slots=True)
class LevelFile:
    """A command's level-file argument and its ``--level``, as :func:`level_file_options`
    gathers them.

    Attributes:
        level_file: The argument (a path, ``-``, an ID, a bundled pack's name), or None.
        level: The ``--level`` value (a number or a title), or None when not given.
    """

    level_file: str | None
    level: str | None

    def chosen(
        self,
        levels: Sequence[tuple[int, Any]],
        *,
        every_level: bool = False,
        where: str = "the pack",
    ) -> list[tuple[int, Any]]:
        """The levels ``--level`` chooses (:func:`tui.cli.output.choose_levels`).

        Args:
            levels: ``(1-based number, level)`` pairs.
            every_level: Without ``--level``, every level (else the first).
            where: How messages name the file.

        Returns:
            The chosen pairs.
        """
        if self.level is None:
            return list(levels) if every_level else list(levels[:1])
        return choose_levels(levels, self.level, where)

    @property
    def source(self) -> str:
        """The argument, for a command that requires it (click has refused its absence)."""
        if self.level_file is None:  # pragma: no cover - click's usage error comes first
            raise click.UsageError("give a level file")
        return self.level_file


def level_file_options(
    default: str = "1", *, metavar: str = "LEVEL_FILE", required: bool = True
) -> OptionGroup:
    """The level-file argument and ``-l/--level``: the group nearly every query command
    starts with, received as one :class:`LevelFile` (the ``levels`` parameter).

    Args:
        default: What the command takes without ``--level`` (:func:`level_option`).
        metavar: The argument's name in ``--help``.
        required: Whether the argument must be given.

    Returns:
        The group.
    """
    return OptionGroup(
        "levels",
        [
            click.argument("level_file", required=required, metavar=metavar),
            level_option(default),
        ],
        into=LevelFile,
    )


def game_play_command(game: str, help: str) -> click.Command:
    """A game's ``play [FILE | ID] [--level N|TITLE]``: the shell's ``termarcade play GAME``
    under the game's own group.

    Args:
        game: The game's id.
        help: The command's help (``Open the arcade on ...``).

    Returns:
        The ``play`` command, for ``group.add_command``.
    """

    @click.command(name="play", help=help)
    @level_file_options("1", metavar="[FILE | ID]", required=False)
    @click.pass_context
    def play(ctx: click.Context, levels: LevelFile) -> None:
        import tui.cli as shell  # the shell's play checks the file and starts the app

        ctx.invoke(shell.play, game=game, level_file=levels.level_file, level=levels.level)

    return play


# --------------------------------------------------------------------------- --time-limit


def time_limit_option(default: float) -> Callable[[_F], _F]:
    """``--time-limit SECONDS`` (a finite number greater than 0; the ``time_limit`` parameter).

    Args:
        default: The command's default in seconds.

    Returns:
        The decorator.
    """
    return click.option(
        "--time-limit",
        cls=SharedOption,
        type=Seconds(),
        default=default,
        show_default=True,
        metavar="SECONDS",
        help=TIME_LIMIT_HELP,
        callback=_note_start,
    )


_STARTED = "termarcade.started"
"""Key in click's ``ctx.meta``: when the command's options were read (monotonic seconds)."""


def _note_start(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Remember when the command began: its options are read before it loads anything."""
    ctx.meta.setdefault(_STARTED, time.monotonic())
    return value


def command_started() -> float:
    """When the running command began (``time.monotonic()``), loading and parsing included.

    A command that takes ``--time-limit`` computes its deadline from this, so the time spent
    reading a level (or unpacking an ID) counts against the limit. Outside a click command,
    or when nothing noted the start, it is now.

    Returns:
        Monotonic seconds.
    """
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return time.monotonic()
    return float(ctx.meta.get(_STARTED, time.monotonic()))


class LevelDeadlines:
    """Each level's deadline under ``--time-limit``: the first counts from the command's
    start (:func:`command_started`: reading and keying the level count against the limit),
    each later one from when it begins.

    Args:
        time_limit: The ``--time-limit`` value, in seconds.
    """

    def __init__(self, time_limit: float):
        self._limit = time_limit
        self.first: float | None = command_started() + time_limit
        """The first level's deadline (None once handed out)."""

    def next(self) -> float:
        """The deadline of the level about to be searched (monotonic seconds)."""
        first, self.first = self.first, None
        return first if first is not None else time.monotonic() + self._limit


class OutOfTime(BaseException):
    """The time limit passed while the levels were read (a BaseException, like ctrl+c, so
    that no ``except Exception`` of the loader can take it for a bad input)."""


class ReadingDeadline:
    """Stop reading the levels at ``deadline``: a timer signal interrupts the loader, which
    raises :class:`OutOfTime`.

    Reading is linear in the input, but a 6 KB TermCraft ID unpacks to 4 MiB of term nested
    1.4 million deep (10 s to read and key); a loader has no watch of its own, so the
    command's clock interrupts it (SIGALRM, main thread only: elsewhere, or without
    ``setitimer``, reading is only bounded by the 4 MiB limit on IDs and the size limit on
    files).

    Args:
        deadline: Monotonic seconds.
    """

    def __init__(self, deadline: float):
        self._deadline = deadline
        self._armed = False
        self._old: Any = None

    def _fire(self, signum: int, frame: Any) -> None:
        raise OutOfTime

    def __enter__(self) -> None:
        import signal
        import threading

        if not hasattr(signal, "setitimer") or threading.current_thread() is not (
            threading.main_thread()
        ):
            return
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise OutOfTime
        self._old = signal.signal(signal.SIGALRM, self._fire)
        self._armed = True
        signal.setitimer(signal.ITIMER_REAL, remaining)

    def __exit__(self, *exc: object) -> None:
        if self._armed:
            import signal

            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)


# --------------------------------------------------------------------------- --work-budget


def budget_option(default: int) -> Callable[[_F], _F]:
    """``--work-budget N`` (an integer from 0; the ``budget`` parameter; 0 means no budget).

    Args:
        default: The command's default, in its own unit (say which in the command's help).

    Returns:
        The decorator.
    """
    return click.option(
        "--work-budget",
        "budget",
        cls=SharedOption,
        type=IntBetween(0, what="the work budget"),
        default=default,
        show_default=True,
        metavar="N",
        help=BUDGET_HELP,
    )


# --------------------------------------------------------------------------- --seed


class SeedType(IntBetween):
    """A seed: a whole number from 0 to :data:`SEED_MAX`; others are refused, not reduced."""

    name = "seed"

    def __init__(self) -> None:
        super().__init__(0, SEED_MAX, what="the seed")

    def not_a_number(self, value: Any) -> str:
        """``a seed is a whole number from 0 to 4294967295, not 'x'``."""
        return f"a seed is a whole number from 0 to {SEED_MAX}, not {value!r}"

    def out_of_range(self, number: int) -> str:
        """The range in bits too: the reason the limit is where it is."""
        return f"a seed is a whole number from 0 to {SEED_MAX} (32 bits), not {number}"


def seed_option(default: int | None = None, *, required: bool = False) -> Callable[[_F], _F]:
    """``-s/--seed N`` (the ``seed`` parameter).

    Args:
        default: The command's default seed, or None.
        required: The command needs a seed (then there is no default).

    Returns:
        The decorator.
    """
    # click >= 8.3 takes an explicit default=None as a value that satisfies required=True.
    extra: dict[str, Any] = {} if default is None else {"default": default, "show_default": True}
    return click.option(
        "--seed",
        "-s",
        "seed",
        cls=SharedOption,
        type=SeedType(),
        required=required,
        help=SEED_HELP,
        **extra,
    )


def check_seed_run(seed: int, count: int, option: str) -> None:
    """Refuse ``count`` levels or games from ``--seed`` (each the next seed) that would go
    past :data:`SEED_MAX`: exit 2 before any work, never wrap round.

    Args:
        seed: The ``--seed`` value.
        count: How many seeds the command takes in turn.
        option: The option giving ``count`` (``"--count"``, ``"--games"``), for the message.
    """
    if seed + count - 1 > SEED_MAX:
        fail(f"{option} {count} from --seed {seed} would go past the last seed, {SEED_MAX}")


# --------------------------------------------------------------------------- -o/--output


def output_option(func: _F) -> _F:
    """Add ``-o/--output FILE`` and ``--force`` (the ``output`` and ``force`` parameters).

    Write with :func:`write_output`; call :func:`check_output` before long work, so that a
    refusal comes before minutes of generating, not after.

    Args:
        func: The command function.

    Returns:
        ``func`` with both options.
    """
    return stack_options(
        func,
        [
            click.option(
                "--output",
                "-o",
                "output",
                cls=SharedOption,
                type=click.Path(dir_okay=False),
                default=None,
                metavar="FILE",
                help=OUTPUT_HELP,
            ),
            click.option("--force", cls=SharedOption, is_flag=True, help=FORCE_HELP),
        ],
    )


def check_output(path: str | None, force: bool) -> None:
    """Refuse an output file that exists (without ``force``) or is a directory: exit 2.

    Args:
        path: The ``--output`` value (None or ``-``: stdout, nothing to check).
        force: ``--force`` was given.

    Raises:
        click.exceptions.Exit: Status 2 with one ``error:`` line.
    """
    if path is None or path == "-":
        return
    if os.path.isdir(path):  # before "exists": --force would not help
        fail(f"{path} is a directory; name the file to write")
    if os.path.lexists(path) and not force:
        fail(f"{path} exists; add --force to replace it")


def write_output(path: str | None, text: str, force: bool, what: str = "") -> None:
    """Print ``text``, or write it to ``path`` whole (temporary file, then a rename).

    Args:
        path: The ``--output`` file, or None (or ``-``) for stdout.
        text: What to write.
        force: ``--force`` was given (checked again here: the file may have appeared since).
        what: What was written, for the ``wrote ... to FILE`` line on stderr (none if empty).

    Raises:
        click.exceptions.Exit: Status 2 when the file exists without ``force`` or cannot be
            written (``path`` is then left as it was).
    """
    if path is None or path == "-":
        click.echo(text, nl=False)
        return
    check_output(path, force)
    from tui.store import atomic_write_text

    with user_errors():
        atomic_write_text(path, text)
    if what:
        click.echo(f"wrote {what} to {escape_controls(path)}", err=True)


# --------------------------------------------------------------------------- -n/--count


def count_option(default: int, high: int) -> Callable[[_F], _F]:
    """``-n/--count N``: how many levels a generator makes (the ``count`` parameter).

    Args:
        default: The command's default.
        high: The most the command makes in one run.

    Returns:
        The decorator.
    """
    return click.option(
        "--count",
        "-n",
        "count",
        cls=SharedOption,
        type=IntBetween(1, high, what="the number of levels"),
        default=default,
        show_default=True,
        help=COUNT_HELP,
    )


# --------------------------------------------------------------------------- --max-states


def max_states_option(default: int | None, default_text: str | None = None) -> Callable[[_F], _F]:
    """``--max-states N``: the states one search may keep (the ``max_states`` parameter).

    Args:
        default: The command's default (None: the solver's own, named by ``default_text``).
        default_text: What ``--help`` shows as the default when ``default`` is None.

    Returns:
        The decorator.
    """
    return click.option(
        "--max-states",
        "max_states",
        cls=SharedOption,
        type=IntBetween(1, what="the state limit"),
        default=default,
        show_default=default is not None,
        default_text=default_text,
        metavar="N",
        help=MAX_STATES_HELP,
    )


# --------------------------------------------------------------------------- --title


def title_option(default_text: str | None = None) -> Callable[[_F], _F]:
    """``--title TEXT``: the title of the pack a command writes (the ``title`` parameter;
    None when not given, and the command chooses).

    Args:
        default_text: What ``--help`` shows as the default (``"the file's"``), if anything.

    Returns:
        The decorator.
    """
    return click.option(
        "--title",
        "title",
        cls=SharedOption,
        default=None,
        metavar="TEXT",
        default_text=default_text,
        help=TITLE_HELP,
    )


# --------------------------------------------------------------------------- level packs

_PACK_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
"""What a bundled pack's name looks like: no path separator, no dot (so ``x.levels`` and
``dir/x`` are always files)."""


def _bundled_text(name: str, game: str) -> tuple[str, str]:
    """The text of ``game``'s bundled pack called ``name``, and its name for messages.

    Raises:
        click.exceptions.Exit: Status 2 naming the packs there are, when none is called so.
    """
    from core import registry
    from levels import pack_files
    from tui.ids import short_pack_name

    files = pack_files(game)
    for entry in files:
        pack_id = entry.name.removesuffix(".levels")
        if name in (pack_id, short_pack_name(pack_id)):
            return entry.read_text(encoding="utf-8"), f"levels/{game}/{entry.name}"
    info = registry.get(game)
    title = info.title if info is not None else game
    names = [short_pack_name(entry.name.removesuffix(".levels")) for entry in files]
    known = f"its packs: {', '.join(names)}" if names else f"{title} ships no pack"
    fail(
        f"{name}: no such file, and no bundled {title} pack of that name"
        f"{did_you_mean(name, names)} ({known})"
    )


def read_level_source(source: str, game: str) -> tuple[str, str]:
    """The text a level-file argument names, and its name for messages.

    Args:
        source: A file path; ``-`` for stdin; a level ID of ``game``
            (``longcat:arduboy/17``: a one-level file); or, when no file of that name
            exists, the name of one of ``game``'s bundled packs (``arduboy``, ``01-arduboy``).
        game: The game the command is about.

    Returns:
        ``(text, name)``; the name is the path, ``<stdin>``, ``<ID>`` or ``levels/GAME/FILE``.

    Raises:
        click.exceptions.Exit: Status 2 with one ``error:`` line: unreadable file, an ID
            that names nothing or another game's level, an unknown pack.
    """
    if source != "-" and not os.path.exists(source):
        from tui.ids import looks_like_id

        if looks_like_id(source):
            from tui.cli import resolve_level_id

            resolved = resolve_level_id(source, game)
            return resolved.text, f"<{resolved.id}>"
        if _PACK_NAME.match(source):
            return _bundled_text(source, game)
    return read_input(source)


def check_pack(pack: Any, game: str, name: str) -> Any:
    """Refuse a pack of another game, or one without levels: exit 2.

    Args:
        pack: The loaded :class:`core.levelpack.LevelPack`.
        game: The game the command is about.
        name: How messages name the file.

    Returns:
        ``pack``.
    """
    if pack.game != game:
        fail(f"{name}: this is a level file for {pack.game or 'no game'}, not for {game}")
    if not pack.levels:
        fail(f"{name}: the level file holds no level")
    return pack


def parse_level_pack(text: str, name: str, game: str) -> Any:
    """Parse level-file text for ``game``: a parse error exits 2 with its caret block.

    Args:
        text: The file's text.
        name: Its name for messages.
        game: The game the command is about.

    Returns:
        The checked pack (:func:`check_pack`).
    """
    from grammar.levels import load_pack

    with user_errors():
        pack = load_pack(text, filename=name, game=game)
    return check_pack(pack, game, name)


def load_level_pack(source: str, game: str) -> Any:
    """The one loader of a command's level-file argument (see :func:`read_level_source`).

    Args:
        source: A path, ``-``, a level ID or a bundled pack's name.
        game: The game the command is about.

    Returns:
        The :class:`core.levelpack.LevelPack`, holding at least one level of ``game``.

    Raises:
        click.exceptions.Exit: Status 2: one ``error:`` line, or for a parse error
            ``file:line:col: message``, the line and a caret.
    """
    if source != "-" and os.path.isfile(source):
        # The grammar's file reader stops at the size limit instead of reading a huge file
        # whole, and places an undecodable byte at its line and column.
        from grammar.levels import load_pack_file

        with user_errors():
            pack = load_pack_file(source, game=game)
        return check_pack(pack, game, source)
    text, name = read_level_source(source, game)
    return parse_level_pack(text, name, game)


def numbered_levels(pack: Any) -> list[tuple[int, Any]]:
    """``(1-based number, level)`` for every level of ``pack`` (what ``--level`` chooses from).

    Args:
        pack: A level pack.

    Returns:
        The pairs, in file order.
    """
    return list(enumerate(pack.levels, start=1))


def pick_levels(pack: Any, spec: str | None) -> list[tuple[int, Any]]:
    """The levels of ``pack`` that ``--level`` chooses (:func:`tui.cli.output.choose_levels`).

    Args:
        pack: A level pack (from :func:`load_level_pack`).
        spec: The ``--level`` value: None for every level, a 1-based number or a title.

    Returns:
        ``(1-based number, level)`` pairs.

    Raises:
        click.exceptions.Exit: Status 2 when nothing matches.
    """
    return choose_levels(numbered_levels(pack), spec)
