"""Seeded level generators behind one entry point: ``generate(method, seed, width, height)``.

Methods (the ids the command line uses):

* ``sd``: Solution-Down random (seed 003's pseudo-code), solvable by construction.
* ``pu``: Puzzle-Up random: random walls and start, kept when the solver solves it.
* ``template``: a mask template (rectangle with hole, U, S, offset square, chair, spiral),
  mirrored / rotated / squeezed.
* ``ca``: cellular-automaton caves.
* ``bsp``: BSP dungeon rooms and corridors.
* ``carve``: grid carving: walls carved into an open grid, keeping it connected.
* ``fractal``: random fractal subdivision.
* ``shapes``: method B with every template (:data:`core.longcat.templates.ALL_TEMPLATES`:
  the classic six and the seed's difficulty examples); ``template`` keeps the six, so its
  levels for a seed stay as they were.
* ``notch``: the flood-fill notch generator (method C): grooves grown in from the rim.
* ``rl``: the learned generator (SD-PCGRL, seed 003): Solution-Down with a trained DQN
  choosing each step by temperature sampling (option ``temperature`` from 0, greedy, to 1,
  SD-random itself; default 0.3). Its
  network comes from :func:`install_policies` (the shell installs the
  bundled weights; core reads no files); without one for the size it raises
  :class:`GenerationError`.

Every generator makes *candidates*; a candidate is accepted when the solver proves it
solvable (mask generators first pick the start: :func:`pick_start` tries the cells that can
begin a solution, in random order). The optional filters keep only levels with exactly one
solution (``unique``) or a predicted difficulty inside ``band``. Attempt ``a`` of
``generate(method, seed, ...)`` draws from ``random.Random(f"{seed}/{a}")``, so the result
depends only on the arguments, and each attempt can be replayed on its own.

Scale: random masks rarely admit a Longcat solution, and less so the larger they are. The
mask methods' defaults are tuned for 8x8 (see ``bench/longcat.py`` for acceptance rates);
at 16x16 ``ca``, ``bsp`` and ``carve`` seldom find a solvable mask within the default
attempts, while ``sd``, ``template`` and ``fractal`` still do. Solution-Down walks turn
often, and each turn walls a cell, so its levels stay small on large grids.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from core.longcat import algomasks, masks, templates
from core.longcat.difficulty import DEFAULT_PREDICTOR, level_difficulty
from core.longcat.graph import WHY, AnalysisLimit, analyse, watch_reason
from core.longcat.level import MAX_SIZE, Board, Level, bits
from core.longcat.sdpu import puzzle_up, solution_down
from core.longcat.solver import solvable_from
from core.search import Interrupted, Watch

__all__ = [
    "GENERATORS",
    "MAX_TEMPERATURE",
    "GenerationError",
    "Generator",
    "Option",
    "StartSuccess",
    "candidate",
    "generate",
    "install_policies",
    "pick_start",
    "start_success",
]

SOLVER_LIMIT = 50_000
"""Positions the solver may visit per start cell before a candidate is rejected as unknown."""


class GenerationError(ValueError):
    """No acceptable level within the allowed attempts (or bad generator arguments)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a generator.

    Attributes:
        name: Keyword name.
        default: Default value (its type is the option's type).
        description: One line for a person.
        choices: The allowed values, when the option is one of a few names (else empty).
    """

    name: str
    """Keyword name."""
    default: Any
    """Default value."""
    description: str
    """One line for a person."""
    choices: tuple[Any, ...] = ()
    """Allowed values (empty: any value of the default's type)."""


@dataclass(frozen=True, slots=True)
class Generator:
    """A generation method.

    Attributes:
        id: Method id (``sd``, ``pu``, ...).
        description: One line for a person.
        options: The method's own options (the filters of :func:`generate` apply to all).
        make: ``make(rng, width, height, watch=None, **options) -> Level | None``: one
            candidate, None when the mask admits no solvable start (mask methods) or the
            solver says no; the solver's states are spent from ``watch`` (a work budget
            and a deadline), and a bound of it hit raises :class:`GenerationError` naming
            it rather than rejecting the candidate.
        min_size: Smallest width and height the method accepts.
    """

    id: str
    """Method id."""
    description: str
    """One line for a person."""
    options: tuple[Option, ...]
    """The method's own options."""
    make: Callable[..., Level | None]
    """One candidate level (None: rejected)."""
    min_size: int = 1
    """Smallest width and height accepted."""


# -- the start cell of a mask ---------------------------------------------------------------


def start_candidates(board: Board) -> list[int]:
    """The cells that can begin a solution of the whole mask, by necessary conditions.

    A solution is a Hamiltonian path of the empty cells from the start. So the cells must be
    connected; a cell with one empty neighbour is an end of the path, so with three or more
    of them there is no solution and with two the start is one of them; and on a chessboard
    colouring the path alternates colours, so when one colour has one cell more the start
    has that colour (a difference of two or more: no solution).

    Args:
        board: The mask's geometry (walls = non-mask cells).

    Returns:
        Board indices of the possible start cells (board order).
    """
    free = board.free
    if not free or not board.is_connected(free):
        return []
    s = board.stride
    a, b, c, d = free << 1, free >> 1, free << s, free >> s
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    ends = free & ~two
    if free.bit_count() > 1 and ends.bit_count() > 2:
        return []
    cells = ends if ends.bit_count() == 2 else free
    black = (free & board.black).bit_count()
    white = free.bit_count() - black
    if abs(black - white) > 1:
        return []
    if black > white:
        cells &= board.black
    elif white > black:
        cells &= ~board.black
    return list(bits(cells))


def pick_start(
    rng: random.Random,
    mask: masks.Mask,
    *,
    max_states: int = SOLVER_LIMIT,
    watch: Watch | None = None,
) -> Level | None:
    """Turn a mask into a solvable level by choosing its start cell.

    Args:
        rng: Orders the candidate starts (cells with one empty neighbour first).
        mask: ``mask[y][x]`` True for empty cells.
        max_states: Solver limit per start (an unknown answer counts as no).
        watch: Work budget (the solver's states, over every start tried) and deadline.

    Returns:
        The level with the first start the solver proves solvable, or None.

    Raises:
        GenerationError: ``watch``'s budget or deadline stopped the solver (an answer cut
            short by it must not reject the mask: the level would depend on the bound).
    """
    height, width = len(mask), len(mask[0])
    walls = masks.mask_walls(mask)
    board = Board.build(width, height, walls)
    cells = start_candidates(board)
    rng.shuffle(cells)
    for head in cells:
        if _solvable(board, head, max_states, watch):
            y, x = divmod(head, width + 1)
            return Level(width, height, walls, (x, y))
    return None


@dataclass(frozen=True, slots=True)
class StartSuccess:
    """The solver's success rate on a mask (seed 003, method C: "用 solver 成功率当困难度标记",
    the solver's success rate as a difficulty mark): from how many of its open cells, taken
    as the start, the solver solves the level.

    Attributes:
        solvable: Open cells from which the level is solvable.
        unknown: Open cells the solver could not decide within its limit.
        cells: Open cells (every possible start).
    """

    solvable: int
    """Starts the solver solves."""
    unknown: int
    """Starts left undecided by the limit."""
    cells: int
    """Open cells."""

    @property
    def rate(self) -> float:
        """``solvable / cells`` (0 for a mask without open cells)."""
        return self.solvable / self.cells if self.cells else 0.0


def start_success(level: Level, *, max_states: int = SOLVER_LIMIT) -> StartSuccess:
    """The solver's success rate over every start cell of a level's mask.

    Cells that fail the necessary conditions of :func:`start_candidates` count as unsolvable
    without a search; every other cell is solved from.

    Args:
        level: The level (its start is ignored: every open cell is tried).
        max_states: Solver limit per start.

    Returns:
        The :class:`StartSuccess`.
    """
    board = level.board
    solvable = unknown = 0
    for head in start_candidates(board):
        answer = solvable_from(board, head, max_states=max_states)
        solvable += answer is True
        unknown += answer is None
    return StartSuccess(solvable, unknown, board.free.bit_count())


# -- the methods ----------------------------------------------------------------------------


def _solvable(board: Board, head: int, max_states: int, watch: Watch | None) -> bool:
    """The solver's answer from ``head``: True when proved solvable, False when it is not or
    ``max_states`` stopped it (a bound of the method, the same everywhere).

    Raises:
        GenerationError: ``watch``'s work budget or deadline stopped the solver first.
    """
    answer = solvable_from(board, head, max_states=max_states, watch=watch)
    if answer is None and watch is not None:
        stopped = _stopped_by(watch)
        if stopped:
            raise GenerationError(f"stopped by the {stopped}")
    return answer is True


def _stopped_by(watch: Watch) -> str:
    """Which bound of ``watch`` has stopped its computation (``"work budget"``, ``"time
    limit"``, ``"cancelled"``), or "" when none has."""
    if watch.budget is not None and watch.spent > watch.budget:
        return "work budget"  # Watch.spend counts the units past the budget, then raises
    try:
        watch.poll("generate")
    except Interrupted as stop:
        return WHY.get(watch_reason(stop), stop.reason)
    return ""


def _if_solvable(level: Level, watch: Watch | None = None) -> Level | None:
    """``level`` when the solver proves it solvable (within :data:`SOLVER_LIMIT`), else None
    (a bound of ``watch`` hit first raises :class:`GenerationError`)."""
    return level if _solvable(level.board, level.start_index, SOLVER_LIMIT, watch) else None


def _sd(rng: random.Random, width: int, height: int, watch: Watch | None = None) -> Level | None:
    level = solution_down(rng, width, height)[0]
    # Solvable by construction; the solver still checks it, so a bug cannot slip through.
    return _if_solvable(level, watch)


def _pu(
    rng: random.Random,
    width: int,
    height: int,
    watch: Watch | None = None,
    wall_prob: float = 0.5,
) -> Level | None:
    level = puzzle_up(rng, width, height, wall_prob)
    return _if_solvable(level, watch)


MAX_TEMPERATURE = 1.0
"""The largest temperature of the ``rl`` generator: at 1 it samples uniformly, as SD-random
(seed 003; :mod:`core.longcat.policy`)."""

_POLICY_SOURCE: list[Callable[[int, int], Any]] = []


def install_policies(source: Callable[[int, int], Any] | None) -> None:
    """Tell the ``rl`` generator how to get the trained network of a size (None: forget).

    Core reads no files: the shell installs :func:`tui.games.longcat.weights.install`'s
    loader, which reads the bundled weights. ``source(width, height)`` returns a
    :class:`core.longcat.policy.Policy`, or None (or raises a ValueError) when there is none.
    """
    _POLICY_SOURCE.clear()
    if source is not None:
        _POLICY_SOURCE.append(source)


def _rl(
    rng: random.Random,
    width: int,
    height: int,
    watch: Watch | None = None,
    temperature: float = 0.3,
) -> Level | None:
    from core.longcat.policy import policy_walk  # numpy only when the rl method is used

    if not 0 <= temperature <= MAX_TEMPERATURE:
        raise GenerationError(
            f"the temperature must be between 0 and {MAX_TEMPERATURE:g}, not {temperature:g}"
        )
    try:
        policy = _POLICY_SOURCE[0](width, height) if _POLICY_SOURCE else None
    except ValueError as error:
        raise GenerationError(str(error)) from None
    if policy is None:
        raise GenerationError(f"no learned generator for {width}x{height}")
    level = policy_walk(policy, rng, temperature)[0]
    # Solvable by construction (an SD walk), checked by the solver as for sd.
    return _if_solvable(level, watch)


def _masked(draw: Callable[..., masks.Mask]) -> Callable[..., Level | None]:
    def make(
        rng: random.Random, width: int, height: int, watch: Watch | None = None, **options: Any
    ) -> Level | None:
        return pick_start(rng, draw(rng, width, height, **options), watch=watch)

    return make


def _template_options(names: Iterable[str]) -> tuple[Option, ...]:
    """The options of a generator that draws a mask template and transforms it.

    Args:
        names: The template names ``shape`` may take (besides ``any``).

    Returns:
        ``shape``, ``transform`` and ``squeeze_prob``, as :func:`masks.template_mask` takes them.
    """
    return (
        Option("shape", "any", "template name or any", ("any", *names)),
        Option("transform", True, "random rotation and mirroring"),
        Option("squeeze_prob", 0.3, "probability of squeezing out a row or column"),
    )


GENERATORS: dict[str, Generator] = {
    g.id: g
    for g in (
        Generator(
            "sd", "Solution-Down random: a random walk of the cat, walls where it turns", (), _sd
        ),
        Generator(
            "pu",
            "Puzzle-Up random: random walls and start, kept when solvable",
            (Option("wall_prob", 0.5, "probability that a cell is a wall"),),
            _pu,
        ),
        Generator(
            "template",
            "mask template (rect_hole, u, s, offset_square, chair, spiral), "
            "mirrored/rotated/squeezed",
            _template_options(masks.TEMPLATES),
            _masked(masks.template_mask),
            3,
        ),
        Generator(
            "ca",
            "cellular-automaton caves (4-5 rule), largest region",
            (
                Option("fill", 0.55, "initial probability of an empty cell"),
                Option("steps", 1, "smoothing steps"),
            ),
            _masked(algomasks.ca_mask),
            2,
        ),
        Generator(
            "bsp",
            "BSP dungeon: rooms in split leaves joined by corridors",
            (Option("min_leaf", 4, "smallest side of a leaf"),),
            _masked(algomasks.bsp_mask),
            2,
        ),
        Generator(
            "carve",
            "grid carving: walls carved into an open grid, kept connected",
            (Option("density", 0.45, "fraction of wall cells"),),
            _masked(algomasks.carve_mask),
            2,
        ),
        Generator(
            "fractal",
            "random fractal subdivision into quadrants, largest region",
            (
                Option("depth", 3, "most levels of subdivision"),
                Option("split_prob", 0.7, "probability of splitting a rectangle again"),
                Option("fill", 0.65, "probability that a final rectangle is empty"),
            ),
            _masked(algomasks.fractal_mask),
            2,
        ),
        Generator(
            "shapes",
            f"all {len(templates.ALL_TEMPLATES)} mask templates (the six classic "
            "ones and the seed's difficulty examples), mirrored/rotated/squeezed",
            _template_options(templates.ALL_TEMPLATES),
            _masked(templates.shapes_mask),
            3,
        ),
        Generator(
            "notch",
            "flood-fill notches: grooves grown in from the rim, kept connected",
            (
                Option("density", 0.45, "target share of wall cells"),
                Option("size", 6, "most cells of one notch"),
                Option("straight", 0.9, "probability that a notch grows straight on"),
            ),
            _masked(algomasks.notch_mask),
            2,
        ),
        Generator(
            "rl",
            "learned (SD-PCGRL): Solution-Down steered by a trained DQN",
            (
                Option(
                    "temperature",
                    0.3,
                    "sampling temperature over the Q-values (0 greedy, 1 random as sd)",
                ),
            ),
            _rl,
            2,
        ),
    )
}
"""Method id -> :class:`Generator`."""


def _options(gen: Generator, given: Mapping[str, Any]) -> dict[str, Any]:
    known = {o.name: o for o in gen.options}
    for name, value in given.items():
        if name not in known:
            raise GenerationError(
                f"generator {gen.id} has no option {name!r} (options: {', '.join(known) or 'none'})"
            )
        option = known[name]
        kind = type(option.default)
        # A float option takes ints too; bool is an int in Python but never a number here.
        ok = isinstance(value, kind) or (kind is float and isinstance(value, int))
        if not ok or (kind is not bool and isinstance(value, bool)):
            raise GenerationError(
                f"option {name} of {gen.id} must be {kind.__name__}, not {value!r}"
            )
        if option.choices and value not in option.choices:
            raise GenerationError(
                f"option {name} of {gen.id} must be one of "
                f"{', '.join(map(str, option.choices))}, not {value!r}"
            )
    return {o.name: given.get(o.name, o.default) for o in gen.options}


def candidate(
    method: str, seed: Any, width: int, height: int, watch: Watch | None = None, **options: Any
) -> Level | None:
    """One attempt of a method, without filters: a solvable level or None.

    Args:
        method: A key of :data:`GENERATORS`.
        seed: Seed of this attempt's ``random.Random`` (an int or a string).
        width: Columns.
        height: Rows.
        watch: Work budget (the validating solver's states) and deadline.
        **options: The method's options.

    Returns:
        The level (solvable), or None when the attempt produced nothing solvable.

    Raises:
        GenerationError: Unknown method or option, size out of range, or a bound of
            ``watch`` hit (named in the message).
    """
    gen = _generator(method, width, height)
    return gen.make(random.Random(seed), width, height, watch=watch, **_options(gen, options))


def _generator(method: str, width: int, height: int) -> Generator:
    gen = GENERATORS.get(method)
    if gen is None:
        raise GenerationError(f"unknown generator {method!r} (one of {', '.join(GENERATORS)})")
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise GenerationError(f"{name} must be an integer")
        if not gen.min_size <= value <= MAX_SIZE:
            raise GenerationError(
                f"generator {method} needs {name} between {gen.min_size} "
                f"and {MAX_SIZE}, not {value}"
            )
    return gen


def generate(
    method: str,
    seed: int,
    width: int,
    height: int,
    *,
    unique: bool = False,
    band: tuple[float, float] | None = None,
    min_size: int = 2,
    max_attempts: int = 1000,
    max_states: int = 200_000,
    should_stop: Callable[[], bool] | None = None,
    predictor: str = DEFAULT_PREDICTOR,
    watch: Watch | None = None,
    **options: Any,
) -> Level:
    """Generate one solvable level.

    Args:
        method: A key of :data:`GENERATORS`.
        seed: The seed; the same arguments always give the same level.
        width: Columns.
        height: Rows.
        unique: Keep only levels with exactly one solution (one winning move sequence).
        band: ``(low, high)``: keep only levels whose predicted difficulty
            (:func:`core.longcat.difficulty.level_difficulty`) is in ``[low, high)``.
        min_size: Keep only levels with at least this many empty cells.
        max_attempts: Give up after this many candidates.
        max_states: State-graph limit of the filters (bigger graphs are rejected).
        should_stop: Polled between attempts; True gives up (GenerationError).
        predictor: The difficulty predictor of ``band`` (a name of
            :data:`core.longcat.difficulty.PREDICTORS`).
        watch: Work budget (the states of the solver that validates each candidate and of
            the filters' state graphs, counted over every attempt) and deadline; when either
            is hit generation stops (GenerationError naming the bound) instead of running on.
        **options: The method's options (see :data:`GENERATORS`).

    Returns:
        The level, titled ``"<method> <seed>"``.

    Raises:
        GenerationError: Unknown method or option, bad size, no acceptable level, or a
            bound of ``watch`` hit.
    """
    gen = _generator(method, width, height)
    opts = _options(gen, options)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GenerationError(f"a seed must be an integer, not {seed!r}")
    for attempt in range(max_attempts):
        if should_stop is not None and should_stop():
            raise GenerationError("generation cancelled")
        level = gen.make(random.Random(f"{seed}/{attempt}"), width, height, watch=watch, **opts)
        if (
            level is not None
            and level.size >= min_size
            and _keep(level, unique, band, max_states, predictor, watch)
        ):
            return Level(
                level.width,
                level.height,
                level.walls,
                level.start,
                title=f"{method} {seed}",
                author="termarcade generator",
                description=f"generated by {method} ({width}x{height}, seed {seed}"
                f"{', attempt ' + str(attempt) if attempt else ''})",
            )
    raise GenerationError(
        f"no acceptable {method} level in {max_attempts} attempts (seed {seed}, {width}x{height})"
    )


def _keep(
    level: Level,
    unique: bool,
    band: tuple[float, float] | None,
    max_states: int,
    predictor: str,
    watch: Watch | None = None,
) -> bool:
    if not unique and band is None:
        return True
    try:
        analysis = analyse(level, max_states=max_states, watch=watch)
    except AnalysisLimit as stopped:
        if stopped.reason == "limit":
            return False  # a graph too large for the filters: the next candidate
        # The work budget or the deadline: rejecting this candidate would make the level
        # depend on them; stop and say which bound it was.
        raise GenerationError(f"stopped by the {stopped.why}") from None
    if unique and analysis.metrics.solution_paths != 1:
        return False
    if band is None:
        return True
    difficulty = level_difficulty(analysis, predictor)  # the figure the level's title shows
    return difficulty is not None and band[0] <= difficulty < band[1]
