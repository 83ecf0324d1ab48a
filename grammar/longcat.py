"""Longcat's level format (:data:`FORMAT`): grids in level files, and plain grid packs.

A Longcat level block (``grid`` is required, the other fields are optional)::

    level "Arduboy 2 · easy 25" {
      game longcat
      author "OBONO"
      description "From the Arduboy game (MIT licence)."
      hint "Start with the long corridor."
      par 7                      ; moves of the shortest solution
      grid                       ; '#' wall, '.' empty, '@' the cat's start
        ########
        ##....##
        ##..@.##
        ##..#.##
        ##....##
        ########
    }

The board edge is a wall. A *plain* grid pack (as ``arduboy-100.txt``) is read as it is:
grids separated by blank lines, ``;`` starts a comment (a line of its own or the end of a
row); its levels are titled ``Level 1``, ``Level 2``... and the first paragraph of comment
lines (before the first grid) becomes the pack's description (so an attribution travels with the levels).

Errors in a grid (rows of different lengths, no ``@`` or a second one, a character that is
not ``#``, ``.`` or ``@``, more than 32 rows or columns) name the line and column of the
offending character, with a caret, in both kinds of file. In a level file the check runs
while the grid is parsed: the grid rule's callback raises :class:`GridFault`, a
``lark.exceptions.UnexpectedInput``, which the shared loader reports at the fault's own
line and column (a value error from ``build`` could only point at the start of the field).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput

from core.levelpack import MAX_TEXT, LevelPack, check_title
from core.longcat.level import MAX_SIZE, Level

from .errors import ParseError
from .format import (
    BODY,
    META_FIELDS,
    PAR_FIELD,
    FieldSpec,
    FieldValue,
    LevelFormat,
    PlainLoader,
    ValueKind,
    WrongKind,
    meta_args,
    meta_values,
)

__all__ = ["FORMAT", "Grid", "GridFault", "check_grid", "load_plain", "sniff_plain"]

GRID_CHARS = "#.@"
"""The characters a grid row may hold (and begin with)."""


@dataclass(frozen=True, slots=True)
class Grid:
    """A grid as written in a level file: its rows, checked (see :func:`check_grid`)."""

    rows: tuple[str, ...]
    """The rows, top first."""


class GridFault(UnexpectedInput):
    """A grid that is not a level, raised while a level file is parsed.

    Attributes:
        line: 1-based line of the offending character.
        column: 1-based column.
        pos_in_stream: Offset of the character in the text.
        message: What is wrong, for a person.
    """

    def __init__(self, message: str, line: int, column: int, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.pos_in_stream = offset  # type: ignore[assignment]  # lark declares it None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Place:
    """Where a grid row starts in a text."""

    line: int
    """1-based line."""
    column: int
    """1-based column of the row's first character."""
    offset: int
    """Offset of the row's first character."""


def check_grid(rows: Sequence[str]) -> tuple[str, int, int] | None:
    """Find the first fault of a grid, in reading order.

    Args:
        rows: The rows (no blanks inside).

    Returns:
        None for a good grid, else ``(message, row index, column index)`` (0-based) of the
        offending character; for a missing ``@``, the first cell.
    """
    if not rows:
        return "a Longcat grid needs at least one row", 0, 0
    if len(rows) > MAX_SIZE:
        return (
            f"a Longcat grid has at most {MAX_SIZE} rows (this one has {len(rows)})",
            MAX_SIZE,
            0,
        )
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in GRID_CHARS:
                return (
                    f"unknown grid character {ch!r} (expected '#' wall, '.' empty or '@' start)",
                    y,
                    x,
                )
    width = len(rows[0])
    if width > MAX_SIZE:
        return (
            f"a Longcat grid has at most {MAX_SIZE} columns (this one has {width})",
            0,
            MAX_SIZE,
        )
    for y, row in enumerate(rows[1:], start=1):
        if len(row) != width:
            return (
                f"grid row {y + 1} has {len(row)} cells, row 1 has {width} (all rows "
                "must have the same length)",
                y,
                min(len(row), width),
            )
    start: tuple[int, int] | None = None
    for y, row in enumerate(rows):
        x = row.find("@")
        while x >= 0:
            if start is not None:
                return (
                    f"a second start '@' (the first is at row {start[1] + 1}, column "
                    f"{start[0] + 1} of the grid)",
                    y,
                    x,
                )
            start = (x, y)
            x = row.find("@", x + 1)
    if start is None:
        return "the grid has no start cell '@'", 0, 0
    return None


def _fault_place(
    rows: Sequence[str], places: Sequence[Place], y: int, x: int
) -> tuple[int, int, int]:
    """Line, column and offset of cell ``(x, y)`` of a grid whose rows start at ``places``."""
    if y >= len(places):  # one past the last row (cannot happen: faults name a real row)
        y, x = len(places) - 1, len(rows[-1])
    place = places[y]
    return place.line, place.column + x, place.offset + x


class BodyBuilder(Transformer):
    """Callbacks of ``longcat.lark`` (applied during the parse)."""

    def grid(self, children: list[Token]) -> Grid:
        """Check the rows and keep them; a fault raises :class:`GridFault` at its cell."""
        rows = [str(token) for token in children]
        fault = check_grid(rows)
        if fault is not None:
            message, y, x = fault
            places = [Place(t.line or 1, t.column or 1, t.start_pos or 0) for t in children]
            raise GridFault(message, *_fault_place(rows, places, y, x))
        return Grid(tuple(rows))


def _read_grid(value: FieldValue) -> tuple[str, ...]:
    if value.form != BODY or not isinstance(value.data, Grid):
        raise WrongKind
    return value.data.rows


def _write_grid(rows: Any, indent: str) -> str:
    # Starts with a line break: the printer puts nothing after the key, one row per line.
    return "".join(f"\n{indent}  {row}" for row in rows)


GRID_KIND = ValueKind(
    "a grid of rows of '#', '.' and '@'", _read_grid, _write_grid, ("a grid row",)
)
"""Kind ``"grid"``: the rows of a level."""


def _build(title: str, values: dict[str, Any]) -> Level:
    return Level.from_rows(
        values["grid"],
        title=title,
        **meta_args(values),
    )


def _fields_of(level: Level) -> dict[str, Any]:
    return {
        **meta_values(level),
        "grid": level.rows(),
    }


# --------------------------------------------------------------------------- plain packs


def _significant_lines(text: str):
    """``(line number, text before any ';' comment)`` of every line."""
    for number, line in enumerate(text.split("\n"), start=1):
        yield number, line.split(";", 1)[0].rstrip("\r")


def sniff_plain(text: str) -> bool:
    """True when the first character that is not blank or in a comment starts a grid row.

    Args:
        text: A file's text.

    Returns:
        Whether :func:`load_plain` should read it.
    """
    for _, line in _significant_lines(text):
        stripped = line.strip()
        if stripped:
            return stripped[0] in GRID_CHARS
    return False


def _pack_title(filename: str | None) -> str:
    if filename and not filename.startswith("<"):
        stem = os.path.splitext(os.path.basename(filename))[0]
        try:
            check_title(stem)
            return stem
        except ValueError:
            pass
    return "Longcat levels"


def load_plain(text: str, filename: str | None = None) -> LevelPack:
    """Read a plain grid pack (see the module docstring).

    Args:
        text: The file's text.
        filename: Shown in errors; its name (without extension) is the pack's title.

    Returns:
        The pack; levels titled ``Level N`` in file order.

    Raises:
        ParseError: For a bad grid, with the line, column and a caret at the fault.
    """
    levels: list[Level] = []
    header: list[str] = []
    header_done = False  # the header is the first paragraph of comments
    rows: list[str] = []
    places: list[Place] = []
    line_starts = [0]
    for line in text.split("\n"):
        line_starts.append(line_starts[-1] + len(line) + 1)

    def flush() -> None:
        fault = check_grid(rows)
        if fault is not None:
            message, y, x = fault
            line, column, _ = _fault_place(rows, places, y, x)
            raise ParseError(message, text=text, line=line, column=column, filename=filename)
        levels.append(Level.from_rows(rows, title=f"Level {len(levels) + 1}"))
        rows.clear()
        places.clear()

    for number, line in _significant_lines(text):
        raw = text[line_starts[number - 1] : line_starts[number] - 1]
        stripped = line.strip()
        if stripped:
            indent = len(line) - len(line.lstrip())
            rows.append(stripped)
            places.append(Place(number, indent + 1, line_starts[number - 1] + indent))
        elif raw.strip().startswith(";"):
            if not (levels or rows or header_done):
                header.append(raw.strip()[1:].strip())
        else:
            header_done = header_done or bool(header)
            if rows:  # a blank line ends a grid
                flush()
    if rows:
        flush()
    description = "\n".join(header).strip()[:MAX_TEXT]
    return LevelPack(
        title=_pack_title(filename), description=description, levels=tuple(levels), game="longcat"
    )


def _describe(value: Any) -> str:
    if isinstance(value, Grid):
        return "a grid"
    return "a value"  # pragma: no cover - the body builds nothing else


FORMAT = LevelFormat(
    game="longcat",
    level_type=Level,
    fields=(
        *META_FIELDS,
        PAR_FIELD,
        FieldSpec("grid", "grid", required=True),
    ),
    build=_build,
    fields_of=_fields_of,
    kinds={"grid": GRID_KIND},
    grammar="grammar:longcat.lark",
    transformer=BodyBuilder(),
    describe=_describe,
    terminal_names={"ROW": "a grid row"},
    plain=PlainLoader(sniff_plain, load_plain),
)
"""Longcat's level format, named by its registration (``grammar.longcat:FORMAT``)."""
