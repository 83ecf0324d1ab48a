"""A 2048 level: a named configuration, optionally with a starting board (a 2048 puzzle).

What a level file describes (``game 2048``): the rules (:class:`GameConfig`: board size,
merge rule, seed, initial tiles, goal, spawn distribution), and for puzzles a board to start
from. The rules are validated by :class:`GameConfig` itself; this module adds only the bounds
that keep a level playable and its file readable (board size, number sizes), so that every
level the constructor accepts can be written to a level file and read back.

:func:`make_config` builds the configuration from the fields of a level file one field at a
time, so that a complaint of :class:`GameConfig` names the field it is about.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from core.game2048.board import Board, make_board
from core.game2048.merge import PRESET_DEFAULTS, merge_logic_name
from core.game2048.state import GameConfig
from core.levelmeta import check_meta
from core.levelpack import LevelFieldError

__all__ = ["MAX_NUMBER", "MAX_SEED", "MAX_SIZE", "PRESET", "Level", "make_config"]

MAX_SIZE = 64
"""Largest board side (the command line's limit too)."""

MAX_NUMBER = 10**18
"""Largest tile value, goal, board cell or integer spawn weight."""

MAX_SEED = 2**32 - 1
"""Largest seed a level file may give (the PRNG state is 32 bits; larger seeds are refused,
not silently reduced)."""


class _Preset:
    """Marker: take the merge rule's preset value (see ``core.game2048.merge.PRESET_DEFAULTS``)."""

    def __repr__(self) -> str:
        return "PRESET"


PRESET: Any = _Preset()
"""Default of :func:`make_config`'s ``goal`` and ``distribution``: the rule's preset value."""


def make_config(
    *,
    size: int = 4,
    rule: str = "standard",
    seed: int = 0,
    tiles: int = 2,
    goal: int | None = PRESET,
    distribution: Any = PRESET,
) -> GameConfig:
    """Build a configuration from level-file fields, blaming the right field on failure.

    Args:
        size: Board side length.
        rule: Merge preset name (``standard``, ``fibonacci``, ``threes``).
        seed: Initial PRNG seed, 0 to :data:`MAX_SEED`.
        tiles: Tiles placed at the start.
        goal: Winning tile, None for endless play, or PRESET for the rule's default.
        distribution: ``(value, weight)`` pairs, or PRESET for the rule's default.

    Returns:
        The configuration.

    Raises:
        LevelFieldError: Naming the field (``size``, ``rule``, ``seed``, ``tiles``, ``goal``
            or ``distribution``) that :class:`GameConfig` or the seed bound refused.
    """
    try:
        rule = merge_logic_name(rule)
    except ValueError as error:
        raise LevelFieldError("rule", str(error)) from None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise LevelFieldError("seed", f"seed must be an integer from 0 to {MAX_SEED}, not {seed!r}")
    preset = PRESET_DEFAULTS[rule]
    args: dict[str, Any] = {"merge_rule": rule, "initial_seed": seed, "number_of_initial_tiles": 0}
    # GameConfig validates everything at once; adding one field at a time tells which one
    # it refused without repeating its checks here.
    steps = (
        ("size", "board_size", size),
        ("tiles", "number_of_initial_tiles", tiles),
        ("goal", "goal", preset.goal if goal is PRESET else goal),
        (
            "distribution",
            "tile_value_distribution",
            preset.distribution if distribution is PRESET else distribution,
        ),
    )
    config = None
    for field, name, value in steps:
        args[name] = value
        try:
            config = GameConfig(**args)
        except (TypeError, ValueError) as error:
            raise LevelFieldError(field, _file_words(str(error))) from None
    assert config is not None
    return config


# GameConfig speaks of its parameters; a level file's reader knows the fields by these names.
_FILE_WORDS = (
    ("board_size**2", "size*size"),
    ("board_size", "size"),
    ("number_of_initial_tiles", "tiles"),
)


def _file_words(message: str) -> str:
    for old, new in _FILE_WORDS:
        message = message.replace(old, new)
    return message


def _check_number(field: str, value: int) -> None:
    if value > MAX_NUMBER:
        raise LevelFieldError(field, f"{field} values must be at most {MAX_NUMBER}, not {value}")


def _check_config(config: Any) -> None:
    """The level bounds beyond :class:`GameConfig`'s own checks."""
    if not isinstance(config, GameConfig):
        raise LevelFieldError(
            "size", f"a 2048 level needs a GameConfig, not {type(config).__name__}"
        )
    try:
        config.saved_merge_rule()  # a level file names its rule: a custom function has none
    except ValueError as error:
        raise LevelFieldError("rule", str(error)) from None
    if config.board_size > MAX_SIZE:
        raise LevelFieldError("size", f"size must be at most {MAX_SIZE}, not {config.board_size}")
    if config.goal is not None:
        _check_number("goal", config.goal)
    for entry in config.tile_value_distribution:
        _check_number("distribution", entry.value)
        weight = entry.weight
        if isinstance(weight, int):
            _check_number("distribution", weight)
        elif not math.isfinite(weight):  # GameConfig refuses these today; kept for safety
            raise LevelFieldError("distribution", f"weights must be finite, not {weight!r}")


@dataclass(frozen=True, slots=True)
class Level:
    """One 2048 level.

    Attributes:
        title: Shown in level lists (the metadata fields title, description, hint and
            author are checked by ``core.levelmeta.check_meta``; ``par`` is always None).
        config: The rules: board size, merge rule, seed, initial tiles, goal, distribution.
        board: A board to start from (a puzzle), rows of tile values with 0 for empty, or
            None to start as :func:`core.game2048.create_game` does (``tiles`` random tiles).
        description: Flavour / explanation text shown before playing.
        hint: The tip shown on ``t``.
        author: Who made the level.

    Raises:
        LevelFieldError: (a ValueError) naming the first field out of bounds: ``size`` at
            most :data:`MAX_SIZE`; goal, tile values, integer weights and board cells at
            most :data:`MAX_NUMBER`; the board square, ``size`` by ``size``.
    """

    title: str
    """Shown in level lists."""
    config: GameConfig
    """The rules of the game."""
    board: Board | None = None
    """The starting board of a puzzle, or None."""
    description: str = ""
    """Flavour / explanation text."""
    hint: str = ""
    """The tip shown on ``t``."""
    author: str = ""
    """Who made the level."""

    def __post_init__(self) -> None:
        check_meta(self)
        _check_config(self.config)
        if self.board is not None:
            try:
                board = make_board(self.board)
            except (TypeError, ValueError) as error:
                raise LevelFieldError("board", str(error)) from None
            if len(board) != self.config.board_size:
                raise LevelFieldError(
                    "board", f"the board has {len(board)} rows but size is {self.config.board_size}"
                )
            for row in board:
                for cell in row:
                    _check_number("board", cell)
            object.__setattr__(self, "board", board)

    @property
    def par(self) -> None:
        """Always None: a 2048 level is scored, not counted against a par (the level-metadata
        protocol, :class:`core.levelmeta.LevelMeta`, asks every level for one)."""
        return None
