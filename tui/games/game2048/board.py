"""The 2048 grid widget: renders a board (tuple of row tuples) as coloured tiles.

Readability rules: every tile prints its value; tiles are drawn in *reverse video* of their
colour, so they stay solid blocks with ``NO_COLOR`` (Textual drops the colours but keeps
reverse and bold) and in 16-colour terminals (the palette uses the 16 ANSI colour names).
Empty cells show a dim dot. Highlighted cells (a merge result, the new tile) are drawn the
other way round (not reversed, bold, underlined) for a moment: the "flash" animation.

The widget only displays values it is given; it knows no rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

__all__ = ["TILE_COLOURS", "Board2048", "cell_geometry", "tile_style"]

TILE_COLOURS: tuple[tuple[str, str], ...] = (
    ("cyan", "black"),  # 1
    ("white", "black"),  # 2
    ("bright_white", "black"),  # 4
    ("yellow", "black"),  # 8
    ("bright_yellow", "black"),  # 16
    ("red", "bright_white"),  # 32
    ("bright_red", "black"),  # 64
    ("magenta", "bright_white"),  # 128
    ("bright_magenta", "black"),  # 256
    ("blue", "bright_white"),  # 512
    ("bright_blue", "black"),  # 1024
    ("green", "black"),  # 2048
    ("bright_green", "black"),  # 4096
    ("bright_cyan", "black"),  # 8192
)
"""(tile colour, text colour) by ``bit_length(value) - 1``, ANSI names only; larger values cycle."""

EMPTY_STYLE = Style(color="bright_black", dim=True)
"""Style of an empty cell's dot."""


def tile_style(value: int, highlighted: bool = False) -> Style:
    """The style of a tile.

    Args:
        value: The tile value (> 0; any integer, not only powers of two).
        highlighted: Draw it flashed (normal video, bold, underlined).

    Returns:
        A rich style using reverse video so the tile is a solid block even without colour.
    """
    rank = max(0, value.bit_length() - 1)
    if rank >= len(TILE_COLOURS):
        rank = 11 + (rank - 11) % (len(TILE_COLOURS) - 11)
    tile, text = TILE_COLOURS[rank]
    if highlighted:
        return Style(color=tile, bold=True, underline=True)
    # Reverse video: the "foreground" colour fills the cell, the "background" one is the text.
    return Style(color=tile, bgcolor=text, reverse=True, bold=rank >= 6)


def cell_geometry(size: int, width: int, height: int) -> tuple[int, int, int]:
    """Choose the cell width, cell height and the gap for a board in an area.

    Cells are about twice as wide as tall (terminal characters are tall) and 1, 3 or 5
    lines high.

    Args:
        size: Board side length.
        width: Available columns.
        height: Available lines.

    Returns:
        ``(cell_width, cell_height, gap)``; the gap is both the column and the line gap
        (0 when space is short).
    """
    gap = 1
    fit_w = (width - gap * (size - 1)) // size
    fit_h = (height - gap * (size - 1)) // size
    if fit_h < 1 or fit_w < 3:
        gap = 0
        fit_w = width // size
        fit_h = height // size
    cell_h = max(1, min(fit_h, fit_w // 2, 5))
    if cell_h % 2 == 0:
        cell_h -= 1  # odd heights put the value on the middle line
    cell_w = max(3, min(fit_w, 2 * cell_h + 3 if cell_h > 1 else fit_w, 13))
    return cell_w, cell_h, gap


class Board2048(Widget):
    """Displays a 2048 board.

    Call :meth:`show` with a board and, optionally, cells to flash.
    """

    DEFAULT_CSS = """
    Board2048 {
        width: 1fr;
        height: 1fr;
        min-width: 12;
        min-height: 4;
    }
    """

    def __init__(
        self,
        board: Sequence[Sequence[int]] = ((0, 0), (0, 0)),
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.board: tuple[tuple[int, ...], ...] = tuple(tuple(r) for r in board)
        """The board shown."""
        self.highlighted: frozenset[tuple[int, int]] = frozenset()
        """Cells drawn flashed."""

    def show(
        self, board: Sequence[Sequence[int]], highlighted: Iterable[tuple[int, int]] = ()
    ) -> None:
        """Display a board.

        Args:
            board: Rows of values (0 = empty).
            highlighted: ``(row, column)`` cells to flash.
        """
        self.board = tuple(tuple(r) for r in board)
        self.highlighted = frozenset((r, c) for r, c in highlighted)
        self.refresh()

    def clear_highlight(self) -> None:
        """Stop flashing."""
        if self.highlighted:
            self.highlighted = frozenset()
            self.refresh()

    def render(self) -> Text:
        """Draw the tiles centred in the widget."""
        n = len(self.board)
        width, height = self.size.width, self.size.height
        cell_w, cell_h, gap = cell_geometry(n, width, height)
        grid_w = n * cell_w + (n - 1) * gap
        grid_h = n * cell_h + (n - 1) * gap
        left = " " * max(0, (width - grid_w) // 2)
        top = max(0, (height - grid_h) // 2)
        text = Text(no_wrap=True, overflow="crop")
        lines: list[Text] = [Text("")] * top
        for r, row in enumerate(self.board):
            if r and gap:
                lines.extend(Text("") for _ in range(gap))
            for line in range(cell_h):
                out = Text(left)
                middle = line == cell_h // 2
                for c, value in enumerate(row):
                    if c and gap:
                        out.append(" " * gap)
                    if value:
                        label = str(value) if middle else ""
                        out.append(
                            label.center(cell_w)[:cell_w]
                            if len(label) <= cell_w
                            else label[:cell_w],
                            tile_style(value, (r, c) in self.highlighted),
                        )
                    else:
                        out.append(("·" if middle else "").center(cell_w), EMPTY_STYLE)
                lines.append(out)
        text = Text("\n", no_wrap=True, overflow="crop").join(lines)
        return text
