"""Triangle Carving's move list: what the current phase lets the player do.

* construct phase: one entry that opens the edge builder;
* path phase: the engine's moves in its order (``Finish`` first when the path may end, then
  the offered steps, each ``(edge, vertex)``: only steps after which a legal elimination
  path can still be completed are offered);
* succession phase: the candidate base points.

Entries are numbered as :meth:`core.carving.game.CarvingGame.moves` numbers them, so digit
keys pick the same move. The list renders what the screen passes in; it decides nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from core.carving import State
from core.carving.game import Extend, Finish, Succeed
from core.text import plural

from .view import edge_label, vertex_label

__all__ = ["BuildEntry", "CarvingActions"]


@dataclass(frozen=True, slots=True)
class BuildEntry:
    """The construct phase's one entry: open the edge builder."""


class CarvingActions(OptionList):
    """The moves of the current phase (see the module docstring).

    Keys: ``j``/``k``/arrows move, ``enter``/``space`` choose (the screen plays the move or
    opens the edge builder).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,s", "cursor_down", "Down", show=False, id="carving_moves.down"),
        Binding("k,w", "cursor_up", "Up", show=False, id="carving_moves.up"),
        # Not in the footer: 80 columns hold the game's keys (the list title says what to do).
        Binding(
            "enter,space",
            "select",
            "Choose",
            id="carving_moves.select",
            key_display="⏎",
            show=False,
        ),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[Any] = []
        """The entries in list order: moves, or a :class:`BuildEntry`."""

    @property
    def current_entry(self) -> Any:
        """The highlighted entry, or None."""
        index = self.highlighted
        if index is None or not 0 <= index < len(self.entries):
            return None
        return self.entries[index]

    def show_moves(
        self, state: State, moves: Sequence[Any], compact: bool, keep: Any = None
    ) -> None:
        """List the moves of ``state``'s phase.

        Args:
            state: The state.
            moves: The engine's moves (path and succession phases).
            compact: One-character variable names (vertex labels without commas).
            keep: An entry to keep highlighted if it is still there.
        """
        options: list[Option] = []
        if state.phase == "construct":
            self.entries = [BuildEntry()]
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append("◆ Build a new edge", "bold")
            text.append("  (c) · pick θ/ω and five formulas of F*")
            options.append(Option(text))
        elif state.phase in ("path", "succession"):
            self.entries = list(moves)
            width = len(str(max(len(moves), 1)))
            for number, move in enumerate(moves, start=1):
                options.append(Option(self._prompt(number, width, state, move, compact)))
        else:
            self.entries = []
            message = (
                "Won! N: next level · u: undo · esc: levels"
                if state.phase == "won"
                else "No move is left. u: undo · R: restart"
            )
            options.append(Option(Text(message, style="italic"), disabled=True))
        self.clear_options()
        self.add_options(options)
        if self.entries:
            self.highlighted = self.entries.index(keep) if keep in self.entries else 0

    @staticmethod
    def _prompt(number: int, width: int, state: State, move: Any, compact: bool) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{number:>{width}}. ", "bold")
        if isinstance(move, Finish):
            removed = len({e for e, _ in state.path})
            text.append("finish", "bold")
            text.append(f": remove the {plural(removed, 'edge')} of the path")
        elif isinstance(move, Extend):
            kind = "V" if move.edge not in state.tree else "T"
            text.append("→ ")
            text.append(vertex_label(move.to, compact), "bold")
            text.append(f"  via {kind} {edge_label(move.edge, compact)}")
            if move.edge == state.pending:
                text.append("  ★ new", "bold")
        elif isinstance(move, Succeed):
            text.append(
                ("◉ " if move.vertex == state.base else "  ") + vertex_label(move.vertex, compact),
                "bold",
            )
            if move.vertex == state.base:
                text.append("  (keep the base point)")
        return text
