"""``termarcade longcat``: solve, analyse and generate Longcat levels from the shell.

Commands::

    termarcade longcat solve FILE [--level N] [--json] [--time-limit S] [--max-states N] [--work-budget N]
    termarcade longcat check FILE --moves UDLR... [--level N] [--json]
    termarcade longcat analyze FILE [--level N] [--json | --dot] [--time-limit S] [--max-states N]
        [--work-budget N]
    termarcade longcat generate [--method sd|pu|template|ca|bsp|carve|fractal|shapes|notch|rl[,...]]
        [--size 8x8] [--count N] [--seed S] [--unique] [--difficulty LO:HI|BAND] [--temperature T]
        [--time-limit S] [--work-budget N] [--predictor success-states|solution-paths] [--title T]
        [-o FILE [--force]] [--json]
    termarcade longcat describe FILE [--prefix P] [--title T] [--author A] [--description D]
        [--comment LINE ...] [--predictor P] [-o FILE [--force]]
    termarcade longcat play [FILE | ID] [--level N]

FILE is a level file (``-`` reads stdin): a ``.levels`` pack or a plain grid pack (grids
separated by blank lines, ``;`` comments, as ``arduboy-100.txt``). ``--level`` is a 1-based
number or a level title.

Each command's JSON object is declared once as a :class:`~tui.cli.output.Row` (``*_ROW``
below: the keys in the order docs/longcat.md gives, one object per level in file order, and
the text form read from the same values); docs/longcat.md says what every key holds. ``check``
exits 0 when ``won`` for every level checked, else 1.

``generate`` and ``describe`` write a level pack (stdout, or ``-o FILE``, which is never
replaced without ``--force``); ``describe`` gives every level of a file its par (the
shortest solution) and its predicted difficulty in the title, as the bundled packs have.

Every search is bounded per level by ``--time-limit`` (seconds; the first level's time
counts from the command's start, so reading the file counts too), ``--max-states``
(positions of one state graph) and ``--work-budget`` (states the level's searches may expand in
all, the same on every machine: :data:`DEFAULT_BUDGET`, :data:`DEFAULT_GENERATE_BUDGET` for
``generate``); a level stopped by a bound says which one. ctrl+c stops at once (exit 130). Exit status: 0 success, 1 a negative answer
(a level unsolvable or undecided within the limits, fewer levels generated than asked),
2 bad input. Textual is imported only by ``play``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import click

from core.longcat.params import GENERATOR_PARAMS, METHOD
from core.text import escape_controls, plural
from tui.cli.codec import move_json
from tui.cli.options import (
    SEED_MAX,
    LevelDeadlines,
    LevelFile,
    OptionGroup,
    budget_option,
    check_output,
    count_option,
    game_play_command,
    json_option,
    level_file_options,
    load_level_pack,
    max_states_option,
    numbered_levels,
    output_option,
    seed_option,
    time_limit_option,
    title_option,
    write_output,
)
from tui.cli.output import (
    EXIT_NEGATIVE,
    Field,
    Row,
    console,
    emit_json,
    fail,
    progress_bar,
    progress_wanted,
    user_errors,
)
from tui.params import click_option

if TYPE_CHECKING:  # pragma: no cover - typing only
    from core.levelpack import LevelPack
    from core.longcat import Level
    from core.search import Watch

__all__ = [
    "ANALYZE_ROW",
    "CHECK_ROW",
    "GENERATE_ROW",
    "SOLVE_ROW",
    "longcat",
]

GAME_ID = "longcat"

DEFAULT_TIME_LIMIT = 10.0
"""Seconds a level's searches may take (per level)."""
DEFAULT_MAX_STATES = 500_000
"""Positions a level's state graph may have before the counts are given up."""
DEFAULT_BUDGET = 5_000_000
"""States one level's searches (state graph, then pruned solver) may expand in all: ten
times ``--max-states``, so it only bounds the solver after a graph over the state limit
(the bundled levels need at most a few thousand)."""
DEFAULT_GENERATE_BUDGET = 2_000_000
"""States one generated level's search may expand in all: the solver validating each candidate,
the filters and the description. Regenerating the bundled packs needs at most 147,166 per
level; the bound keeps a level's work the same on a busy machine, where the per-level time
limit would cut it short."""


# --------------------------------------------------------------------------- input


def load_levels(source: str) -> LevelPack:
    """A Longcat level pack (:func:`tui.cli.options.load_level_pack`: a file, ``-``, an ID or a
    bundled pack's name); bad input exits 2 with a caret message."""
    return load_level_pack(source, GAME_ID)


def _chosen(levels: LevelFile) -> list[tuple[int, Level]]:
    """The levels ``FILE [--level]`` names (every level without ``--level``)."""
    return levels.chosen(numbered_levels(load_levels(levels.source)), every_level=True)


_EVERY_LEVEL = level_file_options("every level", metavar="FILE")
"""``FILE [--level N|TITLE]``, every level by default (the ``levels`` parameter)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """The bounds of one level's searches in ``solve``, ``analyze`` and ``describe``, as
    :data:`LIMITS` gathers them."""

    time_limit: float
    """Seconds per level (the first level's counts from the command's start)."""
    max_states: int
    """Positions of one state graph."""
    budget: int
    """States the level's searches may expand in all; 0: none."""

    def watch(self, deadline: float) -> Watch:
        """The watch of one level's searches: its deadline and the work budget.

        Args:
            deadline: The level's deadline (:meth:`tui.cli.options.LevelDeadlines.next`).

        Returns:
            The watch.
        """
        from core.search import Watch

        return Watch(deadline=deadline, budget=self.budget or None)


LIMITS = OptionGroup(
    "limits",
    [
        time_limit_option(DEFAULT_TIME_LIMIT),
        max_states_option(DEFAULT_MAX_STATES),
        budget_option(DEFAULT_BUDGET),
    ],
    into=Limits,
)
"""``--time-limit``, ``--max-states`` and ``--work-budget`` (states per level), received as
one :class:`Limits` (the ``limits`` parameter)."""


# --------------------------------------------------------------------------- the group


@click.group(name=GAME_ID, context_settings={"help_option_names": ["-h", "--help"]})
def longcat() -> None:
    """Longcat: solve, analyse and generate levels.

    FILE is a level file (- reads stdin): a .levels pack or a plain grid pack (grids
    separated by blank lines, ; comments). Exit: 0 ok, 1 negative answer, 2 bad input.
    """


longcat.add_command(
    game_play_command(
        GAME_ID, "Open the arcade straight into Longcat (playing the levels of FILE if given)."
    )
)


# --------------------------------------------------------------------------- JSON values


def _metrics_json(analysis: Any) -> dict[str, Any]:
    from core.longcat import expected_moves

    data = analysis.metrics.as_dict()
    label = expected_moves(analysis)
    data["expected_moves"] = None if math.isinf(label) else round(label, 3)
    return data


def _rounded(difficulty: float | None) -> float | None:
    """A level's one difficulty in JSON: 3 decimals, null when it has none (unsolvable)."""
    return None if difficulty is None else round(difficulty, 3)


def _plan(letters: str) -> list[Any]:
    """A ``UDLR`` solution as the engine's moves (:meth:`core.longcat.game.LongcatGame.
    move_to_json`), as every game's ``solve --json`` gives its ``plan``."""
    from core.longcat import parse_moves
    from core.longcat.game import GAME

    return [move_json(GAME, move) for move in parse_moves(letters)] if letters else []


def _start_success(level: Level) -> dict[str, Any]:
    """The solver's success rate over the level's start cells (seed 003's difficulty mark for
    masks), as JSON."""
    from core.longcat.generate import start_success

    found = start_success(level)
    return {
        "solvable": found.solvable,
        "unknown": found.unknown,
        "cells": found.cells,
        "rate": round(found.rate, 4),
    }


# --------------------------------------------------------------------------- text forms


def _verdict_line(row: Mapping[str, Any]) -> Iterator[str]:
    """``solve``'s line under the table: one level's verdict with its solution in full
    (the table's columns end in "…" or are dropped on a narrow terminal), or why there is
    none: ``level 2: solved in 7 moves: URDLURD``, ``level 3: unsolvable`` or ``level 4:
    undecided within the work budget``."""
    where = f"level {row['level']}"
    if row["solvable"] is None:
        yield f"{where}: undecided within the {row['why']}"
    elif not row["solvable"]:
        yield f"{where}: unsolvable"
    else:
        moves = row["solution"] or ""
        yield f"{where}: solved in {plural(len(moves), 'move')}: {moves or '(already won)'}"


def _check_line(row: Mapping[str, Any]) -> Iterator[str]:
    """``check``'s line: won, valid but not filled, or where and why the moves fail."""
    where = f"level {row['level']} ({escape_controls(row['title'])})"
    if row["won"]:
        yield f"{where}: valid, every cell filled in {plural(row['played'], 'move')}"
    elif row["valid"]:
        yield (
            f"{where}: valid but not filled: {plural(row['cells_left'], 'cell')} left "
            f"after {plural(row['played'], 'move')}, head at {tuple(row['head'])}"
        )
    else:
        yield f"{where}: invalid at move {row['fail_move']}: {row['reason']}"


# --------------------------------------------------------------------------- rows


SOLVE_ROW = Row(
    *("level", "solvable", "success_states", "solution_paths", "states", "shortest"),
    *("solution", "metrics", "difficulty"),
    Field("plan", _plan),
    "why",
    text=_verdict_line,
)
"""One level of ``solve``: the state graph's counts and ``metrics`` (null over the limits,
when ``solvable`` and ``shortest`` come from the pruned solver, :func:`core.longcat.design.
assess`), ``solution`` in ``UDLR`` letters and ``plan`` as the engine's moves, ``why`` the bound
that stopped the graph or the verdict. The text is the line under the table
(:func:`_solve_table` makes the table from the rows)."""
CHECK_ROW = Row(
    *("level", "title", "moves", "valid", "filled", "won", "played", "played_moves"),
    *("fail_move", "reason", "head", "cells_left"),
    text=_check_line,
)
"""One level of ``check`` (``moves`` as given, ``fail_move`` counted from 1)."""
ANALYZE_ROW = Row(
    *("level", "title", "width", "height", "metrics", "classes", "difficulty", "band"),
    *("expected_moves", "solution", "start_success"),
)
"""One level of ``analyze`` (``classes``: states per display class; the text, with rich
tables, is :func:`_print_analysis`)."""
GENERATE_ROW = Row("seed", "method", "id", "title", "par", "grid", "start_success")
"""One level of ``generate --json`` (``start_success``: the solver's success rate over the
open cells taken as the start; without ``--json`` the pack itself is the output)."""


# --------------------------------------------------------------------------- solve


def _solve_row(number: int, level: Level, limits: Limits, deadline: float) -> dict[str, Any]:
    """The ``solve`` row of one level (:data:`SOLVE_ROW`).

    Args:
        number: The level's 1-based number in its file.
        level: The level.
        limits: The command's bounds.
        deadline: ``time.monotonic()`` time to stop at.

    Returns:
        The row's values.
    """
    from core.longcat import solution_string
    from core.longcat.design import assess

    # The full state graph when it fits the limits, else the pruned solver decides the level.
    verdict = assess(
        level,
        max_states=limits.max_states,
        time_limit=limits.time_limit,
        budget=limits.budget or None,
        deadline=deadline,
    )
    analysis = verdict.analysis
    counts: dict[str, Any] = dict.fromkeys(("success_states", "solution_paths", "states"))
    if analysis is not None:  # else over the limits: the pruned solver's verdict, no counts
        counts = {key: getattr(analysis.metrics, key) for key in counts}
    letters = solution_string(verdict.solution or ())
    return SOLVE_ROW(
        level=number,
        solvable=verdict.solvable,
        **counts,
        shortest=verdict.shortest,
        solution=letters if verdict.solvable else None,
        metrics=None if analysis is None else _metrics_json(analysis),
        difficulty=_rounded(verdict.difficulty),
        plan=letters,
        why=verdict.why or None,
    )


def _yes_no(value: bool | None) -> str:
    return "?" if value is None else ("yes" if value else "no")


def _count(value: Any) -> str:
    return "?" if value is None else str(value)


def _solution_counts(row: Mapping[str, Any]) -> str:
    """``success states/solution paths`` of a solve row (``?`` when unknown)."""
    if row["success_states"] is None:
        return "?"
    return f"{row['success_states']}/{row['solution_paths']}"


_SOLVE_COLUMNS = (
    ("#", "right"),
    ("title", "left"),
    ("size", "right"),
    ("ok", "left"),
    ("sols", "right"),
    ("states", "right"),
    ("moves", "right"),
    ("difficulty", "left"),
)
"""``solve``'s table: each column's name and justification."""


def _solve_table(rows: list[tuple[Level, dict[str, Any]]]) -> Any:
    """``solve``'s table (a rich ``Table``): one line per level, from its row.

    Args:
        rows: Each level with its :data:`SOLVE_ROW` values.

    Returns:
        The table.
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from core.longcat.catalog import difficulty_label

    table = Table(
        title=f"{plural(len(rows), 'level')} (ok: solvable, sols: success "
        "states/paths, moves: shortest)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for name, justify in _SOLVE_COLUMNS:
        # One line per level: long titles and solutions end with "…" on narrow screens.
        table.add_column(
            name,
            justify=justify,  # type: ignore[arg-type]
            no_wrap=True,
            overflow="ellipsis",
            min_width={"title": 10, "difficulty": 13}.get(name, max(3, len(name))),
            max_width=20 if name == "title" else None,
        )
    for lvl, r in rows:
        table.add_row(
            str(r["level"]),
            Text(escape_controls(lvl.title)),  # a title is text, never markup
            f"{lvl.width}x{lvl.height}",
            _yes_no(r["solvable"]),
            _solution_counts(r),
            _count(r["states"]),
            _count(r["shortest"]),
            difficulty_label(r["difficulty"]) if r["difficulty"] is not None else "?",
        )
    return table


@longcat.command()
@_EVERY_LEVEL
@json_option
@LIMITS
def solve(levels: LevelFile, as_json: bool, limits: Limits) -> None:
    """Solve levels: solvable?, solutions, states, a shortest solution, difficulty.

    Exit 1 when a level is unsolvable or undecided within the limits (a note names the
    bound). --work-budget counts states: the full state graph's, then the pruned solver's.
    """
    deadlines = LevelDeadlines(limits.time_limit)  # the first level's counts its loading too
    chosen = _chosen(levels)
    rows = []
    negative = False
    with progress_bar(len(chosen), "solving", progress_wanted(as_json) and len(chosen) > 1) as step:
        for number, lvl in chosen:
            row = _solve_row(number, lvl, limits, deadlines.next())
            negative = negative or row["solvable"] is not True
            if as_json:
                SOLVE_ROW.emit(row, as_json)
            else:
                rows.append((lvl, row))
            step(label=lvl.title)
    if not as_json:
        console().print(_solve_table(rows))
        for _, row in rows:
            SOLVE_ROW.emit(row, as_json)
    if negative:
        raise click.exceptions.Exit(EXIT_NEGATIVE)


# --------------------------------------------------------------------------- check


def _check_row(number: int, level: Level, moves: str) -> dict[str, Any]:
    """The ``check`` row (:data:`CHECK_ROW`) of level ``number`` for the ``--moves`` string."""
    from core.longcat import validate_path

    result = validate_path(level, moves)
    return CHECK_ROW.of(
        result,
        level=number,
        title=level.title,
        moves=moves,
        played_moves=result.moves,
        fail_move=None if result.fail_index is None else result.fail_index + 1,
        head=list(result.head),
    )


@longcat.command()
@click.option(  # before FILE and --level, as --help has always listed it
    "--moves",
    "-m",
    required=True,
    metavar="UDLR...",
    help="The moves to check: U, D, L, R letters (any case; spaces, commas ignored).",
)
@_EVERY_LEVEL
@json_option
def check(levels: LevelFile, moves: str, as_json: bool) -> None:
    """Check a move string against levels (seed 003's validatePath): is every move legal,
    is every cell filled, and where and why does it fail.

    Exit 0 when the moves solve every chosen level, 1 when they are illegal or leave cells
    empty, 2 bad input.
    """
    from core.longcat import parse_moves

    try:
        parse_moves(moves)
    except ValueError as error:
        fail(f"--moves: {error}")
    negative = False
    for number, lvl in _chosen(levels):
        row = _check_row(number, lvl, moves)
        negative = negative or not row["won"]
        CHECK_ROW.emit(row, as_json)
    if negative:
        raise click.exceptions.Exit(EXIT_NEGATIVE)


# --------------------------------------------------------------------------- analyze


def _analyze_row(number: int, level: Level, analysis: Any) -> dict[str, Any]:
    """The ``analyze`` row (:data:`ANALYZE_ROW`) of level ``number`` and its state graph."""
    from core.longcat import band, expected_moves
    from core.longcat.difficulty import level_difficulty

    difficulty = level_difficulty(analysis)
    label = expected_moves(analysis)
    return ANALYZE_ROW(
        level=number,
        title=level.title,
        width=level.width,
        height=level.height,
        metrics=_metrics_json(analysis),
        classes=analysis.class_counts(),
        difficulty=_rounded(difficulty),
        band=None if difficulty is None else band(difficulty),
        expected_moves=None if math.isinf(label) else round(label, 3),
        solution=analysis.solution_letters if analysis.metrics.solvable else None,
        start_success=_start_success(level),
    )


def _print_analysis(data: dict[str, Any]) -> None:
    from rich.table import Table

    out = console()
    out.print(
        f"[bold]level {data['level']}: {escape_controls(data['title'])}[/bold] "
        f"({data['width']}x{data['height']}: {data['metrics']['grid_cells']} grid cells, "
        f"{data['metrics']['open_cells']} open)"
    )
    classes = Table(title="states by class", title_justify="left")
    for name in data["classes"]:
        classes.add_column(name, justify="right")
    classes.add_row(*(str(v) for v in data["classes"].values()))
    out.print(classes)
    metrics = Table(show_header=False, box=None, padding=(0, 2))
    for name, value in data["metrics"].items():
        metrics.add_row(name.replace("_", " "), _count(value))
    out.print(metrics)
    label = data["expected_moves"]
    from core.longcat.difficulty import difficulty_text

    shown = (
        "none (unsolvable)" if data["difficulty"] is None else difficulty_text(data["difficulty"])
    )
    out.print(
        f"predicted difficulty {shown}; simulated "
        f"player: {'never wins' if label is None else f'{label:.1f} moves'}"
    )
    found = data["start_success"]
    out.print(
        f"solver success rate: {found['rate']:.0%} of start cells "
        f"({found['solvable']} of {found['cells']}"
        f"{', ' + str(found['unknown']) + ' undecided' if found['unknown'] else ''})"
    )
    out.print(f"shortest solution: {data['solution'] or 'none (unsolvable)'}\n")


@longcat.command()
@_EVERY_LEVEL
@json_option
@click.option(
    "--dot", is_flag=True, help="Print the state graph as Graphviz DOT, nodes coloured by class."
)
@LIMITS
def analyze(levels: LevelFile, as_json: bool, dot: bool, limits: Limits) -> None:
    """The state graph of levels: classes of states, metrics, predicted difficulty.

    Classes (seed 003): start, success, fail, reachable (a solution can follow), dead (the
    empty cells are split in two or more), indeterminate. --dot colours them white, green,
    red, light blue, purple and yellow (render with: dot -Tsvg).
    """
    from core.longcat import AnalysisLimit, analyse, to_dot

    if dot and as_json:
        raise click.UsageError("choose --json or --dot, not both")
    deadlines = LevelDeadlines(limits.time_limit)
    chosen = _chosen(levels)
    negative = False
    with progress_bar(
        len(chosen), "analysing", not dot and progress_wanted(as_json) and len(chosen) > 1
    ) as step:
        for number, lvl in chosen:
            try:
                analysis = analyse(
                    lvl, max_states=limits.max_states, watch=limits.watch(deadlines.next())
                )
            except AnalysisLimit as stopped:
                click.echo(f"error: level {number}: {_graph_stopped(stopped, limits)}", err=True)
                negative = True
                continue
            if dot:
                click.echo(to_dot(analysis, name=f"level_{number}"), nl=False)
            elif as_json:
                ANALYZE_ROW.emit(_analyze_row(number, lvl, analysis), as_json)
            else:
                _print_analysis(_analyze_row(number, lvl, analysis))
            step(label=lvl.title)
    if negative:
        raise click.exceptions.Exit(EXIT_NEGATIVE)


def _graph_stopped(stopped: Any, limits: Limits) -> str:
    """Why ``analyze`` has no state graph: the bound that stopped it, and the option to raise."""
    why = {
        "limit": f"more than {limits.max_states} states (raise --max-states)",
        "budget": f"more than the work budget of {limits.budget} states (raise --work-budget)",
    }.get(stopped.reason, f"not finished in {limits.time_limit:g} s (raise --time-limit)")
    return f"the state graph has {why}"


# --------------------------------------------------------------------------- generate


PREDICTOR_OPTION = click.option(
    "--predictor",
    type=click.Choice(["success-states", "solution-paths"]),
    default="success-states",
    show_default=True,
    help="Difficulty predictor: on the seed's success states, or on winning move sequences "
    "(before issue 21; the bundled packs were titled with it).",
)


def _command_line(
    methods: list[str],
    size: tuple[int, int],
    count: int,
    seed: int,
    unique: bool,
    band: tuple[str, Any] | None,
    predictor: str,
    temperature: float | None = None,
) -> str:
    parts = [
        f"termarcade longcat generate --method {','.join(methods)}",
        f"--size {size[0]}x{size[1]}",
        f"--count {count}",
        f"--seed {seed}",
    ]
    if unique:
        parts.append("--unique")
    if band is not None:
        parts.append(f"--difficulty {band[0]}")
    if predictor != "success-states":
        parts.append(f"--predictor {predictor}")
    if temperature is not None:
        parts.append(f"--temperature {temperature:g}")
    return " ".join(parts)


def _generate_choices(
    methods: list[str], size: str, band: str
) -> tuple[list[str], tuple[int, int], tuple[str, Any] | None]:
    """The options as the generator takes them: the methods, ``(width, height)`` and the
    band as ``(text, (low, high))`` (None for any difficulty)."""
    from core.longcat.catalog import parse_band, parse_size

    bounds = None if band == "any" else (band, parse_band(band))
    return methods, parse_size(size), bounds


def _given_temperature(temperature: float) -> float | None:
    """``--temperature`` when given (None: the learned generator's default)."""
    from click.core import ParameterSource

    source = click.get_current_context().get_parameter_source("temperature")
    return None if source is ParameterSource.DEFAULT else temperature


@longcat.command()
@click_option(METHOD)
@click_option(GENERATOR_PARAMS["size"])
@count_option(1, 10_000)
@seed_option(0)
@click_option(GENERATOR_PARAMS["unique"])
@click_option(GENERATOR_PARAMS["band"])
@time_limit_option(DEFAULT_TIME_LIMIT)
@budget_option(DEFAULT_GENERATE_BUDGET)
@click_option(GENERATOR_PARAMS["temperature"])
@PREDICTOR_OPTION
@title_option()
@output_option
@json_option
def generate(
    method: list[str],
    size: str,
    count: int,
    seed: int,
    unique: bool,
    band: str,
    time_limit: float,
    budget: int,
    temperature: float,
    predictor: str,
    title: str | None,
    output: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Generate solvable levels: a level pack that `solve` and the app read.

    Level k comes from seed+k (a seed that gives nothing acceptable, or a level equal to an
    earlier one, is skipped). Titles say the method, size, seed and predicted difficulty;
    par is the shortest solution. The pack's description records this command. --json
    prints one object per level on stdout (the pack still goes to --output when given).
    Each level is bounded by --time-limit (the first one's time counts from the command's
    start) and by --work-budget: states its candidates' solver, filters and description may
    expand, a bound that gives the same pack on a busy machine as on an idle one.
    """
    from core.levelpack import LevelPack
    from core.longcat import GenerationError
    from core.longcat.catalog import make_level
    from grammar.levels import dump_pack

    methods, grid, bounds = _generate_choices(method, size, band)
    chosen = _given_temperature(temperature)
    if chosen is not None and "rl" not in methods:
        raise click.UsageError("--temperature is for the learned generator: add --method rl")
    if "rl" in methods:
        from tui.games.longcat.weights import install, load_policy, shipped_sizes

        install()
        try:
            found = load_policy(*grid)
        except ValueError as error:  # a damaged weights file
            fail(str(error))
        if found is None:
            trained = ", ".join(f"{w}x{h}" for w, h in shipped_sizes()) or "none"
            fail(f"no learned generator for {grid[0]}x{grid[1]} (trained sizes: {trained})")
    check_output(output, force)
    deadlines = LevelDeadlines(time_limit)  # the first seed's counts the options' reading too
    levels: list[Any] = []
    keys: set[tuple[int, int, int, tuple[int, int]]] = set()
    last_error = ""
    tries = max(3 * count, count + 20)
    with progress_bar(count, "generating", progress_wanted(as_json)) as step:
        for k in range(tries):
            if len(levels) == count or seed + k > SEED_MAX:
                break
            one = methods[k % len(methods)]
            extra: dict[str, Any] = {}
            if one == "rl" and chosen is not None:
                extra["temperature"] = chosen
            try:
                level = make_level(
                    one,
                    seed + k,
                    grid[0],
                    grid[1],
                    unique=unique,
                    band=bounds[1] if bounds else None,
                    time_guard=deadlines.next() - time.monotonic(),
                    budget=budget or None,
                    predictor=predictor,
                    **extra,
                )
            except GenerationError as error:
                last_error = str(error)
                continue
            key = (level.width, level.height, level.walls, level.start)
            if key in keys:
                continue
            keys.add(key)
            levels.append(level)
            if as_json:
                made = GENERATE_ROW(
                    seed=seed + k,
                    method=one,
                    id=_generated_id(one, grid, bounds, unique, predictor, seed + k, level),
                    title=level.title,
                    par=level.par,
                    grid=list(level.rows()),
                    start_success=_start_success(level),
                )
                emit_json(GENERATE_ROW.json(made))
            step(label=level.title)
    if levels and (output is not None or not as_json):
        pack = LevelPack(
            title=title or f"Longcat: {','.join(methods)} {grid[0]}x{grid[1]}",
            author="termarcade generator",
            description=f"Generated by: {_command_line(methods, grid, count, seed, unique, bounds, predictor, chosen)}",
            levels=tuple(levels),
            game=GAME_ID,
        )
        write_output(output, dump_pack(pack), force, plural(len(levels), "level"))
    if len(levels) < count:
        why = f" (last: {last_error})" if last_error else ""
        click.echo(f"error: made {len(levels)} of {count} levels in {tries} seeds{why}", err=True)
        raise click.exceptions.Exit(EXIT_NEGATIVE)


def _generated_id(
    method: str,
    size: tuple[int, int],
    band: tuple[str, Any] | None,
    unique: bool,
    predictor: str,
    seed: int,
    level: Level,
) -> str:
    """A generated level's ID (``longcat:sd-8x8-hard#48213``): the arcade's generator with
    these settings makes the same level; with another predictor than the arcade's, the
    level's custom ID, as for the learned generator."""
    from core.longcat.difficulty import DEFAULT_PREDICTOR
    from tui.ids import generated_level_id, level_id

    if predictor != DEFAULT_PREDICTOR or method == "rl":
        # The learned generator's level also depends on its temperature and on the shipped
        # weights, which no generated ID spells (docs/sharing.md): the level itself travels.
        return level_id("longcat", None, level)
    chosen = {"size": f"{size[0]}x{size[1]}", "band": band[0] if band else "any", "unique": unique}
    return generated_level_id(
        "longcat", method, GENERATOR_PARAMS.id_params(chosen, method), seed, level
    )


# --------------------------------------------------------------------------- describe


def _comment_lines(comments: tuple[str, ...]) -> str:
    lines = [line for comment in comments for line in comment.splitlines() or [""]]
    return "".join(f"; {escape_controls(line)}".rstrip() + "\n" for line in lines) + (
        "\n" if lines else ""
    )


def _undecided(watch: Watch) -> str:
    """``undecided within the work budget`` or ``... the limits`` (time, states)."""
    return (
        "undecided within the work budget (raise --work-budget)"
        if watch.budget_left == 0
        else "undecided within the limits"
    )


@longcat.command()
@click.argument("level_file", metavar="FILE")
@click.option(
    "--prefix", default=None, help="Retitle levels '<prefix> N' (default: keep their titles)."
)
@title_option("the file's")
@click.option("--author", default=None, help="The pack's author (and of levels without one).")
@click.option("--description", default=None, help="The pack's description.")
@click.option(
    "--comment",
    multiple=True,
    help="A ';' comment line at the top of the file (repeat for more lines).",
)
@output_option
@PREDICTOR_OPTION
@LIMITS
def describe(
    level_file: str,
    prefix: str | None,
    title: str | None,
    author: str | None,
    description: str | None,
    comment: tuple[str, ...],
    output: str | None,
    force: bool,
    predictor: str,
    limits: Limits,
) -> None:
    """Write a pack with every level described: par = the shortest solution, and the
    predicted difficulty at the end of its title ('Level 3 · easy 31').

    Reads plain grid packs too, so it turns a bare grid file into a level pack. Exit 1
    (writing nothing) when a level is unsolvable or undecided within the limits.
    """
    from core.levelpack import LevelPack
    from core.longcat import GenerationError, is_solvable
    from core.longcat.catalog import describe as describe_level
    from grammar.levels import dump_pack

    check_output(output, force)
    deadlines = LevelDeadlines(limits.time_limit)
    pack = load_levels(level_file)
    levels = []
    with progress_bar(len(pack.levels), "describing", True) as step:
        for number, level in enumerate(pack.levels, start=1):
            watch = limits.watch(deadlines.next())
            solvable = is_solvable(level, max_states=limits.max_states, watch=watch)
            if solvable is not True:
                fail(
                    f"level {number} ({level.title!r}) is "
                    f"{'unsolvable' if solvable is False else _undecided(watch)}",
                    EXIT_NEGATIVE,
                )
            base = f"{prefix} {number}" if prefix else level.title.split(" · ")[0]
            if author and not level.author:
                level = dataclasses.replace(level, author=author)
            try:
                described_level = describe_level(
                    level, base, max_states=limits.max_states, predictor=predictor, watch=watch
                )
            except GenerationError as stopped:
                fail(f"level {number} ({level.title!r}): {stopped}", EXIT_NEGATIVE)
            levels.append(described_level)
            step(label=base)
    with user_errors():
        described = LevelPack(
            title=title if title is not None else pack.title,
            author=author if author is not None else pack.author,
            description=(description if description is not None else pack.description),
            levels=tuple(levels),
            game="longcat",
        )
    write_output(
        output, _comment_lines(comment) + dump_pack(described), force, plural(len(levels), "level")
    )
