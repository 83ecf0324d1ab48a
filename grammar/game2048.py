"""2048's level format (:data:`FORMAT`): a configuration and, for puzzles, a starting board.

A 2048 level block (every field is optional; absent ones take ``GameConfig``'s defaults and
the merge rule's preset goal and distribution)::

    level "Fibonacci Warm-up" {
      game 2048
      description "Merge neighbours of the Fibonacci sequence."
      size 4                     ; board side, 2 to 64
      rule fibonacci             ; standard, fibonacci or threes
      seed 7                     ; PRNG seed, 0 to 2**32-1
      tiles 2                    ; tiles placed at the start
      goal 2584                  ; the winning tile, or none
      distribution "1:9,2:1"     ; new tiles: value:weight pairs
      board                      ; optional: the board to start from (0 is empty)
        [1 0 0 1]
        [0 2 0 0]
        [0 0 0 0]
        [0 0 0 0]
    }

Bounds are checked by :mod:`core.game2048.level` (and :class:`GameConfig`); this module only
reads and prints values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lark import Transformer

from core.game2048.level import Level, make_config

from .format import (
    BODY,
    INT,
    META_FIELDS,
    STRING,
    FieldSpec,
    FieldValue,
    LevelFormat,
    ValueKind,
    WrongKind,
    meta_args,
    meta_values,
    read_digits,
)
from .strings import escape_string

__all__ = ["FORMAT", "format_distribution", "parse_distribution"]

NO_GOAL = "none"
"""How a level file writes "no winning tile"."""

CONFIG_FIELDS = ("size", "rule", "seed", "tiles", "goal", "distribution")
"""The fields that make up the level's :class:`GameConfig`."""


@dataclass(frozen=True, slots=True)
class Name:
    """A bare word of the body grammar (a rule name, ``none``)."""

    text: str
    """The word."""


@dataclass(frozen=True, slots=True)
class Rows:
    """A board as written: rows of digit strings."""

    rows: tuple[tuple[str, ...], ...]
    """The rows, top to bottom."""


class BodyBuilder(Transformer):
    """Callbacks of ``game2048.lark`` (applied during the parse)."""

    def word(self, children: list) -> Name:
        """A rule name or ``none``."""
        return Name(str(children[0]))

    def row(self, children: list) -> tuple[str, ...]:
        """``[2 0 0 2]``."""
        return tuple(str(cell) for cell in children)

    def board(self, children: list) -> Rows:
        """Rows of a board."""
        return Rows(tuple(children))


# --------------------------------------------------------------------------- kinds


def _read_rule(value: FieldValue) -> str:
    if value.form != BODY or not isinstance(value.data, Name):
        raise WrongKind
    return value.data.text


def _write_word(value: str, indent: str) -> str:
    return str(value)


def _read_goal(value: FieldValue) -> int | str:
    if value.form == INT:
        return read_digits(value.data)
    if value.form == BODY and isinstance(value.data, Name) and value.data.text == NO_GOAL:
        return NO_GOAL
    raise WrongKind


_ITEM = re.compile(r"([0-9]+)(?::((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))?")


def parse_distribution(text: str) -> tuple[tuple[int, int | float], ...]:
    """Read ``"2:9,4:1"``: ``value:weight`` items separated by commas and/or spaces.

    A weight written with digits only is an int, otherwise a float (``0.5``, ``1e-05``);
    a value without ``:weight`` has weight 1 (as the command line's ``--distribution``).

    Args:
        text: The distribution's text.

    Returns:
        ``(value, weight)`` pairs in order.

    Raises:
        ValueError: Naming the first item that is not ``value:weight``.
    """
    pairs: list[tuple[int, int | float]] = []
    for item in text.replace(",", " ").split():
        match = _ITEM.fullmatch(item)
        if match is None:
            raise ValueError(
                f"bad distribution item {item[:40]!r}: expected value:weight such as 2:9"
            )
        value = read_digits(match.group(1))
        weight_text = match.group(2)
        if weight_text is None:
            weight: int | float = 1
        elif weight_text.isdigit():
            weight = read_digits(weight_text)
        else:
            weight = float(weight_text)
        pairs.append((value, weight))
    if not pairs:
        raise ValueError("the distribution is empty: expected value:weight pairs such as 2:9,4:1")
    return tuple(pairs)


def format_distribution(pairs: Any) -> str:
    """Write a distribution as :func:`parse_distribution` reads it (``2:9,4:1``).

    Args:
        pairs: ``(value, weight)`` pairs (``TileWeight`` tuples are fine).

    Returns:
        The text, without quotes.
    """
    items = []
    for value, weight in pairs:
        if isinstance(weight, float):
            # repr round-trips a float exactly; -0.0 equals 0.0 and has no minus sign here.
            text = repr(weight) if weight != 0 else "0.0"
        else:
            text = str(weight)
        items.append(f"{value}:{text}")
    return ",".join(items)


def _read_distribution(value: FieldValue) -> tuple:
    if value.form != STRING:
        raise WrongKind
    return parse_distribution(value.data)


def _write_distribution(pairs: Any, indent: str) -> str:
    return escape_string(format_distribution(pairs))


def _read_board(value: FieldValue) -> tuple[tuple[int, ...], ...]:
    if value.form != BODY or not isinstance(value.data, Rows):
        raise WrongKind
    return tuple(tuple(read_digits(cell) for cell in row) for row in value.data.rows)


def _write_board(board: Any, indent: str) -> str:
    # Starts with a line break: the printer then puts nothing after the key, and each row
    # goes on its own line, so the board reads as a grid.
    return "".join(f"\n{indent}  [" + " ".join(str(c) for c in row) + "]" for row in board)


RULE_KIND = ValueKind(
    "a merge rule name (standard, fibonacci or threes)",
    _read_rule,
    _write_word,
    ("a merge rule name",),
)
"""Kind ``"rule"``: a word naming a merge preset."""

GOAL_KIND = ValueKind("a positive integer or none", _read_goal, _write_word, ("an integer", "none"))
"""Kind ``"goal"``: the winning tile, or ``none`` for endless play."""

DISTRIBUTION_KIND = ValueKind(
    'value:weight pairs in double quotes, such as "2:9,4:1"',
    _read_distribution,
    _write_distribution,
    ("a string",),
)
"""Kind ``"distribution"``: the spawn distribution, ``"2:9,4:1"``."""

BOARD_KIND = ValueKind("a board of rows such as [2 0 0 2]", _read_board, _write_board, ('"["',))
"""Kind ``"board"``: rows of tile values, 0 for empty."""


# --------------------------------------------------------------------------- the format


def _build(title: str, values: dict[str, Any]) -> Level:
    config = {name: values[name] for name in CONFIG_FIELDS if name in values}
    if config.get("goal") == NO_GOAL:
        config["goal"] = None
    return Level(
        title=title,
        config=make_config(**config),
        board=values.get("board"),
        **meta_args(values, par=False),
    )


def _fields_of(level: Level) -> dict[str, Any]:
    config = level.config
    return {
        **meta_values(level),  # its par (always None) is not a 2048 field: never printed
        "size": config.board_size,
        "rule": config.saved_merge_rule(),
        "seed": config.initial_seed,
        "tiles": config.number_of_initial_tiles,
        "goal": NO_GOAL if config.goal is None else config.goal,
        "distribution": config.tile_value_distribution,
        "board": level.board,
    }


def _describe(value: Any) -> str:
    if isinstance(value, Name):
        return f"the word {value.text}"
    if isinstance(value, Rows):
        return "a board"
    return "a value"  # pragma: no cover - the body builds nothing else


FORMAT = LevelFormat(
    game="2048",
    level_type=Level,
    fields=(
        *META_FIELDS,
        FieldSpec("size", "int"),
        FieldSpec("rule", "rule"),
        FieldSpec("seed", "int"),
        FieldSpec("tiles", "int"),
        FieldSpec("goal", "goal"),
        FieldSpec("distribution", "distribution"),
        FieldSpec("board", "board"),
    ),
    build=_build,
    fields_of=_fields_of,
    kinds={
        "rule": RULE_KIND,
        "goal": GOAL_KIND,
        "distribution": DISTRIBUTION_KIND,
        "board": BOARD_KIND,
    },
    grammar="grammar:game2048.lark",
    transformer=BodyBuilder(),
    describe=_describe,
    terminal_names={"CELL": "a number", "WORD": "a word"},
)
"""2048's level format, named by its registration (``grammar.game2048:FORMAT``)."""
