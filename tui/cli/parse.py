"""``termarcade parse``: parse, check and pretty-print TermCraft terms.

Terms come from the arguments or, when there are none (or for an argument ``-``, as in
every other command), from stdin, one term per line (blank lines are skipped), so the
command works in pipes::

    $ echo 'pair( apple , var(x) )' | termarcade parse
    pair(apple,var(x))

What is printed for each term (one block per term, in input order):

=====================  ===================================================
flags                  output per term
=====================  ===================================================
(none)                 the canonical text (no spaces, ``var(X)``)
``--size``             the Size (node count), an integer
``--json``             ``{"kind": ..., "name": ..., "args": [...]}``
``--json --size``      ``{"size": n, "term": {"kind", "name", "args"}}``
``--tree``             a rich tree (capped by ``--max-depth/--max-width``)
``--tree --size``      the tree with each node's Size after its label
=====================  ===================================================

``--tree`` together with ``--json`` is a usage error (exit 2).

A line that does not parse is reported on stderr (``file:line:col: message``,
the line, a caret and what was expected); the remaining terms are still
processed and the command exits 2 at the end.  Exit 0 when every term parsed.

Everything here is iterative (printing, JSON, tree building), so a term nested
100,000 levels deep goes through stdin without a ``RecursionError``.
"""

from __future__ import annotations

import functools
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import click

from core.text import plural
from tui.cli.options import OptionGroup, json_option
from tui.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_CLOSED_PIPE,
    EXIT_OK,
    IntBetween,
    bulk_command,
    error_line,
    format_parse_error,
    silence_closed_stdout,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rich.text import Text
    from rich.tree import Tree

    from core.termcraft.terms import Term

__all__ = ["EXIT_CLOSED_PIPE", "build_tree", "closed_pipe_safe", "iter_stdin_lines", "parse"]

_F = TypeVar("_F", bound=Callable[..., Any])


def closed_pipe_safe(func: _F) -> _F:
    """Make a command end quietly when stdout is a pipe whose reader has gone (``| head``).

    Without this, the next write raises BrokenPipeError, which would be reported as an
    internal error.  stdout is pointed at the null device so the interpreter's final flush
    does not complain either.

    Args:
        func: A click command callback.

    Returns:
        The wrapped callback.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BrokenPipeError:
            raise click.exceptions.Exit(silence_closed_stdout()) from None

    return wrapper  # type: ignore[return-value]


LABEL_MAX = 60
"""Longest node label shown in a tree before it is cut with "…"."""


def iter_stdin_lines() -> Iterator[tuple[int, str | None]]:
    """Yield ``(line_number, text)`` for each stdin line, streaming.

    Lines are decoded one by one so one bad line does not spoil the rest;
    a line that is not UTF-8 is yielded with ``text=None``.

    Yields:
        1-based line numbers and the decoded line without its line break.
    """
    stream = getattr(sys.stdin, "buffer", None) or sys.stdin
    for number, raw in enumerate(stream, start=1):
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield number, None
                continue
        yield number, raw.rstrip("\r\n")


def _node_label(term: Term, show_size: bool) -> Text:
    """The rich Text shown for one tree node (name, kind colour, optional Size)."""
    from rich.text import Text

    from core.termcraft.terms import COMPOUND, VAR

    name = term.name
    if len(name) > LABEL_MAX:
        name = name[: LABEL_MAX - 1] + "…"
    if term.kind == VAR:
        label = Text(f"var({name})", style="magenta")
    elif term.kind == COMPOUND:
        label = Text(name + ("()" if not term.args else ""), style="bold")
    elif term.name == "placeholder":
        label = Text(name, style="black on yellow")
    else:
        label = Text(name, style="green")
    if show_size:
        label.append(f"  size {term.size}", style="dim")
    return label


def build_tree(
    term: Term,
    *,
    max_depth: int = 12,
    max_width: int = 12,
    max_nodes: int = 400,
    show_size: bool = False,
) -> Tree:
    """Build a rich Tree for ``term``, breadth first and capped.

    The tree shows at most ``max_depth`` levels, ``max_width`` children per
    node and ``max_nodes`` nodes in all; whatever is cut is shown as a "…"
    node saying how much was left out, so a huge or 100,000-deep term gives a
    small tree.  No recursion is used.

    Args:
        term: The term to show.
        max_depth: Levels shown, the root being level 1.
        max_width: Children shown per node.
        max_nodes: Nodes shown in all (the "…" markers not counted).
        show_size: Append each node's Size to its label.

    Returns:
        The rich Tree (its root is the term's root).
    """
    from rich.tree import Tree

    root = Tree(_node_label(term, show_size), guide_style="dim")
    shown = 1
    queue: deque[tuple[Term, Tree, int]] = deque([(term, root, 1)])
    while queue:
        node, branch, depth = queue.popleft()
        if not node.args:
            continue
        if depth >= max_depth:
            hidden = node.size - 1
            branch.add(f"… {plural(hidden, 'more node')} below", style="dim")
            continue
        for index, child in enumerate(node.args):
            if index >= max_width or shown >= max_nodes:
                rest = len(node.args) - index
                branch.add(f"… {plural(rest, 'more argument')}", style="dim")
                break
            shown += 1
            queue.append((child, branch.add(_node_label(child, show_size)), depth + 1))
    return root


def _emit(
    term: Term, as_json: bool, as_tree: bool, with_size: bool, tree_caps: dict, console: object
) -> None:
    """Print one parsed term in the format the flags select (module docstring table)."""
    from core.termcraft.terms import to_json, to_str

    if as_tree:
        tree = build_tree(term, show_size=with_size, **tree_caps)
        console.print(tree)  # type: ignore[attr-defined]
    elif as_json and with_size:
        click.echo(f'{{"size": {term.size}, "term": {to_json(term)}}}')
    elif as_json:
        click.echo(to_json(term))
    elif with_size:
        click.echo(str(term.size))
    else:
        click.echo(to_str(term))


def _term_sources(terms: tuple[str, ...]) -> Iterator[tuple[str, int, str | None]]:
    """``(filename, line number, text)`` of each term to parse, in order.

    Args:
        terms: The arguments; ``-`` stands for stdin, one term per line (blank lines
            skipped), as ``-`` does in every other command.

    Yields:
        ``("<arg N>", 0, text)`` for an argument, ``("<stdin>", line, text)`` for a stdin
        line (text None when the line is not valid UTF-8).
    """
    for index, text in enumerate(terms, start=1):
        if text != "-":
            yield f"<arg {index}>", 0, text
            continue
        for number, line in iter_stdin_lines():
            if line is None or line.strip():
                yield "<stdin>", number, line


def _cap_option(spelling: str, what: str, default: int, help: str) -> Callable[[Any], Any]:
    """One of ``--tree``'s caps: a whole number from 1 (the ``max_...`` parameter)."""
    return click.option(
        spelling, type=IntBetween(1, what=what), default=default, show_default=True, help=help
    )


@click.command()
@click.argument("terms", nargs=-1, metavar="[TERM|-]...")
@json_option
@click.option("--tree", "as_tree", is_flag=True, help="Show each term as a tree.")
@click.option(
    "--size",
    "with_size",
    is_flag=True,
    help="Print the Size (node count); with --json/--tree, add it.",
)
@OptionGroup(
    "tree_caps",
    [
        _cap_option("--max-depth", "the tree depth", 12, "--tree: levels shown before '…'."),
        _cap_option(
            "--max-width", "the tree width", 12, "--tree: children shown per node before '…'."
        ),
        _cap_option("--max-nodes", "the number of nodes", 400, "--tree: nodes shown in all."),
    ],
    into=dict,
)
@closed_pipe_safe
def parse(
    terms: tuple[str, ...],
    as_json: bool,
    as_tree: bool,
    with_size: bool,
    tree_caps: dict[str, int],
) -> None:
    """Parse terms and print them canonically.

    TERMs come from the arguments, or from stdin one per line (blank lines
    skipped) when none are given or for a "-".  Output per term: the canonical text; with
    --size the Size; with --json {"kind","name","args"} (with --size:
    {"size","term"}); with --tree a tree (with --size: sizes on the nodes).

    A term that does not parse is reported on stderr with line, column and a
    caret; later terms are still printed, and the exit status is then 2.
    """
    bulk_command()  # a line can be a 10 MB term
    if as_tree and as_json:
        raise click.UsageError("--tree and --json cannot be combined")
    from grammar.errors import ParseError
    from grammar.terms import parse_term

    console = None
    if as_tree:
        from rich.console import Console

        console = Console(highlight=False)
    source = _term_sources(terms or ("-",))

    failed = False
    for filename, line_number, text in source:
        if text is None:
            click.echo(
                error_line(f"{filename}:{line_number}: the line is not valid UTF-8"), err=True
            )
            failed = True
            continue
        try:
            term = parse_term(text, filename=filename)
        except ParseError as error:
            if line_number and error.line:
                error.line = line_number  # a stdin line is line 1 of its own text
            click.echo(format_parse_error(error), err=True)
            failed = True
            continue
        except RecursionError:  # pragma: no cover - the parser is iterative
            click.echo(
                error_line(f"{filename}:{line_number}: the term is nested too deeply"), err=True
            )
            failed = True
            continue
        _emit(term, as_json, as_tree, with_size, tree_caps, console)
    sys.stdout.flush()
    raise click.exceptions.Exit(EXIT_BAD_INPUT if failed else EXIT_OK)
