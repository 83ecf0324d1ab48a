"""Choosing a level: sources on the left, their levels on the right.

Sources (see :mod:`tui.sources`): the games in progress, a level file from the command line,
the bundled packs, My levels and the game's generators. Each level row shows whether it is
solved (with the best result against par), solved by the computer only (``○``: watching the
solution is not solving it, so it is not counted), or in progress (with its moves so far); a
generator's list starts with "New level". Choosing a level resumes its saved game, if any.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Label, Static
from textual.widgets.option_list import Option

from core.text import plural
from tui.screens.common import NavOptionList, ScreenHooks
from tui.sources import GeneratorSource, LevelEntry, LevelRef, LevelSource, SourceKind
from tui.text import plain, visible
from tui.widgets.footer import ArcadeFooter

if TYPE_CHECKING:  # pragma: no cover
    from tui.launch import Launcher

__all__ = ["BY_COMPUTER_MARK", "NEW_LEVEL", "PROGRESS_MARK", "SOLVED_MARK", "LevelSelectScreen"]

SOLVED_MARK = "✓"
"""Shown before a solved level."""
PROGRESS_MARK = "…"
"""Shown before a level with a game in progress."""
BY_COMPUTER_MARK = "○"
"""Shown before a level the computer solved (and the player has not): not counted as solved."""
NEW_LEVEL = "+new"
"""Option id of a generator's "New level" row."""


class ChoiceList(NavOptionList):
    """A source or level list; ``enter`` chooses the highlighted entry.

    Bound on the list itself rather than as a priority key of the screen, so it is handled
    after any cursor keys typed before it (see :class:`tui.screens.home.GameList`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Choose", id="level_select.choose"),
    ]


class LevelSelectScreen(ScreenHooks, Screen[LevelRef | None]):
    """Pick a level of one game; choosing opens it on top (the list stays underneath).

    Keys: ``j``/``k``/arrows move; ``h``/``l``/left/right/tab switch between sources and
    levels; ``enter``/``space`` on a source opens its levels, on a level plays it;
    ``D`` deletes the highlighted saved game or own level (asks first); ``escape``/``q`` back.

    Args:
        launcher: The game's launcher (sources, saves, opening levels).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", "Back", id="level_select.back", key_display="esc"),
        Binding("left,h", "focus_sources", "Sources", show=False, id="level_select.packs"),
        Binding("right,l", "focus_levels", "Levels", show=False, id="level_select.levels"),
        Binding(
            "D",
            "delete",
            "Delete",
            id="level_select.delete",
            tooltip="Delete the highlighted saved game or own level (asks first).",
        ),
    ]

    def __init__(self, launcher: Launcher) -> None:
        super().__init__()
        self.launcher = launcher
        """The game's launcher."""
        self._sources: list[LevelSource] = []
        self._entries: list[LevelEntry | None] = []
        self._source_index = 0

    @property
    def game_id(self) -> str:
        """The game whose levels are listed (its help page, its leaderboards)."""
        return self.launcher.info.id

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        title = plain(self.launcher.info.title) + ": choose a level"
        yield Static(title, id="level-select-title")
        with Horizontal(id="level-select"):
            with Vertical(id="packs-column"):
                yield Label("Sources", classes="column-title")
                yield ChoiceList(id="packs")
            with Vertical(id="levels-column"):
                yield Label("Levels", classes="column-title")
                yield ChoiceList(id="levels")
        yield ArcadeFooter()

    def on_mount(self) -> None:
        self._fill_sources()
        self._select_source(0)
        levels = self.query_one("#levels", ChoiceList)
        (levels if levels.option_count else self.query_one("#packs", ChoiceList)).focus()

    def on_screen_resume(self) -> None:
        """Refresh the marks when coming back from a game; the highlight stays on its level,
        or, from "New level" (no level of its own), moves to the game in progress."""
        if self.is_mounted:
            highlighted = self.query_one("#levels", ChoiceList).highlighted
            on_level = highlighted is not None and self._entry(highlighted) is not None
            self._fill_sources()
            self._fill_levels(highlighted if on_level else None)

    # -- data ------------------------------------------------------------------------------

    def _saves(self) -> dict[str, dict[str, Any]]:
        store = self.launcher.app.store
        return {info.slot: dict(info.summary or {}) for info in store.saves(self.game_id)}

    def _fill_sources(self) -> None:
        """List the sources again, keeping the same source selected (by id)."""
        packs = self.query_one("#packs", ChoiceList)
        selected = (
            self._sources[self._source_index].id
            if 0 <= self._source_index < len(self._sources)
            else None
        )
        # "In progress" is listed only when something is in progress.
        self._sources = [
            source
            for source in self.launcher.sources.all()
            if source.kind is not SourceKind.PROGRESS or source.entries()
        ]
        ids = [source.id for source in self._sources]
        self._source_index = ids.index(selected) if selected in ids else 0
        store = self.launcher.app.store
        packs.clear_options()
        for source in self._sources:
            entries = source.entries()
            if source.kind in (SourceKind.PACK, SourceKind.FILE):
                solved = store.solved_moves(self.game_id, source.id)
                done = sum(1 for e in entries if e.ref.key in solved)
                detail = f"{done}/{len(entries)} solved"
            elif isinstance(source, GeneratorSource):
                generator = source.generator
                detail = (generator.description if generator else "") or "generated levels"
            else:
                detail = plural(len(entries), "level")
            prompt = Content.assemble(
                plain(source.title, "bold"),
                "\n",
                plain(visible(detail), "dim"),  # whole: it wraps in the column (issue 30)
            )
            packs.add_option(Option(prompt))
        if self._sources:
            packs.highlighted = self._source_index

    def _select_source(self, index: int) -> None:
        self._source_index = index
        self.query_one("#packs", ChoiceList).highlighted = index
        self._fill_levels()

    def _entry(self, row: int) -> LevelEntry | None:
        """The level of a row of the level list (None: "New level", a note, no such row)."""
        return self._entries[row] if 0 <= row < len(self._entries) else None

    def _progress_row(self, saves: dict[str, dict[str, Any]]) -> int | None:
        """The row of the source's newest game in progress (None: none is in progress).

        Args:
            saves: Summaries by slot, newest first (:meth:`_saves`).
        """
        newest = {slot: rank for rank, slot in enumerate(saves)}
        playing = [
            (newest[entry.ref.slot], row)
            for row, entry in enumerate(self._entries)
            if entry is not None
            and entry.ref.slot in saves
            and saves[entry.ref.slot].get("status", "playing") == "playing"
        ]
        return min(playing)[1] if playing else None

    def _row(self, entry: LevelEntry, solved: dict[str, Any], saves: dict[str, dict]) -> Content:
        # The game's words: a result's (Carving: steps) and a saved game's moves (its actions).
        screen = self.launcher.screen_class
        best = solved.get(entry.ref.key)
        save = saves.get(entry.ref.slot)
        mark = " "
        notes = []
        if entry.ref.key in solved:
            mark = SOLVED_MARK
            if best is not None:
                notes.append(
                    f"best {plural(best, screen.RESULT_WORD)}"
                    + (f" (par {entry.par})" if entry.par is not None else "")
                )
        if save is not None and save.get("status", "playing") == "playing":
            mark = PROGRESS_MARK if mark == " " else mark
            notes.append(f"in progress, {plural(int(save.get('moves', 0)), screen.MOVE_WORD)}")
        elif save is not None and save.get("status") == "won" and save.get("autoplayed") is True:
            # The saved game was won with the computer playing: shown, but not as a solve.
            mark = BY_COMPUTER_MARK if mark == " " else mark
            notes.append("by the computer")
        elif entry.par is not None and best is None:
            notes.append(f"par {entry.par}")
        number = f"{entry.number:>2}. " if entry.number else ""
        # The title is the player's text: content, never markup (a title may read
        # "[@click=app.quit]" and must be shown, not run).
        row = Content(f"{mark} {number}") + plain(entry.title)
        return row + (f"   ({'; '.join(notes)})" if notes else "")

    def _fill_levels(self, highlight: int | None = None) -> None:
        """List the selected source's levels and highlight row ``highlight``; None: the game
        in progress, so that ``enter`` resumes it (issue 30: it opened level 1, or "New
        level" in 2048), else the first row."""
        levels = self.query_one("#levels", ChoiceList)
        levels.clear_options()
        self._entries = []
        if not self._sources:
            return
        source = self._sources[self._source_index]
        saves = self._saves()
        if source.kind is SourceKind.PROGRESS:
            solved: dict[str, Any] = {}
        else:
            solved = self.launcher.app.store.solved_moves(self.game_id, source.id)
        if source.kind is SourceKind.GENERATOR:
            levels.add_option(Option("+  New level", id=NEW_LEVEL))
            self._entries.append(None)
        for entry in source.entries():
            if source.kind is SourceKind.PROGRESS:
                ref_solved = self.launcher.app.store.solved_moves(self.game_id, entry.ref.source)
                row = self._row(entry, ref_solved, saves)
            else:
                row = self._row(entry, solved, saves)
            levels.add_option(Option(row))
            self._entries.append(entry)
        if not self._entries:
            levels.add_option(Option(self._empty_text(source), disabled=True))
            self._entries.append(None)
            return
        if highlight is None:
            highlight = self._progress_row(saves) or 0
        levels.highlighted = max(0, min(highlight, len(self._entries) - 1))

    @staticmethod
    def _empty_text(source: LevelSource) -> str:
        return {
            SourceKind.PROGRESS: "No game in progress.",
            SourceKind.MINE: "No level of your own yet: levels you keep (a generated one, or one from a "
            "game's level editor) appear here.",
        }.get(source.kind, "No levels.")

    def highlight(self, ref: LevelRef) -> None:
        """Show ``ref`` highlighted (after coming back from its game)."""
        self._fill_sources()
        for index, source in enumerate(self._sources):
            if source.id == ref.source:
                self._select_source(index)
                for row, entry in enumerate(self._entries):
                    if entry is not None and entry.ref == ref:
                        self.query_one("#levels", ChoiceList).highlighted = row
                return

    # -- events ----------------------------------------------------------------------------

    def on_option_list_option_highlighted(self, event: NavOptionList.OptionHighlighted) -> None:
        if event.option_list.id == "packs" and event.option_index != self._source_index:
            self._source_index = event.option_index
            self._fill_levels()

    def on_option_list_option_selected(self, event: NavOptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "packs":
            # Enter on a source: to its levels, on the game in progress (enter again resumes).
            row = self._progress_row(self._saves())
            if row is not None:
                self.query_one("#levels", ChoiceList).highlighted = row
            self.action_focus_levels()
            return
        source = self._sources[self._source_index]
        entry = (
            self._entries[event.option_index] if event.option_index < len(self._entries) else None
        )
        if event.option.id == NEW_LEVEL:
            self.launcher.open(source.new())  # type: ignore[attr-defined]
        elif entry is not None:
            self.launcher.open(entry.ref)

    # -- actions ---------------------------------------------------------------------------

    def action_focus_sources(self) -> None:
        """Move the focus to the source list."""
        self.query_one("#packs", ChoiceList).focus()

    def action_focus_levels(self) -> None:
        """Move the focus to the level list."""
        levels = self.query_one("#levels", ChoiceList)
        if levels.option_count:
            levels.focus()

    def action_delete(self) -> None:
        """Delete the highlighted level's saved game, or an own level (asks first)."""
        from tui.modals.confirm import ConfirmModal

        levels = self.query_one("#levels", ChoiceList)
        index = levels.highlighted
        if index is None or index >= len(self._entries) or self._entries[index] is None:
            return
        entry = self._entries[index]
        assert entry is not None
        store = self.launcher.app.store
        source = self._sources[self._source_index]
        has_save = entry.ref.slot in self._saves()
        if source.kind is SourceKind.MINE:
            question = Content.assemble(
                "Delete your level “",
                plain(entry.title),
                "” and its saved game?" if has_save else "”?",
            )
        elif has_save:
            question = Content.assemble("Delete the saved game of “", plain(entry.title), "”?")
        else:
            self.notify("Nothing to delete here.", timeout=3)
            return

        def decided(yes: bool | None) -> None:
            if not yes:
                return
            store.delete_game(self.game_id, entry.ref.slot)
            if source.kind is SourceKind.MINE:
                store.delete_my_level(self.game_id, int(entry.ref.key))
            self._fill_sources()
            self._fill_levels(index)

        self.app.push_screen(ConfirmModal(question, yes="Delete", no="Keep"), decided)

    def action_back(self) -> None:
        """Leave the game."""
        self.dismiss(None)

    # -- game IDs --------------------------------------------------------------------------

    @property
    def level_id(self) -> str | None:
        """The ID of the highlighted level (the palette's "Game ID / seed…" shows it)."""
        from tui.ids import level_id, ref_id

        index = self.query_one("#levels", ChoiceList).highlighted
        entry = self._entries[index] if index is not None and index < len(self._entries) else None
        if entry is None:
            return None
        found = ref_id(self.game_id, entry.ref)
        if found is not None or entry.ref.source.kind is SourceKind.GENERATOR:
            return found
        try:  # its save's copy of the level, else its source's
            level = self.launcher.level_of(entry.ref)
            return level_id(self.game_id, entry.ref, level)
        except Exception:  # a damaged level has no ID
            return None
