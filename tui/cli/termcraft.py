"""``termarcade termcraft``: query, play, solve and lint TermCraft levels from the shell.

Sub-commands (see the README "Command line" section for every JSON shape):

``actions``  the moves available in a position (rewrites, placeholders, warnings);
             ``--term -`` reads one term per line from stdin (batch mode).
``apply``    play a sequence of moves (``--rewrite INDEX``, ``--construct PATH=TERM``)
             and print the resulting state.
``solve``    run the level designer's solver on one level or on every level of a pack.
``lint``     report the level linter's issues.

A position comes either from a level file (``LEVEL_FILE`` with ``--level N``, 1-based, or a
level title; ``-`` reads the file from stdin) or from a term given directly
(``--term TERM``, with ``--fuel`` default 1, ``--budget`` default 0 and an optional
``--target``; without a target no position counts as won).

Exit status: 0 success, 1 a negative answer (illegal move, unsolvable or unknown, lint
errors), 2 bad input or usage.  Heavy modules (the engine, the level loader, rich) are
imported inside the commands, so ``termarcade --help`` stays fast; Textual is never imported.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterable, NoReturn, Optional

import click

from core.terms import format_path, parse_path
from core.text import shorten
from tui.cli.output import EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, emit_json, fail
from tui.cli.parse import closed_pipe_safe

if TYPE_CHECKING:  # pragma: no cover - typing only
    from core.termcraft import Level, State
    from core.terms import Term

__all__ = [
    "termcraft",
    "actions_json",
    "count_json",
    "plan_json",
    "pick_levels",
    "NO_TARGET_NAME",
]

NO_TARGET_NAME = "<no target>"
"""Name of the stand-in target used with ``--term`` and no ``--target``.

It is not a legal identifier, so no term a player can write or build ever equals it: such
a position is never won.
"""

PREVIEW = 70
"""Characters of a term shown in tables before it is cut with "…"."""


# --------------------------------------------------------------------------- helpers


def _short(text: str, limit: int = PREVIEW) -> str:
    """Cut ``text`` to ``limit`` characters with "…"."""
    return shorten(text, limit)


_path_text = format_path


def _no_target() -> "Term":
    from core.terms import const

    return const(NO_TARGET_NAME)


def _parse_term_arg(text: str, what: str) -> "Term":
    """Parse a term given on the command line; a bad one exits 2 with the caret message."""
    from grammar.errors import ParseError
    from grammar.terms import parse_term

    try:
        return parse_term(text, filename=what)
    except ParseError as error:
        click.echo(error.render(), err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from None


def _load_pack(level_file: str) -> Any:
    """Load a level file (``-`` = stdin); errors exit 2 with file, line, column and caret."""
    from grammar.errors import ParseError
    from grammar.levels import load_pack, load_pack_file

    try:
        if level_file == "-":
            data = _read_stdin_bytes()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as error:
                fail(f"<stdin>: the level file is not UTF-8 text (byte {error.start})")
            return load_pack(text, filename="<stdin>")
        if os.path.isdir(level_file):
            fail(f"{level_file}: is a directory, not a level file")
        return load_pack_file(level_file)
    except ParseError as error:
        click.echo(error.render(), err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from None
    except RecursionError:  # pragma: no cover - the loader is iterative
        fail(f"{level_file}: input nested too deeply")


def _read_stdin_bytes() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        return stream.read()
    return sys.stdin.read().encode("utf-8")  # pragma: no cover - text-only stdin


def pick_levels(pack: Any, spec: Optional[str]) -> list[tuple[int, "Level"]]:
    """Select levels of a pack by ``--level``.

    Args:
        pack: The loaded pack.
        spec: ``None`` for every level; a 1-based number; or a level title (exact match
            first, then case-insensitive).

    Returns:
        ``(1-based number, level)`` pairs.

    Raises:
        click.exceptions.Exit: With status 2 and a message when nothing matches or the
            pack is not a TermCraft pack.
    """
    from core.termcraft import Level

    levels = list(pack.levels)
    if not levels:
        fail("the level file holds no level")
    bad = next((lvl for lvl in levels if not isinstance(lvl, Level)), None)
    if bad is not None:
        game = getattr(pack, "game", "") or "another game"
        fail(f"this is a level file for {game}, not for termcraft")
    if spec is None:
        return list(enumerate(levels, start=1))
    text = spec.strip()
    if text.isascii() and text.isdigit():
        number = int(text)
        if not 1 <= number <= len(levels):
            fail(f"there is no level {number}: the pack has {len(levels)} level"
                 f"{'s' if len(levels) != 1 else ''} (numbered from 1)")
        return [(number, levels[number - 1])]
    for matcher in (lambda title: title == text, lambda title: title.casefold() == text.casefold()):
        for number, level in enumerate(levels, start=1):
            if matcher(level.title):
                return [(number, level)]
    titles = ", ".join(repr(level.title) for level in levels[:10])
    fail(f"no level titled {spec!r} (levels: {titles}{', …' if len(levels) > 10 else ''})")


def _state_from_source(level_file: Optional[str], level: Optional[str], term: Optional[str],
                       target: Optional[str], fuel: Optional[int],
                       budget: Optional[int]) -> tuple[str, "State"]:
    """Build the starting state from ``LEVEL_FILE [--level]`` or ``--term`` (see module doc).

    Returns:
        A label for messages and the state.
    """
    from core.termcraft import State

    if level_file is not None and term is not None:
        raise click.UsageError("give either LEVEL_FILE or --term, not both")
    if level_file is None and term is None:
        raise click.UsageError("give a LEVEL_FILE or --term TERM")
    if term is not None:
        if level is not None:
            raise click.UsageError("--level needs a LEVEL_FILE")
        current = _parse_term_arg(term, "<--term>")
        goal = _parse_term_arg(target, "<--target>") if target is not None else _no_target()
        return "--term", State(current, goal, 1 if fuel is None else fuel,
                               0 if budget is None else budget)
    pack = _load_pack(level_file)  # type: ignore[arg-type]
    number, chosen = pick_levels(pack, level if level is not None else "1")[0]
    state = State.from_level(chosen)
    if target is not None or fuel is not None or budget is not None:
        state = State(
            state.term,
            _parse_term_arg(target, "<--target>") if target is not None else state.target,
            state.fuel if fuel is None else fuel,
            state.budget if budget is None else budget,
        )
    return f"level {number} {chosen.title!r}", state


def _sigma_json(sigma: Iterable[tuple[str, "Term"]]) -> dict[str, str]:
    from core.terms import to_str

    return {name: to_str(value) for name, value in sigma}


def actions_json(state: "State") -> dict[str, Any]:
    """The ``actions --json`` object of a state.

    Args:
        state: The position.

    Returns:
        ``{"rewrites": [{"rule", "site", "sigma", "replacement", "result"}],
        "placeholders": [path, ...], "warnings": [str, ...]}`` with paths as lists of
        0-based child indices and terms as canonical text (``result`` is the whole new
        current term).
    """
    from core.termcraft import placeholder_sites, result_of, rewrite_actions, warnings
    from core.terms import to_str

    rewrites = [
        {
            "rule": list(action.rule.path),
            "site": list(action.site),
            "sigma": _sigma_json(action.sigma),
            "replacement": to_str(action.replacement),
            "result": to_str(result_of(state, action)),
        }
        for action in rewrite_actions(state)
    ]
    return {
        "rewrites": rewrites,
        "placeholders": [list(path) for path in placeholder_sites(state.term)],
        "warnings": list(warnings(state.term)),
    }


def count_json(state: "State") -> dict[str, int]:
    """The ``actions --count`` object: ``{"rewrites": n, "placeholders": n}``."""
    from core.termcraft import placeholder_sites, rewrite_actions

    return {"rewrites": len(rewrite_actions(state)),
            "placeholders": len(placeholder_sites(state.term))}


def plan_json(plan: Iterable[Any]) -> list[dict[str, Any]]:
    """Solver plan items as JSON objects.

    Returns:
        ``{"kind": "rewrite", "rule", "site", "sigma"}`` or
        ``{"kind": "construct", "site", "term"}`` per step.
    """
    from core.termcraft import ConstructAction
    from core.terms import to_str

    out: list[dict[str, Any]] = []
    for step in plan:
        if isinstance(step, ConstructAction):
            out.append({"kind": "construct", "site": list(step.site), "term": to_str(step.term)})
        else:
            out.append({"kind": "rewrite", "rule": list(step.rule.path), "site": list(step.site),
                        "sigma": _sigma_json(step.sigma)})
    return out


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def _print_actions_table(state: "State") -> None:
    """The readable form of ``actions``: a table of rewrites, then placeholders, warnings."""
    from rich.table import Table

    from core.termcraft import placeholder_sites, rewrite_actions, warnings
    from core.terms import to_str

    console = _console()
    acts = rewrite_actions(state)
    table = Table(title=f"{len(acts)} rewrite action{'s' if len(acts) != 1 else ''} "
                        f"(fuel {state.fuel}, budget {state.budget})", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("rule")
    table.add_column("at", overflow="fold")
    table.add_column("with", overflow="fold")
    table.add_column("becomes", overflow="fold")
    for index, action in enumerate(acts):
        binds = ", ".join(f"{name}={_short(to_str(value), 30)}" for name, value in action.sigma)
        table.add_row(str(index), _short(str(action.rule), 50), _path_text(action.site),
                      binds or "-", _short(to_str(action.replacement), 40))
    if acts:
        console.print(table)
    else:
        console.print(table.title if state.fuel else "no rewrite action (no fuel left)")
    sites = placeholder_sites(state.term)
    if sites:
        console.print(f"placeholders (construct, budget {state.budget}): "
                      + ", ".join(_path_text(path) for path in sites))
    else:
        console.print("no placeholder")
    for warning in warnings(state.term):
        console.print(f"warning: {warning}", style="yellow")


# --------------------------------------------------------------------------- the group


@click.group()
def termcraft() -> None:
    """TermCraft: inspect positions, play moves, solve and lint levels.

    A position is LEVEL_FILE with --level N (1-based, or a level title; default 1; "-"
    reads the file from stdin), or --term TERM with --fuel (default 1), --budget (default
    0) and --target (default: none, never won).  Exit: 0 ok, 1 negative answer, 2 bad input.
    """


def _source_options(func: Callable) -> Callable:
    """The options that choose a position, shared by ``actions`` and ``apply``."""
    options = [
        click.argument("level_file", required=False, metavar="[LEVEL_FILE]"),
        click.option("--level", "-l", "level", metavar="N|TITLE",
                     help="Level number (1-based) or title in LEVEL_FILE [default: 1]."),
        click.option("--term", "-t", "term", metavar="TERM",
                     help="Use this term as the current term instead of a level file."),
        click.option("--target", metavar="TERM", help="Target term (default: the level's)."),
        click.option("--fuel", type=click.IntRange(0), default=None,
                     help="Fuel (default: the level's; 1 with --term)."),
        click.option("--budget", type=click.IntRange(0), default=None,
                     help="Budget (default: the level's; 0 with --term)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@termcraft.command()
@_source_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per position.")
@click.option("--count", is_flag=True,
              help='Print only {"rewrites": n, "placeholders": n} (JSON).')
@closed_pipe_safe
def actions(level_file: Optional[str], level: Optional[str], term: Optional[str],
            target: Optional[str], fuel: Optional[int], budget: Optional[int], as_json: bool,
            count: bool) -> None:
    """List the moves available in a position.

    Rewrites are numbered from 0 in engine order (rule, then site, then substitution): the
    number is what `apply --rewrite` takes.  With --term -, terms are read from stdin, one
    per line, and one JSON object (or count) is printed per line; a bad line is reported on
    stderr, the others still print, and the exit status is then 2.
    """
    if term == "-" and level_file is None:
        raise click.exceptions.Exit(_actions_batch(target, fuel, budget, as_json, count))
    _, state = _state_from_source(level_file, level, term, target, fuel, budget)
    _show_actions(state, as_json, count)


def _show_actions(state: Any, as_json: bool, count: bool) -> None:
    """Print one position's actions: counts, the JSON object, or a table."""
    if count:
        emit_json(count_json(state))
    elif as_json:
        emit_json(actions_json(state))
    else:
        _print_actions_table(state)


def _actions_batch(target: Optional[str], fuel: Optional[int], budget: Optional[int],
                   as_json: bool, count: bool) -> int:
    """``actions --term -``: one position per stdin line; returns the exit status."""
    from core.termcraft import State
    from grammar.errors import ParseError
    from grammar.terms import parse_term
    from tui.cli.parse import iter_stdin_lines

    goal = _parse_term_arg(target, "<--target>") if target is not None else _no_target()
    fuel = 1 if fuel is None else fuel
    budget = 0 if budget is None else budget
    failed = False
    for number, text in iter_stdin_lines():
        if text is not None and not text.strip():
            continue
        if text is None:
            click.echo(f"<stdin>:{number}: error: line is not valid UTF-8", err=True)
            failed = True
            continue
        try:
            current = parse_term(text, filename="<stdin>")
        except ParseError as error:
            if error.line:
                error.line = number
            click.echo(error.render(), err=True)
            failed = True
            continue
        _show_actions(State(current, goal, fuel, budget), as_json, count)
    return EXIT_BAD_INPUT if failed else EXIT_OK


class _OrderedMoves(click.Command):
    """A command that remembers the command-line order of ``--rewrite``/``--construct``.

    click gives each multiple option its own tuple of values; the order in which the
    options were interleaved is recorded here (from click's parser) into
    ``ctx.meta["termcraft.move_order"]`` so moves are played as written.
    """

    def make_parser(self, ctx: click.Context) -> Any:
        parser = super().make_parser(ctx)
        original = parser.parse_args

        def parse_args(args: list[str]) -> Any:
            opts, largs, order = original(args)
            ctx.meta["termcraft.move_order"] = [
                param.name for param in order if param.name in ("rewrite", "construct")]
            return opts, largs, order

        parser.parse_args = parse_args  # type: ignore[method-assign]
        return parser


def _moves_in_order(ctx: click.Context, rewrites: tuple[int, ...],
                    constructs: tuple[str, ...]) -> list[tuple[str, Any]]:
    order = ctx.meta.get("termcraft.move_order")
    if order is None or len(order) != len(rewrites) + len(constructs):  # pragma: no cover
        order = ["rewrite"] * len(rewrites) + ["construct"] * len(constructs)
    queues = {"rewrite": list(rewrites), "construct": list(constructs)}
    return [(kind, queues[kind].pop(0)) for kind in order]


def _state_json(state: "State") -> dict[str, Any]:
    from core.termcraft import status
    from core.terms import to_str

    return {"term": to_str(state.term), "fuel": state.fuel, "budget": state.budget,
            "status": status(state)}


def _illegal(number: int, move: str, reason: str) -> NoReturn:
    fail(f"move {number} ({move}) is illegal: {reason}", EXIT_NEGATIVE)


@termcraft.command(cls=_OrderedMoves)
@_source_options
@click.option("--rewrite", "-r", "rewrite", type=click.IntRange(0), multiple=True,
              metavar="INDEX",
              help="Apply rewrite number INDEX (0-based, as listed by `actions`).")
@click.option("--construct", "-c", "construct", multiple=True, metavar="PATH=TERM",
              help="Replace the placeholder at PATH (e.g. 4/0) by TERM.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"term", "fuel", "budget", "status"}.')
@click.pass_context
@closed_pipe_safe
def apply(ctx: click.Context, level_file: Optional[str], level: Optional[str],
          term: Optional[str], target: Optional[str], fuel: Optional[int],
          budget: Optional[int], rewrite: tuple[int, ...], construct: tuple[str, ...],
          as_json: bool) -> None:
    """Play moves in the order given and print the resulting state.

    --rewrite INDEX applies the INDEX-th rewrite (0-based) of the position at that moment;
    --construct PATH=TERM fills a placeholder (PATH like 4/0, or root).  An illegal move
    stops with exit 1 and says why; a malformed move is bad input (exit 2).
    """
    from core.termcraft import ConstructAction, IllegalMove, apply as play, ensure_not_won
    from core.termcraft import rewrite_actions

    _, state = _state_from_source(level_file, level, term, target, fuel, budget)
    for number, (kind, value) in enumerate(_moves_in_order(ctx, rewrite, construct), start=1):
        label = f"--{kind} {value}"
        try:
            ensure_not_won(state)  # the engine's reason first, before index checks
        except IllegalMove as error:
            _illegal(number, label, str(error))
        if kind == "rewrite":
            options = rewrite_actions(state)
            if not 0 <= value < len(options):
                if not options:
                    why = "no fuel left" if state.fuel <= 0 else "no rewrite action is available"
                else:
                    why = (f"there are {len(options)} rewrite actions, "
                           f"numbered 0 to {len(options) - 1}")
                _illegal(number, label, why)
            action: Any = options[value]
        else:
            where, sep, text = value.partition("=")
            if not sep:
                raise click.BadParameter(f"{value!r}: write PATH=TERM, e.g. 4/0=done",
                                         param_hint="--construct")
            try:
                site = parse_path(where)
            except ValueError as error:
                raise click.BadParameter(str(error), param_hint="--construct") from None
            action = ConstructAction(site, _parse_term_arg(text, f"<--construct {number}>"))
        try:
            state = play(state, action)
        except IllegalMove as error:
            _illegal(number, label, str(error))
    if as_json:
        emit_json(_state_json(state))
        return
    data = _state_json(state)
    click.echo(f"term:   {data['term']}")
    click.echo(f"fuel:   {data['fuel']}")
    click.echo(f"budget: {data['budget']}")
    click.echo(f"status: {data['status']}")


# --------------------------------------------------------------------------- solve


class _Cancel:
    """A cancel flag set by ctrl+c (SIGINT) while the solver runs.

    Installing a handler (instead of letting KeyboardInterrupt unwind the solver) lets the
    solver stop at a clean point and report ``unknown`` with what it explored.
    """

    def __init__(self) -> None:
        self.event = threading.Event()
        self._previous: Any = None

    def __enter__(self) -> "_Cancel":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        self.event.set()

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def __call__(self) -> bool:
        return self.event.is_set()


def _solve_one(level: "Level", max_states: Optional[int], time_limit: Optional[float],
               cancel: _Cancel, progress: Optional[Callable[..., Any]]) -> Any:
    from core.termcraft import solve

    kwargs: dict[str, Any] = {"should_stop": cancel}
    if max_states is not None:
        kwargs["max_states"] = max_states
    if time_limit is not None:
        kwargs["time_limit"] = time_limit
    if progress is not None:
        kwargs["progress"] = progress
    return solve(level, **kwargs)


def _describe_step(step: Any) -> str:
    from core.termcraft import ConstructAction
    from core.terms import to_str

    if isinstance(step, ConstructAction):
        return f"construct {_short(to_str(step.term), 50)} at {_path_text(step.site)}"
    binds = ", ".join(f"{n}={_short(to_str(t), 30)}" for n, t in step.sigma)
    rule = _short(str(step.rule), 50)
    return f"rewrite {rule} (rule at {_path_text(step.rule.path)}) at {_path_text(step.site)}" + (
        f" with {binds}" if binds else "")


@termcraft.command()
@click.argument("level_file", metavar="LEVEL_FILE")
@click.option("--level", "-l", "level", metavar="N|TITLE",
              help="Level number (1-based) or title [default: every level].")
@click.option("--max-states", type=click.IntRange(1), default=None,
              help="Give up (unknown) after exploring this many states [solver default].")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None,
              metavar="SECONDS", help="Give up (unknown) after this long [solver default].")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per level.")
@closed_pipe_safe
def solve(level_file: str, level: Optional[str], max_states: Optional[int],
          time_limit: Optional[float], as_json: bool) -> None:
    """Solve levels: shortest plan, or unsolvable, or unknown within the limits.

    Constructs are limited to ground subterms of the target that fit the budget.  Exit 0
    when every chosen level is solved, 1 when one is unsolvable or unknown (also after
    ctrl+c, which stops the search cleanly), 2 on bad input.
    """
    pack = _load_pack(level_file)
    chosen = pick_levels(pack, level)
    exit_code = EXIT_OK
    show_bar = not as_json and sys.stderr.isatty()
    with _Cancel() as cancel:
        for number, lvl in chosen:
            if cancel():
                break
            result = _run_with_progress(lvl, number, max_states, time_limit, cancel, show_bar)
            if result.status != "solved":
                exit_code = EXIT_NEGATIVE
            data = {"level": number, "title": lvl.title, "status": result.status,
                    "plan": plan_json(result.plan), "explored": result.explored,
                    "reason": getattr(result, "reason", "")}
            if as_json:
                emit_json(data)
                continue
            why = f", {data['reason']}" if data["reason"] else ""
            click.echo(f"level {number} {lvl.title!r}: {result.status} "
                       f"({result.explored} states explored{why})")
            for index, step in enumerate(result.plan, start=1):
                click.echo(f"  {index}. {_describe_step(step)}")
        if cancel():
            click.echo("interrupted: the search was stopped", err=True)
            exit_code = EXIT_NEGATIVE
    raise click.exceptions.Exit(exit_code)


def _run_with_progress(level: "Level", number: int, max_states: Optional[int],
                       time_limit: Optional[float], cancel: _Cancel, show_bar: bool) -> Any:
    """Run the solver, with a rich progress bar on stderr when ``show_bar``."""
    if not show_bar:
        return _solve_one(level, max_states, time_limit, cancel, None)
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from core.termcraft.solver import DEFAULT_MAX_STATES

    total = max_states if max_states is not None else DEFAULT_MAX_STATES
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.fields[explored]} explored, "
                             "{task.fields[frontier]} queued"),
                  TimeElapsedColumn(), console=_console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"level {number}: {_short(level.title, 30)}", total=total,
                            explored=0, frontier=0)

        def progress(explored: int, frontier: int = 0, *rest: Any) -> None:
            # The state limit counts kept states: expanded plus still queued.
            bar.update(task, completed=explored + frontier, explored=explored,
                       frontier=frontier)

        return _solve_one(level, max_states, time_limit, cancel, progress)


# --------------------------------------------------------------------------- lint


def _issue_json(issue: Any) -> dict[str, Any]:
    path = getattr(issue, "path", None)
    return {"severity": issue.severity, "code": issue.code, "message": issue.message,
            "path": list(path) if path is not None else None}


@termcraft.command()
@click.argument("level_file", metavar="LEVEL_FILE")
@click.option("--level", "-l", "level", metavar="N|TITLE",
              help="Level number (1-based) or title [default: every level].")
@click.option("--solver/--no-solver", "run_solver", default=True, show_default=True,
              help="Also run the solver (unsolvable and par checks).")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=5.0,
              show_default=True, metavar="SECONDS", help="Solver time limit per level.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per level.")
@closed_pipe_safe
def lint(level_file: str, level: Optional[str], run_solver: bool, time_limit: float,
         as_json: bool) -> None:
    """Report level-design issues (illegal rules, non-ground axioms, misused placeholders,
    levels already won, unreachable resources ...).

    Exit 1 when some issue has severity "error", 0 otherwise (warnings and notes only), 2
    on bad input.
    """
    from core.termcraft import lint as lint_level

    pack = _load_pack(level_file)
    exit_code = EXIT_OK
    for number, lvl in pick_levels(pack, level):
        issues = lint_level(lvl, run_solver=run_solver, time_limit=time_limit)
        if any(issue.severity == "error" for issue in issues):
            exit_code = EXIT_NEGATIVE
        if as_json:
            emit_json({"level": number, "title": lvl.title,
                       "issues": [_issue_json(issue) for issue in issues]})
            continue
        if not issues:
            click.echo(f"level {number} {lvl.title!r}: ok")
            continue
        click.echo(f"level {number} {lvl.title!r}:")
        for issue in issues:
            where = getattr(issue, "path", None)
            at = f" (at {_path_text(where)})" if where is not None else ""
            click.echo(f"  {issue.severity} {issue.code}: {issue.message}{at}")
    raise click.exceptions.Exit(exit_code)
