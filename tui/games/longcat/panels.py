"""The Longcat screen's side panels: widgets that render the session they are given.

Textual's own pattern (``examples/five_by_five.py``): each panel keeps what it shows in
``reactive`` attributes, and its ``watch_`` methods redraw it when one changes. The screen
only assigns them (the session after each move, the difficulty label, whether a solution is
being shown); every figure comes from :mod:`core.longcat` (the regions from
:mod:`core.longcat.prune`), so the panels hold no rule.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from core.longcat.prune import is_dead, region_count
from core.longcat.rules import State
from core.session import Session
from core.text import plural

__all__ = ["LongcatInfo", "LongcatStatus", "count_word", "stuck_regions"]


def count_word(n: int) -> str:
    """``two``, ``three``, ``four``, then digits (``5``)."""
    return {2: "two", 3: "three", 4: "four"}.get(n, str(n))


def stuck_regions(regions: int) -> str:
    """Why a stuck cat cannot finish, by the count of empty regions (two or more).

    Args:
        regions: How many regions the empty cells form.

    Returns:
        E.g. ``"2 regions can no longer both be filled"``.
    """
    both = "both" if regions == 2 else "all"
    return f"{regions} regions can no longer {both} be filled"


class LongcatInfo(Static):
    """The level's figures: its size, the cells filled, the moves (and par), its difficulty."""

    session: reactive[Session | None] = reactive(None)
    """The session shown."""
    difficulty: reactive[str] = reactive("")
    """The level's difficulty label (``easy 28``), computed by the screen."""

    def watch_session(self) -> None:
        self.update(self.text())

    def watch_difficulty(self) -> None:
        self.update(self.text())

    def text(self) -> Text:
        """What the panel shows for :attr:`session` (empty before the first one)."""
        info = Text()
        if self.session is None:
            return info
        state: State = self.session.state
        level = state.level
        # Both sizes: the seed's (every cell of the grid) and the open cells to fill.
        info.append(
            f"{level.width}×{level.height} = {level.width * level.height} cells, "
            f"{level.size} open\n"
        )
        info.append("Filled  ")
        info.append(f"{state.filled.bit_count()}/{level.size}", "bold")
        info.append("\nMoves   ")
        info.append(str(self.session.moves_made), "bold")
        if level.par is not None:
            info.append(f" (par {level.par})")
        info.append("\nLevel   ")
        info.append(self.difficulty, "bold")
        return info


class LongcatStatus(Static):
    """How the game stands: solved, stuck (and why), a dead end, a solution being shown."""

    session: reactive[Session | None] = reactive(None)
    """The session shown."""
    demo: reactive[bool] = reactive(False)
    """True while the screen plays a solution."""

    def watch_session(self) -> None:
        self.update(self.text())

    def watch_demo(self) -> None:
        self.update(self.text())

    def text(self) -> Text:
        """What the panel shows for :attr:`session` and :attr:`demo`."""
        status = Text()
        if self.session is not None:
            self._describe(self.session, status)
        if self.demo:
            status.append(
                ("\n" if status.plain else "") + "▶ Showing the solution (p stops)", "bold"
            )
        return status

    @staticmethod
    def _describe(session: Session, status: Text) -> None:
        state: State = session.state
        level = state.level
        dead = is_dead(level.board, state.filled)
        regions = region_count(level.board, state.filled) if dead else 1
        left = level.size - state.filled.bit_count()
        if session.status == "won":
            status.append("★ Solved!", "bold")
        elif session.status == "lost" and dead:
            status.append(f"✗ Stuck: {stuck_regions(regions)}\n", "bold")
            status.append(f"{plural(left, 'cell')} left: u undoes, R restarts")
        elif session.status == "lost":
            status.append(f"✗ Stuck: {plural(left, 'cell')} left\n", "bold")
            status.append("u undoes, R restarts")
        elif dead:
            status.append("✗ Dead end\n", "bold")
            status.append(
                f"The empty cells are split in {count_word(regions)} "
                "(× marks the cut-off ones): u undoes"
            )
