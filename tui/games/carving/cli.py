"""``termarcade carving``: closures, elimination questions, scripted play, solving, generating.

Commands (docs/carving.md has every JSON shape)::

    termarcade carving closure LEVEL [--json]
    termarcade carving eliminable LEVEL --edge OPERATOR [--json]
    termarcade carving play-script LEVEL --script FILE [--json]
    termarcade carving solve LEVEL [--time-limit S] [--max-states N] [--json]
    termarcade carving generate OUT [--count N] [--seed S] [--difficulty D] [--force] [--json]
    termarcade carving play

LEVEL is a level file (``*.levels``; ``--level N|TITLE`` picks one, default the first), a
JSON level (a file ending in ``.json``, the interchange form of ``core.carving.level``), or
``-`` for either on stdin. Formulas and operators are read by ``grammar/carving.lark``
(``D(x,y,z)``, ``N(a,b,c)``, ``Δ``/``∇``, ``theta(...)``/``omega(...)``); a bad one is
reported with a caret. Output strings are canonical (no spaces).

Exit status: 0 success, 1 a negative answer (an edge that may not be constructed, an illegal
script step, unsolved), 2 bad input or usage, 130 ctrl+c. Textual is imported only by
``play``; the engine and grammar only inside commands, so ``termarcade --help`` stays fast.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from core.text import plural
from tui.cli.output import (
    EXIT_INTERRUPTED,
    EXIT_NEGATIVE,
    EXIT_OK,
    IntBetween,
    Seconds,
    choose_levels,
    console,
    emit_json,
    fail,
    read_input,
    report_parse_error,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from core.carving import Level, State

__all__ = ["carving", "load_levels", "state_json"]

GAME_ID = "carving"


# --------------------------------------------------------------------------- loading


def _parse_or_exit(parse: Callable[[str, str], Any], text: str, what: str) -> Any:
    """Run a grammar reader; a ParseError exits 2 with its caret block."""
    from grammar.errors import ParseError

    try:
        return parse(text, what)
    except ParseError as error:
        report_parse_error(error)


def load_levels(source: str) -> list[tuple[int, Level]]:
    """Read LEVEL: a ``.levels`` file, a ``.json`` level, or ``-`` (stdin; JSON when it
    starts with ``{``).

    Args:
        source: The path or ``-``.

    Returns:
        ``(1-based number, level)`` for every level.

    Raises:
        click.exceptions.Exit: Status 2 with a caret message for bad input.
    """
    from core.carving import Level
    from grammar.carving import load_level_json
    from grammar.levels import load_pack

    text, name = read_input(source, level_id=True)
    if name.lower().endswith(".json") or (
        source == "-" and text.lstrip("\ufeff \t\r\n").startswith("{")
    ):
        return [(1, _parse_or_exit(load_level_json, text, name))]
    pack = _parse_or_exit(load_pack, text, name)
    levels = list(pack.levels)
    if not levels:
        fail(f"{name}: the level file holds no level")
    if not all(isinstance(level, Level) for level in levels):
        fail(f"{name}: this is a level file for {pack.game or 'another game'}, not for carving")
    return list(enumerate(levels, start=1))


def _pick(
    levels: list[tuple[int, Level]], spec: str | None, default_all: bool = False
) -> list[tuple[int, Level]]:
    """``--level N|TITLE`` (1-based number, or a title: exact, then case-insensitive)."""
    if spec is None:
        return levels if default_all else levels[:1]
    return choose_levels(levels, spec, "the file")


def _one_level(source: str, spec: str | None) -> tuple[int, Level]:
    return _pick(load_levels(source), spec)[0]


def _initial(level: Level) -> State:
    from core.carving import initial_state

    try:
        return initial_state(level)
    except ValueError as error:  # ClosureTooLarge
        fail(f"level {level.title!r} cannot be played: {error}")


_LEVEL_OPTION = click.option(
    "--level",
    "-l",
    "level",
    metavar="N|TITLE",
    help="Level number (1-based) or title in LEVEL [default: 1].",
)


# --------------------------------------------------------------------------- JSON shapes


def state_json(state: State) -> dict[str, Any]:
    """The ``play-script --json`` object of a state.

    Returns:
        ``{"status", "phase", "steps", "par", "base", "tree", "removed", "virtual",
        "pending", "path", "offered", "candidates", "component"}``: tree/removed are the
        intrinsic edges present/gone, ``path`` the elimination path so far as
        ``[edge, vertex]`` pairs, ``offered`` the steps the path may take next (path phase),
        ``candidates`` the possible new base points (succession phase), ``component`` the
        winning component ``{"vertices", "edges"}`` or null. Edges and formulas are canonical
        strings; every list is sorted except ``path`` and ``offered`` (play order).
    """
    from core.carving import GAME, path_steps, succession_candidates, winning_component

    world = state.world
    found = winning_component(state) if state.phase == "won" else None
    return {
        "status": GAME.status(state),
        "phase": state.phase,
        "steps": state.steps,
        "par": state.level.par,
        "base": str(state.base),
        "tree": sorted(str(e) for e in state.tree),
        "removed": sorted(str(e) for e in world.intrinsic if e not in state.tree),
        "virtual": sorted(str(e) for e in state.virtual),
        "pending": None if state.pending is None else str(state.pending),
        "path": [[str(e), str(v)] for e, v in state.path],
        "offered": [[str(e), str(v)] for e, v in path_steps(state)],
        "candidates": (
            [str(v) for v in succession_candidates(state)] if state.phase == "succession" else []
        ),
        "component": None
        if found is None
        else {
            "vertices": sorted(str(v) for v in found[0]),
            "edges": sorted(str(e) for e in found[1]),
        },
    }


# --------------------------------------------------------------------------- the group


@click.group(name=GAME_ID, context_settings={"help_option_names": ["-h", "--help"]})
def carving() -> None:
    """Triangle Carving: closures, elimination paths, scripted play, solver, generator.

    LEVEL is a .levels file (--level picks one), a .json level, or - for stdin.
    Exit: 0 ok, 1 negative answer, 2 bad input, 130 ctrl+c.
    """


@carving.command()
@click.argument("level_file", required=False, metavar="[FILE | ID]")
@click.pass_context
def play(ctx: click.Context, level_file: str | None) -> None:
    """Open the arcade on Triangle Carving (on the levels of FILE, or the level of an ID)."""
    import tui.cli as shell

    ctx.invoke(shell.play, game=GAME_ID, level_file=level_file, level=None)


@carving.command()
@click.argument("level_file", metavar="LEVEL")
@_LEVEL_OPTION
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"formulas": [...], "operators": [...]}.'
)
def closure(level_file: str, level: str | None, as_json: bool) -> None:
    """The closure F* (vertices) and E_Ω (intrinsic edges) of a level, sorted."""
    from core.carving import ClosureTooLarge, compute_closure

    _, chosen = _one_level(level_file, level)
    try:
        found = compute_closure(chosen)
    except ClosureTooLarge as error:
        fail(str(error), EXIT_NEGATIVE)
    formulas = sorted(str(f) for f in found.formulas)
    operators = sorted(str(e) for e in found.edges)
    if as_json:
        emit_json({"formulas": formulas, "operators": operators})
        return
    click.echo(f"F*: {len(formulas)} formulas")
    for f in formulas:
        click.echo(f"  {f}")
    click.echo(f"E_Ω: {len(operators)} intrinsic edges")
    for e in operators:
        click.echo(f"  {e}")
    dropped = sorted(str(f) for f in found.dropped_rotations | found.dropped_conclusions)
    if dropped:
        click.echo(f"not well-typed, left out: {', '.join(dropped)}")


@carving.command()
@click.argument("level_file", metavar="LEVEL")
@_LEVEL_OPTION
@click.option(
    "--edge",
    "-e",
    "edge",
    required=True,
    metavar="OPERATOR",
    help="The edge to construct: theta(N(..),D(..),D(..),D(..),D(..)) or omega(...).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"legal": bool, "exists": bool, "path": [...] | null}.',
)
def eliminable(level_file: str, level: str | None, edge: str, as_json: bool) -> None:
    """Would constructing OPERATOR at the level's start force an elimination?

    "legal": the edge may be constructed (a theta/omega 5-tuple whose five formulas are in
    F*, not an intrinsic edge). "exists": a legal elimination path exists for it (R ≠ ∅).
    "path": a shortest such path from the base point, [vertex, edge, vertex, ...], or null.
    Exit 1 when the edge is not legal (the reason goes to stderr).
    """
    from core.carving import construct, suggest_path
    from grammar.carving import parse_operator

    _, chosen = _one_level(level_file, level)
    op = _parse_or_exit(parse_operator, edge, "<--edge>")
    state = _initial(chosen)
    problem = state.world.construct_problem(op)
    if problem is None and state.phase != "construct":
        problem = f"nothing can be constructed in this level (the game is {state.phase})"
    path: list[str] | None = None
    if problem is None:
        after = construct(state, op)
        if after.phase == "path":
            path = [str(state.base)]
            for e, v in suggest_path(after) or ():
                path += [str(e), str(v)]
    data = {"legal": problem is None, "exists": path is not None, "path": path}
    if as_json:
        emit_json(data)
    elif problem is not None:
        click.echo(f"not legal: {problem}")
    elif path is None:
        click.echo("legal; no elimination path: the edge would stay as a virtual edge")
    else:
        click.echo("legal; an elimination is forced. A shortest path from the base point:")
        click.echo("  " + " -> ".join(path))
    if problem is not None:
        if as_json:
            click.echo(f"error: {problem}", err=True)
        raise click.exceptions.Exit(EXIT_NEGATIVE)


@carving.command(name="play-script")
@click.argument("level_file", metavar="LEVEL")
@_LEVEL_OPTION
@click.option(
    "--script",
    "-s",
    "script",
    required=True,
    metavar="FILE",
    help='Steps, one per line ("-" for stdin): construct OP | step OP FORMULA | '
    "finish | base FORMULA.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the resulting state as JSON.")
def play_script(level_file: str, level: str | None, script: str, as_json: bool) -> None:
    """Play a script of steps from the level's start and print the resulting state.

    A step the rules refuse stops the script with exit 1, naming its line and the reason.
    """
    from core.carving import GAME
    from core.game import IllegalMove
    from grammar.carving import parse_script

    if script == "-" and level_file == "-":
        raise click.UsageError("LEVEL and --script cannot both be read from stdin")
    _, chosen = _one_level(level_file, level)
    text, name = read_input(script)
    steps = _parse_or_exit(parse_script, text, name)
    state = _initial(chosen)
    for step in steps:
        try:
            state = GAME.apply(state, step.move)
        except IllegalMove as error:
            fail(f"{name}:{step.line}: {step.kind}: {error}", EXIT_NEGATIVE)
    data = state_json(state)
    if as_json:
        emit_json(data)
        return
    click.echo(
        f"status {data['status']}, phase {data['phase']}, steps {data['steps']}"
        + (f" (par {data['par']})" if data["par"] is not None else "")
    )
    click.echo(f"base point {data['base']}")
    click.echo(
        f"tree edges ({len(data['tree'])}), removed ({len(data['removed'])}), "
        f"virtual edges ({len(data['virtual'])})"
    )
    for e in data["virtual"]:
        click.echo(f"  V {e}")
    if data["pending"]:
        click.echo(
            f"new edge {data['pending']}; path so far: "
            + (" ".join(f"-> {v}" for _, v in data["path"]) or "(empty)")
        )
    if data["component"]:
        click.echo("winning component: " + ", ".join(data["component"]["vertices"]))


# --------------------------------------------------------------------------- solve


class _Cancel:
    """A flag set by ctrl+c (SIGINT) so a long search stops at a clean point."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self._previous: Any = None

    def __enter__(self) -> _Cancel:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, lambda *_: self.event.set())
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def __call__(self) -> bool:
        return self.event.is_set()


@carving.command()
@click.argument("level_file", metavar="LEVEL")
@click.option(
    "--level",
    "-l",
    "level",
    metavar="N|TITLE",
    help="Level number (1-based) or title [default: every level].",
)
@click.option(
    "--time-limit",
    type=Seconds(),
    default=10.0,
    show_default=True,
    help="Seconds per level before the answer is unknown.",
)
@click.option(
    "--max-states",
    type=IntBetween(1, what="the state limit"),
    default=20_000,
    show_default=True,
    help="States kept per level before the answer is unknown.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per level.")
def solve(
    level_file: str, level: str | None, time_limit: float, max_states: int, as_json: bool
) -> None:
    """Fewest steps to a win: a shortest plan, unsolvable, or unknown within the limits.

    The plan is printed as a play script (play-script reads it back). Exit 0 when every
    chosen level is solved, 1 otherwise, 130 after ctrl+c (which stops the search cleanly).
    """
    from core.carving import GAME
    from core.carving import solve as run_solver
    from grammar.carving import script_text

    chosen = _pick(load_levels(level_file), level, default_all=True)
    status = EXIT_OK
    with _Cancel() as cancel:
        for number, lvl in chosen:
            if cancel():
                break
            with _spinner(
                f"level {number}: {lvl.title or 'untitled'}", disable=as_json
            ) as progress:
                try:
                    result = run_solver(
                        lvl,
                        time_limit=time_limit,
                        max_states=max_states,
                        should_stop=cancel,
                        progress=progress,
                    )
                except ValueError as error:  # ClosureTooLarge
                    fail(f"level {number}: {error}", EXIT_NEGATIVE)
            if result.status != "solved":
                status = EXIT_NEGATIVE
            reason = "cancelled" if cancel() and result.status == "unknown" else result.reason
            data = {
                "level": number,
                "title": lvl.title,
                "status": result.status,
                "steps": result.steps if result.status == "solved" else None,
                "par": lvl.par,
                "plan": [GAME.move_to_json(m) for m in result.plan],
                "explored": result.explored,
                "reason": reason,
                "elapsed": round(result.elapsed, 3),
            }
            if as_json:
                emit_json(data)
                continue
            tail = f", {reason}" if reason else ""
            par = f", par {lvl.par}" if lvl.par is not None else ""
            steps = f" in {plural(result.steps, 'step')}" if result.status == "solved" else ""
            click.echo(
                f"level {number} {lvl.title!r}: {result.status}{steps}{par} "
                f"({result.explored} states{tail}, {result.elapsed:.2f} s)"
            )
            for line in script_text(result.plan).splitlines():
                click.echo(f"  {line}")
    if cancel():
        click.echo("interrupted: the search was stopped", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
    raise click.exceptions.Exit(status)


class _spinner:
    """A transient rich spinner on stderr with the solver's counts (terminals only)."""

    def __init__(self, label: str, disable: bool) -> None:
        self.label = label
        self.enabled = not disable and sys.stderr.isatty()
        self._progress: Any = None

    def __enter__(self) -> Callable[[int, int], None] | None:
        if not self.enabled:
            return None
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._progress = Progress(
            SpinnerColumn(),
            TextColumn(self.label),
            TextColumn("{task.fields[explored]} explored, {task.fields[frontier]} queued"),
            TimeElapsedColumn(),
            console=console(stderr=True),
            transient=True,
        )
        self._progress.__enter__()
        task = self._progress.add_task(self.label, total=None, explored=0, frontier=0)

        def update(explored: int, frontier: int) -> None:
            self._progress.update(task, explored=explored, frontier=frontier)

        return update

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)


# --------------------------------------------------------------------------- generate


@carving.command()
@click.argument("out", metavar="OUT")
@click.option(
    "--count",
    "-n",
    type=IntBetween(1, 1000, what="the number of levels"),
    default=10,
    show_default=True,
    help="How many levels.",
)
@click.option(
    "--seed",
    type=IntBetween(0, 2**32 - 1, what="the seed"),
    default=1,
    show_default=True,
    help="Seed of the first level; level k tries seed + k, ...",
)
@click.option(
    "--difficulty",
    "-d",
    type=click.Choice(["easy", "medium", "hard"]),
    default="easy",
    show_default=True,
    help="Which generator.",
)
@click.option("--title", default=None, help="The pack's title [default: from the difficulty].")
@click.option("--force", is_flag=True, help="Overwrite OUT if it exists.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='One {"seed", "id", "title", "par"} object per level on stdout.',
)
def generate(
    out: str, count: int, seed: int, difficulty: str, title: str | None, force: bool, as_json: bool
) -> None:
    """Generate a pack of solvable levels into OUT (a .levels file, or - for stdout).

    Levels are made solution-down (random legal play, a component becomes the target); par is
    the play-out's length, shortened by the solver when it finds better within its bounds.
    OUT is never overwritten without --force; it is written only once every level is made
    (through a temporary file), so ctrl+c leaves nothing behind.
    """
    from core.carving.generators import GENERATORS
    from core.levelpack import LevelPack
    from grammar.levels import dump_pack

    if out == "-" and as_json:  # both would go to stdout, and neither could be read back
        raise click.UsageError("--json needs a file OUT: with -, the pack itself goes to stdout")
    if out != "-" and os.path.isdir(out):  # before "exists": --force would not help
        fail(f"{out} is a directory; name the .levels file to write")
    if out != "-" and os.path.exists(out) and not force:
        fail(f"{out} exists; add --force to overwrite it")
    generator = GENERATORS[difficulty]
    levels: list[Any] = []
    current = seed
    with _bar(count, disable=as_json) as advance:
        while len(levels) < count:
            if current > 2**32 - 1:
                fail("ran out of seeds (2**32 - 1 is the last)")
            try:
                level = generator.generate(current)
            except ValueError:  # no usable play-out from this seed: the next one
                current += 1
                continue
            levels.append(level)
            if as_json:
                from tui.ids import generated_level_id

                level_id = generated_level_id(GAME_ID, difficulty, {}, current, level)
                emit_json({"seed": current, "id": level_id, "title": level.title, "par": level.par})
            advance()
            current += 1
    pack = LevelPack(
        title=title or f"Generated: {generator.title.lower()}",
        author="termarcade generator",
        description=f"{generator.description} (seeds {seed} to {current - 1})",
        levels=tuple(levels),
        game=GAME_ID,
    )
    text = dump_pack(pack)
    if out == "-":
        click.echo(text, nl=False)
        return
    tmp = f"{out}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, out)
    except OSError as error:
        if os.path.exists(tmp):
            os.unlink(tmp)
        fail(f"{out}: {error.strerror or error}")
    if not as_json:
        click.echo(f"wrote {len(levels)} levels to {out}", err=True)


class _bar:
    """A rich progress bar on stderr (terminals only); ``advance()`` counts a level."""

    def __init__(self, total: int, disable: bool) -> None:
        self.total = total
        self.enabled = not disable and sys.stderr.isatty()
        self._progress: Any = None

    def __enter__(self) -> Callable[[], None]:
        if not self.enabled:
            return lambda: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self._progress = Progress(
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console(stderr=True),
            transient=True,
        )
        self._progress.__enter__()
        task = self._progress.add_task("levels", total=self.total)
        return lambda: self._progress.update(task, advance=1)

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)
