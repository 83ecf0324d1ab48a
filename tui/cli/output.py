"""The one place where CLI commands read input, write output and report errors.

Conventions (docs/cli.md, "The shell"):

* ``--json`` prints one JSON document per line, keys in the order the command built them,
  each line flushed as soon as it is written (so ``autoplay --json | consumer`` streams);
  a command declares its object once as a :class:`Row` (its keys in the documented order
  and its text form, read from the same values, so the two never disagree);
* every error is one line on stderr, ``error: ...``, in the player's terms, with control
  characters shown escaped; a parse error is the exception: ``file:line:col: message``, the
  offending line and a caret under the column;
* exit status: 0 success, 1 a negative answer, 2 bad input or usage, 70 an internal error
  (a bug), 130 interrupted (ctrl+c), 141 the reader of stdout went away (``| head``).

:func:`report_exception` maps any exception to its message and status; the command group
(:mod:`tui.cli`) calls it, so no command needs its own handler. This module imports only
click, the standard library and :mod:`core.text`, so commands stay fast to start; rich is
imported when a command asks for a :func:`console`.
"""

from __future__ import annotations

import dataclasses
import difflib
import errno
import json
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import PurePath
from typing import IO, TYPE_CHECKING, Any, NoReturn

import click

from core.text import escape_controls, plural, shorten

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rich.console import Console

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_CLOSED_PIPE",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_NEGATIVE",
    "EXIT_OK",
    "Field",
    "IntBetween",
    "Row",
    "RunPolicy",
    "Seconds",
    "StageProgress",
    "StopOnCtrlC",
    "bulk_command",
    "choose_levels",
    "console",
    "did_you_mean",
    "emit_json",
    "error_line",
    "fail",
    "format_parse_error",
    "is_parse_error",
    "parsed",
    "progress_bar",
    "progress_wanted",
    "read_input",
    "report_exception",
    "report_parse_error",
    "search_progress",
    "silence_closed_stdout",
    "stage_watch",
    "to_jsonable",
    "user_errors",
]

EXIT_OK = 0
"""Success."""
EXIT_NEGATIVE = 1
"""A negative answer: unsolvable, invalid, no move ..."""
EXIT_BAD_INPUT = 2
"""Bad input or usage (click's usage errors too)."""
EXIT_INTERNAL = 70
"""A bug in termarcade itself (EX_SOFTWARE)."""
EXIT_INTERRUPTED = 130
"""ctrl+c: 128 + SIGINT, as shells report it."""
EXIT_CLOSED_PIPE = 141
"""The reader of stdout went away (``| head``): 128 + SIGPIPE, as a shell reports a program
killed by SIGPIPE."""

DEBUG_ENV = "TERMARCADE_DEBUG"
"""Set to anything but ``0`` to get Python tracebacks instead of one-line errors."""


# --------------------------------------------------------------------------- JSON output


@dataclasses.dataclass(frozen=True, slots=True)
class RunPolicy:
    """How the process running the command group treats memory: handed down by the caller
    as the click context's object (``group.main(obj=RunPolicy(one_shot=True))``).

    Attributes:
        one_shot: True when the process is this one command and ends without tearing its
            heap down (:mod:`tui.entry`); False for embedded runs (tests, a host program
            calling the group), which keep the usual collector.
    """

    one_shot: bool = False
    """Whether the process ends right after this command."""


def bulk_command() -> None:
    """Declare the running command a one-shot job over possibly huge input.

    When the caller said the process is this one command (:class:`RunPolicy`, given by
    :mod:`tui.entry`), bulk blocks then end by freezing what they built (see
    :attr:`core.search.quiet_gc.freeze_after`). Embedded runs and the long-lived commands
    (the app, the server) keep the usual collector.
    """
    from core.search import quiet_gc

    context = click.get_current_context(silent=True)
    policy = context.find_object(RunPolicy) if context is not None else None
    if policy is not None and policy.one_shot:
        quiet_gc.freeze_after = True


def to_jsonable(value: Any) -> Any:
    """Convert common non-JSON values to JSON ones.

    Tuples become lists, sets become sorted lists, paths become strings, dataclasses become
    dicts (fields in declaration order), and objects with a ``to_json()`` method (such as terms)
    are converted by it. Dict keys keep their order.

    Args:
        value: Any value.

    Returns:
        A value made of dict/list/str/int/float/bool/None.

    Raises:
        TypeError: For values with no JSON form (a programming error in the command).
    """
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return {str(key): to_jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(item) for item in value]
    if isinstance(value, (set, frozenset)):
        items = [to_jsonable(item) for item in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(value, PurePath):
        return str(value)
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_jsonable(to_json())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: to_jsonable(getattr(value, field.name))
            for field in dataclasses.fields(value)
        }
    raise TypeError(f"cannot convert {type(value).__name__} to JSON")


def emit_json(obj: Any, *, file: IO[str] | None = None, indent: int | None = None) -> None:
    """Print one JSON document (a single line unless ``indent`` is given) and flush it.

    Keys keep the order in which the command built the dict, so output is stable from run to
    run; non-ASCII text is written as is (``ensure_ascii=False``; control characters inside
    strings are escaped by JSON itself). The line is flushed at once: on a pipe stdout is
    block-buffered, and a consumer of a stream of results (``autoplay --json``) must get
    each one when it is ready, not 8 KiB later.

    Args:
        obj: The value to print (converted with :func:`to_jsonable`).
        file: Where to write; stdout by default.
        indent: Pretty-print with this indent.
    """
    text = json.dumps(to_jsonable(obj), ensure_ascii=False, indent=indent)
    stream = file if file is not None else sys.stdout
    click.echo(text, file=stream)
    stream.flush()


@dataclasses.dataclass(frozen=True, slots=True)
class Field:
    """One key of a :class:`Row`, and how its value becomes JSON.

    Attributes:
        key: The JSON key.
        to_json: Turns the row's value into its JSON form (then :func:`to_jsonable`), or
            None when the value is printed as it is (strings, numbers, lists of them).
    """

    key: str
    to_json: Callable[[Any], Any] | None = None

    def json(self, value: Any) -> Any:
        """The JSON form of ``value``."""
        return to_jsonable(value if self.to_json is None else self.to_json(value))


TextForm = Callable[[Mapping[str, Any]], Iterable[str]]
"""A row's text form: the lines printed without ``--json``, read from the row's values."""


class Row:
    """A command's output object declared once: its keys in the documented order, the JSON
    form of each value and the text printed without ``--json``.

    A command builds its values with :meth:`__call__` (a missing or unknown key is a bug,
    caught on the first run, not a silently different object) and prints them with
    :meth:`emit`: the JSON object and the text lines come from the same values, so the two
    forms cannot disagree, and the key order lives in one place that tests compare with the
    game's documentation (``tests/cli/test_cli_rows.py``).

    Args:
        *fields: The keys, in order: a name, or a :class:`Field` with a JSON conversion.
        text: The text form (None: the command has none, or prints it itself).
        text_only: Values the text form shows that the JSON object leaves out (a closure's
            left-out formulas, the reason an edge is refused: JSON says it elsewhere).
    """

    def __init__(
        self, *fields: str | Field, text: TextForm | None = None, text_only: Sequence[str] = ()
    ) -> None:
        self.fields = tuple(item if isinstance(item, Field) else Field(item) for item in fields)
        self.keys = tuple(field.key for field in self.fields)
        """The JSON keys, in the documented order."""
        self.text_only = tuple(text_only)
        """The keys only the text form reads."""
        if len({*self.keys, *self.text_only}) != len(self.keys) + len(self.text_only):
            raise ValueError(f"a row declares a key twice: {self.keys + self.text_only}")
        self._text = text

    def __call__(self, **values: Any) -> dict[str, Any]:
        """The row's values, in the declared order.

        Raises:
            TypeError: When a declared key is missing or an undeclared one is given (a
                programming error in the command).
        """
        declared = self.keys + self.text_only
        missing = [key for key in declared if key not in values]
        unknown = [key for key in values if key not in declared]
        if missing or unknown:
            raise TypeError(f"row {self.keys}: missing {missing}, undeclared {unknown}")
        return {key: values[key] for key in declared}

    def of(self, obj: Any, **values: Any) -> dict[str, Any]:
        """The row of ``obj``: each key not in ``values`` read as the attribute of that name.

        Args:
            obj: An object with the row's keys as attributes (a result, an issue ...).
            **values: Keys computed by the command instead.

        Returns:
            The values, in the declared order.
        """
        declared = self.keys + self.text_only
        return self(
            **{key: values[key] if key in values else getattr(obj, key) for key in declared}
        )

    def json(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON object of a row's values: the declared keys, in order, converted."""
        return {field.key: field.json(values[field.key]) for field in self.fields}

    def text(self, values: Mapping[str, Any]) -> list[str]:
        """The text form's lines.

        Raises:
            TypeError: When the row declares no text form.
        """
        if self._text is None:
            raise TypeError(f"row {self.keys} has no text form")
        return list(self._text(values))

    def emit(self, values: Mapping[str, Any], as_json: bool) -> None:
        """Print a row: its JSON object on one line (:func:`emit_json`), or its text lines.

        Args:
            values: What :meth:`__call__` or :meth:`of` built.
            as_json: ``--json`` was given.
        """
        if as_json:
            emit_json(self.json(values))
            return
        for line in self.text(values):
            click.echo(line)


# --------------------------------------------------------------------------- rich output

_console_class: type | None = None


def _pipe_safe_console_class() -> type:
    """rich's Console, except that a closed stdout raises BrokenPipeError.

    rich's default reaction (``Console.on_broken_pipe``) is ``SystemExit(1)``; raising
    BrokenPipeError instead lets the command group end with the same quiet status 141 as
    for plain output. Built on first use so that importing this module does not import rich.
    """
    global _console_class
    if _console_class is None:
        from rich.console import Console

        class PipeSafeConsole(Console):
            """A rich Console that reports a closed pipe as BrokenPipeError."""

            def on_broken_pipe(self) -> None:
                self.quiet = True
                raise BrokenPipeError(errno.EPIPE, "the reader of the output went away")

        _console_class = PipeSafeConsole
    return _console_class


def console(*, stderr: bool = False) -> Console:
    """A rich Console for tables, trees and progress bars.

    Args:
        stderr: Write to stderr (progress bars) instead of stdout.

    Returns:
        A console without automatic highlighting (numbers in output are data, not syntax),
        honouring NO_COLOR, whose closed-pipe handling matches plain output (status 141).
    """
    return _pipe_safe_console_class()(stderr=stderr, highlight=False)


@contextmanager
def progress_bar(total: int, what: str, show: bool = True) -> Iterator[Callable[..., None]]:
    """A transient progress bar on stderr, only when stderr is a terminal: the one bar of the
    commands that work through levels (generate, solve, analyse, describe ...).

    Args:
        total: How many items (the bar's total); none is shown for fewer than 1.
        what: What is being done, shown first (``"generating"``).
        show: False to show nothing (the command's own reasons: ``--json`` ...).

    Yields:
        ``advance(label="", step=1)``: count ``step`` items done, and show ``label`` (the
        item's title, control characters escaped, cut to 40 characters) beside the bar.
    """
    err = console(stderr=True)
    if not show or total < 1 or not err.is_terminal:
        yield lambda **_: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn(f"[bold]{what}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[label]}"),
        TimeElapsedColumn(),
        console=err,
        redirect_stdout=False,
        redirect_stderr=False,
        transient=True,
    )
    with progress:
        task = progress.add_task(what, total=total, label="")

        def advance(label: str = "", step: int = 1) -> None:
            progress.update(task, advance=step, label=shorten(escape_controls(label), 40))

        yield advance


def progress_wanted(as_json: bool) -> bool:
    """Whether a command may show :func:`progress_bar`: not while ``--json`` lines stream
    to a terminal, where the bar's redraws would tear them."""
    return not (as_json and sys.stdout.isatty())


@contextmanager
def search_progress(
    label: str, total: int | None = None, show: bool = True
) -> Iterator[Callable[..., None] | None]:
    """A transient spinner on stderr with a search's counts, only when stderr is a terminal:
    the one display of the solvers' ``progress(explored, frontier)`` callback.

    Args:
        label: What is searched (``level 2: 'Fork'``), shown first.
        total: The state limit, to draw a bar against (explored plus queued states are the
            ones kept), or None for a spinner alone.
        show: False to show nothing (``--json`` ...).

    Yields:
        The ``progress(explored, frontier=0, ...)`` callback to hand the solver, or None
        when nothing is shown (the solver then reports nothing).
    """
    err = console(stderr=True)
    if not show or not err.is_terminal:
        yield None
        return
    from rich.markup import escape
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
    if total is not None:
        columns.append(BarColumn())
    columns += [
        TextColumn("{task.fields[explored]} explored, {task.fields[frontier]} queued"),
        TimeElapsedColumn(),
    ]
    with Progress(*columns, console=err, transient=True) as bar:
        # A level's title is text, not markup, and must not drive the terminal.
        task = bar.add_task(escape(escape_controls(label)), total=total, explored=0, frontier=0)

        def progress(explored: int, frontier: int = 0, *rest: Any) -> None:
            bar.update(task, completed=explored + frontier, explored=explored, frontier=frontier)

        yield progress


SLOW_ANALYSIS = 1.0
"""Seconds of analysis after which :class:`StageProgress` shows itself."""


class StageProgress:
    """Shows on stderr what a slow analysis is doing, once it has taken a while: the
    ``progress(stage, done, total)`` callback of a :class:`core.search.Watch`.

    Only on a terminal: ``analysing: closure 120,000/300,000 (3 s; ctrl+c cancels)``,
    rewritten in place and erased when the work is done.

    Args:
        after: Seconds of quiet before the line appears.
    """

    def __init__(self, after: float = SLOW_ANALYSIS) -> None:
        import time

        self._clock = time.monotonic
        self._start = self._clock()
        self._after = after
        self._shown = False
        self.enabled = sys.stderr.isatty()

    def __call__(self, stage: str, done: int, total: int) -> None:
        """Show ``stage`` and how far it is (once the analysis is slow)."""
        elapsed = self._clock() - self._start
        if not self.enabled or elapsed < self._after:
            return
        amount = f"{done:,}/{total:,}" if total else (f"{done:,}" if done else "")
        sys.stderr.write(f"\ranalysing: {stage} {amount} ({elapsed:.0f} s; ctrl+c cancels)\x1b[K")
        sys.stderr.flush()
        self._shown = True

    def done(self) -> None:
        """Erase the progress line, if one was shown."""
        if self._shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._shown = False


def stage_watch(
    progress: StageProgress | None = None, should_stop: Callable[[], bool] | None = None
) -> Any:
    """A :class:`core.search.Watch` with no deadline that reports to ``progress``.

    Args:
        progress: Where the stages go, or None.
        should_stop: The cancel flag (:class:`StopOnCtrlC`), or None.

    Returns:
        The watch (polled every quarter of a second).
    """
    from core.search import Watch

    return Watch(None, should_stop, progress, interval=0.25)


# --------------------------------------------------------------------------- errors


def error_line(message: str) -> str:
    """The one-line form of an error: ``error: message``, control characters escaped.

    Args:
        message: What went wrong, for a person (may quote user input).

    Returns:
        One line (line breaks in the message are escaped too).
    """
    return "error: " + escape_controls(message)


def choose_levels(
    levels: Sequence[tuple[int, Any]], spec: str | None, where: str = "the pack"
) -> list[tuple[int, Any]]:
    """Choose levels by ``--level``: every game's CLI reads it the same way.

    Args:
        levels: ``(1-based number, level)`` pairs; each level has a ``title``.
        spec: ``None`` for all of them; a 1-based number; or a title (an exact match first,
            then a case-insensitive one).
        where: How messages name the file (``"the pack"``, ``"the file"``).

    Returns:
        The chosen pairs.

    Raises:
        click.exceptions.Exit: Status 2, with one ``error:`` line, when nothing matches.
    """
    if spec is None:
        return list(levels)
    text = spec.strip()
    if text.isascii() and text.isdigit():
        number = int(text)
        if not 1 <= number <= len(levels):
            fail(
                f"there is no level {number}: {where} has {plural(len(levels), 'level')} "
                "(numbered from 1)"
            )
        return [levels[number - 1]]
    for same in (lambda title: title == text, lambda title: title.casefold() == text.casefold()):
        for number, level in levels:
            if same(level.title):
                return [(number, level)]
    titles = ", ".join(repr(level.title) for _, level in levels[:8])
    fail(f"no level titled {spec!r} (levels: {titles}{', …' if len(levels) > 8 else ''})")


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` to stderr and exit.

    Args:
        message: What went wrong, for a person.
        code: Exit status (2 bad input by default, 1 for a negative answer).

    Raises:
        click.exceptions.Exit: Always; click turns it into the exit status.
    """
    click.echo(error_line(message), err=True)
    raise click.exceptions.Exit(code)


def is_parse_error(error: BaseException) -> bool:
    """True for errors that know how to render themselves (``grammar.errors.ParseError``).

    Duck-typed so that this module does not import the grammar package.
    """
    return callable(getattr(error, "render", None))


def _is_caret_line(line: str) -> bool:
    """True for the line of a parse error that holds only a caret under the column."""
    stripped = line.rstrip()
    return stripped.endswith("^") and not stripped[:-1].strip()


def format_parse_error(error: BaseException) -> str:
    """The caret block of a parse error, with control characters escaped.

    The offending line is shown escaped (a level file must not drive the terminal), and the
    caret is moved right by however much escaping widened the text before it, so it still
    points at the right character.

    Args:
        error: An error with a ``render()`` method (or any exception: its text is used).

    Returns:
        ``file:line:col: message``, the line, the caret and what was expected; an error that
        names no line (a file that cannot be read) is one ``error:`` line instead.
    """
    text = str(error.render()) if is_parse_error(error) else str(error)  # type: ignore[attr-defined]
    raw_lines = text.rstrip("\n").split("\n")
    if len(raw_lines) == 1:  # no line to point at (an unreadable file): a plain error
        return error_line(text.strip())
    shown: list[str] = []
    for index, line in enumerate(raw_lines):
        if index > 0 and _is_caret_line(line):
            column = len(line.rstrip()) - 1
            shown.append(" " * len(escape_controls(raw_lines[index - 1][:column])) + "^")
        else:
            shown.append(escape_controls(line))
    return "\n".join(shown)


def report_parse_error(error: BaseException, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print a parse error (``file:line:col: message``, the line, a caret) to stderr and exit.

    Args:
        error: An error with a ``render()`` method.
        code: Exit status, 2 by default.

    Raises:
        click.exceptions.Exit: Always.
    """
    click.echo(format_parse_error(error), err=True)
    raise click.exceptions.Exit(code)


def parsed(parse: Callable[[str, str], Any], text: str, what: str) -> Any:
    """Run a grammar reader on input from the command line (``--edge``, a script).

    Args:
        parse: The reader, called as ``parse(text, what)``.
        text: The input.
        what: Its name in messages (``<--edge>``, the script's file name).

    Returns:
        What the reader returns.

    Raises:
        click.exceptions.Exit: Status 2 with the caret block, for a parse error.
    """
    try:
        return parse(text, what)
    except Exception as error:
        if is_parse_error(error):
            report_parse_error(error)
        raise


def _lower_first(text: str) -> str:
    """``"No such option"`` -> ``"no such option"``; ``"NaN ..."``/``"ID ..."`` unchanged."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _is_missing_command(error: click.ClickException) -> bool:
    """True for click's "group called without a command" error (click >= 8.2)."""
    missing = getattr(click.exceptions, "NoArgsIsHelpError", None)
    return missing is not None and isinstance(error, missing)


def click_error_line(error: click.ClickException) -> str:
    """One ``error:`` line for a click error; usage errors point at the command's --help.

    click's own format is a three-line usage block; the usage stays available through
    ``--help``, and the hint names the exact command to ask.

    Args:
        error: A click exception (usage error, bad parameter, file error ...).

    Returns:
        The line, without a line break.
    """
    if _is_missing_command(error):
        # click >= 8.2 reports a bare group (``termarcade 2048``) with its whole help text
        ctx = getattr(error, "ctx", None)  # set on UsageError, the one _is_missing_command admits
        names = ctx.command.list_commands(ctx) if ctx is not None else []
        message = "missing command" + (f"; choose from {', '.join(names)}" if names else "")
    elif isinstance(error, click.NoSuchOption):
        # click's own text is "No such option: --sed Did you mean --seed?" (two sentences)
        close = sorted(error.possibilities or ())[:3]
        message = f"no such option {error.option_name!r}"
        message += f"; did you mean {_either(close)}?" if close else ""
    else:
        message = _lower_first(error.format_message().strip()).rstrip(".")
    if isinstance(error, click.UsageError):
        ctx = error.ctx
        path = ctx.command_path if ctx is not None else "termarcade"
        message += f" (see '{path} --help')"
    return error_line(message)


def _raised_by_rich_on_closed_pipe(exit_: SystemExit) -> bool:
    """True when rich's default ``Console.on_broken_pipe`` raised this SystemExit.

    Consoles made by :func:`console` raise BrokenPipeError instead; this catches consoles
    that a command built itself, so every closed pipe ends the same way.
    """
    tb = exit_.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    code = tb.tb_frame.f_code
    return code.co_name == "on_broken_pipe" and "rich" in code.co_filename


def _either(names: list[str]) -> str:
    """``["a"]`` -> ``"a"``; ``["a", "b", "c"]`` -> ``"a, b or c"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def did_you_mean(word: str, choices: Iterable[str], limit: int = 3, cutoff: float = 0.6) -> str:
    """A suggestion to append to an error: ``"; did you mean f2 or f12?"``, or ``""``.

    Args:
        word: What the person typed.
        choices: The valid words.
        limit: The most suggestions.
        cutoff: How similar (difflib ratio, 0 to 1) a word must be to be suggested.

    Returns:
        The closest valid words (difflib, case-insensitive), phrased for a message; empty
        when none is close.
    """
    by_folded: dict[str, str] = {}
    for choice in choices:
        by_folded.setdefault(choice.casefold(), choice)
    close = difflib.get_close_matches(word.casefold(), list(by_folded), n=limit, cutoff=cutoff)
    return f"; did you mean {_either([by_folded[name] for name in close])}?" if close else ""


def debug_mode() -> bool:
    """True when tracebacks should be shown (``TERMARCADE_DEBUG`` set and not 0)."""
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def silence_closed_stdout() -> int:
    """Point stdout at the null device after its reader went away (``| head``).

    The interpreter's final flush would otherwise raise BrokenPipeError again.

    Returns:
        The exit status to end with (:data:`EXIT_CLOSED_PIPE`).
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real fd
        pass
    return EXIT_CLOSED_PIPE


def report_exception(error: BaseException) -> int:
    """Tell the person what went wrong (on stderr) and return the exit status for it.

    The one mapping from exceptions to messages and statuses; the command group calls it
    for whatever a command raised.

    Args:
        error: Anything a command raised, other than ``click.exceptions.Exit``.

    Returns:
        130 ctrl+c; 141 closed stdout (no message); 2 a parse error (caret block) or usage
        error; a click error's own status; 70 anything else (an internal error).

    Raises:
        BaseException: ``error`` itself, re-raised, for an ordinary SystemExit, and for an
            internal error when ``TERMARCADE_DEBUG`` asks for the traceback.
    """
    if isinstance(error, BrokenPipeError) or (
        isinstance(error, SystemExit) and _raised_by_rich_on_closed_pipe(error)
    ):
        return silence_closed_stdout()
    if isinstance(error, SystemExit):
        raise error
    if isinstance(error, (KeyboardInterrupt, click.exceptions.Abort)):
        click.echo("interrupted", err=True)
        return EXIT_INTERRUPTED
    if isinstance(error, click.ClickException):
        click.echo(click_error_line(error), err=True)
        return error.exit_code
    if is_parse_error(error):
        click.echo(format_parse_error(error), err=True)
        return EXIT_BAD_INPUT
    if debug_mode():
        raise error
    click.echo(
        error_line(
            f"internal error: {type(error).__name__}: {error} — please report "
            f"it (set {DEBUG_ENV}=1 to see the traceback)"
        ),
        err=True,
    )
    return EXIT_INTERNAL


@contextmanager
def user_errors(code: int = EXIT_BAD_INPUT) -> Iterator[None]:
    """Turn errors caused by the user's input into clean messages and an exit status.

    Handles parse errors (anything with ``render()``), unreadable files, undecodable text,
    and input too deep or too large for the machine. Anything else propagates (the top-level
    group reports it as an internal error without a traceback).

    Args:
        code: Exit status for these errors, 2 by default.
    """
    try:
        yield
    except click.exceptions.Exit:
        raise
    except click.ClickException:
        raise
    except BrokenPipeError:
        raise  # stdout, not the input: the group ends quietly with 141
    except OSError as error:
        where = error.filename if error.filename is not None else "input"
        fail(f"{where}: {error.strerror or error}", code)
    except UnicodeDecodeError as error:
        fail(f"input is not valid UTF-8 ({error.reason} at byte {error.start})", code)
    except RecursionError:
        fail("input is nested too deeply", code)
    except MemoryError:
        fail("input is too large", code)
    except Exception as error:
        if is_parse_error(error):
            report_parse_error(error, code)
        raise


# --------------------------------------------------------------------------- ctrl+c


class StopOnCtrlC:
    """A stop flag set by ctrl+c (SIGINT) while a long search runs: ``with StopOnCtrlC() as
    stop: solve(..., should_stop=stop)``.

    Installing a handler (instead of letting KeyboardInterrupt unwind the search) lets the
    search stop at a clean point and report ``unknown`` with what it explored. A second
    ctrl+c raises KeyboardInterrupt at once (status 130), in case something does not poll.
    Only in the main thread; elsewhere the flag is never set.
    """

    def __init__(self) -> None:
        self.event = threading.Event()
        self._previous: Any = None

    def __enter__(self) -> StopOnCtrlC:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        if self.event.is_set():
            raise KeyboardInterrupt
        self.event.set()

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def __call__(self) -> bool:
        """True once ctrl+c was pressed (the ``should_stop`` of the searches)."""
        return self.event.is_set()


# --------------------------------------------------------------------------- input


def read_input(source: str) -> tuple[str, str]:
    """Read a text argument that names a file, or ``-`` for stdin.

    A level-file argument, which may also be a level ID or a bundled pack's name, is read
    by :func:`tui.cli.options.read_level_source` instead.

    Args:
        source: A path, or ``-``.

    Returns:
        ``(text, filename)`` where filename is ``"<stdin>"`` for ``-``.

    Raises:
        click.exceptions.Exit: With status 2 and a message if the file cannot be read.
    """
    with user_errors():
        if source == "-":
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
            text = data.decode("utf-8") if isinstance(data, bytes) else data
            return text, "<stdin>"
        if os.path.isdir(source):
            fail(f"{source}: is a directory")
        with open(source, encoding="utf-8") as handle:
            return handle.read(), source
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------- option types


class IntBetween(click.ParamType):
    """A whole number in a range, with the error in words (``must be between 2 and 64``).

    click's IntRange says ``1 is not in the range 2<=x<=64``; this type says what the number
    is for and which values are allowed.

    Args:
        low: Smallest allowed value, or None.
        high: Largest allowed value, or None.
        what: What the number is, for the message (``"the board size"``).
    """

    name = "integer"

    def __init__(
        self, low: int | None = None, high: int | None = None, what: str = "the number"
    ) -> None:
        self.low = low
        self.high = high
        self.what = what

    def allowed(self) -> str:
        """The allowed values in words (``between 2 and 64``, ``at least 1``)."""
        if self.low is not None and self.high is not None:
            return f"between {self.low} and {self.high}"
        if self.low is not None:
            return f"at least {self.low}"
        if self.high is not None:
            return f"at most {self.high}"
        return "a whole number"

    def not_a_number(self, value: Any) -> str:
        """The message for a value that is no whole number (a subclass may reword it)."""
        return f"{self.what} must be a whole number, not {value!r}"

    def out_of_range(self, number: int) -> str:
        """The message for a whole number outside the range (a subclass may reword it)."""
        return f"{self.what} must be {self.allowed()}, not {number}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """Parse and range-check ``value`` (also accepts an int, as defaults are)."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip(), 10)
            except ValueError:
                self.fail(self.not_a_number(value), param, ctx)
        if (self.low is not None and number < self.low) or (
            self.high is not None and number > self.high
        ):
            self.fail(self.out_of_range(number), param, ctx)
        return number


class Seconds(click.ParamType):
    """A time in seconds: a finite number greater than 0 (``0.5``, ``10``)."""

    name = "seconds"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        """Parse ``value``; ``0``, negative numbers, ``inf`` and ``nan`` are refused."""
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"give a number of seconds, not {value!r}", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"give a number of seconds greater than 0, not {value!r}", param, ctx)
        return seconds
