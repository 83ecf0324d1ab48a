"""Choosing a level: packs on the left, their levels on the right, solved ones ticked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, Static
from textual.widgets.option_list import Option

from core import registry
from tui.screens.common import NavOptionList

SOLVED_MARK = "✓"
"""Shown before a solved level."""


class ChoiceList(NavOptionList):
    """A pack or level list; ``enter`` chooses the highlighted entry.

    Bound on the list itself rather than as a priority key of the screen, so it is handled
    after any cursor keys typed before it (see :class:`tui.screens.home.GameList`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Choose", id="level_select.choose"),
    ]


@dataclass(frozen=True)
class PackInfo:
    """What the level select needs to know about a pack."""

    id: str
    """Pack id (the store key, usually the file name without ``.levels``)."""
    title: str
    """Pack title shown to the player."""
    levels: list[tuple[str, str]] = field(default_factory=list)
    """``(level_id, title)`` in play order."""


class LevelSelectScreen(Screen[tuple[str, int] | None]):
    """Pick a level from a game's packs; dismisses with ``(pack_id, level_index)`` or None.

    Keys: ``j``/``k``/arrows move; ``h``/``l``/left/right/tab switch between packs and levels;
    ``enter``/``space`` on a pack opens its levels, on a level plays it; ``escape``/``q`` back.

    Args:
        game_id: The game (for solved marks from the store and the help page).
        packs: The packs to offer.
        select: ``(pack_id, level_index)`` to highlight first (e.g. the next level).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", "Back", id="level_select.back", key_display="esc"),
        Binding("left,h", "focus_packs", "Packs", show=False, id="level_select.packs"),
        Binding("right,l", "focus_levels", "Levels", show=False, id="level_select.levels"),
    ]

    def __init__(
        self, game_id: str, packs: list[PackInfo], select: tuple[str, int] | None = None
    ) -> None:
        super().__init__()
        self.game_id = game_id
        """The game whose levels are listed."""
        self.HELP_TOPIC = game_id
        """Help page for this screen (the game's)."""
        self.packs = list(packs)
        """The packs offered."""
        self._select = select
        self._pack_index = 0

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        entry = registry.get(self.game_id)
        title = entry.title if entry is not None else self.game_id
        yield Header()
        yield Static(f"{title}: choose a level", id="level-select-title")
        if not self.packs:
            yield Static("No level packs found.", id="no-packs")
        else:
            with Horizontal(id="level-select"):
                with Vertical(id="packs-column"):
                    yield Label("Packs", classes="column-title")
                    yield ChoiceList(id="packs")
                with Vertical(id="levels-column"):
                    yield Label("Levels", classes="column-title")
                    yield ChoiceList(id="levels")
        yield Footer()

    def on_mount(self) -> None:
        if not self.packs:
            return
        pack_index, level_index = 0, 0
        if self._select is not None:
            for index, pack in enumerate(self.packs):
                if pack.id == self._select[0]:
                    pack_index = index
                    level_index = max(0, min(self._select[1], len(pack.levels) - 1))
        self._pack_index = pack_index
        self._fill_packs()
        packs = self.query_one("#packs", NavOptionList)
        packs.highlighted = pack_index
        self._fill_levels(level_index)
        levels = self.query_one("#levels", NavOptionList)
        (levels if levels.option_count else packs).focus()

    def on_screen_resume(self) -> None:
        """Refresh the solved marks when coming back from a game."""
        if self.packs and self.is_mounted:
            self._fill_packs()
            levels = self.query_one("#levels", NavOptionList)
            self._fill_levels(levels.highlighted or 0)

    # -- data ------------------------------------------------------------------------------

    def _solved(self, pack: PackInfo) -> set[str]:
        store = getattr(self.app, "store", None)
        return store.solved_levels(self.game_id, pack.id) if store is not None else set()

    def _fill_packs(self) -> None:
        packs = self.query_one("#packs", NavOptionList)
        highlighted = packs.highlighted
        packs.clear_options()
        for pack in self.packs:
            solved = len(self._solved(pack) & {level_id for level_id, _ in pack.levels})
            prompt = Content.assemble(
                (pack.title, "bold"), "\n", (f"{solved}/{len(pack.levels)} solved", "dim")
            )
            packs.add_option(Option(prompt, id=pack.id))
        packs.highlighted = highlighted if highlighted is not None else self._pack_index

    def _fill_levels(self, highlight: int = 0) -> None:
        pack = self.packs[self._pack_index]
        solved = self._solved(pack)
        levels = self.query_one("#levels", NavOptionList)
        levels.clear_options()
        width = len(str(len(pack.levels)))
        for number, (level_id, title) in enumerate(pack.levels, start=1):
            mark = SOLVED_MARK if level_id in solved else " "
            levels.add_option(Option(f"{mark} {number:>{width}}. {title}"))
        if pack.levels:
            levels.highlighted = max(0, min(highlight, len(pack.levels) - 1))

    # -- events ----------------------------------------------------------------------------

    def on_option_list_option_highlighted(self, event: NavOptionList.OptionHighlighted) -> None:
        if event.option_list.id == "packs" and event.option_index != self._pack_index:
            self._pack_index = event.option_index
            self._fill_levels(0)

    def on_option_list_option_selected(self, event: NavOptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "packs":
            self.action_focus_levels()
        else:
            self.dismiss((self.packs[self._pack_index].id, event.option_index))

    # -- actions ---------------------------------------------------------------------------

    def action_focus_packs(self) -> None:
        """Move the focus to the pack list."""
        if self.packs:
            self.query_one("#packs", NavOptionList).focus()

    def action_focus_levels(self) -> None:
        """Move the focus to the level list."""
        if self.packs:
            levels = self.query_one("#levels", NavOptionList)
            if levels.option_count:
                levels.focus()

    def action_back(self) -> None:
        """Leave without choosing."""
        self.dismiss(None)
