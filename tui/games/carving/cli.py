"""``termarcade carving``: closures, elimination questions, scripted play, solving, generating.

Commands (docs/carving.md has every JSON shape)::

    termarcade carving closure LEVEL [--json]
    termarcade carving eliminable LEVEL --edge OPERATOR [--json]
    termarcade carving play-script LEVEL --script FILE [--json]
    termarcade carving solve LEVEL [--time-limit S] [--work-budget N] [--max-states N] [--json]
    termarcade carving generate [-o FILE [--force]] [--count N] [--seed S] [--difficulty D] [--json]
    termarcade carving play

LEVEL is a level file (``*.levels``; ``--level N|TITLE`` picks one, default the first), a
JSON level (a file ending in ``.json``, the interchange form of ``core.carving.level``),
``-`` for either on stdin, a level ID or a bundled pack's name (:mod:`tui.cli.options`). Formulas and operators are read by ``grammar/carving.lark``
(``D(x,y,z)``, ``N(a,b,c)``, ``Δ``/``∇``, ``theta(...)``/``omega(...)``); a bad one is
reported with a caret. Output strings are canonical (no spaces).

Each command's options come from the shared groups (:mod:`tui.cli.options`) and its JSON
object is declared once as a :class:`~tui.cli.output.Row` (``*_ROW`` below: the keys in the
order docs/carving.md gives, and the text form read from the same values).

Exit status: 0 success, 1 a negative answer (an edge that may not be constructed, an illegal
script step, unsolved), 2 bad input or usage, 130 ctrl+c. Textual is imported only by
``play``; the engine and grammar only inside commands, so ``termarcade --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import click

from core.text import plural
from tui.cli.codec import state_json as engine_state_json
from tui.cli.options import (
    SEED_MAX,
    LevelDeadlines,
    LevelFile,
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
    parse_level_pack,
    read_level_source,
    seed_option,
    time_limit_option,
    title_option,
    write_output,
)
from tui.cli.output import (
    EXIT_INTERRUPTED,
    EXIT_NEGATIVE,
    EXIT_OK,
    Field,
    Row,
    StopOnCtrlC,
    emit_json,
    fail,
    parsed,
    progress_bar,
    read_input,
    search_progress,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from core.carving import Level, State
    from core.carving.generator import Generated

__all__ = [
    "CLOSURE_ROW",
    "ELIMINABLE_ROW",
    "GENERATE_ROW",
    "SOLVE_ROW",
    "STATE_ROW",
    "carving",
    "load_levels",
    "state_json",
]

GAME_ID = "carving"


# --------------------------------------------------------------------------- loading


def load_levels(source: str) -> list[tuple[int, Level]]:
    """Read LEVEL: a ``.levels`` file, a ``.json`` level, ``-`` (stdin; JSON when it
    starts with ``{``), a level ID or a bundled pack's name.

    Args:
        source: The path, ``-``, ID or pack name (:func:`tui.cli.options.read_level_source`).

    Returns:
        ``(1-based number, level)`` for every level.

    Raises:
        click.exceptions.Exit: Status 2 with a caret message for bad input.
    """
    from grammar.carving import load_level_json

    if source != "-" and not source.lower().endswith(".json"):
        return numbered_levels(load_level_pack(source, GAME_ID))
    text, name = read_level_source(source, GAME_ID)
    if name.lower().endswith(".json") or text.lstrip("\ufeff \t\r\n").startswith("{"):
        return [(1, parsed(load_level_json, text, name))]
    return numbered_levels(parse_level_pack(text, name, GAME_ID))


def _one_level(levels: LevelFile) -> tuple[int, Level]:
    """The level ``LEVEL [--level]`` names (the first without ``--level``)."""
    return levels.chosen(load_levels(levels.source), where="the file")[0]


def _initial(level: Level) -> State:
    from core.carving import initial_state

    try:
        return initial_state(level)
    except ValueError as error:  # ClosureTooLarge
        fail(f"level {level.title!r} cannot be played: {error}")


_ONE_LEVEL = level_file_options("1", metavar="LEVEL")
"""``LEVEL [--level N|TITLE]``, the first level by default (the ``levels`` parameter)."""


# --------------------------------------------------------------------------- JSON shapes


def _closure_text(row: Mapping[str, Any]) -> Iterator[str]:
    """``closure``'s text: F* and E_Ω, one per line, then what was left out."""
    yield f"F*: {len(row['formulas'])} formulas"
    yield from (f"  {f}" for f in row["formulas"])
    yield f"E_Ω: {len(row['operators'])} intrinsic edges"
    yield from (f"  {e}" for e in row["operators"])
    if row["dropped"]:
        yield f"not well-typed, left out: {', '.join(row['dropped'])}"


def _eliminable_text(row: Mapping[str, Any]) -> Iterator[str]:
    """``eliminable``'s text: why the edge is not legal, or the path it forces."""
    if row["problem"] is not None:
        yield f"not legal: {row['problem']}"
    elif row["path"] is None:
        yield "legal; no elimination path: the edge would stay as a virtual edge"
    else:
        yield "legal; an elimination is forced. A shortest path from the base point:"
        yield "  " + " -> ".join(row["path"])


def _state_text(data: Mapping[str, Any]) -> Iterator[str]:
    """``play-script``'s text: status, base point, edge counts, virtual edges, the pending
    edge and the winning component."""
    yield (
        f"status {data['status']}, phase {data['phase']}, steps {data['steps']}"
        + (f" (par {data['par']})" if data["par"] is not None else "")
    )
    yield f"base point {data['base']}"
    yield (
        f"tree edges ({len(data['tree'])}), removed ({len(data['removed'])}), "
        f"virtual edges ({len(data['virtual'])})"
    )
    yield from (f"  V {e}" for e in data["virtual"])
    if data["pending"]:
        yield (
            f"new edge {data['pending']}; path so far: "
            + (" ".join(f"-> {v}" for _, v in data["path"]) or "(empty)")
        )
    if data["component"]:
        yield "winning component: " + ", ".join(data["component"]["vertices"])


def _solve_text(row: Mapping[str, Any]) -> Iterator[str]:
    """``solve``'s text: the verdict, par and effort, then the plan as a play script."""
    from grammar.carving import script_text

    par = f", par {row['par']}" if row["par"] is not None else ", par unknown"
    yield (
        f"level {row['level']} {row['title']!r}: {row['verdict']}{par} "
        f"({row['explored']} states, {row['elapsed']:.2f} s)"
    )
    yield from (f"  {line}" for line in script_text(row["plan"]).splitlines())


def _plan_json(plan: Any) -> list[Any]:
    """A plan's moves in the engine's JSON form."""
    from core.carving import GAME

    return [GAME.move_to_json(move) for move in plan]


CLOSURE_ROW = Row("formulas", "operators", text=_closure_text, text_only=("dropped",))
"""``closure``: F* and E_Ω, sorted (the text also names the formulas left out)."""
ELIMINABLE_ROW = Row("legal", "exists", "path", text=_eliminable_text, text_only=("problem",))
"""``eliminable`` (``problem``: why the edge is not legal, or None)."""
STATE_DERIVED = ("status", "par", "tree", "offered", "candidates", "component")
"""The keys ``play-script --json`` adds after the engine's state (:func:`state_json`)."""
STATE_ROW = Row(
    *("level", "removed", "virtual", "base", "phase", "pending", "path", "steps"),
    *STATE_DERIVED,
    text=_state_text,
)
"""``play-script``: the engine's state (:meth:`core.carving.game.CarvingGame.state_to_json`),
then :data:`STATE_DERIVED`."""
SOLVE_ROW = Row(
    *("level", "title", "status", "steps", "proved", "verdict", "par"),
    Field("plan", _plan_json),
    "explored",
    "generated",
    "reason",
    Field("elapsed", lambda seconds: round(seconds, 3)),
    text=_solve_text,
)
"""One level of ``solve`` (``plan`` holds the solver's moves, ``elapsed`` its seconds)."""
GENERATE_ROW = Row("seed", "id", "title", "par")
"""One level of ``generate --json``."""


def state_json(state: State) -> dict[str, Any]:
    """The ``play-script --json`` object of a state: the engine's state, then derived keys.

    Returns:
        The engine's ``{"level", "removed", "virtual", "base", "phase", "pending", "path",
        "steps"}`` (:meth:`core.carving.game.CarvingGame.state_to_json`: ``level`` the level
        as JSON, ``removed`` the intrinsic edges gone, ``path`` the elimination path so far
        as ``[edge, vertex]`` pairs), then :data:`STATE_DERIVED`: ``status``, ``par``,
        ``tree`` (the intrinsic edges present), ``offered`` (the steps the path may take
        next, path phase), ``candidates`` (the possible new base points, succession phase)
        and ``component`` (the winning component ``{"vertices", "edges"}`` or null). Edges
        and formulas are canonical strings; lists are sorted except ``path`` and
        ``offered`` (play order) and ``removed`` (E_Ω's order).
    """
    from core.carving import GAME, path_steps, succession_candidates, winning_component

    found = winning_component(state) if state.phase == "won" else None
    data = engine_state_json(
        GAME,
        state,
        status=GAME.status(state),
        par=state.level.par,
        tree=sorted(str(e) for e in state.tree),
        offered=[[str(e), str(v)] for e, v in path_steps(state)],
        candidates=(
            [str(v) for v in succession_candidates(state)] if state.phase == "succession" else []
        ),
        component=None
        if found is None
        else {
            "vertices": sorted(str(v) for v in found[0]),
            "edges": sorted(str(e) for e in found[1]),
        },
    )
    return STATE_ROW(**data)


# --------------------------------------------------------------------------- the group


@click.group(name=GAME_ID, context_settings={"help_option_names": ["-h", "--help"]})
def carving() -> None:
    """Triangle Carving: closures, elimination paths, scripted play, solver, generator.

    LEVEL is a .levels file (--level picks one), a .json level, or - for stdin.
    Exit: 0 ok, 1 negative answer, 2 bad input, 130 ctrl+c.
    """


carving.add_command(
    game_play_command(
        GAME_ID,
        "Open the arcade on Triangle Carving (on the levels of FILE, or the level of an ID).",
    )
)


@carving.command()
@_ONE_LEVEL
@json_option
def closure(levels: LevelFile, as_json: bool) -> None:
    """The closure F* (vertices) and E_Ω (intrinsic edges) of a level, sorted.

    --json prints {"formulas": [...], "operators": [...]}.
    """
    from core.carving import ClosureTooLarge, compute_closure

    _, chosen = _one_level(levels)
    try:
        found = compute_closure(chosen)
    except ClosureTooLarge as error:
        fail(str(error), EXIT_NEGATIVE)
    row = CLOSURE_ROW(
        formulas=sorted(str(f) for f in found.formulas),
        operators=sorted(str(e) for e in found.edges),
        dropped=sorted(str(f) for f in found.dropped_rotations | found.dropped_conclusions),
    )
    CLOSURE_ROW.emit(row, as_json)


@carving.command()
@_ONE_LEVEL
@click.option(
    "--edge",
    "-e",
    "edge",
    required=True,
    metavar="OPERATOR",
    help="The edge to construct: theta(N(..),D(..),D(..),D(..),D(..)) or omega(...).",
)
@json_option
def eliminable(levels: LevelFile, edge: str, as_json: bool) -> None:
    """Would constructing OPERATOR at the level's start force an elimination?

    "legal": the edge may be constructed (a theta/omega 5-tuple whose five formulas are in
    F*, not an intrinsic edge). "exists": a legal elimination path exists for it (R ≠ ∅).
    "path": a shortest such path from the base point, [vertex, edge, vertex, ...], or null.
    --json prints {"legal", "exists", "path"}. Exit 1 when the edge is not legal (the reason goes to stderr).
    """
    from core.carving import construct, suggest_path
    from grammar.carving import parse_operator

    _, chosen = _one_level(levels)
    op = parsed(parse_operator, edge, "<--edge>")
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
    row = ELIMINABLE_ROW(legal=problem is None, exists=path is not None, path=path, problem=problem)
    ELIMINABLE_ROW.emit(row, as_json)
    if problem is not None:
        if as_json:
            click.echo(f"error: {problem}", err=True)
        raise click.exceptions.Exit(EXIT_NEGATIVE)


@carving.command(name="play-script")
@_ONE_LEVEL
@click.option(
    "--script",
    "script",
    required=True,
    metavar="FILE",
    help='Steps, one per line ("-" for stdin): construct OP | step OP FORMULA | '
    "finish | base FORMULA.",
)
@json_option
def play_script(levels: LevelFile, script: str, as_json: bool) -> None:
    """Play a script of steps from the level's start and print the resulting state.

    A step the rules refuse stops the script with exit 1, naming its line and the reason.
    --json prints the state: the engine's keys, then status, par, tree, offered,
    candidates and component.
    """
    from core.carving import GAME
    from core.game import IllegalMove
    from grammar.carving import parse_script

    if script == "-" and levels.level_file == "-":
        raise click.UsageError("LEVEL and --script cannot both be read from stdin")
    _, chosen = _one_level(levels)
    text, name = read_input(script)
    steps = parsed(parse_script, text, name)
    state = _initial(chosen)
    for step in steps:
        try:
            state = GAME.apply(state, step.move)
        except IllegalMove as error:
            fail(f"{name}:{step.line}: {step.kind}: {error}", EXIT_NEGATIVE)
    STATE_ROW.emit(state_json(state), as_json)


# --------------------------------------------------------------------------- solve


@carving.command()
@level_file_options("every level", metavar="LEVEL")
@time_limit_option(10.0)
@budget_option(2_000_000)
@max_states_option(20_000)
@json_option
def solve(
    levels: LevelFile,
    time_limit: float,
    budget: int,
    max_states: int,
    as_json: bool,
) -> None:
    """Fewest steps to a win: a shortest plan, unsolvable, or unknown within the limits.

    The verdict is one of "solved in N steps (shortest)", "solved in N steps (not proved
    shortest: REASON)", "proved unsolvable" or "unknown (REASON)"; --json gives it as
    "verdict", with "proved". The plan is printed as a play script (play-script reads it back). --work-budget counts state
    images per level (each state generated, once per renaming of the level's variables that
    keys it; 6 to 75 µs each). The first level's --time-limit counts from the command's
    start, reading the file included. An unknown answer names the bound hit: time limit,
    work budget, state limit, cancelled or truncated. Exit 0 when every chosen level is solved, 1 otherwise, 130 after ctrl+c (which stops
    the search cleanly).
    """
    from core.carving import solve as run_solver
    from core.carving.generators import known_solution

    deadlines = LevelDeadlines(time_limit)  # the first level's limit counts its loading too
    chosen = levels.chosen(load_levels(levels.source), every_level=True, where="the file")
    status = EXIT_OK
    with StopOnCtrlC() as cancel:
        for number, lvl in chosen:
            if cancel():
                break
            with search_progress(
                f"level {number}: {lvl.title or 'untitled'}", show=not as_json
            ) as progress:
                try:
                    result = run_solver(
                        lvl,
                        deadline=deadlines.next(),
                        budget=budget or None,
                        max_states=max_states,
                        should_stop=cancel,
                        progress=progress,
                        # A generated level: the generator's proved plan is the first known
                        # solution, so the search repeats its bounded proof.
                        known=known_solution(lvl),
                    )
                except ValueError as error:  # ClosureTooLarge
                    fail(f"level {number}: {error}", EXIT_NEGATIVE)
            if result.status != "solved":
                status = EXIT_NEGATIVE
            reason = "cancelled" if cancel() and result.status == "unknown" else result.reason
            row = SOLVE_ROW.of(
                result,
                level=number,
                title=lvl.title,
                steps=result.steps if result.status == "solved" else None,
                verdict=result.verdict if reason == result.reason else f"unknown ({reason})",
                par=lvl.par,
                reason=reason,
            )
            SOLVE_ROW.emit(row, as_json)
    if cancel():
        click.echo("interrupted: the search was stopped", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
    raise click.exceptions.Exit(status)


# --------------------------------------------------------------------------- generate


@carving.command()
@click.argument("out", metavar="[OUT]", required=False)
@count_option(10, 1000)
@seed_option(1)
@click.option(
    "--difficulty",
    "-d",
    type=click.Choice(["easy", "medium", "hard"]),
    default="easy",
    show_default=True,
    help="Difficulty: easy, medium or hard (each its own generator).",
)
@title_option("from the difficulty")
@budget_option(0)
@output_option
@json_option
def generate(
    out: str | None,
    count: int,
    seed: int,
    difficulty: str,
    title: str | None,
    budget: int,
    output: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Generate a pack of solvable levels: to stdout, or to -o FILE (OUT, the older
    spelling of -o, still works).

    Levels are made solution-down (random legal play, a component becomes the target); the
    solver proves par by branch and bound against the play-out, and only levels whose par
    is proved are kept (a play-out it cannot prove is replaced by the seed's next one).
    --work-budget bounds each proof (state images; 0, the default, the generator's own
    bounds); when it stops none the levels, and their IDs, are the same as without it, and
    when it stops every proof of a seed the command fails (exit 1).
    The file is never overwritten without --force; it is written only once every level is
    made (through a temporary file), so ctrl+c leaves nothing behind. --json prints one
    {"seed", "id", "title", "par"} object per level on stdout (the pack still goes to the
    file when one is named).
    """
    from core.carving.generator import NoProvedLevel
    from core.carving.generators import GENERATORS
    from core.levelpack import LevelPack
    from grammar.levels import dump_pack

    if out is not None and output is not None:
        raise click.UsageError("name the file once: OUT or -o FILE")
    target = output if output is not None else out
    if target == "-" and as_json:  # both would go to stdout, and neither could be read back
        raise click.UsageError(
            "--json needs a file OUT (or -o FILE): with -, the pack itself goes to stdout"
        )
    if target == "-":
        target = None
    check_output(target, force)
    generator = GENERATORS[difficulty]
    levels: list[Any] = []
    current = seed
    with progress_bar(count, "generating", not as_json) as advance:
        while len(levels) < count:
            if current > SEED_MAX:
                fail(f"ran out of seeds ({SEED_MAX} is the last)")
            try:
                # 0 (the default) is the generator's own bounds: the arcade's levels, the IDs'.
                made = generator.generated(current, **({"budget": budget} if budget else {}))
            except NoProvedLevel as error:  # more seeds would fare no better: say so
                hint = "; a larger --work-budget may prove one" if error.budget_stopped else ""
                fail(f"{error}{hint}", EXIT_NEGATIVE)
            except ValueError:  # no usable play-out from this seed: the next one
                current += 1
                continue
            level = made.level
            levels.append(level)
            if as_json:
                from tui.ids import generated_level_id

                # A budget that changed the drawing made a level the plain seed does not:
                # it gets a custom ID, which carries the level itself.
                plain = _seeds_level(made, budget, generator.knobs.get("budget"))
                hit = {} if plain else {"work_budget": budget}
                level_id = generated_level_id(GAME_ID, difficulty, hit, current, level)
                row = GENERATE_ROW(seed=current, id=level_id, title=level.title, par=level.par)
                emit_json(GENERATE_ROW.json(row))
            advance()
            current += 1
    pack = LevelPack(
        title=title or f"Generated: {generator.title.lower()}",
        author="termarcade generator",
        description=f"{generator.description} (seeds {seed} to {current - 1})",
        levels=tuple(levels),
        game=GAME_ID,
    )
    if target is None and as_json:  # the JSON lines are stdout's: the pack goes nowhere
        return
    write_output(target, dump_pack(pack), force, "" if as_json else plural(len(levels), "level"))


def _seeds_level(made: Generated, budget: int, default: int | None) -> bool:
    """Whether a level made under ``--work-budget budget`` is the one its seed's ID names
    (made under the generator's own budget ``default``).

    Args:
        made: The generated level and its record.
        budget: The command's budget (0: none given).
        default: The generator's budget (None: none).

    Returns:
        True when every proof of the drawing would have gone the same way under
        ``default``: none was stopped by ``budget`` and none spent more than ``default``.
    """
    if not budget or budget == default:
        return True
    return not made.budget_stopped and (default is None or made.work <= default)
