"""What the level designer's bench says about a 2048 level (issue 20), pure and bounded.

Three parts, all independent of any screen:

* **The rule's tile values** (:func:`tile_values`): the values a game under a merge rule can
  show, i.e. the closure of the rule's preset spawn values under its merges, up to
  :data:`core.game2048.level.MAX_NUMBER`: ``standard`` 2, 4, 8, …; ``fibonacci`` 1, 2, 3, 5,
  8, …; ``threes`` 1, 2, 3, 6, 12, …. A registered rule whose closure is dense (more than
  :data:`MAX_RULE_VALUES` values) has no such list: every positive integer is then legal.
  :func:`step_value` walks through them (the editor's ``+``/``-``).
* **Checks of the designer's input** (:func:`check_goal`, :func:`check_spawn`): the goal and
  the spawn values must be tiles of the rule; a spawn distribution written as probabilities
  (any weight with a decimal point) must sum to 1, while whole-number weights are relative
  (``2:9 4:1``, as level files have always written them).
* **The verdict** (:func:`assess`, :func:`describe`): the start board (the level's own, or
  the one the seed deals), whether its tiles are legal for the rule, the empty cells, whether
  the start is already over or already won, the largest tile against the goal, and an
  *estimate*: the expectimax AI's first move and a seeded autoplay of at most ``moves``
  moves within ``time_limit`` seconds (the tile it reached; "unknown within the limit" when
  time ran out first). The autoplay stops when the goal first appears, so every number the
  verdict gives (move count, score, largest tile) is of one state: the one replaying its
  moves from the start gives (issue 30: it once said "goal 16 at move 17, score 2640", the
  move of the goal with the score of move 200).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from core.game2048.board import Board, get_empty_cells, max_tile
from core.game2048.game import GAME
from core.game2048.level import MAX_NUMBER, Level
from core.game2048.merge import PRESET_DEFAULTS, resolve_merge_logic
from core.game2048.state import GameState, has_won, legal_moves
from core.text import plural

__all__ = [
    "ARROWS",
    "ESTIMATE_MOVES",
    "MAX_RULE_VALUES",
    "Design",
    "Estimate",
    "assess",
    "change_rule",
    "check_goal",
    "check_spawn",
    "describe",
    "is_tile_value",
    "resize_board",
    "spawn_probabilities",
    "step_value",
    "tile_values",
]

MAX_RULE_VALUES = 512
"""A rule with more tile values than this up to ``MAX_NUMBER`` accepts every positive integer."""

ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
"""The directions as arrows (the verdict's short form)."""

ESTIMATE_MOVES = 200
"""Moves the estimate's autoplay plays at most, by default."""

PROBABILITY_TOLERANCE = 1e-9
"""How far from 1 the probabilities of a spawn distribution may sum (float rounding)."""


@lru_cache(maxsize=64)
def tile_values(rule: str) -> tuple[int, ...] | None:
    """The tile values of a merge rule, ascending, or None when every positive integer is one.

    The closure of the rule's preset spawn values (``PRESET_DEFAULTS``) under the rule's
    merges: every value a game under the rule can put on the board with its usual spawns.

    Args:
        rule: A merge preset name.

    Returns:
        The values up to ``MAX_NUMBER``, or None for a rule with more than
        :data:`MAX_RULE_VALUES` of them.

    Raises:
        ValueError: For an unknown rule.
    """
    merge = resolve_merge_logic(rule)
    values = {value for value, _ in PRESET_DEFAULTS[rule].distribution}
    frontier = set(values)
    while frontier:
        found: set[int] = set()
        for new in frontier:
            for old in tuple(values):
                for a, b in ((new, old), (old, new)):
                    result = merge(a, b)
                    if result is None:
                        continue
                    merged = result.merged_value
                    if 0 < merged <= MAX_NUMBER and merged not in values:
                        found.add(merged)
        values |= found
        if len(values) > MAX_RULE_VALUES:
            return None
        frontier = found
    return tuple(sorted(values))


def is_tile_value(rule: str, value: int) -> bool:
    """Whether ``value`` is a tile of ``rule`` (see :func:`tile_values`)."""
    values = tile_values(rule)
    if values is None:
        return 0 < value <= MAX_NUMBER
    return value in _value_set(rule)


@lru_cache(maxsize=64)
def _value_set(rule: str) -> frozenset[int]:
    return frozenset(tile_values(rule) or ())


def step_value(rule: str, value: int, step: int) -> int:
    """The next (``step`` 1) or previous (``step`` -1) tile value of ``rule`` from ``value``.

    0 is the empty cell: one step up from it is the smallest tile, one step down from the
    smallest tile is empty again. The largest value stays where it is. A value that is not a
    tile of the rule steps to the nearest tile in that direction.

    Args:
        rule: A merge preset name.
        value: The cell's value (0 for empty).
        step: 1 or -1.

    Returns:
        The new value (0 for empty).
    """
    values = tile_values(rule)
    if values is None:
        return max(0, min(MAX_NUMBER, value + step))
    if step > 0:
        for candidate in values:
            if candidate > value:
                return candidate
        return value if value in _value_set(rule) else values[-1]
    below = [candidate for candidate in values if candidate < value]
    return below[-1] if below else 0


def _rule_words(rule: str) -> str:
    values = tile_values(rule)
    if values is None:
        return f"{rule} takes any positive integer"
    return f"{rule} tiles are " + ", ".join(str(v) for v in values[:6]) + ", …"


def check_goal(goal: int | None, rule: str) -> None:
    """Refuse a goal that no game under ``rule`` can reach.

    Args:
        goal: The winning tile, or None (endless play).
        rule: A merge preset name.

    Raises:
        ValueError: When the goal is not a tile of the rule.
    """
    if goal is not None and not is_tile_value(rule, goal):
        raise ValueError(f"the goal {goal} is not a tile of {rule} ({_rule_words(rule)})")


def check_spawn(pairs: Sequence[tuple[int, float]], rule: str) -> None:
    """Refuse a spawn distribution with tiles the rule does not have or probabilities off 1.

    Whole-number weights are relative (``2:9 4:1``); when any weight is written with a
    decimal point the weights are probabilities and must sum to 1 (``2:0.9 4:0.1``).

    Args:
        pairs: ``(value, weight)`` pairs as read from the text (a float weight was written
            with a decimal point).
        rule: A merge preset name.

    Raises:
        ValueError: Naming the first value that is not a tile of the rule, or the sum.
    """
    for value, _ in pairs:
        if not is_tile_value(rule, value):
            raise ValueError(
                f"the spawn value {value} is not a tile of {rule} ({_rule_words(rule)})"
            )
    if any(isinstance(weight, float) for _, weight in pairs):
        total = sum(weight for _, weight in pairs)
        if abs(total - 1) > PROBABILITY_TOLERANCE:
            raise ValueError(
                f"the probabilities sum to {total:g}, not 1 "
                "(or write whole-number weights, such as 2:9 4:1)"
            )


def spawn_probabilities(pairs: Sequence[tuple[int, float]]) -> tuple[tuple[int, float], ...]:
    """Each spawn value with its probability (the weights divided by their sum)."""
    total = sum(weight for _, weight in pairs)
    return tuple((value, weight / total) for value, weight in pairs)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A seeded autoplay by the expectimax AI from the start (an estimate, not a proof)."""

    directions: tuple[str, ...]
    """The moves it played, in order (replaying them from the start gives :attr:`final`)."""
    final: GameState
    """Where it stopped."""
    goal_at: int | None
    """The move after which the goal tile was first on the board (0: it is there at the
    start; None: never). When it is a move, it is the last one: the autoplay stops there."""
    over: bool
    """The game ended (no move left)."""
    complete: bool
    """It played every move it was asked for, reached the goal, or the game ended; False
    when time (or a change of the level) cut it short."""
    seconds: float
    """How long it took."""

    @property
    def first_move(self) -> str | None:
        """The AI's first move, or None when it played none."""
        return self.directions[0] if self.directions else None


@dataclass(frozen=True, slots=True)
class Design:
    """What the bench says about a level (:func:`assess`)."""

    rule: str
    """The merge rule."""
    goal: int | None
    """The winning tile (None: endless)."""
    random_start: bool
    """The level gives no board: the seed deals ``tiles`` random tiles."""
    tiles: int
    """Tiles dealt at a random start."""
    seed: int
    """The seed."""
    start: GameState
    """The first state of a game of the level."""
    illegal_tiles: tuple[int, ...]
    """Values on the start board that are not tiles of the rule (ascending, distinct)."""
    illegal_spawns: tuple[int, ...]
    """Spawn values that are not tiles of the rule."""
    goal_legal: bool
    """The goal is a tile of the rule (or there is none)."""
    spawn: tuple[tuple[int, float], ...]
    """Each spawn value with its probability."""
    moves: tuple[str, ...]
    """The moves that change the start board."""
    estimate: Estimate | None
    """The autoplay estimate (None when not asked for, or the start is over)."""

    @property
    def board(self) -> Board:
        """The start board."""
        return self.start.board

    @property
    def empty_cells(self) -> int:
        """Empty cells on the start board."""
        return len(get_empty_cells(self.board))

    @property
    def largest(self) -> int:
        """The largest tile on the start board (0 when empty)."""
        return max_tile(self.board)

    @property
    def over(self) -> bool:
        """No move changes the start board."""
        return not self.moves

    @property
    def won(self) -> bool:
        """The goal tile is already on the start board."""
        return has_won(self.start)

    @property
    def legal(self) -> bool:
        """Every tile, the goal and every spawn value belong to the rule."""
        return not self.illegal_tiles and not self.illegal_spawns and self.goal_legal


def assess(
    level: Level,
    *,
    moves: int = ESTIMATE_MOVES,
    time_limit: float = 1.0,
    should_stop: Callable[[], bool] = lambda: False,
    budget: int | None = None,
) -> Design:
    """Judge a level: legality, the start, and an autoplay estimate within a time limit.

    Args:
        level: The level.
        moves: Moves the estimate's autoplay plays at most (0: no estimate).
        time_limit: Seconds the estimate may take (a bound: it stops at the first move
            after it and says it was cut short).
        should_stop: Polled between moves; True stops the estimate early.
        budget: Nodes the AI may expand for each move of the estimate (None: no budget;
            see :func:`core.game2048.ai.hint`).

    Returns:
        The :class:`Design`.
    """
    config = level.config
    rule = config.saved_merge_rule()
    start: GameState = GAME.initial(level)
    seen = {cell for row in start.board for cell in row if cell}
    illegal = tuple(sorted(v for v in seen if not is_tile_value(rule, v)))
    pairs = tuple((t.value, t.weight) for t in config.tile_value_distribution)
    spawns = tuple(v for v, _ in pairs if not is_tile_value(rule, v))
    legal = legal_moves(start)
    estimate = None
    if moves > 0 and legal:
        estimate = _autoplay(start, moves, time_limit, should_stop, budget)
    return Design(
        rule=rule,
        goal=config.goal,
        random_start=level.board is None,
        tiles=config.number_of_initial_tiles,
        seed=config.initial_seed,
        start=start,
        illegal_tiles=illegal,
        illegal_spawns=spawns,
        goal_legal=config.goal is None or is_tile_value(rule, config.goal),
        spawn=spawn_probabilities(pairs),
        moves=legal,
        estimate=estimate,
    )


def _autoplay(
    start: GameState,
    limit: int,
    time_limit: float,
    should_stop: Callable[[], bool],
    budget: int | None = None,
) -> Estimate:
    from core.game2048.ai import autoplay

    began = time.monotonic()
    state = start
    played: list[str] = []
    goal_at = 0 if has_won(start) else None
    # Stop at the goal (unless the start already shows it: then there is nothing to reach
    # and the estimate plays on), so that the final state is the goal's own.
    for state in autoplay(
        start,
        limit,
        depth=1,
        deadline=began + time_limit,
        should_stop=should_stop,
        budget=budget,
        stop_at_goal=goal_at is None,
    ):
        assert state.last_move is not None  # a played move says what it did
        played.append(state.last_move.direction)
        if goal_at is None and has_won(state):
            goal_at = len(played)
    reached = bool(goal_at)  # a move reached it (0: the start had it)
    return Estimate(
        directions=tuple(played),
        final=state,
        goal_at=goal_at,
        over=state.is_game_over,
        complete=len(played) == limit or state.is_game_over or reached,
        seconds=time.monotonic() - began,
    )


def _percent(probability: float) -> str:
    text = f"{100 * probability:.1f}".rstrip("0").rstrip(".")
    return f"{text}%"


def describe(design: Design) -> str:
    """The verdict as a few lines of text for the bench.

    Args:
        design: What :func:`assess` returned.

    Returns:
        Lines: the board, the start, the spawns, the estimate.
    """
    rule, goal = design.rule, design.goal
    if design.illegal_tiles:
        tiles = ", ".join(str(v) for v in design.illegal_tiles)
        legal = f"✗ {tiles} not tile(s) of {rule}"
    else:
        legal = f"✓ legal for {rule}"
    if goal is None:
        target = "no goal"
    elif design.goal_legal:
        target = f"goal {goal}"
    else:
        target = f"goal {goal} ✗ not a {rule} tile"
    lines = [
        f"Board: {legal} · {design.empty_cells} empty · largest {design.largest or '-'}, {target}"
    ]
    start = (
        f"{design.tiles} random tiles, seed {design.seed}"
        if design.random_start
        else f"this board, seed {design.seed} spawns"
    )
    if design.over:
        lines.append(f"Start ({start}): ✗ already OVER, no move")
    else:
        arrows = " ".join(ARROWS[d] for d in design.moves)
        won = " · ✓ already WON" if design.won else ""
        lines.append(f"Start ({start}): moves {arrows}{won}")
    spawn = " · ".join(f"{v} {_percent(p)}" for v, p in design.spawn)
    if design.illegal_spawns:
        bad = ", ".join(str(v) for v in design.illegal_spawns)
        spawn += f" (✗ {bad} not {rule} tiles)"
    lines.append(f"Spawns: {spawn}")
    estimate = design.estimate
    if estimate is not None:
        final = estimate.final
        first = ARROWS[estimate.first_move] if estimate.first_move else "-"
        played = len(estimate.directions)
        moves = plural(played, "move")
        reached = max_tile(final.board)
        if estimate.goal_at:  # not 0: a goal already on the board is said above
            outcome = f"goal {goal} at move {estimate.goal_at}"
        elif estimate.over:
            outcome = f"game over at move {played} with {reached}"
        elif estimate.complete:
            outcome = f"{reached} after {moves} (going on)"
        else:
            outcome = f"unknown within the limit: {reached} after {moves}"
        lines.append(f"Estimate (AI autoplay): first move {first}; {outcome}, score {final.score}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- editing


def resize_board(board: Board, size: int) -> Board:
    """``board`` on a ``size`` by ``size`` grid: what fits is kept (top left), new cells empty.

    Args:
        board: The board.
        size: The new side length.

    Returns:
        The resized board.
    """
    old = len(board)
    return tuple(
        tuple(board[r][c] if r < old and c < old else 0 for c in range(size)) for r in range(size)
    )


def change_rule(config: Any, rule: str) -> Any:
    """``config`` under another merge rule, its goal and spawns following where they must.

    A goal or spawn distribution that was the old rule's preset default becomes the new
    rule's default; one the designer chose stays when it suits the new rule (its values are
    tiles of it), else it becomes the new rule's default too.

    Args:
        config: A :class:`core.game2048.GameConfig` with a preset rule.
        rule: The new merge preset name.

    Returns:
        The new configuration (``config`` itself when the rule is the same).

    Raises:
        ValueError: For an unknown rule.
    """
    old = config.saved_merge_rule()
    if rule == old:
        return config
    resolve_merge_logic(rule)
    before, after = PRESET_DEFAULTS[old], PRESET_DEFAULTS[rule]
    goal = config.goal
    if goal is not None and (goal == before.goal or not is_tile_value(rule, goal)):
        goal = after.goal
    spawn = tuple((t.value, t.weight) for t in config.tile_value_distribution)
    if spawn == tuple(before.distribution) or any(not is_tile_value(rule, v) for v, _ in spawn):
        spawn = tuple(after.distribution)
    return config.with_changes(merge_rule=rule, goal=goal, tile_value_distribution=spawn)
