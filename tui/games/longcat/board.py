"""The Longcat canvas: walls, empty cells and one connected cat, drawn with box characters.

What it draws (the widget knows no rules; the screen gives it the cat's body in order):

* walls as solid blocks, empty cells as a dot;
* the body as one heavy line through its cells in the order the cat filled them (``━``,
  ``┃`` and the corners ``┏ ┓ ┗ ┛``; the tail ends in a half line), so a reader sees one
  long cat, not a set of filled cells;
* the head as a face (``ºº`` in small cells, ``=ºº=`` in wider ones) in reverse video;
* empty cells cut off from the rest (a dead position) as ``×``;
* a hint as arrows over the cells the suggested slide would fill.

Cells take 2 columns x 1 line, or 4 x 2, or 6 x 3 when there is room (terminal characters
are about twice as tall as wide). A grid that does not fit even at 2 x 1 shows the part
around the head (it scrolls with the cat), with a note of where the rest is.

Everything is visible without colour: the styles come from component classes that use theme
variables (16 colours and ``NO_COLOR`` keep reverse video and bold).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

__all__ = ["ARROWS", "SCALES", "BoardPicture", "LongcatBoard", "cell_scale", "draw"]

SCALES: tuple[tuple[int, int], ...] = ((6, 3), (4, 2), (2, 1))
"""Cell sizes (columns, lines), largest first; the largest that fits is used."""

ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
"""The hint's arrow per direction."""

# Heavy box-drawing characters by the set of directions a body cell connects to.
_JOIN = {
    frozenset("lr"): "━",
    frozenset("ud"): "┃",
    frozenset("dr"): "┏",
    frozenset("dl"): "┓",
    frozenset("ur"): "┗",
    frozenset("ul"): "┛",
    frozenset("r"): "╺",
    frozenset("l"): "╸",
    frozenset("d"): "╻",
    frozenset("u"): "╹",
    frozenset(): "●",
}


def cell_scale(columns: int, rows: int, width: int, height: int) -> tuple[int, int]:
    """The largest cell size of :data:`SCALES` that fits a grid in an area (else 2 x 1).

    Args:
        columns: Grid width in cells.
        rows: Grid height in cells.
        width: Available columns.
        height: Available lines.

    Returns:
        ``(cell columns, cell lines)``.
    """
    for cw, ch in SCALES:
        if columns * cw <= width and rows * ch <= height:
            return cw, ch
    return SCALES[-1]


class BoardPicture:
    """What the board shows, as plain data (cells are ``(x, y)``).

    Args:
        width: Grid columns.
        height: Grid rows.
        walls: Wall cells.
        path: The body in order, tail (the start) first, head last.
        cut_off: Empty cells outside the largest empty region (shown as ``×``).
        hint: ``(direction, cells)``: the cells a suggested slide would fill.
    """

    def __init__(
        self,
        width: int,
        height: int,
        walls: frozenset[tuple[int, int]],
        path: Sequence[tuple[int, int]],
        cut_off: frozenset[tuple[int, int]] = frozenset(),
        hint: tuple[str, Sequence[tuple[int, int]]] | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.walls = walls
        self.path = tuple(path)
        self.cut_off = cut_off
        self.hint = hint

    def with_hint(self, hint: tuple[str, Sequence[tuple[int, int]]] | None) -> BoardPicture:
        """The same picture with ``hint`` (None: without one)."""
        return BoardPicture(self.width, self.height, self.walls, self.path, self.cut_off, hint)

    def grows_into(self, other: BoardPicture) -> bool:
        """Whether ``other`` is this grid with a longer body that starts with this one's
        (a slide made it: the animation draws the new cells one by one)."""
        return (
            bool(self.path)
            and len(other.path) > len(self.path)
            and other.path[: len(self.path)] == self.path
            and (self.width, self.height, self.walls) == (other.width, other.height, other.walls)
        )


def _links(path: Sequence[tuple[int, int]]) -> dict[tuple[int, int], set[str]]:
    """For every body cell, the sides (``u d l r``) where the body continues."""
    links: dict[tuple[int, int], set[str]] = {cell: set() for cell in path}
    sides = {(1, 0): ("r", "l"), (-1, 0): ("l", "r"), (0, 1): ("d", "u"), (0, -1): ("u", "d")}
    for (ax, ay), (bx, by) in itertools.pairwise(path):
        here, there = sides[(bx - ax, by - ay)]
        links[(ax, ay)].add(here)
        links[(bx, by)].add(there)
    return links


def _face(cw: int) -> str:
    return {2: "ºº", 4: "=ºº=", 6: " =ºº= "}.get(cw, "ºº".center(cw))


def draw(picture: BoardPicture, cw: int, ch: int) -> list[list[tuple[str, str]]]:
    """Lay out the whole grid as lines of ``(text, role)`` runs, one run per cell line.

    Roles: ``wall``, ``empty``, ``cut``, ``body``, ``head``, ``hint``.

    Args:
        picture: What to show.
        cw: Columns per cell.
        ch: Lines per cell.

    Returns:
        ``picture.height * ch`` lines of ``picture.width`` runs of ``cw`` characters.
    """
    ax = 0 if cw <= 2 else cw // 2 - 1  # where the body line runs inside a cell
    ay = (ch - 1) // 2
    links = _links(picture.path)
    head = picture.path[-1] if picture.path else None
    hint_cells: dict[tuple[int, int], str] = {}
    if picture.hint is not None:
        arrow = ARROWS.get(picture.hint[0], "•")
        hint_cells = dict.fromkeys(picture.hint[1], arrow)
    lines: list[list[tuple[str, str]]] = []
    for y in range(picture.height):
        rows: list[list[tuple[str, str]]] = [[] for _ in range(ch)]
        for x in range(picture.width):
            cell = (x, y)
            if cell in picture.walls:
                for row in rows:
                    row.append(("█" * cw, "wall"))
                continue
            if cell == head:
                for i, row in enumerate(rows):
                    if i == ay:
                        row.append((_face(cw), "head"))
                    elif (i > ay and "d" in links[cell]) or (i < ay and "u" in links[cell]):
                        row.append((" " * ax + "┃" + " " * (cw - ax - 1), "body"))
                    else:
                        row.append((" " * cw, "body"))
                continue
            if cell in links:
                sides = links[cell]
                for i, row in enumerate(rows):
                    if i == ay:
                        left = ("━" if "l" in sides else " ") * ax
                        right = ("━" if "r" in sides else " ") * (cw - ax - 1)
                        row.append((left + _JOIN[frozenset(sides)] + right, "body"))
                    else:
                        vertical = "d" in sides if i > ay else "u" in sides
                        mark = "┃" if vertical else " "
                        row.append((" " * ax + mark + " " * (cw - ax - 1), "body"))
                continue
            if cell in hint_cells:
                mark, role = hint_cells[cell], "hint"
            elif cell in picture.cut_off:
                mark, role = "×", "cut"
            else:
                mark, role = "·", "empty"
            for i, row in enumerate(rows):
                text = " " * ax + mark + " " * (cw - ax - 1) if i == ay else " " * cw
                row.append((text, role))
        lines.extend(rows)
    return lines


class LongcatBoard(Widget):
    """Displays a Longcat grid and the cat (see the module docstring).

    Call :meth:`show` with a :class:`BoardPicture`; :meth:`set_visible` shows only the first
    cells of the body, and :meth:`grow` draws a slide cell by cell; :meth:`highlight` adds a
    hint to what is shown (the next :meth:`show` drops it).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "longcat-board--wall",
        "longcat-board--empty",
        "longcat-board--cut",
        "longcat-board--body",
        "longcat-board--head",
        "longcat-board--hint",
        "longcat-board--note",
        "longcat-board--frame",
    }

    DEFAULT_CSS = """
    LongcatBoard {
        width: 1fr;
        height: 1fr;
        min-width: 16;
        min-height: 4;
    }
    LongcatBoard > .longcat-board--wall { color: $foreground 45%; }
    LongcatBoard > .longcat-board--empty { color: $foreground 60%; }
    LongcatBoard > .longcat-board--cut { color: $text-error; text-style: bold; }
    LongcatBoard > .longcat-board--body { color: $text-accent; text-style: bold; }
    LongcatBoard > .longcat-board--head { color: $text-accent; text-style: bold reverse; }
    LongcatBoard > .longcat-board--hint { color: $text-warning; text-style: bold; }
    LongcatBoard > .longcat-board--note { color: $text-muted; text-style: italic; }
    LongcatBoard > .longcat-board--frame { color: $foreground 45%; }
    """

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.picture: BoardPicture | None = None
        """What is shown."""
        self.shown_cells: int | None = None
        """How many body cells are drawn (None: all)."""
        self._lines: list[list[tuple[str, str]]] = []
        self._scale: tuple[int, int] = (2, 1)
        self._key: object = None
        self._framed = False
        self._growing: Timer | None = None

    def show(self, picture: BoardPicture, count: int | None = None) -> None:
        """Display ``picture`` (all of the body, or its first ``count`` cells); a slide
        still being drawn is finished at once."""
        self._stop_growing()
        self.picture = picture
        self.shown_cells = count
        self._key = None
        self.refresh()

    def grow(self, picture: BoardPicture, start: int, step: float) -> None:
        """Display ``picture`` with its first ``start`` body cells, then one cell more every
        ``step`` seconds until the whole body shows (the slide animation).

        Args:
            picture: What to show in the end.
            start: Body cells shown at first (the body before the slide).
            step: Seconds per cell.
        """
        self.show(picture, start)
        self._growing = self.set_interval(step, self._grow_step)

    @property
    def animating(self) -> bool:
        """True while a slide is being drawn (:meth:`grow`)."""
        return self._growing is not None

    def _grow_step(self) -> None:
        length = len(self.picture.path) if self.picture is not None else 0
        shown = (self.shown_cells or length) + 1
        if shown >= length:
            self._stop_growing()
        else:
            self.set_visible(shown)

    def _stop_growing(self) -> None:
        if self._growing is not None:
            self._growing.stop()
            self._growing = None
            self.set_visible(None)

    def highlight(self, hint: tuple[str, Sequence[tuple[int, int]]] | None) -> None:
        """Add ``hint`` (a direction and the cells it would fill) to the picture shown, until
        the next :meth:`show`."""
        if self.picture is not None:
            self.picture = self.picture.with_hint(hint)
            self._key = None
            self.refresh()

    def set_visible(self, count: int | None) -> None:
        """Draw the first ``count`` body cells only (None: all of them)."""
        if count != self.shown_cells:
            self.shown_cells = count
            self._key = None
            self.refresh()

    @property
    def scale(self) -> tuple[int, int]:
        """The cell size used at the last render."""
        return self._scale

    def _shown(self) -> BoardPicture | None:
        picture = self.picture
        if picture is None or self.shown_cells is None or self.shown_cells >= len(picture.path):
            return picture
        return BoardPicture(
            picture.width,
            picture.height,
            picture.walls,
            picture.path[: max(1, self.shown_cells)],
            picture.cut_off,
        )

    def _layout(self) -> None:
        key = (self.size, self.picture, self.shown_cells)
        if key == self._key:
            return
        self._key = key
        shown = self._shown()
        if shown is None:
            self._lines, self._scale = [], (2, 1)
            return
        width, height = self.size.width, max(1, self.size.height)
        # A frame shows where the edge (a wall) is, when it fits around the grid.
        # A larger cell size wins over the frame.
        cw, ch = cell_scale(shown.width, shown.height, width, height)
        framed = shown.width * cw + 2 <= width and shown.height * ch + 2 <= height
        self._scale = (cw, ch)
        lines = draw(shown, cw, ch)
        self._framed = framed
        if framed:
            inner = shown.width * cw
            lines = (
                [[("┌" + "─" * inner + "┐", "frame")]]
                + [[("│", "frame")] + line + [("│", "frame")] for line in lines]
                + [[("└" + "─" * inner + "┘", "frame")]]
            )
        self._lines = lines

    FOLLOW_NOTE: ClassVar[str] = "the view follows the cat"
    """The note under a grid larger than the widget."""

    def view_centre(self) -> tuple[int, int]:
        """The cell the view is centred on when the grid is larger than the widget (the
        head; the level editor's canvas centres on its cursor)."""
        shown = self._shown()
        return shown.path[-1] if shown is not None and shown.path else (0, 0)

    def _window(self) -> tuple[int, int, int, int]:
        """The part of the drawing shown: ``(first column, first line, columns, lines)`` in
        terminal cells, following :meth:`view_centre` when the grid is larger than the
        widget."""
        cw, ch = self._scale
        total_w = sum(len(text) for text, _ in self._lines[0])
        total_h = len(self._lines)
        view_w, view_h = self.size.width, self.size.height
        head = self.view_centre()

        def start(total: int, view: int, centre: int) -> int:
            if total <= view:
                return 0
            return max(0, min(total - view, centre - view // 2))

        left = start(total_w, view_w, head[0] * cw + cw // 2)
        top = start(total_h, view_h - 1 if total_h > view_h else view_h, head[1] * ch)
        return left, top, min(view_w, total_w), min(view_h, total_h)

    @property
    def clipped(self) -> bool:
        """True when the grid is larger than the widget (the view follows the head)."""
        self._layout()
        if not self._lines:
            return False
        total_w = sum(len(text) for text, _ in self._lines[0])
        return len(self._lines) > self.size.height or total_w > self.size.width

    def _origin(self) -> tuple[int, int, int, int]:
        """``(pad_left, pad_top, left, top)``: where the drawing's window starts on screen
        and which part of the drawing it shows (see :meth:`render_line`)."""
        left, top, shown_w, shown_h = self._window()
        pad_top = max(0, (self.size.height - shown_h) // 2) if not self.clipped else 0
        pad_left = max(0, (self.size.width - shown_w) // 2)
        return pad_left, pad_top, left, top

    def cell_at(self, column: int, line: int) -> tuple[int, int] | None:
        """The grid cell ``(x, y)`` drawn at widget offset ``(column, line)``, or None (the
        frame, the margin, the note)."""
        self._layout()
        if self.picture is None or not self._lines:
            return None
        if self.clipped and line == self.size.height - 1:
            return None
        pad_left, pad_top, left, top = self._origin()
        frame = 1 if self._framed else 0
        cw, ch = self._scale
        dx = column - pad_left + left - frame
        dy = line - pad_top + top - frame
        if column < pad_left or line < pad_top or dx < 0 or dy < 0:
            return None
        x, y = dx // cw, dy // ch
        if x >= self.picture.width or y >= self.picture.height:
            return None
        return x, y

    def render_line(self, y: int) -> Strip:
        """One terminal line of the board (centred; a window around the head when large)."""
        self._layout()
        width = self.size.width
        if self.picture is None or not self._lines:
            return Strip.blank(width, Style())
        left, top, shown_w, shown_h = self._window()
        clipped = self.clipped
        pad_top = max(0, (self.size.height - shown_h) // 2) if not clipped else 0
        pad_left = max(0, (width - shown_w) // 2)
        if clipped and y == self.size.height - 1:
            note = f"grid {self.picture.width}x{self.picture.height}: {self.FOLLOW_NOTE}"[:width]
            return Strip([Segment(note.ljust(width), self._style("note"))]).crop(0, width)
        row = y - pad_top + top
        if y < pad_top or row >= len(self._lines) or row - top >= shown_h:
            return Strip.blank(width, Style())
        segments = [Segment(" " * pad_left, Style())] if pad_left else []
        column = 0
        for text, role in self._lines[row]:
            start, end = column, column + len(text)
            column = end
            lo, hi = max(start, left), min(end, left + shown_w)
            if lo < hi:
                segments.append(Segment(text[lo - start : hi - start], self._style(role)))
        return Strip(segments).crop_extend(0, width, Style())

    def _style(self, role: str) -> Style:
        return self.get_component_rich_style(f"longcat-board--{role}")
