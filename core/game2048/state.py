"""2048 game values and the seed 004 API: configuration, state, tile placement and moves.

Everything here is pure and deterministic: a :class:`GameState` carries its PRNG seed, so a
game is fully determined by its :class:`GameConfig` and the list of directions played
(see :func:`replay`).

Tile spawning (seed 004 §5.1): the empty cells are listed in row-major order; a first PRNG
draw picks the value from the weighted distribution, a second draw picks the cell at index
``floor(value * len(empty_cells))``. A tile spawns only after a move that changed the board.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from core.game2048.board import (
    DIRECTIONS,
    Board,
    Cell,
    _cell_grid,
    _move_board,
    calculate_is_game_over,
    empty_board,
    make_board,
    max_tile,
    validate_direction,
)
from core.game2048.merge import (
    PRESET_DEFAULTS,
    MergeLogic,
    UnsavableMergeLogic,
    merge_logic_name,
    preset_name_of,
    resolve_merge_logic,
)
from core.game2048.rng import normalize_seed, prng_next

CUSTOM_RULE = "custom"
"""The :attr:`GameConfig.merge_rule` of a configuration whose function is not a preset."""


class TileWeight(NamedTuple):
    """One entry of a spawn distribution: a tile value and its relative weight."""

    value: int
    """The tile value (any positive integer, not only powers of two)."""
    weight: float
    """Relative weight (non-negative; the weights of a distribution sum to more than 0)."""


Distribution = tuple[TileWeight, ...]
"""A spawn distribution: the values new tiles take, with relative weights."""

DEFAULT_DISTRIBUTION: Distribution = (TileWeight(2, 9), TileWeight(4, 1))
"""Classic 2048: a new tile is 2 with probability 0.9 and 4 with probability 0.1."""


def normalize_distribution(distribution: Any) -> Distribution:
    """Accept the usual spellings of a spawn distribution and validate it.

    Args:
        distribution: ``[(value, weight), ...]``, ``[{"value": v, "weight": w}, ...]`` or a
            mapping ``{value: weight}``.

    Returns:
        A tuple of :class:`TileWeight`.

    Raises:
        ValueError: If it is empty, a value is not a positive integer, a weight is negative
            or not a number, or all weights are zero.
    """
    if isinstance(distribution, Mapping):
        items: Iterable[Any] = distribution.items()
    else:
        items = distribution
    out: list[TileWeight] = []
    try:
        for item in items:
            if isinstance(item, Mapping):
                value, weight = item["value"], item["weight"]
            else:
                value, weight = item
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"tile values must be positive integers, got {value!r}")
            if (
                isinstance(weight, bool)
                or not isinstance(weight, (int, float))
                or not (weight >= 0)
            ):
                raise ValueError(f"tile weights must be non-negative numbers, got {weight!r}")
            if weight == float("inf"):
                raise ValueError("tile weights must be finite")
            out.append(TileWeight(value, weight))
    except (TypeError, KeyError) as exc:
        raise ValueError(f"malformed tile value distribution: {exc}") from None
    if not out:
        raise ValueError("the tile value distribution is empty")
    if sum(w.weight for w in out) <= 0:
        raise ValueError("the tile value distribution needs a positive total weight")
    return tuple(out)


@dataclass(frozen=True, init=False)
class GameConfig:
    """The rules and start of a game (seed 004 §3.1), immutable and serialisable.

    The merge rule is stored by preset *name* (``merge_rule``) so configurations can be saved;
    the :attr:`merge_logic` property gives the function. The constructor accepts the rule as
    ``merge_logic`` (a name or any function, as in the seed) or ``merge_rule`` (a name). A
    function that is not a registered preset is kept in ``custom_merge_logic`` (and
    ``merge_rule`` is ``"custom"``): the game plays, replays and gets hints, but
    :meth:`to_dict` refuses it with :class:`~core.game2048.merge.UnsavableMergeLogic`.

    Attributes:
        board_size: Side length of the square board (at least 2).
        initial_seed: Seed of the PRNG at the start (reduced into ``[0, 2**32)``).
        number_of_initial_tiles: Tiles placed by :func:`create_game`.
        tile_value_distribution: Values of new tiles with relative weights.
        merge_rule: Name of the merge preset (see :mod:`core.game2048.merge`), or
            ``"custom"`` for an unregistered function.
        goal: Tile value that wins the game (``None``: no goal).
        custom_merge_logic: The merge function when it is not a registered preset, else
            ``None`` (compared by identity).
    """

    board_size: int
    """Side length of the square board (at least 2)."""
    initial_seed: int
    """Seed of the PRNG at the start, in ``[0, 2**32)``."""
    number_of_initial_tiles: int
    """How many tiles :func:`create_game` places."""
    tile_value_distribution: Distribution
    """Values of new tiles with relative weights."""
    merge_rule: str
    """Name of the merge preset."""
    goal: int | None
    """Tile value that counts as a win; ``None`` for endless play."""
    custom_merge_logic: MergeLogic | None
    """An unregistered merge function (``merge_rule`` is then ``"custom"``), else ``None``."""

    def __init__(
        self,
        board_size: int = 4,
        initial_seed: int = 0,
        number_of_initial_tiles: int = 2,
        tile_value_distribution: Any = DEFAULT_DISTRIBUTION,
        merge_logic: MergeLogic | str | None = None,
        goal: int | None = 2048,
        *,
        merge_rule: str | None = None,
    ) -> None:
        if merge_logic is not None and merge_rule is not None:
            raise ValueError("give merge_logic or merge_rule, not both")
        custom: MergeLogic | None = None
        if callable(merge_logic) and preset_name_of(merge_logic) is None:
            custom, rule = merge_logic, CUSTOM_RULE  # the seed's GameConfig takes any function
        else:
            rule = merge_logic_name(
                merge_logic if merge_logic is not None else merge_rule or "standard"
            )
        if isinstance(board_size, bool) or not isinstance(board_size, int) or board_size < 2:
            raise ValueError(f"board_size must be an integer >= 2, got {board_size!r}")
        if (
            isinstance(number_of_initial_tiles, bool)
            or not isinstance(number_of_initial_tiles, int)
            or not 0 <= number_of_initial_tiles <= board_size * board_size
        ):
            raise ValueError(
                f"number_of_initial_tiles must be between 0 and {board_size * board_size} "
                f"(the cells of a {board_size}×{board_size} board), "
                f"got {number_of_initial_tiles!r}"
            )
        if goal is not None and (isinstance(goal, bool) or not isinstance(goal, int) or goal <= 0):
            raise ValueError(f"goal must be a positive integer or None, got {goal!r}")
        object.__setattr__(self, "board_size", board_size)
        object.__setattr__(self, "initial_seed", normalize_seed(initial_seed))
        object.__setattr__(self, "number_of_initial_tiles", number_of_initial_tiles)
        object.__setattr__(
            self, "tile_value_distribution", normalize_distribution(tile_value_distribution)
        )
        object.__setattr__(self, "merge_rule", rule)
        object.__setattr__(self, "goal", goal)
        object.__setattr__(self, "custom_merge_logic", custom)
        self._cache_derived()

    def _cache_derived(self) -> None:
        """Cache values derived from the fields, for the move loop.

        They are not dataclass fields, so they take no part in equality, hashing, repr or
        ``to_dict``: the merge function (``_merge_fn``) and the spawn distribution as
        cumulative weights (``_spawn_table``), so that picking a spawn value is one bisect.
        """
        object.__setattr__(self, "_merge_fn", self.merge_logic)
        object.__setattr__(self, "_spawn_table", _spawn_table(self.tile_value_distribution))

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails: a config built without __init__ (e.g.
        # unpickled from an older version) derives its cached values on first use.
        if name == "custom_merge_logic":
            return None
        if name in ("_merge_fn", "_spawn_table"):
            self._cache_derived()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def merge_logic(self) -> MergeLogic:
        """The merge function: the custom one, else the preset :attr:`merge_rule` names."""
        custom = self.__dict__.get("custom_merge_logic")  # absent in configs pickled before
        return custom if custom is not None else resolve_merge_logic(self.merge_rule)

    @classmethod
    def for_preset(cls, merge_rule: str = "standard", **kwargs: Any) -> GameConfig:
        """A configuration using a preset's default distribution and goal.

        Args:
            merge_rule: Preset name.
            **kwargs: Any other constructor argument (overrides the preset defaults).

        Returns:
            The configuration.
        """
        resolve_merge_logic(merge_rule)
        defaults = PRESET_DEFAULTS[merge_rule]
        kwargs.setdefault("tile_value_distribution", defaults.distribution)
        kwargs.setdefault("goal", defaults.goal)
        return cls(merge_rule=merge_rule, **kwargs)

    def with_changes(self, **kwargs: Any) -> GameConfig:
        """A copy with some fields replaced (same keyword names as the constructor)."""
        data: dict[str, Any] = {
            "board_size": self.board_size,
            "initial_seed": self.initial_seed,
            "number_of_initial_tiles": self.number_of_initial_tiles,
            "tile_value_distribution": self.tile_value_distribution,
            "goal": self.goal,
        }
        if "merge_logic" not in kwargs and "merge_rule" not in kwargs:
            data["merge_logic"] = self.merge_logic
        elif "merge_logic" not in kwargs:
            data["merge_rule"] = kwargs.pop("merge_rule")
        data.update(kwargs)
        return GameConfig(**data)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (see :meth:`from_dict`).

        Raises:
            UnsavableMergeLogic: When the merge function is not a registered preset (a save
                names its rule; it never stores code).
        """
        return {
            "board_size": self.board_size,
            "initial_seed": self.initial_seed,
            "number_of_initial_tiles": self.number_of_initial_tiles,
            "tile_value_distribution": [
                {"value": t.value, "weight": t.weight} for t in self.tile_value_distribution
            ],
            "merge_logic": self.saved_merge_rule(),
            "goal": self.goal,
        }

    def saved_merge_rule(self) -> str:
        """The preset name a save or level file writes for this configuration's merge rule.

        Returns:
            The preset name (a custom function registered after the configuration was made is
            found by identity).

        Raises:
            UnsavableMergeLogic: When the function is not a registered preset.
        """
        custom = self.__dict__.get("custom_merge_logic")
        if custom is None:
            return self.merge_rule
        name = preset_name_of(custom)
        if name is None:
            label = getattr(custom, "__qualname__", "a custom function")
            raise UnsavableMergeLogic(
                f"this 2048 game uses a custom merge function ({label}) and cannot be saved: "
                "saves and level files name their merge rule and never store code; register "
                "the function with core.game2048.register_merge_preset(name, function) first"
            )
        return name

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameConfig:
        """Rebuild a configuration from :meth:`to_dict` output.

        Missing keys take the constructor defaults.

        Raises:
            ValueError: If a field is invalid or ``data`` is not a mapping.
        """
        if not isinstance(data, Mapping):
            raise ValueError("a 2048 configuration must be a JSON object")
        known = {
            "board_size",
            "initial_seed",
            "number_of_initial_tiles",
            "tile_value_distribution",
            "merge_logic",
            "goal",
        }
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown configuration keys: {', '.join(sorted(unknown))}")
        try:
            return cls(**dict(data))
        except TypeError as exc:
            raise ValueError(f"invalid configuration: {exc}") from None


class MoveInfo(NamedTuple):
    """What the move that produced a state did (for display and animation)."""

    direction: str
    """The direction played."""
    points_earned: int
    """Score earned by the move."""
    merged_cells: tuple[Cell, ...]
    """Cells holding a tile produced by a merge, row-major."""
    new_tile_position: Cell | None
    """Where the spawned tile went (``None`` if none spawned)."""
    new_tile_value: int | None
    """The spawned tile's value."""


@dataclass(frozen=True)
class GameState:
    """The complete state of a game (seed 004 §3.2), immutable.

    Attributes:
        board: Rows of tile values, 0 for empty.
        score: Points so far.
        config: The configuration the game was created with.
        current_seed: PRNG state; advanced by every random draw.
        is_game_over: Authoritative game-over flag computed by :func:`move`.
        tiles_placed_count: Tiles placed so far (initial and spawned).
        move_count: Moves that changed the board so far.
        last_move: What the latest move did (``None`` for a new game).
    """

    board: Board
    """Rows of tile values, 0 for empty."""
    score: int
    """Points so far."""
    config: GameConfig
    """The configuration the game was created with."""
    current_seed: int
    """PRNG state, advanced by every random draw."""
    is_game_over: bool
    """True when no move can change the board."""
    tiles_placed_count: int
    """Tiles placed so far (initial tiles and spawned tiles)."""
    move_count: int = 0
    """Moves that changed the board so far."""
    last_move: MoveInfo | None = field(default=None, compare=False)
    """What the latest move did (not part of equality: two routes to one position are equal)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot (without :attr:`last_move`)."""
        return {
            "board": [list(row) for row in self.board],
            "score": self.score,
            "config": self.config.to_dict(),
            "current_seed": self.current_seed,
            "is_game_over": self.is_game_over,
            "tiles_placed_count": self.tiles_placed_count,
            "move_count": self.move_count,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_dict` output.

        Raises:
            ValueError: If the data is malformed or inconsistent with its configuration.
        """
        try:
            config = GameConfig.from_dict(data["config"])
            board = make_board(data["board"])
            if len(board) != config.board_size:
                raise ValueError("board size does not match the configuration")
            ints = [data[k] for k in ("score", "current_seed", "tiles_placed_count")]
            ints.append(data.get("move_count", 0))
            if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in ints):
                raise ValueError("score, seed and counters must be non-negative integers")
            return cls(
                board=board,
                score=ints[0],
                config=config,
                current_seed=normalize_seed(ints[1]),
                is_game_over=bool(data["is_game_over"]),
                tiles_placed_count=ints[2],
                move_count=ints[3],
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed 2048 state: {exc!r}") from None


_new_object = object.__new__
_new_tuple = tuple.__new__


def _new_state(
    board: Board,
    score: int,
    config: GameConfig,
    current_seed: int,
    is_game_over: bool,
    tiles_placed_count: int,
    move_count: int,
    last_move: MoveInfo | None,
) -> GameState:
    """Build a :class:`GameState` from values known to be valid (the internal fast path).

    The frozen dataclass ``__init__`` goes through ``object.__setattr__`` once per field;
    filling the new instance's ``__dict__`` directly builds the very same object (same
    fields, equality, hash and repr) several times faster, which matters once per move.
    Keep it in step with the fields of :class:`GameState`.
    """
    state = _new_object(GameState)
    d = state.__dict__
    d["board"] = board
    d["score"] = score
    d["config"] = config
    d["current_seed"] = current_seed
    d["is_game_over"] = is_game_over
    d["tiles_placed_count"] = tiles_placed_count
    d["move_count"] = move_count
    d["last_move"] = last_move
    return state


class PlacementResult(NamedTuple):
    """Result of :func:`place_new_tile` (seed 004 §5.1)."""

    new_board: Board
    """The board with the new tile (the input board when none was added)."""
    next_seed: int
    """The PRNG state after the draws (unchanged when no tile was added)."""
    tile_added: bool
    """False when the board had no empty cell."""
    new_tile_value: int | None
    """Value of the new tile."""
    new_tile_position: Cell | None
    """Where the new tile went."""


def select_weighted_value(distribution: Any, random_number: float) -> int:
    """Pick a value from a weighted distribution with a number in ``[0, 1)``.

    The weights are laid end to end on ``[0, total)``; the value whose segment contains
    ``random_number * total`` is chosen (zero-weight values are never chosen).

    Args:
        distribution: ``(value, weight)`` pairs (any form :func:`normalize_distribution`
            accepts).
        random_number: A number in ``[0, 1)``.

    Returns:
        The chosen value.

    Raises:
        ValueError: If the distribution is invalid or ``random_number`` is outside [0, 1).
    """
    if not 0.0 <= random_number < 1.0:
        raise ValueError(f"random_number must be in [0, 1), got {random_number!r}")
    dist = distribution if _is_normalized(distribution) else normalize_distribution(distribution)
    total = sum(t.weight for t in dist)
    target = random_number * total
    cumulative = 0.0
    last = None
    for t in dist:
        if t.weight <= 0:
            continue
        cumulative += t.weight
        last = t.value
        if target < cumulative:
            return t.value
    # Only reachable through float rounding when random_number is just below 1.
    assert last is not None
    return last


def _is_normalized(distribution: Any) -> bool:
    return isinstance(distribution, tuple) and all(isinstance(t, TileWeight) for t in distribution)


def _spawn_table(dist: Distribution) -> tuple[float | int, tuple[float, ...], tuple[int, ...]]:
    """``(total, cumulative, values)`` for picking a spawn value with one bisect.

    Computed with exactly the arithmetic of :func:`select_weighted_value` (the same ``sum``
    for the total, the same running float sum over the positive weights), so
    ``values[bisect_right(cumulative, r * total)]`` is the value it returns.
    """
    total = sum(t.weight for t in dist)
    cumulative: list[float] = []
    values: list[int] = []
    running = 0.0
    for t in dist:
        if t.weight <= 0:
            continue
        running += t.weight
        cumulative.append(running)
        values.append(t.value)
    return total, tuple(cumulative), tuple(values)


def _spawn(
    board: Board, config: GameConfig, seed: int, empty_count: int
) -> tuple[Board, int, int, Cell]:
    """Place one tile (seed 004 §5.1) on a board known to have ``empty_count`` > 0 empty cells.

    The fast core of :func:`place_new_tile`: the same two PRNG draws (value, then cell) and
    the same choice of cell, without listing the empty cells.

    Returns:
        ``(new_board, next_seed, value, cell)``.
    """
    rand1, seed = prng_next(seed)
    total, cumulative, values = config._spawn_table
    i = bisect_right(cumulative, rand1 * total)
    value = values[i] if i < len(values) else values[-1]  # the end: float rounding only
    rand2, seed = prng_next(seed)
    k = int(rand2 * empty_count)
    if k >= empty_count:
        k = empty_count - 1
    # The k-th empty cell (0-based) in row-major order: skip whole rows by their count.
    for r, row in enumerate(board):  # noqa: B007 - r is read after the loop breaks
        zeros = row.count(0)
        if k < zeros:
            break
        k -= zeros
    c = row.index(0)
    for _ in range(k):
        c = row.index(0, c + 1)
    # Copy, set, freeze: cheaper than rebuilding the board from slices.
    cells = list(row)
    cells[c] = value
    rows = list(board)
    rows[r] = tuple(cells)
    return tuple(rows), seed, value, _cell_grid(len(board))[r][c]


def place_new_tile(board: Board, config: GameConfig, current_seed: int) -> PlacementResult:
    """Spawn one tile on a random empty cell (seed 004 §5.1).

    The first PRNG draw chooses the value, the second the cell: the empty cells in row-major
    order, index ``floor(value * count)``.

    Args:
        board: The board.
        config: Supplies the spawn distribution.
        current_seed: The PRNG state.

    Returns:
        A :class:`PlacementResult`; with no empty cell, the board and seed are returned
        unchanged and ``tile_added`` is False.
    """
    rows = tuple(map(tuple, board))  # callers may pass lists
    empty_count = sum(row.count(0) for row in rows)
    if not empty_count:
        return PlacementResult(board, current_seed, False, None, None)
    new_board, seed, value, cell = _spawn(rows, config, normalize_seed(current_seed), empty_count)
    return PlacementResult(new_board, seed, True, value, cell)


def create_game(config: GameConfig) -> GameState:
    """Start a game: an empty board with ``number_of_initial_tiles`` spawned tiles.

    Args:
        config: The configuration.

    Returns:
        The initial state. As seed 004 §4 says, ``is_game_over`` is ``False`` here whatever
        the board: the first move (or :func:`check_if_game_over`) decides. A tiny board
        dealt full of unmergeable tiles is therefore not flagged at creation; the app's
        session layer (:meth:`core.game2048.game.Game2048.initial`) checks it at start.
    """
    board = empty_board(config.board_size)
    seed = config.initial_seed
    placed = 0
    for _ in range(config.number_of_initial_tiles):
        result = place_new_tile(board, config, seed)
        board, seed = result.new_board, result.next_seed
        placed += int(result.tile_added)
    return GameState(
        board=board,
        score=0,
        config=config,
        current_seed=seed,
        is_game_over=False,  # seed 004 §4: "isGameOver 设为 false"
        tiles_placed_count=placed,
    )


def get_board(state: GameState) -> Board:
    """The board of a state."""
    return state.board


def get_score(state: GameState) -> int:
    """The score of a state."""
    return state.score


def check_if_game_over(state: GameState) -> bool:
    """Recompute game over from the board and merge rule (independent of the stored flag)."""
    return calculate_is_game_over(state.board, state.config.merge_logic)


def move(state: GameState, direction: str) -> GameState:
    """Play one move (seed 004 §4).

    Slides and merges the board; if nothing changed (or the game is over) the *same object*
    is returned. Otherwise the score grows by the merges' points, one tile spawns, and the
    game-over flag is recomputed.

    Args:
        state: The current state.
        direction: ``"up"``, ``"down"``, ``"left"`` or ``"right"``.

    Returns:
        The next state, or ``state`` itself when the move changes nothing.

    Raises:
        ValueError: For an invalid direction (the message names the valid ones).
    """
    if state.is_game_over:
        validate_direction(direction)  # a bad direction is an error even then
        return state
    config = state.config
    moved = _move_board(state.board, direction, config._merge_fn)  # validates direction
    if moved is None:
        return state
    board, points, merged, empty_count = moved
    seed = state.current_seed
    value: int | None = None
    cell: Cell | None = None
    # A changed board always has an empty cell (a merge frees one, a slide needs one); the
    # test only keeps the no-room case of place_new_tile (no tile, seed unchanged) exact.
    if empty_count:
        board, seed, value, cell = _spawn(board, config, seed, empty_count)
    return _new_state(
        board,
        state.score + points,
        config,
        seed,
        # An empty cell left after the spawn means the game goes on: skip the scan.
        empty_count <= 1 and calculate_is_game_over(board, config._merge_fn),
        state.tiles_placed_count + (1 if empty_count else 0),
        state.move_count + 1,
        # MoveInfo is a NamedTuple: tuple.__new__ skips its Python-level __new__.
        _new_tuple(MoveInfo, (direction, points, merged, cell, value)),
    )


def has_won(state: GameState) -> bool:
    """Whether the board holds a tile of at least the configured goal.

    Winning does not end the game: the player may keep playing (the TUI asks once).
    """
    goal = state.config.goal
    return goal is not None and max_tile(state.board) >= goal


def legal_moves(state: GameState) -> tuple[str, ...]:
    """The directions that would change the board (empty when the game is over)."""
    if state.is_game_over:
        return ()
    logic = state.config.merge_logic
    return tuple(d for d in DIRECTIONS if _move_board(state.board, d, logic) is not None)


_LETTERS = {"l": "left", "r": "right", "u": "up", "d": "down"}
_WORDS = {"left", "right", "up", "down"}


def parse_moves(text: str) -> tuple[str, ...]:
    """Parse a move string such as ``"LLRU"``, ``"l, r u"`` or ``"left,up"``.

    Letters L/R/U/D (any case) or the full direction words; commas and whitespace separate
    freely.

    Args:
        text: The move string.

    Returns:
        The directions.

    Raises:
        ValueError: Naming the first bad character and its 1-based column.
    """
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\r\n,;":
            i += 1
            continue
        low = text[i:].lower()
        word = next((w for w in sorted(_WORDS, key=len, reverse=True) if low.startswith(w)), None)
        if word is not None and (i + len(word) >= n or not text[i + len(word)].isalpha()):
            out.append(word)
            i += len(word)
            continue
        direction = _LETTERS.get(ch.lower())
        if direction is None:
            raise ValueError(
                f"bad move {ch!r} at column {i + 1}: expected L, R, U or D "
                "(separated by nothing, commas or spaces)"
            )
        out.append(direction)
        i += 1
    return tuple(out)


def replay(config: GameConfig, moves: Iterable[str]) -> tuple[GameState, int]:
    """Replay a game from its configuration and directions.

    Args:
        config: The configuration (its seed fixes every spawn).
        moves: Directions, e.g. from :func:`parse_moves`.

    Returns:
        ``(final_state, moves_applied)`` where ``moves_applied`` counts the moves that changed
        the board (moves into a wall are skipped, as in play).

    Raises:
        ValueError: For an invalid direction.
    """
    return replay_from(create_game(config), moves)


def replay_from(state: GameState, moves: Iterable[str]) -> tuple[GameState, int]:
    """Replay directions from ``state``; returns ``(final_state, moves_applied)`` as
    :func:`replay` counts them."""
    applied = 0
    for direction in moves:
        nxt = move(state, direction)
        if nxt is not state:
            applied += 1
        state = nxt
    return state, applied


def board_from_rows(rows: Sequence[Sequence[int]]) -> Board:
    """Validate nested sequences as a board (alias of :func:`make_board`)."""
    return make_board(rows)


def state_from_board(
    rows: Sequence[Sequence[int]],
    config: GameConfig | None = None,
    score: int = 0,
    seed: int | None = None,
) -> GameState:
    """Build a state around a given board (for puzzles, tests and analysis).

    Args:
        rows: The board.
        config: Configuration (default: standard rules with the board's size).
        score: The score to start from.
        seed: PRNG state (default: the configuration's initial seed).

    Returns:
        A state whose game-over flag is computed from the board.

    Raises:
        ValueError: If the board is invalid or does not match ``config.board_size``.
    """
    board = make_board(rows)
    if config is None:
        config = GameConfig(board_size=len(board))
    if len(board) != config.board_size:
        raise ValueError("board size does not match the configuration")
    return GameState(
        board=board,
        score=score,
        config=config,
        current_seed=config.initial_seed if seed is None else normalize_seed(seed),
        is_game_over=calculate_is_game_over(board, config.merge_logic),
        tiles_placed_count=sum(1 for row in board for v in row if v),
    )
