"""Algebrawl's widgets: the board of tiles (monsters, cards, pool) and the tree view.

The board shows three rows of tiles, each tile one value: the monsters (targets), the
operator cards, and the pool of values. A cursor moves between tiles; the screen decides
what picking a tile does. Tiles are drawn with characters and text styles only (reverse
video for the cursor, bold and underline for what is picked, dim and struck through for
what is spent), so they read the same with ``NO_COLOR`` and in 16 colours.

The tree view draws each computed pool value as its expression tree (seed 002's AST), the
one under the cursor first.

Both widgets only show what they are given; they know no rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from rich.tree import Tree
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from core.algebrawl import Ast, Leaf, Node, State, format_value, monster_values, to_infix
from core.text import escape_controls, shorten

__all__ = ["SECTIONS", "AstView", "BrawlBoard", "Tile", "tiles_of", "tree_of"]

SECTIONS = ("monsters", "cards", "pool")
"""The board's rows, top to bottom."""
LABELS = {"monsters": "Monsters", "cards": "Cards", "pool": "Pool"}
LABEL_WIDTH = 10
TILE_TEXT = 14
"""Longest tile text before it is cut with "…"."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile of the board.

    Attributes:
        text: What the tile shows.
        spent: A struck monster or a played card (dim, struck through; picking it does
            nothing).
        index: Target, card or pool index in the state.
    """

    text: str
    """What the tile shows."""
    spent: bool = False
    """Struck or played."""
    index: int = 0
    """Index in the state (target, card or pool position)."""


def _value(value) -> str:
    return shorten(format_value(value), TILE_TEXT)


def tiles_of(state: State) -> dict[str, list[Tile]]:
    """The tiles of a state, per row.

    Monsters and cards keep their places (spent ones stay, greyed, so the hand reads the
    same all game); the pool shows the values in the state's order, a computed value with
    a ``•``.
    """
    puzzle = state.puzzle
    struck = {t for t, _ in state.struck}
    standing = set(state.standing)
    # A monster is standing (◆), struck (✓) or felled by a cast (✗); a traitor that
    # defected stands at the end of the row.
    monsters = [
        Tile(
            f"{'◆' if i in standing else '✓' if i in struck else '✗'} {_value(v)}",
            i not in standing,
            i,
        )
        for i, v in enumerate(monster_values(state))
    ]
    hand = set(state.hand)
    cards = [
        Tile(shorten(escape_controls(c.label), TILE_TEXT), i not in hand, i)
        for i, c in enumerate(puzzle.cards)
    ]
    pool = [
        Tile(_value(tree.value) + ("•" if isinstance(tree, Node) else ""), False, i)
        for i, tree in enumerate(state.pool)
    ]
    return {"monsters": monsters, "cards": cards, "pool": pool}


CURSOR = Style(reverse=True, bold=True)
PICKED = Style(bold=True, underline=True)
SPENT = Style(dim=True, strike=True)


class BrawlBoard(Widget, can_focus=True):
    """The rows of tiles with a cursor (see the module docstring)."""

    DEFAULT_CSS = """
    BrawlBoard { height: auto; min-height: 3; padding: 0 1; }
    """

    class Clicked(Message):
        """A tile was clicked: ``(section, position)``."""

        def __init__(self, section: str, position: int) -> None:
            super().__init__()
            self.section = section
            self.position = position

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.tiles: dict[str, list[Tile]] = {s: [] for s in SECTIONS}
        """The tiles shown, per row."""
        self.cursor: tuple[str, int] = ("pool", 0)
        """The row and the position of the cursor."""
        self.picked: dict[str, set[int]] = {s: set() for s in SECTIONS}
        """Positions picked for the move being built, per row."""
        self.order: dict[int, int] = {}
        """Pool position -> argument number (1-based), shown on picked values."""
        self._regions: list[tuple[int, int, int, str, int]] = []

    def show(
        self,
        tiles: dict[str, list[Tile]],
        cursor: tuple[str, int],
        picked: dict[str, set[int]],
        order: dict[int, int],
    ) -> None:
        """Draw these tiles with the cursor and the picks."""
        self.tiles, self.cursor, self.picked, self.order = tiles, cursor, picked, order
        self.refresh(layout=True)

    def _lines(self, width: int) -> list[Text]:
        """The rows as lines (long rows wrap), recording where each tile is."""
        lines: list[Text] = []
        self._regions = []
        for number, section in enumerate(SECTIONS):
            if number:
                lines.append(Text(""))
            line = Text(f"{LABELS[section]:<{LABEL_WIDTH}}", style="bold", no_wrap=True)
            tiles = self.tiles.get(section, [])
            if not tiles:
                line.append("(none)" if section != "pool" else "(empty)", "dim italic")
            for pos, tile in enumerate(tiles):
                shown = (
                    f"{self.order[pos]}:{tile.text}"
                    if section == "pool" and pos in self.order
                    else tile.text
                )
                text = f"[ {shown} ]"
                if line.cell_len + len(text) + 1 > width and line.cell_len > LABEL_WIDTH:
                    lines.append(line)
                    line = Text(" " * LABEL_WIDTH, no_wrap=True)
                style = Style()
                if tile.spent:
                    style += SPENT
                if pos in self.picked.get(section, ()):
                    style += PICKED
                if (section, pos) == self.cursor:
                    style += CURSOR if self.has_focus else Style(underline=True)
                start = line.cell_len
                line.append(text, style)
                self._regions.append((len(lines), start, line.cell_len, section, pos))
                line.append(" ")
            lines.append(line)
        return lines

    def render(self) -> RenderableType:
        return Group(*self._lines(max(20, self.content_size.width or 60)))

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self._lines(max(20, width)))

    def on_click(self, event: events.Click) -> None:
        """Clicking a tile picks it (the screen decides what that does)."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for line, start, end, section, pos in self._regions:
            if line == offset.y and start <= offset.x < end:
                self.post_message(self.Clicked(section, pos))
                return

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def tree_of(tree: Ast, heading: str | None = None) -> Tree:
    """A rich tree of an expression: cards as ``× → 35``, numbers as themselves
    (built iteratively, whatever the depth)."""

    def label(node: Ast) -> Text:
        if isinstance(node, Leaf):
            return Text(format_value(node.value))
        text = Text(escape_controls(node.card.label), "bold")
        text.append(f" → {format_value(node.value)}")
        return text

    root = Tree(Text(heading, "bold") if heading else label(tree), guide_style="dim")
    top = root.add(label(tree)) if heading else root
    stack: list = [(tree, top)]
    while stack:
        node, branch = stack.pop()
        if isinstance(node, Node):
            added = [(child, branch.add(label(child))) for child in node.children]
            stack.extend(reversed(added))
    return root


class AstView(Static):
    """Each computed pool value as a tree (the one under the cursor first)."""

    DEFAULT_CSS = """
    AstView { height: auto; padding: 0 1; }
    """

    shown_text = ""
    """What is shown, as plain text (for tests and screen readers)."""

    def show(
        self,
        pool: Sequence[Ast],
        first: int | None,
        struck: Sequence[tuple[int, Ast]] = (),
        targets: Sequence = (),
    ) -> None:
        """Draw the trees of the computed values of ``pool``, then the strikes.

        Args:
            pool: The pool's trees.
            first: The position to draw first (the cursor's), if any.
            struck: ``(target index, tree)`` of the strikes made, drawn after the pool.
            targets: The puzzle's targets (to name the struck monsters).
        """
        order = list(range(len(pool)))
        if first is not None and 0 <= first < len(pool):
            order.remove(first)
            order.insert(0, first)
        parts: list[RenderableType] = []
        for pos in order:
            tree = pool[pos]
            if not isinstance(tree, Node):
                continue
            formula = shorten(f"{format_value(tree.value)} = {to_infix(tree)}", 200)
            parts.append(tree_of(tree, escape_controls(formula)))
        for _target, tree in struck:
            if isinstance(tree, Node):
                formula = shorten(f"✓ {format_value(tree.value)} = {to_infix(tree)}", 200)
                parts.append(tree_of(tree, escape_controls(formula)))
        if not parts:
            parts.append(
                Text(
                    "Play a card: the value it makes and its tree appear here.", style="dim italic"
                )
            )
        group = Group(*parts)
        self.shown_text = _plain(group)
        self.update(group)


def _plain(renderable: RenderableType, width: int = 60) -> str:
    """A renderable as plain text."""
    from rich.console import Console

    console = Console(width=width, no_color=True, color_system=None, force_terminal=False)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()
