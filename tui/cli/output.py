"""Output and error helpers shared by every CLI command.

Conventions (README, "Command line"): ``--json`` prints one JSON document per line with the keys
in the fixed order the command builds them; exit code 0 means success, 1 a negative answer
(unsolvable, invalid), 2 bad input or usage. Errors go to stderr, never as a traceback.

This module imports only click and the standard library, so commands stay fast to start.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from contextlib import contextmanager
from pathlib import PurePath
from typing import IO, Any, Iterator, NoReturn

import click

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_NEGATIVE",
    "EXIT_OK",
    "emit_json",
    "fail",
    "is_parse_error",
    "read_input",
    "report_parse_error",
    "to_jsonable",
    "user_errors",
]

EXIT_OK = 0
"""Success."""
EXIT_NEGATIVE = 1
"""A negative answer: unsolvable, invalid, not equal ..."""
EXIT_BAD_INPUT = 2
"""Bad input or usage (also click's own usage errors)."""


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
    """Print one JSON document (a single line unless ``indent`` is given).

    Keys keep the order in which the command built the dict, so output is stable from run to
    run; non-ASCII text is written as is (``ensure_ascii=False``).

    Args:
        obj: The value to print (converted with :func:`to_jsonable`).
        file: Where to write; stdout by default.
        indent: Pretty-print with this indent.
    """
    text = json.dumps(to_jsonable(obj), ensure_ascii=False, indent=indent)
    click.echo(text, file=file)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` to stderr and exit.

    Args:
        message: What went wrong, for a person.
        code: Exit status (2 bad input by default, 1 for a negative answer).

    Raises:
        click.exceptions.Exit: Always; click turns it into the exit status.
    """
    click.echo(f"error: {message}", err=True)
    raise click.exceptions.Exit(code)


def is_parse_error(error: BaseException) -> bool:
    """True for errors that know how to render themselves (``grammar.errors.ParseError``).

    Duck-typed so that this module does not import the grammar package.
    """
    return callable(getattr(error, "render", None))


def report_parse_error(error: BaseException, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print a parse error (``file:line:col: message``, the line, a caret) to stderr and exit.

    Args:
        error: An error with a ``render()`` method.
        code: Exit status, 2 by default.

    Raises:
        click.exceptions.Exit: Always.
    """
    text = str(error.render()) if is_parse_error(error) else str(error)  # type: ignore[attr-defined]
    click.echo(text.rstrip("\n"), err=True)
    raise click.exceptions.Exit(code)


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


def read_input(source: str) -> tuple[str, str]:
    """Read a text argument that names a file, or ``-`` for stdin.

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


EXIT_CLOSED_PIPE = 141
"""Exit status when the reader of stdout went away (``| head``): 128 + SIGPIPE, as a shell
reports a program killed by SIGPIPE."""


def silence_closed_stdout() -> int:
    """Point stdout at the null device after its reader went away (``| head``).

    The interpreter's final flush would otherwise raise BrokenPipeError again.

    Returns:
        The exit status to end with (:data:`EXIT_CLOSED_PIPE`).
    """
    import os
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real fd
        pass
    return EXIT_CLOSED_PIPE
