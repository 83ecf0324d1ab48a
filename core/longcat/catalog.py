"""The generators as the arcade offers them: titled levels of a size and a difficulty band.

:func:`core.longcat.generate.generate` makes one solvable level from a method, a seed and a
size. This module wraps it for the shell (the registry's ``generators`` mapping, the level
select's generator sources, ``N`` in the game, the ``longcat generate`` command):

* sizes are written ``"8x8"`` (width x height) and bands by name (:data:`BAND_RANGES`), so
  a generator's parameters fit in a level ref's query string;
* every level comes out *described*: its par is the shortest solution, and its title says
  what made it and how hard it is predicted to be (``"sd 8x8 #7 · easy 31"``), which is
  how the generic level select shows the difficulty;
* every call is bounded: a number of attempts per method (deterministic), an optional work
  budget (states of the state graphs analysed, deterministic too) and a wall-clock guard
  (:data:`TIME_GUARD`) that only a very slow machine should ever meet.

Pure: no I/O; the same arguments give the same level (or the same error), except when the
time guard stops a search that would have succeeded later. A bound that stops a level says
which it was (``"... within the work budget of N states"``, ``"... within 10 s"``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.longcat.difficulty import (
    BANDS,
    DEFAULT_PREDICTOR,
    difficulty_label,
    difficulty_text,
    level_difficulty,
)
from core.longcat.generate import GENERATORS as METHODS
from core.longcat.generate import MAX_TEMPERATURE, GenerationError, generate
from core.longcat.graph import AnalysisLimit, analyse
from core.longcat.level import MAX_SIZE, Level
from core.longcat.solver import shortest_solution
from core.search import Watch
from core.text import plural

__all__ = [
    "BAND_RANGES",
    "GENERATORS",
    "TIME_GUARD",
    "LevelMaker",
    "describe",
    "difficulty_label",
    "make_level",
    "parse_band",
    "parse_size",
    "parse_temperature",
]

TIME_GUARD = 10.0
"""Seconds one :func:`make_level` call may search before it gives up (a safety net)."""

ANALYSIS_LIMIT = 200_000
"""Largest state graph analysed to describe a level (bigger ones get no difficulty)."""

SOLVER_STATES = 1_000_000
"""Positions the pruned solver may keep for the par of a level too large to analyse."""

BAND_RANGES: dict[str, tuple[float, float] | None] = {"any": None}
"""Band id -> ``(low, high)`` on the predicted difficulty (ids are the names of
:data:`core.longcat.difficulty.BANDS` with ``_`` for spaces)."""
BAND_RANGES.update({name.replace(" ", "_"): (low, high) for low, high, name in BANDS})


def parse_size(text: Any) -> tuple[int, int]:
    """Read a size such as ``"8x8"`` or ``"12x10"`` (width x height).

    Args:
        text: The size text (``x`` or ``×`` between the numbers, any case).

    Returns:
        ``(width, height)``.

    Raises:
        GenerationError: When it is not ``WxH`` with both numbers from 1 to ``MAX_SIZE``.
    """
    parts = str(text).strip().lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise GenerationError(f"a size is WIDTHxHEIGHT such as 8x8, not {str(text)!r}")
    width, height = (int(p) for p in parts)
    if not (1 <= width <= MAX_SIZE and 1 <= height <= MAX_SIZE):
        raise GenerationError(
            f"width and height must be between 1 and {MAX_SIZE}, not {width}x{height}"
        )
    return width, height


def parse_temperature(text: Any) -> float:
    """Read the learned generator's temperature: a number from 0 to
    :data:`core.longcat.generate.MAX_TEMPERATURE`.

    Raises:
        GenerationError: For anything else.
    """
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = math.nan
    if isinstance(text, bool) or not 0 <= value <= MAX_TEMPERATURE:
        raise GenerationError(
            f"a temperature is a number from 0 to {MAX_TEMPERATURE:g}, not {str(text)!r}"
        )
    return value


def parse_band(text: Any) -> tuple[float, float] | None:
    """Read a difficulty band: a name of :data:`BAND_RANGES` or ``LOW:HIGH``.

    ``LOW:HIGH`` keeps levels with ``LOW <= difficulty < HIGH``; either end may be left out
    (``80:`` is 80 and more, ``:20`` below 20).

    Args:
        text: The band.

    Returns:
        ``(low, high)``, or None for ``any``.

    Raises:
        GenerationError: For anything else, or ``LOW >= HIGH``.
    """
    raw = str(text).strip().lower().replace(" ", "_").replace("-", "_")
    if raw in BAND_RANGES:
        return BAND_RANGES[raw]
    low_text, sep, high_text = str(text).partition(":")
    try:
        if not sep:
            raise ValueError
        low = float(low_text) if low_text.strip() else -math.inf
        high = float(high_text) if high_text.strip() else math.inf
    except ValueError:
        names = ", ".join(BAND_RANGES)
        raise GenerationError(
            f"a difficulty band is LOW:HIGH (such as 20:50) or one of {names}, not {str(text)!r}"
        ) from None
    if math.isnan(low) or math.isnan(high) or not low < high:
        raise GenerationError(f"the band {str(text)!r} is empty: LOW must be below HIGH")
    return low, high


def _counts_note(metrics: Any, predictor: str) -> str:
    """The solution counts of a description: both of them, or the old wording."""
    paths = metrics.solution_paths
    if predictor == "solution-paths":
        return plural(paths, "solution")
    return f"{plural(metrics.success_states, 'success state')}, {plural(paths, 'solution path')}"


NOTE_STARTS = ("Predicted difficulty ", "No solution; ", "The state graph is too large")
"""How the notes :func:`describe` writes begin: describing a described level replaces its
note instead of adding a second one."""


def _undescribed(description: str) -> str:
    """``description`` without the note an earlier :func:`describe` ended it with."""
    cuts = [description.find(start) for start in NOTE_STARTS]
    found = [cut for cut in cuts if cut >= 0]
    return description[: min(found)] if found else description


def describe(
    level: Level,
    title: str,
    *,
    max_states: int = ANALYSIS_LIMIT,
    should_stop: Callable[[], bool] | None = None,
    predictor: str = DEFAULT_PREDICTOR,
    watch: Watch | None = None,
) -> Level:
    """The level with its par (shortest solution) and a title that ends with its difficulty.

    Args:
        level: A solvable level.
        title: The title's first part (``"sd 8x8 #7"``); `` · <band> <difficulty>`` is added.
        max_states: State-graph limit of the analysis (bigger: difficulty unknown, par from
            the pruned solver, within :data:`SOLVER_STATES`).
        should_stop: Cancellation poll of the analysis.
        predictor: The difficulty predictor (a name of
            :data:`core.longcat.difficulty.PREDICTORS`); ``solution-paths`` also keeps the
            old note ("N solutions", counting move sequences) so old packs are reproduced.
        watch: Work budget (states) and deadline of the analysis and the solver.

    Returns:
        A copy with ``title``, ``par`` and the difficulty at the end of the description.

    Raises:
        GenerationError: The watch's budget or deadline stopped the description (a level
            described within them would depend on them).
    """
    try:
        analysis = analyse(level, max_states=max_states, should_stop=should_stop, watch=watch)
        # The level's one difficulty (core.longcat.difficulty): the title's label and the
        # description's figure are the same number, as the game and the bench show it.
        difficulty = level_difficulty(analysis, predictor)
        par = analysis.metrics.shortest_solution
        predicted = (
            "No solution; "
            if difficulty is None
            else f"Predicted difficulty {difficulty_text(difficulty)}; "
        )
        note = f"{predicted}{_counts_note(analysis.metrics, predictor)}."
    except AnalysisLimit as stopped:
        if stopped.reason in ("budget", "time"):
            raise GenerationError(f"stopped by the {stopped.why}") from None
        difficulty = None
        # The pruned solver visits far fewer positions than the full graph has.
        solution = shortest_solution(
            level, max_states=SOLVER_STATES, should_stop=should_stop, watch=watch
        )
        if solution.reason == "budget":
            raise GenerationError("stopped by the work budget") from None
        par = len(solution.moves) if solution.status == "solved" else None
        note = "The state graph is too large to predict the difficulty."
    first = _undescribed(level.description).rstrip(". ")
    description = (first[:1].upper() + first[1:] + ". " if first else "") + note
    return Level(
        level.width,
        level.height,
        level.walls,
        level.start,
        title=f"{title} · {difficulty_label(difficulty)}",
        description=description,
        hint=level.hint,
        author=level.author or "termarcade generator",
        par=par,
    )


def make_level(
    method: str,
    seed: int,
    width: int,
    height: int,
    *,
    band: tuple[float, float] | None = None,
    unique: bool = False,
    max_attempts: int | None = None,
    time_guard: float = TIME_GUARD,
    should_stop: Callable[[], bool] | None = None,
    predictor: str = DEFAULT_PREDICTOR,
    budget: int | None = None,
    **options: Any,
) -> Level:
    """One described level (see :func:`describe`) of a method, size and band.

    Args:
        method: A method id (``sd``, ``pu``, ``template``, ``ca``, ``bsp``, ``carve``,
            ``fractal``).
        seed: The seed.
        width: Columns.
        height: Rows.
        band: Keep levels whose predicted difficulty is in ``[low, high)`` (None: any).
        unique: Keep levels with exactly one solution.
        max_attempts: Candidates tried (default: the method's, see :data:`GENERATORS`).
        time_guard: Give up after this many seconds.
        should_stop: Polled between candidates; True gives up.
        predictor: The difficulty predictor of ``band`` and of the title.
        budget: States the level's state graphs and solver may expand in all (None: no
            budget): a bound that, unlike ``time_guard``, gives the same answer on any
            machine.
        **options: The method's own options.

    Returns:
        The level, titled ``"<method> <W>x<H> #<seed> · <band> <difficulty>"``.

    Raises:
        GenerationError: Unknown method or option, bad size, no acceptable level, or
            stopped.
    """
    maker = GENERATORS.get(method)
    if maker is None:
        raise GenerationError(f"unknown generator {method!r} (one of {', '.join(METHODS)})")
    deadline = time.monotonic() + time_guard
    timed_out = False
    watch = Watch(deadline=deadline, budget=budget)

    def stop() -> bool:
        nonlocal timed_out
        if should_stop is not None and should_stop():
            return True
        timed_out = time.monotonic() > deadline
        return timed_out

    merged = dict(maker.options_for(width, height))
    merged.update(options)
    attempts = max_attempts if max_attempts is not None else maker.max_attempts
    try:
        level = generate(
            method,
            seed,
            width,
            height,
            unique=unique,
            band=band,
            min_size=maker.min_cells,
            max_attempts=attempts,
            should_stop=stop,
            predictor=predictor,
            watch=watch,
            **merged,
        )
        return _described(
            level, (method, seed, width, height), options, merged, predictor, should_stop, watch
        )
    except GenerationError as error:
        if timed_out or time.monotonic() > deadline:
            raise GenerationError(
                f"no acceptable {method} level within {time_guard:g} s "
                f"(seed {seed}, {width}x{height})"
            ) from None
        if watch.budget_left == 0:
            raise GenerationError(
                f"no acceptable {method} level within the work budget of "
                f"{plural(budget or 0, 'state')} (seed {seed}, {width}x{height})"
            ) from None
        raise GenerationError(f"{error}{maker.failure_note}") from None


def _described(
    level: Level,
    made: tuple[str, int, int, int],
    options: Mapping[str, Any],
    merged: Mapping[str, Any],
    predictor: str,
    should_stop: Callable[[], bool] | None,
    watch: Watch,
) -> Level:
    """:func:`make_level`'s generated level (``made``: method, seed, width, height), titled
    and described within ``watch``."""
    method, seed, width, height = made
    # Explicit options name the level too (the same seed at another temperature is another
    # level): "rl T0.3 8x8 #7".
    named = dict(options)
    if method == "rl":  # its temperature always: the default too
        named.setdefault("temperature", merged.get("temperature", METHODS["rl"].options[0].default))
    shown = "".join(
        f" T{value:g}" if name == "temperature" else f" {name}={value}"
        for name, value in sorted(named.items())
    )
    return describe(
        level,
        f"{method}{shown} {width}x{height} #{seed}",
        should_stop=should_stop,
        predictor=predictor,
        watch=watch,
    )


@dataclass(frozen=True)
class LevelMaker:
    """One generator of the registry's mapping (``title``, ``description``, ``generate``).

    Attributes:
        method: The method id of :mod:`core.longcat.generate`.
        title: Shown as the level select's source.
        description: One line under it.
        max_attempts: Candidates tried per level.
        min_cells: Smallest number of empty cells accepted.
        failure_note: Added to the error when no level is found (why it happens).
        sized_options: ``options(width, height) -> {option: value}`` given to the method.
    """

    method: str
    """The method id."""
    title: str
    """Shown as the level select's source."""
    description: str
    """One line under the title."""
    max_attempts: int = 3000
    """Candidates tried per level."""
    min_cells: int = 2
    """Smallest number of empty cells accepted."""
    failure_note: str = ""
    """Why this method may find nothing (appended to its error)."""
    sized_options: Callable[[int, int], Mapping[str, Any]] | None = field(
        default=None, compare=False
    )
    """The method's options for a grid size (None: its defaults)."""

    def options_for(self, width: int, height: int) -> Mapping[str, Any]:
        """The method's options for a ``width`` x ``height`` grid."""
        return self.sized_options(width, height) if self.sized_options else {}

    def generate(
        self,
        seed: int,
        size: str = "8x8",
        band: str = "any",
        unique: int = 0,
        temperature: Any = None,
    ) -> Level:
        """A level from a seed and the player's settings.

        Args:
            seed: The seed.
            size: ``"WxH"``.
            band: A band id of :data:`BAND_RANGES` or ``LOW:HIGH``.
            unique: 1 to keep only levels with one solution.
            temperature: The learned generator's sampling temperature (a number or its
                text; only for ``rl``, None: its default).

        Returns:
            The described level (see :func:`make_level`).

        Raises:
            GenerationError: (a ValueError) bad parameters, or no level found.
        """
        width, height = parse_size(size)
        options: dict[str, Any] = {}
        if temperature is not None:
            options["temperature"] = parse_temperature(temperature)
        return make_level(
            self.method, seed, width, height, band=parse_band(band), unique=bool(unique), **options
        )


def _sparse_walls(width: int, height: int) -> Mapping[str, Any]:
    # Random walls at the paper's rate make a disconnected grid: Puzzle-Up (almost) never
    # succeeds. About five empty cells on average is where it finds anything at all.
    return {"wall_prob": max(0.0, 1.0 - 5.0 / (width * height))}


GENERATORS: dict[str, LevelMaker] = {
    maker.method: maker
    for maker in (
        LevelMaker("sd", "Solution-Down", "a random walk of the cat, walls where it turns"),
        LevelMaker(
            "pu",
            "Puzzle-Up",
            "random walls, kept when solvable (rarely: tiny levels)",
            max_attempts=20_000,
            min_cells=3,
            sized_options=_sparse_walls,
            failure_note=" (Puzzle-Up rarely finds a solvable level; try a smaller size)",
        ),
        LevelMaker(
            "template",
            "Templates",
            "rectangle with hole, U, S, chair, spiral…, mirrored, rotated, squeezed",
        ),
        LevelMaker(
            "ca",
            "Caves",
            "cellular-automaton caves, validated by the solver",
            failure_note=" (cave masks are seldom solvable beyond 10x10)",
        ),
        LevelMaker(
            "bsp",
            "Dungeon",
            "BSP rooms and corridors, validated by the solver",
            max_attempts=600,
            failure_note=" (dungeon masks are seldom solvable beyond 8x8)",
        ),
        LevelMaker(
            "carve",
            "Carved",
            "walls carved into an open grid, validated by the solver",
            max_attempts=600,
            failure_note=" (carved masks are seldom solvable beyond 8x8)",
        ),
        LevelMaker("fractal", "Fractal", "random fractal subdivision, validated by the solver"),
        LevelMaker(
            "shapes",
            "Shapes",
            "every mask template: frames, holes, S, notches, channels…, validated by the solver",
        ),
        LevelMaker(
            "notch",
            "Notched",
            "flood-fill notches grown in from the rim, validated by the solver",
            failure_note=" (notched masks are seldom solvable beyond 8x8)",
        ),
        LevelMaker(
            "rl",
            "Learned",
            "SD-PCGRL: Solution-Down steered by a trained network towards harder levels",
        ),
    )
}
"""Method id -> :class:`LevelMaker`: the registry's ``generators`` reference
(``core.longcat.catalog:GENERATORS``)."""
