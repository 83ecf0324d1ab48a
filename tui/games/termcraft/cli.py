"""``termarcade termcraft``: query, play, solve and lint TermCraft levels from the shell.

Sub-commands (docs/termcraft.md has every JSON shape):

``actions``  the moves available in a position (rewrites, placeholders, warnings), counted
             (``--count``), streamed as they are found (``--json``, ``--jsonl``) or as a
             table; ``--term -`` reads one term per line from stdin (batch mode).
``apply``    play a sequence of moves (``--rewrite N``, 1-based; ``--construct PATH=TERM``)
             and print the resulting state.
``solve``    run the level designer's solver on one level or on every level of a pack.
``lint``     report the level linter's issues.

Every command takes a position the same way (:func:`_position_options`, one
:class:`~tui.cli.options.OptionGroup` received as a :class:`Position`): a level file
(``LEVEL_FILE`` with ``--level N``, 1-based, or a level title; ``-`` reads the file from
stdin) or a term given directly (``--term TERM``, with ``--fuel`` default 1,
``--budget`` (or ``--construct-budget``) default 0 and an optional ``--target``; without a target no position counts as won).

Each command's JSON object is declared once as a :class:`~tui.cli.output.Row` (``*_ROW``
below: the keys in the order docs/termcraft.md gives, and the text form read from the same
values).  Moves are numbered from 1, as in the app; JSON lists keep engine order, so the Nth object
of ``rewrites`` is move N.  Nothing materialises every action: counts come from the engine's
counting form and listings from its lazy iterator, written out as they are found (one flush
per action), so memory stays bounded by the position and ``| head`` ends the process at once.

Exit status: 0 success, 1 a negative answer (illegal move, unsolvable or unknown, lint
errors, interrupted), 2 bad input or usage.  Heavy modules (the engine, the level loader,
rich) are imported inside the commands, so ``termarcade --help`` stays fast; Textual is never
imported.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

import click

from core.termcraft.terms import format_path, parse_path
from core.text import plural, shorten
from tui.cli.codec import move_json, state_json
from tui.cli.options import (
    LevelDeadlines,
    OptionGroup,
    OrderedOptions,
    OutOfTime,
    ReadingDeadline,
    budget_option,
    command_started,
    json_option,
    level_option,
    load_level_pack,
    max_states_option,
    options_in_order,
    pick_levels,
    time_limit_option,
)
from tui.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_NEGATIVE,
    EXIT_OK,
    Field,
    IntBetween,
    Row,
    StageProgress,
    StopOnCtrlC,
    bulk_command,
    console,
    emit_json,
    fail,
    search_progress,
    stage_watch,
    user_errors,
)
from tui.cli.parse import closed_pipe_safe

if TYPE_CHECKING:  # pragma: no cover - typing only
    from core.search import Watch
    from core.termcraft import Level, RewriteAction, State
    from core.termcraft.terms import Term

__all__ = [
    "ACTIONS_ROW",
    "APPLY_ROW",
    "COUNT_ROW",
    "ISSUE_ROW",
    "JSONL_SUMMARY_ROW",
    "LINT_ROW",
    "NO_TARGET_NAME",
    "REWRITE_ROW",
    "SOLVE_ROW",
    "UNREAD_ROW",
    "Limits",
    "Position",
    "action_json",
    "actions_json",
    "count_json",
    "plan_json",
    "termcraft",
]

UNWRITABLE_TARGET = "<no target>"
NO_TARGET_NAME = "no_target"
"""Base name of the placeholder target of ``--term`` without ``--target`` (made fresh per term)."""
"""Name of the stand-in target used with ``--term`` and no ``--target``.

It is not a legal identifier, so no term a player can write or build ever equals it: such
a position is never won.
"""

TERM_TITLE = "--term"
"""The title of the one level made from ``--term``."""

PREVIEW = 70
"""Characters of a term shown in tables before it is cut with "…"."""

TABLE_LIMIT = 200
"""Rows the ``actions`` table shows by default (``--limit`` changes it)."""

MIB = 1024 * 1024

DEFAULT_TIME_LIMIT = 10.0
"""Seconds ``solve`` gives one level (the solver's own default)."""
LINT_TIME_LIMIT = 5.0
"""Seconds the linter's solver run gives one level."""
DEFAULT_BUDGET = 5_000_000
"""Term nodes ``solve`` and ``lint`` may spend on one level: the solver's own default
(``core.termcraft.solver.DEFAULT_BUDGET``, not imported here to keep ``--help`` fast)."""


# --------------------------------------------------------------------------- positions


def _no_target(current: Term) -> Term:
    """A constant target that does not occur in ``current``, so the position is never won.

    It must be a valid identifier (levels check their names), hence a fresh suffix rather than
    a name the syntax cannot write.
    """
    from core.termcraft.terms import const, unique_subterms

    names = {node.name for node in unique_subterms(current)}
    name, n = NO_TARGET_NAME, 0
    while name in names:
        n += 1
        name = f"{NO_TARGET_NAME}_{n}"
    return const(name)


def _parse_term_arg(text: str, what: str) -> Term:
    """Parse a term given on the command line; a bad one exits 2 with the caret message."""
    from grammar.terms import parse_term

    with user_errors():
        return parse_term(text, filename=what)
    raise AssertionError("unreachable")  # pragma: no cover


@dataclasses.dataclass(frozen=True, slots=True)
class Position:
    """The position a command works on, as :func:`_position_options` gathers it: a level
    file with ``--level``, or ``--term``, and the values that override the level's."""

    level_file: str | None
    level: str | None
    term: str | None
    target: str | None
    fuel: int | None
    construct_budget: int | None
    every_level: bool = False
    """Without ``--level``, every level of the pack (solve, lint), not the first."""

    def levels(self) -> list[tuple[int, Level]]:
        """The levels chosen (:func:`_levels_from_source`)."""
        return _levels_from_source(self)

    def state(self) -> State:
        """The one position of ``actions`` and ``apply`` (level 1 by default)."""
        from core.termcraft import State

        ((_, chosen),) = self.levels()
        return State.from_level(chosen)


def _position_options(every_level: bool) -> OptionGroup:
    """The options that choose a position, shared by every command (the ``position``
    parameter, a :class:`Position`).

    The level's budget (the seed's budget: Size available to constructs) is ``--budget``, also
    spelled ``--construct-budget``; the search's work budget of ``solve`` and ``lint`` is the
    shared ``--work-budget`` (:func:`budget_option`).

    Args:
        every_level: Without ``--level``, take every level of the pack (solve, lint)
            instead of the first (actions, apply).
    """
    default = "every level" if every_level else "1"
    spellings = ["--budget", "--construct-budget"]
    options = [
        click.argument("level_file", required=False, metavar="[LEVEL_FILE]"),
        level_option(default),
        click.option(
            "--term",
            "-t",
            "term",
            metavar="TERM",
            help="Use this term as the current term instead of a level file.",
        ),
        click.option("--target", metavar="TERM", help="Target term (default: the level's)."),
        click.option(
            "--fuel",
            type=click.IntRange(0),
            default=None,
            help="Fuel (default: the level's; 1 with --term).",
        ),
        click.option(
            *spellings,
            "construct_budget",
            type=click.IntRange(0),
            default=None,
            help="The level's budget: the Size constructs may spend (default: the level's; "
            "0 with --term).",
        ),
    ]
    return OptionGroup(
        "position", options, into=lambda **chosen: Position(**chosen, every_level=every_level)
    )


def _levels_from_source(position: Position) -> list[tuple[int, Level]]:
    """The levels a command works on: from ``LEVEL_FILE [--level]`` or ``--term``.

    ``--target``, ``--fuel`` and ``--budget`` override the level's values.

    Returns:
        ``(1-based number, level)`` pairs; ``--term`` makes one level titled ``--term``.
    """
    from core.termcraft import Level

    level_file, level, term = position.level_file, position.level, position.term
    fuel, budget = position.fuel, position.construct_budget
    if level_file is not None and term is not None:
        fail("give either LEVEL_FILE or --term, not both")
    if level_file is None and term is None:
        fail("give a LEVEL_FILE or --term TERM")
    target = position.target
    goal = _parse_term_arg(target, "<--target>") if target is not None else None
    if term is not None:
        if level is not None:
            fail("--level needs a LEVEL_FILE")
        current = _parse_term_arg(term, "<--term>")
        return [
            (
                1,
                Level(
                    TERM_TITLE,
                    current,
                    goal if goal is not None else _no_target(current),
                    1 if fuel is None else fuel,
                    0 if budget is None else budget,
                ),
            )
        ]
    pack = _load_pack(level_file)  # type: ignore[arg-type]
    chosen = pick_levels(pack, level if level is not None or position.every_level else "1")
    changes: dict[str, Any] = {}
    if goal is not None:
        changes["target"] = goal
    if fuel is not None:
        changes["fuel"] = fuel
    if budget is not None:
        changes["budget"] = budget
    return [(number, dataclasses.replace(lvl, **changes)) for number, lvl in chosen]


def _load_pack(source: str) -> Any:
    """The pack a LEVEL_FILE argument names (:func:`load_level_pack`); a level ID's level is
    used as unpacked, not printed and read again (that doubled the cost of a 4 MiB ID)."""
    import os

    from tui.ids import looks_like_id

    if source != "-" and not os.path.exists(source) and looks_like_id(source):
        from core.levelpack import LevelPack
        from tui.cli import resolve_level_id

        resolved = resolve_level_id(source, "termcraft")
        return LevelPack("", levels=(resolved.level,), game="termcraft")
    return load_level_pack(source, "termcraft")


# --------------------------------------------------------------------------- JSON rows


def _apply_text(row: Mapping[str, Any]) -> Iterator[str]:
    """``apply``'s text: the term, fuel, budget and status, aligned."""
    for key in ("term", "fuel", "budget", "status"):
        yield f"{key + ':':<8}{row[key]}"


def _solve_text(row: Mapping[str, Any]) -> Iterator[str]:
    """``solve``'s text: the verdict with its count (and the bound that ended it), then the
    plan, one step a line."""
    why = f", {row['why']}: {_bound_text(row['spent'])}" if row["why"] else ""
    proved = "proved, every move searched: " if row["status"] == "unsolvable" else ""
    yield (
        f"level {row['level']} {row['title']!r}: {row['status']} "
        f"({proved}{plural(row['explored'], 'state')} explored{why})"
    )
    for index, step in enumerate(row["plan"], start=1):
        yield f"  {index}. {_describe_step(step)}"


def _lint_text(row: Mapping[str, Any]) -> Iterator[str]:
    """``lint``'s text: ``ok``, or one line per issue."""
    head = f"level {row['level']} {row['title']!r}:"
    if not row["issues"]:
        yield head + " ok"
        return
    yield head
    for issue in row["issues"]:
        at = f" (at {format_path(issue.path)})" if issue.path is not None else ""
        yield f"  {issue.severity} {issue.code}: {issue.message}{at}"


def plan_json(plan: Iterable[Any]) -> list[Any]:
    """Solver plan items in the engine's move form (:func:`core.termcraft.game.move_to_json`).

    Returns:
        ``{"kind": "rewrite", "rule", "site", "sigma"}`` or
        ``{"kind": "construct", "site", "term"}`` per step.
    """
    from core.termcraft.game import GAME

    return [move_json(GAME, step) for step in plan]


REWRITE_ROW = Row("kind", "rule", "site", "sigma", "replacement", "result")
"""One rewrite of ``actions``: the engine's move (``kind``, ``rule``, ``site``, ``sigma``,
:func:`core.termcraft.game.move_to_json`), then the derived ``replacement`` and ``result``."""
ACTIONS_ROW = Row("rewrites", "placeholders", "warnings")
"""``actions --json`` (its ``rewrites`` streamed as they are found)."""
JSONL_SUMMARY_ROW = Row("count", "placeholders", "warnings")
"""The last line of ``actions --jsonl``."""
COUNT_ROW = Row("rewrites", "placeholders")
"""``actions --count``."""
APPLY_ROW = Row("term", "target", "fuel", "budget", "status", text=_apply_text)
"""``apply``: the engine's state, then :data:`APPLY_DERIVED`."""
SOLVE_ROW = Row(
    "level",
    "title",
    "status",
    Field("plan", plan_json),
    "explored",
    "reason",
    "why",
    "spent",
    text=_solve_text,
)
"""One level of ``solve`` (``plan`` holds the solver's steps; JSON prints the engine's moves)."""
ISSUE_ROW = Row(
    "severity", "code", "message", Field("path", lambda path: None if path is None else list(path))
)
"""One issue of ``lint``."""
LINT_ROW = Row(
    "level",
    "title",
    Field("issues", lambda issues: [ISSUE_ROW.json(ISSUE_ROW.of(issue)) for issue in issues]),
    text=_lint_text,
)
"""One level of ``lint`` (``issues`` holds the linter's issues)."""
UNREAD_ROW = Row("level", "status", "reason", "why")
"""What ``solve`` and ``lint --json`` print when the time limit ran out while reading."""


def action_json(action: RewriteAction, result: str) -> dict[str, Any]:
    """One rewrite of ``actions --json`` (:data:`REWRITE_ROW`): the engine's move
    (``{"kind": "rewrite", "rule", "site", "sigma"}``,
    :func:`core.termcraft.game.move_to_json`), then the derived ``"replacement"`` and
    ``"result"``.

    Args:
        action: The rewrite action.
        result: The canonical text of the whole term after the move.

    Returns:
        Paths as lists of 0-based child indices, terms as canonical text.
    """
    from core.termcraft.game import GAME
    from core.termcraft.terms import to_str

    return REWRITE_ROW(
        **move_json(GAME, action, replacement=to_str(action.replacement), result=result)
    )


def _rewrites_json(
    state: State, watch: Watch, limit: int | None = None
) -> Iterator[dict[str, Any]]:
    """The rewrites of ``state`` as JSON objects, lazily; each result text is made when its
    object is (by splicing the replacement into the term's text, not by building a term)."""
    from itertools import islice

    from core.termcraft import iter_rewrite_actions
    from core.termcraft.links import TextSplicer
    from core.termcraft.terms import to_str

    text = TextSplicer(state.term)
    for action in islice(iter_rewrite_actions(state, watch=watch), limit):
        yield action_json(action, text.replaced(action.site, to_str(action.replacement)))


def actions_json(state: State) -> dict[str, Any]:
    """The ``actions --json`` object of a state (:data:`ACTIONS_ROW`), materialised (small
    states; the command itself streams it).

    Args:
        state: The position.

    Returns:
        ``{"rewrites": [{"rule", "site", "sigma", "replacement", "result"}],
        "placeholders": [path, ...], "warnings": [str, ...]}``.
    """
    from core.search import NO_WATCH

    return ACTIONS_ROW(rewrites=list(_rewrites_json(state, NO_WATCH)), **_tail_json(state))


def _tail_json(state: State) -> dict[str, Any]:
    """The ``placeholders`` and ``warnings`` of a position."""
    from core.termcraft import placeholder_sites, warnings

    return {
        "placeholders": [list(path) for path in placeholder_sites(state.term)],
        "warnings": list(warnings(state.term)),
    }


def count_json(state: State, watch: Watch | None = None) -> dict[str, int]:
    """The ``actions --count`` object (:data:`COUNT_ROW`): ``{"rewrites": n,
    "placeholders": n}``, counted without listing the actions."""
    from core.search import NO_WATCH
    from core.termcraft import count_rewrite_actions, placeholder_sites

    return COUNT_ROW(
        rewrites=count_rewrite_actions(state, watch or NO_WATCH),
        placeholders=len(placeholder_sites(state.term)),
    )


# --------------------------------------------------------------------------- the group


@click.group()
def termcraft() -> None:
    """TermCraft: inspect positions, play moves, solve and lint levels.

    A position is LEVEL_FILE with --level N (1-based, or a level title; "-" reads the file
    from stdin), or --term TERM with --fuel (default 1), --budget (default 0; also
    spelled --construct-budget) and --target
    (default: none, never won).  Moves are numbered from 1.  Exit: 0 ok, 1 negative answer,
    2 bad input.
    """
    bulk_command()  # positions can be 10 MB: see tui.cli.output.bulk_command


# --------------------------------------------------------------------------- actions


@termcraft.command()
@_position_options(every_level=False)
@json_option
@click.option(
    "--jsonl",
    "as_jsonl",
    is_flag=True,
    help="One JSON object per rewrite per line, then one summary line.",
)
@click.option(
    "--count",
    is_flag=True,
    help='Print only {"rewrites": n, "placeholders": n} (JSON), without listing.',
)
@click.option(
    "--limit",
    type=IntBetween(0, what="the number of rewrites"),
    default=None,
    metavar="N",
    help=f"List at most N rewrites, 0: all [table default: {TABLE_LIMIT}; JSON: all].",
)
@closed_pipe_safe
def actions(
    position: Position, as_json: bool, as_jsonl: bool, count: bool, limit: int | None
) -> None:
    """List the moves available in a position.

    Rewrites are numbered from 1 in engine order (rule, then site, then substitution): the
    number is what `apply --rewrite` takes, and the Nth object of the JSON "rewrites" list
    is move N.  --json prints one object per position, its "rewrites" streamed as found.  With --term -, terms are read from stdin, one per line, and one result is
    printed per line; a bad line is reported on stderr, the others still print, and the
    exit status is then 2.  ctrl+c stops a long analysis.
    """
    if sum((as_json, as_jsonl, count)) > 1:
        fail("choose one of --json, --jsonl and --count")
    mode = "count" if count else "json" if as_json else "jsonl" if as_jsonl else "table"
    if position.term == "-" and position.level_file is None:
        raise click.exceptions.Exit(_actions_batch(position, mode, limit))
    _show_actions(position.state(), mode, limit)


def _show_actions(state: State, mode: str, limit: int | None) -> None:
    """Print one position's actions: a count, a streamed JSON object or lines, or a table."""
    if limit == 0:  # --limit 0: every rewrite, as algebrawl solve --limit 0 lists every solution
        limit = sys.maxsize
    progress = StageProgress()
    watch = stage_watch(progress)
    try:
        if mode == "count":
            counts = count_json(state, watch)
            progress.done()
            emit_json(counts)
        elif mode == "json":
            _stream_json(state, watch, limit, progress)
        elif mode == "jsonl":
            _stream_jsonl(state, watch, limit, progress)
        else:
            _print_actions_table(state, watch, TABLE_LIMIT if limit is None else limit, progress)
    finally:
        progress.done()


def _stream_json(state: State, watch: Watch, limit: int | None, progress: StageProgress) -> None:
    """``--json``: the documented object, one line, its rewrites written as they are found.

    The text is exactly ``json.dumps`` of the whole :data:`ACTIONS_ROW`, produced piece by
    piece: the row with no rewrite, cut at its empty list (the first key's value).
    """
    empty = ACTIONS_ROW.json(ACTIONS_ROW(rewrites=[], **_tail_json(state)))
    head, tail = json.dumps(empty, ensure_ascii=False).split("[]", 1)
    click.echo(head + "[", nl=False)
    separator = ""
    for obj in _rewrites_json(state, watch, limit):
        progress.done()
        click.echo(separator + json.dumps(obj, ensure_ascii=False), nl=False)  # flushes
        separator = ", "
    click.echo("]" + tail)


def _stream_jsonl(state: State, watch: Watch, limit: int | None, progress: StageProgress) -> None:
    """``--jsonl``: one line per rewrite (line N is move N), then
    ``{"count": n, "placeholders": [...], "warnings": [...]}``."""
    n = 0
    for obj in _rewrites_json(state, watch, limit):
        progress.done()
        emit_json(obj)  # one line, flushed
        n += 1
    emit_json(JSONL_SUMMARY_ROW.json(JSONL_SUMMARY_ROW(count=n, **_tail_json(state))))


def _print_actions_table(state: State, watch: Watch, limit: int, progress: StageProgress) -> None:
    """The readable form of ``actions``: the first ``limit`` rewrites (numbered from 1) in a
    table titled with the total count, then placeholders and warnings."""
    from itertools import islice

    from rich.table import Table

    from core.termcraft import (
        count_rewrite_actions,
        iter_rewrite_actions,
        placeholder_sites,
        warnings,
    )
    from core.termcraft.terms import to_str

    total = count_rewrite_actions(state, watch)
    rows = list(islice(iter_rewrite_actions(state, watch=watch), limit))
    progress.done()
    out = console()
    title = f"{plural(total, 'rewrite action')} (fuel {state.fuel}, budget {state.budget})"
    if len(rows) < total:
        title += f"; the first {len(rows):,} shown (--limit, --json)"
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("rule")
    for name in ("at", "with", "becomes"):
        table.add_column(name, overflow="fold")
    for number, action in enumerate(rows, start=1):
        binds = ", ".join(f"{name}={shorten(to_str(value), 30)}" for name, value in action.sigma)
        table.add_row(
            str(number),
            shorten(str(action.rule), 50),
            format_path(action.site),
            binds or "-",
            shorten(to_str(action.replacement), 40),
        )
    if rows:
        out.print(table)
    else:
        out.print(title if state.fuel else "no rewrite action (no fuel left)")
    sites = placeholder_sites(state.term)
    if sites:
        out.print(
            f"placeholders (construct, budget {state.budget}): "
            + ", ".join(format_path(path) for path in sites)
        )
    else:
        out.print("no placeholder")
    for warning in warnings(state.term):
        out.print(f"warning: {warning}", style="yellow")


def _actions_batch(position: Position, mode: str, limit: int | None) -> int:
    """``actions --term -``: one position per stdin line; returns the exit status."""
    from core.termcraft import State
    from core.termcraft.terms import const
    from grammar.errors import ParseError
    from grammar.terms import parse_term
    from tui.cli.parse import iter_stdin_lines

    # A State is not a Level and does not check names: a name the syntax cannot write can never
    # occur in a parsed term, and costs no walk over each (possibly huge) line.
    target, fuel, budget = position.target, position.fuel, position.construct_budget
    goal = _parse_term_arg(target, "<--target>") if target is not None else const(UNWRITABLE_TARGET)
    fuel = 1 if fuel is None else fuel
    budget = 0 if budget is None else budget
    failed = False
    for number, text in iter_stdin_lines():
        if text is not None and not text.strip():
            continue
        if text is None:
            click.echo(f"error: <stdin>:{number}: the line is not valid UTF-8", err=True)
            failed = True
            continue
        try:
            current = parse_term(text, filename="<stdin>")
        except ParseError as error:  # reported, and the other lines still run
            if error.line:
                error.line = number
            click.echo(error.render(), err=True)
            failed = True
            continue
        _show_actions(State(current, goal, fuel, budget), mode, limit)
    return EXIT_BAD_INPUT if failed else EXIT_OK


# --------------------------------------------------------------------------- apply


APPLY_DERIVED = ("status",)
"""The keys ``apply --json`` adds after the engine's state (``{"term", "target", "fuel",
"budget"}``, :meth:`core.termcraft.game.TermCraftGame.state_to_json`)."""


def _state_json(state: State) -> dict[str, Any]:
    """``apply --json`` (:data:`APPLY_ROW`): the engine's state, then its status."""
    from core.termcraft import status
    from core.termcraft.game import GAME

    return APPLY_ROW(**state_json(GAME, state, status=status(state)))


def _illegal(number: int, move: str, reason: str) -> NoReturn:
    fail(f"move {number} ({move}) is illegal: {reason}", EXIT_NEGATIVE)


def _rewrite_move(state: State, number: int, label: str, value: int) -> Any:
    """The ``value``-th (1-based) rewrite of ``state``, found without listing the others."""
    from core.termcraft import count_rewrite_actions, nth_rewrite_action

    try:
        return nth_rewrite_action(state, value - 1)
    except IndexError:
        total = count_rewrite_actions(state)
        if state.fuel <= 0:
            why = "no fuel left"
        elif not total:
            why = "no rewrite action is available"
        else:
            why = (
                f"there {'is' if total == 1 else 'are'} {plural(total, 'rewrite action')}, "
                f"numbered 1 to {total:,}"
            )
        _illegal(number, label, why)


def _construct_move(number: int, value: str) -> Any:
    """The construct written ``PATH=TERM``."""
    from core.termcraft import ConstructAction

    where, sep, text = value.partition("=")
    if not sep:
        fail(f"--construct {value!r}: write PATH=TERM, e.g. 4/0=done")
    try:
        site = parse_path(where)
    except ValueError as error:
        fail(f"--construct {value!r}: {error}")
    return ConstructAction(site, _parse_term_arg(text, f"<--construct {number}>"))


@termcraft.command(cls=OrderedOptions)
@_position_options(every_level=False)
@click.option(
    "--rewrite",
    "-r",
    "rewrite",
    type=click.IntRange(1),
    multiple=True,
    metavar="N",
    help="Apply rewrite number N (1-based, as listed by `actions`).",
)
@click.option(
    "--construct",
    "-c",
    "construct",
    multiple=True,
    metavar="PATH=TERM",
    help="Replace the placeholder at PATH (e.g. 4/0) by TERM.",
)
@json_option
@click.pass_context
@closed_pipe_safe
def apply(
    ctx: click.Context,
    position: Position,
    rewrite: tuple[int, ...],
    construct: tuple[str, ...],
    as_json: bool,
) -> None:
    """Play moves in the order given and print the resulting state.

    --rewrite N applies the Nth rewrite (1-based, as `actions` numbers them) of the
    position at that moment; --construct PATH=TERM fills a placeholder (PATH like 4/0, or
    root).  An illegal move stops with exit 1 and says why; a malformed move is bad input
    (exit 2).  --json prints {"term", "target", "fuel", "budget", "status"}.
    """
    from core.termcraft import IllegalMove, ensure_not_won
    from core.termcraft import apply as play

    state = position.state()
    for number, (kind, value) in enumerate(
        options_in_order(ctx, rewrite=rewrite, construct=construct), start=1
    ):
        label = f"--{kind} {value}"
        try:
            ensure_not_won(state)  # the engine's reason first, before index checks
        except IllegalMove as error:
            _illegal(number, label, str(error))
        if kind == "rewrite":
            action = _rewrite_move(state, number, label, value)
        else:
            action = _construct_move(number, value)
        try:
            state = play(state, action)
        except IllegalMove as error:
            _illegal(number, label, str(error))
    APPLY_ROW.emit(_state_json(state), as_json)


# --------------------------------------------------------------------------- solve


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """The bounds of one level's search in ``solve`` and ``lint``, as :func:`_limit_options`
    gathers them (None: the solver's default)."""

    max_states: int | None
    max_memory: int | None
    """MiB."""
    time_limit: float
    budget: int
    """Term nodes; 0: none."""

    def solver_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for the solver and the linter: the limits given (else their
        defaults) and the work budget (0: none)."""
        kwargs: dict[str, Any] = {"budget": self.budget or None}
        if self.max_states is not None:
            kwargs["max_states"] = self.max_states
        if self.max_memory is not None:
            kwargs["max_memory"] = self.max_memory * MIB
        return kwargs


def _limit_options(time_limit: float) -> OptionGroup:
    """The solver's limits, shared by ``solve`` and ``lint`` (the ``limits`` parameter, a
    :class:`Limits`).

    Args:
        time_limit: The command's default ``--time-limit``.
    """
    options = [
        max_states_option(None, "200,000"),
        click.option(
            "--max-memory",
            type=click.IntRange(1),
            default=None,
            metavar="MIB",
            help="Give up (unknown) once the kept states are estimated to take this "
            "many MiB [default: 256].",
        ),
        time_limit_option(time_limit),
        budget_option(DEFAULT_BUDGET),
    ]
    return OptionGroup("limits", options, into=Limits)


def _read_levels(
    deadlines: LevelDeadlines, as_json: bool, time_limit: float, read: Callable[[], Any]
) -> list[tuple[int, Level]]:
    """:func:`_levels_from_source` within the first level's deadline; past it, the answer is
    unknown (exit 1) and says that reading the level used up the time limit."""
    try:
        with ReadingDeadline(deadlines.first or 0.0):
            levels: list[tuple[int, Level]] = read()
            return levels
    except OutOfTime:
        pass
    if as_json:
        unread = UNREAD_ROW(level=None, status="unknown", reason="limit", why="time limit")
        emit_json(UNREAD_ROW.json(unread))
    fail(
        f"the time limit ({time_limit:g} s) ran out while reading the level: unknown",
        EXIT_NEGATIVE,
    )


def _describe_step(step: Any) -> str:
    from core.termcraft import ConstructAction
    from core.termcraft.terms import to_str

    if isinstance(step, ConstructAction):
        return f"construct {shorten(to_str(step.term), 50)} at {format_path(step.site)}"
    binds = ", ".join(f"{n}={shorten(to_str(t), 30)}" for n, t in step.sigma)
    rule = shorten(str(step.rule), 50)
    return f"rewrite {rule} (rule at {format_path(step.rule.path)}) at {format_path(step.site)}" + (
        f" with {binds}" if binds else ""
    )


@termcraft.command()
@_position_options(every_level=True)
@_limit_options(DEFAULT_TIME_LIMIT)
@json_option
@closed_pipe_safe
def solve(position: Position, limits: Limits, as_json: bool) -> None:
    """Solve levels: shortest plan, or proved unsolvable, or unknown and why.

    Without --level, every level of LEVEL_FILE.  Constructs try every ground term over the
    level's symbols that fits the level's budget (--budget), which loses no plan, so
    "unsolvable" means the whole space was searched.  --work-budget counts term
    nodes: each state the search expands spends its term's Size, each successor it makes
    the nodes it rebuilds.  The time limit of the
    first level counts from the command's start (reading the level included).  An unknown
    answer says why ("why": time limit, work budget, state limit, memory limit, cancelled,
    or "search space restricted to ..." for a level with a one-argument compound named var).  Exit 0 when every chosen level is solved, 1 when one is unsolvable
    or unknown (also after ctrl+c, which stops the search cleanly), 2 on bad input.
    """
    deadlines = LevelDeadlines(limits.time_limit)
    chosen = _read_levels(deadlines, as_json, limits.time_limit, position.levels)
    kwargs = limits.solver_kwargs()
    exit_code = EXIT_OK
    show_bar = not as_json
    with StopOnCtrlC() as cancel:
        for number, lvl in chosen:
            if cancel():
                break
            kwargs["deadline"] = deadlines.next()
            result = _run_with_progress(lvl, number, kwargs, cancel, show_bar)
            if result.status != "solved":
                exit_code = EXIT_NEGATIVE
            SOLVE_ROW.emit(SOLVE_ROW.of(result, level=number, title=lvl.title), as_json)
        if cancel():
            fail("interrupted: the search was stopped", EXIT_NEGATIVE)
    raise click.exceptions.Exit(exit_code)


def _bound_text(spent: int) -> str:
    """How far the search went when a bound stopped it: ``12,000 nodes spent, 2.0 s``
    (seconds since the command began: reading the level counts)."""
    import time

    return f"{spent:,} nodes spent, {time.monotonic() - command_started():.1f} s"


def _run_with_progress(
    level: Level, number: int, kwargs: dict[str, Any], cancel: StopOnCtrlC, show_bar: bool
) -> Any:
    """Run the solver, with a rich progress bar on stderr when ``show_bar`` (a deadline that
    reading the level already passed gives an unknown result at once)."""
    from core.termcraft import solve as solve_level
    from core.termcraft.solver import DEFAULT_MAX_STATES

    total = kwargs.get("max_states", DEFAULT_MAX_STATES)
    label = f"level {number}: {shorten(level.title, 30)}"
    with search_progress(label, total, show_bar) as progress:
        return solve_level(level, should_stop=cancel, progress=progress, **kwargs)


# --------------------------------------------------------------------------- lint


@termcraft.command()
@_position_options(every_level=True)
@click.option(
    "--solver/--no-solver",
    "run_solver",
    default=True,
    show_default=True,
    help="Also run the solver (unsolvable and par checks).",
)
@_limit_options(LINT_TIME_LIMIT)
@json_option
@closed_pipe_safe
def lint(position: Position, run_solver: bool, limits: Limits, as_json: bool) -> None:
    """Report level-design issues (illegal rules, non-ground axioms, misused placeholders,
    levels already won, unreachable resources ...).

    Without --level, every level of LEVEL_FILE.  --time-limit and --work-budget (term nodes, as
    in solve) bound the whole check of a level, its analysis included; the first level's
    limit counts from the command's start.  Exit 1 when some issue has severity "error"
    (or after ctrl+c, or when a bound stops the check before the solver), 0 otherwise
    (warnings and notes only), 2 on bad input.
    """
    from core.search import Interrupted
    from core.termcraft import lint as lint_level

    deadlines = LevelDeadlines(limits.time_limit)
    chosen = _read_levels(deadlines, as_json, limits.time_limit, position.levels)
    kwargs = limits.solver_kwargs()
    exit_code = EXIT_OK
    with StopOnCtrlC() as cancel:
        for number, lvl in chosen:
            progress = StageProgress()
            kwargs["deadline"] = deadlines.next()
            try:
                issues = lint_level(
                    lvl, run_solver=run_solver, should_stop=cancel, progress=progress, **kwargs
                )
            except Interrupted as stop:
                fail(f"{_stopped_by(stop.reason)}: the level was not checked", EXIT_NEGATIVE)
            finally:
                progress.done()
            if any(issue.severity == "error" for issue in issues):
                exit_code = EXIT_NEGATIVE
            LINT_ROW.emit(LINT_ROW(level=number, title=lvl.title, issues=issues), as_json)
        if cancel():
            fail("interrupted: the solver was stopped", EXIT_NEGATIVE)
    raise click.exceptions.Exit(exit_code)


def _stopped_by(reason: str) -> str:
    """The words for a bound that stopped a check (``Interrupted.reason``)."""
    from core.termcraft.solver import WHY

    return "interrupted" if reason == "cancelled" else f"stopped by the {WHY.get(reason, reason)}"
